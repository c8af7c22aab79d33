"""A club night's standings (EVENTS.md, "Ranking"), from its table games' final standings.

The web layer fills a ``TableResult`` for each finished table game (``table_result`` makes one
from a replayed game) and a ``RoundResult`` for each finished round; ``standings`` ranks the
event's players on them. Scores are exact fractions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from .scoring import Points
from .state import GameState
from .stats import summarize
from .values import name_key

Ranking = Literal["percent", "totals"]
RANKINGS: tuple[Ranking, ...] = ("percent", "totals")


@dataclass(frozen=True)
class TableResult:
    """One finished table game: for each of its players (any order), the final total, the place
    in the final standings (tie-break deals included; tied players share it), whether among the
    winners, the deals dealt in and the bids made; and whether the game was cooperative."""

    players: tuple[str, ...]
    totals: tuple[Points, ...]
    places: tuple[int, ...]
    won: tuple[bool, ...]
    deals: tuple[int, ...]
    made: tuple[int, ...]
    cooperative: bool = False


@dataclass(frozen=True)
class RoundResult:
    """A finished round: its tables' results and who had a bye."""

    tables: tuple[TableResult, ...]
    byes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Line:
    """A player's line of the standings: rank (shared by players level on score and totals),
    score and each round's, rounds played, tables won, deals dealt in, bids made, and the sum of
    their final totals."""

    rank: int
    name: str
    score: Fraction
    per_round: tuple[Fraction, ...]
    rounds_played: int
    tables_won: int
    deals: int
    made: int
    totals: Fraction


def table_result(state: GameState, *, as_it_stands: bool = False) -> TableResult:
    """What the standings need of a finished game: its players who were dealt in. With
    ``as_it_stands``, a game not finished counts as it stands after its last finished deal, its
    leaders winning (a table its director ended, EVENTS.md "Ending a table early"); with no finished
    deal, its players are tied and nobody won.

    >>> from .game import DealInput, replay
    >>> from .presets import make_rules
    >>> game = replay(make_rules({"deal": "fixed", "max_cards": 1, "deals": 2}, 3),
    ...               ["Ann", "Bob", "Cy"],
    ...               [DealInput((1, 1, 0), (1, 0, 0)), DealInput((0, 1, 1), (0, 0, 1))])
    >>> result = table_result(game)
    >>> result.players, result.places, result.won, result.made
    (('Ann', 'Cy', 'Bob'), (1, 1, 3), (True, True, False), (2, 2, 0))
    >>> begun = replay(game.rules, ["Ann", "Bob", "Cy"],
    ...                [DealInput((1, 1, 0), (1, 0, 0)), DealInput((0, 1, 1))])
    >>> result = table_result(begun, as_it_stands=True)
    >>> result.players, result.places, result.won, result.deals
    (('Ann', 'Cy', 'Bob'), (1, 2, 3), (True, False, False), (1, 1, 1))
    >>> table_result(replay(game.rules, ["Ann", "Bob", "Cy"], []), as_it_stands=True).places
    (1, 1, 1)
    """
    lines = summarize(state, as_it_stands=as_it_stands).lines
    if as_it_stands and not lines:
        tied = (0,) * len(state.players)
        return TableResult(state.players, tied, (1,) * len(tied), (False,) * len(tied), tied, tied,
                           state.rules.cooperative)
    return TableResult(tuple(line.name for line in lines), tuple(line.total for line in lines),
                       tuple(line.rank for line in lines), tuple(line.won for line in lines),
                       tuple(line.deals for line in lines), tuple(line.made for line in lines),
                       state.rules.cooperative)


def round_scores(result: RoundResult, ranking: Ranking) -> dict[str, Fraction]:
    """Each player's score for one round, by name key: the table players' and the byes'.

    >>> game = TableResult(("Ann", "Bob", "Cy", "Dee"), (30, 20, 20, 10), (1, 2, 2, 4),
    ...                    (True, False, False, False), (5, 5, 5, 5), (3, 2, 2, 1))
    >>> [str(x) for x in round_scores(RoundResult((game,), ("Eve",)), "percent").values()]
    ['100', '50', '50', '0', '50']
    >>> str(round_scores(RoundResult((game,), ("Eve",)), "totals")["eve"])
    '20'
    """
    scores: dict[str, Fraction] = {}
    for table in result.tables:
        others = len(table.players) - 1
        for name, total, place in zip(table.players, table.totals, table.places):
            if table.cooperative:
                score = Fraction(50 if ranking == "percent" else 0)
            elif ranking == "totals":
                score = Fraction(total)
            else:
                below = sum(p > place for p in table.places)
                level = sum(p == place for p in table.places) - 1
                score = (Fraction(100) * (below + Fraction(level, 2)) / others if others
                         else Fraction(50))
            scores[name_key(name)] = score
    played = list(scores.values())
    bye = Fraction(50) if ranking == "percent" else (
        sum(played, Fraction(0)) / len(played) if played else Fraction(0))
    for name in result.byes:
        scores[name_key(name)] = bye
    return scores


@dataclass(frozen=True)
class Tally:
    """The standings' sums after some rounds, for each of the event's players in its order: the
    score of each round and their sum, rounds played, tables won, deals dealt in, bids made and the
    sum of the final totals. ``tally`` adds rounds to one; ``lines_of`` ranks it."""

    players: tuple[str, ...]
    per_round: tuple[tuple[Fraction, ...], ...]
    scores: tuple[Fraction, ...]
    counts: tuple[tuple[int, int, int, int], ...]
    totals: tuple[Fraction, ...]


def tally(players: Sequence[str], rounds: Sequence[RoundResult], ranking: Ranking,
          after: Tally | None = None) -> Tally:
    """The sums of ``after`` (none when None) with ``rounds`` added. A round a player neither played
    nor had a bye in scores 0."""
    keys = [name_key(name) for name in players]
    index = {key: i for i, key in enumerate(keys)}
    if after is None:
        per_round = [[] for _ in keys]  # type: list[list[Fraction]]
        sums = [Fraction(0) for _ in keys]
        counts = [[0, 0, 0, 0] for _ in keys]
        totals = [Fraction(0) for _ in keys]
    else:
        per_round = [list(row) for row in after.per_round]
        sums = list(after.scores)
        counts = [list(row) for row in after.counts]
        totals = list(after.totals)
    for result in rounds:
        scores = round_scores(result, ranking)
        for i, key in enumerate(keys):
            got = scores.get(key)
            per_round[i].append(got or Fraction(0))
            if got:
                sums[i] += got
        for table in result.tables:
            for name, total, won, deals, made in zip(table.players, table.totals, table.won,
                                                     table.deals, table.made):
                position = index.get(name_key(name))
                if position is not None:
                    row = counts[position]
                    row[0] += 1
                    row[1] += won and not table.cooperative
                    row[2] += deals
                    row[3] += made
                    totals[position] += Fraction(total)
    return Tally(tuple(players), tuple(map(tuple, per_round)), tuple(sums),
                 tuple((a, b, c, d) for a, b, c, d in counts), tuple(totals))


def lines_of(sums: Tally) -> tuple[Line, ...]:
    """The standings of ``sums``, best first (level players in the event's order)."""
    scores = sums.scores
    order = sorted(range(len(sums.players)), key=lambda i: (-scores[i], -sums.totals[i], i))
    ranked: list[Line] = []
    for place, i in enumerate(order, start=1):
        level = ranked and (ranked[-1].score, ranked[-1].totals) == (scores[i], sums.totals[i])
        played, wins, deals, made = sums.counts[i]
        ranked.append(Line(ranked[-1].rank if level else place, sums.players[i], scores[i],
                           sums.per_round[i], played, wins, deals, made, sums.totals[i]))
    return tuple(ranked)


def standings(players: Sequence[str], rounds: Sequence[RoundResult],
              ranking: Ranking) -> tuple[Line, ...]:
    """The event's standings after its finished ``rounds``, best first (level players in the
    event's order). A round a player neither played nor had a bye in scores 0.

    >>> one = TableResult(("Ann", "Bob", "Cy"), (30, 20, 10), (1, 2, 3), (True, False, False),
    ...                   (4, 4, 4), (3, 2, 1))
    >>> two = TableResult(("Ann", "Bob", "Cy"), (5, 25, 15), (3, 1, 2), (False, True, False),
    ...                   (4, 4, 4), (0, 3, 1))
    >>> [(line.rank, line.name, str(line.score), str(line.totals))
    ...  for line in standings(["Ann", "Bob", "Cy"], [RoundResult((one,)), RoundResult((two,))],
    ...                        "percent")]
    [(1, 'Bob', '150', '45'), (2, 'Ann', '100', '35'), (3, 'Cy', '50', '25')]
    """
    return lines_of(tally(players, rounds, ranking))
