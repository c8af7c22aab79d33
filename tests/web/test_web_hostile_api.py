"""Hostile and random input to the JSON API: never a 500, always a message, nothing stored."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webhelpers import json_values, within_cpu

from scorekeeper.rules.presets import RULE_FIELDS
from scorekeeper.rules.stakes import STAKE_FIELDS
from scorekeeper.store.db import db
from scorekeeper.store.games import Game

VALID: dict[str, Any] = {
    "format": "oh-hell-scorekeeper/1",
    "title": "Friday",
    "players": ["Ann", "Bob", "Cy", "Dee"],
    "first_dealer": 1,
    "rules": {"preset": "oh-hell", "max_cards": 3, "zero_bid": 5},
    "stakes": {"per_point": "0.05", "currency": "EUR"},
    "adjustments": [{"deal": 1, "player": 2, "points": -10, "reason": "revoke"}],
    "deals": [{"trump": "S", "bids": [1, 0, 1, 0], "tricks": [1, 1, 1, 0]},
              {"bids": [None, None, None, 1]}],
}


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += _paths(child, prefix + (key,))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += _paths(child, prefix + (index,))
    return found


#: Every field of the file: those VALID has, and every rule, stake, deal and adjustment field it
#: doesn't.
PATHS = _paths(VALID)[1:] + [
    ("rules", name) for name in RULE_FIELDS if name not in VALID["rules"]] + [
    ("stakes", name) for name in STAKE_FIELDS if name not in VALID["stakes"]] + [
    ("deals", 0, "cards"), ("ended",), ("format",), ("links",), ("schedule",),
    ("deals", 1, "tricks")]


def _count(app: Flask) -> int:
    with app.app_context():
        return len(db.session.execute(db.select(Game.id)).all())


def test_the_unmodified_file_is_accepted(app: Flask) -> None:
    assert app.test_client().post("/api/games", json=VALID).status_code == 201


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(PATHS), value=json_values)
def test_any_field_replaced_by_any_value_gets_a_message_not_a_500(app: Flask, path: tuple[Any, ...],
                                                                  value: Any) -> None:
    doc = copy.deepcopy(VALID)
    target: Any = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    client = app.test_client()
    before = _count(app)
    with within_cpu():
        response = client.post("/api/games", json=doc)
    assert response.status_code in (201, 400, 413, 415, 422), response.data
    body = response.get_json()
    if response.status_code == 201:
        assert _count(app) == before + 1
    else:
        assert isinstance(body["error"], str) and body["error"]
        assert _count(app) == before


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.binary(max_size=200))
def test_random_bytes_are_refused_with_a_message(app: Flask, body: bytes) -> None:
    response = app.test_client().post("/api/games", data=body, content_type="application/json")
    assert response.status_code in (400, 422)
    assert response.get_json()["error"]
    assert _count(app) == 0


def test_an_oversized_body_is_refused(app: Flask) -> None:
    response = app.test_client().post("/api/games", data=b"[" + b"1," * 600_000 + b"1]",
                                      content_type="application/json")
    assert response.status_code == 413
    assert response.get_json()["error"]


def test_a_hostile_name_is_kept_as_text_in_the_export(app: Flask) -> None:
    doc = copy.deepcopy(VALID)
    doc["players"][0] = "<script>alert(1)</script>"
    client = app.test_client()
    body = client.post("/api/games", json=doc).get_json()
    assert body["players"][0] == "<script>alert(1)</script>"
    assert client.get(body["links"]["api"]).get_json()["standings"]


@pytest.mark.parametrize(("body", "error"), [
    (b'{"players": ["\\ud800", "Bob"]}',
     "it holds an unpaired surrogate such as \\ud800, which is not text"),
    (b'{"players": ["\xed\xa0\x80", "Bob"]}',
     "it holds an unpaired surrogate such as \\ud800, which is not text"),
    (b'{"players": ["\xff", "Bob"]}', "it is not UTF-8 text"),
    (b"[" * 5000 + b"]" * 5000, "it is nested more than 20 levels deep"),
    (b'{"rules": ' + b'{"a": ' * 30 + b"1" + b"}" * 31, "it is nested more than 20 levels deep"),
    (b'{"first_dealer": ' + b"1" * 5000 + b"}", "it holds a number of more than 4,300 digits"),
])
def test_json_that_no_page_or_database_could_keep_is_refused_with_a_message(app: Flask, body: bytes,
                                                                           error: str) -> None:
    response = app.test_client().post("/api/games", data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error"] == f"the body is not valid JSON: {error}"
    assert _count(app) == 0


@pytest.mark.parametrize(("field", "value", "message"), [
    ("title", "Fri\x00day", "The title contains an invisible character (null)"),
    ("players", ["A\x00n", "Bob"], "Player 1's name contains an invisible character (null)"),
    ("players", ["Ann", "B\x1bob"], "Player 2's name contains an invisible character (escape)"),
    ("players", ["Ann", "\u200b"],
     "Player 2's name contains an invisible character (zero width space)"),
    ("players", ["Ann", "\u200b\u200b"], "Player 2's name contains an invisible character"),
    ("players", ["Ann", "B\u202eob"], "right-to-left override"),
    ("players", ["Ann", "\u2066Bob"], "left-to-right isolate"),
])
def test_control_characters_in_a_title_or_a_name_are_refused(app: Flask, field: str, value: Any,
                                                             message: str) -> None:
    response = app.test_client().post("/api/games", json={**VALID, field: value, "adjustments": [],
                                                          "deals": []})
    assert response.status_code == 422
    assert message in response.get_json()["error"]
    assert _count(app) == 0


@pytest.mark.parametrize("field", RULE_FIELDS)
def test_any_rule_given_an_odd_value_gets_a_message_not_a_500(app: Flask, field: str) -> None:
    client = app.test_client()
    for value in ([1], {}, {"a": 1}, True, -1, 10**15, 1.5, "", "x" * 200, "<b>"):
        doc = {**VALID, "rules": {**VALID["rules"], field: value}}
        response = client.post("/api/games", json=doc)
        assert response.status_code in (201, 422), (field, value, response.status_code)
        assert response.status_code == 201 or response.get_json()["error"], (field, value)
