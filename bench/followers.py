"""What following games costs the server: phones that keep asking a game's read-only view whether
anything changed (``GET /v/<link>/state?v=<version>``), as the read-only page does: every 3 s of a
sync worker, or, with ``--held``, at once again each time, of gthread workers that hold the
question until the game changes (``&wait=1``; web/live.py).

    .venv/bin/python bench/followers.py                       # 600 phones following 100 games
    .venv/bin/python bench/followers.py --held                # the same, questions held
    scripts/with-postgres .venv/bin/python bench/followers.py --database postgres --servers 2 --held
    .venv/bin/python bench/followers.py --smoke               # 12 phones, 4 games, 3 s: it runs

For ``--seconds`` each, two stretches, on gunicorn (``--workers`` sync workers per server; with
``--servers 2`` each phone asks the two servers in turn, on one database):

- **nothing changes**: every answer is "no change" (the version alone);
- **the tables play**: one game in ten enters a deal every second (each game about every 10 s,
  a table's pace), so followers fetch the board they show when it changed.

For each it prints the requests answered and their p50 / p95, the time from a deal stored to its
followers' knowing (p50 / p95 / max, from the answer to the PUT to each follower's answer with the
new version), and the CPU the app servers spent
(their processes' user and system time, read from /proc, over the stretch) in cores: the figure
SEATS.md ("Live") bounds at a tenth of one core for 600 phones following 100 games, for a phone
that finds nothing changed. PostgreSQL's own processes are counted apart.

In-process beforehand, it counts the SQL statements of one "no change" answer and shows SQLite's
plan for them: one read, by an index.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))

from harness import sized
from load_tables import Server, database, server_env

#: Seconds between a follower's looks (the read-only page's interval).
POLL = 3.0
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids: set[int]) -> float:
    """User and system CPU seconds of these processes so far (those gone count 0)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / TICK


def processes(roots: set[int]) -> set[int]:
    """These processes and their children (a gunicorn master and its workers)."""
    found = set(roots)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if parent in roots:
                found.add(int(entry.name))
    return found


def postgres_processes() -> set[int]:
    """The PostgreSQL server's processes on this machine (none for SQLite)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes().split(b"\0")[0]
            except OSError:
                continue
            if command.startswith(b"postgres"):
                found.add(int(entry.name))
    return found


def ask(port: int, method: str, path: str, body: object = None,
        headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        data = json.dumps(body).encode() if body is not None else None
        connection.request(method, path, body=data,
                           headers={"Content-Type": "application/json", **(headers or {})})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def new_games(port: int, count: int) -> list[dict[str, str]]:
    """``count`` games of 4 players, each with its read-only and API tokens."""
    games = []
    for n in range(count):
        status, _, body = ask(port, "POST", "/api/games", {
            "title": f"Table {n + 1}", "players": ["Ann", "Bob", "Cy", "Dee"],
            "rules": {"preset": "oh-hell", "deal": "fixed", "max_cards": 3, "deals": 200}})
        assert status == 201, body
        links = json.loads(body)["links"]
        games.append({kind: links[kind].rsplit("/", 1)[1] for kind in ("view", "api")})
    return games


class Follower:
    """A phone showing one game's read-only view: it asks every 3 s whether the game changed, or,
    with ``held``, asks again as soon as it has its answer (the server holds the question)."""

    def __init__(self, ports: list[int], game: dict[str, str], rng: random.Random,
                 held: bool, stored: dict[tuple[str, int], float]) -> None:
        self.ports, self.game, self.rng, self.held, self.stored = ports, game, rng, held, stored
        self.version = ""
        self.turn = rng.randrange(len(ports))
        self.times: list[float] = []
        self.late: list[float] = []
        self.errors = 0
        self.changed = 0

    def follow(self, start: float, end: float) -> None:
        time.sleep(max(0.0, start + self.rng.uniform(0, POLL) - time.monotonic()))
        while time.monotonic() < end:
            began = time.monotonic()
            port = self.ports[self.turn % len(self.ports)]
            self.turn += 1
            path = f"/v/{self.game['view']}/state?v={self.version}" + "&wait=1" * self.held
            try:
                status, _, body = ask(port, "GET", path)
            except OSError:
                status, body = 0, b""
            answered = time.monotonic()
            if status != 200:
                self.errors += 1
            else:
                answer = json.loads(body)
                if "html" in answer:
                    self.changed += 1
                    stored = self.stored.get((self.game["view"], answer["version"]))
                    if stored is not None:
                        self.late.append(answered - stored)
                self.version = str(answer["version"])
                self.times.append(answered - began)
            if not self.held or status != 200:
                time.sleep(max(0.0, began + POLL - time.monotonic()))


def deals(port: int, games: list[dict[str, str]], end: float, rng: random.Random,
          errors: list[int], stored: dict[tuple[str, int], float]) -> None:
    """One game in ten changes every second (each game about every 10 s, a table's pace): a
    deal entered through the API (read, add the deal, put back over its ETag); when each version
    was stored goes into ``stored``."""
    while time.monotonic() < end:
        began = time.monotonic()
        for game in rng.sample(games, max(1, len(games) // 10)):
            path = f"/api/games/{game['api']}"
            _, headers, body = ask(port, "GET", path)
            doc = json.loads(body)
            doc["deals"].append({"bids": [0, 0, 0, 0], "tricks": [1, 1, 1, 0]})
            put = {k: doc[k] for k in ("title", "players", "rules", "first_dealer", "deals")}
            status, answer_headers, _ = ask(port, "PUT", path, put, {"If-Match": headers["ETag"]})
            if status != 200:
                errors.append(status)
            else:
                stored[(game["view"], int(answer_headers["ETag"].strip('W/"')))] = time.monotonic()
        time.sleep(max(0.0, began + 1.0 - time.monotonic()))


def percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    if not ordered:
        return "none"
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (f"p50 {statistics.median(ordered) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
            f"max {ordered[-1] * 1000:.0f} ms")


def stretch(name: str, servers: list[Server], games: list[dict[str, str]], phones: int,
            seconds: float, play: bool, held: bool) -> None:
    rng = random.Random(len(name))
    ports = [server.port for server in servers]
    stored: dict[tuple[str, int], float] = {}
    followers = [Follower(ports, games[n % len(games)], random.Random(rng.random()), held, stored)
                 for n in range(phones)]
    for follower in followers:  # each knows its game's version, as a page just loaded does
        follower.version = str(json.loads(ask(ports[0], "GET",
                                              f"/v/{follower.game['view']}/state?v=")[2])["version"])
    start = time.monotonic() + 1.0
    end = start + POLL + seconds  # the first looks are spread over 3 s: measure after them
    threads = [threading.Thread(target=f.follow, args=(start, end)) for f in followers]
    failed: list[int] = []
    if play:
        threads.append(threading.Thread(target=deals,
                                        args=(ports[0], games, end, rng, failed, stored)))
    for thread in threads:
        thread.start()
    time.sleep(max(0.0, start + POLL - time.monotonic()))
    app = processes({server.process.pid for server in servers if server.process})
    pg = postgres_processes()
    app_before, pg_before, began = cpu_seconds(app), cpu_seconds(pg), time.monotonic()
    time.sleep(max(0.0, end - time.monotonic()))
    app_cpu, pg_cpu = cpu_seconds(app) - app_before, cpu_seconds(pg) - pg_before
    wall = time.monotonic() - began
    for thread in threads:
        thread.join()
    times = sorted(t for f in followers for t in f.times)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))] if times else float("nan")
    print(f"{name}: {len(times):,} answers ({len(times) / (seconds + POLL):.0f}/s), "
          f"p50 {statistics.median(times) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms; "
          f"{sum(f.changed for f in followers):,} with the board; "
          f"errors {sum(f.errors for f in followers) + len(failed)}")
    if play:
        print(f"  a deal stored to its followers' knowing: "
              f"{percentiles([t for f in followers for t in f.late])}")
    print(f"  app servers: {app_cpu / wall:.3f} cores ({app_cpu:.1f} s of CPU in {wall:.0f} s)"
          + (f"; PostgreSQL: {pg_cpu / wall:.3f} cores" if pg else ""), flush=True)


def statements(url: str, games: list[dict[str, str]]) -> None:
    """The SQL of one "no change" answer, in-process, and SQLite's plan for it."""
    from sqlalchemy import event

    from scorekeeper import create_app
    from scorekeeper.store.db import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench",
                      "RATELIMIT_ENABLED": False})
    client = app.test_client()
    view = games[0]["view"]
    version = client.get(f"/v/{view}/state?v=").get_json()["version"]
    seen: list[tuple[str, object]] = []

    def record(*args: object) -> None:
        seen.append((str(args[2]), args[3]))

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", record)
        client.get(f"/v/{view}/state?v={version}")
        seen.clear()
        answer = client.get(f"/v/{view}/state?v={version}")
        event.remove(db.engine, "before_cursor_execute", record)
        print(f"one 'no change' answer ({answer.content_length} bytes): "
              f"{len(seen)} SQL statement(s)")
        for sql, parameters in seen:
            print("  " + " ".join(sql.split())[:160])
            if url.startswith("sqlite"):
                with db.engine.connect() as connection:
                    plan = connection.exec_driver_sql("EXPLAIN QUERY PLAN " + sql, parameters)
                    print("    plan: " + "; ".join(str(row[-1]) for row in plan))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--phones", type=int, default=sized(600, 12))
    parser.add_argument("--games", type=int, default=sized(100, 4))
    parser.add_argument("--seconds", type=float, default=sized(30, 3))
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers of each server")
    parser.add_argument("--servers", type=int, default=1, choices=(1, 2))
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--held", action="store_true",
                        help="questions held till the game changes, by gthread workers")
    parser.add_argument("--threads", type=int, default=1000,
                        help="threads of each gthread worker (with --held)")
    args = parser.parse_args()
    url = database(parser, args.database, tempfile.mkdtemp(prefix="scorekeeper-follow-"))
    servers = [Server(server_env(url), args.workers, args.threads if args.held else 0)
               for _ in range(args.servers)]
    try:
        for server in servers:
            server.start()
        games = new_games(servers[0].port, args.games)
        statements(url, games)
        how = ("questions held" if args.held else f"a look every {POLL:g} s")
        kind = f"gthread workers of {args.threads} threads" if args.held else "sync workers"
        print(f"{args.phones} phones following {args.games} games, {how}, "
              f"{args.servers} server(s) × {args.workers} {kind}, {args.database}", flush=True)
        stretch("nothing changes", servers, games, args.phones, args.seconds, False, args.held)
        stretch("the tables play", servers, games, args.phones, args.seconds, True, args.held)
    finally:
        for server in servers:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
