"""The home page: the games this phone opened (kept in its own cookie), and where to start."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event
from webhelpers import Scorer, text

from scorekeeper.models import db

Start = Callable[..., Scorer]


def test_an_empty_phone_offers_a_new_game_and_an_import(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert "No games on this phone yet" in text(page)
    assert 'href="/new"' in page and 'href="/import"' in page


def test_the_blank_sheet_is_linked_when_the_sheets_exist(app: Flask, client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert ("Print a blank sheet" in page) == ("sheets.blank_form" in app.view_functions)


def test_the_games_this_phone_opened_are_listed_with_their_progress_and_leader(start: Start) -> None:
    game = start(title="Friday", rules={"max_cards": 3})
    game.bid(1, 1, 0, 0)
    game.tricks(1, 1, 1, 0)
    page = text(game.client.get("/").get_data(as_text=True))
    assert "Friday Ann, Bob, Cy, Dee Deal 2 of 5 Leader: Bob and Cy (11) Resume ›" in page


def test_the_list_is_this_phones_own(start: Start, app: Flask) -> None:
    start(title="Mine")
    other = app.test_client()
    assert "Mine" not in other.get("/").get_data(as_text=True)


def test_a_read_only_game_is_listed_as_such(start: Start, app: Flask) -> None:
    game = start(title="Theirs")
    viewer = app.test_client()
    viewer.get(f"/v/{game.view_token}")
    page = viewer.get("/").get_data(as_text=True)
    assert "Theirs" in page and "read-only" in page and f"/v/{game.view_token}" in page
    assert game.token not in page


def test_the_memory_is_a_permanent_cookie(client: FlaskClient, start: Start) -> None:
    start()
    cookie = client.get_cookie("session")
    assert cookie is not None and cookie.expires is not None


@pytest.mark.parametrize("games", [1, 6])
def test_the_listed_games_are_loaded_in_one_query(start: Start, app: Flask, games: int) -> None:
    for number in range(games):
        game = start(title=f"Game {number}")
    statements: list[str] = []
    with app.app_context():
        engine = db.engine

        def count(conn: object, cursor: object, statement: str, *args: object) -> None:
            if "FROM games" in statement:
                statements.append(statement)

        event.listen(engine, "before_cursor_execute", count)
        try:
            page = game.client.get("/").get_data(as_text=True)
        finally:
            event.remove(engine, "before_cursor_execute", count)
    assert page.count('class="game-card"') == games
    assert len(statements) == 1


def test_a_new_secret_key_forgets_the_phones_list_unless_the_old_one_is_a_fallback(start: Start, app: Flask) -> None:
    game = start(title="Friday")
    assert "Friday" in game.client.get("/").get_data(as_text=True)
    app.config.update(SECRET_KEY="rotated", SECRET_KEY_FALLBACKS=["test"])
    assert "Friday" in game.client.get("/").get_data(as_text=True)  # signed with the old key, still read
    app.config.update(SECRET_KEY_FALLBACKS=[])
    assert "Friday" not in game.client.get("/").get_data(as_text=True)  # no key signs it now
