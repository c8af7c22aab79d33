"""Load and crash test: N tables of 4 phones each play Oh Hell against gunicorn on 127.0.0.1.

Each phone has its own session and CSRF token, polls the game's version (``/v/<token>/state``),
reads the game (``/api/games/<token>``) when it changed, and enters the bids of its own seat and,
racing the other three phones, the tricks of every deal, at table speed. Sometimes a second phone
enters the same bid at the same moment. Every redirect (302) answer is an acknowledged entry; afterwards
the database is read directly and every acknowledged entry must be there, with no deal
scored twice and no deal lost. With ``--crash`` the server is killed with SIGKILL half way
through and restarted on the same port.

    python bench/load_tables.py --tables 50 --seconds 60                 # SQLite
    scripts/with-postgres python bench/load_tables.py --database postgres  # PostgreSQL
    python bench/load_tables.py --tables 50 --seconds 60 --crash

Every request goes to 127.0.0.1; the run is bounded by --seconds.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import BIN, ROOT, free_port, wait_for_port

from scorekeeper.rules.bidding import Bidding, allowed_bids

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
HOOK = Bidding("hook")
CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"|name="csrf_token" value="([^"]+)"')


@dataclass
class Book:
    """What the phones saw: acknowledged entries, latencies, refusals and errors."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    bids: list[tuple[str, int, int, int]] = field(default_factory=list)  # token, deal, seat, bid
    tricks: list[tuple[str, int, list[int]]] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    post_latencies: list[float] = field(default_factory=list)
    stale: int = 0
    errors: list[str] = field(default_factory=list)
    down: int = 0  # connection failures while the server was being restarted (crash test)


class Server:
    """gunicorn serving the app; can be killed with SIGKILL and started again on the same port."""

    def __init__(self, env: dict[str, str], workers: int) -> None:
        self.env, self.workers, self.port = env, workers, free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.restarting = threading.Event()

    def start(self) -> None:
        self.process = subprocess.Popen(
            [str(BIN / "gunicorn"), "--workers", str(self.workers), "--bind", f"127.0.0.1:{self.port}",
             "--log-level", "warning", "scorekeeper:create_app()"],
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


class Phone:
    """One phone at one table: a keep-alive connection, a session cookie, a CSRF token."""

    def __init__(self, server: Server, book: Book, game: dict[str, str], seat: int, rng: random.Random) -> None:
        self.server, self.book, self.game, self.seat, self.rng = server, book, game, seat, rng
        self.cookie = ""
        self.connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)

    def request(self, method: str, path: str, form: dict[str, Any] | None = None) -> tuple[int, str]:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        start = time.perf_counter()
        try:
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
            text = response.read().decode()
        except (OSError, http.client.HTTPException) as exc:
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30)
            with self.book.lock:
                if self.server.restarting.is_set():
                    self.book.down += 1
                else:
                    self.book.errors.append(f"{method} {path}: {exc!r}")
            return 0, ""
        elapsed = time.perf_counter() - start
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        with self.book.lock:
            self.book.latencies.append(elapsed)
            if method == "POST":
                self.book.post_latencies.append(elapsed)
            if response.status >= 500 or response.status in (400, 404, 422):
                self.book.errors.append(f"{method} {path}: HTTP {response.status}")
            elif response.status == 409:
                self.book.stale += 1
        return response.status, text

    def post(self, action: str, form: dict[str, Any], record: tuple[Any, ...]) -> None:
        status, _ = self.request("POST", f"/g/{self.game['token']}/{action}", form)
        if status in (302, 303):
            with self.book.lock:
                if action == "bid":
                    self.book.bids.append(record)  # type: ignore[arg-type]
                else:
                    self.book.tricks.append(record)  # type: ignore[arg-type]

    def play(self, deadline: float, think: tuple[float, float]) -> None:
        token, view = self.game["token"], self.game["view"]
        csrf = ""
        version = -1
        while time.monotonic() < deadline:
            if not csrf:
                status, page = self.request("GET", f"/g/{token}")
                match = CSRF.search(page)
                csrf = (match.group(1) or match.group(2)) if match else ""
                if not csrf:
                    time.sleep(0.5)
                    continue
            status, text = self.request("GET", f"/v/{view}/state?v={version}")
            if status != 200:
                time.sleep(0.5)
                continue
            seen = json.loads(text)["version"]
            if seen == version:
                time.sleep(self.rng.uniform(0.3, 0.8))
                continue
            status, text = self.request("GET", f"/api/games/{token}")
            if status != 200:
                continue
            game = json.loads(text)
            version = seen
            if game["finished"]:
                return
            self.act(game, version, csrf, think)

    def act(self, game: dict[str, Any], version: int, csrf: str, think: tuple[float, float]) -> None:
        deals = game["deals"]
        current = deals[-1] if deals and "tricks" not in deals[-1] else None
        number = len(deals) if current else len(deals) + 1
        upcoming = game["schedule"][number - 1]
        cards, dealer = upcoming["cards"], upcoming["dealer"]
        order = [(dealer + 1 + i) % 4 for i in range(4)]
        bids = current["bids"] if current else [None] * 4
        waiting = [seat for seat in order if bids[seat] is None]
        time.sleep(self.rng.uniform(*think))
        form = {"csrf_token": csrf, "version": version}
        if waiting:
            seat = waiting[0]
            # a phone enters its own seat's bid; now and then another phone enters it at once too
            if seat != self.seat and self.rng.random() > 0.15:
                return
            earlier = [bids[s] for s in order if bids[s] is not None]
            bid = self.rng.choice(allowed_bids(HOOK, cards, earlier, dealer=seat == dealer))
            self.post("bid", {**form, "seat": seat, "bid": bid}, (self.game["token"], number, seat, bid))
            return
        tricks = [0] * 4
        for _ in range(cards):
            tricks[self.rng.randrange(4)] += 1
        fields = {f"tricks-{seat}": count for seat, count in enumerate(tricks)}
        self.post("tricks", {**form, **fields}, (self.game["token"], number, tricks))


def create_games(port: int, tables: int) -> list[dict[str, str]]:
    """One oh-hell game per table, through the JSON API."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    games = []
    for number in range(tables):
        doc = {"title": f"Table {number + 1}", "players": PLAYERS, "rules": {"preset": "oh-hell"}}
        connection.request("POST", "/api/games", body=json.dumps(doc), headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        body = json.loads(response.read())
        assert response.status == 201, body
        games.append({"token": body["links"]["api"].rsplit("/", 1)[1],
                      "view": body["links"]["view"].rsplit("/", 1)[1]})
    return games


def check_database(url: str, book: Book) -> list[str]:
    """Every acknowledged entry is stored; no deal has two results; every game still replays."""
    from sqlalchemy import create_engine, text

    from scorekeeper.rules.gamefile import parse

    engine = create_engine(url)
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT token, data FROM games")).all()
    engine.dispose()
    documents = {token: json.loads(data) for token, data in rows}
    problems = []
    for token, number, seat, bid in book.bids:
        deals = documents[token]["deals"]
        if len(deals) < number or deals[number - 1]["bids"][seat] != bid:
            problems.append(f"lost: bid {bid} of seat {seat} in deal {number}")
    finished: dict[str, int] = {}
    for token, number, tricks in book.tricks:
        finished[token] = finished.get(token, 0) + 1
        deals = documents[token]["deals"]
        if len(deals) < number or deals[number - 1].get("tricks") != tricks:
            problems.append(f"lost: tricks {tricks} of deal {number}")
    for token, doc in documents.items():
        stored = sum(1 for deal in doc["deals"] if "tricks" in deal)
        if stored != finished.get(token, 0):
            problems.append(f"{stored} finished deals stored but {finished.get(token, 0)} acknowledged")
        parse(doc)
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--crash", action="store_true", help="SIGKILL the server half way and restart it")
    parser.add_argument("--think", type=float, nargs=2, default=(0.5, 2.0), metavar=("MIN", "MAX"),
                        help="seconds a phone takes before an entry (table speed)")
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="scorekeeper-load-")
    if args.database == "postgres":
        url = os.environ.get("TEST_DATABASE_URL")
        if not url:
            parser.error("--database postgres runs under scripts/with-postgres (TEST_DATABASE_URL)")
    else:
        url = f"sqlite:///{folder}/load.sqlite"
    env = {**os.environ, "DATABASE_URL": url}
    subprocess.run([str(BIN / "flask"), "--app", "scorekeeper", "db", "upgrade"], cwd=ROOT, env=env,
                   check=True, capture_output=True)
    server = Server(env, args.workers)
    server.start()
    book = Book()
    try:
        games = create_games(server.port, args.tables)
        rng = random.Random(7)
        deadline = time.monotonic() + args.seconds
        phones = [Phone(server, book, game, seat, random.Random(rng.random()))
                  for game in games for seat in range(4)]
        threads = [threading.Thread(target=phone.play, args=(deadline, tuple(args.think))) for phone in phones]
        start = time.perf_counter()
        for thread in threads:
            thread.start()
        if args.crash:
            time.sleep(args.seconds / 2)
            server.restarting.set()
            server.kill()
            print(f"killed the server with SIGKILL after {args.seconds / 2:.0f} s; restarting")
            server.start()
            time.sleep(1)
            server.restarting.clear()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - start
    finally:
        server.stop()
    problems = check_database(url, book)
    latencies = sorted(book.latencies)
    p99 = 1000 * latencies[int(0.99 * (len(latencies) - 1))] if latencies else float("nan")
    print(f"database          {args.database}, {args.workers} gunicorn workers{' (killed and restarted)' if args.crash else ''}")
    print(f"phones            {len(phones)} at {args.tables} tables for {elapsed:.0f} s")
    print(f"requests          {len(latencies)} ({len(latencies) / elapsed:.0f}/s)")
    print(f"latency           p50 {1000 * statistics.median(latencies):.1f} ms, p99 {p99:.1f} ms")
    if book.post_latencies:
        posts = sorted(book.post_latencies)
        print(f"entries (POST)    {len(posts)}: p50 {1000 * statistics.median(posts):.1f} ms, "
              f"p99 {1000 * posts[int(0.99 * (len(posts) - 1))]:.1f} ms")
    print(f"acknowledged      {len(book.bids)} bids, {len(book.tricks)} deals' tricks")
    print(f"refused as stale  {book.stale} (a second phone entering the same thing: shown the current state)")
    if args.crash:
        print(f"while restarting  {book.down} requests found no server")
    print(f"errors            {len(book.errors)}" + "".join(f"\n  {e}" for e in book.errors[:10]))
    print(f"lost or doubled   {len(problems)}" + "".join(f"\n  {p}" for p in problems[:10]))
    return 1 if book.errors or problems else 0


if __name__ == "__main__":
    sys.exit(main())
