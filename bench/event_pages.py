"""A club night's pages and PDFs at the largest event (EVENTS.md, "Limits"): 400 players at 100
tables of 4 for 20 rounds, 19 of them played, the 20th being played. In-process (the Flask test
client, one thread), beside the scoreboard page of a game of 8 players and 25 deals in the same run:

- the p50 of the director's page, the room screen, and the room screen's poll (``state``) when
  nothing changed and when a table entered a deal, against the scoreboard page's p50 (and the
  poll against a game's live view's);
- the SQL statements of each page at a small event (13 players, 3 tables, 3 rounds) and at the
  largest: they must be the same;
- starting a round of 100 tables, seating it included;
- the night's PDFs once a table has entered a deal: the table cards of the round being played
  (A4 and Letter) and the results sheet, each the first time (nothing kept of them yet, the QR
  codes of the cards included) and again (kept); each must take at most 2 s.

    .venv/bin/python bench/event_pages.py            # 400 players, 20 rounds
    .venv/bin/python bench/event_pages.py 100 5      # 100 players, 5 rounds
    .venv/bin/python bench/event_pages.py --smoke    # 13 players, 2 rounds: it runs
    .venv/bin/python bench/event_pages.py --long     # the same, every name as long as allowed
"""

from __future__ import annotations

import io
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient
from flask_migrate import upgrade
from pypdf import PdfReader
from sqlalchemy import event

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import SMOKE, sized
from run import big_game

from scorekeeper import create_app
from scorekeeper.rules.values import MAX_NAME
from scorekeeper.store.db import db

RULES = {"preset": "oh-hell", "deal": "fixed", "max_cards": 1, "deals": 2}
#: Every player's name as long as a name may be (``--long``).
LONG = "--long" in sys.argv
#: The most a request may take (EVENTS.md, "Limits"), in seconds.
BOUND = 2.0


def token(link: str) -> str:
    return link.rstrip("/").rsplit("/", 1)[1]


def one_deal(client: FlaskClient, table: dict[str, Any], ended: bool) -> None:
    """Enter a table's first deal through the API (and end the game when ``ended``)."""
    read = client.get(table["links"]["api"])
    game = read.get_json()
    n = len(game["players"])
    doc = {name: game[name] for name in ("title", "players", "rules", "first_dealer")}
    doc["deals"] = [{"bids": [1, 1] + [0] * (n - 2), "tricks": [1] + [0] * (n - 1)}]
    doc["ended"] = ended
    put = client.put(f"/api/games/{token(table['links']['edit'])}", json=doc,
                     headers={"If-Match": read.headers["ETag"]})
    assert put.status_code == 200, put.get_json()


def night(client: FlaskClient, players: int, rounds: int) -> tuple[dict[str, Any], float]:
    """An event with every round but the last played, the last started; the last start's time."""
    names = [(f"Player {i + 1} " + "Longname-" * 5)[:MAX_NAME] if LONG else f"Player {i + 1}"
             for i in range(players)]
    made = client.post("/api/events", json={"name": "Club night", "players": names,
                                            "rounds": rounds, "tables": {"size": 4},
                                            "rules": RULES, "seed": 1})
    assert made.status_code == 201, made.get_json()
    edit = token(made.get_json()["links"]["edit"])
    took = 0.0
    for number in range(rounds):
        began = time.perf_counter()
        started = client.post(f"/api/events/{edit}/rounds", json={})
        took = time.perf_counter() - began
        assert started.status_code == 201, started.get_json()
        if number < rounds - 1:
            for table in started.get_json()["played"][-1]["tables"]:
                one_deal(client, table, ended=True)
    return client.get(f"/api/events/{edit}").get_json(), took


def p50(client: FlaskClient, path: str, times: int = 30) -> float:
    samples = []
    for _ in range(times):
        began = time.perf_counter()
        response = client.get(path)
        samples.append(time.perf_counter() - began)
        assert response.status_code == 200, (path, response.status_code)
    return statistics.median(samples) * 1000


def main() -> None:
    sizes = [a for a in sys.argv[1:] if not a.startswith("--")]
    players, rounds = ((int(sizes[0]), int(sizes[1])) if len(sizes) > 1
                       else (sized(400, 13), sized(20, 2)))
    folder = tempfile.mkdtemp()
    # each PDF timed to its answer: none answered "being drawn" (COSTLY_WITHIN)
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/e.sqlite",
                      "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False, "COSTLY_WITHIN": "0"})
    with app.app_context():
        upgrade()
        statements: list[str] = []
        event.listen(db.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    client = app.test_client()
    counts: dict[str, list[int]] = {}
    for size, many in ((13, 3), (players, rounds)):
        began = time.perf_counter()
        doc, start = night(client, size, many)
        built = time.perf_counter() - began
        edit, view = token(doc["links"]["edit"]), token(doc["links"]["view"])
        pages = {"director's page": f"/e/{edit}", "room screen": f"/e/{view}",
                 "poll, unchanged": None, "event API": f"/api/events/{view}"}
        state = client.get(f"/e/{view}/state").get_json()["version"]
        pages["poll, unchanged"] = f"/e/{view}/state?v={state}"
        for name, path in pages.items():
            client.get(path)
            statements.clear()
            client.get(path)
            counts.setdefault(name, []).append(len(statements))
        print(f"{size} players, {len(doc['played'][-1]['tables'])} tables, {many} rounds: "
              f"built in {built:.1f} s; starting the last round took {start * 1000:.0f} ms")
    game = client.post("/api/games", json=big_game(8, 25)).get_json()
    scoreboard = f"/v/{token(game['links']['view'])}"
    client.get(scoreboard)
    base = p50(client, scoreboard)
    print(f"scoreboard page (8 players, 25 deals): p50 {base:.2f} ms")
    version = client.get(f"/api/games/{token(game['links']['api'])}").headers["ETag"].strip('"')
    live = p50(client, f"{scoreboard}/state?v={version}")
    print(f"a game's live view, unchanged: p50 {live:.2f} ms")
    for name, path in pages.items():
        took = p50(client, path)
        print(f"{name}: p50 {took:.2f} ms = {took / base:.2f}× the scoreboard's")
    first_table = doc["played"][-1]["tables"][0]
    samples = []
    for _ in range(10):
        one_deal(client, first_table, ended=False)  # a table enters a deal (the same one again)
        began = time.perf_counter()
        changed = client.get(f"/e/{view}/state?v={state}").get_json()
        samples.append(time.perf_counter() - began)
        state = changed["version"]
    print(f"poll after a table entered a deal: p50 {statistics.median(samples) * 1000:.2f} ms")
    print("SQL statements per page, small / largest event: "
          + ", ".join(f"{name} {small}/{large}" for name, (small, large) in counts.items()))
    over = pdfs(client, token(doc["links"]["edit"]), view)
    if over and not SMOKE:
        sys.exit(f"over the {BOUND:g} s bound: {', '.join(over)}")


def pdfs(client: FlaskClient, edit: str, view: str) -> list[str]:
    """Time each PDF of the night as it is now, the first time and again; the ones over the
    bound."""
    over = []
    # WeasyPrint loaded, as in a worker that printed before
    client.get("/sheets/blank.pdf?players=4")
    for name, path in (("results sheet", f"/e/{view}/results.pdf"),
                       ("table cards, A4", f"/e/{edit}/cards.pdf"),
                       ("table cards, Letter", f"/e/{edit}/cards.pdf?paper=letter")):
        took = []
        for _ in range(2):
            began = time.perf_counter()
            response = client.get(path)
            took.append(time.perf_counter() - began)
            assert response.status_code == 200 and response.mimetype == "application/pdf", (
                path, response.status_code)
        pages = len(PdfReader(io.BytesIO(response.data)).pages)
        print(f"{name}: first {took[0] * 1000:.0f} ms, kept {took[1] * 1000:.2f} ms "
              f"({pages} pages, {len(response.data) // 1024} KB)")
        over += [name] * (max(took) > BOUND)
    return over


if __name__ == "__main__":
    main()
