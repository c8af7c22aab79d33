"""A game's state as a replay leaves it, and its parts: the deals entered, their results, the
absences and adjustments, the standings, and whose bid comes next (RULES.md §1, §2, §5, §7).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import NamedTuple

from .bidding import BidCheck, announce, bid_check
from .errors import GameError
from .presets import Rules
from .schedule import Deal
from .scoring import Points
from .words import _


class DealRefused(GameError):
    """A deal that breaks a rule; the message starts with the deal's 1-based number."""

    def __init__(self, deal: int, reason: str) -> None:
        super().__init__(_("deal %(deal)s: %(reason)s", deal=deal, reason=reason))
        self.deal = deal
        self.reason = reason


class DealInput(NamedTuple):
    """What the scorer entered for one deal; bids and tricks are in seating order.

    The records a replay makes by the hundred (DealInput, DealResult, Deal) are named tuples:
    as immutable as frozen dataclasses, and several times cheaper to make.
    """

    bids: tuple[int | None, ...]
    tricks: tuple[int | None, ...] | None = None
    trump: str | None = None
    cards: int | None = None


class Absence(NamedTuple):
    """A player not dealt in from deal ``first`` to deal ``last`` (1-based and inclusive; ``last``
    None: to the end of the game): a late arrival, a player who left, or one who sits out."""

    player: int
    first: int
    last: int | None = None

    def covers(self, number: int) -> bool:
        """Whether the player is away at deal ``number``.

        >>> Absence(2, 5).covers(9), Absence(2, 5, 6).covers(7), Absence(2, 5, 6).covers(5)
        (True, False, True)
        """
        return self.first <= number and (self.last is None or number <= self.last)


@dataclass(frozen=True, slots=True)
class Adjustment:
    """One-off points for a player, counted in the totals from the named deal's result on."""

    deal: int
    player: int
    points: Points
    reason: str = ""


class DealResult(NamedTuple):
    """One deal as played: the inputs, and what the rules make of them."""

    deal: Deal
    trump: str | None
    bids: tuple[int | None, ...]
    tricks: tuple[int | None, ...] | None  # None for a seat not dealt in
    made: tuple[bool | None, ...] | None
    points: tuple[Points | None, ...] | None
    totals: tuple[Points, ...]
    redeal: bool = False
    tiebreak: bool = False

    @property
    def finished(self) -> bool:
        """Whether the tricks are in and the deal is scored."""
        return self.tricks is not None

    @property
    def entered(self) -> Sequence[int]:
        """The bids made so far (every bid of the players dealt in, once the tricks are in)."""
        if self.tricks is not None and not self.deal.present:
            every: tuple[int, ...] = self.bids  # type: ignore[assignment]  # no None among them
            return every
        return [b for b in self.bids if b is not None]

    @property
    def bid_total(self) -> int:
        """The sum of the bids made so far."""
        return sum(self.entered)

    @property
    def announce(self) -> str:
        """The bids against the cards: over by k, under by k or even."""
        return announce(self.entered, self.deal.cards or 0)


class Standing(NamedTuple):
    """A player's place: ``rank`` is shared by tied players (1, 1, 3)."""

    player: int
    total: Points
    rank: int


class Checkpoint(NamedTuple):
    """Where the replay stood after one deal: enough to go on from there without replaying it."""

    position: int
    totals: tuple[Points, ...]
    made_bids: tuple[int, ...]
    tiebreak: bool
    finished: bool


@dataclass
class GameState:
    """The whole game after replaying every deal."""

    rules: Rules
    players: tuple[str, ...]
    first_dealer: int
    deals: list[DealResult] = field(default_factory=list)
    totals: list[Points] = field(default_factory=list)
    made_bids: list[int] = field(default_factory=list)
    finished: bool = False
    ended_by_table: bool = False
    next_deal: Deal | None = None
    schedule: list[Deal] = field(default_factory=list)
    standings: list[Standing] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    tiebreak: bool = False
    #: After each deal, where the replay stood (see ``replay``'s ``resume``); not part of the game.
    checkpoints: list[Checkpoint] = field(default_factory=list, repr=False, compare=False)

    @property
    def current(self) -> DealResult | None:
        """The deal being played (bids or tricks still to enter), if any."""
        if self.deals and not self.deals[-1].finished:
            return self.deals[-1]
        return None

    def leaders(self) -> list[int]:
        """The players ranked first now."""
        return [s.player for s in self.standings if s.rank == 1]


def _sort_key(rules: Rules, total: Points, made_bids: int) -> tuple[Points, int]:
    if rules.wins == "highest":
        return (-total, 0)
    if rules.wins == "scratch":
        return (total, -made_bids)
    if rules.wins == "lowest":
        return (total, 0)
    return (0, 0)


def standings(rules: Rules, totals: Sequence[Points], made_bids: Sequence[int]) -> list[Standing]:
    """Players best first; tied players share a rank (a scratch tie goes to the higher made
    bids)."""
    keys = [_sort_key(rules, t, m) for t, m in zip(totals, made_bids)]
    order = sorted(range(len(totals)), key=lambda i: keys[i])
    result: list[Standing] = []
    for place, i in enumerate(order):
        tied = result and keys[result[-1].player] == keys[i]
        result.append(Standing(i, totals[i], result[-1].rank if tied else place + 1))
    return result


def next_bidder(state: GameState) -> int | None:
    """The seat whose bid is entered next in the deal being played, or None."""
    current = state.current
    if current is None or state.rules.bidding.simultaneous:
        return None
    for seat in current.deal.bidding_order(len(state.players)):
        if current.bids[seat] is None:
            return seat
    return None


def bid_options(state: GameState, seat: int | None = None) -> BidCheck | None:
    """The bids the next bidder (or ``seat``) may make now, and why the others are struck out."""
    current = state.current
    players = len(state.players)
    deal = current.deal if current else state.next_deal
    if deal is None or deal.cards is None:
        return None
    order = deal.bidding_order(players)
    bids = current.bids if current else (None,) * players
    seat = next_bidder(state) if seat is None and current else (order[0] if seat is None else seat)
    if seat is None:
        return None
    earlier = [bids[s] for s in order[: order.index(seat)]]
    return bid_check(
        state.rules.bidding, deal.cards, [b or 0 for b in earlier],
        dealer=seat == deal.dealer, name=state.players[seat],
    )


def check_absences(absences: Sequence[Absence], players: Sequence[str], first_dealer: int) -> None:
    """Refuse absences that can't be played (RULES.md §7): a player's overlapping ranges, a first
    dealer away at deal 1, fewer than two players at a deal; DealRefused names the deal.

    >>> check_absences([Absence(1, 1, 3), Absence(1, 3)], ["Ann", "Bob", "Cy"], 0)
    Traceback (most recent call last):
    ...
    scorekeeper.rules.state.DealRefused: deal 3: Bob is away twice over
    (from deal 1 to 3, and from deal 3 on)
    """
    by_player: dict[int, list[Absence]] = {}
    for absence in absences:
        if not 0 <= absence.player < len(players):
            raise GameError(_("an absence names player %(player)s, who is not in the game",
                              player=absence.player))
        if absence.last is not None and absence.last < absence.first:
            raise DealRefused(absence.first, _("%(player)s's absence ends before it begins",
                                               player=players[absence.player]))
        by_player.setdefault(absence.player, []).append(absence)
    for player, ranges in by_player.items():
        ranges.sort(key=lambda absence: absence.first)
        for before, after in pairwise(ranges):
            if before.last is None or before.last >= after.first:
                raise DealRefused(after.first,
                                  _("%(player)s is away twice over (%(first)s, and %(second)s)",
                                    player=players[player], first=_span(before),
                                    second=_span(after)))
    if any(a.player == first_dealer and a.covers(1) for a in absences):
        raise DealRefused(1, _("%(player)s deals first, so must be dealt in at deal 1",
                               player=players[first_dealer]))
    for number in sorted({a.first for a in absences}):  # who is there changes only where one begins
        away = {a.player for a in absences if a.covers(number)}
        if len(players) - len(away) < 2:
            raise DealRefused(number, _("at least two players must be dealt in"))


def _span(absence: Absence) -> str:
    if absence.last is None:
        return _("from deal %(first)s on", first=absence.first)
    if absence.last == absence.first:
        return _("at deal %(first)s", first=absence.first)
    return _("from deal %(first)s to %(last)s", first=absence.first, last=absence.last)
