"""Backups: every game of this phone in one file; restoring it brings back the list, or the
games."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from datetime import date, datetime
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webhelpers import Scorer, csrf_from, json_values, message, snapshot, text, within_cpu
from werkzeug.test import TestResponse

from scorekeeper.games.backup import FORMAT, MAX_GAMES
from scorekeeper.store.db import db

Start = Callable[..., Scorer]
GOOD = {"title": "Good", "players": ["Ann", "Bob", "Cy"], "rules": {"max_cards": 3},
        "deals": [{"bids": [1, 1, 0], "tricks": [1, 2, 0]}]}
BROKEN = {**GOOD, "title": "Broken", "deals": [{"bids": [0, 1, 2]}]}


def restore(client: FlaskClient, document: object) -> TestResponse:
    """Upload a backup (or anything) on the import page, as a phone would."""
    csrf = csrf_from(client.get("/import").get_data(as_text=True))
    upload = (io.BytesIO(json.dumps(document).encode()), "backup.json")
    return client.post("/import", data={"csrf_token": csrf, "file": upload},
                       content_type="multipart/form-data")


def backup(*games: object) -> dict[str, Any]:
    return {"format": FORMAT, "exported": "2026-01-01T00:00:00+00:00", "games": list(games)}


def without_links(document: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in document.items() if key != "links"}


@pytest.fixture
def phone(start: Start, app: Flask, client: FlaskClient) -> dict[str, Any]:
    """A phone holding two games to edit and one it follows read-only; its backup."""
    start(title="Friday", rules={"max_cards": 3},
          deals=[{"bids": [1, 0, 1, 0], "tricks": [1, 1, 1, 0]}])
    start(players=["Ann", "Bob"], rules={"max_cards": 2})
    theirs = app.test_client().post("/api/games", json=GOOD).get_json()
    client.get(theirs["links"]["view"])
    response = client.get("/backup.json")
    assert response.status_code == 200
    return {"backup": response.get_json(), "response": response, "theirs": theirs}


def test_the_home_page_offers_a_backup_once_there_are_games(client: FlaskClient,
                                                            start: Start) -> None:
    assert "Back up all my games" not in client.get("/").get_data(as_text=True)
    start()
    assert ('href="/backup.json" download>Back up all my games'
            in client.get("/").get_data(as_text=True))


def test_a_backup_is_one_file_with_every_game_of_this_phone_and_its_links(
        phone: dict[str, Any]) -> None:
    document, response, theirs = phone["backup"], phone["response"], phone["theirs"]
    day = document["exported"][:10]
    assert response.headers["Content-Disposition"] == (
        f'attachment; filename="oh-hell-backup-{day}.json"')
    assert abs(date.fromisoformat(day) - date.today()).days <= 1
    assert response.headers["Cache-Control"] == "no-store"
    assert document["format"] == "oh-hell-scorekeeper/backup-1"
    assert datetime.fromisoformat(document["exported"]).tzinfo is not None
    assert sorted(g.get("title", "") for g in document["games"]) == ["", "Friday", "Good"]
    mine = [g for g in document["games"] if g.get("title") != "Good"]
    assert all(set(g["links"]) == {"api", "edit", "view", "sheet"} for g in mine)
    followed = next(g for g in document["games"] if g.get("title") == "Good")
    assert "edit" not in followed["links"] and followed["links"]["view"] == theirs["links"]["view"]
    assert theirs["links"]["edit"].rsplit("/", 1)[1] not in response.get_data(as_text=True)
    assert followed["standings"] == theirs["standings"]


def test_an_empty_phone_backs_up_an_empty_list(client: FlaskClient) -> None:
    assert client.get("/backup.json").get_json()["games"] == []


def test_a_stored_game_the_rules_no_longer_replay_is_backed_up_as_stored(app: Flask,
                                                                         start: Start) -> None:
    game = start(title="Old")
    with app.app_context():
        db.session.execute(db.text("UPDATE games SET data = :data, version = version + 1"
                                   " WHERE token = :token"),
                           {"data": json.dumps({"title": "Old", "players": ["Ann"]}),
                            "token": game.token})
        db.session.commit()
    document = game.client.get("/backup.json").get_json()
    [kept] = document["games"]
    assert without_links(kept) == {"title": "Old", "players": ["Ann"]}
    assert kept["links"]["edit"] == f"http://localhost/g/{game.token}"
    assert "0 games imported, 1 already here." in text(
        restore(app.test_client(), document).get_data(as_text=True))


def test_restoring_on_a_phone_that_lost_its_list_brings_the_list_back_without_new_rows(
        app: Flask, phone: dict[str, Any]) -> None:
    before, fresh = snapshot(app), app.test_client()
    response = restore(fresh, phone["backup"])
    assert response.status_code == 200
    assert "0 games imported, 3 already here." in text(response.get_data(as_text=True))
    assert snapshot(app) == before
    home = fresh.get("/").get_data(as_text=True)
    assert home.count('class="game-card"') == 3 and home.count("read-only") == 1
    assert phone["theirs"]["links"]["edit"].rsplit("/", 1)[1] not in home


def test_restoring_on_a_fresh_server_recreates_the_games_as_they_were(
        app: Flask, phone: dict[str, Any]) -> None:
    with app.app_context():
        db.session.execute(db.text("DELETE FROM games"))
        db.session.commit()
    fresh = app.test_client()
    response = restore(fresh, phone["backup"])
    assert "3 games imported, 0 already here." in text(response.get_data(as_text=True))
    assert len(snapshot(app)) == 3
    restored = fresh.get("/backup.json").get_json()["games"]
    assert sorted(json.dumps(without_links(g)) for g in restored) == \
        sorted(json.dumps(without_links(g)) for g in phone["backup"]["games"])


def test_restoring_twice_imports_nothing_the_second_time(app: Flask, client: FlaskClient) -> None:
    assert "1 game imported, 0 already here." in text(
        restore(client, backup(GOOD)).get_data(as_text=True))
    rows = snapshot(app)
    assert "0 games imported, 1 already here." in text(
        restore(client, backup(GOOD)).get_data(as_text=True))
    assert snapshot(app) == rows


def test_a_game_with_the_same_input_as_one_on_this_phone_is_skipped(app: Flask,
                                                                    client: FlaskClient) -> None:
    stored = client.post("/api/games", json=GOOD).get_json()
    client.get(stored["links"]["edit"])
    response = restore(client, backup(without_links(stored), {**GOOD, "title": "Other"}))
    assert "1 game imported, 1 already here." in text(response.get_data(as_text=True))
    assert len(snapshot(app)) == 2


def test_a_game_this_phone_holds_stands_for_one_game_of_the_backup(app: Flask,
                                                                   client: FlaskClient) -> None:
    stored = client.post("/api/games", json=GOOD).get_json()
    client.get(stored["links"]["edit"])
    response = restore(client, backup(GOOD, without_links(stored), stored))
    assert "2 games imported, 1 already here." in text(response.get_data(as_text=True))
    assert len(snapshot(app)) == 3


def test_separate_games_with_the_same_input_stay_separate_and_a_second_restore_adds_none(
        app: Flask, start: Start) -> None:
    games = [start(players=["Ann", "Bob", "Cy"]) for _ in range(6)]
    document = games[0].client.get("/backup.json").get_json()
    assert len(document["games"]) == 6
    with app.app_context():  # a fresh server: none of the links works there
        db.session.execute(db.text("DELETE FROM games"))
        db.session.commit()
    fresh = app.test_client()
    assert "6 games imported, 0 already here." in text(
        restore(fresh, document).get_data(as_text=True))
    rows = snapshot(app)
    assert len(rows) == 6 and fresh.get("/").get_data(as_text=True).count('class="game-card"') == 6
    assert "0 games imported, 6 already here." in text(
        restore(fresh, document).get_data(as_text=True))
    assert snapshot(app) == rows
    assert fresh.get("/").get_data(as_text=True).count('class="game-card"') == 6


def test_a_refused_game_is_named_with_its_reason_and_the_others_are_imported(
        app: Flask, client: FlaskClient) -> None:
    response = restore(client, backup(GOOD, BROKEN, 42))
    page = text(response.get_data(as_text=True))
    assert response.status_code == 200
    assert "1 game imported, 0 already here, 2 not imported." in page
    assert "2 games of the backup could not be imported: the reason is given below. Every other " \
           "game was imported or is already on this phone." in page
    assert "Game 2 in the file: “Broken” Not imported: Deal 1: Ann deals and can't bid 0" in page
    assert "Game 3 in the file Not imported: A game file is a JSON object" in page
    assert len(snapshot(app)) == 1 and "Good" in client.get("/").get_data(as_text=True)
    html = response.get_data(as_text=True)
    # the CSP: no inline style, no inline script
    assert "style=" not in html and "<style" not in html
    assert not re.search(r'<script(?![^>]*\s(?:src=|type="application/json"))', html)


def test_a_backup_whose_games_are_all_refused_stores_nothing(app: Flask,
                                                             client: FlaskClient) -> None:
    response = restore(client, backup(BROKEN))
    assert response.status_code == 422 and "Nothing was imported." in message(response)
    assert snapshot(app) == []


def test_a_read_only_link_in_a_backup_never_gives_the_right_to_edit(client: FlaskClient,
                                                                    app: Flask) -> None:
    theirs = app.test_client().post("/api/games", json=GOOD).get_json()
    view = theirs["links"]["view"].rsplit("/", 1)[1]
    restore(client, backup(GOOD | {"links": {"edit": f"http://localhost/g/{view}"}}))
    home = client.get("/").get_data(as_text=True)
    assert "read-only" in home and theirs["links"]["edit"].rsplit("/", 1)[1] not in home
    assert len(snapshot(app)) == 1


@pytest.mark.parametrize(("document", "error"), [
    ({"format": FORMAT},
     'This backup has no list of games ("games": [...]); nothing was imported.'),
    ({"format": FORMAT, "games": {"a": GOOD}}, "This backup has no list of games"),
    (backup(*[GOOD] * (MAX_GAMES + 1)),
     f"This backup holds {MAX_GAMES + 1} games; at most {MAX_GAMES}"),
    ({"format": "oh-hell-scorekeeper/backup-2", "games": []},
     ("This backup's format 'oh-hell-scorekeeper/backup-2' is not known here: backups "
     "'oh-hell-scorekeeper/backup-1' can be restored; nothing was imported.")),
])
def test_a_backup_refused_as_a_whole_says_why(app: Flask, client: FlaskClient, document: object,
                                             error: str) -> None:
    response = restore(client, document)
    assert response.status_code == 422 and error in message(response)
    assert snapshot(app) == []


links = st.dictionaries(st.sampled_from(["edit", "api", "view", "x"]),
                        st.one_of(json_values,
                                  st.text(max_size=70).map(lambda t: "http://localhost/g/" + t)))
entries = st.one_of(json_values, st.builds(lambda doc, extra: {**doc, "links": extra},
                                           st.sampled_from([GOOD, BROKEN]), links))


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(games=st.lists(entries, max_size=4), exported=json_values)
def test_any_backup_content_gets_a_page_never_a_500(app: Flask, games: list[object],
                                                    exported: object) -> None:
    client = app.test_client()
    before = snapshot(app)
    response = restore(client, {"format": FORMAT, "exported": exported, "games": games})
    assert response.status_code in (200, 422)
    page = text(response.get_data(as_text=True))
    imported = len(snapshot(app)) - len(before)
    if response.status_code == 422:
        assert message(response) and imported == 0
    else:
        assert f"{imported} {'game' if imported == 1 else 'games'} imported" in page


#: A house formula of the costliest kind within the limits, made different for each game so that
#: nothing checked for one is reused for the next.
COSTLY_MADE = ("10 + bid * 2 + max(bid, tricks) ** 2 - min(cards, players) + abs(bid - tricks) * 3"
               " + (bid > 3) * 5 + cards // 2 + players % 3 - (tricks != bid) * 7"
               " + max(1, 2, 3, bid) * min(4, cards) + {n}")
COSTLY_MISSED = ("-abs(bid - tricks) * 3 - (bid - tricks) ** 2 + max(bid, tricks)"
                 " - min(cards, players) * 2 - {n}")


def costly(number: int) -> dict[str, Any]:
    """A game with two decks, hands up to 52 cards and its own house formulas: each one alone is
    within what a new game may cost to check."""
    return {"title": f"Costly {number}", "players": ["Ann", "Bob"],
            "rules": {"decks": 2, "max_cards": 52, "scoring": "custom",
                      "made": COSTLY_MADE.format(n=number),
                      "missed": COSTLY_MISSED.format(n=number)}}


def timed_restore(client: FlaskClient, document: object) -> TestResponse:
    client.get("/import")
    with within_cpu(what="the restore"):
        return restore(client, document)


def test_each_costly_game_is_accepted_on_its_own(client: FlaskClient) -> None:
    for number in range(2):
        created = client.post("/api/games", json=costly(number))
        assert created.status_code == 201, created.get_json()


def test_a_backup_of_costly_games_is_refused_within_2_s_and_stores_nothing(
        app: Flask, client: FlaskClient) -> None:
    response = timed_restore(client, backup(*[costly(number) for number in range(MAX_GAMES)]))
    assert response.status_code == 422
    assert (f"This backup holds {MAX_GAMES} games; checking the house scoring formulas of them all "
            "is too much work for one restore, so nothing was imported") in message(response)
    assert snapshot(app) == []


def test_what_a_worker_remembers_changes_no_backup_s_verdict(app: Flask,
                                                            client: FlaskClient) -> None:
    """Two costly games are too much for one restore, whether or not this worker made the rules of
    one of them before (every worker of a server gives the same answer)."""
    assert client.post("/api/games", json=costly(7)).status_code == 201
    before = snapshot(app)
    assert restore(client, backup(costly(7), costly(8))).status_code == 422
    assert snapshot(app) == before


def test_a_backup_with_one_costly_game_is_restored_within_2_s(app: Flask,
                                                              client: FlaskClient) -> None:
    response = timed_restore(client, backup(costly(0), GOOD, costly(0)))
    assert response.status_code == 200
    assert len(snapshot(app)) == 3
