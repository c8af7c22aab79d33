"""The first seat goes round (EVENTS.md, "Who sits where", rule 3) on a club night played round
by round, as the app seats it: ``next_round`` with the rounds played so far, players arriving,
withdrawing and taking byes between rounds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.event import Entrant, Event, Seating, table_sizes
from scorekeeper.rules.seating import next_round


def first_seat_gaps(rounds: Sequence[Seating]) -> list[tuple[int, str, int, str, int]]:
    """After each round, the pairs of players who have played as many rounds and whose first
    seats differ by more than one: (round, one, their first seats, other, theirs)."""
    firsts: Counter[str] = Counter()
    played: Counter[str] = Counter()
    gaps = []
    for number, seating in enumerate(rounds, start=1):
        for table in seating.tables:
            firsts[table[0]] += 1
            played.update(table)
        groups: dict[int, list[str]] = {}
        for name, count in played.items():
            groups.setdefault(count, []).append(name)
        for names in groups.values():
            most = max(names, key=lambda name: (firsts[name], name))
            least = min(names, key=lambda name: (firsts[name], name))
            if firsts[most] - firsts[least] > 1:
                gaps.append((number, most, firsts[most], least, firsts[least]))
    return gaps


def night(event: Event, changes: Sequence[Sequence[tuple[str, int]]]) -> tuple[Seating, ...]:
    """The event's rounds seated one at a time; before round r + 2, ``changes[r]`` (an arrival of
    a new player, a withdrawal or a bye of the player at that index of the entrants present)."""
    entrants = list(event.entrants)
    played: tuple[Seating, ...] = ()
    for number in range(1, event.rounds + 1):
        for kind, which in changes[number - 2] if number > 1 else ():
            present = [i for i, e in enumerate(entrants) if e.plays(number) and e.arrives < number]
            if kind == "arrives":
                entrants.append(Entrant(f"N{len(entrants)}", arrives=number))
            elif len(present) > 6:
                i = present[which % len(present)]
                entrants[i] = (replace(entrants[i], last=number - 1) if kind == "withdraws"
                               else replace(entrants[i], asked=entrants[i].asked | {number}))
        event = replace(event, entrants=tuple(entrants), played=played)
        played += (next_round(event),)
    return played


def test_the_first_seat_goes_round_after_arrivals_and_a_withdrawal() -> None:
    # 14 players at tables of 3 to 5 for 4 rounds; one arrives for round 2, one withdraws and one
    # arrives for round 3. Seated so before, a player of all four rounds dealt first twice and
    # another of all four rounds never did.
    event = Event(tuple(Entrant(f"P{i}") for i in range(14)), 4, table_sizes(4), seed=2)
    played = night(event, [[("arrives", 0)], [("withdraws", 0), ("arrives", 0)], []])
    assert [len(seating.tables) for seating in played] == [3, 4, 4, 4]
    assert first_seat_gaps(played) == []


CHANGE = st.tuples(st.sampled_from(["arrives", "withdraws", "bye"]), st.integers(0, 40))


@settings(max_examples=30, deadline=None)
@given(players=st.integers(6, 13), rounds=st.integers(2, 5), size=st.integers(3, 5),
       seed=st.integers(0, 2**32 - 1),
       changes=st.lists(st.lists(CHANGE, max_size=3), min_size=4, max_size=4))
def test_the_first_seat_goes_round_whoever_arrives_withdraws_or_sits_out(
        players: int, rounds: int, size: int, seed: int,
        changes: list[list[tuple[str, int]]]) -> None:
    event = Event(tuple(Entrant(f"P{i}") for i in range(players)), rounds, table_sizes(size), seed)
    assert first_seat_gaps(night(event, changes)) == []
