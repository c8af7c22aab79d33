"""The tap protocol, model-based: random runs of taps from one to three phones, each kept as the
outbox keeps them (static/js/outbox.js), posted through the test client to the real views, and a
careful scorekeeper who applies each tap once, on its own deal, exactly when the server first says
it stored it. After every step the stored game is what the scorekeeper has: no tap applied twice,
none on another deal, and every tap not applied was refused with a message naming its deal.

A phone draws its taps from the step data the server gave it (the page's ``step-data``, and
``deals.json`` for the deals after it, so it goes on from deal to deal offline), as step.js does:
bids the data allows, trick counts that add up. Its taps wait in a queue, each made on the version
before it plus one, and go out in order; the first refusal stops the queue, and it and every tap
after it wait in the phone's "not saved" list with the deal they were made for.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, assume, event, given, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from webhelpers import (
    FOUR,
    VERSION,
    Scorer,
    csrf_from,
    hostile_text,
    message,
    snapshot,
    together,
    within_cpu,
)

from scorekeeper.rules import values
from scorekeeper.rules.errors import RulesError
from scorekeeper.store.db import db
from scorekeeper.store.games import Game, GameTap

Start = Callable[..., Scorer]
STEP_DATA = re.compile(r'<script type="application/json" id="step-data" '
                       r'data-game="[^"]+">([^<]*)</script>')

#: Games whose deals are quick to enter: bids in turn under the hook (four and three players), and
#: bids shown at once.
GAMES = [
    {"players": FOUR, "rules": {"max_cards": 2}},
    {"players": ["Ann", "Bob", "Cy"], "rules": {"max_cards": 3, "deal": "down"}},
    {"players": FOUR, "rules": {"preset": "british-oh-hell", "deal": "down", "max_cards": 3}},
]

#: Deterministic in CI: the same runs every time, none kept from an earlier one.
MODEL = settings(max_examples=50, stateful_step_count=60, deadline=None, derandomize=True,
                 database=None, suppress_health_check=[HealthCheck.too_slow])


def step_data(page: str) -> dict[str, Any]:
    """The step data a game page carries (``{"version": n}`` alone once the game is over)."""
    found = STEP_DATA.search(page)
    assert found, "the game page carries no step data"
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def names_deal(said: str, deal: int) -> bool:
    return re.search(rf"\b[Dd]eal {deal}\b", said) is not None


def allowed(d: dict[str, Any], position: int, total: int) -> list[int]:
    """The bids the data allows the bidder at ``position`` after bids adding up to ``total``
    (step.js)."""
    runs = d["bidding"][position]
    run = next((r for r in runs if total <= r[0]), runs[-1])
    return [bid for low, high in run[1] for bid in range(low, high + 1)]


@dataclass(eq=False)
class Tap:
    """One tap as the outbox keeps it, and what became of it."""

    id: str
    phone: int
    kind: str  # bid, bids, tricks, undo
    deal: int
    version: int
    fields: dict[str, str]
    # (status, message) of every copy sent
    answers: list[tuple[int, str]] = field(default_factory=list)
    applied: bool = False  # the server's first 302 for its id: the scorekeeper applied it then
    after: bool = False  # never sent: an earlier tap of its phone was refused

    def __str__(self) -> str:
        shown = " ".join(f"{k}={v}" for k, v in self.fields.items())
        return (f"phone {self.phone} {self.kind} deal {self.deal} v{self.version} {shown} "
                f"[{self.id}]")


@dataclass
class View:
    """Where a phone's taps leave it (step.js ``state``): the deal's data, its bids, the step."""

    d: dict[str, Any]
    bids: list[int | None]
    kind: str  # bid, bids, tricks, or sent (the next deal waits for the server)

    @property
    def entered(self) -> list[int]:
        return [p for p in self.d["order"] if self.bids[p] is not None]

    @property
    def total(self) -> int:
        return sum(self.bids[p] or 0 for p in self.entered)


@dataclass
class Phone:
    number: int
    client: FlaskClient
    csrf: str
    session: str  # the session cookie: the same phone on another connection
    base: dict[str, Any]
    plan: dict[str, Any] | None = None
    queue: list[Tap] = field(default_factory=list)
    unsaved: list[Tap] = field(default_factory=list)
    online: bool = True

    def pending(self) -> list[Tap]:
        """The queued taps made on the game as the server last showed it (outbox ``pending``)."""
        return [tap for tap in self.queue if tap.version >= self.base["version"]]

    def next_version(self) -> int:
        return self.queue[-1].version + 1 if self.queue else int(self.base["version"])

    def deal_data(self, number: int) -> dict[str, Any] | None:
        if number == self.base["deal"]:
            return self.base
        plan = self.plan
        if not plan or plan["plan"] != self.base.get("plan"):
            return None
        found = next((d for d in plan["deals"] if d["deal"] == number), None)
        if found is None:
            return None
        return {**found, **{k: self.base[k] for k in ("names", "at_once", "version", "announce")}}

    def view(self) -> View | None:
        """The deal and step the phone is at: the server's data, then its pending taps."""
        if "order" not in self.base:
            return None  # the game is over
        d, bids, sent = self.base, list(self.base["bids"]), False
        for tap in self.pending():
            if tap.deal != d["deal"]:
                continue
            entered = [p for p in d["order"] if bids[p] is not None]
            if tap.kind == "bid":
                bids[int(tap.fields["seat"])] = int(tap.fields["bid"])
            elif tap.kind == "bids":
                for p in d["order"]:
                    bids[p] = int(tap.fields[f"bids-{p}"])
            elif tap.kind == "undo":
                for p in entered if d["at_once"] else entered[-1:]:
                    bids[p] = None
            elif tap.kind == "tricks":
                following = self.deal_data(d["deal"] + 1)
                if following is None:
                    sent = True
                else:
                    d, bids = following, [None] * len(bids)
        nobody = next((p for p in d["order"] if bids[p] is None), None)
        kind = "sent" if sent else "tricks" if nobody is None else "bids" if d["at_once"] else "bid"
        return View(d, bids, kind)


@dataclass
class Deal:
    bids: list[int | None]
    tricks: list[int | None] | None = None
    #: (bids or tricks, seat, value) that taps made for this deal and corrections of it entered.
    sources: set[tuple[str, int, int]] = field(default_factory=set)


class Scorekeeper:
    """The careful scorekeeper: the game as it should be, from the taps the server said it
    stored."""

    def __init__(self, schedule: dict[int, dict[str, Any]], players: int) -> None:
        self.schedule, self.players, self.version = schedule, players, 1
        self.deals = {n: Deal([None] * players) for n in schedule}
        self.applied: set[str] = set()

    def at(self) -> int | None:
        """The deal being played; None when the game is over."""
        return next((n for n in sorted(self.deals) if self.deals[n].tricks is None), None)

    def refusal(self, tap: Tap) -> str | None:
        """Why the server must refuse a tap not stored before; None when it must store it."""
        at = self.at()
        if at is None:
            return "the game is over"
        if tap.deal != at:
            return f"the game is at deal {at}"
        d, deal = self.schedule[at], self.deals[at]
        order, at_once = d["order"], d["at_once"]
        entered = [p for p in order if deal.bids[p] is not None]
        step = "tricks" if len(entered) == len(order) else "bids" if at_once else "bid"
        if tap.kind in ("bid", "bids") and step == "tricks":
            return "the bids are all in"
        if tap.kind == "tricks" and step != "tricks":
            return "the deal is still at the bids"
        if tap.kind == "bid" and int(tap.fields["seat"]) != order[len(entered)]:
            return "it is another player's turn"
        if tap.kind == "undo" and not entered:
            return "there is no bid to take back"
        if tap.kind == "undo" and not at_once and int(tap.fields["seat"]) != entered[-1]:
            return "the last bid is another player's"
        if tap.version != self.version:
            return f"made on version {tap.version}, the game is at {self.version}"
        total = sum(deal.bids[p] or 0 for p in entered)
        if tap.kind == "bid" and int(tap.fields["bid"]) not in allowed(d, len(entered), total):
            return "the rules refuse the bid"
        if tap.kind == "bids" and any(int(tap.fields[f"bids-{p}"]) not in allowed(d, i, 0)
                                      for i, p in enumerate(order)):
            return "the rules refuse a bid"
        if (tap.kind == "tricks"
                and sum(int(tap.fields[f"tricks-{p}"]) for p in order) != d["cards"]):
            return "the tricks don't add up"
        return None

    def apply(self, tap: Tap) -> None:
        deal, d = self.deals[tap.deal], self.schedule[tap.deal]
        entered = [p for p in d["order"] if deal.bids[p] is not None]
        if tap.kind == "bid":
            deal.bids[int(tap.fields["seat"])] = int(tap.fields["bid"])
        elif tap.kind in ("bids", "tricks"):
            numbers: list[int | None] = [None] * self.players
            for p in d["order"]:
                numbers[p] = int(tap.fields[f"{tap.kind}-{p}"])
            if tap.kind == "bids":
                deal.bids = numbers
            else:
                deal.tricks = numbers
        elif tap.kind == "undo":
            for p in entered if d["at_once"] else entered[-1:]:
                deal.bids[p] = None
        self._entered(tap.deal)
        self.version += 1
        self.applied.add(tap.id)

    def correct(self, number: int, tricks: list[int | None]) -> None:
        self.deals[number].tricks = tricks
        self._entered(number)
        self.version += 1

    def _entered(self, number: int) -> None:
        deal = self.deals[number]
        for kind, entries in (("bids", deal.bids), ("tricks", deal.tricks or [])):
            deal.sources.update((kind, seat, value) for seat, value in enumerate(entries)
                                if value is not None)

    def stored_form(self) -> list[dict[str, Any]]:
        """The deals as the game file stores them: those with something entered, in order."""
        return [{"bids": deal.bids, "tricks": deal.tricks} for _, deal in sorted(self.deals.items())
                if deal.tricks is not None or any(b is not None for b in deal.bids)]


class TapsModel(RuleBasedStateMachine):
    """One game, one to three phones with their outboxes, another phone that corrects finished
    deals."""

    def __init__(self, app: Flask) -> None:
        super().__init__()
        self.app = app
        self.phones: list[Phone] = []
        self.taps: list[Tap] = []
        self.count = 0

    # -- the table --------------------------------------------------------------------------------

    @initialize(game=st.sampled_from(GAMES), phones=st.integers(1, 3))
    def start(self, game: dict[str, Any], phones: int) -> None:
        table = self.app.test_client()
        created = table.post("/api/games", json=game)
        assert created.status_code == 201, created.get_json()
        self.token = created.get_json()["links"]["edit"].rsplit("/", 1)[1]
        self.url = f"/g/{self.token}"
        self.corrector = table
        first = step_data(self.page(table))
        later = table.get(self.url + "/deals.json").get_json()["deals"]
        schedule = {first["deal"]: first,
                    **{d["deal"]: {**d, "at_once": first["at_once"]} for d in later}}
        self.model = Scorekeeper(schedule, len(game["players"]))
        for number in range(phones):
            client = self.app.test_client()
            page = self.page(client)
            cookie = client.get_cookie("session")
            assert cookie is not None
            phone = Phone(number, client, csrf_from(page), cookie.value, step_data(page))
            self.rebase(phone, phone.base)
            self.phones.append(phone)

    def page(self, client: FlaskClient) -> str:
        response = client.get(self.url)
        assert response.status_code == 200, response.status_code
        return response.get_data(as_text=True)

    def stored(self) -> tuple[int, list[dict[str, Any]]]:
        """The game's version and deals (bids and tricks) as stored."""
        with self.app.app_context():
            data, version = db.session.execute(
                db.select(Game.data, Game.version).where(Game.token == self.token)).one()
            db.session.remove()
        deals = [{"bids": d["bids"], "tricks": d.get("tricks")}
                 for d in json.loads(data).get("deals", [])]
        return version, deals

    # -- a phone and its outbox -------------------------------------------------------------------

    def rebase(self, phone: Phone, data: dict[str, Any]) -> None:
        """The server's data of the game as it is now; the plan fetched when it names another one;
        the taps not saved of the deals the server has finished forgotten (outbox ``rebase``)."""
        phone.base = data
        if (phone.online and data.get("plan")
                and (phone.plan is None or phone.plan["plan"] != data["plan"])):
            phone.plan = phone.client.get(self.url + "/deals.json").get_json()
        at = data["deal"] if "order" in data else float("inf")
        phone.unsaved = [tap for tap in phone.unsaved if tap.deal >= at]

    def add(self, phone: Phone, kind: str, deal: int, fields: dict[str, Any]) -> Tap:
        self.count += 1
        tap = Tap(f"p{phone.number}-tap-{self.count:05d}", phone.number, kind, deal,
                  phone.next_version(), {name: str(value) for name, value in fields.items()})
        phone.queue.append(tap)
        self.taps.append(tap)
        note(f"made: {tap}")
        return tap

    def tap_step(self, phone: Phone, data: st.DataObject) -> None:
        """The tap the phone's step asks for, drawn from its data as the page offers it."""
        view = phone.view()
        assert view is not None and view.kind in ("bid", "bids", "tricks")
        d, order = view.d, view.d["order"]
        if view.kind == "bid":
            seat = next(p for p in order if view.bids[p] is None)
            bid = data.draw(st.sampled_from(allowed(d, order.index(seat), view.total)), "bid")
            self.add(phone, "bid", d["deal"], {"seat": seat, "bid": bid})
        elif view.kind == "bids":
            bids = {f"bids-{p}": data.draw(st.sampled_from(allowed(d, i, 0)), "bid")
                    for i, p in enumerate(order)}
            self.add(phone, "bids", d["deal"], bids)
        else:  # each trick to a player: the counts add up
            winners = data.draw(st.lists(st.sampled_from(order), min_size=d["cards"],
                                         max_size=d["cards"]), "tricks")
            self.add(phone, "tricks", d["deal"], {f"tricks-{p}": winners.count(p) for p in order})

    def tappable(self) -> list[Phone]:
        return [p for p in self.phones if (v := p.view()) is not None and v.kind != "sent"]

    def undoable(self) -> list[Phone]:
        """The phones online, with nothing waiting, at a bid they can take back."""
        return [p for p in self.tappable() if p.online and not p.queue and p.view().entered]  # type: ignore[union-attr]

    def sendable(self) -> list[Phone]:
        return [p for p in self.phones if p.online and p.queue]

    def form(self, phone: Phone, tap: Tap) -> dict[str, Any]:
        return {"csrf_token": phone.csrf, "version": tap.version, "deal": tap.deal,
                "tap": tap.id, **tap.fields}

    def post(self, phone: Phone, tap: Tap) -> tuple[int, str, str]:
        """Post a tap: its status, the message of a refusal, and the page."""
        response = phone.client.post(f"{self.url}/{tap.kind}", data=self.form(phone, tap))
        return response.status_code, message(response), response.get_data(as_text=True)

    def at_once(self, sends: list[tuple[Phone, Tap]]) -> list[tuple[int, str, str]]:
        """Post two taps at the same moment, from two threads (each with its phone's session): both
        are let past the checks before either writes, and the first writes first."""

        def post(phone: Phone, tap: Tap) -> Callable[[FlaskClient], tuple[int, str, str]]:
            def send(client: FlaskClient) -> tuple[int, str, str]:
                client.set_cookie("session", phone.session)
                response = client.post(f"{self.url}/{tap.kind}", data=self.form(phone, tap))
                return response.status_code, message(response), response.get_data(as_text=True)
            return send

        answers = together(self.app, [post(phone, tap) for phone, tap in sends])
        assert answers[0] is not None and answers[1] is not None, "a tap sent at once got no answer"
        return [answers[0], answers[1]]

    def expect(self, tap: Tap) -> str | None:
        """Why the server must refuse a tap, as the game is now; None: answered stored."""
        return None if tap.id in self.model.applied else self.model.refusal(tap)

    def take(self, phone: Phone, tap: Tap, answers: list[tuple[int, str, str]], why: str | None,
             before: tuple[int, list[dict[str, Any]]] | None = None) -> bool:
        """Check the answers to a tap (one per copy sent) against what the scorekeeper expects, and
        take them as the outbox does; False when refused. ``before``: the stored game before it was
        sent."""
        known = tap.id in self.model.applied
        note(f"sent x{len(answers)}: {tap} -> {[answer[:2] for answer in answers]}")
        event(f"{tap.kind}: {'stored before' if known else why or 'stored'}")
        for status, said, _page in answers:
            tap.answers.append((status, said))
            if why is None:
                assert status == 302, (
                    f"{tap}: answered {status} ({said!r}), but it fits its deal and version")
            else:
                assert status != 302, f"{tap}: stored, but {why}"
                assert status in (409, 422), f"{tap}: answered {status} ({said!r})"
                assert names_deal(said, tap.deal), (
                    f"{tap}: refused without naming deal {tap.deal}: {said!r}")
        status, _said, page = answers[-1]
        if status == 302:
            if known and before is not None:
                assert self.stored() == before, (
                    f"{tap}: stored before, yet sent again it changed the game")
            if not known:
                self.model.apply(tap)
                tap.applied = True
            phone.queue.pop(0)
            self.rebase(phone, step_data(self.page(phone.client)))
            return True
        for later in phone.queue[1:]:
            later.after = True
        phone.unsaved += phone.queue
        phone.queue = []
        self.rebase(phone, step_data(page))  # a refusal answers with the game's page as it is now
        return False

    def deliver(self, phone: Phone, copies: int = 1, at_once: bool = False) -> bool:
        """Send the head of a phone's queue (``copies`` times in a row, or two copies at once) and
        take the answer as the outbox does; False when refused."""
        tap = phone.queue[0]
        why, before = self.expect(tap), self.stored()
        if len({t.deal for t in phone.queue}) > 2:
            event("a queue of taps for three deals or more")
        answers = (self.at_once([(phone, tap)] * 2) if at_once
                   else [self.post(phone, tap) for _ in range(copies)])
        return self.take(phone, tap, answers, why, before)

    def choose(self, data: st.DataObject, phones: list[Phone]) -> Phone:
        return self.phones[data.draw(st.sampled_from([phone.number for phone in phones]), "phone")]

    # -- the rules --------------------------------------------------------------------------------

    @precondition(lambda self: self.tappable())
    @rule(data=st.data(), what=st.sampled_from(["the step", "the step", "an undo"]))
    def tap(self, data: st.DataObject, what: str) -> None:
        """A phone taps what its step asks for (a bid, the bids at once, the tricks), or takes back
        its last bid (every bid, when they were shown at once) if it has one."""
        phone = self.choose(data, self.tappable())
        view = phone.view()
        assert view is not None
        if what == "an undo" and view.entered:
            self.add(phone, "undo", view.d["deal"],
                     {} if view.d["at_once"] else {"seat": view.entered[-1]})
        else:
            self.tap_step(phone, data)

    @precondition(lambda self: self.tappable())
    @rule(data=st.data())
    def enter_a_whole_deal(self, data: st.DataObject) -> None:
        """A phone enters the rest of its deal (online or not), up to the tricks: the next deal is
        its data's, from the plan."""
        phone = self.choose(data, self.tappable())
        deal = phone.view().d["deal"]  # type: ignore[union-attr]
        while (view := phone.view()) is not None and view.kind != "sent" and view.d["deal"] == deal:
            self.tap_step(phone, data)

    @precondition(lambda self: self.undoable())
    @rule(data=st.data())
    def an_undo_entered_again_after_its_answer_was_lost(self, data: st.DataObject) -> None:
        """A phone takes back its last bid and sends it; its answer lost, the undo is entered again
        as a new tap, as the outbox did before (finding 2): it must not take back a second bid."""
        phone = self.choose(data, self.undoable())
        view = phone.view()
        assert view is not None
        undo = self.add(phone, "undo", view.d["deal"],
                        {} if view.d["at_once"] else {"seat": view.entered[-1]})
        if self.deliver(phone) and undo.applied:
            self.add(phone, "undo", undo.deal, undo.fields)
            self.deliver(phone)

    @precondition(lambda self: self.sendable())
    @rule(data=st.data(), how=st.sampled_from(["once", "twice in a row", "two copies at once"]))
    def send(self, data: st.DataObject, how: str) -> None:
        """A phone sends the first tap of its queue: once; twice in a row (the first answer was
        lost); or two copies at once (resent while the first is still being handled)."""
        self.deliver(self.choose(data, self.sendable()), copies=1 if how == "once" else 2,
                     at_once=how == "two copies at once")

    @precondition(lambda self: self.sendable())
    @rule(data=st.data())
    def sync(self, data: st.DataObject) -> None:
        """A phone sends its queue in order, until it is empty or a tap is refused."""
        phone = self.choose(data, self.sendable())
        while phone.queue and self.deliver(phone):
            pass

    @precondition(lambda self: len(self.sendable()) > 1)
    @rule(data=st.data())
    def two_phones_send_at_once(self, data: st.DataObject) -> None:
        """Two phones send the first taps of their queues at the same moment: both are checked on
        the game as it was; the second, if it fits too, finds the game changed by the first when it
        writes."""
        first = self.choose(data, self.sendable())
        second = self.choose(data, [p for p in self.sendable() if p is not first])
        taps = first.queue[0], second.queue[0]
        whys = self.expect(taps[0]), self.expect(taps[1])  # both checked on the game as it is now
        writes = [why is None and tap.id not in self.model.applied for tap, why in zip(taps, whys)]
        answers = self.at_once([(first, taps[0]), (second, taps[1])])
        self.take(first, taps[0], answers[:1], whys[0])
        self.take(second, taps[1], answers[1:],
                  "another phone's tap wrote first" if all(writes) else whys[1])

    @precondition(lambda self: any(tap.applied for tap in self.taps))
    @rule(data=st.data())
    def resend_a_stored_tap(self, data: st.DataObject) -> None:
        """A tap the server stored, however long ago, sent again: answered stored, nothing
        changes."""
        tap = self.taps[data.draw(
            st.sampled_from([i for i, tap in enumerate(self.taps) if tap.applied]), "tap")]
        phone = self.phones[tap.phone]
        before = self.stored()
        response = phone.client.post(f"{self.url}/{tap.kind}", data=self.form(phone, tap))
        note(f"resent: {tap} -> {response.status_code}")
        tap.answers.append((response.status_code, message(response)))
        event("a stored tap sent again")
        assert response.status_code == 302, (
            f"{tap}: stored, but sent again answered {message(response)!r}")
        assert self.stored() == before, f"{tap}: stored before, yet sent again it changed the game"

    @precondition(lambda self: self.phones)
    @rule(data=st.data())
    def go_offline_or_online(self, data: st.DataObject) -> None:
        """A phone loses its connection (it goes on entering, deal after deal), or has it back."""
        phone = self.choose(data, self.phones)
        phone.online = not phone.online

    @precondition(lambda self: any(p.online for p in self.phones))
    @rule(data=st.data())
    def reload(self, data: st.DataObject) -> None:
        """A phone shows the game as the server has it now (its queue stays)."""
        phone = self.choose(data, [p for p in self.phones if p.online])
        self.rebase(phone, step_data(self.page(phone.client)))

    @precondition(lambda self: any(p.unsaved for p in self.phones))
    @rule(data=st.data())
    def enter_again_or_discard(self, data: st.DataObject) -> None:
        """A tap not saved, entered again as a new tap for its own deal where the outbox offers it
        (Step.fits: it fits the deal and step the phone is at; never an undo), else discarded."""
        phone = self.choose(data, [p for p in self.phones if p.unsaved])
        tap = phone.unsaved.pop(data.draw(st.integers(0, len(phone.unsaved) - 1), "not saved"))
        view = phone.view()
        fits = (view is not None and tap.kind == view.kind and tap.deal == view.d["deal"]
                and (tap.kind != "bid"
                     or (int(tap.fields["seat"]) == view.d["order"][len(view.entered)]
                         and int(tap.fields["bid"]) in allowed(view.d, len(view.entered),
                                                               view.total))))
        if fits and tap.kind != "undo":
            self.add(phone, tap.kind, tap.deal, tap.fields)
        else:
            note(f"discarded: {tap}")

    @precondition(lambda self: self.taps)
    @rule(data=st.data(), which=st.sampled_from(["the last it stored", "an undo", "any"]))
    def an_older_page_enters_a_tap_again(self, data: st.DataObject, which: str) -> None:
        """A tap made before, stored or not, an undo too, entered again blindly as a new tap for its
        deal, whatever the phone is at now: as the outbox did before taps named their deal (finding
        1), and with a stored tap whose answer was lost, which it listed as not saved (finding 2).
        The server applies it only where it fits, or refuses it naming its deal."""
        phone = self.choose(data, [p for p in self.phones
                                   if any(tap.phone == p.number for tap in self.taps)])
        made = [tap for tap in self.taps if tap.phone == phone.number]
        stored, undos = ([tap for tap in made if tap.applied],
                         [tap for tap in made if tap.kind == "undo"])
        if which == "the last it stored" and stored:
            tap = stored[-1]
        else:
            choices = undos if which == "an undo" and undos else made
            tap = choices[data.draw(st.integers(0, len(choices) - 1), "tap")]
        self.add(phone, tap.kind, tap.deal, tap.fields)

    @precondition(lambda self: any(d.tricks is not None for d in self.model.deals.values()))
    @rule(data=st.data())
    def correct_a_finished_deal(self, data: st.DataObject) -> None:
        """Another phone moves a trick from one player to another in a finished deal."""
        finished = [n for n, d in self.model.deals.items() if d.tricks is not None]
        number = data.draw(st.sampled_from(finished), "deal corrected")
        deal, order = self.model.deals[number], self.model.schedule[number]["order"]
        tricks = list(deal.tricks or [])
        giver = data.draw(st.sampled_from([p for p in order if tricks[p]]), "from")
        taker = data.draw(st.sampled_from([p for p in order if p != giver]), "to")
        tricks[giver], tricks[taker] = (tricks[giver] or 0) - 1, (tricks[taker] or 0) + 1
        page = self.corrector.get(f"{self.url}/deal/{number}").get_data(as_text=True)
        version = VERSION.search(page)
        assert version and int(version.group(1)) == self.model.version
        form = {"csrf_token": csrf_from(page), "version": version.group(1), "trump": "",
                **{f"bids-{p}": deal.bids[p] for p in order},
                **{f"tricks-{p}": tricks[p] for p in order}}
        response = self.corrector.post(f"{self.url}/deal/{number}", data=form)
        note(f"corrected deal {number}: tricks {tricks} -> {response.status_code}")
        assert response.status_code == 302, message(response)
        self.model.correct(number, tricks)

    def teardown(self) -> None:
        """Every phone has its connection back and sends what it holds, in order; then the stored
        game is checked once more (not after a failed step: that failure is the one reported)."""
        if sys.exc_info()[0] is not None or not hasattr(self, "model"):
            return
        for phone in self.phones:
            phone.online = True
            while phone.queue and self.deliver(phone):
                pass
        self.no_tap_lands_on_another_deal()
        self.the_stored_game_is_the_careful_scorekeepers()
        self.every_tap_not_applied_is_refused_naming_its_deal_or_waits()

    # -- what must hold after every step ----------------------------------------------------------

    @invariant()
    def no_tap_lands_on_another_deal(self) -> None:
        if not hasattr(self, "model"):
            return
        _version, deals = self.stored()
        for number, stored in enumerate(deals, start=1):
            sources = self.model.deals[number].sources
            for kind in ("bids", "tricks"):
                for seat, value in enumerate(stored[kind] or []):
                    assert value is None or (kind, seat, value) in sources, (
                        f"deal {number} holds {kind[:-1]} {value} of seat {seat}, which no tap for "
                        f"deal {number} and no correction of it entered")

    @invariant()
    def the_stored_game_is_the_careful_scorekeepers(self) -> None:
        """Each tap applied once, when its id was first answered stored; nothing else changed it."""
        if not hasattr(self, "model"):
            return
        version, deals = self.stored()
        assert deals == self.model.stored_form(), "the stored deals are not the scorekeeper's"
        assert version == self.model.version, "the game's version counts another number of changes"

    @invariant()
    def every_tap_not_applied_is_refused_naming_its_deal_or_waits(self) -> None:
        queued = {tap.id for phone in self.phones for tap in phone.queue}
        for tap in self.taps:
            refusals = [said for status, said in tap.answers if status != 302]
            if tap.applied:
                assert not refusals, f"{tap} was stored, yet answered {refusals[0]!r}"
                continue
            assert all(names_deal(said, tap.deal) for said in refusals), f"{tap}: {refusals}"
            assert tap.id in queued or refusals or tap.after, (
                f"{tap}: neither stored, waiting nor refused")
            assert not any(status == 302 for status, _ in tap.answers), (
                f"{tap}: answered stored, not stored")


def test_taps_from_one_to_three_phones_land_once_on_their_own_deal_or_say_why_not(
        app: Flask) -> None:
    run_state_machine_as_test(lambda: TapsModel(app), settings=MODEL)


# -- a tap with hostile fields --------------------------------------------------------------------

#: A tap the server stores, as it is: its route, its game's rules and bids entered (Bob's first, by
#: a tap of id ``FIRST_TAP``; none for the bids shown at once), and its fields but the version and
#: id.
STORED = {
    "bid": ("/bid", {"max_cards": 2}, [None, 1, None, None],
            {"deal": "1", "seat": "2", "bid": "1"}),
    "undo": ("/undo", {"max_cards": 2}, [None, 1, None, None], {"deal": "1", "seat": "1"}),
    "tricks": ("/tricks", {"max_cards": 2}, [0, 1, 0, 0],
               {"deal": "1", "tricks-0": "1", "tricks-1": "1", "tricks-2": "0", "tricks-3": "0"}),
    "bids": ("/bids", {"preset": "british-oh-hell", "max_cards": 2}, None,
             {"deal": "1", "bids-0": "0", "bids-1": "1", "bids-2": "0", "bids-3": "1"}),
    "trump": ("/trump", {"max_cards": 2}, [None, 1, None, None], {"deal": "1", "trump": "H"}),
}
FIRST_TAP = "bob-bids-one"


def hostile_game(start: Start, case: str) -> tuple[Scorer, dict[str, str]]:
    """The game of a case and its stored tap's form (CSRF token, version, a new tap id)."""
    _path, rules, bids, fields = STORED[case]
    game = start(rules=rules)
    if bids is not None:
        page = game.page()
        first = {"csrf_token": csrf_from(page), "version": "1", "deal": "1", "seat": "1",
                 "bid": "1", "tap": FIRST_TAP}
        assert game.client.post(game.url + "/bid", data=first).status_code == 302
        for value in bids[2:] + bids[:1]:  # Cy, Dee, then Ann
            if value is not None:
                game.bid(value)
    form = {"csrf_token": csrf_from(game.page()), "version": str(game.version()),
            "tap": "a-new-tap-0001", **fields}
    return game, form


def taps_kept(app: Flask) -> list[tuple[int, str, int]]:
    with app.app_context():
        rows = db.session.execute(db.select(GameTap.game_id, GameTap.tap, GameTap.version)).all()
    return sorted(tuple(row) for row in rows)  # type: ignore[misc]


@pytest.mark.parametrize("case", sorted(STORED))
def test_each_tap_the_hostile_fields_go_into_is_stored_as_it_is(
        app: Flask, start: Start, case: str) -> None:
    """The taps below refuse only because of the hostile field: as they are, each is stored."""
    game, form = hostile_game(start, case)
    version = game.version()
    response = game.client.post(game.url + STORED[case][0], data=form)
    assert response.status_code == 302, message(response)
    assert game.version() == version + 1


def reads_as(text: str, number: int) -> bool:
    """Whether the server reads a field's text as this number (then the tap is the stored one)."""
    try:
        return values.whole(text, "field", 0, 10**9) == number
    except RulesError:
        return False


#: (case, field): a hostile deal, seat or version in a tap that is stored as it is; a hostile id in
#: Bob's bid.
FIELDS = [("bid", "tap"),
          *((case, name) for case in sorted(STORED) for name in ("deal", "seat", "version")
            if name in STORED[case][3] or name == "version")]


@settings(max_examples=120, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.sampled_from(FIELDS), value=hostile_text)
def test_a_tap_with_a_hostile_deal_seat_tap_or_version_is_refused_with_a_message_and_stores_nothing(
        app: Flask, start: Start, where: tuple[str, str], value: str) -> None:
    """A hostile deal, seat or version in a tap that would be stored; a hostile tap id in the tap
    already stored (Bob's bid sent again as a new tap): it is no id the game stored."""
    case, name = where
    game, form = hostile_game(start, case)
    valid = {"deal": 1, "seat": int(form.get("seat", -1)), "version": int(form["version"])}
    if name == "tap":
        assume(value != FIRST_TAP)  # that id is the tap stored: answered stored, as it should be
        path, form = "/bid", {**form, "seat": "1", "tap": value}
    else:
        assume(not reads_as(value, valid[name]))  # the very field of the stored tap
        path, form = STORED[case][0], {**form, name: value}
    before, kept = snapshot(app), taps_kept(app)
    with within_cpu():
        response = game.client.post(game.url + path, data=form)
    assert response.status_code in (409, 422), (response.status_code, message(response))
    assert message(response), "a refusal without a message"
    assert snapshot(app) == before and taps_kept(app) == kept
