"""Load and crash test: N tables of 4–5 phones each play Oh Hell against gunicorn on 127.0.0.1.

Each phone has its own session and CSRF token, and posts its taps as the game page does: every tap
names its deal, carries the version it was made on and a client id (``tap``), and an undo names the
bid it takes back. A phone polls the game's version (``/v/<token>/state``, every 3 s as the
read-only page does), opens the game page when it changed, reads the step's data in it (who bids
next, the bids allowed), and enters the bids of its own seat and, racing the other phones, the
tricks of every deal, at table speed. Sometimes a second phone enters the same bid at the same
moment; sometimes a phone takes its bid back at once; sometimes a tap is sent again after its answer
(as when the answer was lost), or twice at once. A tap that finds no server is sent again, with the
same id, until it is answered (as the phone's outbox does). After a stored tap the phone follows the
redirect, as the page's fetch does.

With ``--servers 2`` two gunicorn servers share the database, and every phone sends each request to
the other server than its last one (its tap to one, the redirect's page from the other, its next
tap to the first): no page may show the game older than what the phone saw or was told was stored.

Afterwards the database is read directly: every acknowledged tap must be stored exactly once (its id
kept with the version it made, one version per tap, no version missing), and replaying the stored
taps in that order, each on the deal it names, must give exactly the stored deals. With ``--crash``
the first server is killed with SIGKILL half way through and restarted on the same port.

    python bench/load_tables.py --tables 50 --seconds 60                 # SQLite
    scripts/with-postgres python bench/load_tables.py --database postgres  # PostgreSQL
    scripts/with-postgres python bench/load_tables.py --database postgres --servers 2
    python bench/load_tables.py --tables 50 --seconds 60 --crash
    python bench/load_tables.py --smoke                                  # one table for 3 s:
                                                                         # it runs

Every request goes to 127.0.0.1; the run is bounded by --seconds (and a tap's resending by 30 s
more).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import BIN, ROOT, SMOKE, free_port, sized, wait_for_port

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve"]
CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"'
                  r'|name="csrf_token" value="([^"]+)"')
STEP = re.compile(r'<script type="application/json" id="step-data"[^>]*>(.*?)</script>', re.DOTALL)
LIVE = re.compile(r'id="live"[^>]*data-version="(\d+)"')
#: How long after --seconds a tap that found no server is still sent again.
GRACE = 30.0


@dataclass(frozen=True)
class Tap:
    """One tap as the phone made it: its game, what it does, the deal it names, the seat and
    value."""

    token: str
    kind: str  # "bid", "undo" or "tricks"
    deal: int
    seat: int | None = None
    value: Any = None


@dataclass
class Book:
    """What the phones saw: acknowledged taps, latencies, refusals, stale pages and errors."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    acked: dict[str, Tap] = field(default_factory=dict)  # tap id → tap, answered as stored
    # no answer before the end: stored or not
    unanswered: dict[str, Tap] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)  # every request
    taps: list[float] = field(default_factory=list)  # each tap's first sending
    refused: int = 0  # 409: made on a screen another phone had changed since
    resent: int = 0  # sent again after its answer came
    twice: int = 0  # sent twice at once
    retried: int = 0  # sent again after no answer (a server restarting)
    stale: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    down: int = 0  # connection failures while a server was being restarted (crash test)

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)


class Server:
    """gunicorn serving the app; can be killed with SIGKILL and started again on the same port."""

    def __init__(self, env: dict[str, str], workers: int, threads: int = 0) -> None:
        """``threads``: gunicorn's gthread workers of that many threads each (0: sync workers)."""
        self.env, self.workers, self.port = env, workers, free_port()
        self.threads = threads
        self.process: subprocess.Popen[bytes] | None = None
        self.restarting = threading.Event()

    def start(self) -> None:
        threaded = (["--worker-class", "gthread", "--threads", str(self.threads)]
                    if self.threads else [])
        self.process = subprocess.Popen(
            [str(BIN / "gunicorn"), "--workers", str(self.workers), *threaded,
             "--bind", f"127.0.0.1:{self.port}", "--log-level", "warning",
             "scorekeeper:create_app()"],
            cwd=ROOT, env=self.env, start_new_session=True,
        )
        wait_for_port(self.port)

    def kill(self) -> None:
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=30)


class Client:
    """A phone's side of HTTP: a keep-alive connection to each server, its session cookie, and the
    server it asks next (each request goes to the other server than the last one)."""

    def __init__(self, servers: list[Server], book: Book, timeout: float = 30) -> None:
        self.servers, self.book, self.timeout = servers, book, timeout
        self.connections: list[http.client.HTTPConnection | None] = [None] * len(servers)
        self.turn = 0
        self.cookie = ""

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None,
                server: int | None = None) -> tuple[int, str, int, float]:
        """Status, text, the server that answered and seconds taken; status 0 when no answer
        came."""
        if server is None:
            server, self.turn = self.turn % len(self.servers), self.turn + 1
        sent = {**(headers or {}), **({"Cookie": self.cookie} if self.cookie else {})}
        connection = self.connections[server] or http.client.HTTPConnection(
            "127.0.0.1", self.servers[server].port, timeout=self.timeout)
        self.connections[server] = connection
        start = time.perf_counter()
        try:
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            text = response.read().decode(errors="replace")  # a PDF is read whole, not shown
        except (OSError, http.client.HTTPException) as exc:
            connection.close()
            self.connections[server] = None
            with self.book.lock:
                if self.servers[server].restarting.is_set():
                    self.book.down += 1
                else:
                    self.book.errors.append(
                        f"{method} {path} on :{self.servers[server].port}: {exc!r}")
            return 0, "", server, 0.0
        elapsed = time.perf_counter() - start
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        with self.book.lock:
            self.book.latencies.append(elapsed)
        return response.status, text, server, elapsed

    def form(self, path: str, form: dict[str, Any],
             server: int | None = None) -> tuple[int, str, int, float]:
        """POST a form as a browser does."""
        return self.request("POST", path, urlencode(form).encode(),
                            {"Content-Type": "application/x-www-form-urlencoded"}, server)

    def close(self) -> None:
        for connection in self.connections:
            if connection is not None:
                connection.close()


def csrf_of(page: str) -> str:
    """The form token on a page ("" when none)."""
    match = CSRF.search(page)
    return (match.group(1) or match.group(2)) if match else ""


def allowed_bids(step: dict[str, Any], seat: int) -> list[int]:
    """The bids the step's data allows ``seat`` now, looked up as step.js looks them up: the runs of
    its place in the bidding order, at the running total of the bids before it."""
    order, bids = step["order"], step["bids"]
    place = order.index(seat)
    total = sum(bids[s] for s in order[:place])
    runs = step["bidding"][place]
    run = next((r for r in runs if total <= r[0]), runs[-1])
    return [bid for low, high in run[1] for bid in range(low, high + 1)]


class Phone:
    """One phone at one table: it enters its own seat's bids and, racing the others, the tricks."""

    def __init__(self, servers: list[Server], book: Book, game: dict[str, Any], seat: int,
                 rng: random.Random, rates: dict[str, float]) -> None:
        self.servers, self.book, self.game, self.seat, self.rng, self.rates = (
            servers, book, game, seat, rng, rates)
        self.client = Client(servers, book)
        self.csrf = ""
        self.known = 0  # the newest version of the game this phone saw, or was told it stored

    def seen(self, version: int, what: str, server: int) -> None:
        """A page showed the game at ``version``: never older than what the phone knew before."""
        if version < self.known:
            with self.book.lock:
                self.book.stale.append(f"{what} on :{self.servers[server].port} showed version "
                                       f"{version} after the phone knew version {self.known}")
        self.known = max(self.known, version)

    def checked(self, status: int, what: str, expect: tuple[int, ...] = (200,)) -> bool:
        if status in expect or status == 0:
            return status != 0
        self.book.error(f"{what}: HTTP {status}")
        return False

    def open(self, given: tuple[str, int] | None = None) -> dict[str, Any] | None:
        """The step's data of the game page (asked for, unless given with the server that answered),
        its version checked."""
        if given is None:
            status, page, server, _ = self.client.request("GET", f"/g/{self.game['token']}")
            if not self.checked(status, "the game page"):
                return None
        else:
            page, server = given
        self.csrf = csrf_of(page) or self.csrf
        found = STEP.search(page)
        step: dict[str, Any] = json.loads(found.group(1)) if found else {}
        if "version" not in step:
            self.book.error(f"the game page of {self.game['token'][:6]} carries no step data")
            return None
        self.seen(step["version"], "the game page", server)
        return step

    def play(self, deadline: float, think: tuple[float, float]) -> None:
        view, acted = self.game["view"], -1
        try:
            while time.monotonic() < deadline:
                # now and then the whole read-only page, kept per version
                if self.rng.random() < 0.1:
                    status, page, server, _ = self.client.request("GET", f"/v/{view}")
                    if self.checked(status, "the read-only page") and (live := LIVE.search(page)):
                        self.seen(int(live.group(1)), "the read-only page", server)
                status, text, server, _ = self.client.request(
                    "GET", f"/v/{view}/state?v={self.known}")
                if not self.checked(status, "the live state"):
                    time.sleep(0.5)
                    continue
                version = json.loads(text)["version"]
                self.seen(version, "the live state", server)
                if version == acted:
                    time.sleep(self.rates["poll"] * self.rng.uniform(0.75, 1.25))
                    continue
                step = self.open()
                if step is None:
                    time.sleep(0.5)
                    continue
                if "order" not in step:  # the game is over
                    return
                acted = step["version"]
                time.sleep(self.rng.uniform(*think))
                self.act(step, deadline)
        finally:
            self.client.close()

    def act(self, step: dict[str, Any], deadline: float) -> None:
        token, number, order, bids = self.game["token"], step["deal"], step["order"], step["bids"]
        made = {"version": step["version"], "deal": number}
        waiting = [seat for seat in order if bids[seat] is None]
        if waiting:
            seat = waiting[0]
            # a phone enters its own seat's bid; now and then another phone enters it at once too
            if seat != self.seat and self.rng.random() > 0.15:
                return
            bid = self.rng.choice(allowed_bids(step, seat))
            after = self.tap("bid", {**made, "seat": seat, "bid": bid},
                             Tap(token, "bid", number, seat, bid), deadline)
            if after and seat == self.seat and self.rng.random() < self.rates["undo"]:
                # a wrong button: taken back at once, while it is still the deal's last bid
                entered = [s for s in after.get("order", ()) if after["bids"][s] is not None]
                if after.get("deal") == number and entered and entered[-1] == seat:
                    self.tap("undo", {"version": after["version"], "deal": number, "seat": seat},
                             Tap(token, "undo", number, seat), deadline)
            return
        tricks = [None] * len(bids)
        for seat in order:
            tricks[seat] = 0
        for _ in range(step["cards"]):
            tricks[self.rng.choice(order)] += 1
        fields = {f"tricks-{seat}": tricks[seat] for seat in order}
        self.tap("tricks", {**made, **fields}, Tap(token, "tricks", number, value=tricks), deadline)

    def tap(self, action: str, fields: dict[str, Any], made: Tap,
            deadline: float) -> dict[str, Any] | None:
        """Send one tap until it is answered; the step's data of the page its redirect leads to
        when it was stored (None when refused)."""
        ident = secrets.token_hex(12)
        path, form = f"/g/{made.token}/{action}", {"csrf_token": self.csrf, **fields, "tap": ident}
        if self.rng.random() < self.rates["twice"]:
            status = self.twice(path, form)
        else:
            status, _, _, took = self.client.form(path, form)
            if status:
                with self.book.lock:
                    self.book.taps.append(took)
        while not status or status >= 500:
            if status:
                self.book.error(f"POST {action}: HTTP {status}")
            if time.monotonic() > deadline + GRACE:
                with self.book.lock:
                    self.book.unanswered[ident] = made
                return None
            # no answer (a server restarting): sent again with the same id, as the outbox does
            time.sleep(0.5)
            with self.book.lock:
                self.book.retried += 1
            status = self.client.form(path, form)[0]
        if status == 409:
            with self.book.lock:
                self.book.refused += 1
            return None
        if not self.checked(status, f"POST {action}", (302, 303)):
            return None
        with self.book.lock:
            self.book.acked[ident] = made
        written = fields["version"] + 1
        self.known = max(self.known, written)
        # the redirect, as fetch follows it
        status, page, server, _ = self.client.request("GET", f"/g/{made.token}")
        after = self.open((page, server)) if self.checked(status, "the page after a tap") else None
        if after is not None and after["version"] == written and made.kind == "bid" and (
                after.get("deal") != made.deal or after["bids"][made.seat] != made.value):
            with self.book.lock:
                self.book.stale.append(f"the page after a bid on :{self.servers[server].port} "
                                       f"shows version {written} without the bid")
        if self.rng.random() < self.rates["resend"]:  # its answer lost: the phone sends it again
            with self.book.lock:
                self.book.resent += 1
            again = self.client.form(path, form)[0]
            self.checked(again, f"POST {action} sent again", (302, 303))
        return after

    def twice(self, path: str, form: dict[str, Any]) -> int:
        """Send the same tap twice at once, on two new connections (to both servers when there are
        two): both copies must be answered as stored, or both refused."""
        statuses: list[int] = []
        lock = threading.Lock()

        def send(server: int) -> None:
            other = Client(self.servers, self.book)
            other.cookie = self.client.cookie
            status, _, _, took = other.form(path, form, server % len(self.servers))
            other.close()
            with lock:
                statuses.append(status)
                if status:
                    self.book.taps.append(took)

        threads = [threading.Thread(target=send, args=(n,)) for n in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        with self.book.lock:
            self.book.twice += 1
        if len({s in (302, 303) for s in statuses if s}) > 1:
            self.book.error(f"one tap sent twice at once was answered {statuses}")
        return 302 if 302 in statuses else max(statuses)


def create_games(port: int, tables: int, rng: random.Random) -> list[dict[str, Any]]:
    """One oh-hell game of 4 or 5 players per table, through the JSON API."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    games = []
    for number in range(tables):
        players = PLAYERS[:rng.choice((4, 5))]
        doc = {"title": f"Table {number + 1}", "players": players, "rules": {"preset": "oh-hell"}}
        connection.request("POST", "/api/games", body=json.dumps(doc),
                           headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        body = json.loads(response.read())
        assert response.status == 201, body
        games.append({"token": body["links"]["api"].rsplit("/", 1)[1],
                      "view": body["links"]["view"].rsplit("/", 1)[1], "players": len(players)})
    connection.close()
    return games


def replayed(taps: list[Tap], players: int) -> list[dict[str, Any]] | str:
    """The deals the taps make, each applied to the deal it names in the order given; or what went
    wrong (a tap that could not have been applied there)."""
    deals: dict[int, dict[str, Any]] = {}
    for tap in taps:
        deal = deals.setdefault(tap.deal, {"bids": [None] * players, "tricks": None})
        if tap.kind == "bid":
            if deal["bids"][tap.seat] is not None or deal["tricks"] is not None:
                return f"a second bid of seat {tap.seat} in deal {tap.deal}"
            deal["bids"][tap.seat] = tap.value
        elif tap.kind == "undo":
            deal["bids"][tap.seat] = None
            if all(bid is None for bid in deal["bids"]):
                del deals[tap.deal]
        else:
            if deal["tricks"] is not None:
                return f"a second result of deal {tap.deal}"
            deal["tricks"] = tap.value
    if sorted(deals) != list(range(1, len(deals) + 1)):
        return f"deals {sorted(deals)} are not deals 1 to {len(deals)}"
    return [deals[number] for number in sorted(deals)]


def check_database(url: str, book: Book, games: list[dict[str, Any]]) -> list[str]:
    """Every acknowledged tap is stored exactly once, and the stored taps, in the order of the
    versions they made, give exactly the stored deals; every game still replays."""
    from sqlalchemy import create_engine, text

    from scorekeeper.rules.gamefile import parse

    engine = create_engine(url)
    with engine.connect() as connection:
        rows = {token: (data, version, game_id) for token, data, version, game_id
                in connection.execute(text("SELECT token, data, version, id FROM games"))}
        stored: dict[int, dict[str, int]] = {}
        for game_id, tap, version in connection.execute(
                text("SELECT game_id, tap, version FROM game_taps")):
            stored.setdefault(game_id, {})[tap] = version
    engine.dispose()
    problems = []
    for game in games:
        data, version, game_id = rows[game["token"]]
        kept = stored.get(game_id, {})
        acked = {ident for ident, tap in book.acked.items() if tap.token == game["token"]}
        maybe = {ident for ident, tap in book.unanswered.items() if tap.token == game["token"]}
        name = game["token"][:6]
        problems += [f"{name}: lost: tap {ident} ({book.acked[ident]})"
                     for ident in acked - kept.keys()]
        problems += [f"{name}: stored but refused: tap {ident}"
                     for ident in kept.keys() - acked - maybe]
        if sorted(kept.values()) != list(range(2, version + 1)):
            problems.append(f"{name}: version {version}, "
                            f"but its taps made versions {sorted(kept.values())}")
        known = {**book.acked, **book.unanswered}
        order = [known[ident] for ident in sorted(kept, key=kept.__getitem__) if ident in known]
        expected = replayed(order, game["players"])
        document = json.loads(data)
        deals = [{"bids": deal["bids"], "tricks": deal.get("tricks")} for deal in document["deals"]]
        if isinstance(expected, str):
            problems.append(f"{name}: {expected}")
        elif expected != deals:
            problems.append(f"{name}: the stored deals are not those of its taps: "
                            f"{deals} != {expected}")
        parse(document)
    return problems


@dataclass
class Run:
    """The tables' run: its servers, phones and what they saw."""

    servers: list[Server]
    book: Book
    games: list[dict[str, Any]]
    phones: list[Phone]
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)


def play_tables(servers: list[Server], tables: int, seconds: float, think: tuple[float, float],
                rates: dict[str, float], beside: Callable[[float], None] | None = None,
                crash: bool = False, book: Book | None = None) -> Run:
    """Seat the tables, play for ``seconds`` (``beside(deadline)`` runs meanwhile, in this
    thread)."""
    book, rng = book or Book(), random.Random(7)
    games = create_games(servers[0].port, tables, rng)
    phones = [Phone(servers, book, game, seat, random.Random(rng.random()), rates)
              for game in games for seat in range(game["players"])]
    deadline = time.monotonic() + seconds
    threads = [threading.Thread(target=phone.play, args=(deadline, think)) for phone in phones]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    if crash:
        time.sleep(seconds / 2)
        servers[0].restarting.set()
        servers[0].kill()
        print(f"killed the server with SIGKILL after {seconds / 2:.0f} s; restarting", flush=True)
        servers[0].start()
        time.sleep(1)
        servers[0].restarting.clear()
    if beside is not None:
        beside(deadline)
    for thread in threads:
        thread.join()
    return Run(servers, book, games, phones, time.perf_counter() - start)


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile of seconds, in milliseconds."""
    ordered = sorted(values)
    return (1000 * ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))] if ordered
            else float("nan"))


def figures(run: Run) -> dict[str, str]:
    """The run's figures, by name, as printed."""
    book = run.book
    kinds = {kind: sum(1 for tap in book.acked.values() if tap.kind == kind)
             for kind in ("bid", "undo", "tricks")}
    return {
        "phones": f"{len(run.phones)} at {len(run.games)} tables for {run.seconds:.0f} s",
        "requests": f"{len(book.latencies):,} ({len(book.latencies) / run.seconds:.0f}/s): "
                    f"p50 {1000 * statistics.median(book.latencies):.1f} ms, "
                    f"p95 {percentile(book.latencies, 95):.1f} ms",
        "taps": f"{len(book.taps):,}: p50 {1000 * statistics.median(book.taps):.1f} ms, "
                f"p95 {percentile(book.taps, 95):.1f} ms, max {1000 * max(book.taps):.0f} ms",
        "acknowledged": f"{kinds['bid']:,} bids, {kinds['undo']} undos, "
                        f"{kinds['tricks']} deals' tricks",
        "sent again": f"{book.resent} after their answer, {book.twice} twice at once, "
                      f"{book.retried} after no answer",
        "refused as stale": f"{book.refused} (a second phone entering the same thing: "
                            "shown the current state)",
        "errors": f"{len(book.errors)}" + "".join(f"\n  {e}" for e in book.errors[:10]),
        "stale pages": f"{len(book.stale)}" + "".join(f"\n  {s}" for s in book.stale[:10]),
        "lost or doubled": f"{len(run.problems)}" + "".join(f"\n  {p}" for p in run.problems[:10]),
    }


def database(parser: argparse.ArgumentParser, kind: str, folder: str) -> str:
    """The URL of a fresh database of this kind, migrated."""
    if kind == "postgres":
        url = os.environ.get("TEST_DATABASE_URL", "")
        if not url:
            parser.error("--database postgres runs under scripts/with-postgres (TEST_DATABASE_URL)")
    else:
        url = f"sqlite:///{folder}/load-{secrets.token_hex(4)}.sqlite"
    subprocess.run([str(BIN / "flask"), "--app", "scorekeeper", "db", "upgrade"], cwd=ROOT,
                   env={**os.environ, "DATABASE_URL": url}, check=True, capture_output=True)
    return url


def server_env(url: str) -> dict[str, str]:
    """What every app server of a run is started with: the one database, the one SECRET_KEY (the
    phones' cookies and form tokens are good on each), no rate limits (the tables are one
    address)."""
    return {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "load-test-" + secrets.token_hex(8),
            "RATELIMIT_ENABLED": "no"}


def arguments(parser: argparse.ArgumentParser, tables: int, seconds: float, workers: int) -> None:
    """The options this script and bench/club_night.py share (a smoke run: one quick table for
    3 s)."""
    parser.add_argument("--tables", type=int, default=sized(tables, 1))
    parser.add_argument("--seconds", type=float, default=3 if SMOKE else seconds)
    parser.add_argument("--workers", type=int, default=workers,
                        help="gunicorn workers of each server")
    parser.add_argument("--servers", type=int, default=1, choices=(1, 2),
                        help="app servers on the one database; each phone alternates between them")
    parser.add_argument("--think", type=float, nargs=2, default=(0.1, 0.3) if SMOKE else (0.5, 2.0),
                        metavar=("MIN", "MAX"),
                        help="seconds a phone takes before an entry (table speed)")
    parser.add_argument("--poll", type=float, default=0.5 if SMOKE else 3.0,
                        help="seconds between a phone's looks at the game's version "
                             "(the read-only page's 3 s)")
    parser.add_argument("--resend", type=float, default=0.05,
                        help="share of stored taps sent again")
    parser.add_argument("--twice", type=float, default=0.03,
                        help="share of taps sent twice at once")
    parser.add_argument("--undo", type=float, default=0.05,
                        help="share of a phone's bids taken back at once")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments(parser, tables=50, seconds=60, workers=4)
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--crash", action="store_true",
                        help="SIGKILL the first server half way and restart it")
    args = parser.parse_args()

    url = database(parser, args.database, tempfile.mkdtemp(prefix="scorekeeper-load-"))
    env = server_env(url)
    servers = [Server(env, args.workers) for _ in range(args.servers)]
    try:
        for server in servers:
            server.start()
        rates = {"resend": args.resend, "twice": args.twice, "undo": args.undo, "poll": args.poll}
        run = play_tables(servers, args.tables, args.seconds, tuple(args.think), rates,
                          crash=args.crash)
    finally:
        for server in servers:
            server.stop()
    run.problems = check_database(url, run.book, run.games)
    print(f"database          {args.database}, {args.servers} × {args.workers} gunicorn workers"
          f"{' (killed and restarted)' if args.crash else ''}")
    for name, value in figures(run).items():
        print(f"{name:17} {value}")
    if args.crash:
        print(f"while restarting  {run.book.down} requests found no server")
    return 1 if run.book.errors or run.book.stale or run.problems else 0


if __name__ == "__main__":
    sys.exit(main())
