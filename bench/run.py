"""The speed and size targets, each measured side by side with its baseline in one run.

    .venv/bin/python bench/run.py            # prints the table; exit status 1 if a target is missed
    .venv/bin/python bench/run.py 1 3        # only targets 1 and 3
    .venv/bin/python bench/run.py 8          # a group of 2,000 games (stored straight into
                                             # the database)
    .venv/bin/python bench/run.py --smoke    # every target once at tiny sizes: it runs,
                                             # no figure counts

The rate limits are off: every request comes from 127.0.0.1, and what is measured is the app's
work, not its limits.

The app and the baselines (bench/baseline_app.py: a hello world, and one read + one commit of
one row with Flask-SQLAlchemy) are served by gunicorn with 2 workers on 127.0.0.1 (both with
the project's gunicorn.conf.py), on SQLite in WAL mode. Pages are asked for as a phone asks for
them: with the session cookie it was given on its first visit. Targets 1, 2 and 5 alternate the
baseline and the app in ROUNDS rounds, print every round, and take the median round: a busy
moment of the machine spoils one round, not the result. Every load is bounded in requests and time.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))

from harness import BIN, ROOT, SMOKE, Request, Result, gunicorn, load, size_of, sized
from harness import page_weight as weigh

from scorekeeper.rules.bidding import Bidding, allowed_bids
from scorekeeper.rules.values import LANGUAGES

#: Rounds of every side-by-side measurement; the result is the median round (one in a smoke run).
ROUNDS = sized(7, 1)
CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"'
                  r'|name="csrf_token" value="([^"]+)"')
ROWS: list[tuple[str, str, str, str, bool]] = []


def row(target: str, ours: str, baseline: str, ratio: str, passed: bool) -> None:
    """One line of the results table."""
    passed = passed or SMOKE
    ROWS.append((target, ours, baseline, ratio, passed))
    print(f"  {target}: {ours} vs {baseline} → {ratio} {'pass' if passed else 'FAIL'}", flush=True)


def big_game(players: int = 8, deals: int = 25, seed: int = 1) -> dict[str, Any]:
    """A finished-so-far game of ``deals`` deals and ``players`` players with legal random bids."""
    rng = random.Random(seed)
    hook = Bidding("hook")
    entries = []
    for number in range(deals):
        cards = 6
        dealer = number % players
        order = [(dealer + 1 + i) % players for i in range(players)]
        bids = [0] * players
        earlier: list[int] = []
        for seat in order:
            bids[seat] = rng.choice(allowed_bids(hook, cards, earlier, dealer=seat == dealer))
            earlier.append(bids[seat])
        tricks = [0] * players
        for _ in range(cards):
            tricks[rng.randrange(players)] += 1
        entries.append({"bids": bids, "tricks": tricks})
    return {"title": "Benchmark", "players": [f"Player {i + 1}" for i in range(players)],
            "rules": {"deal": "fixed", "max_cards": 6, "deals": deals + 5}, "deals": entries}


def api(port: int, method: str, path: str, doc: Any = None) -> Any:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    body = None if doc is None else json.dumps(doc)
    connection.request(method, path, body=body, headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return json.loads(data)


def token_of(export: dict[str, Any], link: str = "api") -> str:
    return str(export["links"][link].rstrip("/").split("/")[-1 if link != "sheet" else -2])


def visit(port: int, path: str) -> str:
    """The session cookie a phone keeps from its first visit to a page."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", path)
    response = connection.getresponse()
    response.read()
    cookie = (response.getheader("Set-Cookie") or "").split(";", 1)[0]
    assert cookie, f"{path} set no session cookie"
    return cookie


def session(port: int, token: str) -> tuple[str, str]:
    """A phone's session cookie and CSRF token, from the game's page."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", f"/g/{token}")
    response = connection.getresponse()
    page = response.read().decode()
    cookie = (response.getheader("Set-Cookie") or "").split(";", 1)[0]
    match = CSRF.search(page)
    assert match, "no CSRF token on the game page"
    return cookie, match.group(1) or match.group(2)


def medians(pairs: list[tuple[float, float]]) -> tuple[float, float, float]:
    """The median of ours, of the baseline, and of the ratios of the rounds (each round measures
    both side by side, so a busy moment of the machine spoils one round's pair, not the result)."""
    return (statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs),
            statistics.median(p[0] / p[1] for p in pairs))


def game_entries(token: str, cookie: str, csrf: str, sizes: list[int]) -> list[Request]:
    """A phone's POSTs for a whole game of 4 players, in order: 4 bids (the first each may make),
    then the tricks (all to the first player), deal after deal; each names its deal, carries the
    version it follows and a tap id of its own, as the game page's taps do."""
    hook, entries, version = Bidding("hook"), [], 1
    headers = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}
    for deal, cards in enumerate(sizes):
        dealer, earlier = deal % 4, []
        tapped = {"csrf_token": csrf, "deal": deal + 1}
        for step in range(4):
            seat = (dealer + 1 + step) % 4
            bid = allowed_bids(hook, cards, earlier, dealer=seat == dealer)[0]
            earlier.append(bid)
            form = {**tapped, "version": version, "seat": seat, "bid": bid,
                    "tap": f"{token}-{version}"}
            entries.append(("POST", f"/g/{token}/bid", urlencode(form).encode(), headers))
            version += 1
        form = {**tapped, "version": version, "tap": f"{token}-{version}",
                **{f"tricks-{s}": cards if s == 0 else 0 for s in range(4)}}
        entries.append(("POST", f"/g/{token}/tricks", urlencode(form).encode(), headers))
        version += 1
    return entries


def entry_throughput(port: int, base_port: int, clients: int, rounds: int | None = None) -> None:
    """Target 1: a bid or tricks POST against one read + one commit of one row.

    In each round every client is a phone playing two new 19-deal games, one after the other
    (190 entries, built before the clock starts, as the baseline's), right after the baseline
    took as many requests.
    """
    sizes = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10][:sized(19, 2)]
    games = sized(2, 1)
    per_client = games * 5 * len(sizes)  # whole games
    commit: Request = ("POST", "/commit", b"", {})
    rates: list[tuple[float, float]] = []
    for _ in range(rounds or ROUNDS):
        plans = []
        for _ in range(clients):
            plan: list[Request] = []
            for _ in range(games):
                doc = {"players": ["Ann", "Bob", "Cy", "Dee"], "rules": {"preset": "oh-hell"}}
                token = token_of(api(port, "POST", "/api/games", doc))
                plan += game_entries(token, *session(port, token), sizes)
            plans.append(plan)
        base = load(base_port, lambda c, i: commit, clients=clients, requests=per_client,
                    seconds=120)
        ours = load(port, lambda c, i, plans=plans: plans[c][i], clients=clients,
                    requests=per_client, seconds=120, ok=(302, 303))
        assert not ours.errors and not base.errors, (ours.errors + base.errors)[:3]
        rates.append((ours.rate, base.rate))
    print("    rounds:", " ".join(f"{o / b:.2f}" for o, b in rates), flush=True)
    mine, theirs, ratio = medians(rates)
    row("1. entering a bid or tricks: throughput ≥ 0.8× one read + one commit",
        f"{mine:.0f} req/s", f"{theirs:.0f} req/s", f"{ratio:.2f}×", ratio >= 0.8)


def latency(port: int, path: str, clients: int, requests: int, method: str = "GET",
            body: bytes | None = None, headers: dict[str, str] | None = None,
            ok: tuple[int, ...] = (200, 201)) -> Result:
    result = load(port, lambda c, i: (method, path, body, headers or {}), clients=clients,
                  requests=sized(requests, min(requests, 3)), seconds=120, ok=ok)
    assert not result.errors, result.errors[:3]
    return result


def side_by_side(ours: Callable[[], Result], hello: Callable[[], Result],
                 rounds: int | None = None) -> tuple[float, float, float]:
    """p50 latencies of ours and of the hello world, measured in alternating rounds: the medians
    of each, and of the rounds' ratios."""
    pairs = []
    for _ in range(rounds or ROUNDS):
        theirs = hello()
        pairs.append((ours().p50, theirs.p50))
    print("    rounds:", " ".join(f"{o:.2f}/{h:.2f}" for o, h in pairs), flush=True)
    return medians(pairs)


def count_queries() -> None:
    """Target 3: SQL statements per page, for a game of 1 deal and of 25 deals (in-process)."""
    from sqlalchemy import event

    from scorekeeper import create_app
    from scorekeeper.store.db import db

    folder = tempfile.mkdtemp()
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/q.sqlite",
                      "SECRET_KEY": "bench", "COSTLY_WITHIN": "0"})  # every sheet to its answer
    with app.app_context():
        db.create_all()
        statements: list[str] = []
        event.listen(db.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    client = app.test_client()
    counts: dict[str, list[int]] = {}
    for deals in (1, 25):
        export = client.post("/api/games", json=big_game(8, deals)).get_json()
        token, view = token_of(export), token_of(export, "view")
        pages = {"game page": f"/g/{token}", "read-only page": f"/v/{view}",
                 "live state": f"/v/{view}/state", "export": f"/api/games/{token}",
                 "filled sheet": f"/g/{token}/sheet.pdf", "home": "/"}
        for name, path in pages.items():
            client.get(path)  # the first visit remembers the game on this device
            statements.clear()
            response = client.get(path)
            assert response.status_code == 200, (path, response.status_code)
            counts.setdefault(name, []).append(len(statements))
    same = all(one == many for one, many in counts.values())
    detail = ", ".join(f"{name} {one}/{many}" for name, (one, many) in counts.items())
    row("3. SQL statements per page, 1 deal / 25 deals: the same", detail, "—",
        "equal" if same else "differ", same)


def page_weight(port: int, token: str) -> None:
    """Target 4: the deal screen with its CSS and JavaScript, and nothing from another host; then
    what the phone loads besides (the service worker, the manifest, the icons), said in a line."""
    sizes, foreign = weigh(port, f"/g/{token}")
    total = sum(sizes.values())
    detail = " + ".join(f"{name} {size / 1000:.1f}" for name, size in sizes.items())
    # In every language: the sentences of the page and of its scripts' words are longer in most.
    totals = {code: sum(weigh(port, f"/g/{token}?lang={code}")[0].values()) for code in LANGUAGES}
    heaviest = max(totals, key=lambda code: totals[code])
    row("4. deal screen with CSS and JS ≤ 81 KB, nothing from another host",
        f"{total / 1000:.1f} KB ({detail}); "
        f"heaviest in {heaviest}: {totals[heaviest] / 1000:.1f} KB", "81 KB",
        f"{totals[heaviest] / 81000:.2f}×", max(totals.values()) <= 81000 and not foreign)
    print("    by language:",
          ", ".join(f"{code} {size / 1000:.1f} KB" for code, size in totals.items()), flush=True)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/manifest.webmanifest")
    icons = [icon["src"] for icon in json.loads(connection.getresponse().read())["icons"]]
    besides = {"sw.js": size_of(connection, "/sw.js"),
               "manifest": size_of(connection, "/manifest.webmanifest"),
               "offline page": size_of(connection, "/offline"),
               **{icon.split("?")[0].rsplit("/", 1)[-1]: size_of(connection, icon)
                  for icon in icons}}
    print("    the app on the phone, besides:",
          ", ".join(f"{name} {size / 1000:.1f} KB" for name, size in besides.items()), flush=True)


def resident_memory(port: int, export: dict[str, Any], pids: list[int]) -> None:
    """Target 6: a worker's resident memory after 1,000 requests of every kind, 20 PDFs among
    them."""
    token, view = token_of(export), token_of(export, "view")
    cookie, csrf = session(port, token)
    paths = ["/", f"/g/{token}", f"/v/{view}", f"/v/{view}/state", f"/api/games/{token}", "/new",
             f"/g/{token}/share", f"/g/{token}/export.json", "/sheets/blank"]
    doc = json.dumps(big_game(4, 10)).encode()

    def mixed(client: int, i: int) -> Request:
        n = client * 1000 + i
        if n % 50 == 0:
            return ("GET", f"/g/{token}/sheet.pdf", None, {})
        if n % 7 == 0:
            return ("POST", "/api/games", doc, {"Content-Type": "application/json"})
        if n % 11 == 0:  # a stale entry: refused with the current state, nothing changed
            form = urlencode({"csrf_token": csrf, "version": 0, "seat": 1, "bid": 0}).encode()
            return ("POST", f"/g/{token}/bid", form,
                    {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"})
        return ("GET", paths[n % len(paths)], None, {"Cookie": cookie})

    # A sheet asked while another worker draws one may be refused at once (503): the costly lane.
    result = load(port, mixed, clients=2, requests=sized(500, 25), seconds=300,
                  ok=(200, 201, 409, 503))
    assert not result.errors, result.errors[:3]
    rss = [int(line.split()[1]) / 1024 for pid in pids
           for line in Path(f"/proc/{pid}/status").read_text().splitlines()
           if line.startswith("VmRSS")]
    worst = max(rss)
    row("6. worker memory after 1,000 requests (20 PDFs) < 150 MB",
        f"{worst:.0f} MB", "150 MB", f"{worst / 150:.2f}×", worst < 150)


NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lou"]


def finished_game(seed: int) -> dict[str, Any]:
    """A finished game of 4 to 8 of a table's twelve regulars: 10 deals of 6 cards, hook, random
    bids."""
    rng = random.Random(seed)
    players = rng.randint(4, 8)
    doc = big_game(players, 10, seed)
    doc["players"] = rng.sample(NAMES, players)
    doc["rules"]["deals"] = 10
    doc["title"] = f"Evening {seed}"
    return doc


def form_session(port: int, path: str) -> tuple[str, str]:
    """A phone's session cookie and CSRF token, from a page with a form."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", path)
    response = connection.getresponse()
    page = response.read().decode()
    match = CSRF.search(page)
    assert match, f"no CSRF token on {path}"
    return ((response.getheader("Set-Cookie") or "").split(";", 1)[0],
            match.group(1) or match.group(2))


def groups_target(port: int, games: int = 200, rounds: int | None = None) -> None:
    """Target 7: a group of 200 finished games of 4–8 players. Its page's p50 against the
    scoreboard page's (25 deals × 8 players) in the same rounds; adding a finished game (the group
    page's form) against a bid tap; the SQL statements per group page, 10 games against 200."""
    group = api(port, "POST", "/api/groups", {"name": "Bench club"})
    edit = token_of(group, "edit")
    for seed in range(games):
        added = api(port, "POST", f"/api/groups/{edit}/games",
                    {"game": token_of(api(port, "POST", "/api/games", finished_game(seed)))})
    assert len(added["games"]) == games and all(g["finished"] for g in added["games"])
    view = token_of(group, "view")
    board = token_of(api(port, "POST", "/api/games", big_game()), "view")
    phone = {"Cookie": visit(port, f"/v/{board}")}
    latency(port, f"/gr/{view}", 2, 20)  # both workers count the figures once
    latency(port, f"/v/{board}", 2, 20, headers=phone)
    page, scoreboard, ratio = side_by_side(lambda: latency(port, f"/gr/{view}", 2, 100),
                                           lambda: latency(port, f"/v/{board}", 2, 100,
                                                           headers=phone), rounds)
    row(f"7a. group page, {games} finished games of 4–8 players: p50 ≤ 3× the scoreboard page's",
        f"{page:.2f} ms", f"{scoreboard:.2f} ms", f"{ratio:.2f}×", ratio <= 3)

    cookie, csrf = form_session(port, f"/gr/{edit}")
    form_headers = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}
    pairs = []
    for _ in range(rounds or ROUNDS):
        fresh = [token_of(api(port, "POST", "/api/games",
                              finished_game(1000 + len(pairs) * 20 + i)))
                 for i in range(sized(20, 2))]
        adds = [("POST", f"/gr/{edit}/games", urlencode({"csrf_token": csrf, "link": t}).encode(),
                 form_headers)
                for t in fresh]
        taps: list[Request] = []
        for _ in range(sized(5, 1)):  # the four bids of a first deal, in five new games
            doc = {"players": ["Ann", "Bob", "Cy", "Dee"], "rules": {"preset": "oh-hell"}}
            game = token_of(api(port, "POST", "/api/games", doc))
            taps += [entry for entry in game_entries(game, *session(port, game), [10])[:4]]
        tapped = load(port, lambda c, i, taps=taps: taps[i], clients=1, requests=len(taps),
                      ok=(302, 303))
        added_result = load(port, lambda c, i, adds=adds: adds[i], clients=1, requests=len(adds),
                            ok=(302, 303))
        assert not tapped.errors and not added_result.errors, (
            tapped.errors + added_result.errors)[:3]
        pairs.append((added_result.p50, tapped.p50))
    print("    rounds:", " ".join(f"{o:.2f}/{h:.2f}" for o, h in pairs), flush=True)
    add_ms, tap_ms, ratio = medians(pairs)
    row("7b. adding a finished game to the group: p50 ≤ 3× a bid tap's", f"{add_ms:.2f} ms",
        f"{tap_ms:.2f} ms", f"{ratio:.2f}×", ratio <= 3)
    # the page after an addition goes on from the figures kept
    after = latency(port, f"/gr/{view}", 1, 2)
    print(f"    the group page right after an addition (the new games counted): {after.p50:.2f} ms",
          flush=True)
    group_queries()


def group_queries() -> None:
    """Target 7c: SQL statements per group page, a group of 10 finished games and of 200
    (in-process)."""
    from sqlalchemy import event

    from scorekeeper import create_app
    from scorekeeper.store.db import db

    folder = tempfile.mkdtemp()
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/g.sqlite",
                      "SECRET_KEY": "bench",
                      "RATELIMIT_ENABLED": False})  # 200 games in a few seconds, from one address
    with app.app_context():
        db.create_all()
        statements: list[str] = []
        event.listen(db.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    client = app.test_client()
    counts: dict[str, list[int]] = {}
    group = client.post("/api/groups", json={"name": "Count"}).get_json()
    edit, view = token_of(group, "edit"), token_of(group, "view")
    added = 0
    for size in (sized(10, 2), sized(200, 4)):
        while added < size:
            game = client.post("/api/games", json=finished_game(5000 + added)).get_json()
            client.post(f"/api/groups/{edit}/games", json={"game": token_of(game)})
            added += 1
        pages = {"group page": f"/gr/{view}", "player page": f"/gr/{view}/players/Ann",
                 "group API": f"/api/groups/{view}"}
        for name, path in pages.items():
            client.get(path)
            statements.clear()
            response = client.get(path)
            assert response.status_code == 200, (path, response.status_code)
            counts.setdefault(name, []).append(len(statements))
    same = all(one == many for one, many in counts.values())
    detail = ", ".join(f"{name} {one}/{many}" for name, (one, many) in counts.items())
    row("7c. SQL statements per group page, 10 / 200 games: the same", detail, "—",
        "equal" if same else "differ", same)


def club_game(seed: int) -> dict[str, Any]:
    """A finished game of 4 to 10 of a club's 60 members, every other game with a guest nobody
    saw before: 10 deals of 6 cards (two packs for 9 or 10 players), hook, random bids."""
    rng = random.Random(seed)
    players = rng.randint(4, 10)
    doc = {**big_game(players, 10, seed), "title": f"Club night {seed}"}
    doc["players"] = [f"Member {n}" for n in rng.sample(range(60), players)]
    if seed % 2:
        doc["players"][-1] = f"Guest {seed}"
    doc["rules"] = {"deal": "fixed", "max_cards": 6, "deals": 10, "decks": 2 if players > 8 else 1}
    return doc


def seed_group(database: str, games: int) -> tuple[str, str, str, str]:
    """A group of ``games`` club games stored straight into the database (through the app's own
    models, in process: the API would answer each addition with the whole group); its edit and
    read-only tokens, and its first game's edit and read-only tokens."""
    from scorekeeper import create_app
    from scorekeeper.rules.gamefile import parse
    from scorekeeper.store.db import commit
    from scorekeeper.store.games import StoredGame
    from scorekeeper.store.groups import StoredGroup

    app = create_app({"SQLALCHEMY_DATABASE_URI": database, "SECRET_KEY": "bench"})
    with app.test_request_context():
        group = StoredGroup.create("Large club")
        stored = [StoredGame.create(parse(club_game(seed))) for seed in range(games)]
        for game in stored:
            assert group.add(game) == "added"
        commit()
    return group.token, group.view_token, stored[0].token, stored[0].view_token


def large_group_target(port: int, database: str, games: int = 2000,
                       rounds: int | None = None) -> None:
    """Target 8: a group of 2,000 games of 4–10 players. Its page's p50 against the scoreboard
    page's (25 deals × 8 players) in the same rounds; then its first game taken out and put back
    in turn, each through the group page's form and timed with the next GET of the page."""
    edit, view, first, first_view = seed_group(database, games)
    board = token_of(api(port, "POST", "/api/games", big_game()), "view")
    phone = {"Cookie": visit(port, f"/v/{board}")}
    cold = load(port, lambda c, i: ("GET", f"/gr/{view}", None, {}), clients=2, requests=2,
                seconds=120)
    assert not cold.errors, cold.errors[:3]
    print(f"    the page in a worker that holds nothing of the group (both workers at once): "
          f"{cold.p50:.0f} ms", flush=True)
    latency(port, f"/v/{board}", 2, 20, headers=phone)
    page, scoreboard, ratio = side_by_side(lambda: latency(port, f"/gr/{view}", 2, 100),
                                           lambda: latency(port, f"/v/{board}", 2, 100,
                                                           headers=phone), rounds)
    row(f"8a. group page, {games:,} games of 4–10 players: p50 ≤ 3× the scoreboard page's",
        f"{page:.2f} ms", f"{scoreboard:.2f} ms", f"{ratio:.2f}×", ratio <= 3)
    size = size_of(http.client.HTTPConnection("127.0.0.1", port, timeout=30), f"/gr/{view}")
    print(f"    the page weighs {size / 1000:.1f} KB", flush=True)
    cookie, csrf = form_session(port, f"/gr/{edit}")
    headers = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}
    changes = [("POST", f"/gr/{edit}/remove",
                urlencode({"csrf_token": csrf, "game": first_view}).encode(), headers),
               ("POST", f"/gr/{edit}/games",
                urlencode({"csrf_token": csrf, "link": first}).encode(), headers)]
    times = []
    for change in range(2 * (rounds or ROUNDS)):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        started = time.perf_counter()
        method, path, body, sent = changes[change % 2]
        connection.request(method, path, body=body, headers=sent)
        answer = connection.getresponse()
        answer.read()
        assert answer.status == 302, (path, answer.status)
        connection.request("GET", f"/gr/{edit}", headers={"Cookie": cookie})
        page_answer = connection.getresponse()
        page_answer.read()
        assert page_answer.status == 200
        times.append(time.perf_counter() - started)
        connection.close()
    print("    take out / put back, each with the next GET:", " ".join(f"{t:.2f}" for t in times),
          flush=True)
    worst = max(times)
    row(f"8b. taking out the first of {games:,} games (or putting it back), then the page: ≤ 2 s",
        f"{statistics.median(times):.2f} s (worst {worst:.2f} s)", "2 s", f"{worst / 2:.2f}×",
        worst <= 2)


def workers_of(port: int) -> list[int]:
    """The pids of the gunicorn workers listening on ``port``."""
    out = subprocess.run(["ps", "-ww", "-eo", "pid,ppid,args"], capture_output=True, text=True,
                         check=True).stdout
    masters = [line.split()[0] for line in out.splitlines() if f"127.0.0.1:{port}" in line]
    return [int(line.split()[0]) for line in out.splitlines() if line.split()[1] in masters]


def main() -> int:
    folder = tempfile.mkdtemp(prefix="scorekeeper-bench-")
    app_url, base_url = f"sqlite:///{folder}/app.sqlite", f"sqlite:///{folder}/base.sqlite"
    env = {"DATABASE_URL": app_url, "BASELINE_DATABASE_URL": base_url, "RATELIMIT_ENABLED": "no"}
    subprocess.run([str(BIN / "flask"), "--app", "scorekeeper", "db", "upgrade"], cwd=ROOT,
                   env={**os.environ, **env}, check=True, capture_output=True)
    sys.path.insert(0, str(ROOT / "bench"))
    os.environ["BASELINE_DATABASE_URL"] = base_url
    import baseline_app

    baseline_app.prepare()
    print("measuring…", flush=True)
    wanted = set(sys.argv[1:]) or set("12345678")
    with gunicorn("scorekeeper:create_app()", env) as port, \
            gunicorn("baseline_app:create_app()",
                     {**env, "PYTHONPATH": str(ROOT / "bench")}) as base:
        if "1" in wanted:
            entry_throughput(port, base, clients=sized(4, 1))
        export = api(port, "POST", "/api/games", big_game())
        if "2" in wanted:
            view = token_of(export, "view")
            # a phone that has opened the board before
            phone = {"Cookie": visit(port, f"/v/{view}")}
            latency(base, "/hello", 2, 50)  # warm-up
            latency(port, f"/v/{view}", 2, 20, headers=phone)
            board, hello, ratio = side_by_side(lambda: latency(port, f"/v/{view}", 2, 100,
                                                               headers=phone),
                                               lambda: latency(base, "/hello", 2, 100))
            row("2. scoreboard page, 25 deals × 8 players: p50 ≤ 2× hello world",
                f"{board:.2f} ms", f"{hello:.2f} ms", f"{ratio:.2f}×", ratio <= 2)
        if "3" in wanted:
            count_queries()
        if "4" in wanted:
            page_weight(port, token_of(export))
        if "5" in wanted:
            doc = json.dumps(big_game()).encode()
            imported, hello, ratio = side_by_side(
                lambda: latency(port, "/api/games", 2, 60, "POST", doc,
                                {"Content-Type": "application/json"}),
                lambda: latency(base, "/hello", 2, 100))
            row("5. importing a 25-deal, 8-player game file: p50 ≤ 3× hello world",
                f"{imported:.2f} ms", f"{hello:.2f} ms", f"{ratio:.2f}×", ratio <= 3)
        if "6" in wanted:
            resident_memory(port, export, workers_of(port))
        if "7" in wanted:
            groups_target(port, sized(200, 3))
        if "8" in wanted:
            large_group_target(port, app_url, sized(2000, 5))
    print()
    print("| target | ours | baseline | ratio | result |")
    print("|---|---|---|---|---|")
    for target, ours, baseline, ratio, passed in ROWS:
        print(f"| {target} | {ours} | {baseline} | {ratio} | {'pass' if passed else 'FAIL'} |")
    return 0 if all(r[4] for r in ROWS) else 1


if __name__ == "__main__":
    sys.exit(main())
