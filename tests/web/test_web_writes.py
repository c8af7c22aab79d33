"""The write path: one INSERT or one version-checked UPDATE per change, and the replays each worker
keeps (so a tap doesn't replay the whole game) always equal to replaying what is stored."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from flask import Flask, jsonify
from flask.testing import FlaskClient
from sqlalchemy import event
from webhelpers import Scorer, csrf_from, snapshot

from scorekeeper.rules.gamefile import export, parse, to_input
from scorekeeper.store import games as stored_games
from scorekeeper.store.db import db
from scorekeeper.store.games import Game, GameKey, StoredGame, find_game
from scorekeeper.web.site import read_json

Start = Callable[..., Scorer]


def _stored(app: Flask, token: str) -> tuple[StoredGame, dict[str, object]]:
    """The game as stored, and its export from a replay of the stored data (no cache)."""
    with app.app_context():
        game, _ = find_game(token)
        assert game is not None
    return game, export(parse(json.loads(game.data)))


def _kept(key: GameKey) -> dict[str, object] | None:
    """The export of the replay this worker keeps for a version of a game, if it keeps one."""
    kept = stored_games._replayed.find(key)
    return None if kept is None else export(kept)


def test_a_bid_is_one_update_over_the_version_it_was_made_from(
        app: Flask, start: Callable[..., Scorer]) -> None:
    game = start(rules={"preset": "oh-hell", "max_cards": 3})
    statements: list[str] = []
    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    game.post("/bid", seat=1, bid=1)
    writes = [s for s in statements if not s.lstrip().upper().startswith("SELECT")]
    assert len(writes) == 1 and writes[0].lstrip().upper().startswith("UPDATE")
    assert "version" in writes[0].split("WHERE", 1)[1]


def test_what_a_write_keeps_in_the_worker_is_the_replay_of_what_it_stored(
        app: Flask, start: Callable[..., Scorer]) -> None:
    game = start(rules={"preset": "oh-hell", "max_cards": 3})
    stored, replayed = _stored(app, game.token)
    assert stored.version == 1 and _kept(stored.key) == replayed  # kept by its first page
    game.bid(1, 0, 1, 0)
    game.tricks(1, 0, 1, 1)
    game.bid(0)
    stored, replayed = _stored(app, game.token)
    assert stored.version == 7  # six writes after the import
    assert _kept(stored.key) == replayed
    assert json.loads(stored.data) == to_input(parse(json.loads(stored.data)))  # stored as to_input


def test_a_replay_from_an_older_version_of_the_game_gives_the_full_replay(
        app: Flask, start: Callable[..., Scorer]) -> None:
    """A worker goes on from the newest replay it holds, however old: another worker may have
    taken the writes since."""
    game = start(rules={"preset": "oh-hell", "max_cards": 3})
    game.bid(1, 0, 1, 0)
    with app.app_context():
        old, _ = find_game(game.token)
        assert old is not None
        old_file = old.load()
    game.tricks(1, 0, 1, 1)
    game.bid(0, 1)
    stored_games._newest.put(game.token, old_file)  # as if this worker had seen only the first bids
    stored_games._replayed.put(("other", 0), old_file)
    with app.app_context():
        now, _ = find_game(game.token)
        assert now is not None
        stored_games._replayed._items.pop(now.key, None)
        assert export(now.load()) == export(parse(json.loads(now.data)))


def test_a_save_over_a_version_another_write_replaced_stores_nothing(
        app: Flask, start: Callable[..., Scorer]) -> None:
    game = start(rules={"preset": "oh-hell", "max_cards": 3})
    with app.app_context():
        stale, _ = find_game(game.token)
        assert stale is not None
        document = stale.document
    game.bid(1)  # another phone writes first
    before = snapshot(app)
    with app.app_context():
        document["deals"] = [{"bids": [None, 0, None, None]}]
        assert stale.save(stale.replay(document)) is False
    assert snapshot(app) == before


def test_a_new_game_is_kept_once_its_first_page_replayed_it(app: Flask,
                                                            client: FlaskClient) -> None:
    links = client.post("/api/games",
                        json={"players": ["Ann", "Bob"], "rules": {"max_cards": 2},
                              "deals": [{"bids": [1, 0], "tricks": [1, 1]}]}).get_json()["links"]
    stored, replayed = _stored(app, links["edit"].rsplit("/", 1)[1])
    assert _kept(stored.key) is None  # an import pushes no game being played out of the cache
    client.get(links["edit"])
    assert _kept(stored.key) == replayed


def test_a_new_game_is_one_insert(app: Flask, client: FlaskClient) -> None:
    statements: list[str] = []
    with app.app_context():
        db.session.execute(db.text("SELECT 1"))  # the database's first connection says hello first
        db.session.commit()
        event.listen(db.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    response = client.post("/api/games",
                           json={"players": ["Ann", "Bob"], "rules": {"max_cards": 2}})
    assert response.status_code == 201
    assert [s.split()[0].upper() for s in statements] == ["INSERT"]
    assert response.headers["Location"] == response.get_json()["links"]["api"]


def test_json_responses_keep_the_game_files_key_order_and_flasks_encodings(app: Flask) -> None:
    with app.test_request_context():
        body = jsonify({"z": 1, "a": "Zoë <b>", "n": Decimal("0.10"),
                        3: None}).get_data(as_text=True)
    assert json.loads(body) == {"z": 1, "a": "Zoë <b>", "n": "0.10", "3": None}
    assert list(json.loads(body)) == ["z", "a", "n", "3"]
    assert body.endswith("\n")


@pytest.mark.parametrize("raw", [
    '{"players": ["Ann", "Bob"], "deals": [{"bids": [1, null], "trump": "S"}], "x": 1.5}',
    '["\\u00e9", "\\ud83d\\ude00", -0, 1e3, 9007199254740993]',
    '  {"a": {"b": [[[]]]}}  ',
])
def test_read_json_reads_what_json_reads(raw: str) -> None:
    assert read_json(raw) == json.loads(raw) and read_json(raw.encode()) == json.loads(raw)


@pytest.mark.parametrize(("raw", "why"), [
    ('["\\ud800"]', "unpaired surrogate"),
    ("[" * 21 + "]" * 21, "nested more than 20 levels"),
    ("[" * 3000 + "]" * 3000, "nested more than 20 levels"),
    ('{"a": 1,}', "line 1"),
    (b'["\xff"]', "not UTF-8"),
])
def test_read_json_names_what_is_wrong(raw: str | bytes, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        read_json(raw)


@pytest.mark.parametrize("page", ["edit", "view", "tap"])
def test_a_game_page_and_a_tap_read_the_game_once(app: Flask, start: Callable[..., Scorer],
                                                  page: str) -> None:
    game = start(rules={"preset": "oh-hell", "max_cards": 3})
    game.bid(1)
    statements: list[str] = []
    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    if page == "tap":
        form = {"csrf_token": csrf_from(game.page()), "version": game.version(), "deal": 1,
                "seat": 2, "bid": 0}
        statements.clear()
        assert game.client.post(f"{game.url}/bid", data=form).status_code == 302
    else:
        assert (game.client.get(game.url if page == "edit" else f"/v/{game.view_token}").status_code
                == 200)
    assert ([s.split()[0].upper() for s in statements]
            == ["SELECT"] + (["UPDATE"] if page == "tap" else []))


def test_a_new_game_is_stored_as_the_orm_reads_it(app: Flask, client: FlaskClient) -> None:
    tokens = [client.post("/api/games",
                          json={"players": ["Ann", "Bob"], "title": f"Game {n}"}).get_json()
              ["links"]["edit"].rsplit("/", 1)[1] for n in range(2)]
    with app.app_context():
        rows = [db.session.execute(db.select(Game).where(Game.token == t)).scalar_one()
                for t in tokens]
        found = [find_game(t)[0] for t in tokens]
    assert rows[0].id != rows[1].id and [g.id for g in found if g] == [r.id for r in rows]
    for row, title in zip(rows, ("Game 0", "Game 1")):
        assert row.title == title and row.version == 1 and json.loads(row.data)["title"] == title
        made = row.created_at.replace(tzinfo=row.created_at.tzinfo or UTC)
        assert (row.created_at == row.updated_at
                and abs(datetime.now(UTC) - made) < timedelta(minutes=1))


def test_a_tap_is_stored_as_the_orm_reads_it(app: Flask, start: Callable[..., Scorer]) -> None:
    game = start(rules={"preset": "oh-hell", "max_cards": 3})
    game.bid(1)
    with app.app_context():
        row = db.session.execute(db.select(Game).where(Game.token == game.token)).scalar_one()
    assert row.version == 2 and json.loads(row.data)["deals"][0]["bids"] == [None, 1, None, None]
    assert (row.created_at <= row.updated_at
            and row.updated_at - row.created_at < timedelta(minutes=1))


def test_a_games_row_is_read_in_the_order_of_its_record() -> None:
    # find_game builds a StoredGame from the row's values in order: the two must not drift apart.
    assert [column.name for column in stored_games._BY_TOKEN.selected_columns] == \
        [field.name for field in dataclasses.fields(stored_games.StoredGame)]


def test_a_tap_sent_again_with_its_client_id_is_stored_once(app: Flask, start: Start) -> None:
    """A phone that did not hear back sends its tap again, with the same client id and the version
    it was made on: the game holds it once, and the page answers as for the first time."""
    game = start(rules={"max_cards": 3})
    form = {"csrf_token": csrf_from(game.page()), "version": game.version(), "deal": 1, "seat": 1,
            "bid": 1, "tap": "tap-0000-first"}
    first = game.client.post(game.url + "/bid", data=form)
    again = game.client.post(game.url + "/bid", data=form)
    assert first.status_code == again.status_code == 302
    assert game.export()["deals"][0]["bids"] == [None, 1, None, None]
    other = game.client.post(game.url + "/bid", data={**form, "tap": "tap-0000-other"})
    assert other.status_code == 409  # a new tap on the old version is stale, as always


