"""Two app servers on one database, as a host runs them when one machine is not enough: a reverse
proxy sends each of a phone's requests to either (docs/hosting.md,
bench/load_tables.py --servers 2).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webhelpers import FOUR, VERSION, Scorer, csrf_from, message, text

import scorekeeper
from scorekeeper import create_app
from scorekeeper.store.db import db

Start = Callable[..., Scorer]


def server(database_url: str) -> Flask:
    """An app server on the shared database, with no SECRET_KEY in its own settings."""
    return create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url,
                       "RATELIMIT_ENABLED": False})


def test_a_phone_taps_on_either_server_when_both_have_the_secret_key_in_their_environment(
        database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each machine has an instance folder of its own: a key generated there is its own.
    monkeypatch.setattr(scorekeeper, "_secret_key", lambda instance: secrets.token_hex(32))
    monkeypatch.setenv("SECRET_KEY", "the same on both servers")
    first, second = server(database_url), server(database_url)
    try:
        phone = first.test_client()
        links = phone.post("/api/games", json={"players": FOUR}).get_json()["links"]
        token = links["edit"].rsplit("/", 1)[1]
        # the game page, from the first server
        page = phone.get(f"/g/{token}").get_data(as_text=True)
        seat = re.search(r'name="seat" value="(\d+)"', page)
        version = VERSION.search(page)
        assert seat and version
        cookie = phone.get_cookie("session")
        assert cookie is not None
        other = second.test_client()  # the same phone, its next request sent to the second server
        other.set_cookie("session", cookie.value)
        tap = other.post(f"/g/{token}/bid",
                         data={"csrf_token": csrf_from(page), "version": version.group(1),
                               "deal": 1, "seat": seat.group(1), "bid": 0, "tap": "tap-on-b-1"})
        assert tap.status_code == 302, message(tap)
        bids = phone.get(f"/api/games/{token}").get_json()["deals"][0]["bids"]
        assert bids[int(seat.group(1))] == 0
    finally:
        for app in (first, second):
            with app.app_context():
                if app is first:
                    db.session.execute(db.text("DELETE FROM games"))
                    db.session.commit()
                db.engine.dispose()


def test_a_key_in_the_instance_settings_still_comes_before_the_environment(
        database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SECRET_KEY", "from the environment")
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url,
                      "SECRET_KEY": "from the settings"})
    try:
        assert app.config["SECRET_KEY"] == "from the settings"
    finally:
        with app.app_context():
            db.engine.dispose()


def test_a_game_played_again_after_the_new_game_was_deleted_shows_its_own_bids(
        client: FlaskClient, start: Start) -> None:
    game = start(rules={"deal": "fixed", "max_cards": 1, "deals": 1})
    game.bid(0, 0, 0, 0)
    game.tricks(1, 0, 0, 0)
    first = game.post("/again")
    assert first.status_code == 302
    token = first.headers["Location"].rsplit("/", 1)[1]
    deleted = Scorer(client, token, "")
    deleted.view_token = deleted.export()["links"]["view"].rsplit("/", 1)[1]
    deleted.bid(0)
    # every worker keeps it
    shown = text(client.get(f"/v/{deleted.view_token}").get_data(as_text=True))
    assert deleted.post("/delete").status_code == 302
    # the same table plays again: a new game, whose links are made the same
    second = game.post("/again")
    assert second.headers["Location"] == first.headers["Location"]
    again = Scorer(client, token, deleted.view_token)
    assert again.export()["deals"] == []
    again.bid(1)
    bids = again.export()["deals"][0]["bids"]
    assert sorted(bids, key=str) == [1, None, None, None]
    page = text(client.get(f"/v/{again.view_token}").get_data(as_text=True))
    # its bid is not the deleted game's: no worker shows that game's page for it
    assert page != shown
