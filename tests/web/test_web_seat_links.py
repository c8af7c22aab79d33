"""Every player's phone (SEATS.md): the seat links and the join link, what each shows and may do,
by the pages and by the API."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_web_events_access import night  # noqa: F401 (the fixture)
from webhelpers import Scorer, csrf_from, message, scanned, snapshot, svg_picture, text

from scorekeeper.web.logs import redact

Start = Callable[..., Scorer]


def token(link: str) -> str:
    return link.rsplit("/", 1)[1]


def table(scorer: Scorer) -> dict[str, Any]:
    """The game's export by its edit link: its links hold the join link and every seat's."""
    return scorer.export()["links"]


def seat_tap(client: FlaskClient, seat_link: str, deal: int, bid: int, tap: str) -> Any:
    return client.post(f"/api/games/{token(seat_link)}/taps",
                       json={"tap": tap, "deal": deal, "step": "bid", "value": bid})


def page_bid(client: FlaskClient, seat_link: str, bid: int) -> Any:
    """A bid tapped on the seat's page, as its button posts it."""
    page = client.get(f"/s/{token(seat_link)}").get_data(as_text=True)
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', page))
    if "tap" not in fields:  # not this player's turn: posted as an old page of theirs would
        fields = {"csrf_token": csrf_from(client.get("/new").get_data(as_text=True)), "deal": "1",
                  "tap": "an-old-page-tap"}
    return client.post(f"/s/{token(seat_link)}/bid", data={**fields, "bid": bid})


def test_the_edit_link_holds_the_join_link_and_one_seat_link_per_player_and_no_other_link_does(
        app: Flask, start: Start) -> None:
    scorer = start(players=["Ann", "Bob", "Cy"])
    links = table(scorer)
    assert len(links["seats"]) == 3 and len(set(links["seats"])) == 3
    assert links == table(scorer), "the same links every time"
    hidden = [token(links["join"]), *map(token, links["seats"]), scorer.token]
    viewer = app.test_client()
    view = viewer.get(f"/api/games/{scorer.view_token}").get_json()
    assert "join" not in view["links"] and "seats" not in view["links"]
    for kind in (f"/v/{scorer.view_token}", f"/api/games/{scorer.view_token}"):
        body = viewer.get(kind).get_data(as_text=True)
        assert not [secret for secret in hidden if secret in body], kind
    for seat, link in enumerate(links["seats"]):
        response = viewer.get(f"/api/games/{token(link)}")
        assert response.headers["Cache-Control"] == "no-store", "it holds a link that may bid"
        answer = response.get_json()
        assert answer["seat"] == seat and answer["players"] == ["Ann", "Bob", "Cy"]
        assert answer["links"]["seat"] == link and answer["links"]["view"] == view["links"]["view"]
        others = [s for s in hidden if s != token(link)]
        for path in (f"/s/{token(link)}", f"/api/games/{token(link)}", f"/s/{token(link)}/state"):
            body = viewer.get(path).get_data(as_text=True)
            assert not [s for s in others if s in body], f"{path} holds a link of more authority"


def test_a_link_changed_in_one_character_leads_nowhere_and_the_logs_never_hold_a_seat_link(
        app: Flask, start: Start) -> None:
    links = table(start())
    seat = token(links["seats"][1])
    client = app.test_client()
    for wrong in (seat[:-1] + ("A" if seat[-1] != "A" else "B"), seat[:-1], seat + "A",
                  token(links["join"])[:-2], "x" * 86):
        assert client.get(f"/s/{wrong}").status_code == 404
        assert client.get(f"/api/games/{wrong}").status_code == 404
    assert client.get(f"/j/{seat}").status_code == 404, "a seat link is no join link"
    assert client.get(f"/s/{token(links['join'])}").status_code == 404, "nor the other way"
    assert seat not in redact(f'"GET /s/{seat}/state?v=3 HTTP/1.1" 200')


def test_players_bid_in_turn_each_from_their_own_seat_and_the_dealer_sees_the_hook(
        app: Flask, start: Start) -> None:
    scorer = start(players=["Ann", "Bob", "Cy"], rules={"max_cards": 2})
    seats = table(scorer)["seats"]
    phones = [app.test_client() for _ in seats]
    # Ann deals the first deal (2 cards): Bob bids first, then Cy, then Ann
    bob = text(phones[1].get(f"/s/{token(seats[1])}").get_data(as_text=True))
    assert "Your seat: Bob" in bob and "Your bid" in bob
    cy = text(phones[2].get(f"/s/{token(seats[2])}").get_data(as_text=True))
    assert "Your bid" not in cy and "Bob is bidding." in cy
    before = snapshot(app)
    early = page_bid(phones[2], seats[2], 0)
    assert early.status_code == 409
    assert message(early) == "It is Bob's turn to bid in deal 1: Cy's bid was not saved."
    assert snapshot(app) == before
    assert page_bid(phones[1], seats[1], 0).status_code == 302
    assert page_bid(phones[2], seats[2], 0).status_code == 302
    ann = phones[0].get(f"/s/{token(seats[0])}").get_data(as_text=True)
    assert "Your bid (you deal, you bid last)" in text(ann)
    assert re.search(r'class="num struck"[^>]*>2</button>', ann), "the hook is struck out"
    assert "Ann deals and can't bid 2" in text(ann)
    assert page_bid(phones[0], seats[0], 0).status_code == 302
    assert scorer.export()["deals"][0]["bids"] == [0, 0, 0]
    after = text(phones[0].get(f"/s/{token(seats[0])}").get_data(as_text=True))
    assert "Your tricks" in after and "You bid 0: tap the number of tricks you took." in after
    scorer.tricks(0, 1, 1)
    ranked = text(phones[1].get(f"/s/{token(seats[1])}").get_data(as_text=True))
    bob = next(s for s in scorer.export()["standings"] if s["player"] == "Bob")
    assert f"Your seat: Bob · {bob['total']}, place {bob['rank']} of 3" in ranked


def test_the_api_applies_a_seats_tap_once_and_refuses_what_the_seat_may_not_do(
        app: Flask, start: Start) -> None:
    scorer = start(players=["Ann", "Bob", "Cy"], rules={"max_cards": 2})
    links = table(scorer)
    bob, cy = links["seats"][1], links["seats"][2]
    client = app.test_client()
    before = snapshot(app)
    early = seat_tap(client, cy, 1, 0, "tap-cy-0001")
    assert early.status_code == 409
    assert early.get_json()["error"] == "It is Bob's turn to bid in deal 1: Cy's bid was not saved."
    assert seat_tap(client, bob, 2, 0, "tap-bob-002").status_code == 409
    for body, status in (({"tap": "tap-bob-001", "deal": 1, "step": "bid", "value": 9}, 422),
                         ({"tap": "x", "deal": 1, "step": "bid", "value": 0}, 422),
                         ({"tap": "tap-bob-001", "deal": 1, "step": "bid", "value": "one"}, 422),
                         ({"tap": "tap-bob-001", "deal": 1, "step": "undo", "value": 0}, 422),
                         ({"tap": "tap-bob-001", "deal": 1, "step": "bid"}, 422),
                         ({"tap": "tap-bob-001", "deal": 1, "step": "bid", "value": 0,
                           "seat": 2}, 422),
                         ([1, 2], 422),
                         ({"tap": "tap-bob-001", "deal": 1, "step": "tricks", "value": 0}, 409)):
        answer = client.post(f"/api/games/{token(bob)}/taps", json=body)
        assert answer.status_code == status, (body, answer.get_json())
        assert answer.get_json()["error"]
    assert client.post(f"/api/games/{token(links['join'])}/taps",
                       json={"tap": "tap-join-01", "deal": 1, "step": "bid", "value": 0}
                       ).status_code == 403
    assert client.put(f"/api/games/{token(bob)}", json=scorer.export()).status_code == 403
    assert snapshot(app) == before
    done = seat_tap(client, bob, 1, 1, "tap-bob-001")
    assert done.status_code == 200 and done.get_json()["deals"][0]["bids"] == [None, 1, None]
    assert done.get_json()["seat"] == 1 and "edit" not in done.get_json()["links"]
    stored = snapshot(app)
    again = seat_tap(client, bob, 1, 1, "tap-bob-001")
    assert again.status_code == 200 and snapshot(app) == stored, "sent again: stored once"
    twice = seat_tap(client, bob, 1, 0, "tap-bob-003")
    assert twice.status_code == 409
    assert twice.get_json()["error"] == "Bob has bid 1 in deal 1 already: this bid was not saved."


def test_a_seat_may_not_bid_when_the_bids_are_said_aloud_at_once_and_its_page_says_who_enters_them(
        app: Flask, start: Start) -> None:
    scorer = start(players=["Ann", "Bob", "Cy"], rules={"max_cards": 2, "simultaneous": True,
                                                      "bidding": "free", "sealed": False})
    seat = table(scorer)["seats"][1]
    client = app.test_client()
    page = text(client.get(f"/s/{token(seat)}").get_data(as_text=True))
    assert "everyone bids at once: the scorer enters the bids" in page and "Your bid" not in page
    before = snapshot(app)
    refused = seat_tap(client, seat, 1, 0, "tap-at-once")
    assert refused.status_code == 403
    assert refused.get_json()["error"] == (
        "This game's bids are made at once: the scorer enters them.")
    assert snapshot(app) == before


def test_the_join_page_lists_the_players_and_the_phone_keeps_the_seat_it_took(
        app: Flask, start: Start) -> None:
    scorer = start(players=["Ann", "Bob", "Cy"])
    links = table(scorer)
    phone = app.test_client()
    join = phone.get(f"/j/{token(links['join'])}").get_data(as_text=True)
    seat_paths = re.findall(r'href="(/s/[^"]+)"', join)
    assert [f"/s/{token(link)}" for link in links["seats"]] == seat_paths
    assert scorer.token not in join
    phone.get(f"/s/{token(links['seats'][2])}")
    home = phone.get("/").get_data(as_text=True)
    assert f'href="/s/{token(links["seats"][2])}"' in home, re.findall(r"game-link[^>]*", home)
    assert "<em>Cy's seat</em>" in home
    assert scorer.token not in home
    again = phone.get(f"/j/{token(links['join'])}").get_data(as_text=True)
    assert re.search(r"Cy <small>\(this phone\)</small>", again)


def test_the_share_page_shows_the_join_code_and_each_seats_code(start: Start) -> None:
    scorer = start(players=["Ann", "Bob", "Cy"])
    links = table(scorer)
    page = scorer.client.get(f"/g/{scorer.token}/share").get_data(as_text=True)
    codes = re.findall(r"<svg [^>]*class=\"qr-code\".*?</svg>", page, re.DOTALL)
    read = [scanned(svg_picture(code)) for code in codes]
    assert [links["join"]] in read
    assert all([link] in read for link in links["seats"])


@pytest.mark.parametrize("route", ["/g/{seat}", "/g/{seat}/bid", "/g/{seat}/share",
                                   "/g/{seat}/export.json", "/v/{seat}"])
def test_a_seat_link_opens_no_page_of_another_link(app: Flask, start: Start, route: str) -> None:
    scorer = start()
    seat = token(table(scorer)["seats"][0])
    client = app.test_client()
    client.get(f"/s/{seat}")
    before = snapshot(app)
    csrf = csrf_from(client.get("/new").get_data(as_text=True))
    assert client.get(route.format(seat=seat)).status_code == 404 or route.endswith("bid")
    assert client.post(route.format(seat=seat), data={
        "csrf_token": csrf, "seat": 0, "bid": 0, "deal": 1, "version": 1}).status_code in (404, 405)
    assert snapshot(app) == before


def test_a_club_night_tables_seat_bids_while_its_round_is_the_current_one_and_not_after(
        app: Flask, night: dict[str, Any]) -> None:  # noqa: F811 (the fixture)
    client = app.test_client()
    for which, status in (("first", 403), ("second", 200)):
        edit = token(night[which][0]["links"]["edit"])
        game = client.get(f"/api/games/{edit}").get_json()
        at = len([d for d in game["deals"] if "tricks" in d]) + 1
        # whoever bids first now (the first round's game is over: any seat)
        dealer = next((d["dealer"] for d in game["schedule"] if d["number"] == at), -1)
        eldest = (dealer + 1) % len(game["players"])
        before = snapshot(app)
        answer = seat_tap(client, game["links"]["seats"][eldest], at, 0, f"night-{which}-tap")
        assert answer.status_code == status, answer.get_json()
        if status == 403:
            assert answer.get_json()["error"].startswith("Round 1 of ")
            assert snapshot(app) == before
