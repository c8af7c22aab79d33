"""A group's statistics (GROUPS.md): what each player did in one replayed game, and the sums.

A player "played" a game when dealt in at least one deal of it (RULES.md §7); only finished
games count (ended early counts as finished). Cooperative games count in ``games`` and the deal
figures, never in ``wins``. Players of different games are one player when their names match
(``values.name_key``: trimmed, white space folded, without case).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import NamedTuple

from .scoring import Points
from .state import GameState
from .values import name_key


class Line(NamedTuple):
    """One player's figures in one finished game."""

    key: str
    name: str
    rank: int
    won: bool
    total: Points
    deals: int
    made: int
    zero_bids: int
    zero_made: int
    bids: int
    tricks: int
    #: Deals they dealt under the hook (the dealer may not make the bids add up), and made.
    hook_deals: int
    hook_made: int


class Summary(NamedTuple):
    """What a group needs of one game: is it finished and cooperative, and its players' lines
    (only those who played, best first)."""

    finished: bool
    cooperative: bool
    lines: tuple[Line, ...]


def summarize(state: GameState, *, as_it_stands: bool = False) -> Summary:
    """The figures of a replayed game: a line per player dealt in at least one deal (none while
    the game is not finished, unless ``as_it_stands``: then its figures after its last finished
    deal, its leaders winning).

    >>> from .game import DealInput, replay
    >>> from .presets import make_rules
    >>> game = replay(make_rules({"deal": "fixed", "max_cards": 1, "deals": 2}, 3),
    ...               ["Ann", "Bob", "Cy"],
    ...               [DealInput((1, 1, 0), (1, 0, 0)), DealInput((0, 1, 1), (0, 0, 1))])
    >>> [(line.name, line.rank, line.won, line.made, line.zero_made, line.hook_deals,
    ...   line.hook_made)
    ...  for line in summarize(game).lines]
    [('Ann', 1, True, 2, 1, 1, 1), ('Cy', 1, True, 2, 1, 0, 0), ('Bob', 3, False, 0, 0, 1, 0)]
    """
    rules, players = state.rules, state.players
    if not state.finished and not as_it_stands:
        return Summary(False, rules.cooperative, ())
    counts = [[0] * 8 for _ in players]
    for result in state.deals:
        if result.tricks is None:
            continue
        deal = result.deal
        hooked = deal.cards is not None and rules.bidding.rule_for(deal.cards) == "hook"
        for seat in deal.seats(len(players)):
            bid, took = result.bids[seat], result.tricks[seat]
            if bid is None or took is None:
                continue
            row = counts[seat]
            row[0] += 1
            row[1] += bid == took
            row[2] += bid == 0
            row[3] += bid == 0 and took == 0
            row[4] += bid
            row[5] += took
            if hooked and seat == deal.dealer:
                row[6] += 1
                row[7] += bid == took
    winners = (set() if rules.cooperative
               else set(state.winners if state.finished else state.leaders()))
    lines = tuple(Line(name_key(players[s.player]), players[s.player], s.rank, s.player in winners,
                       s.total, *counts[s.player])
                  for s in state.standings if counts[s.player][0])
    return Summary(state.finished, rules.cooperative, lines)


@dataclass(slots=True)
class Tally:
    """A player's sums over finished games (GROUPS.md's fields, and the dealer's under the hook)."""

    games: int = 0
    wins: int = 0
    deals: int = 0
    made: int = 0
    zero_bids: int = 0
    zero_made: int = 0
    bids: int = 0
    tricks: int = 0
    hook_deals: int = 0
    hook_made: int = 0

    def add(self, line: Line) -> None:
        """Count one more game of theirs."""
        self.games += 1
        self.wins += line.won
        for name in ("deals", "made", "zero_bids", "zero_made", "bids", "tricks", "hook_deals",
                     "hook_made"):
            setattr(self, name, getattr(self, name) + getattr(line, name))

    def copy(self) -> Tally:
        """A tally to go on counting from, leaving this one as it is."""
        return Tally(*(getattr(self, name) for name in _TALLY))

    @property
    def hit_rate(self) -> float | None:
        """Made bids per deal (None before any deal).

        >>> Tally(deals=4, made=3).hit_rate, Tally().hit_rate
        (0.75, None)
        """
        return self.made / self.deals if self.deals else None

    @property
    def overbid(self) -> float | None:
        """Over- (positive) or under-bidding (negative): (bids − tricks) / deals.

        >>> Tally(deals=4, bids=10, tricks=8).overbid
        0.5
        """
        return (self.bids - self.tricks) / self.deals if self.deals else None

    @property
    def zero_rate(self) -> float | None:
        """Zero bids made per zero bid."""
        return self.zero_made / self.zero_bids if self.zero_bids else None

    @property
    def hook_rate(self) -> float | None:
        """Deals made as the dealer under the hook, per such deal."""
        return self.hook_made / self.hook_deals if self.hook_deals else None


_TALLY = tuple(f.name for f in fields(Tally))


def tally(summaries: Iterable[Summary]) -> dict[str, Tally]:
    """Every player's sums over these games, by name key.

    >>> from .game import DealInput, replay
    >>> from .presets import make_rules
    >>> rules = make_rules({"max_cards": 1, "deals": 1}, 2)
    >>> one = summarize(replay(rules, ["Ann", "Bob"], [DealInput((1, 1), (1, 0))]))
    >>> two = summarize(replay(rules, ["bob", "ANN"], [DealInput((0, 0), (1, 0))]))
    >>> sums = tally([one, two])
    >>> sums["ann"].games, sums["ann"].wins, sums["ann"].made, sums["bob"].wins, sums["bob"].made
    (2, 2, 2, 0, 0)
    """
    sums: dict[str, Tally] = {}
    for summary in summaries:
        for line in summary.lines:
            sums.setdefault(line.key, Tally()).add(line)
    return sums


def ranked(summary: Summary) -> Sequence[tuple[str, int]] | None:
    """A game's players and their ranks for a rating update; None when it updates no rating
    (not finished, cooperative, or fewer than two players).

    >>> ranked(Summary(True, False, ())), ranked(Summary(True, True, ()))
    (None, None)
    """
    if not summary.finished or summary.cooperative or len(summary.lines) < 2:
        return None
    return [(line.key, line.rank) for line in summary.lines]
