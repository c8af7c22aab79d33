"""Sealed bids (SEATS.md, "Sealed bids"): where the bids are made at once, each player's phone
enters its own bid in secret; every phone shows who has bid, the phone that entered a bid shows
that bid; all of them show at once when the last is in. Nothing reads a sealed bid early, nor loses
it.

The answers of every route to every link during a sealed deal: test_web_sealed_leak.py; random
runs of the phones: test_web_sealed_model.py.
"""

from __future__ import annotations

import json
import re

import pytest
from flask import Flask
from sealedhelpers import PLAYERS, SEALED, Table, new_tap, token
from webhelpers import VERSION, csrf_from, message, snapshot, text

from scorekeeper.store.db import db
from scorekeeper.store.games import Game


@pytest.fixture
def table(app: Flask) -> Table:
    return Table(app)


def who_has_bid(page: str) -> list[str]:
    """What a page's list of sealed bids shows of each player, in bidding order."""
    found = re.search(r'<ul class="bidders sealed-bids">(.*?)</ul>', page, re.DOTALL)
    assert found, "the page shows no list of who has bid"
    return [text(what) for what in re.findall(r'<span class="what">(.*?)</span></li>',
                                               found.group(1), re.DOTALL)]


def scorer_row(page: str, seat: int) -> str:
    """The scorer's form's row of one player."""
    rows = re.findall(r'<fieldset class="seat-row">(.*?)</fieldset>', page, re.DOTALL)
    return next(row for row in rows if f"<legend><b>{PLAYERS[seat]}</b></legend>" in row)


def test_a_seats_bid_is_sealed_every_phone_shows_who_has_bid_and_its_own_phone_the_bid(
        table: Table) -> None:
    assert table.seat_bid(0, 17).status_code == 302
    data, seats, _version = table.stored()
    assert "deals" not in data or not data["deals"], "a sealed bid is never in the game file"
    assert json.loads(seats)["bids"][0]["bid"] == 17
    mine = table.seat_page(0)
    assert "Your bid: 17, sealed. Change it until everyone has bid." in text(mine)
    assert "1 of 4 has bid: the bids are sealed" in text(mine)
    assert 'value="17" class="num is-bid" aria-pressed="true"' in mine
    # Bob bids first, Ann deals: Ann's is the last in the list
    assert who_has_bid(mine) == ["… not yet"] * 3 + ["17 (your bid, sealed)"]
    for page in (table.seat_page(1), table.scorer.get(f"/v/{table.view}").get_data(as_text=True)):
        assert "1 of 4 has bid" in text(page)
        assert who_has_bid(page) == ["… not yet"] * 3 + ["✓ has bid"]
        assert "aria-pressed" not in page
    row = scorer_row(table.scorer_page(), 0)
    assert text(row) == "Ann ✓ has bid, on another phone" and "checked" not in row


def test_the_same_seat_on_another_phone_shows_it_has_bid_not_the_bid_and_may_not_change_it(
        app: Flask, table: Table) -> None:
    table.seat_bid(0, 17)
    other = app.test_client()
    page = text(table.seat_page(0, other))
    assert "Your bid is in, entered on another phone: this seat is open there too" in page
    assert "Your bid:" not in page and "(your bid, sealed)" not in page
    before = snapshot(app)
    refused = table.seat_bid(0, 3, client=other)
    assert refused.status_code == 409
    assert message(refused) == ("Ann has bid in deal 1 already, from another phone: only that "
                                "phone can change the bid until every bid is in. Nothing was "
                                "saved.")
    assert snapshot(app) == before
    assert table.api_bid(0, 3, client=other).status_code == 409


def test_a_seat_changes_its_sealed_bid_until_the_last_is_in_then_all_show_at_once(
        table: Table) -> None:
    table.seat_bid(0, 17)
    assert table.api_bid(0, 19).status_code == 200  # changed, from the same phone
    for seat, bid in ((1, 2), (2, 0)):
        assert table.seat_bid(seat, bid).status_code == 302
        assert table.stored()[0].get("deals", []) == []
    version = table.stored()[2]
    last = table.api_bid(3, 23)
    assert last.status_code == 200
    data, seats, now = table.stored()
    assert data["deals"][0]["bids"] == [19, 2, 0, 23] and seats == "" and now == version + 1
    assert last.get_json()["deals"][0]["bids"] == [19, 2, 0, 23]
    assert "bid_in" not in last.get_json()["deals"][0]
    assert "tricks-0" in table.scorer_page()
    late = table.seat_bid(0, 1)
    assert late.status_code == 409 and "deal 1" in message(late).lower()


def test_while_sealed_every_links_answer_holds_null_bids_and_who_has_bid(table: Table) -> None:
    table.seat_bid(1, 17)
    for link in (table.token, table.view, *table.seats):
        deal = table.export(link)["deals"][-1]
        assert deal["number"] == 1 and deal["bids"] is None
        assert deal["bid_in"] == [False, True, False, False]
        assert "bid_total" not in deal and "announce" not in deal
    exported = table.scorer.get(f"/g/{table.token}/export.json").get_json()
    assert exported["deals"][-1]["bids"] is None
    # the file exported then imports: the sealed deal is one not bid yet
    again = table.scorer.post("/api/games", json=exported)
    assert again.status_code == 201
    assert again.get_json()["deals"][0]["bids"] == [None] * 4


def test_the_scorer_enters_everyones_bids_at_once_and_they_show_at_once_as_ever(
        table: Table) -> None:
    assert table.scorer_bids({0: 1, 1: 2, 2: 0, 3: 5}).status_code == 302
    data, seats, _version = table.stored()
    assert data["deals"][0]["bids"] == [1, 2, 0, 5] and seats == ""


def test_the_scorer_seals_the_bid_of_a_player_without_a_phone_shown_to_its_phone_alone(
        app: Flask, table: Table) -> None:
    assert table.scorer_bids({2: 17}).status_code == 302
    assert 'name="bids-2" value="17" checked' in table.scorer_page()
    row = scorer_row(table.scorer_page(app.test_client()), 2)  # the edit link on another phone
    assert text(row) == "Cy ✓ has bid, on another phone" and "checked" not in row
    refused = table.seat_bid(2, 3)  # Cy's own phone
    assert refused.status_code == 409 and "Cy has bid in deal 1 already" in message(refused)
    table.seat_bid(0, 1)
    refused = table.scorer_bids({0: 4, 1: 1, 3: 1})  # Ann bid on her own phone
    assert refused.status_code == 409 and "Ann has bid in deal 1 already" in message(refused)
    assert table.scorer_bids({1: 1, 3: 1}).status_code == 302
    assert table.stored()[0]["deals"][0]["bids"] == [1, 1, 17, 1]


def test_the_scorer_takes_the_sealed_bids_back_and_the_players_bid_again(table: Table) -> None:
    table.seat_bid(0, 17)
    table.seat_bid(1, 2)
    assert "Undo the bids" in table.scorer_page()
    assert table.scorer_post("/undo", deal=1, tap=new_tap("undo")).status_code == 302
    assert table.stored()[1] == ""
    assert "0 of 4 have bid" in text(table.seat_page(2))
    assert table.seat_bid(0, 3, client=table.phones[1]).status_code == 302  # any phone now


def test_a_sealed_bid_sent_again_is_stored_once_and_the_one_that_showed_them_too(
        table: Table) -> None:
    tap = new_tap("again")
    assert table.api_bid(0, 17, tap=tap).status_code == 200
    version = table.stored()[2]
    assert table.api_bid(0, 17, tap=tap).status_code == 200
    assert table.stored()[2] == version
    for seat in (1, 2):
        table.api_bid(seat, 1)
    last = new_tap("last")
    assert table.api_bid(3, 0, tap=last).status_code == 200
    assert table.api_bid(3, 0, tap=last).status_code == 200
    assert table.stored()[0]["deals"][0]["bids"] == [17, 1, 1, 0]


def test_a_sealed_bid_the_rules_refuse_is_refused_naming_the_deal(app: Flask,
                                                                 table: Table) -> None:
    before = snapshot(app)
    refused = table.api_bid(0, 26)
    assert refused.status_code == 422
    assert message(refused) == "Deal 1: Ann can't bid 26: a bid is a whole number from 0 to 25."
    assert snapshot(app) == before


def test_while_sealed_a_correction_of_the_deal_and_a_put_of_the_game_are_refused_naming_it(
        app: Flask) -> None:
    table = Table(app, rules={**SEALED, "sequence": "1-25-25"})
    table.scorer_bids({0: 1, 1: 0, 2: 0, 3: 0})
    table.scorer_post("/tricks", deal=1, **{f"tricks-{s}": t for s, t in enumerate([1, 0, 0, 0])})
    table.seat_bid(0, 17, deal=2)
    before = snapshot(app)
    page = table.scorer.get(f"/g/{table.token}/deal/2")
    assert page.status_code == 409
    assert message(page) == ("Deal 2: the bids are sealed until every player has bid. Correct a "
                             "deal or replace the game once they are shown.")
    exported = table.export()
    etag = table.scorer.get(f"/api/games/{table.token}").headers["ETag"]
    put = table.scorer.put(f"/api/games/{table.token}", json=exported,
                           headers={"If-Match": etag})
    assert put.status_code == 409 and put.get_json()["error"].startswith("Deal 2: the bids are")
    assert snapshot(app) == before
    # an earlier deal may be corrected: the sealed bids stay as they were
    fixed = table.scorer_post("/deal/1", **{f"bids-{s}": b for s, b in enumerate([0, 0, 0, 0])},
                              **{f"tricks-{s}": t for s, t in enumerate([1, 0, 0, 0])})
    assert fixed.status_code == 302
    assert json.loads(table.stored()[1])["bids"][0]["bid"] == 17


def test_a_change_that_would_lose_the_sealed_bids_is_refused_and_the_trump_keeps_them(
        app: Flask, table: Table) -> None:
    table.seat_bid(0, 17)
    before = snapshot(app)
    rules = table.scorer_post("/rules", **{"preset": "british-oh-hell", "rules-deal": "custom",
                                          "rules-sequence": "25-25", "rules-decks": "2",
                                          "rules-sealed": "no", "action": "save"})
    assert rules.status_code == 409
    assert message(rules).startswith("Deal 1: the bids are sealed until every player has bid, "
                                     "and this change would lose them.")
    assert snapshot(app) == before
    assert table.scorer_post("/trump", deal=1, trump="S").status_code == 302
    assert json.loads(table.stored()[1])["bids"][0]["bid"] == 17


def test_said_aloud_the_bids_at_once_are_the_scorers_to_enter_as_before(app: Flask) -> None:
    table = Table(app, rules={**SEALED, "sealed": False})
    assert table.export()["rules"]["sealed"] is False
    refused = table.api_bid(0, 1)
    assert refused.status_code == 403
    assert "Your bid" not in text(table.seat_page(0))
    assert table.scorer_bids({0: 1, 1: 2}).status_code == 422


def test_the_settings_offer_sealing_and_a_value_other_than_true_or_false_is_refused(
        app: Flask, table: Table) -> None:
    form = table.scorer.get("/new").get_data(as_text=True)
    assert 'name="rules-sealed"' in form and "Sealed bids" in text(form)
    refused = table.scorer.post("/api/games", json={"players": ["Ann", "Bob"],
                                                    "rules": {**SEALED, "sealed": "yes"}})
    assert refused.status_code == 422
    assert "Sealed bids must be true or false" in refused.get_json()["error"]
    with app.app_context():
        assert db.session.execute(db.select(Game.token).where(
            Game.token == token(table.made["links"]["edit"]))).scalar_one()


def test_the_scorers_sealed_bid_lands_though_a_player_bid_on_their_phone_since_it_was_shown(
        table: Table) -> None:
    """Sealed bids land by their deal and their players, as a seat's do, not by the version the
    scorer's page showed: each player bids at any moment."""
    page = table.scorer_page()
    version = VERSION.search(page)
    assert version is not None
    assert table.seat_bid(0, 17).status_code == 302  # meanwhile, on Ann's phone
    posted = table.scorer.post(f"/g/{table.token}/bids", data={
        "csrf_token": csrf_from(page), "version": version.group(1), "deal": 1,
        "tap": new_tap("scorer"), "bids-2": 5})
    assert posted.status_code == 302
    assert [entry and entry["bid"] for entry in json.loads(table.stored()[1])["bids"]] == [
        17, None, 5, None]
