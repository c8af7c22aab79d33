"""How well and how fast ``mixed`` seating plans a club night, against an independent search and a
lower bound (run by hand; docs/benchmarks.md).

Each night is played as the app plays it: ``next_round`` once per round, with the rounds played so
far (and, for the night with changes, players arriving and withdrawing between rounds). For each
it prints the repeats (Σ max(0, m − 1) over the pairs, m the rounds a pair shares a table) and the
most meetings of a pair, three ways:

- **planner**: the rules core's seating, and the most CPU time one round took to seat (the
  search's cache emptied first, as a fresh server process would; ``time.process_time``);
- **independent**: a search that shares no code with the planner, planning the whole night at once
  (knowing the changes in advance): exact (branch and bound over every seating of each round) where
  the night is small, otherwise the best of several runs of a plain simulated annealing over swaps
  of two players of a round, from random starts; when the planner already meets the lower bound,
  nothing can do better and no search is run ("= bound");
- **same moves**: the mean repeats of 5 runs of that plain annealing given the planner's own
  budget of moves for the night (``seating.budget``), where the planner misses the bound: the two
  searches at the same work;
- **bound**: a lower bound of the repeats, the largest of
  - the meetings there are beyond the pairs available: a round at tables of sizes s₁, s₂, … makes
    Σ s(s − 1)/2 meetings, and n players have n(n − 1)/2 pairs;
  - each player's own excess: a player meets at least Σ (smallest table of the round − 1) others
    but has only n − 1 others, so half the sum of these excesses over the players repeat;
  - two rounds of the same players: a table of s players of one round sits across the T tables of
    the other, so at least Σ C(x, 2) of its pairs, x ≈ s / T at each, met in both; summed over the
    pairs of rounds, that is Σ C(m, 2) over the pairs, and a pair meeting m ≤ k times (k rounds)
    gives m − 1 ≥ C(m, 2) · 2 / k repeats;
  and of the most meetings of a pair: the meetings per pair rounded up, and 2 once a repeat is
  forced.

    .venv/bin/python bench/seating.py
    .venv/bin/python bench/seating.py --smoke     # every part at tiny sizes: it runs
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations
from math import ceil, comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import SMOKE, sized

from scorekeeper.rules import seating
from scorekeeper.rules.event import Entrant, Event, Seating, TableSizes, lineups, table_sizes

#: A night: its name, players, table sizes, rounds, and the changes before each round
#: (round number: arrivals, names withdrawing after the round before).
CHANGES = {2: (1, ()), 3: (1, ("P0",))}
NIGHTS: list[tuple[str, int, TableSizes, int, dict[int, tuple[int, tuple[str, ...]]]]] = [
    ("8 at 2 × 4", 8, table_sizes(4, [4]), 4, {}),
    ("9 at 3 × 3 (design)", 9, table_sizes(3, [3]), 4, {}),
    ("13 at 5+4+4", 13, table_sizes(4), 3, {}),
    ("14 at 3–5, changes", 14, table_sizes(4), 4, CHANGES),
    ("40 at 3–5", 40, table_sizes(4), 3, {}),
] if SMOKE else [
    ("8 at 2 × 4", 8, table_sizes(4, [4]), 4, {}),
    ("9 at 3 × 3 (design)", 9, table_sizes(3, [3]), 4, {}),
    ("16 at 4 × 4 (design)", 16, table_sizes(4, [4]), 5, {}),
    ("20 at 5 × 4 (design)", 20, table_sizes(4, [4]), 5, {}),
    ("25 at 5 × 5 (design)", 25, table_sizes(5, [5]), 6, {}),
    ("13 at 5+4+4", 13, table_sizes(4), 3, {}),
    ("13 at 5+4+4", 13, table_sizes(4), 4, {}),
    ("14 at 3–5, changes", 14, table_sizes(4), 4, CHANGES),
    ("20 at 5 × 4", 20, table_sizes(4, [4]), 6, {}),
    ("22 at 3–5", 22, table_sizes(4), 5, {}),
    ("22 at 3–5", 22, table_sizes(4), 6, {}),
    ("25 at 5 × 5", 25, table_sizes(5, [5]), 7, {}),
    ("30 at 6 × 5", 30, table_sizes(5, [5]), 5, {}),
    ("30 at 3–5", 30, table_sizes(4), 8, {}),
    ("400 at 3–5", 400, table_sizes(4), 20, {}),
]
#: The independent annealing: runs, and moves per run.
RUNS, MOVES = sized(4, 2), sized(150_000, 3_000)
#: Runs of the plain annealing given the planner's budget of moves (their mean repeats are shown).
SAME_RUNS = sized(5, 1)
#: The most seatings an exact search may visit (the rounds after the first, multiplied).
EXACT = sized(2_000_000, 50_000)

Night = list[list[list[int]]]


def played_night(name: str, players: int, tables: TableSizes, rounds: int,
                 changes: dict[int, tuple[int, tuple[str, ...]]]
                 ) -> tuple[tuple[Seating, ...], float, Event]:
    """The night seated round by round as the app seats it; the most CPU time of one round."""
    entrants = [Entrant(f"P{i}") for i in range(players)]
    event = Event(tuple(entrants), rounds, tables, seed=2026)
    played: tuple[Seating, ...] = ()
    slowest = 0.0
    for number in range(1, rounds + 1):
        arriving, leaving = changes.get(number, (0, ()))
        entrants = [replace(e, last=number - 1) if e.name in leaving else e for e in entrants]
        entrants += [Entrant(f"N{number}.{i}", arrives=number) for i in range(arriving)]
        event = replace(event, entrants=tuple(entrants), played=played)
        seating._search.cache_clear()
        start = time.process_time()
        played += (seating.next_round(event),)
        slowest = max(slowest, time.process_time() - start)
    return played, slowest, replace(event, played=())


def score(night: Sequence[Sequence[Sequence[int]]]) -> tuple[int, int]:
    """The repeats and the most meetings of a pair."""
    met: dict[tuple[int, int], int] = {}
    for tables in night:
        for table in tables:
            for pair in combinations(sorted(table), 2):
                met[pair] = met.get(pair, 0) + 1
    return sum(m - 1 for m in met.values()), max(met.values(), default=0)


def bounds(rounds: Sequence[tuple[frozenset[int], tuple[int, ...]]]) -> tuple[int, int]:
    """Lower bounds of the repeats and of the most meetings of a pair (see the docstring)."""
    everyone = frozenset().union(*(people for people, _ in rounds))
    n, k = len(everyone), len(rounds)
    meetings = sum(comb(s, 2) for _, split in rounds for s in split)
    fewest = max(0, meetings - comb(n, 2))
    if all(people == everyone for people, _ in rounds):
        each = sum(min(split) - 1 for _, split in rounds)
        fewest = max(fewest, ceil(n * max(0, each - (n - 1)) / 2))
        both = 0
        for (_, one), (_, other) in combinations(rounds, 2):
            for s in other:
                q, r = divmod(s, len(one))
                both += r * comb(q + 1, 2) + (len(one) - r) * comb(q, 2)
        fewest = max(fewest, ceil(2 * both / k))
    return fewest, max(ceil(meetings / comb(n, 2)), 2 if fewest else 1)


def partitions(people: Sequence[int], tables: int, size: int) -> list[list[list[int]]]:
    """Every way to seat ``people`` at ``tables`` tables of ``size`` (each table taking the first
    player not seated yet, so each seating comes once)."""
    if not tables:
        return [[]]
    first, others = people[0], people[1:]
    found: list[list[list[int]]] = []
    for mates in combinations(others, size - 1):
        left = [p for p in others if p not in mates]
        found.extend([[first, *mates], *after] for after in partitions(left, tables - 1, size))
    return found


def exact(rounds: Sequence[tuple[frozenset[int], tuple[int, ...]]]) -> tuple[int, int] | None:
    """The fewest repeats (then the fewest most meetings) over every seating of the night, by branch
    and bound; None when the night is too large for it, or its tables not all of one size."""
    people, split = sorted(rounds[0][0]), rounds[0][1]
    if any(r != rounds[0] for r in rounds) or len(set(split)) != 1:
        return None
    count = (math.factorial(len(people)) // math.factorial(split[0]) ** len(split)
             // math.factorial(len(split)))
    if count ** (len(rounds) - 1) > EXACT:
        return None
    ways = partitions(people, len(split), split[0])
    n = max(people) + 1
    met = [[0] * n for _ in range(n)]
    best = [(10**9, 10**9)]

    def seat(tables: list[list[int]], step: int) -> int:
        added = 0
        for table in tables:
            for a, b in combinations(table, 2):
                added += step > 0 and met[a][b] > 0 or step < 0 and met[a][b] > 1
                met[a][b] += step
        return added

    def search(number: int, repeats: int, most: int) -> None:
        if (repeats, most) >= best[0]:
            return
        if number == len(rounds):
            best[0] = (repeats, most)
            return
        for tables in ways if number else ways[:1]:  # the first round: any one, by symmetry
            added = seat(tables, 1)
            top = max(most, max(met[a][b] for table in tables for a, b in combinations(table, 2)))
            search(number + 1, repeats + added, top)
            seat(tables, -1)

    search(0, 0, 0)
    return best[0]


def annealed(rounds: Sequence[tuple[frozenset[int], tuple[int, ...]]], seed: int,
             moves: int) -> Night:
    """One run of a plain simulated annealing: random start, random swaps of two players at two
    tables of a round, a repeat costing 1 and the excess squared breaking ties."""
    rng = random.Random(seed)
    n = max(max(people) for people, _ in rounds) + 1
    met = [[0] * n for _ in range(n)]
    night: Night = []
    for people, split in rounds:
        order = sorted(people)
        rng.shuffle(order)
        tables, start = [], 0
        for size in split:
            tables.append(order[start:start + size])
            start += size
        night.append(tables)
        for table in tables:
            for a, b in combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1

    def cost(m: int) -> float:
        return 0 if m < 2 else (m - 1) + 0.01 * (m - 1) ** 2

    best, kept, now = 0.0, [[list(t) for t in r] for r in night], 0.0
    for step in range(moves):
        heat = 0.6 * (0.02 / 0.6) ** (step / moves)
        tables = night[rng.randrange(len(night))]
        if len(tables) < 2:
            continue
        one, other = rng.sample(range(len(tables)), 2)
        i, j = rng.randrange(len(tables[one])), rng.randrange(len(tables[other]))
        a, b = tables[one][i], tables[other][j]
        delta = sum(cost(met[b][x] + 1) - cost(met[b][x]) + cost(met[a][x] - 1) - cost(met[a][x])
                    for x in tables[one] if x != a)
        delta += sum(cost(met[a][x] + 1) - cost(met[a][x]) + cost(met[b][x] - 1) - cost(met[b][x])
                     for x in tables[other] if x != b)
        if delta <= 0 or rng.random() < math.exp(-delta / heat):
            for x in tables[one]:
                if x != a:
                    met[a][x] -= 1; met[x][a] -= 1; met[b][x] += 1; met[x][b] += 1
            for x in tables[other]:
                if x != b:
                    met[b][x] -= 1; met[x][b] -= 1; met[a][x] += 1; met[x][a] += 1
            tables[one][i], tables[other][j] = b, a
            now += delta
            if now < best - 1e-9:
                best, kept = now, [[list(t) for t in r] for r in night]
    return kept


def independent(rounds: Sequence[tuple[frozenset[int], tuple[int, ...]]]
                ) -> tuple[tuple[int, int], str]:
    found = exact(rounds)
    if found is not None:
        return found, "exact"
    moves = MOVES if len(rounds[0][0]) <= 40 else 2 * MOVES
    return min(score(annealed(rounds, seed, moves)) for seed in range(RUNS)), f"best of {RUNS} SA"


def same_moves(rounds: Sequence[tuple[frozenset[int], tuple[int, ...]]]) -> float:
    """The mean repeats of ``SAME_RUNS`` runs of the plain annealing given the planner's own budget
    of moves for the night (``seating.budget``): the two searches at the same work."""
    moves = seating.budget(sum(len(people) for people, _ in rounds))
    return sum(score(annealed(rounds, seed, moves))[0] for seed in range(SAME_RUNS)) / SAME_RUNS


def main() -> None:
    print(f"{'night':<22} {'rounds':>6} | {'planner':>7} {'most':>4} {'CPU/round':>9} | "
          f"{'same moves':>10} | {'independent':>11} {'most':>4} {'how':<13} | "
          f"{'bound':>5} {'most':>4}")
    for name, players, tables, rounds, changes in NIGHTS:
        played, slowest, event = played_night(name, players, tables, rounds, changes)
        index = {e.name: i for i, e in enumerate(event.entrants)}
        night = [[[index[p] for p in table] for table in s.tables] for s in played]
        wanted = [(frozenset(index[p] for p in line.players), line.split)
                  for line in lineups(event)]
        mine = score(night)
        fewest, most = bounds(wanted)
        if mine[0] == fewest and mine[1] == most:
            other, how, same = mine, "= bound", "—"
        else:
            (other, how), same = independent(wanted), f"{same_moves(wanted):.1f}"
        print(f"{name:<22} {rounds:>6} | {mine[0]:>7} {mine[1]:>4} {slowest * 1000:>6.0f} ms | "
              f"{same:>10} | {other[0]:>11} {other[1]:>4} {how:<13} | {fewest:>5} {most:>4}")


if __name__ == "__main__":
    main()
