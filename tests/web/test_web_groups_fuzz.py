"""Hostile values on every group route: the group's name, a pasted link, a game to take out, the
group of a new game, a player's name in the address, JSON fields of the API. Every answer is below
500 within 2 seconds, a refusal says what is wrong, and a refused request stores nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webhelpers import (
    Scorer,
    csrf_from,
    groups_snapshot,
    hostile_text,
    json_values,
    message,
    snapshot,
    within_cpu,
)
from werkzeug.test import TestResponse

Start = Callable[..., Scorer]
FUZZ = settings(max_examples=80, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])
VALUES = st.one_of(hostile_text, st.sampled_from(["", " ", "https://x/", "https://x/g/",
                                                  "/v/" + "a" * 65, "g/" + "a" * 64, "a" * 301,
                                                  "\x00", "١٢", "²", "1e100000000"]))


def timed(call: Callable[[], TestResponse]) -> TestResponse:
    with within_cpu():
        response = call()
    assert response.status_code < 500, response.status_code
    if response.status_code >= 400:
        assert message(response), "a refusal without a message"
    return response


def group(client: FlaskClient) -> tuple[str, str]:
    links = client.post("/api/groups", json={"name": "Friday club"}).get_json()["links"]
    return links["edit"].rsplit("/", 1)[1], links["view"].rsplit("/", 1)[1]


@FUZZ
@given(name=VALUES, game=VALUES)
def test_a_new_group_form_with_hostile_values(app: Flask, client: FlaskClient, name: str,
                                              game: str) -> None:
    csrf = csrf_from(client.get("/groups/new").get_data(as_text=True))
    before = groups_snapshot(app)
    response = timed(lambda: client.post("/groups/new",
                                         data={"csrf_token": csrf, "name": name, "game": game}))
    if response.status_code != 302:
        assert groups_snapshot(app) == before


@FUZZ
@given(body=json_values, name=json_values)
def test_the_group_api_with_hostile_json(app: Flask, client: FlaskClient, body: Any,
                                         name: Any) -> None:
    edit, _ = group(client)
    before = groups_snapshot(app)
    for path, document in (("/api/groups", body), ("/api/groups", {"name": name}),
                           (f"/api/groups/{edit}/games", body),
                           (f"/api/groups/{edit}/games", {"game": name})):
        response = timed(lambda path=path, document=document: client.post(path, json=document))
        assert response.is_json
        if response.status_code >= 400:
            assert groups_snapshot(app) == before
        before = groups_snapshot(app)


@FUZZ
@given(link=VALUES, game=VALUES, extra=st.dictionaries(st.text(max_size=8), VALUES, max_size=2))
def test_the_group_page_forms_with_hostile_values(app: Flask, client: FlaskClient, start: Start,
                                                  link: str, game: str,
                                                  extra: dict[str, str]) -> None:
    edit, _ = group(client)
    played = start(players=["Ann", "Bob"])
    csrf = csrf_from(client.get(f"/gr/{edit}").get_data(as_text=True))
    before = groups_snapshot(app)
    for path, form in ((f"/gr/{edit}/games", {"link": link}),
                       (f"/gr/{edit}/remove", {"game": game}),
                       (f"/g/{played.token}/group", {"link": link})):
        response = timed(lambda path=path, form=form: client.post(
            path, data={**extra, "csrf_token": csrf, **form}))
        if response.status_code >= 400:
            assert groups_snapshot(app) == before
        before = groups_snapshot(app)


@FUZZ
@given(token=VALUES, name=VALUES, chip=VALUES)
def test_a_new_game_for_a_hostile_group_and_a_hostile_player_address(
        app: Flask, client: FlaskClient, token: str, name: str, chip: str) -> None:
    edit, view = group(client)
    games = snapshot(app)
    timed(lambda: client.get("/new", query_string={"group": token}))
    csrf = csrf_from(client.get("/new").get_data(as_text=True))
    for sent in (token, edit):
        response = timed(lambda sent=sent: client.post("/new", data={
            "csrf_token": csrf, "group": sent, "players-0": "Ann", "players-1": "",
            "action": f"chip-{chip}"}))
        assert response.status_code == 200 and snapshot(app) == games
    if name.strip("/"):
        timed(lambda: client.get(f"/gr/{view}/players/{quote(name, safe='')}"))
    timed(lambda: client.get(f"/gr/{quote(token, safe='') or 'x'}"))
