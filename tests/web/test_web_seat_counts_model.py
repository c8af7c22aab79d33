"""Trick counts from the players' own phones, model-based (SEATS.md, "Tricks"): random runs of three
seat phones and the scorer — counts entered and changed from the seats by the page and the API,
sent again, two copies at once, two seats at once, a seat and the scorer at once, counts for
another deal, the scorer's tricks online and from a page opened before it went offline (its late
tap), and corrections of stored deals — against a careful scorekeeper who knows what each phone
entered.

After every step: the stored deals and the counts waiting are the scorekeeper's (nothing lost,
nothing applied twice), every stored deal adds up to its cards, the game's version grew by one per
write and no more, and no seat's tap changed another seat's count.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, settings, stateful
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from test_web_seat_taps_model import Answer, SeatsModel
from webhelpers import VERSION, csrf_from, message, together

from scorekeeper.store.db import db
from scorekeeper.store.games import Game

MODEL = settings(max_examples=25, stateful_step_count=40, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.function_scoped_fixture,
                                        HealthCheck.too_slow])
PLAYERS = ["Ann", "Bob", "Cy"]
SEATS = range(len(PLAYERS))


def adding_up(cards: int) -> st.SearchStrategy[list[int]]:
    """Trick counts of the three players that add up to ``cards``."""
    return st.tuples(st.integers(0, cards), st.integers(0, cards)).filter(
        lambda two: sum(two) <= cards).map(lambda two: [two[0], two[1], cards - sum(two)])


class CountsModel(RuleBasedStateMachine):
    """One game of three, every player with a seat phone, and the scorer's phone."""

    def __init__(self, app: Flask) -> None:
        super().__init__()
        self.app = app
        self.count = 0
        #: Every tap sent from a seat, and its body (to send it again).
        self.sent: list[dict[str, Any]] = []
        #: The taps answered stored.
        self.acked: set[str] = set()
        #: The scorer's tricks step as a page showed it before the phone went offline.
        self.offline: dict[str, Any] | None = None

    @initialize()
    def start(self) -> None:
        self.scorer = self.app.test_client()
        made = self.scorer.post("/api/games", json={
            "players": PLAYERS, "rules": {"max_cards": 2, "bidding": "free"}}).get_json()
        self.token = made["links"]["edit"].rsplit("/", 1)[1]
        self.seats = [link.rsplit("/", 1)[1] for link in made["links"]["seats"]]
        self.schedule = {d["number"]: (d["cards"], d["dealer"]) for d in made["schedule"]}
        #: The scorekeeper's deals (bids and tricks), the counts waiting, and the game's version.
        self.deals: list[dict[str, Any]] = []
        self.counts: list[int | None] = [None] * len(PLAYERS)
        self.version = self.stored()[0]
        self.phones = {seat: self.app.test_client() for seat in SEATS}
        self.csrf = {}
        for seat, phone in self.phones.items():
            phone.get(f"/s/{self.seats[seat]}")
            self.csrf[seat] = csrf_from(phone.get("/new").get_data(as_text=True))

    # -- the scorekeeper --------------------------------------------------------------------------

    @property
    def at(self) -> int | None:
        """The deal being played (None: the game is over)."""
        number = len(self.deals) + (0 if self.deals and "tricks" not in self.deals[-1] else 1)
        return number if number in self.schedule else None

    @property
    def at_tricks(self) -> bool:
        """The deal being played has every bid in."""
        return (self.at is not None and bool(self.deals) and "tricks" not in self.deals[-1]
                and None not in self.deals[-1]["bids"])

    def cards(self) -> int:
        assert self.at is not None
        return self.schedule[self.at][0]

    def judge(self, deal: int, value: int) -> int:
        """The status a new count from a seat must be answered with: 200 taken, 409 or 422."""
        if deal < 1:
            return 422  # no deal's number
        if deal != self.at or not self.at_tricks:
            return 409
        return 200 if value <= self.cards() else 422

    def take(self, seat: int, value: int) -> None:
        """A seat's count is in: the deal is stored when every count is in and they add up."""
        self.counts[seat] = value
        self.version += 1
        if None not in self.counts and sum(self.counts) == self.cards():  # type: ignore[arg-type]
            self.deals[-1]["tricks"] = list(self.counts)
            self.counts = [None] * len(PLAYERS)

    def store_tricks(self, tricks: list[int]) -> None:
        """The scorer's tricks: the deal is stored, and the counts waiting go with it."""
        self.deals[-1]["tricks"] = list(tricks)
        self.counts = [None] * len(PLAYERS)
        self.version += 1

    def stored(self) -> tuple[int, list[dict[str, Any]], dict[str, Any]]:
        """The game as stored: its version, its deals and what the seats entered."""
        with self.app.app_context():
            version, data, seats = db.session.execute(
                db.select(Game.version, Game.data, Game.seats).where(Game.token == self.token)
            ).one()
            db.session.remove()
        deals = [{k: v for k, v in d.items() if k in ("bids", "tricks")}
                 for d in json.loads(data).get("deals", [])]
        return version, deals, json.loads(seats) if seats else {}

    def waiting(self) -> list[int | None]:
        """The counts the seats entered that wait, as stored for the deal being played."""
        entries = self.stored()[2]
        if entries.get("deal") != self.at or "tricks" not in entries:
            return [None] * len(PLAYERS)
        return list(entries["tricks"])

    # -- the phones -------------------------------------------------------------------------------

    def tap(self, seat: int, deal: int, value: int) -> dict[str, Any]:
        self.count += 1
        body = {"tap": f"seat-{seat}-count-{self.count:04d}", "deal": deal, "step": "tricks",
                "value": value}
        self.sent.append({"seat": seat, **body})
        return body

    #: A seat's tap sent by the API, and an answer checked against the status it must have (naming
    #: its deal when refused as out of place), as the bids' model does.
    by_api = SeatsModel.by_api
    check = SeatsModel.check

    def by_page(self, client: FlaskClient, seat: int, body: dict[str, Any]) -> Answer:
        phone = self.phones[seat]
        if client is not phone:  # the seat's phone, on a connection of its own
            client.set_cookie("session", phone.get_cookie("session").value)  # type: ignore[union-attr]
        response = client.post(f"/s/{self.seats[seat]}/tricks", data={
            "csrf_token": self.csrf[seat], "tap": body["tap"], "deal": body["deal"],
            "tricks": body["value"]})
        status = 200 if response.status_code == 302 else response.status_code
        return status, message(response) if status >= 400 else ""

    def posted(self, path: str = "") -> dict[str, Any]:
        """What the scorer's page at ``path`` posts with its forms: its CSRF token, its version."""
        page = self.scorer.get(f"/g/{self.token}{path}").get_data(as_text=True)
        version = VERSION.search(page)
        assert version is not None
        return {"csrf_token": csrf_from(page), "version": version.group(1)}

    def scorer_form(self, tricks: list[int]) -> dict[str, Any]:
        """The scorer's tricks step, as its page posts it now."""
        self.count += 1
        return {**self.posted(), "deal": self.at, "tap": f"scorer-tricks-{self.count:04d}",
                **{f"tricks-{seat}": took for seat, took in enumerate(tricks)}}

    def by_scorer(self, client: FlaskClient, form: dict[str, Any]) -> Answer:
        client.set_cookie("session", self.scorer.get_cookie("session").value)  # type: ignore[union-attr]
        response = client.post(f"/g/{self.token}/tricks", data=form)
        status = 200 if response.status_code == 302 else response.status_code
        return status, message(response) if status >= 400 else ""

    def seat_taps(self, seat: int, body: dict[str, Any], answer: Answer, what: str) -> None:
        """One seat's new count answered: as judged, and it changed no other seat's."""
        others = [c for s, c in enumerate(self.waiting()) if s != seat]
        expected = self.judge(body["deal"], body["value"])
        stored_before = len([d for d in self.deals if "tricks" in d])
        self.check(answer, expected, body["deal"], what)
        if expected == 200:
            self.take(seat, body["value"])
            self.acked.add(body["tap"])
        if len([d for d in self.deals if "tricks" in d]) == stored_before:
            assert [c for s, c in enumerate(self.waiting()) if s != seat] == others, (
                f"{what} changed another seat's count")

    # -- the rules of the run ---------------------------------------------------------------------

    @precondition(lambda self: self.at is not None and not self.at_tricks)
    @rule(data=st.data())
    def the_scorer_enters_the_bids(self, data: st.DataObject) -> None:
        assert self.at is not None
        cards, dealer = self.schedule[self.at]
        if not self.deals or "tricks" in self.deals[-1]:
            self.deals.append({"bids": [None] * len(PLAYERS)})
        for seat in [(dealer + 1 + i) % len(PLAYERS) for i in SEATS]:
            if self.deals[-1]["bids"][seat] is not None:
                continue
            bid = data.draw(st.integers(0, cards))
            response = self.scorer.post(f"/g/{self.token}/bid", data={
                **self.posted(), "deal": self.at, "seat": seat, "bid": bid})
            assert response.status_code == 302, message(response)
            self.deals[-1]["bids"][seat] = bid
            self.version += 1

    @rule(seat=st.sampled_from(SEATS), value=st.integers(0, 3),
          shift=st.sampled_from([0, 0, 0, 0, -1, 1]), how=st.sampled_from(["api", "page"]))
    def a_seat_enters_or_changes_its_count(self, seat: int, value: int, shift: int,
                                           how: str) -> None:
        deal = (self.at or len(self.schedule) + 1) + shift
        body = self.tap(seat, deal, value)
        send = self.by_api if how == "api" else self.by_page
        self.seat_taps(seat, body, send(self.phones[seat], seat, body), f"{how} {body}")

    @precondition(lambda self: self.sent)
    @rule(data=st.data())
    def a_seat_sends_a_count_again(self, data: st.DataObject) -> None:
        """Its answer was lost: sent again with the same id, applied at most once (a tap never
        applied is judged as a new one)."""
        body = dict(data.draw(st.sampled_from(self.sent)))
        seat = body.pop("seat")
        answer, what = self.by_api(self.phones[seat], seat, body), f"again {body}"
        if body["tap"] not in self.acked:
            return self.seat_taps(seat, body, answer, what)
        self.check(answer, 200, body["deal"], what)

    @rule(seat=st.sampled_from(SEATS), value=st.integers(0, 2))
    def a_seat_sends_two_copies_at_once(self, seat: int, value: int) -> None:
        deal = self.at or len(self.schedule) + 1
        body = self.tap(seat, deal, value)
        expected = self.judge(deal, value)
        answers = together(self.app, [lambda client: self.by_api(client, seat, body)] * 2)
        for answer in answers:
            self.check(answer, expected, deal, f"copy of {body}")
        if expected == 200:
            self.take(seat, value)
            self.acked.add(body["tap"])

    @precondition(lambda self: self.at_tricks)
    @rule(data=st.data())
    def two_seats_send_their_counts_at_once(self, data: st.DataObject) -> None:
        """Both land, in the order they write; the second is judged on the game as the first
        left it (it may have stored the deal)."""
        first, second = data.draw(st.permutations(list(SEATS)))[:2]
        bodies = [self.tap(seat, self.at or 0, data.draw(st.integers(0, self.cards())))
                  for seat in (first, second)]
        answers = together(self.app, [
            lambda client: self.by_api(client, first, bodies[0]),
            lambda client: self.by_page(client, second, bodies[1])])
        for seat, body, answer in zip((first, second), bodies, answers, strict=True):
            expected = self.judge(body["deal"], body["value"])
            self.check(answer, expected, body["deal"], f"at once {body}")
            if expected == 200:
                self.take(seat, body["value"])
                self.acked.add(body["tap"])

    @precondition(lambda self: self.at_tricks)
    @rule(data=st.data(), seat_first=st.booleans())
    def a_seat_and_the_scorer_at_once(self, data: st.DataObject, seat_first: bool) -> None:
        """The scorer saves the deal as a seat's count comes in: whichever writes first lands, and
        the other is refused naming the deal (the scorer's made on a screen the count changed)."""
        seat, deal = data.draw(st.sampled_from(list(SEATS))), self.at or 0
        body = self.tap(seat, deal, data.draw(st.integers(0, self.cards())))
        tricks = data.draw(adding_up(self.cards()))
        form = self.scorer_form(tricks)
        sends = [lambda client: self.by_api(client, seat, body),
                 lambda client: self.by_scorer(client, form)]
        answers = together(self.app, sends if seat_first else sends[::-1])
        seat_answer, scorer_answer = answers if seat_first else answers[::-1]
        if seat_first:
            self.check(seat_answer, 200, deal, f"seat first {body}")
            self.take(seat, body["value"])
            self.acked.add(body["tap"])
            self.check(scorer_answer, 409, deal, "the scorer after a seat")
        else:
            self.check(scorer_answer, 200, deal, "the scorer first")
            self.store_tricks(tricks)
            self.check(seat_answer, 409, deal, f"seat after the scorer {body}")

    @precondition(lambda self: self.at_tricks)
    @rule(data=st.data(), prefilled=st.booleans())
    def the_scorer_saves_the_tricks(self, data: st.DataObject, prefilled: bool) -> None:
        """Online: from the step as the page shows it now, pre-filled with the seats' counts (saved
        as they are when they add up), else with counts that do."""
        shown = [self.counts[seat] for seat in SEATS]
        tricks = (shown if prefilled and None not in shown and sum(shown) == self.cards()  # type: ignore[arg-type]
                  else data.draw(adding_up(self.cards())))
        answer = self.by_scorer(self.app.test_client(), self.scorer_form(tricks))  # type: ignore[arg-type]
        self.check(answer, 200, self.at or 0, "the scorer's tricks")
        self.store_tricks(tricks)  # type: ignore[arg-type]

    @precondition(lambda self: self.at_tricks and self.offline is None)
    @rule(data=st.data())
    def the_scorer_enters_the_tricks_and_loses_the_network(self, data: st.DataObject) -> None:
        """Entered on the page as it is now; the tap waits on the phone (its outbox)."""
        self.offline = {"deal": self.at, "version": self.version,
                        "form": self.scorer_form(data.draw(adding_up(self.cards())))}

    @precondition(lambda self: self.offline is not None)
    @rule(twice=st.booleans())
    def the_offline_scorers_tap_arrives(self, twice: bool) -> None:
        """Late: stored if nothing changed meanwhile, else refused naming its deal (a count came
        in, or the deal was stored); sent twice, stored once."""
        assert self.offline is not None
        deal, version, form = self.offline["deal"], self.offline["version"], self.offline["form"]
        self.offline = None
        fits = deal == self.at and version == self.version
        for _copy in range(2 if twice else 1):
            answer = self.by_scorer(self.app.test_client(), form)
            self.check(answer, 200 if fits else 409, deal, f"the offline scorer's {form['tap']}")
        if fits:
            self.store_tricks([int(form[f"tricks-{seat}"]) for seat in SEATS])

    @precondition(lambda self: any("tricks" in d for d in self.deals))
    @rule(data=st.data())
    def the_scorer_corrects_a_stored_deal(self, data: st.DataObject) -> None:
        """The counts waiting for the deal being played stay as they are."""
        number = data.draw(st.sampled_from([n for n, d in enumerate(self.deals, 1)
                                            if "tricks" in d]))
        deal = self.deals[number - 1]
        tricks = data.draw(st.permutations(deal["tricks"]))
        response = self.scorer.post(f"/g/{self.token}/deal/{number}", data={
            **self.posted(f"/deal/{number}"),
            **{f"bids-{seat}": bid for seat, bid in enumerate(deal["bids"])},
            **{f"tricks-{seat}": took for seat, took in enumerate(tricks)}})
        assert response.status_code == 302, message(response)
        deal["tricks"] = list(tricks)
        self.version += 1

    @invariant()
    def the_game_is_the_scorekeepers_and_nothing_is_lost(self) -> None:
        if not hasattr(self, "token"):
            return
        version, deals, _entries = self.stored()
        assert deals == self.deals
        assert self.waiting() == self.counts, "the counts waiting are what the seats entered"
        assert version == self.version, "one version per write, no more"
        for number, deal in enumerate(deals, 1):
            if "tricks" in deal:
                assert sum(deal["tricks"]) == self.schedule[number][0], "a stored deal adds up"


def test_seat_phones_and_the_scorer_enter_the_trick_counts_once_each_and_lose_none(
        app: Flask) -> None:
    stateful.run_state_machine_as_test(lambda: CountsModel(app), settings=MODEL)
