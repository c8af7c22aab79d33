"""A tap lands on its own deal, once, or says why not: every tap names its deal and step, and its
client id is recognised for the life of the game, however it is resent or raced."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from webhelpers import Scorer, csrf_from, message, snapshot

from scorekeeper.store import games as stored_games
from scorekeeper.store.db import db

Start = Callable[..., Scorer]


def form(game: Scorer, **fields: Any) -> dict[str, Any]:
    """A tap as the outbox sends it: the page's CSRF token and version, and the given fields."""
    return {"csrf_token": csrf_from(game.page()), "version": game.version(), **fields}


def test_a_refused_count_entered_again_after_its_deal_was_saved_never_lands_on_the_next_deal(
        app: Flask, start: Start) -> None:
    """Finding 1, the user's steps: deal 1's tricks refused (9 of 10), corrected and saved, deal 2's
    bids entered, then the refused counts sent again on the game as it is now."""
    game = start()  # the default game: deal 1 has 10 cards, Bob bids first, Ann deals
    game.bid(3, 2, 4, 0)
    refused = {"deal": 1, "tricks-0": 0, "tricks-1": 3, "tricks-2": 2, "tricks-3": 4}  # 9 of 10
    assert game.post("/tricks", refused).status_code == 422
    assert game.post("/tricks", {**refused, "tricks-0": 1}).status_code == 302
    game.bid(2, 2, 2, 2)  # deal 2: 9 cards
    before = snapshot(app)
    again = game.client.post(game.url + "/tricks",
                             data=form(game, **refused, tap="tap-enter-again"))
    assert again.status_code == 409
    assert message(again) == ("Deal 1 is finished: this entry for it was not saved. To change the "
                              "deal, correct it from the board.")
    assert snapshot(app) == before
    assert "tricks" not in game.export()["deals"][1]


@pytest.mark.parametrize(("step", "fields", "said"), [
    ("/bid", {"deal": 2, "seat": 2, "bid": 1},
     "This entry is for deal 2, but the game is at deal 1: it was not saved."),
    ("/bid", {"deal": 1, "seat": 1, "bid": 0},
     "Bob has bid 1 in deal 1 already: this bid was not saved."),
    ("/bid", {"deal": 1, "seat": 3, "bid": 0},
     "It is Cy's turn to bid in deal 1: Dee's bid was not saved."),
    ("/tricks", {"deal": 1, "tricks-1": 1},
     "Deal 1 is still at the bids: these tricks were not saved."),
    ("/undo", {"deal": 1, "seat": 2},
     "The last bid of deal 1 is Bob's now: nothing was taken back."),
    ("/bid", {"seat": 2, "bid": 1},
     "Deal: this entry doesn't say which deal it is for: reload the page."),
])
def test_a_tap_that_does_not_fit_its_deal_and_step_is_refused_naming_the_deal(
        app: Flask, start: Start, step: str, fields: dict[str, Any], said: str) -> None:
    game = start(rules={"max_cards": 3})
    game.bid(1)  # Bob
    before = snapshot(app)
    response = game.client.post(game.url + step, data=form(game, **fields))
    assert response.status_code in (409, 422) and message(response) == said
    assert snapshot(app) == before


def test_the_bids_of_a_finished_deal_are_refused_though_the_version_is_current(
        app: Flask, start: Start) -> None:
    game = start(rules={"max_cards": 3})
    game.bid(1, 1, 0, 0)
    game.tricks(0, 1, 1, 1)
    before = snapshot(app)
    response = game.client.post(game.url + "/bid", data=form(game, deal=1, seat=1, bid=2))
    assert response.status_code == 409 and "Deal 1 is finished" in message(response)
    assert snapshot(app) == before


def test_an_undo_takes_back_only_the_bid_it_names(app: Flask, start: Start) -> None:
    game = start(rules={"max_cards": 3})
    game.bid(1, 1)  # Bob, Cy
    assert game.client.post(game.url + "/undo", data=form(game, deal=1, seat=2)).status_code == 302
    assert game.export()["deals"][0]["bids"] == [None, 1, None, None]
    stale_undo = form(game, deal=1, seat=2)  # sent again as a new tap: Cy's bid is gone already
    before = snapshot(app)
    assert game.client.post(game.url + "/undo", data=stale_undo).status_code == 409
    assert snapshot(app) == before


def test_a_stored_tap_sent_again_after_many_others_is_answered_stored(
        app: Flask, start: Start) -> None:
    """Finding 2: a tap id is recognised for the life of the game, not only among the latest."""
    game = start(rules={"max_cards": 1, "deal": "fixed", "bidding": "free"})
    first = form(game, deal=1, seat=1, bid=0, tap="tap-the-very-first")
    assert game.client.post(game.url + "/bid", data=first).status_code == 302
    game.post("/undo", tap="undo-the-very-first")
    for n in range(40):
        game.post("/bid", seat=1, bid=0, tap=f"tap-{n:08d}")
        game.post("/undo", tap=f"undo-{n:08d}")
    before = snapshot(app)
    for resent in (first, {**form(game), "deal": 1, "seat": 2, "tap": "undo-the-very-first"}):
        answer = game.client.post(game.url + ("/bid" if "bid" in resent else "/undo"), data=resent)
        assert answer.status_code == 302, message(answer)
    assert snapshot(app) == before


def test_a_game_keeps_the_client_id_of_every_tap_it_stored_and_forgets_them_when_deleted(
        app: Flask, start: Start) -> None:
    game = start(rules={"max_cards": 3})
    for n, value in enumerate((1, 1, 0)):
        game.post("/bid", bid=value, seat=(1, 2, 3)[n], tap=f"tap-{n:08d}")
    with app.app_context():
        kept = db.session.execute(db.select(stored_games.GameTap.tap, stored_games.GameTap.version)
                                         .order_by(stored_games.GameTap.version)).all()
    assert [tuple(row) for row in kept] == [("tap-00000000", 2), ("tap-00000001", 3),
                                            ("tap-00000002", 4)]
    page = game.client.get(game.url + "/delete").get_data(as_text=True)
    assert game.client.post(game.url + "/delete",
                            data={"csrf_token": csrf_from(page)}).status_code == 302
    with app.app_context():
        assert db.session.execute(db.select(stored_games.GameTap)).all() == []


@pytest.mark.parametrize("step", ["bid", "tricks", "undo"])
def test_two_copies_of_one_tap_arriving_at_once_give_one_change_and_both_are_answered_stored(
        app: Flask, start: Start, monkeypatch: pytest.MonkeyPatch, step: str) -> None:
    """Finding 2: the outbox resends a tap while its first copy is still being handled. Both copies
    are let past the duplicate check before either stores (a barrier in the replay)."""
    game = start(rules={"max_cards": 3})
    if step != "bid":
        game.bid(1, 1, 0)
    if step == "tricks":
        game.bid(0)
    fields = {"bid": {"deal": 1, "seat": 1, "bid": 2}, "undo": {"deal": 1, "seat": 3},
              "tricks": {"deal": 1, "tricks-0": 0, "tricks-1": 1, "tricks-2": 1,
                         "tricks-3": 1}}[step]
    tap = form(game, **fields, tap="tap-sent-twice-at-once")
    version = game.version()
    cookie = game.client.get_cookie("session")
    assert cookie is not None
    clients = [app.test_client() for _ in range(2)]
    for client in clients:
        client.set_cookie("session", cookie.value)
    barrier = threading.Barrier(2, timeout=10)
    replay = stored_games.StoredGame.replay

    def both_at_once(self: stored_games.StoredGame, document: dict[str, Any]) -> Any:
        barrier.wait()
        return replay(self, document)

    monkeypatch.setattr(stored_games.StoredGame, "replay", both_at_once)
    answers: list[int] = []

    def send(client: Any) -> None:
        with app.app_context():
            answers.append(client.post(game.url + "/" + step, data=tap).status_code)

    threads = [threading.Thread(target=send, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    monkeypatch.setattr(stored_games.StoredGame, "replay", replay)
    assert answers == [302, 302]
    assert game.version() == version + 1
