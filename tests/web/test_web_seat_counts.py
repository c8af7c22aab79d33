"""Trick counts from the players' own phones (SEATS.md, "Tricks"): each seat enters its own count
once the bids are in, every phone shows who has entered and who is missing, the deal is stored when
every count is in and they add up, and when they don't, every phone shows the sum against the cards
and each count, until a player changes theirs or the scorer settles them."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from webhelpers import Scorer, csrf_from, message, snapshot, text, together

Start = Callable[..., Scorer]
#: Deal 1 of four players (3 cards), every bid in: Ann deals, Bob bids first.
BID = {"rules": {"max_cards": 3, "bidding": "free"}, "deals": [{"bids": [1, 0, 1, 0]}]}


def token(link: str) -> str:
    return link.rsplit("/", 1)[1]


def api_count(client: FlaskClient, seat_link: str, deal: int, count: Any, tap: str,
              **more: Any) -> Any:
    """A seat's count sent through the API, as a phone's app would send it."""
    return client.post(f"/api/games/{token(seat_link)}/taps",
                       json={"tap": tap, "deal": deal, "step": "tricks", "value": count, **more})


def page_count(client: FlaskClient, seat_link: str, count: int, **more: Any) -> Any:
    """A count tapped on the seat's page, as its number button posts it."""
    page = client.get(f"/s/{token(seat_link)}").get_data(as_text=True)
    form = re.search(r'<form[^>]*class="seat-count".*?</form>', page, re.DOTALL)
    assert form, "the seat's page offers no count to enter"
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form.group(0)))
    return client.post(f"/s/{token(seat_link)}/tricks", data={**fields, "tricks": count, **more})


def counts_box(page: str) -> str:
    """What a page says of the players' counts ('' when it says nothing)."""
    found = re.search(r'<div class="counts[^"]*" id="counts">(.*?)</div>', page, re.DOTALL)
    return text(found.group(1)) if found else ""


def every_phone(app: Flask, scorer: Scorer) -> dict[str, str]:
    """Every page showing the game, as each phone has it now: the scorer's, the read-only page and
    its live part, each seat's page and its live part."""
    links = scorer.export()["links"]
    viewer = app.test_client()
    pages = {"scorer": scorer.page(),
             "read-only": viewer.get(f"/v/{scorer.view_token}").get_data(as_text=True),
             "read-only, live": viewer.get(f"/v/{scorer.view_token}/state?v=0").get_json()["html"]}
    for seat, link in enumerate(links["seats"]):
        pages[f"seat {seat}"] = viewer.get(f"/s/{token(link)}").get_data(as_text=True)
        pages[f"seat {seat}, live"] = viewer.get(f"/s/{token(link)}/state?v=0").get_json()["html"]
    return pages


def entries(app: Flask) -> dict[str, Any]:
    """What the seats entered and the game file doesn't hold yet, as stored."""
    [(_token, _data, _version, seats)] = snapshot(app)
    stored: dict[str, Any] = json.loads(seats) if seats else {}
    return stored


def test_four_seats_enter_their_counts_and_the_deal_is_stored_once_all_are_in_and_add_up(
        app: Flask, start: Start) -> None:
    scorer = start(**BID)
    seats = scorer.export()["links"]["seats"]
    phones = [app.test_client() for _ in seats]
    for seat, took in ((0, 1), (2, 1), (1, 0)):
        assert page_count(phones[seat], seats[seat], took).status_code == 302
    for phone, page in every_phone(app, scorer).items():
        assert counts_box(page) == "Tricks entered: Ann 1, Bob 0, Cy 1 · waiting for Dee", phone
    assert "tricks" not in scorer.export()["deals"][0], "not stored before every count is in"
    mine = text(phones[1].get(f"/s/{token(seats[1])}").get_data(as_text=True))
    assert "Your tricks: 0" in mine and "Tap another number to change your count." in mine
    done = api_count(phones[3], seats[3], 1, 1, "dee-count-0001")
    assert done.status_code == 200 and done.get_json()["deals"][0]["tricks"] == [1, 0, 1, 1]
    assert scorer.export()["deals"][0]["tricks"] == [1, 0, 1, 1]
    assert entries(app) == {}, "the counts went with the deal they were for"
    for phone, page in every_phone(app, scorer).items():
        assert not counts_box(page), phone
        assert "Deal 2" in text(page), phone


def test_counts_that_dont_add_up_show_on_every_phone_until_a_player_changes_their_own(
        app: Flask, start: Start) -> None:
    scorer = start(**BID)
    seats = scorer.export()["links"]["seats"]
    phones = [app.test_client() for _ in seats]
    for seat in range(4):
        assert page_count(phones[seat], seats[seat], 1).status_code == 302
    assert "tricks" not in scorer.export()["deals"][0], "4 tricks of 3: not stored"
    pages = every_phone(app, scorer)
    for phone, page in pages.items():
        assert counts_box(page).startswith(
            "4 tricks entered, 3 played: Ann 1, Bob 1, Cy 1, Dee 1."), phone
    assert "Check your count and change it if it is wrong" in counts_box(pages["seat 2"])
    assert "Correct the wrong rows below and save the deal" in counts_box(pages["scorer"])
    # the scorer's tricks step starts at the players' counts (the dealer's row too)
    checked = re.findall(r'name="tricks-(\d)" value="(\d)" checked', pages["scorer"])
    assert sorted(checked) == [("0", "1"), ("1", "1"), ("2", "1"), ("3", "1")]
    data = re.search(r'id="step-data"[^>]*>([^<]*)<', pages["scorer"])
    assert data and '"counts":[1,1,1,1]' in data.group(1)
    assert "Each row starts at the count its player entered on their phone" in text(pages["scorer"])
    # Bob took none: he changes his own, and the deal is stored
    assert page_count(phones[1], seats[1], 0).status_code == 302
    assert scorer.export()["deals"][0]["tricks"] == [1, 0, 1, 1]
    assert entries(app) == {}


def test_the_scorer_settles_counts_that_dont_add_up(app: Flask, start: Start) -> None:
    scorer = start(**BID)
    seats = scorer.export()["links"]["seats"]
    for seat, took in enumerate([2, 1, 1, 0]):
        assert api_count(app.test_client(), seats[seat], 1, took, f"count-{seat}-0001"
                         ).status_code == 200
    assert counts_box(scorer.page()).startswith("4 tricks entered, 3 played")
    assert scorer.tricks(1, 1, 1, 0).status_code == 302
    assert scorer.export()["deals"][0]["tricks"] == [1, 1, 1, 0]
    assert entries(app) == {}
    late = api_count(app.test_client(), seats[0], 1, 1, "count-0-0002")
    assert late.status_code == 409
    assert late.get_json()["error"] == (
        "Deal 1 is stored already: Ann's count was not saved. The scorer can correct the deal.")


def test_a_seat_enters_its_own_count_only_and_never_a_stored_deal(app: Flask,
                                                                   start: Start) -> None:
    # deal 2: Bob sits it out, every other bid in
    scorer = start(rules={"max_cards": 3, "bidding": "free"},
                   deals=[BID["deals"][0] | {"tricks": [1, 1, 1, 0]}, {"bids": [0, None, 0, 1]}],
                   absent=[{"player": 1, "from": 2, "to": 2}])
    links = scorer.export()["links"]
    ann, bob, dee = links["seats"][0], links["seats"][1], links["seats"][3]
    client = app.test_client()
    before = snapshot(app)
    refusals = [
        # another seat's, by the API and by the page (the seat is the link's, whatever is posted)
        (api_count(client, ann, 2, 1, "ann-count-0001", seat=2), 422, "unknown field 'seat'"),
        # deal 1 is stored: a seat can't change it
        (api_count(client, ann, 1, 0, "ann-count-0002"), 409,
         "Deal 1 is stored already: Ann's count was not saved. The scorer can correct the deal."),
        (api_count(client, ann, 3, 0, "ann-count-0003"), 409, "deal 3"),
        (api_count(client, ann, 2, 4, "ann-count-0004"), 422,
         "Ann can't have taken 4 tricks: it must be 0 to 2."),
        # Bob sits deal 2 out: his seat enters nothing in it
        (api_count(client, bob, 2, 0, "bob-count-0001"), 403,
         ("Bob is not dealt in at deal 2: their seat enters nothing until they are back at the "
          "table.")),
    ]
    for answer, status, said in refusals:
        assert answer.status_code == status, answer.get_json()
        assert said in answer.get_json()["error"]
    assert client.post(f"/g/{token(dee)}/tricks", data={"tricks-3": 1, "deal": 2}
                       ).status_code in (400, 404)
    assert snapshot(app) == before
    assert page_count(client, dee, 1, seat=0).status_code == 302
    assert entries(app) == {"deal": 2, "tricks": [None, None, None, 1]}, "Dee's own, as posted"
    assert "tricks" not in scorer.export()["deals"][1]


def test_a_count_before_the_bids_are_in_is_refused_naming_the_deal(app: Flask,
                                                                    start: Start) -> None:
    scorer = start(rules={"max_cards": 3, "bidding": "free"}, deals=[{"bids": [None, 1, 0, None]}])
    seat = scorer.export()["links"]["seats"][0]
    before = snapshot(app)
    answer = api_count(app.test_client(), seat, 1, 1, "ann-early-001")
    assert answer.status_code == 409
    assert message(answer) == "Deal 1 is still at the bids: these tricks were not saved."
    assert snapshot(app) == before
    page = text(app.test_client().get(f"/s/{token(seat)}").get_data(as_text=True))
    assert "Your tricks" not in page


def test_two_seats_counts_sent_at_once_both_land(app: Flask, start: Start) -> None:
    scorer = start(**BID)
    seats = scorer.export()["links"]["seats"]
    first = together(app, [lambda c: api_count(c, seats[0], 1, 1, "ann-count-at-once"),
                           lambda c: api_count(c, seats[3], 1, 0, "dee-count-at-once")])
    assert [answer.status_code for answer in first] == [200, 200]
    assert entries(app) == {"deal": 1, "tricks": [1, None, None, 0]}
    # the last two at once: both land, and the second stores the deal
    last = together(app, [lambda c: page_count(c, seats[1], 0),
                          lambda c: page_count(c, seats[2], 2)])
    assert [answer.status_code for answer in last] == [302, 302]
    assert scorer.export()["deals"][0]["tricks"] == [1, 0, 2, 0]
    assert entries(app) == {}


def test_a_seat_and_the_scorer_at_once_store_the_deal_once(app: Flask, start: Start) -> None:
    scorer = start(**BID)
    seat = scorer.export()["links"]["seats"][0]
    page = scorer.page()
    form = {"csrf_token": csrf_from(page), "version": scorer.version(), "deal": 1,
            **{f"tricks-{s}": took for s, took in enumerate([1, 1, 1, 0])}}

    def by_scorer(client: FlaskClient) -> Any:
        client.set_cookie("session", scorer.client.get_cookie("session").value)  # type: ignore[union-attr]
        return client.post(f"{scorer.url}/tricks", data=form)

    scorer_answer, seat_answer = together(app, [by_scorer,
                                                lambda c: api_count(c, seat, 1, 2, "ann-late-01")])
    assert scorer_answer.status_code == 302
    assert seat_answer.status_code == 409
    assert seat_answer.get_json()["error"].startswith("Deal 1 is stored already")
    assert scorer.export()["deals"][0]["tricks"] == [1, 1, 1, 0]
    assert entries(app) == {}


def test_a_trump_said_while_the_counts_come_in_keeps_them(app: Flask, start: Start) -> None:
    scorer = start(rules={"max_cards": 3, "bidding": "free"},
                   deals=[{"bids": [1, 0, 1, 0]}])
    seat = scorer.export()["links"]["seats"][2]
    assert api_count(app.test_client(), seat, 1, 1, "cy-count-0001").status_code == 200
    assert scorer.post("/trump", trump="H").status_code == 302
    assert entries(app) == {"deal": 1, "tricks": [None, None, 1, None]}
