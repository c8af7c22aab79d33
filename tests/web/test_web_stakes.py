"""Stakes can change until the game is settled (RULES.md §6); the settlement follows them."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webhelpers import text

from scorekeeper.store.db import db
from scorekeeper.store.games import Game

FINISHED: dict[str, Any] = {
    "players": ["Ann", "Bob", "Cy"], "rules": {"max_cards": 1, "deal": "down"},
    "deals": [{"bids": [1, 0, 1], "tricks": [1, 0, 0]}],
}


def _created(client: FlaskClient, doc: dict[str, Any]) -> tuple[str, str]:
    body = client.post("/api/games", json=doc).get_json()
    token = body["links"]["api"].rsplit("/", 1)[1]
    page = client.get(f"/g/{token}").get_data(as_text=True)
    csrf = page.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
    return token, csrf


def _stored(app: Flask, token: str) -> tuple[dict[str, Any], int]:
    with app.app_context():
        game = db.session.execute(db.select(Game).where(Game.token == token)).scalar_one()
        return json.loads(game.data), game.version


def test_stakes_added_after_the_end_settle_the_game(app: Flask, client: FlaskClient) -> None:
    token, csrf = _created(client, FINISHED)
    response = client.post(f"/g/{token}/stakes", data={
        "csrf_token": csrf, "version": 1, "stakes": "per_point", "amount": "0.10", "currency": "€",
        "settlement": "pairwise"})
    assert response.status_code == 302
    body = client.get(f"/api/games/{token}").get_json()
    # common scoring: Ann 11, Bob 10, Cy 0 (missed, no tricks); pairwise nets r·Σ_j (s_i − s_j)
    assert body["settlement"]["net"] == {"Ann": "1.20", "Bob": "0.90", "Cy": "-2.10"}
    assert "pays" in client.get(f"/g/{token}").get_data(as_text=True)


def test_stakes_can_be_removed(app: Flask, client: FlaskClient) -> None:
    token, csrf = _created(client, {**FINISHED, "stakes": {"ante": "2"}})
    client.post(f"/g/{token}/stakes", data={"csrf_token": csrf, "version": 1, "stakes": "",
                                            "settlement": "pairwise"})
    assert "stakes" not in _stored(app, token)[0]
    assert client.get(f"/api/games/{token}").get_json()["settlement"] is None


@pytest.mark.parametrize(("fields", "message"), [
    ({"stakes": "per_point", "amount": "lots"},
     "The stake per point must be an amount from 0.0001 to 1,000"),
    ({"stakes": "per_point", "amount": "-1"}, "from 0.0001 to 1,000"),
    ({"stakes": "per_point", "amount": "1e-99999999"},
     "from 0.0001 to 1,000 with at most 4 decimals"),
    ({"stakes": "per_point", "amount": "0.00001"}, "with at most 4 decimals"),
    ({"stakes": "ante", "amount": "1e5"}, "The ante must be an amount from 0.01 to 100,000"),
    ({"stakes": "per_point", "amount": "0.05", "hard_score_bonus": "NaN"},
     "The hard-score bonus must be a whole number"),
    ({"stakes": "per_point", "amount": "0.05", "currency": "E\x00"},
     "The currency contains an invisible character"),
    ({"stakes": "ante", "amount": "2", "hard_score_bonus": "10"},
     "hard-score bonus goes with a stake per point"),
])
def test_bad_stakes_get_a_message_and_change_nothing(app: Flask, client: FlaskClient,
                                                     fields: dict[str, str], message: str) -> None:
    token, csrf = _created(client, {**FINISHED, "stakes": {"per_point": "0.05"}})
    response = client.post(f"/g/{token}/stakes", data={"csrf_token": csrf, "version": 1,
                                                       "settlement": "pairwise", **fields})
    assert response.status_code == 422
    assert text(response.get_data(as_text=True)).count(message) == 1
    document, version = _stored(app, token)
    assert (document["stakes"], version) == ({"per_point": "0.05"}, 1)
    # what was typed is kept
    assert 'value="' + fields["amount"] + '"' in response.get_data(as_text=True)


def test_cooperative_games_offer_no_stakes(client: FlaskClient) -> None:
    token, _ = _created(client, {"players": ["Ann", "Bob"],
                                 "rules": {"preset": "cooperative", "max_cards": 1}})
    assert 'id="stakes"' not in client.get(f"/g/{token}").get_data(as_text=True)


def test_changed_stakes_are_confirmed_on_the_game_page(client: FlaskClient) -> None:
    token, csrf = _created(client, FINISHED)
    client.post(f"/g/{token}/stakes", data={"csrf_token": csrf, "version": 1, "stakes": "per_point",
                                            "amount": "0.10", "currency": "€",
                                            "settlement": "pairwise"})
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert ('<p class="flash flash-done" role="status" tabindex="-1" autofocus>Stakes saved: €0.10 '
            'per point; every pair settles the difference.</p>') in page
    client.post(f"/g/{token}/stakes", data={"csrf_token": csrf, "version": 2, "stakes": "ante",
                                            "amount": "2", "settlement": "pairwise"})
    assert ("Stakes saved: ante 2.00 each; the winner takes the pool."
            in client.get(f"/g/{token}").get_data(as_text=True))
    client.post(f"/g/{token}/stakes", data={"csrf_token": csrf, "version": 3, "stakes": "",
                                            "settlement": "pairwise"})
    assert "The game has no stakes now." in client.get(f"/g/{token}").get_data(as_text=True)


@pytest.mark.parametrize(("code", "typed", "shown"),
                         [("nl", "0,10", "€ 0,10"), ("fr", "0,10", "0,10 €"),
                          ("nl", "0.10", "€ 0,10"), ("en", "0.10", "€0.10")])
def test_a_stake_is_typed_and_shown_as_the_page_s_language_writes_it(
        client: FlaskClient, code: str, typed: str, shown: str) -> None:
    """On a Dutch page a stake is "€ 0,10", and typed so ("0,10" is what a Dutch phone's keyboard
    gives): its field shows it so too. The game file keeps "0.10", as the API takes it."""
    token, csrf = _created(client, FINISHED)
    response = client.post(f"/g/{token}/stakes?lang={code}", data={
        "csrf_token": csrf, "version": 1, "stakes": "per_point", "amount": typed, "currency": "€",
        "settlement": "pairwise"})
    assert response.status_code == 302, text(response.get_data(as_text=True))[:300]
    assert client.get(f"/api/games/{token}").get_json()["stakes"]["per_point"] == "0.10"
    page = client.get(f"/g/{token}?lang={code}").get_data(as_text=True)
    assert shown in text(page).replace("\u00a0", " ").replace("\u202f", " ")
    field = 'value="0,10"' if code != "en" else 'value="0.10"'
    assert 'id="st-amount" name="amount" inputmode="decimal" ' \
           f'placeholder="{"0,05" if code != "en" else "0.05"}" maxlength="20" {field}' in page
