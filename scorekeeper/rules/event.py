"""A club night's rounds (EVENTS.md, "Who plays a round"): the players present, the split into
tables and the byes.

An event is given to the core as plain values: its entrants (when each arrives, withdraws or
asked for a bye), the planned rounds, the table sizes, the seed and the rounds already played.
``lineups`` says who plays each round still to come and at which table sizes; ``seating.plan``
seats them. Every choice left to chance comes from the event's seed through ``chance``, so the
same event gives the same answer on every machine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from . import values
from .errors import EventError
from .presets import Rules
from .words import N_, _, ngettext

#: The table sizes an event may allow (EVENTS.md, "What an event is").
SMALLEST, LARGEST = 3, 8
#: Each field of the table sizes in a player's words (translated with ``_`` where shown).
LABELS = {"size": N_("The preferred table size"), "sizes": N_("An allowed table size")}


@dataclass(frozen=True)
class TableSizes:
    """The preferred table size and the allowed ones (ascending, the preferred among them)."""

    size: int
    sizes: tuple[int, ...]


def table_sizes(size: object, sizes: Sequence[object] | None = None) -> TableSizes:
    """Check an event's ``tables``: by default ``size − 1`` to ``size + 1``, kept within 3–8.

    >>> table_sizes(4), table_sizes(3).sizes, table_sizes(5, [5, 4, 5]).sizes
    (TableSizes(size=4, sizes=(3, 4, 5)), (3, 4), (4, 5))
    >>> table_sizes(4, [5, 6])
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.EventError: The allowed table sizes must include the preferred size, 4
    """
    preferred = values.whole(size, lambda: _(LABELS["size"]), SMALLEST, LARGEST)
    allowed: Sequence[int]
    if sizes is None:
        allowed = range(max(SMALLEST, preferred - 1), min(LARGEST, preferred + 1) + 1)
    else:
        allowed = [values.whole(s, lambda: _(LABELS["sizes"]), SMALLEST, LARGEST)
                   for s in sizes[:LARGEST + 1]]
    if preferred not in allowed:
        raise EventError(_("The allowed table sizes must include the preferred size, %(size)s",
                           size=preferred))
    return TableSizes(preferred, tuple(sorted(set(allowed))))


def split(players: int, tables: TableSizes) -> tuple[int, ...] | None:
    """The tables ``players`` sit at (largest first), or None when no allowed sizes add up to them.

    The smallest sum of |size − preferred| wins, then the fewest tables, then the most even
    sizes (the smallest largest table, and so on).

    >>> sizes = table_sizes(4)
    >>> split(13, sizes), split(6, sizes), split(11, sizes), split(11, table_sizes(4, [4, 5]))
    ((5, 4, 4), (3, 3), (4, 4, 3), None)
    """
    return _split(players, tables.size, tables.sizes)


@lru_cache(maxsize=256)
def _split(players: int, preferred: int, sizes: tuple[int, ...]) -> tuple[int, ...] | None:
    # best[m]: the best way to seat m players, as (cost, tables, sizes largest first). Adding one
    # more table of the same size to two ways keeps their order, so the best of m − s plus s is
    # the best of m that has a table of size s.
    best: list[tuple[int, int, tuple[int, ...]] | None] = [(0, 0, ())] + [None] * players
    for m in range(1, players + 1):
        for s in sizes:
            before = best[m - s] if s <= m else None
            if before is None:
                continue
            way = (before[0] + abs(s - preferred), before[1] + 1,
                   tuple(sorted((*before[2], s), reverse=True)))
            current = best[m]
            if current is None or way < current:
                best[m] = way
    found = best[players]
    return found[2] if found is not None and players else None


def fewest_byes(players: int, tables: TableSizes) -> int:
    """How many of ``players`` must sit a round out so that the rest split into tables.

    >>> fewest_byes(11, table_sizes(4, [4, 5])), fewest_byes(7, table_sizes(4, [4, 5]))
    (1, 2)
    >>> fewest_byes(2, table_sizes(4))
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.EventError: Only 2 players are present: a table needs at least 3
    """
    for byes in range(players - tables.sizes[0] + 1):
        if split(players - byes, tables) is not None:
            return byes
    raise EventError(ngettext("Only %(num)s player is present: a table needs at least %(least)s",
                              "Only %(num)s players are present: a table needs at least %(least)s",
                              players, least=tables.sizes[0]))


@dataclass(frozen=True)
class Entrant:
    """A player of the event: the first round they play, the last (once they withdraw), and the
    rounds they asked a bye for."""

    name: str
    arrives: int = 1
    last: int | None = None
    asked: frozenset[int] = frozenset()

    def plays(self, number: int) -> bool:
        """Present at round ``number`` (1-based): arrived, not withdrawn, no bye asked for it."""
        return (self.arrives <= number and (self.last is None or number <= self.last)
                and number not in self.asked)


@dataclass(frozen=True)
class Seating:
    """One round's tables, each in seat order (the first seat deals first), and who sat it out."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()

    @property
    def seated(self) -> tuple[str, ...]:
        """Everyone at a table, table by table."""
        return tuple(name for table in self.tables for name in table)


@dataclass(frozen=True)
class Event:
    """What the core needs of an event: its entrants in the event's order, the planned rounds, the
    table sizes, the seed (0 to 2³² − 1) and the rounds already played (or started)."""

    entrants: tuple[Entrant, ...]
    rounds: int
    tables: TableSizes
    seed: int
    played: tuple[Seating, ...] = ()


@dataclass(frozen=True)
class Lineup:
    """Who plays round ``number``, in the event's order; who sits it out; the sizes of its
    tables."""

    number: int
    players: tuple[str, ...]
    byes: tuple[str, ...]
    split: tuple[int, ...]


def chance(seed: int, *purpose: object) -> random.Random:
    """The random choices of one purpose of an event (a round's byes, its seating): drawn from the
    seed alone, the same on every machine and in every Python process.

    >>> (chance(7, "byes", 2).random() == chance(7, "byes", 2).random()
    ...  != chance(7, "byes", 3).random())
    True
    """
    return random.Random(" ".join(map(str, (seed, *purpose))))


def lineups(event: Event) -> tuple[Lineup, ...]:
    """Who plays each round not yet played, with the byes the split makes necessary.

    A round's byes go to the players with the fewest byes so far (asked or given), then to those
    who asked for the fewest over the whole event; among equals the seed decides.

    >>> ann, bob = Entrant("Ann"), Entrant("Bob", asked=frozenset({2}))
    >>> event = Event((ann, bob, *(Entrant(n) for n in "CDEFGHIJK")), 2, table_sizes(4, [4, 5]), 1)
    >>> [(line.number, len(line.players), len(line.byes), line.split) for line in lineups(event)]
    [(1, 10, 1, (5, 5)), (2, 10, 1, (5, 5))]
    >>> "Bob" in lineups(event)[1].byes
    True
    """
    had = {entrant.name: 0 for entrant in event.entrants}
    for seating in event.played:
        for name in seating.byes:
            if name in had:
                had[name] += 1
    found: list[Lineup] = []
    for number in range(len(event.played) + 1, event.rounds + 1):
        present = [e for e in event.entrants if e.plays(number)]
        asked = [e.name for e in event.entrants if number in e.asked and e.arrives <= number
                 and (e.last is None or number <= e.last)]
        count = fewest_byes(len(present), event.tables)
        order = list(present)
        chance(event.seed, "byes", number).shuffle(order)
        order.sort(key=lambda e: (had[e.name], len(e.asked)))
        given = {e.name for e in order[:count]}
        byes = tuple(asked) + tuple(e.name for e in present if e.name in given)
        for name in byes:
            had[name] += 1
        seated = tuple(e.name for e in present if e.name not in given)
        table_split = split(len(seated), event.tables)
        assert table_split is not None
        found.append(Lineup(number, seated, byes, table_split))
    return tuple(found)


#: A club table's pace, to size a round by (docs/events.md): the minutes a deal takes besides its
#: cards (shuffling, dealing, bidding, entering it) and the seconds one card played takes.
DEAL_MINUTES, CARD_SECONDS = 2, 5


@dataclass(frozen=True)
class RoundLength:
    """What one table's game takes: its deals, and about how many minutes (to 5 minutes; None when
    its hands are chosen as it goes). A game of no set length (``fixed`` or ``manual`` without a
    number of deals) has none; a target may end a game sooner."""

    deals: int
    minutes: int | None


def round_length(rules: Rules) -> RoundLength | None:
    """How long one table's game is under ``rules``, at ``rules.players`` players.

    >>> from .presets import make_rules
    >>> round_length(make_rules({}, 4)), round_length(make_rules({"max_cards": 5}, 5))
    (RoundLength(deals=19, minutes=75), RoundLength(deals=9, minutes=30))
    >>> (round_length(make_rules({"deal": "manual", "deals": 6}, 4)),
    ...  round_length(make_rules({"preset": "oh-well"}, 4)))
    (RoundLength(deals=6, minutes=None), None)
    """
    if rules.sizes is not None:
        hands = [size for size, _no_trump in rules.sizes][:rules.deals]
    elif rules.deals is not None and rules.deal == "fixed":
        hands = [rules.max_cards] * rules.deals
    else:
        return None if rules.deals is None else RoundLength(rules.deals, None)
    minutes = sum(DEAL_MINUTES + size * rules.players * CARD_SECONDS / 60 for size in hands)
    return RoundLength(len(hands), max(5, 5 * round(minutes / 5)))
