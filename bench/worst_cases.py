"""The most expensive requests within the limits of RULES.md §8, each timed (run by hand, not in
CI).

    .venv/bin/python bench/worst_cases.py [N] [WORDS]   # WORDS: only the cases whose name
                                                        # holds them
    .venv/bin/python bench/worst_cases.py --smoke       # each case once, on games of 10 deals:
                                                        # it runs

Each case is one request through the whole app (Flask's test client, on a migrated SQLite file,
in this one process: one core). "cold" is its first time in a worker that holds nothing of the
game yet (no replay, no rendered page, no compiled rules: the worker's caches are emptied);
"warm" is the median of N more. The bound is 2 s for every request; the exit status is 1 when a
case misses it. Nothing here asserts a time in CI: the tests hold the bounds themselves (sizes,
pages, counts), this prints what they cost.
"""

from __future__ import annotations

import gc
import io
import json
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade
from harness import SMOKE, sized
from sheet_cases import DEALS, LARGEST_BLANK, largest_game_file
from werkzeug.test import TestResponse

from scorekeeper import create_app
from scorekeeper.games.backup import FORMAT, MAX_GAMES
from scorekeeper.phone.device import KEEP
from scorekeeper.play import pages
from scorekeeper.rules import presets, scoring
from scorekeeper.store import games as stored_games
from scorekeeper.web import lanes

BOUND = 2.0
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
VERSION = re.compile(r'name="version" value="(\d+)"')
#: House formulas of 200 characters each: the most work per deal the rules allow a formula.
MADE = ("10 + bid * 2 + max(bid, tricks) ** 2 - min(cards, players) + abs(bid - tricks) * 3"
        " + (bid > 3) * 5 + cards // 2 + players % 3 - (tricks != bid) * 7"
        " + max(1, 2, 3, bid) * min(4, cards) + 1")
MISSED = ("-abs(bid - tricks) * 3 - (bid - tricks) ** 2 + max(bid, tricks)"
          " - min(cards, players) * 2 + (bid > 3) * 5 - cards // 2 + players % 3"
          " + max(1, 2, 3, bid) - min(4, cards) - 1 - 1 - 1")
#: The most bids and trick counts a house system is checked for: two players with two decks,
#: hands of up to 52 cards (49,608 missed scores, 1,430 made ones).
HUGE_HANDS = {"deck_size": 104, "max_cards": 52, "scoring": "custom"}
#: House formulas of about 190 characters full of fractions and powers: too costly to check for
#: hands that large (refused), as the rules allow them for small hands.
COSTLY = {"made": "(bid / 3) ** 3 + (tricks / 7) ** 3 + (cards / 9) ** 2"
                  " + (bid + 1) ** 3 / (tricks + 2) ** 2 + ((bid - tricks) / 5) ** 4"
                  " + (cards / 11) ** 3 + (players / 13) ** 2 + (bid / 17) ** 2",
          "missed": "-((bid - tricks) / 3) ** 3 - (tricks / 7) ** 3 - (cards / 9) ** 2"
                    " - (bid + 1) ** 3 / (tricks + 2) ** 2 - ((bid - tricks) / 5) ** 4"
                    " - (cards / 11) ** 3 - (players / 13) ** 2"}
#: The blank sheet of the security review: 200 deals and their tie-break rows for 10 players.
REVIEWED_BLANK = {"players": "10", "deal": "fixed", "max_cards": "5", "deals": str(sized(200, 10)),
                  "tie": "one-card-hand"}
#: A name of the most characters a name may have (RULES.md §8), told apart by its first ones.
NAME = "Bartholomew Evangeline Hildegard-Maximus"


def largest_game(ended: bool = True) -> dict[str, Any]:
    """The largest game RULES.md §8 allows, made as heavy as it can be: 10 players named with 40
    characters, a 100-character title, 300 deals scored by two 200-character house formulas, 100
    adjustments with 100-character reasons, stakes; with ``ended`` false, its last deal half bid."""
    document = largest_game_file()
    document["players"] = [f"{n} {NAME}"[:40] for n in range(10)]
    document["title"] = ("The longest game of the year, at the big table, with every house rule"
                         " we know, to the very last deal")
    assert len(document["title"]) == 100
    document["rules"] = {**document["rules"], "scoring": "custom", "made": MADE, "missed": MISSED}
    for adjustment in document["adjustments"]:
        adjustment["reason"] = (f"{adjustment['reason']} and then some more words to make it"
                                " as long as can be")[:100]
    if not ended:
        # the last deal (300, or 10) is dealt by seat 9: seats 0 to 3 have bid, seat 4 bids next
        document["ended"] = False
        last = document["deals"][-1]["bids"]
        document["deals"][-1] = {"bids": [bid if seat < 4 else None
                                          for seat, bid in enumerate(last)]}
        document["adjustments"] = [a for a in document["adjustments"] if a["deal"] < DEALS]
    return document


def largest_game_with_absences() -> dict[str, Any]:
    """The heaviest game again, with the most absences a game file may list (100 sit-outs): every
    one of its deals replays with its own players present, dealer and eldest hand."""
    document = largest_game()
    absent = []
    for number in range(3, DEALS + 1, 3):
        seat = number % 10
        deal = document["deals"][number - 1]
        took = deal["tricks"][seat]
        deal["bids"][seat] = deal["tricks"][seat] = None
        deal["tricks"][(seat + 1) % 10] += took  # the tricks still add up among those dealt in
        absent.append({"player": seat, "from": number, "to": number})
    document["absent"] = absent
    document["adjustments"] = [a for a in document["adjustments"] if a["deal"] % 3]
    return document


def backup_games(limit: int = 1_000_000) -> list[dict[str, Any]]:
    """A full backup (MAX_GAMES games) as large as an upload may be: each game as many deals of
    10 players as fit."""
    deals = DEALS
    while True:
        game = largest_game_file()
        game["deals"], game["adjustments"] = game["deals"][:deals], [
            a for a in game["adjustments"] if a["deal"] <= deals]
        games = [{**game, "title": f"Friday {n}"} for n in range(sized(MAX_GAMES, 3))]
        if len(json.dumps({"format": FORMAT, "games": games})) < limit - 2000:
            return games
        deals -= 5


def empty_caches(app: Flask) -> None:
    """Forget what this worker and its server hold: replays, rendered pages and sheets (kept in
    memory and in the lane's folder), made rules and formulas, checked house systems."""
    for name in ("_replayed", "_newest"):
        getattr(stored_games, name)._items.clear()
    pages._pages._items.clear()
    lanes._kept._items.clear()
    for kept in lanes.kept_folder(app).glob("*"):
        kept.unlink()
    scoring._told.clear()
    presets._remembered.cache_clear()
    scoring._custom.cache_clear()
    scoring._check.cache_clear()
    gc.collect()


def timed(request: Callable[[], TestResponse], expect: int) -> float:
    """Seconds one request takes (its whole answer read), checked for the status it should have."""
    began = time.perf_counter()
    response = request()
    response.get_data()
    took = time.perf_counter() - began
    assert response.status_code == expect, (response.status_code,
                                            response.get_data(as_text=True)[:300])
    return took


class Phone:
    """One phone's client: its cookie, its list of games, the pages' form tokens."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def token(self, url: str) -> tuple[str, str]:
        page = self.client.get(url).get_data(as_text=True)
        csrf, version = CSRF.search(page), VERSION.search(page)
        return (csrf.group(1) if csrf else ""), (version.group(1) if version else "")

    def store(self, document: dict[str, Any]) -> str:
        response = self.client.post("/api/games", json=document)
        assert response.status_code == 201, response.get_json()
        token = response.get_json()["links"]["edit"].rsplit("/", 1)[1]
        self.client.get(f"/g/{token}")  # on this phone's list
        return token

    def upload(self, document: dict[str, Any]) -> TestResponse:
        csrf, _ = self.token("/import")
        data = {"csrf_token": csrf,
                "file": (io.BytesIO(json.dumps(document).encode()), "backup.json")}
        return self.client.post("/import", data=data, content_type="multipart/form-data")


def cases(app: Any) -> dict[str, tuple[Callable[[], TestResponse], int, Callable[[], None]]]:
    """Each case: the request, the status it answers, and what puts the game back between runs."""
    phone = Phone(app.test_client())
    ended, playing = phone.store(largest_game()), phone.store(largest_game(ended=False))
    away = phone.store(largest_game_with_absences())
    view = phone.client.get(f"/api/games/{ended}").get_json()["links"]["view"].rsplit("/", 1)[1]
    blank = "&".join(f"{k}={v}" for k, v in LARGEST_BLANK.items())
    full = {"format": FORMAT, "games": backup_games()}
    held = Phone(app.test_client())  # a phone holding as many of the largest games as it keeps
    for _ in range(sized(KEEP, 2)):
        held.store(largest_game())

    tapped: dict[str, str] = {}

    def tap() -> TestResponse:
        """A bid on the game being played, naming its deal and seat as the page's taps do."""
        csrf, version = phone.token(f"/g/{playing}")
        page = phone.client.get(f"/g/{playing}").get_data(as_text=True)
        seat, deal = (re.search(r'name="seat" value="(\d+)"', page),
                      re.search(r'name="deal" value="(\d+)"', page))
        assert seat is not None and deal is not None
        tapped.update(deal=deal.group(1), seat=seat.group(1))
        return phone.client.post(f"/g/{playing}/bid", data={"csrf_token": csrf, "version": version,
                                                            **tapped, "bid": "0"})

    def untap() -> None:
        """That bid taken back (an undo names the bid it takes back)."""
        if not tapped:
            return
        csrf, version = phone.token(f"/g/{playing}")
        answer = phone.client.post(f"/g/{playing}/undo",
                                   data={"csrf_token": csrf, "version": version, **tapped})
        assert answer.status_code == 302, answer.status_code
        tapped.clear()

    def correct() -> TestResponse:
        csrf, version = phone.token(f"/g/{playing}/deal/1")
        first = largest_game_file()["deals"][0]
        fields = {f"{kind}-{seat}": value for kind in ("bids", "tricks")
                  for seat, value in enumerate(first[kind])}
        return phone.client.post(f"/g/{playing}/deal/1",
                                 data={"csrf_token": csrf, "version": version, **fields})

    @lru_cache(maxsize=1)
    def big_example() -> str:
        return "&".join(f"rules-{k}={v}" for k, v in {"deck_size": "104", "max_cards": "52",
                                                       "scoring": "custom",
                                                       "made": "1%2B" * 99 + "1",
                                                       "missed": "1-" * 99 + "1"}.items())

    def new_game(formulas: dict[str, str]) -> Callable[[], TestResponse]:
        return lambda: app.test_client().post("/api/games",
                                              json={"players": ["Ann", "Bob"],
                                                    "rules": {**HUGE_HANDS, **formulas}})

    def example(formulas: dict[str, str]) -> Callable[[], TestResponse]:
        query = {f"rules-{name}": value for name, value in {**HUGE_HANDS, **formulas}.items()}
        return lambda: phone.client.get("/new/example", query_string=query)

    def restore() -> TestResponse:
        return Phone(app.test_client()).upload(full)

    def own_formulas(games: int, top: int) -> Callable[[], TestResponse]:
        """A backup of games of two decks and hands up to ``top``, each with its own 200-character
        house formulas (nothing checked for one is reused for another)."""
        document = {"format": FORMAT, "games": [
            {"title": f"House {n}", "players": ["Ann", "Bob"],
             "rules": {**HUGE_HANDS, "max_cards": top, "made": f"{MADE} + {n}",
                       "missed": f"{MISSED} - {n}"}}
            for n in range(games)]}
        return lambda: Phone(app.test_client()).upload(document)

    def nothing() -> None:
        """Nothing to put back between two runs."""

    return {
        "import the largest game (API)": (
            lambda: app.test_client().post("/api/games", json=largest_game()), 201, nothing),
        "its game page": (lambda: phone.client.get(f"/g/{ended}"), 200, nothing),
        "its read-only page": (lambda: phone.client.get(f"/v/{view}"), 200, nothing),
        "its read-only live board": (
            lambda: phone.client.get(f"/v/{view}/state?v=0"), 200, nothing),
        "its export (API)": (lambda: phone.client.get(f"/api/games/{ended}"), 200, nothing),
        "its game file download": (
            lambda: phone.client.get(f"/g/{ended}/export.json"), 200, nothing),
        "its filled sheet (PDF)": (
            lambda: phone.client.get(f"/g/{ended}/sheet.pdf"), 200, nothing),
        "the same with 100 sit-outs: its game page": (
            lambda: phone.client.get(f"/g/{away}"), 200, nothing),
        "the same with 100 sit-outs: its filled sheet (PDF)": (
            lambda: phone.client.get(f"/g/{away}/sheet.pdf"), 200, nothing),
        "a bid on it": (tap, 302, untap),
        "a correction of its deal 1": (correct, 302, nothing),
        "the largest blank sheet (PDF)": (
            lambda: phone.client.get(f"/sheets/blank.pdf?{blank}"), 200, nothing),
        f"restore a full backup ({MAX_GAMES} games, < 1 MB)": (restore, 200, nothing),
        f"restore {MAX_GAMES} games, own formulas each, hands to 52 (refused)": (
            own_formulas(MAX_GAMES, 52), 422, nothing),
        "restore 4 games, own formulas each, hands to 32 (near budget)": (
            own_formulas(4, 32), 200, nothing),
        f"the list of a phone holding {KEEP} of the largest games": (
            lambda: held.client.get("/"), 200, nothing),
        f"the backup of those {KEEP} games": (
            lambda: held.client.get("/backup.json"), 200, nothing),
        "the scoring example of the costliest formulas": (
            lambda: phone.client.get(f"/new/example?{big_example()}"), 200, nothing),
        "a new game (API), 200-character formulas, hands up to 52": (
            new_game({"made": MADE, "missed": MISSED}), 201, nothing),
        "a new game (API), formulas of fractions, hands up to 52": (new_game(COSTLY), 422, nothing),
        "their scoring example (200-character formulas)": (
            example({"made": MADE, "missed": MISSED}), 200, nothing),
        "their scoring example (formulas of fractions)": (example(COSTLY), 200, nothing),
        "the reviewed blank sheet (10 players, 200 deals, tie rows)": (
            lambda: phone.client.get("/sheets/blank.pdf", query_string=REVIEWED_BLANK), 200,
            nothing),
    }


def main(runs: int = 3, only: str = "") -> int:
    """Print each case's cold and warm seconds (of the cases whose name holds ``only``); 1 when a
    case takes more than the bound."""
    folder = Path(tempfile.mkdtemp(prefix="worst-"))
    # one address stores every case's games in seconds
    # every case timed to its answer: no sheet answered "being drawn" (COSTLY_WITHIN)
    app = create_app({"SECRET_KEY": "bench",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'worst.sqlite'}",
                      "RATELIMIT_ENABLED": False, "COSTLY_WITHIN": "0"})
    with app.app_context():
        upgrade()
    random.seed(1)
    missed = False
    print(f"{'case':62} {'cold':>7} {'warm':>7} {'max':>7}")
    for name, (request, status, reset) in cases(app).items():
        if only and only not in name:
            continue
        reset()
        empty_caches(app)
        cold = timed(request, status)
        warm = []
        for _ in range(runs):
            reset()
            warm.append(timed(request, status))
        worst = max([cold, *warm])
        missed |= worst > BOUND
        print(f"{name:62} {cold:6.2f}s {statistics.median(warm or [cold]):6.2f}s {worst:6.2f}s"
              f"{'' if worst <= BOUND else '  OVER ' + str(BOUND) + ' s'}", flush=True)
    return 1 if missed and not SMOKE else 0


if __name__ == "__main__":
    sys.exit(main(sized(int(sys.argv[1]) if len(sys.argv) > 1 else 3, 0), " ".join(sys.argv[2:])))
