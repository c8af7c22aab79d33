"""A player's phone follows them through a club night (SEATS.md, "Club nights"): once a player has
taken their seat at a table, the seat's page offers the same player's seat of the round started
after it ("Round 2: table 3, seat 2"), or says they sit it out or have withdrawn, and shows their
place in the night's standings. The seat's question (``/s/<link>/state?v=``) is answered when the
night changes, not only its own table's game: a new round is a change of the night."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event as sql_event
from test_web_events_api import finish, new_event, start_round, token
from test_web_live import held_answer, until_waiting, watcher  # noqa: F401 (the fixture)
from webhelpers import text

from scorekeeper.store.db import db
from scorekeeper.web import live

#: The paths of the seat pages an answer holds.
SEAT_PATH = re.compile(r"/s/[A-Za-z0-9_-]+")


def take_seat(phone: FlaskClient, director: FlaskClient, table: dict[str, Any], name: str) -> str:
    """The player scans their table's join code and taps their name: the path of their seat's page,
    opened on their phone."""
    join = director.get(f"/api/games/{token(table['links']['edit'])}").get_json()["links"]["join"]
    listed = phone.get(f"/j/{token(join)}").get_data(as_text=True)
    found = re.search(rf'href="(/s/[A-Za-z0-9_-]+)">{name}\b', listed)
    assert found, f"{name} is not on the join page"
    assert phone.get(found[1]).status_code == 200
    return found[1]


def shown_version(phone: FlaskClient, path: str) -> str:
    """The version the seat's page shows (its live part's), as its script asks with it."""
    page = phone.get(path).get_data(as_text=True)
    found = re.search(r'id="live" data-state="[^"]+" data-version="([^"]+)"', page)
    assert found, "the seat's page follows nothing"
    return found[1]


def ask(phone: FlaskClient, path: str, version: str) -> dict[str, Any]:
    """The seat page's question, with the version it shows; its answer."""
    answer = phone.get(f"{path}/state", query_string={"v": version})
    assert answer.status_code == 200
    found: dict[str, Any] = answer.get_json()
    return found


def seat_of(director: FlaskClient, started: dict[str, Any], name: str) -> tuple[int, int, str]:
    """Where a round seated a player: the table's number, the seat (from 1) and that seat's page, as
    the table's own link lists its seats."""
    for table in started["tables"]:
        if name in table["players"]:
            seat = table["players"].index(name)
            links = director.get(f"/api/games/{token(table['links']['edit'])}").get_json()["links"]
            return table["table"], seat + 1, f"/s/{token(links['seats'][seat])}"
    raise AssertionError(f"{name} is at no table")


def place(director: FlaskClient, event: dict[str, Any], name: str) -> int:
    """The player's rank in the night's standings, as the room screen's link reads them."""
    found = director.get(f"/api/events/{token(event['links']['view'])}").get_json()["standings"]
    rank: int = next(line["rank"] for line in found if line["name"] == name)
    return rank


def seated_night(app: Flask, director: FlaskClient, table: int,
                 seat: int) -> tuple[dict[str, Any], list[dict[str, Any]], str, FlaskClient, str]:
    """A night of 13 at three tables, its first round started, and the phone of the player at
    ``seat`` of ``table`` (counting from 0) on their seat's page: the night, the round's tables, the
    player's name, their phone and the path of their seat's page."""
    event = new_event(director)  # 13 players at tables of 5, 4 and 4; one deal a game
    first = start_round(director, event)["played"][0]["tables"]
    name = first[table]["players"][seat]
    phone = app.test_client()
    return event, first, name, phone, take_seat(phone, director, first[table], name)


def test_the_seat_page_offers_the_players_seat_of_the_next_round_once_it_starts(
        app: Flask, client: FlaskClient) -> None:
    event, first, name, phone, mine = seated_night(app, client, 1, 2)
    version = shown_version(phone, mine)
    assert "Round 2" not in text(phone.get(mine).get_data(as_text=True))
    finish(client, first[1])  # the player's own table ends
    answer = ask(phone, mine, version)
    version = answer["version"]
    assert "Your seat in round 2 shows here when the round starts." in text(answer["html"])
    for table in (first[0], first[2]):
        finish(client, table)
    assert ask(phone, mine, version) == {"version": version, "again": live.EVERY_MS}
    second = start_round(client, event)["played"][1]
    # The table's game is as it was: the night changed, and the phone's question says so.
    answer = ask(phone, mine, version)
    assert answer["version"] != version and answer["html"]
    table, seat, next_seat = seat_of(client, second, name)
    said = text(answer["html"])
    assert f"Round 2: table {table}, seat {seat}" in said
    assert set(SEAT_PATH.findall(answer["html"])) - {mine} == {next_seat}, (
        "the player's own seat leads to their own next seat, and to no other")
    assert re.search(rf'<a class="button big primary" href="{next_seat}">', answer["html"])
    assert f"Club night: place {place(client, event, name)} of 13 after 1 round" in said
    # The page opened again offers the same seat; following it opens the player's new seat.
    again = phone.get(mine).get_data(as_text=True)
    assert f'href="{next_seat}"' in again and f"Round 2: table {table}, seat {seat}" in text(again)
    followed = text(phone.get(next_seat).get_data(as_text=True))
    assert f"Your seat: {name}" in followed
    assert f"Round 2 · table {table} of Club night" in followed
    assert "Round 3:" not in followed, "the round being played offers no seat"
    home = phone.get("/").get_data(as_text=True)
    assert f'href="{next_seat}"' in home, "the phone keeps the new seat"


def test_a_phone_on_an_older_round_is_offered_the_latest_round_and_a_bye_is_said(
        app: Flask, client: FlaskClient) -> None:
    event, first, name, phone, mine = seated_night(app, client, 0, 0)
    players = f"/api/events/{token(event['links']['edit'])}/players"
    assert client.post(players, json={"bye": name, "round": 2}).status_code == 200
    for table in first:
        finish(client, table)
    version = shown_version(phone, mine)
    second = start_round(client, event)["played"][1]
    assert name in second["byes"]
    answer = ask(phone, mine, version)
    assert "Round 2: you sit out this round." in text(answer["html"])
    assert not set(SEAT_PATH.findall(answer["html"])) - {mine}, "a bye offers no seat"
    for table in second["tables"]:
        finish(client, table)
    third = start_round(client, event)["played"][2]
    answer = ask(phone, mine, answer["version"])
    table, seat, next_seat = seat_of(client, third, name)
    assert f"Round 3: table {table}, seat {seat}" in text(answer["html"])
    assert set(SEAT_PATH.findall(answer["html"])) - {mine} == {next_seat}


def test_a_withdrawn_player_is_told_no_seat_is_offered(app: Flask, client: FlaskClient) -> None:
    event, first, name, phone, mine = seated_night(app, client, 2, 1)
    for table in first:
        finish(client, table)
    version = shown_version(phone, mine)
    players = f"/api/events/{token(event['links']['edit'])}/players"
    assert client.post(players, json={"withdraw": name}).status_code == 200
    answer = ask(phone, mine, version)
    assert ("You have withdrawn from the club night: no seat is offered in the rounds to come."
            in text(answer["html"]))
    start_round(client, event)
    answer = ask(phone, mine, answer["version"])
    assert ("Round 2: you have withdrawn from the club night, so no seat is offered."
            in text(answer["html"]))
    assert not set(SEAT_PATH.findall(answer["html"])) - {mine}


def test_a_seats_question_held_is_answered_when_the_director_starts_the_next_round(
        app: Flask, client: FlaskClient, watcher: live.Watcher) -> None:  # noqa: F811
    event, first, name, phone, mine = seated_night(app, client, 0, 1)
    for table in first:
        finish(client, table)
    asking, answers = held_answer(app, f"{mine}/state", shown_version(phone, mine))  # type: ignore[arg-type]
    until_waiting(watcher, asking)
    second = start_round(client, event)["played"][1]
    asking.join()
    [(status, answer)] = answers
    table, seat, next_seat = seat_of(client, second, name)
    assert status == 200 and answer["again"] == 0
    assert f"Round 2: table {table}, seat {seat}" in text(answer["html"])
    assert next_seat in answer["html"]
    assert not watcher.waiting and not watcher.nights


def test_a_seats_question_at_a_club_night_with_nothing_new_costs_two_indexed_reads(
        app: Flask, client: FlaskClient) -> None:
    """The table's game and its night's version: nothing replayed, nothing rendered."""
    _event, _first, _name, phone, mine = seated_night(app, client, 0, 0)
    version = shown_version(phone, mine)
    statements: list[str] = []
    with app.app_context():
        sql_event.listen(db.engine, "before_cursor_execute",
                         lambda *args: statements.append(args[2]))
    assert ask(phone, mine, version) == {"version": version, "again": live.EVERY_MS}
    assert len(statements) == 2, statements
