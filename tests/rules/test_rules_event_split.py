"""A club night's split into tables and its byes (EVENTS.md, "Who plays a round")."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.errors import EventError, ValueRefused
from scorekeeper.rules.event import (
    Entrant,
    Event,
    Seating,
    fewest_byes,
    lineups,
    split,
    table_sizes,
)

QUICK = settings(max_examples=120, deadline=None)


@pytest.mark.parametrize(("players", "size", "sizes", "expected"), [
    (13, 4, None, (5, 4, 4)),
    (6, 4, None, (3, 3)),
    (11, 4, None, (4, 4, 3)),
    (10, 4, [4, 5], (5, 5)),
    (5, 4, [4, 5], (5,)),
])
def test_split_is_that_of_the_examples(players: int, size: int, sizes: list[int] | None,
                                       expected: tuple[int, ...]) -> None:
    assert split(players, table_sizes(size, sizes)) == expected


@pytest.mark.parametrize(("players", "byes", "then"), [(11, 1, (5, 5)), (7, 2, (5,))])
def test_byes_of_the_examples(players: int, byes: int, then: tuple[int, ...]) -> None:
    tables = table_sizes(4, [4, 5])
    assert split(players, tables) is None
    assert fewest_byes(players, tables) == byes
    event = Event(tuple(Entrant(f"P{i}") for i in range(players)), 1, tables, seed=3)
    (line,) = lineups(event)
    assert (len(line.byes), line.split, len(line.players)) == (byes, then, players - byes)


def every_split(players: int, sizes: list[int]) -> list[tuple[int, ...]]:
    """Every multiset of allowed sizes adding up to ``players``, largest
    first, found by counting."""
    if players == 0:
        return [()]
    found = []
    for s in sizes:
        if s <= players:
            found += [tuple(sorted((s, *rest), reverse=True))
                      for rest in every_split(players - s, [x for x in sizes if x <= s])]
    return found


@QUICK
@given(st.integers(3, 8), st.sets(st.integers(3, 8), min_size=1, max_size=4), st.integers(1, 40))
def test_split_is_the_best_of_every_split(size: int, extra: set[int], players: int) -> None:
    sizes = sorted(extra | {size})
    candidates = every_split(players, sizes)
    got = split(players, table_sizes(size, sizes))
    if not candidates:
        assert got is None
        return
    best = min(candidates, key=lambda c: (sum(abs(s - size) for s in c), len(c), c))
    assert got == best


def test_sizes_default_to_one_either_side_within_three_to_eight() -> None:
    assert [table_sizes(s).sizes for s in (3, 5, 8)] == [(3, 4), (4, 5, 6), (7, 8)]


@pytest.mark.parametrize(("size", "sizes", "words"), [
    (9, None, "The preferred table size must be a whole number from 3 to 8, not 9"),
    (4, [2, 4], "An allowed table size must be a whole number from 3 to 8, not 2"),
    (4.0, None, "The preferred table size must be a whole number from 3 to 8, not 4.0"),
    (4, [5, 6], "The allowed table sizes must include the preferred size, 4"),
])
def test_bad_table_sizes_are_refused_in_words(size: object, sizes: list[object] | None,
                                              words: str) -> None:
    with pytest.raises((EventError, ValueRefused), match=f"^{words}$"):
        table_sizes(size, sizes)


def test_too_few_players_present_is_said() -> None:
    event = Event(tuple(Entrant(n, last=1 if n != "A" else None) for n in "ABCD"), 2,
                  table_sizes(4), 1, played=(Seating((("A", "B", "C", "D"),)),))
    with pytest.raises(EventError, match="^Only 1 player is present: a table needs at least 3$"):
        lineups(event)


def test_asked_byes_sit_out_and_count_as_byes() -> None:
    entrants = tuple(Entrant(f"P{i}", asked=frozenset({1}) if i == 0 else frozenset())
                     for i in range(12))
    event = Event(entrants, 2, table_sizes(4, [4, 5]), seed=9)
    first, second = lineups(event)
    # 11 present at round 1 need one more bye; the one who asked is not given it again at round 2
    assert "P0" in first.byes and len(first.byes) == 2 and first.split == (5, 5)
    assert second.byes == () and second.split == (4, 4, 4)


@QUICK
@given(st.integers(6, 30), st.integers(1, 8), st.integers(0, 2**32 - 1))
def test_nobody_gets_a_second_bye_before_everyone_present_had_one(players: int, rounds: int,
                                                                  seed: int) -> None:
    event = Event(tuple(Entrant(f"P{i}") for i in range(players)), rounds, table_sizes(4, [4, 5]),
                  seed)
    had: Counter[str] = Counter()
    for line in lineups(event):
        assert len(line.byes) == fewest_byes(players, event.tables)
        # a bye to someone with k byes only when everyone present with fewer gets one too
        most = max((had[name] for name in line.byes), default=0)
        assert all(had[name] >= most for name in line.players)
        for name in line.byes:
            had[name] += 1
        assert sorted((*line.players, *line.byes)) == sorted(e.name for e in event.entrants)
        assert sum(line.split) == len(line.players)


def test_byes_come_from_the_seed() -> None:
    def byes(seed: int) -> list[tuple[str, ...]]:
        event = Event(tuple(Entrant(f"P{i}") for i in range(11)), 5, table_sizes(4, [4, 5]), seed)
        return [line.byes for line in lineups(event)]

    assert byes(1) == byes(1)
    assert len({tuple(byes(seed)) for seed in range(10)}) > 1
