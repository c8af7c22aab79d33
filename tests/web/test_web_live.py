"""Following a game with its question held (web/live.py; SEATS.md, "Live"): on a server answering
in threads, a phone's ``/v/<link>/state?v=<version>&wait=1`` that finds nothing new is answered
when the game changes (a tap on any phone, through any server), or after ``LIVE_WAIT`` seconds,
and holds no database connection meanwhile; a sync worker is never held."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, url_for
from webhelpers import Scorer, text

from scorekeeper.store.db import db
from scorekeeper.web import live

#: What a server answering in threads says of itself (gunicorn's gthread, the development server).
THREADED = {"wsgi.multithread": True}


@pytest.fixture
def watcher(app: Flask) -> Iterator[live.Watcher]:
    app.config["LIVE_WAIT"] = 30
    yield app.extensions["scorekeeper.live"]


def followed(start: Callable[..., Scorer]) -> tuple[Scorer, str, int]:
    """A new game, the address of its state, and the version a phone following it shows."""
    game = start(rules={"max_cards": 3})
    url = f"/v/{game.view_token}/state"
    return game, url, game.client.get(url).get_json()["version"]


def held_answer(app: Flask, url: str, version: int) -> tuple[threading.Thread, list[Any]]:
    """A phone's question, asked in a thread of its own: its answer lands in the list."""
    answers: list[Any] = []

    def ask() -> None:
        response = app.test_client().get(url, query_string={"v": version, "wait": 1},
                                         environ_overrides=THREADED)
        answers.append((response.status_code, response.get_json()))

    asking = threading.Thread(target=ask)
    asking.start()
    return asking, answers


def until_waiting(watcher: live.Watcher, asking: threading.Thread, count: int = 1) -> None:
    """Wait for the state the test needs: ``count`` questions held by the watcher."""
    while True:
        with watcher.lock:
            if sum(len(entries) for entries in watcher.waiting.values()) >= count:
                return
        assert asking.is_alive()


def test_a_held_question_is_answered_when_another_phone_taps(
        app: Flask, start: Callable[..., Scorer], watcher: live.Watcher) -> None:
    game, url, version = followed(start)
    asking, answers = held_answer(app, url, version)
    until_waiting(watcher, asking)
    with app.app_context():  # held, it holds no connection of the database's
        assert db.engine.pool.checkedout() == 0
    game.bid(2)
    asking.join()
    [(status, answer)] = answers
    assert status == 200 and answer["version"] == version + 1 and answer["again"] == 0
    assert "Bids 2 for 3 tricks" in text(answer["html"])
    assert not watcher.waiting


def test_many_phones_of_one_game_are_woken_by_one_tap(
        app: Flask, start: Callable[..., Scorer], watcher: live.Watcher) -> None:
    game, url, version = followed(start)
    phones = [held_answer(app, url, version) for _ in range(4)]
    until_waiting(watcher, phones[0][0], 4)
    game.bid(1)
    for asking, answers in phones:
        asking.join()
        assert answers[0][0] == 200 and answers[0][1]["version"] == version + 1


def test_a_question_held_till_its_time_is_up_says_nothing_changed(
        app: Flask, start: Callable[..., Scorer], watcher: live.Watcher) -> None:
    app.config["LIVE_WAIT"] = 1
    _game, url, version = followed(start)
    asking, answers = held_answer(app, url, version)
    asking.join()
    assert answers == [(200, {"version": version, "again": 0})]


def test_a_deleted_game_wakes_its_phones_with_a_404(
        app: Flask, start: Callable[..., Scorer], watcher: live.Watcher) -> None:
    game, url, version = followed(start)
    asking, answers = held_answer(app, url, version)
    until_waiting(watcher, asking)
    page = game.client.get(f"/g/{game.token}/delete").get_data(as_text=True)
    csrf = page.split('name="csrf_token" value="')[1].split('"')[0]
    assert game.client.post(f"/g/{game.token}/delete", data={"csrf_token": csrf}).status_code == 302
    asking.join()
    assert answers[0][0] == 404


@pytest.mark.parametrize("environ", [{}, THREADED])
def test_a_question_that_can_t_be_held_is_answered_at_once(
        app: Flask, start: Callable[..., Scorer], watcher: live.Watcher,
        environ: dict[str, bool]) -> None:
    """A sync worker is never held (it would be a worker lost to the taps), nor any with
    ``LIVE_WAIT`` 0: the phone is told to ask again in a few seconds."""
    if environ:
        app.config["LIVE_WAIT"] = 0
    game, url, version = followed(start)
    answer = game.client.get(url, query_string={"v": version, "wait": 1},
                             environ_overrides=environ).get_json()
    assert answer == {"version": version, "again": live.EVERY_MS} and not watcher.waiting


def test_the_proxies_of_the_hosting_guide_send_only_the_questions_to_the_live_server(
        app: Flask) -> None:
    """docs/hosting.md routes a path to the server that holds questions by a pattern: it must
    match the addresses of the questions (the read-only page's, a seat's, the scorer's), and no
    other of the app's."""
    guide = (Path(__file__).resolve().parents[2] / "docs" / "hosting.md").read_text()
    patterns = {re.search(r"location ~ (\S+) \{", guide)[1],  # type: ignore[index]
                re.search(r"@live path_regexp (\S+)", guide)[1]}  # type: ignore[index]
    assert len(patterns) == 1
    pattern = re.compile(patterns.pop())
    questions = {"play.state", "play.scorer_state", "seat.state"}
    with app.test_request_context():
        for endpoint in questions:
            assert pattern.search(url_for(endpoint, token="a" * 43)), endpoint
    others = [rule.rule.replace("<", "").replace(">", "") for rule in app.url_map.iter_rules()
              if rule.endpoint not in questions]
    assert not [rule for rule in others if pattern.search(rule)]


def test_a_seat_s_question_is_held_and_woken_as_the_read_only_page_s(
        app: Flask, start: Callable[..., Scorer], watcher: live.Watcher) -> None:
    game, _url, version = followed(start)
    seats = game.client.get(f"/api/games/{game.token}").get_json()["links"]["seats"]
    url = f"/s/{seats[2].rsplit('/', 1)[1]}/state"
    asking, answers = held_answer(app, url, version)
    until_waiting(watcher, asking)
    game.bid(1)
    asking.join()
    [(status, answer)] = answers
    assert status == 200 and answer["version"] == version + 1 and answer["again"] == 0
    assert answer["html"] and game.token not in answer["html"]


def test_the_scorer_s_page_asks_with_its_edit_link_and_is_told_the_version_alone(
        app: Flask, start: Callable[..., Scorer], watcher: live.Watcher) -> None:
    """The scorer's page (play.js) takes the server's page again when a player bid on their own
    phone: its question names the version only (the page is read whole after), and a read-only
    link can't ask it."""
    game, _url, version = followed(start)
    asking, answers = held_answer(app, f"/g/{game.token}/state", version)
    until_waiting(watcher, asking)
    game.bid(1)
    asking.join()
    assert answers == [(200, {"version": version + 1, "again": 0})]
    assert game.client.get(f"/g/{game.view_token}/state").status_code == 403
