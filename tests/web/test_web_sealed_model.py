"""Sealed bids from the players' own phones, model-based (SEATS.md, "Sealed bids"): random runs of
the scorer's phone and the seat phones of a table that bids at once, sealed (Ann's seat open on two
phones; Bob and Cy on one each; Dee without a phone, the scorer bidding for her or for anyone) —
bids entered and changed, taps sent again and two copies at once, taps for another deal, the scorer
and a seat entering the same bid at once, the scorer taking the bids back — against a careful
scorekeeper who knows which phone entered which bid.

After every step: the game file holds the scorekeeper's deals (the bids of a deal only once the last
is in, all at once), the sealed bids are the scorekeeper's, each with the phone that entered it, no
seat changed another seat's bid, every tap answered stored holds, and no link reads a sealed bid it
did not enter: the API's answers hold ``bids: null`` and who has bid, each page lists who has bid
with no bid but its own phone's.
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, settings, stateful
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from sealedhelpers import SEALED, Table
from test_web_seat_taps_model import SeatsModel, names_deal
from webhelpers import message, text, together

MODEL = settings(max_examples=15, stateful_step_count=30, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.function_scoped_fixture,
                                        HealthCheck.too_slow])
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
#: The seat phones: which seat each is open on.
PHONES = {"ann": 0, "ann2": 0, "bob": 1, "cy": 2}
#: Three deals of 2, 3 and 2 cards; bids from 0 to 3 (3 is refused on a 2-card deal).
RULES = {**SEALED, "sequence": "2-3-2", "decks": 1}
Answer = tuple[int, str]
_IDS = itertools.count(1)


class SealedModel(RuleBasedStateMachine):
    """One game of four whose bids are sealed; the scorer's phone and four seat phones."""

    def __init__(self, app: Flask) -> None:
        super().__init__()
        self.app = app
        #: Every tap answered stored: its id, who sent it, its deal and bids by seat.
        self.acked: dict[str, tuple[str, int, dict[int, int]]] = {}
        #: Every tap sent (to send it again): who, how, its deal and bids by seat, its id.
        self.sent: list[tuple[str, str, int, dict[int, int], str]] = []

    @initialize()
    def start(self) -> None:
        self.table = Table(self.app, rules=RULES)
        self.clients: dict[str, FlaskClient] = {"scorer": self.table.scorer,
                                                 **{who: self.app.test_client() for who in PHONES}}
        for who, seat in PHONES.items():
            self.clients[who].get(f"/s/{self.table.seats[seat]}")
        self.cards = {d["number"]: d["cards"] for d in self.table.made["schedule"]}
        #: The scorekeeper's deals (bids and tricks), and the sealed bids of the deal being played:
        #: by seat, the bid and who entered it.
        self.deals: list[dict[str, Any]] = []
        self.sealed: dict[int, tuple[int, str]] = {}

    # -- the scorekeeper --------------------------------------------------------------------------

    @property
    def at(self) -> int | None:
        """The deal being played (None: the game is over)."""
        number = len(self.deals) + (0 if self.deals and "tricks" not in self.deals[-1] else 1)
        return number if number in self.cards else None

    @property
    def bidding(self) -> bool:
        """Whether the deal being played is at its bids."""
        return self.at is not None and not (self.deals and "tricks" not in self.deals[-1])

    def judge(self, who: str, deal: int, bids: dict[int, int]) -> int:
        """The status the server must answer new sealed bids with: 200 stored, 409 or 422."""
        if deal < 1:
            return 422  # no deal's number
        if deal != self.at or not self.bidding:
            return 409
        if any(self.sealed.get(seat, (0, who))[1] != who for seat in bids):
            return 409  # entered on another phone: changed from it alone
        return 200 if all(bid <= self.cards[deal] for bid in bids.values()) else 422

    def store(self, who: str, bids: dict[int, int]) -> None:
        self.sealed.update({seat: (bid, who) for seat, bid in bids.items()})
        if len(self.sealed) == len(PLAYERS):  # the last is in: every bid shows at once
            self.deals.append({"bids": [self.sealed[seat][0] for seat in range(len(PLAYERS))]})
            self.sealed = {}

    def phone_id(self, who: str) -> str | None:
        with self.clients[who].session_transaction() as session:
            return session.get("phone")

    # -- the phones -------------------------------------------------------------------------------

    def send(self, who: str, how: str, deal: int, bids: dict[int, int], tap: str,
             client: FlaskClient | None = None) -> Answer:
        """A tap as its phone sends it: a seat's by its page or the API, the scorer's form."""
        client = client or self.clients[who]
        if who == "scorer":
            response = self.table.scorer_bids(bids, client=client, tap=tap, deal=deal)
        else:
            (seat, bid), = bids.items()
            send = self.table.api_bid if how == "api" else self.table.seat_bid
            response = send(seat, bid, deal=deal, client=client, tap=tap)
        status = 200 if response.status_code == 302 else response.status_code
        return status, message(response) if status >= 400 else ""

    #: An answer as the model of bids in turn checks it: its status, a 409 naming the deal, a
    #: refusal saying why.
    check = SeatsModel.check

    def tap(self, who: str, how: str, deal: int, bids: dict[int, int]) -> None:
        tap = f"{who}-{next(_IDS):06d}"
        self.sent.append((who, how, deal, bids, tap))
        expected = self.judge(who, deal, bids)
        self.check(self.send(who, how, deal, bids, tap), expected, deal, f"{who} {bids} {deal}")
        if expected == 200:
            self.store(who, bids)
            self.acked[tap] = (who, deal, bids)

    @rule(who=st.sampled_from(sorted(PHONES)), value=st.integers(0, 3),
          shift=st.sampled_from([0, 0, 0, -1, 1]), how=st.sampled_from(["api", "page"]))
    def a_seat_enters_or_changes_its_bid(self, who: str, value: int, shift: int, how: str) -> None:
        self.tap(who, how, (self.at or len(self.cards) + 1) + shift, {PHONES[who]: value})

    @rule(data=st.data(), shift=st.sampled_from([0, 0, 0, 0, -1]))
    def the_scorer_enters_some_bids_or_everyones(self, data: st.DataObject, shift: int) -> None:
        seats = data.draw(st.lists(st.sampled_from(range(len(PLAYERS))), min_size=1, unique=True))
        bids = {seat: data.draw(st.integers(0, 3)) for seat in sorted(seats)}
        self.tap("scorer", "form", (self.at or len(self.cards) + 1) + shift, bids)

    @precondition(lambda self: self.bidding)
    @rule(data=st.data())
    def the_scorer_enters_the_bids_still_missing(self, data: st.DataObject) -> None:
        """The bids of the players who have not bid (and those it entered itself, again): every
        bid is in, and they show."""
        assert self.at is not None
        mine = [seat for seat in range(len(PLAYERS))
                if self.sealed.get(seat, (0, "scorer"))[1] == "scorer"]
        bids = {seat: data.draw(st.integers(0, self.cards[self.at])) for seat in mine}
        self.tap("scorer", "form", self.at, bids)

    @precondition(lambda self: self.sent)
    @rule(data=st.data())
    def a_tap_is_sent_again(self, data: st.DataObject) -> None:
        """Its answer was lost: sent again with the same id, stored at most once."""
        who, how, deal, bids, tap = data.draw(st.sampled_from(self.sent))
        answer = self.send(who, how, deal, bids, tap)
        if tap in self.acked:
            self.check(answer, 200, deal, f"again {tap}")
            return
        expected = self.judge(who, deal, bids)  # never stored: a new tap
        self.check(answer, expected, deal, f"again {tap}")
        if expected == 200:
            self.store(who, bids)
            self.acked[tap] = (who, deal, bids)

    @rule(who=st.sampled_from(sorted(PHONES)), value=st.integers(0, 2))
    def a_seat_sends_two_copies_at_once(self, who: str, value: int) -> None:
        deal, bids = self.at or len(self.cards) + 1, {PHONES[who]: value}
        tap = f"{who}-{next(_IDS):06d}"
        expected = self.judge(who, deal, bids)
        cookie = self.clients[who].get_cookie("session")

        def copy(client: FlaskClient) -> Answer:
            if cookie is not None:  # the same phone
                client.set_cookie("session", cookie.value)
            return self.send(who, "api", deal, bids, tap, client)

        for answer in together(self.app, [copy, copy]):
            self.check(answer, expected, deal, f"copy of {tap}")
        if expected == 200:
            self.store(who, bids)
            self.acked[tap] = (who, deal, bids)

    @precondition(lambda self: self.bidding and any(
        seat not in self.sealed for seat in PHONES.values()))
    @rule(data=st.data())
    def a_seat_and_the_scorer_enter_the_same_bid_at_once(self, data: st.DataObject) -> None:
        who = data.draw(st.sampled_from([w for w, s in sorted(PHONES.items())
                                         if s not in self.sealed]))
        seat, deal = PHONES[who], self.at
        assert deal is not None
        mine, theirs = (data.draw(st.integers(0, self.cards[deal])) for _ in range(2))
        taps = [f"{who}-{next(_IDS):06d}", f"scorer-{next(_IDS):06d}"]
        cookies = {w: self.clients[w].get_cookie("session") for w in (who, "scorer")}

        def by(name: str, bids: dict[int, int], tap: str) -> Any:
            def send(client: FlaskClient) -> Answer:
                if cookies[name] is not None:
                    client.set_cookie("session", cookies[name].value)  # type: ignore[union-attr]
                answer = self.send(name, "api", deal, bids, tap, client)
                kept = client.get_cookie("session")  # the phone keeps what it is answered
                if kept is not None:
                    self.clients[name].set_cookie("session", kept.value)
                return answer
            return send

        first = data.draw(st.booleans(), "the seat's first")
        sends = [by(who, {seat: mine}, taps[0]), by("scorer", {seat: theirs}, taps[1])]
        answers = together(self.app, sends if first else sends[::-1])
        seat_answer, scorer_answer = answers if first else answers[::-1]
        assert sorted([seat_answer[0], scorer_answer[0]]) == [200, 409], answers
        loser = seat_answer if seat_answer[0] == 409 else scorer_answer
        assert names_deal(loser[1], deal), loser
        winner, bid, tap = ((who, mine, taps[0]) if seat_answer[0] == 200
                            else ("scorer", theirs, taps[1]))
        self.acked[tap] = (winner, deal, {seat: bid})
        self.store(winner, {seat: bid})

    @precondition(lambda self: self.sealed)
    @rule()
    def the_scorer_takes_the_sealed_bids_back(self) -> None:
        response = self.table.scorer_post("/undo", deal=self.at, tap=f"undo-{next(_IDS):06d}")
        assert response.status_code == 302, message(response)
        self.sealed = {}

    @precondition(lambda self: self.at is not None and not self.bidding)
    @rule()
    def the_scorer_enters_the_tricks(self) -> None:
        assert self.at is not None
        tricks = [self.cards[self.at], 0, 0, 0]
        response = self.table.scorer_post(
            "/tricks", deal=self.at, **{f"tricks-{seat}": took for seat, took in enumerate(tricks)})
        assert response.status_code == 302, message(response)
        self.deals[-1]["tricks"] = tricks

    # -- what holds -------------------------------------------------------------------------------

    @invariant()
    def the_game_file_and_the_sealed_bids_are_the_scorekeepers(self) -> None:
        if not hasattr(self, "table"):
            return
        data, seats, _version = self.table.stored()
        assert [{k: v for k, v in d.items() if k in ("bids", "tricks")}
                for d in data.get("deals", [])] == self.deals
        entries = json.loads(seats) if seats else {}
        stored = {seat: (entry["bid"], entry["phone"])
                  for seat, entry in enumerate(entries.get("bids", [])) if entry}
        assert stored == {seat: (bid, self.phone_id(who))
                          for seat, (bid, who) in self.sealed.items()}

    @invariant()
    def no_link_reads_a_sealed_bid_it_did_not_enter(self) -> None:
        if not hasattr(self, "table") or not self.sealed or self.at is None:
            return
        bid_in = [seat in self.sealed for seat in range(len(PLAYERS))]
        for link in (self.table.token, self.table.view, *self.table.seats):
            deal = self.table.export(link)["deals"][-1]
            assert deal["number"] == self.at and deal["bids"] is None
            assert deal["bid_in"] == bid_in
        for who, seat in PHONES.items():
            page = self.clients[who].get(f"/s/{self.table.seats[seat]}").get_data(as_text=True)
            listed = re.search(r'<ul class="bidders sealed-bids">(.*?)</ul>', page, re.DOTALL)
            assert listed, f"{who}'s page lists who has bid"
            shown = [text(what) for what in re.findall(r'<span class="what">(.*?)</span></li>',
                                                       listed.group(1), re.DOTALL)]
            order = [(self.at % len(PLAYERS) + i) % len(PLAYERS) for i in range(len(PLAYERS))]
            assert shown == [(f"{self.sealed[p][0]} (your bid, sealed)"
                              if p in self.sealed and self.sealed[p][1] == who
                              else "✓ has bid" if p in self.sealed else "… not yet")
                             for p in order], (who, shown)
        page = self.table.scorer_page()
        for seat in range(len(PLAYERS)):
            mine = self.sealed.get(seat, (None, ""))
            row = re.search(rf"<legend><b>{PLAYERS[seat]}</b></legend>(.*?)</fieldset>", page,
                            re.DOTALL)
            assert row
            checked = re.findall(r'value="(\d+)" checked', row.group(1))
            if mine[1] == "scorer":
                assert checked == [str(mine[0])]
            else:
                assert not checked
                assert ("✓ has bid, on another phone" in row.group(1)) == (seat in self.sealed)


def test_seat_phones_and_the_scorer_seal_their_bids_and_all_show_once_the_last_is_in(
        app: Flask) -> None:
    stateful.run_state_machine_as_test(lambda: SealedModel(app), settings=MODEL)
