"""RULES.md §7 written out again, independently of the code under test: who is dealt in, who deals,
who bids first, the bidding order and the hook among the players present, and what a game of
common scoring (made: 10 + tricks; missed: tricks) scores, totals and settles to.

Nothing here is imported from ``scorekeeper``: the tests compare the app's export with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction


@dataclass(frozen=True)
class Away:
    """One entry of ``absent``: a player not dealt in from deal ``first`` to
    ``last`` (None: the end)."""

    player: int
    first: int
    last: int | None = None

    def covers(self, deal: int) -> bool:
        return deal >= self.first and (self.last is None or deal <= self.last)


def present(players: int, absent: list[Away], deal: int) -> list[int]:
    """§7: P_k, the seats dealt in at deal ``deal`` (1-based), ascending."""
    return [seat for seat in range(players)
            if not any(a.player == seat and a.covers(deal) for a in absent)]


def dealers(players: int, first_dealer: int, absent: list[Away], deals: int) -> list[int]:
    """§7 "Who deals": deal 1's is the first dealer; then clockwise from the previous dealer, at the
    table or not, the first player present at that deal."""
    found = [first_dealer]
    for deal in range(2, deals + 1):
        seats = present(players, absent, deal)
        seat = found[-1]
        while True:
            seat = (seat + 1) % players
            if seat in seats:
                break
        found.append(seat)
    return found


def eldest(players: int, dealer: int, seats: list[int]) -> int:
    """§7: the first present player clockwise after the dealer."""
    seat = dealer
    while True:
        seat = (seat + 1) % players
        if seat in seats:
            return seat


def bidding_order(players: int, dealer: int, seats: list[int]) -> list[int]:
    """§7: clockwise among the present players from eldest hand, ending with the dealer."""
    order, seat = [], eldest(players, dealer, seats)
    while len(order) < len(seats):
        if seat in seats:
            order.append(seat)
        seat = (seat + 1) % players
    assert order[-1] == dealer
    return order


def common(bid: int, took: int) -> int:
    """RULES.md §3 common: made 10 + tricks; missed: tricks."""
    return 10 + took if bid == took else took


@dataclass
class Played:
    """What the reference makes of one deal."""

    number: int
    cards: int
    dealer: int
    eldest: int
    present: list[int]
    points: list[int | None]
    totals: list[int]


@dataclass
class Game:
    """A whole game as the reference replays it (common scoring, hook, a custom sequence)."""

    deals: list[Played] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)

    def winners(self) -> list[int]:
        best = max(self.totals)
        return [seat for seat, total in enumerate(self.totals) if total == best]

    def pairwise_nets(self, rate: Fraction) -> list[Fraction]:
        """§6 pairwise: player i's net is r · Σ_j (s_i − s_j), over every player of the game."""
        return [rate * sum(mine - theirs for theirs in self.totals) for mine in self.totals]


def replay(players: int, first_dealer: int, sizes: list[int], absent: list[Away],
           bids: list[list[int | None]], tricks: list[list[int | None]],
           adjustments: list[tuple[int, int, int]] = ()) -> Game:  # type: ignore[assignment]
    """Replay finished deals: (deal, player, points) adjustments count from their deal on."""
    game = Game(totals=[0] * players)
    who = dealers(players, first_dealer, absent, len(bids))
    for number, (cards, deal_bids, deal_tricks) in enumerate(zip(sizes, bids, tricks), 1):
        seats = present(players, absent, number)
        dealer = who[number - 1]
        points: list[int | None] = [None] * players
        for seat in seats:
            bid, took = deal_bids[seat], deal_tricks[seat]
            assert bid is not None and took is not None
            points[seat] = common(bid, took)
            game.totals[seat] += common(bid, took)
        for deal, player, value in adjustments:
            if deal == number:
                game.totals[player] += value
        game.deals.append(Played(number, cards, dealer, eldest(players, dealer, seats), seats,
                                 points, list(game.totals)))
    return game


def hook_forbids(cards: int, earlier: list[int]) -> int | None:
    """§2 hook, among the players present: the dealer's bid that would make the bids add up to the
    cards (None when no bid can)."""
    forbidden = cards - sum(earlier)
    return forbidden if 0 <= forbidden <= cards else None
