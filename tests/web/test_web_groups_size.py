"""A large group (GROUPS.md, RULES.md §8): taking a game out of hundreds answers in time, its pages
list a page of games and of players at a time, and a group holds at most 5,000 games."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, insert, select
from webhelpers import csrf_from, message, text, within_cpu

from scorekeeper.rules import values
from scorekeeper.rules.gamefile import parse
from scorekeeper.rules.values import MAX_GROUP_GAMES
from scorekeeper.store import groups as stored_groups
from scorekeeper.store.db import commit, connection, new_token
from scorekeeper.store.games import Game, StoredGame
from scorekeeper.store.groups import GroupGame, find_group

#: A page of a group lists at most this many games or players.
PAGE = 50


def new_group(client: FlaskClient) -> tuple[str, str]:
    """A new group's edit and read-only tokens."""
    links = client.post("/api/groups", json={"name": "Club night"}).get_json()["links"]
    return links["edit"].rsplit("/", 1)[1], links["view"].rsplit("/", 1)[1]


def ten_new_names(number: int) -> dict[str, object]:
    """A finished one-deal game of ten players nobody in the group played with before."""
    return {"players": [f"P{number}-{seat}" for seat in range(10)], "title": f"Game {number}",
            "rules": {"deal": "fixed", "max_cards": 1, "deals": 1},
            "deals": [{"bids": [0] * 10, "tricks": [1] + [0] * 9}]}


def fill(app: Flask, edit: str, games: int) -> list[StoredGame]:
    """Store ``games`` such games and put them in the group, in order."""
    with app.test_request_context():
        group = find_group(edit)[0]
        assert group is not None
        stored = []
        for number in range(games):
            stored.append(StoredGame.create(parse(ten_new_names(number))))
            assert group.add(stored[-1]) == "added"
        commit()
    return stored


def test_taking_the_first_game_out_of_600_and_putting_it_back_each_answer_within_2_s(
        app: Flask, client: FlaskClient) -> None:
    edit, _view = new_group(client)
    first = fill(app, edit, 600)[0]
    # the figures counted once in this worker
    page = client.get(f"/gr/{edit}").get_data(as_text=True)
    with within_cpu(what="taking the game out, then the page"):
        taken = client.post(f"/gr/{edit}/remove", data={"csrf_token": csrf_from(page),
                                                        "game": first.view_token})
        assert taken.status_code == 302
        assert "599 games" in text(client.get(f"/gr/{edit}").get_data(as_text=True))
    with within_cpu(what="putting it back, then the page"):
        back = client.post(f"/gr/{edit}/games", data={"csrf_token": csrf_from(page),
                                                      "link": first.token})
        assert back.status_code == 302
        assert "600 games" in text(client.get(f"/gr/{edit}").get_data(as_text=True))


def test_the_pages_of_a_large_group_list_a_page_of_games_and_of_players_at_a_time(
        app: Flask, client: FlaskClient) -> None:
    edit, view = new_group(client)
    fill(app, edit, 120)  # 1,200 players
    page = client.get(f"/gr/{view}").get_data(as_text=True)
    assert len(page.encode()) < 150_000
    assert page.count('class="game-card"') == PAGE and page.count('<td class="lb-place">') == PAGE
    assert f'href="/gr/{view}/games?page=2"' in page and f'href="/gr/{view}/players?page=2"' in page
    assert "Older games" in page and "The whole leaderboard: 1,200 players" in text(page)
    seen: list[str] = []
    for number in (1, 2, 3):
        listed = client.get(f"/gr/{view}/games?page={number}").get_data(as_text=True)
        assert len(listed.encode()) < 100_000
        seen += re_titles(listed)
        assert (("Older games" in listed) == (number < 3)
                and ("Newer games" in listed) == (number > 1))
    assert seen == [f"Game {n}" for n in range(119, -1, -1)]  # every game once, the newest first
    last = client.get(f"/gr/{view}/players?page=24").get_data(as_text=True)
    assert last.count('<td class="lb-place">') == PAGE and 'class="lb-place">1200<' in last
    for wrong in ("4", "0", "two", "1e1"):
        refused = client.get(f"/gr/{view}/games?page={wrong}")
        assert refused.status_code == 404
        assert "The page must be a whole number from 1 to 3" in text(refused.get_data(as_text=True))


def re_titles(page: str) -> list[str]:
    return re.findall(r'<strong class="game-title">([^<]*)</strong>', page)


def test_a_player_page_lists_their_games_a_page_at_a_time(app: Flask, client: FlaskClient) -> None:
    edit, view = new_group(client)
    with app.test_request_context():
        group = find_group(edit)[0]
        assert group is not None
        for number in range(60):  # Ann plays every game
            document = ten_new_names(number)
            document["players"] = ["Ann", *document["players"][1:]]  # type: ignore[index]
            group.add(StoredGame.create(parse(document)))
        commit()
    first = client.get(f"/gr/{view}/players/Ann").get_data(as_text=True)
    assert (first.count("<tr><th scope=\"row\"") == PAGE
            and f'/gr/{view}/players/Ann?page=2' in first)
    second = client.get(f"/gr/{view}/players/Ann?page=2").get_data(as_text=True)
    assert second.count("<tr><th scope=\"row\"") == 10 and "Game 0<" in second


def test_a_group_of_5000_games_refuses_one_more_in_words_and_stores_nothing(
        app: Flask, client: FlaskClient) -> None:
    edit, _view = new_group(client)
    data = parse(ten_new_names(0))
    with app.test_request_context():
        group = find_group(edit)[0]
        assert group is not None
        spare = StoredGame.create(data)
        rows = [{"token": new_token(), "view_token": new_token(), "title": "", "data": spare.data,
                 "version": 1, "taps": ""} for _ in range(MAX_GROUP_GAMES)]
        ids = connection().execute(insert(Game).returning(Game.id), rows).scalars().all()
        connection().execute(insert(GroupGame), [{"game_id": i, "group_id": group.id, "position": n,
                                                  "active": True} for n, i in enumerate(ids)])
        commit()
    limit = "This group holds 5,000 games, the most a group can hold"
    refused = client.post(f"/api/groups/{edit}/games", json={"game": spare.token})
    assert refused.status_code == 409 and limit in message(refused)
    page = client.get(f"/new?group={edit}").get_data(as_text=True)
    assert limit in text(page)
    german = client.post(f"/api/groups/{edit}/games?lang=de", json={"game": spare.token})
    assert "5.000" in message(german)
    with app.app_context():
        count = select(func.count()).select_from(GroupGame).where(GroupGame.group_id == group.id)
        assert connection().execute(count).scalar_one() == MAX_GROUP_GAMES
        assert connection().execute(
            select(GroupGame).where(GroupGame.game_id == spare.id)).first() is None


def test_a_full_group_refuses_a_game_on_its_page_and_from_the_game_s_page(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    # the bound where it is checked, and as it is said
    monkeypatch.setattr(stored_groups, "MAX_GROUP_GAMES", 3)
    monkeypatch.setattr(values, "MAX_GROUP_GAMES", 3)
    edit, _view = new_group(client)
    fill(app, edit, 3)
    with app.test_request_context():
        spare = StoredGame.create(parse(ten_new_names(3)))
        commit()
    page = client.get(f"/gr/{edit}").get_data(as_text=True)
    refused = client.post(f"/gr/{edit}/games", data={"csrf_token": csrf_from(page),
                                                     "link": spare.token})
    assert refused.status_code == 409
    assert message(refused) == ("This group holds 3 games, the most a group can hold: start a new "
                                "group for the next games.")
    attach = client.get(f"/g/{spare.token}/group").get_data(as_text=True)
    refused = client.post(f"/g/{spare.token}/group", data={"csrf_token": csrf_from(attach),
                                                           "link": edit})
    assert refused.status_code == 409 and "the most a group can hold" in message(refused)
    assert "3 games" in text(client.get(f"/gr/{edit}").get_data(as_text=True))


def test_the_kept_group_page_changes_when_a_game_of_it_is_played_on(app: Flask,
                                                                    client: FlaskClient) -> None:
    from webhelpers import Scorer

    edit, view = new_group(client)
    document = {"players": ["Ann", "Bob", "Cy"],
                "rules": {"deal": "fixed", "max_cards": 1, "deals": 1}}
    links = client.post("/api/games", json=document).get_json()["links"]
    game = Scorer(client, links["edit"].rsplit("/", 1)[1], links["view"].rsplit("/", 1)[1])
    client.post(f"/api/groups/{edit}/games", json={"game": game.token})
    for _ in range(2):  # the second time from what the worker keeps
        assert "Not finished" in text(client.get(f"/gr/{view}").get_data(as_text=True))
    game.page()
    game.bid(1, 1, 0)
    game.tricks(1, 0, 0)
    assert game.export()["finished"]
    page = text(client.get(f"/gr/{view}").get_data(as_text=True))
    assert "Not finished" not in page and "Won by" in page
