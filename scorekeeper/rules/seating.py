"""Seating ``mixed`` (EVENTS.md, "Who sits where"): every round still to come planned at once,
so that players meet as many different opponents as possible.

The search. ``m(a, b)`` counts the rounds a and b share a table, the rounds played included.
Each pair costs ``REPEAT × e + e²`` with ``e = max(0, m − 1)``: the first term counts the
repeats (what EVENTS.md minimises first), the square keeps the largest ``m`` down (three
meetings of one pair cost more than two pairs meeting twice). The search starts from

- an affine plane when every round to plan seats the same q² players at q tables of q (the
  designs of 9, 16, 25 and 49 players, q + 1 rounds at most), or q² − q players at q tables of
  q − 1 (the plane with one line left out: 12 players at 4 tables of 3, 20 at 5 tables of 4;
  q rounds at most), the players placed on its points in an order drawn from the seed;
- otherwise each round filled table by table, each seat taking whichever of the next few
  players (in an order drawn from the seed) adds the least cost;

then improves it by simulated annealing over swaps of two players at different tables of one
round to come: half of the moves take a pair that meets too often and move one of them out of
a table they share, swapping with the best of ``PARTNERS`` players drawn at the round's other
tables (such a move counts ``WEIGHT`` moves of the budget, about its time); the rest are drawn at
random. A move that costs more is kept with
probability exp(−Δ / T), T falling from ``HOT`` to ``COLD``. The search stops when no round to
come adds any cost, or after a number of moves that depends only on the size of the event
(``budget``), never on the clock: the same event gives the same seating on every machine.

Re-planning. The plan is worked out from the event as it is now: first for all its rounds with
none fixed. When the rounds played are those of that plan (nobody arrived, withdrew or was
given another bye, and no seating was swapped), the rest of it is the plan, so a design comes
out whole. Otherwise the rounds to come are searched again, with the rounds played fixed and
that plan's rounds as the start. The rounds played are never changed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import lru_cache

from .event import Event, Seating, chance, lineups
from .seats import first_seats

#: The weight of one repeat against the square that keeps the largest number of meetings down.
REPEAT = 8
#: The temperatures of the search, in units of cost.
HOT, COLD = 6.0, 0.3
#: Moves per player seated in a round to come, and the bounds of the whole search.
MOVES_PER_SEAT, FEWEST_MOVES, MOST_MOVES = 60, 20_000, 60_000
#: How many of the next players each seat of a starting round is chosen from.
CANDIDATES = 8
#: The share of moves that take a pair meeting too often.
CONFLICT = 0.5
#: How many partners a move of such a pair tries, keeping the best.
PARTNERS = 8
#: What such a move counts for in the budget: about its time against a random move's.
WEIGHT = 4
#: The orders of the finite fields an affine plane is built on (table sizes are 3 to 8).
FIELDS = {3: (3, 0), 4: (2, 0b111), 5: (5, 0), 7: (7, 0), 8: (2, 0b1011), 9: (0, 0)}

Rounds = tuple[tuple[tuple[int, ...], ...], ...]


def _cost(m: int) -> int:
    excess = max(0, m - 1)
    return REPEAT * excess + excess * excess


#: COST[m]: what a pair that met m times costs; UP[m]: what one more meeting adds to it.
COST = tuple(_cost(m) for m in range(64))
UP = tuple(_cost(m + 1) - _cost(m) for m in range(64))


def budget(seats: int) -> int:
    """How many moves the search may make for this many seats over the rounds to come.

    >>> budget(9 * 4), budget(60 * 8), budget(400 * 8)
    (20000, 28800, 60000)
    """
    return min(MOST_MOVES, max(FEWEST_MOVES, MOVES_PER_SEAT * seats))


def plan(event: Event) -> tuple[Seating, ...]:
    """Every round of the event: those played as they were, the rest seated ``mixed``, each
    table in seat order (``seats.first_seats``).

    >>> from .event import Entrant, table_sizes
    >>> event = Event(tuple(Entrant(name) for name in "ABCDEFGHI"), 4, table_sizes(3), seed=5)
    >>> rounds = plan(event)
    >>> [len(r.tables) for r in rounds], repeats(rounds)
    ([3, 3, 3, 3], 0)
    """
    ahead = lineups(event)
    if not ahead:
        return event.played
    index = {entrant.name: i for i, entrant in enumerate(event.entrants)}
    played = tuple(tuple(tuple(sorted(index[name] for name in table)) for table in seating.tables)
                   for seating in event.played)
    wanted = tuple((tuple(index[name] for name in line.players), line.split) for line in ahead)
    before = tuple((tuple(sorted(p for table in r for p in table)),
                    tuple(sorted(map(len, r), reverse=True)))
                   for r in played)
    reference = _search(len(index), (), before + wanted, event.seed, ())
    k = len(played)
    if _as_sets(reference[:k]) == _as_sets(played):
        tables = reference[k:]
    else:
        tables = _search(len(index), played, wanted, event.seed, reference[k:])
    names = [entrant.name for entrant in event.entrants]
    planned = tuple(Seating(tuple(tuple(names[p] for p in table) for table in r), line.byes)
                    for r, line in zip(tables, ahead))
    return event.played + first_seats(event.played, planned, event.seed)


def next_round(event: Event) -> Seating:
    """The next round's seating ``mixed``: the first round of ``plan``."""
    return plan(event)[len(event.played)]


def meetings(rounds: Sequence[Seating]) -> dict[frozenset[str], int]:
    """How often each pair of players shared a table, for the pairs that did."""
    met: dict[frozenset[str], int] = {}
    for seating in rounds:
        for table in seating.tables:
            for i, a in enumerate(table):
                for b in table[i + 1:]:
                    pair = frozenset((a, b))
                    met[pair] = met.get(pair, 0) + 1
    return met


def repeats(rounds: Sequence[Seating]) -> int:
    """Σ max(0, m − 1) over all pairs: how many meetings were repeats."""
    return sum(m - 1 for m in meetings(rounds).values())


def _as_sets(rounds: Rounds) -> list[frozenset[frozenset[int]]]:
    return [frozenset(frozenset(table) for table in r) for r in rounds]


@lru_cache(maxsize=16)
def _search(players: int, fixed: Rounds,
            wanted: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...],
            seed: int, start: Rounds) -> Rounds:
    """Seat each of ``wanted`` (its players, its split) after the ``fixed`` rounds."""
    rng = chance(seed, "seating", len(fixed))
    if start:
        tables = [[list(table) for table in r] for r in start]
    else:
        tables = _affine(wanted, rng) or _greedy(players, fixed, wanted, rng)
    return _Anneal(players, fixed, tables, rng).run(budget(sum(len(w[0]) for w in wanted)))


def _field(q: int) -> tuple[list[list[int]], list[list[int]]] | None:
    """The addition and multiplication tables of the field of order q (a prime, 4 or 8)."""
    base, modulus = FIELDS.get(q, (0, 0))
    if base == q:
        return ([[(a + b) % q for b in range(q)] for a in range(q)],
                [[a * b % q for b in range(q)] for a in range(q)])
    if base != 2:
        return None

    def times(a: int, b: int) -> int:
        product = 0
        while b:
            if b & 1:
                product ^= a
            b >>= 1
            a <<= 1
            if a & q:
                a ^= modulus
        return product

    return ([[a ^ b for b in range(q)] for a in range(q)],
            [[times(a, b) for b in range(q)] for a in range(q)])


def _affine(wanted: Sequence[tuple[tuple[int, ...], tuple[int, ...]]],
            rng: random.Random) -> list[list[list[int]]] | None:
    """Rounds from the parallel classes of an affine plane, when the rounds to plan fit one."""
    people, sizes = wanted[0]
    q = len(sizes)
    if any(w != wanted[0] for w in wanted) or any(s != sizes[0] for s in sizes):
        return None
    whole = sizes[0] == q
    if not (whole or sizes[0] == q - 1) or len(wanted) > q + whole:
        return None
    field = _field(q)
    if field is None:
        return None
    add, times = field
    minus = [next(b for b in range(q) if add[a][b] == 0) for a in range(q)]
    order = list(people)
    rng.shuffle(order)
    points = [(x, y) for x in range(q) for y in range(q) if whole or x != 0]
    rounds: list[list[list[int]]] = []
    for slope in range(len(wanted)):
        lines: list[list[int]] = [[] for _ in range(q)]
        for player, (x, y) in zip(order, points):
            # the class of slope q is the vertical lines x = c
            line = x if slope == q else add[y][minus[times[slope][x]]]
            lines[line].append(player)
        rounds.append(lines)
    return rounds


def _greedy(players: int, fixed: Rounds, wanted: Sequence[tuple[tuple[int, ...], tuple[int, ...]]],
            rng: random.Random) -> list[list[list[int]]]:
    """Each round filled seat by seat with whichever of the next few players adds the least cost."""
    met = [[0] * players for _ in range(players)]
    for done in fixed:
        _meet(met, done)
    rounds: list[list[list[int]]] = []
    for people, sizes in wanted:
        pool = list(people)
        rng.shuffle(pool)
        seated: list[list[int]] = []
        for size in sizes:
            table = [pool.pop()]
            while len(table) < size:
                near = range(max(0, len(pool) - CANDIDATES), len(pool))
                pick = min(near, key=lambda i: sum(UP[met[pool[i]][x]] for x in table))
                table.append(pool.pop(pick))
            seated.append(table)
        _meet(met, seated)
        rounds.append(seated)
    return rounds


def _meet(met: list[list[int]], tables: Sequence[Sequence[int]]) -> None:
    for table in tables:
        for a in table:
            row = met[a]
            for b in table:
                if a != b:
                    row[b] += 1


def _total(met: list[list[int]]) -> int:
    return sum(COST[m] for row in met for m in row if m > 1) // 2


class _Anneal:
    """Simulated annealing over swaps of two players at different tables of one round to come."""

    def __init__(self, players: int, fixed: Rounds, tables: list[list[list[int]]],
                 rng: random.Random) -> None:
        self.rng = rng
        self.tables = tables
        self.met = [[0] * players for _ in range(players)]
        for done in fixed:
            _meet(self.met, done)
        self.floor = _total(self.met)
        for r in tables:
            _meet(self.met, r)
        self.cost = _total(self.met)
        self.at: list[list[int]] = []
        for r in tables:
            at = [-1] * players
            for t, table in enumerate(r):
                for p in table:
                    at[p] = t
            self.at.append(at)
        self.seated = [[p for table in r for p in table] for r in tables]
        self.movable = [i for i, r in enumerate(tables) if len(r) > 1]
        self.hot = [(a, b) for r in tables for table in r for a in table for b in table
                    if a < b and self.met[a][b] > 1]

    def run(self, moves: int) -> Rounds:
        """Search for ``moves`` moves at most; the best seating found."""
        best, kept = self.cost, self._snapshot()
        spent = 0
        while spent < moves and self.cost > self.floor and self.movable:
            heat = HOT * (COLD / HOT) ** (spent / moves)
            picked = self._conflict() if self.hot and self.rng.random() < CONFLICT else None
            spent += WEIGHT if picked else 1
            r, a, b = picked or self._anywhere()
            delta = self._delta(r, a, b)
            if delta <= 0 or self.rng.random() < math.exp(-delta / heat):
                self._swap(r, a, b, delta)
                if self.cost < best and spent > moves // 2:
                    best, kept = self.cost, self._snapshot()
        if self.cost > best:
            return kept
        return self._snapshot()

    def _snapshot(self) -> Rounds:
        return tuple(tuple(tuple(sorted(table)) for table in r) for r in self.tables)

    def _anywhere(self) -> tuple[int, int, int]:
        rng = self.rng
        r = self.movable[rng.randrange(len(self.movable))]
        seated, at = self.seated[r], self.at[r]
        a = seated[rng.randrange(len(seated))]
        while True:
            b = seated[rng.randrange(len(seated))]
            if at[b] != at[a]:
                return r, a, b

    def _conflict(self) -> tuple[int, int, int] | None:
        """A swap that moves one of a pair meeting too often away from a table they share."""
        rng, hot = self.rng, self.hot
        while hot:
            i = rng.randrange(len(hot))
            a, b = hot[i]
            shared = [r for r in self.movable if self.at[r][a] == self.at[r][b] != -1]
            if self.met[a][b] < 2 or not shared:
                hot[i] = hot[-1]
                hot.pop()
                continue
            r = shared[rng.randrange(len(shared))]
            mover = a if rng.random() < 0.5 else b
            tables, here = self.tables[r], self.at[r][mover]
            best: tuple[int, float, int] | None = None
            for _ in range(PARTNERS):
                t = rng.randrange(len(tables) - 1)
                if t >= here:
                    t += 1
                other = tables[t][rng.randrange(len(tables[t]))]
                tried = (self._delta(r, mover, other), rng.random(), other)
                if best is None or tried < best:
                    best = tried
            assert best is not None
            return r, mover, best[2]
        return None

    def _delta(self, r: int, a: int, b: int) -> int:
        met, at = self.met, self.at[r]
        ours, theirs = self.tables[r][at[a]], self.tables[r][at[b]]
        row_a, row_b = met[a], met[b]
        delta = 0
        for x in ours:
            if x != a:
                delta += UP[row_b[x]] - UP[row_a[x] - 1]
        for y in theirs:
            if y != b:
                delta += UP[row_a[y]] - UP[row_b[y] - 1]
        return delta

    def _swap(self, r: int, a: int, b: int, delta: int) -> None:
        met, at = self.met, self.at[r]
        ours, theirs = self.tables[r][at[a]], self.tables[r][at[b]]
        for table, leaves, joins in ((ours, a, b), (theirs, b, a)):
            for x in table:
                if x != leaves:
                    met[leaves][x] -= 1
                    met[x][leaves] -= 1
                    met[joins][x] += 1
                    met[x][joins] += 1
                    if met[joins][x] == 2:
                        self.hot.append((joins, x))
        ours[ours.index(a)] = b
        theirs[theirs.index(b)] = a
        at[a], at[b] = at[b], at[a]
        self.cost += delta
