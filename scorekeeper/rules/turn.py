"""Where a game is at: the step its scorer enters next (the number of cards of a manual deal, a bid,
every bid at once, the tricks), or over. The game page shows it, and a tap lands only on it
(``changes.taps``)."""

from __future__ import annotations

from dataclasses import dataclass

from .gamefile import GameFile
from .schedule import Deal
from .state import DealResult


@dataclass(frozen=True)
class Screen:
    """The step the scorer is at: ``cards`` (manual size), ``bid``, ``bids`` (all at once), ``tricks``, ``over``."""

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
    if current is not None and all(current.bids[seat] is not None for seat in deal.seats(len(current.bids))):
        return Screen("tricks", deal, current)  # every player dealt in has bid
    return Screen("bids" if gamefile.rules.bidding.simultaneous else "bid", deal, current)
