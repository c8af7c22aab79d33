"""Hostile input to a seat's and the join link's routes (SEATS.md): whatever a seat's bid form, a
seat's tap in the API or a link's token holds, an answer below 500 with a message for every
refusal; a refusal stores nothing, and what a seat stores is its own player's bid alone."""

from __future__ import annotations

import json
import string
from collections.abc import Callable
from typing import Any

from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_web_fuzz import VALUES, answered
from webhelpers import Scorer, csrf_from, hostile_text, json_values, snapshot, within_cpu

Start = Callable[..., Scorer]
FUZZ = settings(max_examples=100, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])
#: A game in its second deal: Cy bid 1, Dee (seat 3) bids now.
GAME = {"rules": {"max_cards": 3}, "deals": [{"bids": [0, 1, 1, 0], "tricks": [1, 1, 1, 0]},
                                             {"bids": [None, None, 1, None]}]}
#: The fields of a seat's tap, sometimes as sent, sometimes not.
TAP_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "tap": st.one_of(st.text(string.ascii_letters + string.digits + "-_", min_size=8,
                             max_size=40), json_values),
    "deal": st.one_of(st.integers(-1, 4), json_values),
    "step": st.one_of(st.sampled_from(["bid", "tricks", "bids", "undo", "cards", ""]),
                      json_values),
    "value": st.one_of(st.integers(-2, 5), json_values),
}


def _stored_at_most_its_own_bid(app: Flask, before: list[tuple[str, str, int, str]],
                                 response: Any, seat: int, refused: bool) -> None:
    """The answer is one a request may have, a refused request stored nothing, and any other
    stored at most the seat's own bid."""
    answered(response, also=(415,))
    if refused:
        assert snapshot(app) == before
    _only_own_bid(before, snapshot(app), seat)


def _only_own_bid(before: list[tuple[str, str, int, str]],
                  after: list[tuple[str, str, int, str]], seat: int) -> None:
    """Nothing changed, or only the bid of the player at ``seat`` in the deal being played."""
    assert len(before) == len(after)
    for (_token, data, _v, _s), (_other, changed, _w, _t) in zip(before, after, strict=True):
        old, new = json.loads(data), json.loads(changed)
        if old != new:
            assert old["deals"][-1]["bids"][seat] is None
            new["deals"][-1]["bids"][seat] = None
            assert new == old, "a seat changed more than its own bid"


@FUZZ
@given(data=st.data(), seat=st.sampled_from([3, 0]))
def test_any_tap_a_seat_sends_to_the_api_is_answered_and_stores_only_its_own_bid(
        app: Flask, start: Start, data: st.DataObject, seat: int) -> None:
    game = start(**GAME)
    link = game.export()["links"]["seats"][seat].rsplit("/", 1)[1]
    fields = data.draw(st.fixed_dictionaries({}, optional=TAP_VALUES), "tap")
    body = data.draw(st.one_of(st.just(fields), st.just({**fields, "seat": 1}), json_values),
                     "body")
    before = snapshot(app)
    with within_cpu():
        response = app.test_client().post(f"/api/games/{link}/taps", json=body)
    _stored_at_most_its_own_bid(app, before, response, seat, refused=response.status_code != 200)


@FUZZ
@given(data=st.data(), seat=st.sampled_from([3, 0]))
def test_any_form_a_seats_page_posts_is_answered_and_stores_only_its_own_bid(
        app: Flask, start: Start, data: st.DataObject, seat: int) -> None:
    game = start(**GAME)
    link = game.export()["links"]["seats"][seat].rsplit("/", 1)[1]
    client = app.test_client()
    client.get(f"/s/{link}")
    form = {"csrf_token": csrf_from(client.get("/new").get_data(as_text=True)),
            **data.draw(st.dictionaries(st.sampled_from(["tap", "deal", "bid", "seat", "version"]),
                                        VALUES, max_size=5), "fields")}
    before = snapshot(app)
    with within_cpu():
        response = client.post(f"/s/{link}/bid", data=form)
    _stored_at_most_its_own_bid(app, before, response, seat, refused=response.status_code >= 400)


@FUZZ
@given(data=st.data(), route=st.sampled_from(["/s/{}", "/s/{}/state", "/j/{}", "/api/games/{}"]))
def test_any_token_on_a_seats_or_the_join_routes_is_answered_and_leads_nowhere_unless_whole(
        app: Flask, start: Start, data: st.DataObject, route: str) -> None:
    game = start(**GAME)
    links = game.export()["links"]
    whole = links["seats"][1].rsplit("/", 1)[1]
    token = data.draw(st.one_of(
        hostile_text, st.text(string.ascii_letters + string.digits + "-_", max_size=120),
        st.integers(0, 85).map(lambda cut: whole[:cut]),
        st.integers(0, 85).map(lambda at: whole[:at] + ("A" if whole[at] != "A" else "B")
                               + whole[at + 1:])), "token")
    if not token.strip("/") or "/" in token or "?" in token or "#" in token:
        token = "x" + token.replace("/", "").replace("?", "").replace("#", "")
    response = app.test_client().get(route.format(token), follow_redirects=False)
    answered(response, also=(415,))
    if token not in (whole, game.view_token, game.token):
        assert response.status_code in (403, 404), (route, token)
