"""Retention (off by default): ``flask remove-unplayed`` removes the games nobody entered a deal in
after REMOVE_UNPLAYED_AFTER_DAYS days without a change; a game with a deal is never removed."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webhelpers import FOUR, Scorer, closed, groups_snapshot, snapshot

from scorekeeper import create_app
from scorekeeper.rules.errors import ValueRefused
from scorekeeper.store.db import db


def app_with(database_url: str, **config: object) -> Flask:
    return create_app({"TESTING": True, "SECRET_KEY": "test",
                       "SQLALCHEMY_DATABASE_URI": database_url,
                       "RATELIMIT_ENABLED": False, **config})


@pytest.fixture
def keeping_30_days(database_url: str) -> Iterator[Flask]:
    app = app_with(database_url, REMOVE_UNPLAYED_AFTER_DAYS="30")
    yield app
    closed(app)


def store(client: FlaskClient, days_ago: int, **document: object) -> str:
    """A game stored through the API and last changed ``days_ago`` days ago: its edit token."""
    document.setdefault("players", FOUR)
    token: str = client.post("/api/games",
                             json=document).get_json()["links"]["edit"].rsplit("/", 1)[1]
    age_of(client.application, token, days_ago)
    return token


def age_of(app: Flask, token: str, days_ago: int) -> None:
    with app.app_context():
        db.session.execute(db.text("UPDATE games SET updated_at = :when WHERE token = :token"),
                           {"when": datetime.now(UTC) - timedelta(days=days_ago), "token": token})
        db.session.commit()


def remove(app: Flask) -> str:
    result = app.test_cli_runner().invoke(args=["remove-unplayed"])
    assert result.exit_code == 0, result.output
    return result.output


def tokens(app: Flask) -> set[str]:
    return {token for token, *_stored in snapshot(app)}


def test_a_game_without_a_deal_goes_after_the_days_and_one_with_a_deal_never(
        keeping_30_days: Flask) -> None:
    app = keeping_30_days
    client = app.test_client()
    forgotten = store(client, 31)
    recent = store(client, 29)
    finished = store(client, 4000, players=["Ann", "Bob", "Cy"], rules={"max_cards": 1, "deals": 1},
                     deals=[{"bids": [0, 0, 0], "tricks": [1, 0, 0]}])
    one_bid = store(client, 4000, players=["Ann", "Bob", "Cy"], deals=[{"bids": [None, 1, None]}])
    renamed = store(client, 31, title="Friday", rules={"max_cards": 5},
                    stakes={"per_point": "0.10"})
    assert "2 game(s) without a deal and unchanged for 30 days removed." in remove(app)
    assert tokens(app) == {recent, finished, one_bid}
    assert forgotten not in tokens(app) and renamed not in tokens(app)
    assert "0 game(s)" in remove(app)


def test_a_removed_game_leaves_its_group_and_the_group_stays(keeping_30_days: Flask) -> None:
    app = keeping_30_days
    client = app.test_client()
    group = client.post("/api/groups", json={"name": "Friday club"}).get_json()
    edit = group["links"]["edit"].rsplit("/", 1)[1]
    for days in (31, 1):
        token = store(client, 0)
        assert client.post(f"/api/groups/{edit}/games", json={"game": token}).status_code == 200
        age_of(app, token, days)
    remove(app)
    assert len(snapshot(app)) == 1
    assert len(client.get(f"/api/groups/{edit}").get_json()["games"]) == 1
    assert len(groups_snapshot(app)) == 2  # the group, and the place of the game that stays


def test_a_game_changed_within_the_days_stays(keeping_30_days: Flask) -> None:
    app = keeping_30_days
    game = Scorer(app.test_client(),
                  store(app.test_client(), 45, players=FOUR, rules={"max_cards": 3}), "")
    game.bid(1)  # a bid, then taken back: no deal, but changed today
    assert game.post("/undo").status_code == 302
    assert "deals" not in game.export() or not game.export()["deals"]
    remove(app)
    assert game.token in tokens(app)


def test_retention_is_off_by_default(database_url: str) -> None:
    app = app_with(database_url)
    token = store(app.test_client(), 10_000)
    assert "REMOVE_UNPLAYED_AFTER_DAYS is 0 (off): no game is removed." in remove(app)
    assert tokens(app) == {token}
    closed(app)


@pytest.mark.parametrize("days", ["-1", "thirty", "1e3", "40000"])
def test_a_retention_setting_that_is_no_number_of_days_stops_the_app_with_its_name(
        database_url: str, days: str) -> None:
    with pytest.raises(ValueRefused, match="REMOVE_UNPLAYED_AFTER_DAYS"):
        app_with(database_url, REMOVE_UNPLAYED_AFTER_DAYS=days)
