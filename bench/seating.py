"""How well and how fast ``mixed`` seating plans a club night (run by hand; docs/benchmarks.md).

For club sizes from 9 to 400 players and 3 to 8 rounds (preferred tables of 4, 3 to 5 allowed;
the four known designs at their own sizes), it plans every round at once and prints the repeats
(Σ max(0, m − 1) over the pairs, m the rounds a pair shares a table), the most meetings of any
pair and the time, next to a lower bound of each:

- the repeats can't be fewer than the meetings there are beyond the pairs available: a round at
  tables of sizes s₁, s₂, … makes Σ s(s − 1)/2 meetings, and n players have n(n − 1)/2 pairs;
- nor fewer than each player's own excess, counted from both ends of a pair: a player meets at
  least Σ (smallest table of the round − 1) others over the rounds but has only n − 1 others, so
  at least half of Σ over the players of max(0, their meetings − (n − 1)) meetings repeat;
- the most meetings of a pair is at least the meetings per pair, rounded up, and 2 once any repeat
  is forced.

The time is one process's CPU time for the whole plan (search and seat order), the search's
cache emptied first. The last lines re-plan the largest event after its first round, with one
player arriving and one withdrawing (the plan for all rounds, then a search with round 1 fixed).

    .venv/bin/python bench/seating.py
    .venv/bin/python bench/seating.py --smoke     # 9 and 13 players, 3 and 4 rounds: it runs
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace
from math import ceil, comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import SMOKE, sized

from scorekeeper.rules import seating
from scorekeeper.rules.event import Entrant, Event, lineups, table_sizes

SIZES = (9, 13) if SMOKE else (9, 13, 16, 20, 22, 25, 30, 40, 60, 100, 200, 400)
DESIGNS = {9: 3, 16: 4, 20: 4, 25: 5}


def bounds(players: int, splits: list[tuple[int, ...]]) -> tuple[int, int]:
    """The lower bounds of the repeats and of the most meetings of a pair (see the docstring)."""
    meetings = sum(comb(s, 2) for split in splits for s in split)
    pairs = comb(players, 2)
    each = sum(min(split) - 1 for split in splits)
    by_player = ceil(players * max(0, each - (players - 1)) / 2)
    fewest = max(0, meetings - pairs, by_player)
    return fewest, max(ceil(meetings / pairs), 2 if fewest else 1)


def timed(event: Event) -> tuple[tuple[object, ...], float]:
    seating._search.cache_clear()
    start = time.process_time()
    planned = seating.plan(event)
    return planned, time.process_time() - start


def main() -> None:
    print(f"{'players':>7} {'sizes':>6} {'rounds':>6} {'repeats':>7} {'bound':>5} {'most m':>6} {'bound':>5} {'time':>8}")
    worst = 0.0
    for players in SIZES:
        size = DESIGNS.get(players, 4)
        tables = table_sizes(size, [size] if players in DESIGNS else None)
        for rounds in range(3, sized(9, 5)):
            event = Event(tuple(Entrant(f"P{i}") for i in range(players)), rounds, tables, seed=2026)
            planned, spent = timed(event)
            worst = max(worst, spent)
            met = seating.meetings(planned)
            fewest, most = bounds(players, [line.split for line in lineups(event)])
            shape = "–".join(map(str, sorted({tables.sizes[0], tables.sizes[-1]})))
            print(f"{players:>7} {shape:>6} {rounds:>6} {seating.repeats(planned):>7} {fewest:>5} "
                  f"{max(met.values()):>6} {most:>5} {spent * 1000:>6.0f} ms")
    print(f"slowest plan: {worst * 1000:.0f} ms")
    largest = sized(400, 40)
    event = Event(tuple(Entrant(f"P{i}") for i in range(largest)), sized(8, 3), table_sizes(4), seed=2026)
    first = seating.plan(event)[:1]
    changed = replace(event, played=first,
                      entrants=(*event.entrants[1:], replace(event.entrants[0], last=1), Entrant("New", arrives=2)))
    planned, spent = timed(changed)
    print(f"{largest} players, {event.rounds} rounds, re-planned after round 1 (one arrives, one withdraws): "
          f"{seating.repeats(planned)} repeats, {spent * 1000:.0f} ms")


if __name__ == "__main__":
    main()
