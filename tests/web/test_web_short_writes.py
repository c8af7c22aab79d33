"""No request holds the database's write lock while it checks: a tap on one game is never kept
waiting by a costly request on another (issue "one server, many tables").

Two apps on one database file stand for two workers of one server. The costly request is paused
in the middle of its checks (after its second game file is checked) until the tap is answered, so
the tap is sure to come while it works. A costly request that had started writing by then would
hold the database's lock for as long as it stays paused: the tap could not be answered before it
is let go, and the test says so. No clock is read: the test waits for the states it needs (a
minute at most, lest a broken app hang it).
"""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webhelpers import FOUR, Scorer, csrf_from, snapshot
from werkzeug.test import TestResponse

from scorekeeper import create_app
from scorekeeper.api import views as api
from scorekeeper.games import views as games
from scorekeeper.games.backup import FORMAT
from scorekeeper.store.db import db

#: A house formula of the costliest kind within the limits, made different for each game so that
#: nothing checked for one is reused for the next.
MADE = ("10 + bid * 2 + max(bid, tricks) ** 2 - min(cards, players) + abs(bid - tricks) * 3"
        " + (bid > 3) * 5 + cards // 2 + players % 3 - (tricks != bid) * 7"
        " + max(1, 2, 3, bid) * min(4, cards) + {n}")
MISSED = ("-abs(bid - tricks) * 3 - (bid - tricks) ** 2 + max(bid, tricks)"
          " - min(cards, players) * 2 - {n}")


def costly(number: int, top: int = 52) -> dict[str, Any]:
    """A game with two decks, hands up to ``top`` cards and its own house formulas: its check
    replays the formulas over every deal of the schedule."""
    return {"title": f"Costly {number}", "players": ["Ann", "Bob"],
            "rules": {"decks": 2, "max_cards": top, "scoring": "custom",
                      "made": MADE.format(n=number), "missed": MISSED.format(n=number)}}


def upload(client: FlaskClient, document: object) -> TestResponse:
    """Upload a file on the import page, as a phone would."""
    csrf = csrf_from(client.get("/import").get_data(as_text=True))
    file = (io.BytesIO(json.dumps(document).encode()), "games.json")
    return client.post("/import", data={"csrf_token": csrf, "file": file},
                       content_type="multipart/form-data")


#: The costly requests: what each posts, and the module whose game-file check it runs.
REQUESTS: dict[str, tuple[Callable[[FlaskClient], TestResponse], Any, int]] = {
    # four games of hands up to 39 cards: most of the checking one restore may do
    "a backup import": (lambda c: upload(c, {"format": FORMAT,
                                             "games": [costly(n, 39) for n in range(4)]}),
                        games.backup, 4),
    "a game file import": (lambda c: upload(c, costly(0)), games, 1),
    "a new game through the API": (lambda c: c.post("/api/games", json=costly(0)), api, 1),
}


@pytest.fixture
def other_worker(database_url: str) -> Flask:
    """A second app on the same database: another worker of the same server."""
    worker = create_app({"TESTING": True, "SECRET_KEY": "test",
                         "SQLALCHEMY_DATABASE_URI": database_url})
    yield worker
    with worker.app_context():
        db.engine.dispose()


@pytest.mark.parametrize("costly_request", REQUESTS)
def test_a_tap_on_another_game_is_answered_while_a_costly_request_runs(
        app: Flask, other_worker: Flask, monkeypatch: pytest.MonkeyPatch,
        costly_request: str) -> None:
    post, module, stored = REQUESTS[costly_request]
    table = other_worker.test_client()
    links = table.post("/api/games", json={"players": FOUR}).get_json()["links"]
    scorer = Scorer(table, links["edit"].rsplit("/", 1)[1], links["view"].rsplit("/", 1)[1])
    form = {"csrf_token": csrf_from(scorer.page()), "version": scorer.version(), "deal": 1,
            "seat": 1, "bid": 0}

    checking, tapped, checked = threading.Event(), threading.Event(), []
    real_parse = module.parse

    def parse(document: Any, *args: Any, **kwargs: Any) -> Any:
        game = real_parse(document, *args, **kwargs)
        checked.append(game)
        if len(checked) == min(2, stored):  # midway (or, for one game, right after its check)
            checking.set()
            tapped.wait(120)
        return game

    monkeypatch.setattr(module, "parse", parse)
    answers: list[TestResponse] = []
    taps: list[TestResponse] = []
    worker = threading.Thread(target=lambda: answers.append(post(app.test_client())))
    tapping = threading.Thread(
        target=lambda: taps.append(table.post(scorer.url + "/bid", data=form)))
    worker.start()
    try:
        assert checking.wait(60), "the costly request never got to its checks"
        tapping.start()
        tapping.join(60)
        answered_while_paused = not tapping.is_alive() and not tapped.is_set()
    finally:
        tapped.set()
        worker.join(60)
        if tapping.ident is not None:  # started
            tapping.join(60)
    assert not worker.is_alive() and not tapping.is_alive()
    assert answered_while_paused, "the tap waited for the costly request to let go of the database"
    tap = taps[0]
    assert tap.status_code == 302, tap.get_data(as_text=True)
    assert answers[0].status_code in (200, 201, 302), answers[0].get_data(as_text=True)
    assert len(snapshot(app)) == 1 + stored
