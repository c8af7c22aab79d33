"""The home page: the games this phone opened (kept in its own cookie), and where to start."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event
from webhelpers import Scorer, text

from scorekeeper.store.db import db
from scorekeeper.store.games import Game

Start = Callable[..., Scorer]


def test_an_empty_phone_offers_a_new_game_and_an_import(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert "No games on this phone yet" in text(page)
    assert 'href="/new"' in page and 'href="/import"' in page


def test_the_blank_sheet_is_linked_when_the_sheets_exist(app: Flask, client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert ("Print a blank sheet" in page) == ("sheets.blank_form" in app.view_functions)


def test_the_games_this_phone_opened_are_listed_with_their_progress_and_leader(
        start: Start) -> None:
    game = start(title="Friday", rules={"max_cards": 3})
    game.bid(1, 1, 0, 0)
    game.tricks(1, 1, 1, 0)
    page = game.client.get("/").get_data(as_text=True)
    assert re.search(r"Friday Ann, Bob, Cy, Dee Oh Hell, house rules · today "
                     r"\d\d:\d\d(–\d\d:\d\d)? ★ Leader: Bob and Cy \(11\) Deal 2 of 5 Resume ›",
                     text(page))
    assert re.search(r'<span class="game-leader">[^<]*Leader:', page)  # a line of its own


def test_each_listed_game_shows_its_variant_and_when_it_was_played(start: Start) -> None:
    start(rules={"preset": "up-and-down-the-river"})
    start(rules={"preset": "kachuful", "max_cards": 5})
    start(players=["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"],
          rules={"preset": "up-and-down-the-river"})
    page = text(start(title="Plain").client.get("/").get_data(as_text=True))
    # its two packs for six are the preset's own
    assert page.count("Up and Down the River · today") == 2
    assert "Kachuful, house rules · today" in page and "Oh Hell · today" in page


@pytest.mark.parametrize(("started", "last", "says"), [
    ((21, 0), (21, 0), "today 21:00"),
    ((20, 5), (21, 40), "today 20:05–21:40"),
])
def test_the_times_are_shown_in_the_servers_time_zone(
        start: Start, app: Flask, monkeypatch: pytest.MonkeyPatch,
        started: tuple[int, int], last: tuple[int, int], says: str) -> None:
    game = start(title="Late")
    monkeypatch.setenv("TZ", "Europe/Amsterdam")
    time.tzset()
    try:
        today = datetime.now().astimezone().date()
        with app.app_context():
            stored = db.session.execute(
                db.select(Game).where(Game.token == game.token)).scalar_one()
            stored.created_at, stored.updated_at = (
                datetime(today.year, today.month, today.day, hour, minute).astimezone(UTC)
                for hour, minute in (started, last))
            db.session.commit()
        page = text(game.client.get("/").get_data(as_text=True))
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()
    assert f"Oh Hell · {says}" in page


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


def test_a_new_secret_key_forgets_the_phones_list_unless_the_old_one_is_a_fallback(
        start: Start, app: Flask) -> None:
    game = start(title="Friday")
    assert "Friday" in game.client.get("/").get_data(as_text=True)
    app.config.update(SECRET_KEY="rotated", SECRET_KEY_FALLBACKS=["test"])
    # signed with the old key, still read
    assert "Friday" in game.client.get("/").get_data(as_text=True)
    app.config.update(SECRET_KEY_FALLBACKS=[])
    assert "Friday" not in game.client.get("/").get_data(as_text=True)  # no key signs it now
