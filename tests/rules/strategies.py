"""Hypothesis strategies for the rules tests: whole games with absences, legal by RULES.md, with
the independent reference's replay of each (reference.py)."""

from __future__ import annotations

from typing import Any

from hypothesis import assume
from hypothesis import strategies as st
from reference import Away, bidding_order, dealers, hook_forbids, present, replay

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]


def _absent(absences: list[Away]) -> list[dict[str, int]]:
    return [{"player": a.player, "from": a.first} | ({} if a.last is None else {"to": a.last})
            for a in absences]


@st.composite
def games(draw: st.DrawFn, stretches: int = 2) -> dict[str, Any]:
    """A valid game with absences (up to ``stretches`` away per player; 0: none): custom hand sizes
    of 1–3 cards, the hook, common scoring, legal bids among the players present, tricks adding
    up; its reference replay alongside."""
    players = draw(st.integers(3, 7))
    first_dealer = draw(st.integers(0, players - 1))
    sizes = draw(st.lists(st.integers(1, 3), min_size=1, max_size=10))
    horizon = len(sizes) + 3
    absences: list[Away] = []
    for seat in range(players):
        start = 1
        for _ in range(draw(st.integers(0, stretches))):
            if start > horizon:
                break
            first = draw(st.integers(start, horizon))
            last = draw(st.none() | st.integers(first, horizon))
            absences.append(Away(seat, first, last))
            if last is None:
                break
            start = last + 1
    assume(not any(a.player == first_dealer and a.covers(1) for a in absences))
    assume(all(len(present(players, absences, deal)) >= 2 for deal in range(1, horizon + 1)))
    played = draw(st.integers(0, len(sizes)))
    who = dealers(players, first_dealer, absences, played)
    bids: list[list[int | None]] = []
    tricks: list[list[int | None]] = []
    for number in range(1, played + 1):
        cards, seats, dealer = (sizes[number - 1], present(players, absences, number),
                                who[number - 1])
        deal_bids: list[int | None] = [None] * players
        earlier: list[int] = []
        for seat in bidding_order(players, dealer, seats):
            bid = draw(st.integers(0, cards))
            if seat == dealer and bid == hook_forbids(cards, earlier):
                bid = (bid + 1) % (cards + 1)
            deal_bids[seat] = bid
            earlier.append(bid)
        deal_tricks: list[int | None] = [None] * players
        for seat in seats:
            deal_tricks[seat] = 0
        for _ in range(cards):
            deal_tricks[draw(st.sampled_from(seats))] += 1  # type: ignore[operator]
        bids.append(deal_bids)
        tricks.append(deal_tricks)
    adjustments = [(deal, player, points) for deal, player, points in draw(st.lists(
        st.tuples(st.integers(1, max(played, 1)), st.integers(0, players - 1),
                  st.integers(-20, 20)),
        max_size=3)) if played]
    document = {
        "players": NAMES[:players], "first_dealer": first_dealer, "absent": _absent(absences),
        "rules": {"deal": "custom", "sequence": "-".join(map(str, sizes)), "bidding": "hook",
                  "scoring": "common"},
        "stakes": {"per_point": "1"},
        "adjustments": [{"deal": d, "player": p, "points": v, "reason": "house"}
                        for d, p, v in adjustments],
        "deals": [{"bids": b, "tricks": t} for b, t in zip(bids, tricks)],
    }
    reference = replay(players, first_dealer, sizes, absences, bids, tricks, adjustments)
    return {"document": document, "reference": reference, "sizes": sizes, "absences": absences,
            "players": players, "first_dealer": first_dealer}
