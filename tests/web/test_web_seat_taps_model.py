"""Bids from the players' own phones, model-based (SEATS.md, "Bidding in turn"): random runs of the
scorer and two seat phones (Ann's and Bob's; Cy has none, the scorer bids for him) tapping bids —
new taps, taps sent again, two copies of one tap at once, taps out of turn or for another deal, and
a seat and the scorer tapping the same bid at once — against a careful scorekeeper who knows whose
turn it is and what the hook forbids.

After every step: the stored bids are the scorekeeper's, no seat changed another seat's bid, and
every tap answered stored is stored once, with its own value.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, settings, stateful
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from webhelpers import VERSION, csrf_from, message, together

from scorekeeper.store.db import db
from scorekeeper.store.games import Game

MODEL = settings(max_examples=25, stateful_step_count=40, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.function_scoped_fixture,
                                        HealthCheck.too_slow])
PLAYERS = ["Ann", "Bob", "Cy"]
#: The seats with a phone of their own.
PHONES = (0, 1)
Answer = tuple[int, str]


def names_deal(said: str, deal: int) -> bool:
    return f"deal {deal}" in said.lower()


class SeatsModel(RuleBasedStateMachine):
    """One game of three; the scorer's phone and Ann's and Bob's seat phones."""

    def __init__(self, app: Flask) -> None:
        super().__init__()
        self.app = app
        self.count = 0
        #: Every tap answered stored: its id, seat, deal and value.
        self.acked: dict[str, tuple[int, int, int]] = {}
        #: Every tap sent, and its body (to send it again).
        self.sent: list[dict[str, Any]] = []

    @initialize()
    def start(self) -> None:
        self.scorer = self.app.test_client()
        made = self.scorer.post("/api/games", json={"players": PLAYERS,
                                                    "rules": {"max_cards": 2}}).get_json()
        self.token = made["links"]["edit"].rsplit("/", 1)[1]
        self.seats = [link.rsplit("/", 1)[1] for link in made["links"]["seats"]]
        self.schedule = {d["number"]: (d["cards"], d["dealer"]) for d in made["schedule"]}
        #: The scorekeeper's deals: bids and tricks by deal.
        self.deals: list[dict[str, Any]] = []
        self.phones = {seat: self.app.test_client() for seat in PHONES}
        for seat, phone in self.phones.items():
            phone.get(f"/s/{self.seats[seat]}")
        self.csrf = {seat: csrf_from(phone.get("/new").get_data(as_text=True))
                     for seat, phone in self.phones.items()}

    # -- the scorekeeper --------------------------------------------------------------------------

    @property
    def at(self) -> int | None:
        """The deal being played (None: the game is over)."""
        number = len(self.deals) + (0 if self.deals and "tricks" not in self.deals[-1] else 1)
        return number if number in self.schedule else None

    def bids(self) -> list[int | None]:
        if self.deals and "tricks" not in self.deals[-1]:
            return list(self.deals[-1]["bids"])
        return [None] * len(PLAYERS)

    def turn(self) -> int | None:
        """Whose bid comes next (None: every bid is in, or the game is over)."""
        if self.at is None:
            return None
        dealer = self.schedule[self.at][1]
        order = [(dealer + 1 + i) % len(PLAYERS) for i in range(len(PLAYERS))]
        bids = self.bids()
        return next((seat for seat in order if bids[seat] is None), None)

    def allowed(self, seat: int) -> list[int]:
        """The bids the rules let this player make now (the dealer: not the hook)."""
        assert self.at is not None
        cards, dealer = self.schedule[self.at]
        hook = cards - sum(b for b in self.bids() if b is not None)
        return [b for b in range(cards + 1) if seat != dealer or b != hook]

    def judge(self, seat: int, deal: int, value: int) -> int:
        """The status the server must answer a new bid with: 200 stored, 409 or 422 refused."""
        if deal < 1:
            return 422  # no deal's number
        if deal != self.at or self.turn() != seat:
            return 409
        return 200 if value in self.allowed(seat) else 422

    def store(self, seat: int, value: int) -> None:
        if not self.deals or "tricks" in self.deals[-1]:
            self.deals.append({"bids": [None] * len(PLAYERS)})
        self.deals[-1]["bids"][seat] = value

    def stored(self) -> list[dict[str, Any]]:
        with self.app.app_context():
            data = db.session.execute(
                db.select(Game.data).where(Game.token == self.token)).scalar_one()
            db.session.remove()
        return [{k: v for k, v in d.items() if k in ("bids", "tricks")}
                for d in json.loads(data).get("deals", [])]

    # -- the phones -------------------------------------------------------------------------------

    def tap(self, seat: int, deal: int, value: int) -> dict[str, Any]:
        self.count += 1
        body = {"tap": f"seat-{seat}-tap-{self.count:04d}", "deal": deal, "step": "bid",
                "value": value}
        self.sent.append({"seat": seat, **body})
        return body

    def by_api(self, client: FlaskClient, seat: int, body: dict[str, Any]) -> Answer:
        response = client.post(f"/api/games/{self.seats[seat]}/taps", json=body)
        return response.status_code, message(response) if response.status_code >= 400 else ""

    def by_page(self, client: FlaskClient, seat: int, body: dict[str, Any]) -> Answer:
        response = client.post(f"/s/{self.seats[seat]}/bid", data={
            "csrf_token": self.csrf[seat], "tap": body["tap"], "deal": body["deal"],
            "bid": body["value"]})
        status = 200 if response.status_code == 302 else response.status_code
        return status, message(response) if status >= 400 else ""

    def check(self, answer: Answer, expected: int, deal: int, what: str) -> None:
        status, said = answer
        assert status == expected, f"{what}: {status} {said!r}, expected {expected}"
        if status == 409:
            assert names_deal(said, deal), f"{what}: {said!r} names no deal {deal}"
        if status >= 400:
            assert said, f"{what}: a refusal without a message"

    @rule(seat=st.sampled_from(PHONES), value=st.integers(0, 3),
          shift=st.sampled_from([0, 0, 0, -1, 1]), how=st.sampled_from(["api", "page"]))
    def a_seat_taps_its_bid(self, seat: int, value: int, shift: int, how: str) -> None:
        deal = (self.at or len(self.schedule) + 1) + shift
        body = self.tap(seat, deal, value)
        expected = self.judge(seat, deal, value)
        send = self.by_api if how == "api" else self.by_page
        self.check(send(self.phones[seat], seat, body), expected, deal, f"{how} {body}")
        if expected == 200:
            self.store(seat, value)
            self.acked[body["tap"]] = (seat, deal, value)

    @precondition(lambda self: self.sent)
    @rule(data=st.data())
    def a_seat_sends_a_tap_again(self, data: st.DataObject) -> None:
        """Its answer was lost: sent again with the same id, stored at most once."""
        sent = data.draw(st.sampled_from(self.sent))
        seat, body = sent["seat"], {k: v for k, v in sent.items() if k != "seat"}
        answer = self.by_api(self.phones[seat], seat, body)
        if body["tap"] in self.acked:
            self.check(answer, 200, body["deal"], f"again {body}")
            return
        expected = self.judge(seat, body["deal"], body["value"])  # never stored: a new tap
        self.check(answer, expected, body["deal"], f"again {body}")
        if expected == 200:
            self.store(seat, body["value"])
            self.acked[body["tap"]] = (seat, body["deal"], body["value"])

    @rule(seat=st.sampled_from(PHONES), value=st.integers(0, 2))
    def a_seat_sends_two_copies_at_once(self, seat: int, value: int) -> None:
        deal = self.at or len(self.schedule) + 1
        body = self.tap(seat, deal, value)
        expected = self.judge(seat, deal, value)
        answers = together(self.app, [lambda client: self.by_api(client, seat, body)] * 2)
        for answer in answers:
            self.check(answer, expected, deal, f"copy of {body}")
        if expected == 200:
            self.store(seat, value)
            self.acked[body["tap"]] = (seat, deal, value)

    @precondition(lambda self: self.turn() in PHONES)
    @rule(data=st.data())
    def the_seat_and_the_scorer_tap_the_same_bid_at_once(self, data: st.DataObject) -> None:
        seat, deal = self.turn(), self.at
        assert seat is not None and deal is not None
        mine, theirs = (data.draw(st.sampled_from(self.allowed(seat))) for _ in range(2))
        body = self.tap(seat, deal, mine)
        page = self.scorer.get(f"/g/{self.token}").get_data(as_text=True)
        version = VERSION.search(page)
        assert version is not None
        form = {"csrf_token": csrf_from(page), "version": version.group(1), "deal": deal,
                "seat": seat, "bid": theirs, "tap": f"scorer-tap-{self.count:04d}"}

        def scorer(client: FlaskClient) -> Answer:
            client.set_cookie("session", self.scorer.get_cookie("session").value)  # type: ignore[union-attr]
            response = client.post(f"/g/{self.token}/bid", data=form)
            status = 200 if response.status_code == 302 else response.status_code
            return status, message(response) if status >= 400 else ""

        first = data.draw(st.booleans(), "the seat's first")
        sends = [lambda client: self.by_api(client, seat, body), scorer]
        answers = together(self.app, sends if first else sends[::-1])
        seat_answer, scorer_answer = answers if first else answers[::-1]
        assert sorted([seat_answer[0], scorer_answer[0]]) == [200, 409], answers
        loser = seat_answer if seat_answer[0] == 409 else scorer_answer
        assert names_deal(loser[1], deal), loser
        value = mine if seat_answer[0] == 200 else theirs
        if seat_answer[0] == 409:
            assert loser[1] == (f"{PLAYERS[seat]} has bid {value} in deal {deal} already: "
                                "this bid was not saved."), loser
        else:
            self.acked[body["tap"]] = (seat, deal, value)
        self.store(seat, value)

    @precondition(lambda self: self.turn() is not None and self.turn() not in PHONES)
    @rule(data=st.data())
    def the_scorer_bids_for_a_player_without_a_phone(self, data: st.DataObject) -> None:
        seat = self.turn()
        assert seat is not None
        value = data.draw(st.sampled_from(self.allowed(seat)))
        page = self.scorer.get(f"/g/{self.token}").get_data(as_text=True)
        version = VERSION.search(page)
        assert version is not None
        response = self.scorer.post(f"/g/{self.token}/bid", data={
            "csrf_token": csrf_from(page), "version": version.group(1), "deal": self.at,
            "seat": seat, "bid": value})
        assert response.status_code == 302, message(response)
        self.store(seat, value)

    @precondition(lambda self: self.at is not None and self.turn() is None)
    @rule()
    def the_scorer_enters_the_tricks(self) -> None:
        assert self.at is not None
        cards = self.schedule[self.at][0]
        tricks = [cards] + [0] * (len(PLAYERS) - 1)
        page = self.scorer.get(f"/g/{self.token}").get_data(as_text=True)
        version = VERSION.search(page)
        assert version is not None
        response = self.scorer.post(f"/g/{self.token}/tricks", data={
            "csrf_token": csrf_from(page), "version": version.group(1), "deal": self.at,
            **{f"tricks-{seat}": took for seat, took in enumerate(tricks)}})
        assert response.status_code == 302, message(response)
        self.deals[-1]["tricks"] = tricks

    @invariant()
    def the_stored_bids_are_the_scorekeepers_and_each_stored_tap_holds(self) -> None:
        if not hasattr(self, "token"):
            return
        stored = self.stored()
        assert stored == self.deals
        for seat, deal, value in self.acked.values():
            assert stored[deal - 1]["bids"][seat] == value


def test_seat_phones_and_the_scorer_bid_once_each_in_turn_and_no_seat_changes_another(
        app: Flask) -> None:
    stateful.run_state_machine_as_test(lambda: SeatsModel(app), settings=MODEL)
