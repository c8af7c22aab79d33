"""Two phones putting one game in two groups at the same moment (issue: a 500 in some trials).

The race is forced, not hoped for: each request waits, just before its first write, until the
other has read everything it reads (a barrier), so both find the game in no group. The database
lets one place stand; the other request answers 409 with a sentence, as if it had come second,
and stores nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webhelpers import Scorer, csrf_from, groups_snapshot, message

from scorekeeper.store.groups import StoredGroup

Start = Callable[..., Scorer]
GAME = {"players": ["Ann", "Bob", "Cy"], "rules": {"deal": "fixed", "max_cards": 1, "deals": 1},
        "deals": [{"bids": [1, 1, 0], "tricks": [1, 0, 0]}]}
OTHER = "This game is in another group: it can be in one group only."
TAKEN = "This game is already in a group: take it out of that group first."


def edit_token(document: dict[str, Any]) -> str:
    return str(document["links"]["edit"]).rsplit("/", 1)[1]


#: How a phone puts the game in a group, made ready (its form token fetched) before the race:
#: each gives the request to send, and the status and message of the one that comes second.
Ready = Callable[[], Any]
WAYS: dict[str, tuple[Callable[[FlaskClient, dict[str, Any], Scorer], Ready], tuple[int, int],
                      str]] = {}


def way(name: str, statuses: tuple[int, int], refusal: str) -> Callable[[Any], Any]:
    def register(prepare: Any) -> Any:
        WAYS[name] = (prepare, statuses, refusal)
        return prepare
    return register


@way("the group page's form", (302, 409), OTHER)
def _form(client: FlaskClient, group: dict[str, Any], game: Scorer) -> Ready:
    url = f"/gr/{edit_token(group)}"
    csrf = csrf_from(client.get(url).get_data(as_text=True))
    return lambda: client.post(f"{url}/games", data={"csrf_token": csrf, "link": f"http://localhost/g/{game.token}"})


@way("the group API", (200, 409), OTHER)
def _api(client: FlaskClient, group: dict[str, Any], game: Scorer) -> Ready:
    return lambda: client.post(f"/api/groups/{edit_token(group)}/games", json={"game": game.token})


@way("the game's page", (302, 409), OTHER)
def _attach(client: FlaskClient, group: dict[str, Any], game: Scorer) -> Ready:
    url = f"/g/{game.token}/group"
    csrf = csrf_from(client.get(url).get_data(as_text=True))
    return lambda: client.post(url, data={"csrf_token": csrf, "link": group["links"]["edit"]})


@way("a new group with the game", (302, 409), TAKEN)
def _new(client: FlaskClient, group: dict[str, Any], game: Scorer) -> Ready:
    csrf = csrf_from(client.get(f"/groups/new?game={game.token}").get_data(as_text=True))
    return lambda: client.post("/groups/new", data={"csrf_token": csrf, "name": group["name"],
                                                    "game": game.token})


def racing(monkeypatch: pytest.MonkeyPatch, *requests: Ready) -> list[Any]:
    """The answers to ``requests``, sent at once from threads, each held before its first write
    until all have read what they read."""
    barrier, held = threading.Barrier(len(requests), timeout=5), threading.local()

    def held_back(write: Callable[..., Any]) -> Callable[..., Any]:
        def first_write(*args: Any, **kwargs: Any) -> Any:
            if not getattr(held, "done", False):
                held.done = True
                try:
                    barrier.wait()
                except threading.BrokenBarrierError:  # the other wrote nothing: nothing to wait for
                    pass
            return write(*args, **kwargs)
        return first_write

    monkeypatch.setattr(StoredGroup, "_changed", held_back(StoredGroup._changed))
    monkeypatch.setattr(StoredGroup, "create", classmethod(held_back(StoredGroup.create.__func__)))  # type: ignore[attr-defined]
    answers: list[Any] = [None] * len(requests)

    def send(index: int) -> None:
        answers[index] = requests[index]()

    threads = [threading.Thread(target=send, args=(index,)) for index in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert all(answer is not None for answer in answers), "a request never answered"
    return answers


def taken_out(client: FlaskClient, game: Scorer) -> None:
    """Put the game in a group and take it out again: it keeps its (inactive) place there."""
    group = client.post("/api/groups", json={"name": "Earlier"}).get_json()
    assert client.post(f"/api/groups/{edit_token(group)}/games",
                       json={"game": game.token}).status_code == 200
    url = f"/gr/{edit_token(group)}"
    csrf = csrf_from(client.get(url).get_data(as_text=True))
    assert client.post(f"{url}/remove",
                       data={"csrf_token": csrf, "game": game.view_token}).status_code == 302


@pytest.mark.parametrize("earlier", [False, True],
                         ids=["never in a group", "taken out of one before"])
@pytest.mark.parametrize("name", WAYS)
def test_one_game_put_in_two_groups_at_once_is_in_one_and_the_other_is_told_why(
        app: Flask, start: Start, monkeypatch: pytest.MonkeyPatch, name: str,
        earlier: bool) -> None:
    prepare, statuses, refusal = WAYS[name]
    game = start(**GAME)
    phones = [app.test_client(), app.test_client()]
    if earlier:
        taken_out(phones[0], game)
    groups = [phones[0].post("/api/groups", json={"name": name}).get_json()
              for name in ("Friday", "Monday")]
    ready = [prepare(phone, group, game) for phone, group in zip(phones, groups)]
    answers = racing(monkeypatch, *ready)
    assert sorted(answer.status_code for answer in answers) == sorted(statuses)
    second = next(answer for answer in answers if answer.status_code == 409)
    assert message(second) == refusal
    homes = [g for g in groups if phones[0].get(f"/api/groups/{edit_token(g)}").get_json()["games"]]
    assert len(homes) == 1 or name == "a new group with the game"
    places = [row for row in groups_snapshot(app) if len(row) == 4]
    assert len(places) == 1 and places[0][3]  # one place, active: in one group only


def test_one_game_put_in_one_group_twice_at_once_is_in_it_once(
        app: Flask, start: Start, monkeypatch: pytest.MonkeyPatch) -> None:
    game = start(**GAME)
    group = app.test_client().post("/api/groups", json={"name": "Friday"}).get_json()
    answers = racing(monkeypatch, *(_api(app.test_client(), group, game) for _ in range(2)))
    assert [answer.status_code for answer in answers] == [200, 200]
    assert [len(answer.get_json()["games"]) for answer in answers] == [1, 1]
    assert (app.test_client().get(f"/api/groups/{edit_token(group)}").get_json()
            ["games"][0]["players"] == GAME["players"])
