"""Facts of RULES.md written out once for the rules tests, independently of the code under test."""

from __future__ import annotations

from collections.abc import Callable

#: RULES.md §1, the "deals" column: how many deals each pattern has for a top hand size M.
PATTERN_LENGTHS: dict[str, Callable[[int], int]] = {
    "down-up": lambda m: 2 * m - 1,
    "up-down": lambda m: 2 * m - 1,
    "down-up-twice-one": lambda m: 2 * m,
    "up-nt-down": lambda m: 2 * m + 2,
    "down": lambda m: m,
    "up": lambda m: m,
}
