"""The session cookie and the form token are verified once per worker, then remembered: what was
refused stays refused, an old cookie still expires, and no request sees another's changes."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest
from flask import Flask, request, session
from webhelpers import Scorer, csrf_from, message, snapshot

from scorekeeper.web import signed

Start = Callable[..., Scorer]
EXPIRED = "The form expired or was sent from elsewhere; nothing was changed — reload and try again."


def test_a_token_another_phone_used_is_still_refused_here(app: Flask, start: Start) -> None:
    game = start()
    other = app.test_client()
    other.get(f"/g/{game.token}")
    theirs = csrf_from(other.get(f"/g/{game.token}").get_data(as_text=True))
    version = game.version()
    assert other.post(f"/g/{game.token}/bid", data={"csrf_token": theirs, "version": version,
                                                    "deal": 1, "seat": 1,
                                                    "bid": 0}).status_code == 302
    before = snapshot(app)
    response = game.client.post(f"/g/{game.token}/bid",
                                data={"csrf_token": theirs, "version": version + 1,
                                                               "deal": 1, "seat": 2, "bid": 0})
    assert response.status_code == 400 and message(response) == EXPIRED
    assert snapshot(app) == before


def test_a_token_signed_with_a_retired_key_is_refused_even_after_it_was_verified(
        app: Flask, start: Start) -> None:
    game = start()
    token = csrf_from(game.page())
    assert game.client.post(f"{game.url}/bid", data={"csrf_token": token, "version": game.version(),
                                                     "deal": 1, "seat": 1,
                                                     "bid": 0}).status_code == 302
    # the session cookie still reads
    app.config.update(SECRET_KEY="rotated", SECRET_KEY_FALLBACKS=["test"])
    response = game.client.post(f"{game.url}/bid",
                                data={"csrf_token": token, "version": game.version(),
                                                          "deal": 1, "seat": 2, "bid": 0})
    assert response.status_code == 400 and message(response) == EXPIRED
    fresh = csrf_from(game.page())  # the page signs the phone's token with the new key
    assert game.client.post(f"{game.url}/bid", data={"csrf_token": fresh, "version": game.version(),
                                                     "deal": 1, "seat": 2,
                                                     "bid": 0}).status_code == 302


def test_a_cookie_verified_before_still_expires(app: Flask, start: Start,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    game = start(title="Friday")
    assert "Friday" in game.client.get("/").get_data(as_text=True)  # verified and remembered
    lifetime = app.permanent_session_lifetime.total_seconds()
    now = signed.time.time()
    monkeypatch.setattr(signed.time, "time", lambda: now + lifetime + 5)
    assert "Friday" not in game.client.get("/").get_data(as_text=True)


def test_a_changed_cookie_is_refused_however_close_to_a_verified_one(
        app: Flask, start: Start) -> None:
    game = start(title="Friday")
    assert "Friday" in game.client.get("/").get_data(as_text=True)
    cookie = game.client.get_cookie("session")
    assert cookie is not None
    value = cookie.value
    middle = len(value) // 2  # (the last character of a signature has bits base64 ignores)
    changed = value[:middle] + ("A" if value[middle] != "A" else "B") + value[middle + 1:]
    for forged in (changed, value + "x", "x" + value):
        game.client.set_cookie("session", forged)
        assert "Friday" not in game.client.get("/").get_data(as_text=True)
    game.client.set_cookie("session", value)
    assert "Friday" in game.client.get("/").get_data(as_text=True)


def test_each_request_gets_its_own_copy_of_a_remembered_session(app: Flask, start: Start) -> None:
    game = start(title="Friday")
    cookie = game.client.get_cookie("session")
    assert cookie is not None
    headers = {"Cookie": f"session={cookie.value}"}
    with app.test_request_context("/", headers=headers):
        first = app.session_interface.open_session(app, request)
        assert first is not None
        # a list inside the session, as flash() changes one
        first["games"].append("changed in place")
    with app.test_request_context("/", headers=headers):
        assert "changed in place" not in session["games"]


def test_a_refused_token_is_logged_as_flask_wtf_logs_it(start: Start,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    game = start()
    with caplog.at_level(logging.INFO, logger="flask_wtf.csrf"):
        response = game.client.post(f"{game.url}/bid", data={"csrf_token": "made up", "version": 1,
                                                              "deal": 1, "seat": 1, "bid": 0})
    assert response.status_code == 400
    assert ("flask_wtf.csrf", logging.INFO, "The CSRF token is invalid.") in caplog.record_tuples
