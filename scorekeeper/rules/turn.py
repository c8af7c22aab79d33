"""Where a game is at: the step its scorer enters next (the number of cards of a manual deal, a bid,
every bid at once, the tricks), or over. The game page shows it, and a tap lands only on it
(``changes.taps``). Whether a player may bid now (dealt in, not bid yet, their turn) is judged
here once, by ``bid_refusal``: the layer that writes a game asks it, and the game page's step data
(the bidding order and the bids) is what the phone shows the turn from."""

from __future__ import annotations

from dataclasses import dataclass

from .gamefile import GameFile
from .schedule import Deal
from .state import DealResult
from .words import _


@dataclass(frozen=True)
class Screen:
    """The step the scorer is at: ``cards`` (manual size), ``bid``, ``bids`` (all at once),
    ``tricks``, ``over``."""

    kind: str
    deal: Deal | None = None
    result: DealResult | None = None


def screen(gamefile: GameFile) -> Screen:
    """The screen a game is at, derived from its state alone (so a reload lands on the same one)."""
    state = gamefile.game
    current = state.current
    deal = current.deal if current else state.next_deal
    if state.finished or deal is None:
        return Screen("over")
    if deal.cards is None:
        return Screen("cards", deal, current)
    if current is not None and all(current.bids[seat] is not None
                                   for seat in deal.seats(len(current.bids))):
        return Screen("tricks", deal, current)  # every player dealt in has bid
    return Screen("bids" if gamefile.rules.bidding.simultaneous else "bid", deal, current)


def bid_refusal(gamefile: GameFile, seat: int) -> str | None:
    """Why the player at ``seat`` may not bid now, naming the deal: not dealt in, has bid already,
    or it is another player's turn (bids go clockwise from eldest hand); None when they may. Only
    for a game at a bid (``screen(...).kind == "bid"``).

    >>> from .gamefile import parse
    >>> game = parse({"players": ["Ann", "Bob", "Cy"],
    ...               "rules": {"deal": "fixed", "max_cards": 1, "deals": 1},
    ...               "deals": [{"bids": [None, 1, None]}]})
    >>> bid_refusal(game, 2) is None  # Ann deals: Bob bids first, then Cy
    True
    >>> bid_refusal(game, 1)
    'Bob has bid 1 in deal 1 already: this bid was not saved.'
    >>> bid_refusal(game, 0)
    "It is Cy's turn to bid in deal 1: Ann's bid was not saved."
    """
    step = screen(gamefile)
    assert step.deal is not None
    names, number = gamefile.players, step.deal.number
    order = step.deal.bidding_order(len(names))
    bids = step.result.bids if step.result else (None,) * len(names)
    if seat not in order:
        return _("That player is not dealt in at deal %(deal)s: this bid was not saved.",
                 deal=number)
    if bids[seat] is not None:
        return _("%(player)s has bid %(bid)s in deal %(deal)s already: this bid was not saved.",
                 player=names[seat], bid=bids[seat], deal=number)
    waiting = next((other for other in order if bids[other] is None), None)
    if waiting is not None and waiting != seat:
        return _("It is %(player)s's turn to bid in deal %(deal)s: %(other)s's bid was not saved.",
                 player=names[waiting], deal=number, other=names[seat])
    return None
