"""What the tests of sealed bids share (SEATS.md, "Sealed bids"): a table whose bids are made at
once and sealed, the scorer's phone and one phone per seat, each entering bids the way its page or
the API sends them."""

from __future__ import annotations

import itertools
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from webhelpers import DEAL, VERSION, csrf_from, message
from werkzeug.test import TestResponse

from scorekeeper.store.db import db
from scorekeeper.store.games import Game

#: The rules of a table that bids at once, sealed (the default where bids are made at once): two
#: deals of 25 cards from two packs, so that a bid can be a number no page shows otherwise.
SEALED = {"preset": "british-oh-hell", "deal": "custom", "sequence": "25-25", "decks": 2}
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
#: Tap ids made here, unique in a test.
_TAPS = itertools.count(1)


def token(link: str) -> str:
    return link.rsplit("/", 1)[1]


def new_tap(who: str) -> str:
    return f"{who}-tap-{next(_TAPS):06d}"


class Table:
    """One game of sealed bids: the scorer's phone (``scorer``) and a phone on each seat
    (``phones``)."""

    def __init__(self, app: Flask, rules: dict[str, Any] | None = None,
                 players: list[str] | None = None, *, edit: str | None = None,
                 scorer: FlaskClient | None = None) -> None:
        """A new game, or the game of the edit link ``edit`` (a club night's table) opened on
        ``scorer``'s phone."""
        self.app = app
        self.scorer = scorer or app.test_client()
        if edit is None:
            made = self.scorer.post("/api/games", json={"players": players or PLAYERS,
                                                        "rules": rules or SEALED}).get_json()
        else:
            made = self.scorer.get(f"/api/games/{token(edit)}").get_json()
        self.made = made
        self.token = token(made["links"]["edit"])
        self.view = token(made["links"]["view"])
        self.join = token(made["links"]["join"])
        self.seats = [token(link) for link in made["links"]["seats"]]
        self.scorer.get(f"/g/{self.token}")
        self.phones = [app.test_client() for _ in self.seats]
        for phone, seat in zip(self.phones, self.seats, strict=True):
            phone.get(f"/s/{seat}")

    # -- entering --------------------------------------------------------------------------------

    def seat_page(self, seat: int, client: FlaskClient | None = None) -> str:
        return (client or self.phones[seat]).get(f"/s/{self.seats[seat]}").get_data(as_text=True)

    def seat_bid(self, seat: int, bid: int, *, deal: int = 1, client: FlaskClient | None = None,
                 tap: str | None = None) -> TestResponse:
        """A seat's bid as its page's button posts it (the page's own CSRF token and tap id, or
        ``tap``)."""
        phone = client or self.phones[seat]
        page = self.seat_page(seat, phone)
        fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', page))
        fields.setdefault("csrf_token", csrf_from(phone.get("/new").get_data(as_text=True)))
        fields.setdefault("tap", new_tap(f"seat{seat}"))
        fields["deal"] = str(deal)
        if tap is not None:
            fields["tap"] = tap
        return phone.post(f"/s/{self.seats[seat]}/bid", data={**fields, "bid": bid})

    def api_bid(self, seat: int, bid: int, *, deal: int = 1, client: FlaskClient | None = None,
                tap: str | None = None) -> TestResponse:
        """A seat's bid through the API, as a phone's script sends it."""
        return (client or self.phones[seat]).post(
            f"/api/games/{self.seats[seat]}/taps",
            json={"tap": tap or new_tap(f"api{seat}"), "deal": deal, "step": "bid", "value": bid})

    def scorer_page(self, client: FlaskClient | None = None) -> str:
        return (client or self.scorer).get(f"/g/{self.token}").get_data(as_text=True)

    def scorer_bids(self, bids: dict[int, int], *, client: FlaskClient | None = None,
                    tap: str | None = None, deal: int | None = None) -> TestResponse:
        """The scorer's bids at once, as its form posts those tapped."""
        phone = client or self.scorer
        page = self.scorer_page(phone)
        version, at = VERSION.search(page), DEAL.search(page)
        assert version is not None
        return phone.post(f"/g/{self.token}/bids", data={
            "csrf_token": csrf_from(page), "version": version.group(1),
            "deal": deal if deal is not None else (at.group(1) if at else 1),
            "tap": tap or new_tap("scorer"), **{f"bids-{seat}": bid for seat, bid in bids.items()}})

    def scorer_post(self, path: str, **fields: Any) -> TestResponse:
        page = self.scorer_page()
        version = VERSION.search(page)
        assert version is not None
        return self.scorer.post(f"/g/{self.token}{path}", data={
            "csrf_token": csrf_from(page), "version": version.group(1), **fields})

    # -- reading ---------------------------------------------------------------------------------

    def export(self, link: str | None = None) -> dict[str, Any]:
        data: dict[str, Any] = self.scorer.get(f"/api/games/{link or self.token}").get_json()
        return data

    def stored(self) -> tuple[dict[str, Any], str, int]:
        """The game as stored: its input document, what the seats entered, its version."""
        import json

        with self.app.app_context():
            row = db.session.execute(db.select(Game.data, Game.seats, Game.version)
                                     .where(Game.token == self.token)).one()
            db.session.remove()
        return json.loads(row[0]), row[1], row[2]


def said(response: TestResponse) -> str:
    """What a refusal says (its status checked by the caller)."""
    return message(response)
