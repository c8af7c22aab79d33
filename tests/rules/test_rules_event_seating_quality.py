"""How few repeats ``mixed`` seating finds where some can't be avoided (EVENTS.md, "Who sits where",
rule 2), over a few seeds: the figures of bench/seating.py kept from going back."""

from __future__ import annotations

import pytest

from scorekeeper.rules.event import Entrant, Event, table_sizes
from scorekeeper.rules.seating import plan, repeats


@pytest.mark.parametrize(("players", "size", "rounds", "most"), [
    (20, 4, 6, 40),  # 5 tables of 4 for 6 rounds: 60 repeats over these seeds before
    (30, 5, 5, 24),  # 6 tables of 5 for 5 rounds: 26 before
])
def test_a_night_that_must_repeat_repeats_little(players: int, size: int, rounds: int,
                                                 most: int) -> None:
    found = [repeats(plan(Event(tuple(Entrant(f"P{i}") for i in range(players)), rounds,
                                table_sizes(size, [size]), seed))) for seed in range(6)]
    assert sum(found) <= most, found
