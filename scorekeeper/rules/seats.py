"""Who sits where at a table, and seatings not searched for (EVENTS.md, "Who sits where"): the
first seat going round, ``ranked`` and ``manual`` seatings, and a swap of two players.

A table's seat order is clockwise and its first seat deals first. In a round seated ``mixed``,
the first seats are given round by round so that nobody deals first more than once more than
anyone else who has played as many rounds, whoever arrived, withdrew or sat a round out:

- the round's players are grouped by the rounds they will have played, with those who sit it
  out and have played as many, and each group's first seats kept within a band of two values:
  below it a player must deal now, at its top must not (``_bands``);
- when two players who must deal share a table, or a table has nobody who may deal, players are
  swapped between the round's tables, the fewest repeats added (``_repair``);
- the other tables go to the players who may deal, matched to the tables of the rounds to come
  so that those due get a table of their own before anyone deals twice (``_matched``), the most
  behind the night's pace of first seats first, then as the seed draws.

The other seats follow in an order drawn from the seed, so neighbours change from round to round.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from . import values
from .errors import EventError
from .event import Event, Lineup, Seating, TableSizes, chance, lineups
from .words import _, ngettext

#: What one more meeting of a pair that met m times adds to the cost of the repeats.
#: How far ahead of the night's pace of first seats a player may be and still be due one (players
#: further ahead deal only at a table where nobody else may).
AHEAD = 0.0
_UP = tuple(8 * (m > 0) + 2 * m - 1 if m > 0 else 0 for m in range(64))


def first_seats(played: Sequence[Seating], planned: Sequence[Seating],
                seed: int) -> tuple[Seating, ...]:
    """The ``planned`` rounds with each table in seat order, after the ``played`` rounds.

    >>> played = [Seating((("A", "B", "C"),))]
    >>> planned = first_seats(played, [Seating((("A", "B", "C"),)), Seating((("C", "A", "B"),))], 1)
    >>> sorted(seating.tables[0][0] for seating in planned)
    ['B', 'C']
    """
    firsts: dict[str, int] = {}
    rounds: dict[str, int] = {}
    for seating in played:
        _count(seating, firsts, rounds)
    met = _Met((*played, *planned))
    ahead = list(planned)
    ordered: list[Seating] = []
    for i, seating in enumerate(planned):
        rng = chance(seed, "seats", len(played) + i + 1)
        must, free = _bands(seating, firsts, rounds)
        pace = _pace(seating, firsts, rounds)
        ready = {name for name in free if pace(name) <= AHEAD}
        if len(must | ready) < len(seating.tables):
            ready = free
        seating = ahead[i] = _repair(seating, must, must | ready, met)
        draws = {name: rng.random() for name in seating.seated}
        due = sorted(ready, key=lambda name: (pace(name), draws[name]))
        chosen = {t: name for t, table in enumerate(seating.tables)
                  for name in table if name in must}
        taken = _matched(due, ahead[i:], {(0, t) for t in chosen})
        chosen.update({t: name for (r, t), name in taken.items() if r == 0})
        tables = []
        for t, table in enumerate(seating.tables):
            first = chosen.get(t) or min(
                table, key=lambda name: (name not in free, pace(name), draws[name]))
            rest = [name for name in table if name != first]
            rng.shuffle(rest)
            tables.append((first, *rest))
        done = Seating(tuple(tables), seating.byes)
        _count(done, firsts, rounds)
        ordered.append(done)
    return tuple(ordered)


def _matched(due: Sequence[str], ahead: Sequence[Seating],
             blocked: Collection[tuple[int, int]]) -> dict[tuple[int, int], str]:
    """Who of ``due`` deals first at which table (round, table) of ``ahead``, but the ``blocked``
    ones.

    The tables of the rounds to come, until there are as many as players due, are matched to the
    players due sitting at them (augmenting paths): first so that every table but those of the
    last of these rounds has one, then so that every player due has one. Then each of them deals
    first once before anyone deals twice, whenever the plan allows it. ``due`` comes most due
    first: a table takes the most due of its players the matching allows."""
    waiting = set(due)
    rank = {name: i for i, name in enumerate(due)}
    slots: list[tuple[int, int]] = []
    members: list[list[str]] = []
    where: dict[str, list[int]] = {name: [] for name in due}
    must = 0
    for r, seating in enumerate(ahead):
        if len(slots) >= len(due):
            break
        must = len(slots)
        for t, table in enumerate(seating.tables):
            if (r, t) in blocked:
                continue
            for name in table:
                if name in waiting:
                    where[name].append(len(slots))
            members.append(sorted((name for name in table if name in waiting),
                                  key=rank.__getitem__))
            slots.append((r, t))
    holder: dict[str, int] = {}
    taken: dict[int, str] = {}

    def from_table(slot: int, seen: set[str]) -> bool:
        for name in members[slot]:
            if name not in seen:
                seen.add(name)
                if name not in holder or from_table(holder[name], seen):
                    holder[name], taken[slot] = slot, name
                    return True
        return False

    def from_player(name: str, seen: set[int]) -> bool:
        for slot in where[name]:
            if slot not in seen:
                seen.add(slot)
                if slot not in taken or from_player(taken[slot], seen):
                    holder[name], taken[slot] = slot, name
                    return True
        return False

    for slot in range(must):
        from_table(slot, set())
    for name in due:
        if name not in holder:
            from_player(name, set())
    return {slots[slot]: name for slot, name in taken.items()}


def _count(seating: Seating, firsts: dict[str, int], rounds: dict[str, int]) -> None:
    for table in seating.tables:
        firsts[table[0]] = firsts.get(table[0], 0) + 1
        for name in table:
            rounds[name] = rounds.get(name, 0) + 1


def _pace(seating: Seating, firsts: dict[str, int],
          rounds: dict[str, int]) -> Callable[[str], float]:
    """How far ahead of the night's pace of first seats a player is (lower: more due): first seats
    so far less the share of them the rounds they will have played are worth."""
    share = ((sum(firsts.values()) + len(seating.tables))
             / (sum(rounds.values()) + len(seating.seated)))
    return lambda name: firsts.get(name, 0) - share * (rounds.get(name, 0) + 1)


def _bands(seating: Seating, firsts: dict[str, int],
           rounds: dict[str, int]) -> tuple[set[str], set[str]]:
    """Who of the round must take a first seat and who may, so that after it everyone's first seats
    differ by at most one from those of anyone else who has played as many rounds.

    The players of the round are grouped by the rounds they will have played, with those who sit
    it out and have played as many. Each group keeps its first seats within a band [L, L + 1]: a
    player at L − 1 must deal, at L may, at L + 1 must not. Each group takes the band that gives it
    about its share of the round's tables; then bands are moved until the players who must deal
    are no more than the tables and those who may are no fewer."""
    playing = set(seating.seated)
    tables = len(seating.tables)
    groups: dict[int, list[str]] = {}
    for name in seating.seated:
        groups.setdefault(rounds.get(name, 0) + 1, []).append(name)
    resting: dict[int, list[int]] = {}
    for name, count in rounds.items():
        if name not in playing and count in groups:
            resting.setdefault(count, []).append(firsts.get(name, 0))
    options: dict[int, list[tuple[int, int, int]]] = {}
    pick: dict[int, int] = {}
    for count, names in groups.items():
        dealt = [firsts.get(name, 0) for name in names]
        lo, hi = max(dealt) - 1, min(dealt) + 1
        rest = resting.get(count)
        if rest and max(lo, max(rest) - 1) <= min(hi, min(rest)):
            lo, hi = max(lo, max(rest) - 1), min(hi, min(rest))
        hi = max(lo, hi)  # a group already wider than a band: the band of its most first seats
        options[count] = [(band, sum(f < band for f in dealt), sum(f <= band for f in dealt))
                          for band in range(lo, hi + 1)]
        share = tables * len(names) / len(playing)
        pick[count] = min(range(hi - lo + 1),
                          key=lambda o: max(options[count][o][1] - share,
                                            share - options[count][o][2], 0))

    def total(part: int) -> int:
        return sum(options[count][o][part] for count, o in pick.items())

    for _step in range(4 * len(groups) + 4):
        if total(1) > tables:
            lower = [count for count, o in pick.items() if o > 0]
            if not lower:
                break
            count = max(lower, key=lambda c: (options[c][pick[c]][1], c))
            pick[count] -= 1
        elif total(2) < tables:
            raise_ = [count for count, o in pick.items() if o + 1 < len(options[count])
                      and total(1) - options[count][o][1] + options[count][o + 1][1] <= tables]
            if not raise_:
                break
            count = min(raise_,
                        key=lambda c: (options[c][pick[c] + 1][1] - options[c][pick[c]][1], c))
            pick[count] += 1
        else:
            break
    must: set[str] = set()
    free: set[str] = set()
    for count, names in groups.items():
        band = options[count][pick[count]][0]
        must.update(name for name in names if firsts.get(name, 0) < band)
        free.update(name for name in names if firsts.get(name, 0) == band)
    return must, free


class _Met:
    """How often each pair shares a table over some rounds, and what a swap of two players adds."""

    def __init__(self, rounds: Sequence[Seating]) -> None:
        self.count: dict[frozenset[str], int] = {}
        for seating in rounds:
            for table in seating.tables:
                self.meet(table, 1)

    def meet(self, table: Sequence[str], step: int) -> None:
        for i, a in enumerate(table):
            for b in table[i + 1:]:
                pair = frozenset((a, b))
                self.count[pair] = self.count.get(pair, 0) + step

    def cost(self, leaves: str, joins: str, table: Sequence[str]) -> int:
        """What putting ``joins`` in the place of ``leaves`` at ``table`` adds to the cost of the
        repeats (as the search counts it: 8 a repeat, plus its excess squared)."""
        added = 0
        for x in table:
            if x != leaves:
                added += _UP[self.count.get(frozenset((joins, x)), 0)]
                added -= _UP[self.count.get(frozenset((leaves, x)), 0) - 1]
        return added


def _repair(seating: Seating, must: set[str], eligible: set[str], met: _Met) -> Seating:
    """The round with players swapped between its tables, the fewest repeats added, until no two
    players who must deal share a table and every table has someone who may deal."""
    tables = [list(table) for table in seating.tables]
    for _step in range(2 * len(tables)):
        crowded = [t for t, table in enumerate(tables) if sum(name in must for name in table) > 1]
        bare = [t for t, table in enumerate(tables) if not any(name in eligible for name in table)]
        if crowded:
            here = crowded[0]
            movers = [name for name in tables[here] if name in must][1:]
            targets = [(t, x) for t, table in enumerate(tables)
                       if not any(name in must for name in table)
                       for x in table]
        elif bare:
            here = bare[0]
            movers = tables[here]
            targets = [(t, x) for t, table in enumerate(tables)
                       if sum(name in eligible for name in table) > 1
                       for x in table if x in eligible]
        else:
            break
        if not targets:
            break
        best = min(((met.cost(a, x, tables[t]) + met.cost(x, a, tables[here]), t, x, a)
                    for a in movers for t, x in targets), key=lambda c: c[0])
        _, there, other, mover = best
        for table in (tables[here], tables[there]):
            met.meet(table, -1)
        tables[here][tables[here].index(mover)] = other
        tables[there][tables[there].index(other)] = mover
        for table in (tables[here], tables[there]):
            met.meet(table, 1)
    return Seating(tuple(map(tuple, tables)), seating.byes)


def ranked(line: Lineup, ranking: Sequence[str]) -> Seating:
    """Round ``line`` seated by ``ranking`` (the standings' names, best first): the best at table 1,
    each table in the ranking's order; players not ranked yet come last, in the event's order.

    >>> line = Lineup(2, ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"), (), (4, 3))
    >>> ranked(line, ["Gus", "Bob", "Ann", "Eve", "Cy", "Dee"]).tables
    (('Gus', 'Bob', 'Ann', 'Eve'), ('Cy', 'Dee', 'Fay'))
    """
    place = {values.name_key(name): i for i, name in enumerate(ranking)}
    order = sorted(line.players, key=lambda name: place.get(values.name_key(name), len(place)))
    tables, start = [], 0
    for size in line.split:
        tables.append(tuple(order[start:start + size]))
        start += size
    return Seating(tuple(tables), line.byes)


def _key(name: str) -> str:
    return values.name_key(" ".join(name.split()))


def _upcoming(event: Event) -> Lineup:
    ahead = lineups(event)
    if not ahead:
        raise EventError(_("Every planned round has been played"))
    return ahead[0]


def manual(event: Event, tables: object) -> Seating:
    """Check the director's tables for the next round: each player of the round exactly once,
    at tables of allowed sizes. The names are matched as a group matches them.

    >>> from .event import Entrant, table_sizes
    >>> event = Event(tuple(Entrant(n) for n in ("Ann", "Bob", "Cy", "Dee")), 2, table_sizes(4), 1)
    >>> manual(event, [["bob", " ann", "Cy", "Dee"]]).tables
    (('Bob', 'Ann', 'Cy', 'Dee'),)
    >>> manual(event, [["Ann", "Bob", "Cy", "Ann"]])
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.EventError: Ann is at table 1 twice: seat each player once
    """
    line = _upcoming(event)
    if not isinstance(tables, list | tuple) or not all(isinstance(t, list | tuple) for t in tables):
        raise EventError(_("The tables must be a list of tables, "
                           "each a list of its players' names"))
    known = {_key(entrant.name): entrant.name for entrant in event.entrants}
    playing = {_key(name) for name in line.players}
    seen: dict[str, int] = {}
    seated = []
    for number, table in enumerate(tables, start=1):
        _check_size(number, len(table), event.tables)
        names = []
        for typed in table:
            key = _key(values.name(typed))
            name = known.get(key)
            if name is None:
                raise EventError(_("%(name)s is not a player of this event",
                                   name=values.name(typed)))
            if key not in playing:
                raise EventError(_("%(name)s does not play this round", name=name))
            if key in seen:
                raise _twice(name, seen[key], number)
            seen[key] = number
            names.append(name)
        seated.append(tuple(names))
    for name in line.players:
        if _key(name) not in seen:
            raise EventError(_("%(name)s is not at any table: seat every player of this round",
                               name=name))
    return Seating(tuple(seated), line.byes)


def _check_size(number: int, size: int, sizes: TableSizes) -> None:
    if size not in sizes.sizes:
        raise EventError(ngettext("Table %(table)s has %(num)s player: "
                                  "the tables may have %(sizes)s players",
                                  "Table %(table)s has %(num)s players: "
                                  "the tables may have %(sizes)s players", size, table=number,
                                  sizes=", ".join(map(str, sizes.sizes))))


def _twice(name: str, first: int, second: int) -> EventError:
    if first == second:
        return EventError(_("%(name)s is at table %(table)s twice: seat each player once",
                            name=name, table=first))
    return EventError(_("%(name)s is at table %(first)s and at table %(second)s: "
                        "seat each player once", name=name, first=first, second=second))


def swap(seating: Seating, one: str, other: str) -> Seating:
    """A proposed seating with two of its players' seats exchanged (at two tables, or at one).

    >>> swap(Seating((("Ann", "Bob"), ("Cy", "Dee"))), "dee", "Ann").tables
    (('Dee', 'Bob'), ('Cy', 'Ann'))
    """
    where = {}
    for t, table in enumerate(seating.tables):
        for s, name in enumerate(table):
            where[_key(name)] = (t, s, name)
    found = []
    for typed in (one, other):
        key = _key(values.name(typed))
        if key not in where:
            raise EventError(_("%(name)s is not at a table of this round", name=values.name(typed)))
        found.append(where[key])
    (t1, s1, a), (t2, s2, b) = found
    if (t1, s1) == (t2, s2):
        raise EventError(_("Choose two different players to swap"))
    tables = [list(table) for table in seating.tables]
    tables[t1][s1], tables[t2][s2] = b, a
    return Seating(tuple(map(tuple, tables)), seating.byes)
