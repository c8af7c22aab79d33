"""What the seats entered and the game file doesn't hold yet (SEATS.md: sealed bids, trick counts
not all in): kept in the game's ``seats`` column, written with the game's version by the one writer
(``changes.apply``), kept while the deal being played stays as it was, let go when it moves, and
never part of any answer built from the game file."""

from __future__ import annotations

import json
from collections.abc import Callable

from flask import Flask
from webhelpers import Scorer, snapshot

from scorekeeper import changes
from scorekeeper.changes import edits
from scorekeeper.store.games import find_game

Start = Callable[..., Scorer]


def _enter(app: Flask, scorer: Scorer, entries: dict[str, object],
           change: changes.Change = lambda doc: None) -> changes.Outcome:
    with app.test_request_context():
        game = find_game(scorer.token)[0]
        assert game is not None

        def put(document: edits.Document, stored: edits.Document) -> None:
            stored.clear()
            stored.update(entries)

        return changes.apply(game, change, version=game.version, seats=put)


def _entries(app: Flask, scorer: Scorer) -> dict[str, object]:
    with app.test_request_context():
        game = find_game(scorer.token)[0]
        assert game is not None
        return game.entries


def test_what_the_seats_entered_is_stored_with_a_new_version_and_in_no_answer(
        app: Flask, start: Start) -> None:
    scorer = start()
    version = scorer.version()
    outcome = _enter(app, scorer, {"deal": 1, "bids": [{"bid": 7}, None, None, None]})
    assert isinstance(outcome, changes.Saved)
    assert scorer.version() == version + 1  # the phones following the game see something changed
    assert _entries(app, scorer) == {"deal": 1, "bids": [{"bid": 7}, None, None, None]}
    for answer in (scorer.page(), json.dumps(scorer.export()),
                   scorer.client.get(f"/v/{scorer.view_token}").get_data(as_text=True)):
        assert '"bid": 7' not in answer and "{'bid': 7}" not in answer


def test_a_correction_of_an_earlier_deal_keeps_them_and_a_change_of_the_deal_lets_them_go(
        app: Flask, start: Start) -> None:
    scorer = start(rules={"deal": "down", "max_cards": 3})
    scorer.bid(1, 0, 1, 0)
    scorer.tricks(1, 0, 1, 1)
    entries = {"deal": 2, "tricks": [1, None, None, None]}
    assert isinstance(_enter(app, scorer, entries), changes.Saved)
    with app.test_request_context():
        game = find_game(scorer.token)[0]
        assert game is not None
        corrected = changes.apply(
            game, lambda doc: edits.replace_deal(doc, 1, [1, 0, 1, 0], [0, 1, 1, 1], None),
            version=game.version)
    assert isinstance(corrected, changes.Saved)
    assert _entries(app, scorer) == entries
    scorer.bid(0)  # the scorer enters a bid of the deal being played
    assert _entries(app, scorer) == {}


def test_a_refused_change_stores_none_of_them(app: Flask, start: Start) -> None:
    scorer = start()
    before = snapshot(app)

    def wrong(document: edits.Document) -> None:
        raise edits.EditError("no")

    outcome = _enter(app, scorer, {"deal": 1, "bids": [None, {"bid": 1}, None, None]}, wrong)
    assert isinstance(outcome, changes.Refused)
    assert snapshot(app) == before
