"""A club night's rules (issue 30, item 3): the new-night form takes a preset and the new game's
house rules, shows what a round of them takes with a shorter round one tap away, refuses rules a
table size of the night can't play beside the rule to change; the API takes any rules a game takes,
and every table's game plays the night's rules."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_web_events_api import NAMES, QUICK_RULES, events_snapshot, token
from webhelpers import csrf_from, hostile_text, json_values, message, text, within_cpu

from scorekeeper.rules.presets import RULE_FIELDS

FUZZ = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])
HOUSE_RULES = [name for name in RULE_FIELDS if name != "preset"]


def night_form(client: FlaskClient, **fields: str) -> dict[str, str]:
    """The new-night form as a phone sends it, with ``fields`` changed."""
    csrf = csrf_from(client.get("/events/new").get_data(as_text=True))
    return {"name": "Short night", "date": "", "players": "\n".join(NAMES[:8]), "rounds": "2",
            "size": "4", "seating": "mixed", "ranking": "percent", "preset": "oh-hell", "group": "",
            "csrf_token": csrf, **fields}


def tables_of_round_1(client: FlaskClient, edit: str) -> list[dict[str, Any]]:
    """Round 1 started through the API: each table's game file."""
    started = client.post(f"/api/events/{edit}/rounds", json={})
    assert started.status_code == 201, started.get_json()
    return [client.get(table["links"]["api"]).get_json()
            for table in started.get_json()["played"][0]["tables"]]


def test_the_form_s_house_rules_are_the_night_s_and_every_table_plays_them(
        app: Flask, client: FlaskClient) -> None:
    made = client.post("/events/new", data=night_form(client, **{
        "rules-sequence": "1-2-3-2-1", "rules-scoring": "exact", "rules-bidding": "free"}))
    assert made.status_code == 302, message(made)
    edit = made.headers["Location"].rsplit("/", 1)[1]
    rules = {"preset": "oh-hell", "deal": "custom", "sequence": "1-2-3-2-1", "bidding": "free",
             "scoring": "exact"}
    # a sequence typed: the custom pattern
    assert client.get(f"/api/events/{edit}").get_json()["rules"] == rules
    games = tables_of_round_1(client, edit)
    assert len(games) == 2 and all(game["rules"] == rules for game in games)


def test_a_shorter_round_is_one_tap_away_and_says_its_deals_and_minutes(
        app: Flask, client: FlaskClient) -> None:
    page = text(client.get("/events/new").get_data(as_text=True))
    assert "A round: 19 deals, about" in page and "at tables of 3 to 5" in page
    assert ("The rules' own: 19 deals" in page and "Top hand 7: 13 deals" in page
            and "Top hand 5: 9 deals" in page)
    # without JavaScript
    tapped = client.post("/events/new", data=night_form(client, action="top-7"))
    shown = tapped.get_data(as_text=True)
    assert tapped.status_code == 200 and events_snapshot(app) == []
    assert re.search(r'<input[^>]*name="rules-max_cards"[^>]*value="7"', shown)  # the top hand set
    assert "A round: 13 deals, about" in text(shown) and 'value="top-7" class="button ' \
        'round-choice" formnovalidate\n            aria-pressed="true" autofocus' in shown
    answer = client.get("/events/new/rounds",
                        query_string={"preset": "nomination-whist", "size": "6"}).get_json()
    assert (answer["line"].startswith("A round: 13 deals, about")
            and "at tables of 5 to 7" in answer["line"])
    assert "Top hand 5: 9 deals" in answer["choices"] and "Top hand 3: 5 deals" in answer["choices"]
    assert "Top hand 7" not in answer["choices"]  # the rules' own top hand already
    assert client.get("/events/new/rounds",
                      query_string={"rules-deal": "custom", "rules-sequence": "1-1"}
                      ).get_json() == {
                          "line": "A round: 2 deals, about 5 min, at tables of 3 to 5.",
                          "choices": ""}


def test_rules_a_table_size_of_the_night_cannot_play_are_refused_beside_the_rule(
        app: Flask, client: FlaskClient) -> None:
    refused = client.post("/events/new", data=night_form(client, **{"rules-max_cards": "12"}))
    page = refused.get_data(as_text=True)
    assert refused.status_code == 422 and events_snapshot(app) == []
    assert ('<small class="field-error" id="rules-max_cards-error">Top hand (cards): A table of 5 '
            'can&#39;t play '
            "these rules: A top hand of 12 cards can&#39;t be dealt to 5 players") in page
    assert 'role="alert"' not in page and "<details class=\"box\" open>" in page
    assert client.post("/events/new",
                       data=night_form(client, **{"rules-max_cards": "12", "size": "3"})
                       ).status_code == 302  # tables of 3 and 4 deal 12 cards
    unknown = client.post("/events/new", data=night_form(client, preset="no-such-preset"))
    assert unknown.status_code == 422 and "Unknown preset" in message(unknown)


@FUZZ
@given(field=st.sampled_from(HOUSE_RULES), value=json_values)
def test_any_rule_of_a_new_night_gets_a_message_or_every_table_plays_it(
        app: Flask, field: str, value: Any) -> None:
    client = app.test_client()
    rules = {**QUICK_RULES, field: value}
    before = len(events_snapshot(app))
    with within_cpu():
        response = client.post("/api/events", json={"name": "Club night", "players": NAMES[:9],
                                                    "rounds": 1, "rules": rules, "seed": 3})
    assert response.status_code in (201, 422), response.data
    if response.status_code == 422:
        assert response.get_json()["error"] and len(events_snapshot(app)) == before
        return
    assert response.get_json()["rules"] == rules
    for game in tables_of_round_1(client, token(response.get_json()["links"]["edit"])):
        assert game["rules"] == rules


@FUZZ
@given(fields=st.dictionaries(
    st.sampled_from([f"rules-{name}" for name in HOUSE_RULES] + ["preset", "size", "action"]),
    hostile_text, max_size=3))
def test_any_text_in_the_new_night_form_gets_an_answer_and_stores_only_a_night_made(
        app: Flask, fields: dict[str, str]) -> None:
    client = app.test_client()
    before = len(events_snapshot(app))
    with within_cpu():
        lengths = client.get("/events/new/rounds", query_string=fields)
        response = client.post("/events/new", data=night_form(client, **fields))
    assert lengths.status_code == 200 and lengths.get_json()["line"]
    assert response.status_code in (200, 302, 422), response.status_code
    assert len(events_snapshot(app)) == before + (response.status_code == 302)
    if response.status_code == 422:
        assert message(response)
