"""What the phone needs to enter the step the scorer is at (``rules.turn.screen``): the bid panel,
the step data of each deal the plan reaches (for entry offline).

Nothing here decides a rule: bids allowed, trumps and the bidding order all come from the rules
core.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from ..rules.bidding import announce, announce_forms, bid_check
from ..rules.gamefile import GameFile
from ..rules.schedule import Deal
from ..rules.state import DealResult, bid_options, next_bidder
from ..rules.turn import screen


@dataclass(frozen=True)
class BidPanel:
    """The bid buttons for the player bidding now, with the struck-out ones and why."""

    bidder: int
    order: list[int]
    bids: tuple[int | None, ...]
    buttons: list[tuple[int, bool]]
    reason: str
    bid_total: int
    announce: str


def bid_panel(gamefile: GameFile, deal: Deal, result: DealResult | None) -> BidPanel | None:
    """The bidding step of the deal being played, as the rules core sees it."""
    state = gamefile.game
    check = bid_options(state)
    bidder = next_bidder(state) if result else deal.eldest
    if check is None or bidder is None or deal.cards is None:
        return None
    bids = result.bids if result else (None,) * len(state.players)
    made = [b for b in bids if b is not None]
    return BidPanel(
        bidder, deal.bidding_order(len(state.players)), bids,
        [(b, b in check.allowed) for b in range(deal.cards + 1)],
        check.reason if len(check.allowed) <= deal.cards else "",
        sum(made), announce(made, deal.cards) if made else "",
    )


def tricks_guess(deal: Deal, bids: tuple[int | None, ...]) -> list[int]:
    """The trick counts to start from: everyone made their bid, the dealer has what is left.

    It is only a starting point for the scorer's taps; the rules core checks what is saved.

    >>> tricks_guess(Deal(1, 4, 3, 0, None), (1, 1, 1, 0))
    [1, 1, 1, 1]
    >>> tricks_guess(Deal(1, 2, 2, 0, None), (2, 2, 0))
    [2, 2, 0]
    """
    guess = [b or 0 for b in bids]
    cards = deal.cards or 0
    rest = cards - sum(g for seat, g in enumerate(guess) if seat != deal.dealer)
    if 0 <= rest <= cards:
        guess[deal.dealer] = rest
    return guess


def ranges(numbers: tuple[int, ...]) -> list[list[int]]:
    """Whole numbers in ascending order as runs of consecutive ones.

    >>> ranges((0, 1, 3)), ranges((2,)), ranges(())
    ([[0, 1], [3, 3]], [[2, 2]], [])
    """
    runs: list[list[int]] = []
    for number in numbers:
        if runs and runs[-1][1] == number - 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    return runs


def step_data(gamefile: GameFile, version: int) -> dict[str, Any] | None:
    """What a phone needs to show every step of the deal being played without asking the server
    (static/js/step.js looks everything up in it and decides nothing); None away from the bids and
    tricks (a manual deal's cards still to be said, the game over).

    ``order`` lists the players dealt in, in bidding order; ``bids`` the bids already stored, by
    seat. ``bidding`` has a list of runs per position in ``order``: ``[upto, allowed, reason]``
    holds for running totals (the sum of the bids before) up to ``upto``, the last run for every
    larger one; ``allowed`` are ranges of bids, ``reason`` an index into ``reasons`` (None when no
    bid is refused). ``announce`` is said of the bids by their total (its forms under, even and
    over, with the number of tricks left as ``%(tricks)s``); the tricks add up to
    ``tricks.total``, and the row of ``tricks.rest`` (the dealer) starts at what the others leave.
    ``plan`` names the game's plan (``plan_name``): the phone fetches the deals after this one
    (``deal_steps``) when it holds none of that name, to go on from deal to deal offline.

    >>> from ..rules.gamefile import parse
    >>> data = step_data(parse({"players": ["Ann", "Bob"], "rules": {"max_cards": 1}}), 3)
    >>> data["order"], data["bidding"]
    ([1, 0], [[[0, [[0, 1]], None]], [[0, [[0, 0]], 0], [1, [[1, 1]], 1]]])
    >>> data["reasons"][1], data["announce"], data["tricks"]
    ("Ann deals and can't bid 0: the bids would add up to the 1 trick (hook)",
     ('under by %(tricks)s', 'even', 'over by %(tricks)s'), {'total': 1, 'rest': 0})
    """
    step = screen(gamefile)
    deal, result = step.deal, step.result
    if step.kind not in ("bid", "bids", "tricks") or deal is None or deal.cards is None:
        return None
    names, cards = gamefile.players, deal.cards
    table, reasons = bidding_table(gamefile, deal)
    return {
        "version": version, "deal": deal.number, "cards": cards, "names": list(names),
        "dealer": deal.dealer, "order": deal.bidding_order(len(names)),
        "at_once": gamefile.rules.bidding.simultaneous,
        "bids": list(result.bids) if result else [None] * len(names),
        "bidding": table, "reasons": reasons,
        "announce": announce_forms(),
        "tricks": {"total": cards, "rest": deal.dealer},
        "plan": plan_name(gamefile),
    }


def bidding_table(gamefile: GameFile, deal: Deal) -> tuple[list[list[list[Any]]], list[str]]:
    """The bids the rules core allows each player of a deal, by position in the bidding order and
    running total, as runs (see ``step_data``), and the reasons of the bids it refuses."""
    names, cards, bidding = gamefile.players, deal.cards or 0, gamefile.rules.bidding
    reasons: list[str] = []
    table: list[list[list[Any]]] = []
    reachable = {0}  # the running totals the rules let the bids before reach
    for seat in deal.bidding_order(len(names)):
        runs: list[list[Any]] = []
        after: set[int] = set()
        # Bids shown at once don't follow each other: each is checked as the first.
        for total in sorted(reachable) if not bidding.simultaneous else [0]:
            check = bid_check(bidding, cards, [total], dealer=seat == deal.dealer, name=names[seat])
            after.update(total + bid for bid in check.allowed)
            reason = None
            if len(check.allowed) <= cards:  # some bid is refused: say why
                if check.reason not in reasons:
                    reasons.append(check.reason)
                reason = reasons.index(check.reason)
            run = [total, ranges(check.allowed), reason]
            if runs and runs[-1][1:] == run[1:]:
                runs[-1][0] = total
            else:
                runs.append(run)
        table.append(runs)
        reachable = after if not bidding.simultaneous else {0}
    return table, reasons


def correction_data(gamefile: GameFile, deal: Deal, bids: list[int | None]
                    ) -> tuple[dict[str, Any], list[tuple[list[int], str] | None]]:
    """What the page correcting a finished deal needs to strike out and sum up as the entry steps
    do (the rules core's answers, looked up by static/js/correct.js, which decides nothing); and
    by seat, the bids refused after the ``bids`` given before it and why, as the page is
    drawn (None where every bid is allowed), for the page without JavaScript.

    >>> from ..rules.gamefile import parse
    >>> file = parse({"players": ["Ann", "Bob"], "rules": {"max_cards": 1}})
    >>> data, struck = correction_data(file, file.game.schedule[0], [None, 0])
    >>> data["order"], struck[1], struck[0]
    ([1, 0], None, ([1], "Ann deals and can't bid 1: the bids would add up to the 1 trick (hook)"))
    """
    table, reasons = bidding_table(gamefile, deal)
    cards, order, bidding = (deal.cards or 0, deal.bidding_order(len(gamefile.players)),
                             gamefile.rules.bidding)
    struck: list[tuple[list[int], str] | None] = [None] * len(gamefile.players)
    before: list[int] = []
    for seat in order:
        check = bid_check(bidding, cards, [] if bidding.simultaneous else before,
                          dealer=seat == deal.dealer, name=gamefile.players[seat])
        if len(check.allowed) <= cards:
            struck[seat] = ([bid for bid in range(cards + 1) if bid not in check.allowed],
                            check.reason)
        before.append(bids[seat] or 0)
    return {"cards": cards, "names": list(gamefile.players), "dealer": deal.dealer, "order": order,
            "bidding": table, "reasons": reasons, "announce": announce_forms(),
            "tricks": {"total": cards, "rest": deal.dealer}}, struck


def deals_after(gamefile: GameFile) -> list[Deal]:
    """The deals after the one being played (or about to start) that are known whatever its points:
    the plan's, as far as a hand size is known and no trump must be said. None when the points
    decide what comes next (a cooperative game's re-deal, a tie-break); a game played to a target
    lists them all (the points may end it first: the server then refuses, naming the deal, what was
    entered for a deal never dealt).

    >>> from ..rules.gamefile import parse
    >>> [(d.number, d.cards)
    ...  for d in deals_after(parse({"players": ["Ann", "Bob"], "rules": {"max_cards": 2}}))]
    [(2, 1), (3, 2)]
    """
    state, rules = gamefile.game, gamefile.rules
    step = screen(gamefile)
    if step.deal is None or plan_name(gamefile) is None:
        return []
    known: list[Deal] = []
    for deal in state.schedule[step.deal.number:]:
        if deal.cards is None or (rules.spades_double and deal.trump is None):
            break
        known.append(deal)
    return known


def plan_name(gamefile: GameFile) -> str | None:
    """A short name of the game's plan as the rules core made it (every deal's hand, dealer and who
    is dealt in, the players, the rules): the same while it stays the same, as bids and tricks leave
    it; an arrival, a new plan or new rules change it. None when the points decide what comes next
    (a cooperative game's re-deals, a tie-break)."""
    state, rules = gamefile.game, gamefile.rules
    if rules.cooperative or state.tiebreak or state.finished:
        return None
    made = repr((state.schedule, gamefile.players, rules))
    return hashlib.blake2b(made.encode(), digest_size=9).hexdigest()


def deal_steps(gamefile: GameFile) -> list[dict[str, Any]]:
    """The data of each deal ``deals_after`` lists, as ``step_data`` gives the deal being played,
    so that a phone without a connection goes on from deal to deal (it decides nothing either)."""
    names = gamefile.players
    steps = []
    for deal in deals_after(gamefile):
        table, reasons = bidding_table(gamefile, deal)
        steps.append({"deal": deal.number, "cards": deal.cards, "dealer": deal.dealer,
                      "eldest": deal.eldest, "order": deal.bidding_order(len(names)),
                      "bidding": table, "reasons": reasons,
                      "tricks": {"total": deal.cards, "rest": deal.dealer}})
    return steps
