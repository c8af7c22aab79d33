"""Importing a game file: uploaded or pasted; a refused file stores nothing and keeps the text."""

from __future__ import annotations

import io
import json

import pytest
from flask.testing import FlaskClient
from webhelpers import csrf_from, text

GAME = {"title": "Imported", "players": ["Ann", "Bob", "Cy"], "rules": {"max_cards": 3},
        "deals": [{"bids": [1, 1, 0], "tricks": [1, 2, 0]}]}


def csrf(client: FlaskClient) -> str:
    return csrf_from(client.get("/import").get_data(as_text=True))


def test_an_uploaded_game_file_becomes_a_game_on_this_phone(client: FlaskClient) -> None:
    upload = (io.BytesIO(json.dumps(GAME).encode()), "game.json")
    response = client.post("/import", data={"csrf_token": csrf(client), "file": upload},
                           content_type="multipart/form-data")
    assert response.status_code == 302
    page = text(client.get(response.location).get_data(as_text=True))
    assert "Deal 2 of 5 · 2 cards" in page
    assert "Imported" in client.get("/").get_data(as_text=True)


def test_a_pasted_export_imports_as_well(client: FlaskClient) -> None:
    created = client.post("/api/games", json=GAME).get_json()
    response = client.post("/import",
                           data={"csrf_token": csrf(client), "text": json.dumps(created)})
    assert response.status_code == 302


@pytest.mark.parametrize(("pasted", "message"), [
    ("", "Choose a game file, or paste one."),
    ("{not json",
     "This is not a JSON game file: Expecting property name enclosed in double quotes (line 1)."),
    (json.dumps({**GAME, "deals": [{"bids": [0, 1, 2]}]}),
     ("This game file can't be used: deal 1: "
      "Ann deals and can't bid 0: the bids would add up to the 3 tricks")),
    (json.dumps({**GAME, "players": ["Ann"]}), "A game has 2 to 10 players"),
    ('{"players": ["\\ud800", "Bob"]}',
     ("This is not a JSON game file: "
      "it holds an unpaired surrogate such as \\ud800, which is not text.")),
    ("[" * 5000 + "]" * 5000,
     "This is not a JSON game file: it is nested more than 20 levels deep."),
    ('{"first_dealer": ' + "1" * 5000 + "}", "it holds a number of more than 4,300 digits"),
])
def test_a_refused_file_says_why_stores_nothing_and_keeps_the_text(client: FlaskClient, pasted: str,
                                                                   message: str) -> None:
    response = client.post("/import", data={"csrf_token": csrf(client), "text": pasted})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert message in text(page)
    if pasted:
        assert text(pasted) in text(page)
    assert "No games on this phone yet" in client.get("/").get_data(as_text=True)


def test_a_file_that_is_not_text_is_refused(client: FlaskClient) -> None:
    upload = (io.BytesIO(b"\xff\xfe\x00binary"), "game.json")
    response = client.post("/import", data={"csrf_token": csrf(client), "file": upload},
                           content_type="multipart/form-data")
    assert (response.status_code == 422
            and "The file is not a text file" in text(response.get_data(as_text=True)))


def test_a_refused_field_of_the_import_form_is_named_once(client: FlaskClient) -> None:
    csrf = csrf_from(client.get("/import").get_data(as_text=True))
    response = client.post("/import", data={"csrf_token": csrf, "text": "x" * 1_000_001})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert text(page).count("longer than 1000000 characters") == 1
    assert 'aria-invalid="true"' in page
