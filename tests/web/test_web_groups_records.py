"""A group's games summarized once for every worker: a worker that holds nothing of a group (a
second gunicorn worker, or any after a restart) reads what the group shows of each game instead of
replaying it, as long as the summary is of the game's current version and of this build."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select
from test_web_groups_size import fill, new_group
from webhelpers import csrf_from, text

from scorekeeper.groups import figures
from scorekeeper.rules.gamefile import parse
from scorekeeper.store.db import db
from scorekeeper.store.games import find_game
from scorekeeper.store.groups import GameSummary


def restarted() -> None:
    """Forget what this worker holds of every group, as a worker that just started."""
    for kept in (figures._entries, figures._figures, figures._settled, figures._marked):
        kept._items.clear()


def replays(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The games the group's figures replay from here on."""
    seen: list[Any] = []

    def counted(document: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(document)
        return parse(document, *args, **kwargs)

    monkeypatch.setattr(figures, "parse", counted)
    return seen


def kept(app: Flask) -> int:
    with app.app_context():
        return db.session.execute(select(func.count()).select_from(GameSummary)).scalar_one()


def test_a_fresh_worker_shows_the_group_from_the_kept_summaries_without_replaying_a_game(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    edit, view = new_group(client)
    fill(app, edit, 30)
    first = client.get(f"/gr/{view}").get_data(as_text=True)
    assert kept(app) == 30
    restarted()
    replayed = replays(monkeypatch)
    again = client.get(f"/gr/{view}").get_data(as_text=True)
    assert replayed == [] and text(again) == text(first)
    assert "The whole leaderboard: 300 players" in text(again)


def test_a_game_changed_since_its_summary_is_replayed_and_summarized_again(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    edit, view = new_group(client)
    games = fill(app, edit, 5)
    client.get(f"/gr/{view}")
    changed = {"players": [f"P2-{seat}" for seat in range(10)], "title": "Game 2, corrected",
               "rules": {"deal": "fixed", "max_cards": 1, "deals": 1},
               "deals": [{"bids": [0] * 10, "tricks": [0, 1] + [0] * 8}]}
    with app.test_request_context():
        found, _editable = find_game(games[2].token)
        assert found is not None and found.save(parse(changed))
    restarted()
    replayed = replays(monkeypatch)
    page = text(client.get(f"/gr/{view}").get_data(as_text=True))
    assert [document["title"] for document in replayed] == ["Game 2, corrected"]
    assert "Game 2, corrected" in page
    restarted()
    replayed.clear()
    client.get(f"/gr/{view}")
    assert replayed == []


def test_a_summary_another_build_wrote_is_not_read(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    edit, view = new_group(client)
    fill(app, edit, 4)
    client.get(f"/gr/{view}")
    restarted()
    monkeypatch.setattr(figures, "MADE_BY", "another build")
    replayed = replays(monkeypatch)
    client.get(f"/gr/{view}")
    assert len(replayed) == 4
    restarted()
    replayed.clear()
    client.get(f"/gr/{view}")  # kept again by this build
    assert replayed == []


def test_a_change_to_the_group_writes_no_summary_and_a_deleted_game_takes_its_own(
        app: Flask, client: FlaskClient) -> None:
    edit, _view = new_group(client)
    games = fill(app, edit, 3)
    page = client.get(f"/gr/{edit}").get_data(as_text=True)
    assert kept(app) == 3
    restarted()
    taken = client.post(f"/gr/{edit}/remove", data={"csrf_token": csrf_from(page), "game": games[0].view_token})
    assert taken.status_code == 302 and kept(app) == 3
    deleted = client.post(f"/g/{games[1].token}/delete", data={"csrf_token": csrf_from(page)})
    assert deleted.status_code in (302, 303)
    assert kept(app) == 2
