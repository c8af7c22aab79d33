"""Who sits where at a table, and seatings not searched for (EVENTS.md, "Who sits where"): the
first seat going round, ``ranked`` and ``manual`` seatings, and a swap of two players.

A table's seat order is clockwise and its first seat deals first. In a round seated ``mixed``,
each table's first seat goes to the player who has dealt first least often compared with the
others who have played as many rounds, so nobody deals first more than once more than any of
them. Among those equally due, it goes to the one whom the next rounds of the plan need least
(the one with the most others as due at their table in the next round, then the round after),
then as the seed draws. The other
seats follow in an order drawn from the seed, so neighbours change from round to round.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from . import values
from .errors import EventError
from .event import Event, Lineup, Seating, TableSizes, chance, lineups
from .words import _, ngettext


def first_seats(played: Sequence[Seating], planned: Sequence[Seating], seed: int) -> tuple[Seating, ...]:
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
    ordered: list[Seating] = []
    for i, seating in enumerate(planned):
        rng = chance(seed, "seats", len(played) + i + 1)
        playing = set(seating.seated)
        low: dict[int, int] = {}
        for name in rounds.keys() | playing:
            group = rounds.get(name, 0) + (name in playing)
            low[group] = min(low.get(group, firsts.get(name, 0)), firsts.get(name, 0))
        taken: dict[tuple[int, int], str] = {}
        for ahead in (0, 1):
            due = [name for name in seating.seated if firsts.get(name, 0) == low[rounds.get(name, 0) + 1] + ahead]
            rng.shuffle(due)
            taken.update(_matched(due, planned[i:], taken.keys()))
        chosen = {t: name for (r, t), name in taken.items() if r == 0}
        tables = []
        for t, table in enumerate(seating.tables):
            first = chosen.get(t)
            if first is None:
                draws = {name: rng.random() for name in table}
                first = min(table, key=lambda name: (firsts.get(name, 0) - low[rounds.get(name, 0) + 1], draws[name]))
            rest = [name for name in table if name != first]
            rng.shuffle(rest)
            tables.append((first, *rest))
        done = Seating(tuple(tables), seating.byes)
        _count(done, firsts, rounds)
        ordered.append(done)
    return tuple(ordered)


def _matched(due: Sequence[str], ahead: Sequence[Seating], blocked: Collection[tuple[int, int]]) -> dict[tuple[int, int], str]:
    """Who of ``due`` deals first at which table (round, table) of ``ahead``, but the ``blocked`` ones.

    The tables of the rounds to come, until there are as many as players due, are matched to the
    players due sitting at them (augmenting paths): first so that every table but those of the
    last of these rounds has one, then so that every player due has one. Then each of them deals
    first once before anyone deals twice, whenever the plan allows it. The players due first
    are matched so, then those due next, at the tables left."""
    waiting = set(due)
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
            members.append([name for name in table if name in waiting])
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
        raise EventError(_("The tables must be a list of tables, each a list of its players' names"))
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
                raise EventError(_("%(name)s is not a player of this event", name=values.name(typed)))
            if key not in playing:
                raise EventError(_("%(name)s does not play this round", name=name))
            if key in seen:
                raise _twice(name, seen[key], number)
            seen[key] = number
            names.append(name)
        seated.append(tuple(names))
    for name in line.players:
        if _key(name) not in seen:
            raise EventError(_("%(name)s is not at any table: seat every player of this round", name=name))
    return Seating(tuple(seated), line.byes)


def _check_size(number: int, size: int, sizes: TableSizes) -> None:
    if size not in sizes.sizes:
        raise EventError(ngettext("Table %(table)s has %(num)s player: the tables may have %(sizes)s players",
                                  "Table %(table)s has %(num)s players: the tables may have %(sizes)s players",
                                  size, table=number, sizes=", ".join(map(str, sizes.sizes))))


def _twice(name: str, first: int, second: int) -> EventError:
    if first == second:
        return EventError(_("%(name)s is at table %(table)s twice: seat each player once", name=name, table=first))
    return EventError(_("%(name)s is at table %(first)s and at table %(second)s: seat each player once",
                        name=name, first=first, second=second))


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
