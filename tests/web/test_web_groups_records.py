"""What a group shows of a finished game is stored by the write that finished (or changed) it: a
worker that holds nothing of a group (a second gunicorn worker, or any after a restart) reads those
records instead of replaying each game, as long as a record is of the game's current version and
of this build of the rules core. Pages only read: no GET writes."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select
from test_web_groups_size import fill, new_group
from webhelpers import csrf_from, text

from scorekeeper.groups import figures
from scorekeeper.rules import record
from scorekeeper.rules.gamefile import parse
from scorekeeper.store.db import commit, db
from scorekeeper.store.games import GameRecord, StoredGame, find_game


def restarted() -> None:
    """Forget what this worker holds of every group, as a worker that just started."""
    for kept in (figures._entries, figures._figures, figures._settled, figures._marked):
        kept._items.clear()


def replays(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The games the group's figures replay from here on."""
    seen: list[Any] = []

    def counted(document: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(document)
        return parse(document, *args, **kwargs)

    monkeypatch.setattr(figures, "parse", counted)
    return seen


def stored(app: Flask) -> int:
    with app.app_context():
        return db.session.execute(select(func.count()).select_from(GameRecord)).scalar_one()


def test_a_fresh_worker_shows_the_group_from_the_stored_records_without_replaying_a_game(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    edit, view = new_group(client)
    fill(app, edit, 30)
    assert stored(app) == 30  # written with each finished game, before any page
    first = client.get(f"/gr/{view}").get_data(as_text=True)
    restarted()
    replayed = replays(monkeypatch)
    again = client.get(f"/gr/{view}").get_data(as_text=True)
    assert replayed == [] and text(again) == text(first)
    assert "The whole leaderboard: 300 players" in text(again)


def test_a_change_to_a_finished_game_stores_its_new_record_in_the_same_write(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    edit, view = new_group(client)
    games = fill(app, edit, 5)
    changed = {"players": [f"P2-{seat}" for seat in range(10)], "title": "Game 2, corrected",
               "rules": {"deal": "fixed", "max_cards": 1, "deals": 1},
               "deals": [{"bids": [0] * 10, "tricks": [0, 1] + [0] * 8}]}
    with app.test_request_context():
        found, _editable = find_game(games[2].token)
        assert found is not None and found.save(parse(changed))
        assert isinstance(found.updated_at, datetime) and found.version == 2
    assert stored(app) == 5
    restarted()
    replayed = replays(monkeypatch)
    page = text(client.get(f"/gr/{view}").get_data(as_text=True))
    assert replayed == [] and "Game 2, corrected" in page


def test_a_game_still_going_has_no_record_and_the_tap_that_finishes_it_stores_one(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    going = {"players": ["Ann", "Bob", "Cy"],
             "rules": {"deal": "fixed", "max_cards": 1, "deals": 2},
             "deals": [{"bids": [0, 0, 0], "tricks": [1, 0, 0]}]}
    with app.test_request_context():
        game = StoredGame.create(parse(going))
        commit()
    assert stored(app) == 0
    with app.test_request_context():
        found, _editable = find_game(game.token)
        assert found is not None
        assert found.save(parse({**going, "deals": going["deals"] * 2}))
    assert stored(app) == 1


def test_a_record_another_build_wrote_is_not_read_and_no_page_writes_one(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    edit, view = new_group(client)
    fill(app, edit, 4)
    monkeypatch.setattr(record, "MADE_BY", "another build")
    restarted()
    replayed = replays(monkeypatch)
    client.get(f"/gr/{view}")
    assert len(replayed) == 4
    restarted()
    replayed.clear()
    client.get(f"/gr/{view}")  # the page wrote nothing: replayed again
    assert len(replayed) == 4


def test_a_deleted_game_takes_its_record_with_it(app: Flask, client: FlaskClient) -> None:
    edit, _view = new_group(client)
    games = fill(app, edit, 3)
    page = client.get(f"/gr/{edit}").get_data(as_text=True)
    deleted = client.post(f"/g/{games[1].token}/delete", data={"csrf_token": csrf_from(page)})
    assert deleted.status_code in (302, 303)
    assert stored(app) == 2
