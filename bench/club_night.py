r"""A club night: the tables enter their deals (bench/load_tables.py) while the costliest requests
within the limits run beside them, over and over, on the same server.

Beside the tables, three clients keep asking, each one request after the other, from before the
first tap to the end:

- **imports**: a backup of ``--import-games`` games, each with its own house formulas of 190
  characters for two decks and hands up to 32 cards (nothing checked for one is reused for
  another), restored on the import page: about the most a backup's check may cost;
- **the group**: a group of ``--group-games`` finished games of 4–10 of a club's members (stored
  before the clock starts): its page, a page of its games and of its players, then its first game
  taken out and put back, each followed by its page from the other server (when there are two),
  which must count the games as they are now;
- **sheets**: the filled sheet of the longest game (10 players, 300 deals, its last deal being bid:
  a bid or an undo on it before each sheet, so no worker holds it yet) and the blank sheet of
  10 players and 200 deals (with a new title each time, so no worker holds it either).

The tables' figures are those of bench/load_tables.py; every acknowledged tap must be stored
exactly once, no page may show a game older than what its phone knew, and every request must
answer as it should (0 errors), the costly ones included: a sheet or a restore either answers, or
is answered 503 (web/lanes.py: the server's costly lane full, or the sheet or the backup's check
not done within ``COSTLY_WITHIN``; counted apart, not as an error) and is asked again after its
Retry-After, as a phone does. The rate limits are off (one address).

    .venv/bin/python bench/club_night.py                           # SQLite, 10 tables for 20 s
    .venv/bin/python bench/club_night.py --tables 30 --seconds 60  # the full club night
    scripts/with-postgres .venv/bin/python bench/club_night.py --database both --tables 30 \
        --seconds 60
    scripts/with-postgres .venv/bin/python bench/club_night.py --database postgres --servers 2

``--smoke`` runs one table for 3 s beside a group of 5 games, a backup of one game and the sheets
of a game of 10 deals: it runs, and no figure counts (but its errors do).

``--database both`` runs SQLite and then PostgreSQL (under scripts/with-postgres) and prints their
figures side by side. Every request goes to 127.0.0.1; each run is bounded by --seconds.
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))

from harness import sized
from load_tables import (
    STEP,
    Book,
    Client,
    Run,
    Server,
    allowed_bids,
    arguments,
    check_database,
    csrf_of,
    database,
    figures,
    play_tables,
    server_env,
)
from run import seed_group
from worst_cases import MADE, MISSED, REVIEWED_BLANK, largest_game

from scorekeeper.games.backup import FORMAT
from scorekeeper.web.lanes import DRAWN_AFTER

#: What a group page says of how many games and players it counts ("2,000 games · 1,060 players").
GAMES = re.compile(r"([\d][\d,.\s\u202f\xa0]*?)\s+games?\b")
PLAYERS = re.compile(r"([\d][\d,.\s\u202f\xa0]*?)\s+players?\b")
#: Rows on a page of a group's games or players.
PAGE = 50


def count(pattern: re.Pattern[str], page: str) -> int:
    """The number a page says before a word ("2,000 games"); -1 when it says none."""
    shown = pattern.search(page)
    return int(re.sub(r"\D", "", shown.group(1))) if shown else -1


def costly(number: int) -> dict[str, Any]:
    """A game with two decks, hands up to 32 cards and house formulas of its own: its check works
    the formulas out over every bid of every hand size. Four of them are about as much as one
    backup's check may cost (with hands up to 52, a backup is refused, as bench/worst_cases.py
    shows): the costliest restore the rules accept."""
    return {"title": f"Costly {number}", "players": ["Ann", "Bob"],
            "rules": {"decks": 2, "max_cards": 32, "scoring": "custom",
                      "made": f"{MADE} + {number}", "missed": f"{MISSED} - {number}"}}


class Heavy:
    """One client of costly requests: its latencies by kind, its errors in the tables' book."""

    def __init__(self, servers: list[Server], book: Book) -> None:
        self.client = Client(servers, book, timeout=120)
        self.book = book
        self.times: dict[str, list[float]] = {}

    def ask(self, what: str, method: str, path: str, form: dict[str, Any] | None = None,
            expect: tuple[int, ...] = (200,),
            server: int | None = None) -> tuple[str, float] | None:
        """One request, timed under ``what``; its text, or None (an error, counted) when its status
        is not what it should be. A costly request may be answered 503 (web/lanes.py: the lane
        full, or the sheet or the check not done within its time): timed under "<what>, refused
        (503)", then asked again after ``AGAIN_AFTER`` seconds as a phone does (the page of a sheet
        asks again by itself), ``TRIES`` times at most; the time from the first asking to the
        answer goes under "<what>, until answered"."""
        first = time.monotonic()
        for _try in range(TRIES):
            if form is None:
                status, text, _, took = self.client.request(method, path, server=server)
            else:
                status, text, _, took = self.client.form(path, form, server)
            if status != 503 or not COSTLY.search(what):
                break
            self.times.setdefault(f"{what}, refused (503)", []).append(took)
            time.sleep(AGAIN_AFTER)
        else:
            return None
        if status not in expect:
            if status:
                self.book.error(f"{what}: HTTP {status}")
            return None
        self.times.setdefault(what, []).append(took)
        if COSTLY.search(what):
            self.times.setdefault(f"{what}, until answered", []).append(time.monotonic() - first)
        return text, took


#: The requests the costly lane takes: a restore, a sheet.
COSTLY = re.compile(r"^restore|sheet")
#: How many times a costly request is asked, and the seconds between (its Retry-After).
TRIES, AGAIN_AFTER = 5, DRAWN_AFTER


def imports(heavy: Heavy, deadline: float, games: int, done: list[int]) -> None:
    """Restore backups of costly games, one after the other, each from a new phone."""
    number = 0
    while time.monotonic() < deadline:
        heavy.client.cookie = ""
        page = heavy.ask("import page", "GET", "/import")
        if page is None:
            return
        backup = {"format": FORMAT, "games": [costly(number + n) for n in range(games)]}
        number += games
        if heavy.ask(f"restore a backup of {games} costly games", "POST", "/import",
                     {"csrf_token": csrf_of(page[0]), "text": json.dumps(backup)}) is not None:
            done.append(games)


def group(heavy: Heavy, deadline: float, tokens: tuple[str, str, str, str], size: int) -> None:
    """Read the large group's pages; take its first game out and put it back, each time reading its
    page again (from the other server when there are two) to see the count it must show."""
    edit, view, first, first_view = tokens
    servers, page = len(heavy.client.servers), 0
    while time.monotonic() < deadline:
        page += 1
        shown = heavy.ask("group page", "GET", f"/gr/{view}")
        players = count(PLAYERS, shown[0]) if shown else 1
        heavy.ask("a page of its games", "GET",
                  f"/gr/{view}/games?page={page % -(-size // PAGE) + 1}")
        heavy.ask("a page of its players", "GET",
                  f"/gr/{view}/players?page={page % -(-players // PAGE) + 1}")
        found = heavy.ask("its edit page", "GET", f"/gr/{edit}")
        if found is None:
            continue
        csrf = csrf_of(found[0])
        for action, form, games in (("remove", {"game": first_view}, size - 1),
                                    ("games", {"link": first}, size)):
            server = heavy.client.turn % servers
            changed = heavy.ask(f"group: {action}", "POST", f"/gr/{edit}/{action}",
                                {"csrf_token": csrf, **form}, (302,), server)
            after = heavy.ask("group: its page after a change", "GET", f"/gr/{view}",
                              server=(server + 1) % servers)
            if changed is None or after is None:
                continue
            heavy.times.setdefault("group: a change and its page", []).append(changed[1] + after[1])
            counted = count(GAMES, after[0])
            if counted != games:
                with heavy.book.lock:
                    heavy.book.stale.append(f"the group page after '{action}' counts {counted} "
                                            f"games, not {games}")


def sheets(heavy: Heavy, deadline: float, longest: str) -> None:
    """The longest game's filled sheet after a bid (or its undo) on it, and the largest blank
    sheet with a title of its own, one after the other."""
    night = 0
    while time.monotonic() < deadline:
        night += 1
        found = heavy.ask("the longest game's page", "GET", f"/g/{longest}")
        step = json.loads(match.group(1)) if found and (match := STEP.search(found[0])) else None
        if step is None or "order" not in step:
            heavy.book.error("the longest game's page carries no step data")
            return
        seat = next(s for s in step["order"] if step["bids"][s] is None)
        fields = {"csrf_token": csrf_of(found[0]), "version": step["version"], "deal": step["deal"]}
        if night % 2:
            heavy.ask("a bid on it", "POST", f"/g/{longest}/bid",
                      {**fields, "seat": seat, "bid": allowed_bids(step, seat)[0]}, (302,))
        else:
            last = [s for s in step["order"] if step["bids"][s] is not None][-1]
            heavy.ask("an undo on it", "POST", f"/g/{longest}/undo", {**fields, "seat": last},
                      (302,))
        heavy.ask("its filled sheet (5 pages)", "GET", f"/g/{longest}/sheet.pdf")
        query = "&".join(f"{k}={v}"
                         for k, v in {**REVIEWED_BLANK, "title": f"Club+night+{night}"}.items())
        heavy.ask("the blank sheet, 10 players × 200 deals", "GET", f"/sheets/blank.pdf?{query}")


def longest_game(port: int) -> str:
    """The longest game the rules allow, its last deal being bid, stored through the API."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("POST", "/api/games", body=json.dumps(largest_game(ended=False)),
                       headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    body = json.loads(response.read())
    connection.close()
    assert response.status == 201, body
    return str(body["links"]["api"].rsplit("/", 1)[1])


def imported_games(url: str) -> int:
    """How many games the backups restored, counted in the database."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    with engine.connect() as connection:
        found = connection.execute(
            text("SELECT count(*) FROM games WHERE title LIKE 'Costly %'")).scalar_one()
    engine.dispose()
    return int(found)


def night(args: argparse.Namespace, kind: str,
          parser: argparse.ArgumentParser) -> tuple[Run, dict[str, list[float]]]:
    """One club night on a fresh database of this kind; the tables' run and the costly requests'
    times."""
    url = database(parser, kind, tempfile.mkdtemp(prefix="scorekeeper-club-"))
    began = time.perf_counter()
    tokens = seed_group(url, args.group_games)
    print(f"{kind}: a group of {args.group_games:,} games stored in "
          f"{time.perf_counter() - began:.0f} s", flush=True)
    env = server_env(url)
    servers = [Server(env, args.workers) for _ in range(args.servers)]
    times: dict[str, list[float]] = {}
    try:
        for server in servers:
            server.start()
        longest = longest_game(servers[0].port)
        restored: list[int] = []

        def beside(deadline: float) -> None:
            clients = [Heavy(servers, book) for _ in range(3)]
            work: list[Callable[[], None]] = [
                lambda: imports(clients[0], deadline, args.import_games, restored),
                lambda: group(clients[1], deadline, tokens, args.group_games),
                lambda: sheets(clients[2], deadline, longest)]
            threads = [threading.Thread(target=job) for job in work]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            for client in clients:
                client.client.close()
                for what, seconds in client.times.items():
                    times.setdefault(what, []).extend(seconds)

        book = Book()
        rates = {"resend": args.resend, "twice": args.twice, "undo": args.undo, "poll": args.poll}
        run = play_tables(servers, args.tables, args.seconds, tuple(args.think), rates, beside,
                          book=book)
    finally:
        for server in servers:
            server.stop()
    run.problems = check_database(url, run.book, run.games)
    stored = imported_games(url)
    if stored != sum(restored):
        run.problems.append(f"the backups restored {sum(restored)} games, but {stored} are stored")
    return run, times


def seconds(values: list[float]) -> str:
    """How many, their median and their worst, in seconds."""
    return (f"{len(values)}: {statistics.median(values):.2f} s, worst {max(values):.2f} s"
            if values else "none")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments(parser, tables=10, seconds=20, workers=4)
    parser.add_argument("--database", choices=("sqlite", "postgres", "both"), default="sqlite")
    parser.add_argument("--group-games", type=int, default=sized(1500, 5))
    parser.add_argument("--import-games", type=int, default=sized(4, 1),
                        help="games in each restored backup")
    args = parser.parse_args()
    kinds = ("sqlite", "postgres") if args.database == "both" else (args.database,)
    results = {kind: night(args, kind, parser) for kind in kinds}
    failed = False
    for kind, (run, times) in results.items():
        print(f"\n{kind}, {args.servers} × {args.workers} gunicorn workers")
        for name, value in figures(run).items():
            print(f"  {name:17} {value}")
        for what, values in times.items():
            print(f"  {what:42} {seconds(values)}")
        slow = [what for what, values in times.items()
                if COSTLY.search(what) and "(503)" not in what and "until" not in what
                and values and max(values) > 2.0]
        print(f"  {'costly requests over 2 s':42} {', '.join(slow) or 'none'}")
        failed |= bool(run.book.errors or run.book.stale or run.problems)
    if len(results) > 1:
        print("\n| | " + " | ".join(results) + " |\n|---|" + "---|" * len(results))
        for name in figures(next(iter(results.values()))[0]):
            if name not in ("errors", "stale pages", "lost or doubled"):
                print(f"| {name} | "
                      + " | ".join(figures(run)[name] for run, _ in results.values()) + " |")
        for name in ("errors", "stale pages", "lost or doubled"):
            print(f"| {name} | "
                  + " | ".join(figures(run)[name].split("\n")[0] for run, _ in results.values())
                  + " |")
        every = {what for _, times in results.values() for what in times}
        for what in sorted(every):
            print(f"| {what} | "
                  + " | ".join(seconds(times.get(what, [])) for _, times in results.values())
                  + " |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
