"""A game stored before a limit of RULES.md §8 that it breaks (an adjustment of 2½ points, a
currency called "Euro") is never lost: the list names it and why, its pages say so instead of
failing, and its game file can be downloaded as stored, backed up and deleted."""

from __future__ import annotations

import json
from collections.abc import Callable

from flask import Flask
from webhelpers import Scorer, csrf_from, snapshot, text

from scorekeeper.store.db import db
from scorekeeper.store.games import Game

Start = Callable[..., Scorer]


def _stored_before(app: Flask, start: Start) -> Scorer:
    """A game whose stored file breaks today's limits, as an earlier version could store it."""
    game = start(title="Old friends", stakes={"per_point": "0.05", "currency": "EUR"})
    with app.app_context():
        row = db.session.execute(db.select(Game).where(Game.token == game.token)).scalar_one()
        document = json.loads(row.data)
        document["stakes"]["currency"] = "Euro"
        document["adjustments"] = [{"deal": 1, "player": 0, "points": 2.5, "reason": "half"}]
        document["deals"] = [{"bids": [0, 1, 1, 0], "tricks": [1, 1, 1, 0]}]
        row.data = json.dumps(document)
        db.session.commit()
    return game


def test_a_game_stored_before_a_limit_is_listed_with_the_reason(app: Flask, start: Start) -> None:
    game = _stored_before(app, start)
    home = text(game.client.get("/").get_data(as_text=True))
    assert ("Old friends" in home and "This game can't be shown" in home
            and "Download its game file" in home)


def test_its_pages_say_why_and_where_its_file_is_instead_of_failing(
        app: Flask, start: Start) -> None:
    game = _stored_before(app, start)
    for url in (game.url, f"/v/{game.view_token}", f"/g/{game.token}/sheet.pdf",
                f"/g/{game.token}/share"):
        response = game.client.get(url)
        assert response.status_code == 409, url
        assert "This game can't be shown" in text(response.get_data(as_text=True))
    api = game.client.get(f"/api/games/{game.token}")
    assert api.status_code == 409 and "limit" in api.get_json()["error"]


def test_its_file_is_downloaded_and_backed_up_as_stored_and_it_can_be_deleted(
        app: Flask, start: Start) -> None:
    game = _stored_before(app, start)
    exported = game.client.get(f"/g/{game.token}/export.json").get_json()
    assert exported["stakes"]["currency"] == "Euro" and exported["adjustments"][0]["points"] == 2.5
    backup = game.client.get("/backup.json").get_json()
    assert [g["title"] for g in backup["games"]] == ["Old friends"]
    page = game.client.get(f"/g/{game.token}/delete").get_data(as_text=True)
    assert "Old friends" in text(page)
    response = game.client.post(f"/g/{game.token}/delete", data={"csrf_token": csrf_from(page)})
    assert response.status_code == 302 and snapshot(app) == []
