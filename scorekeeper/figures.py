"""A group's figures: its games' summaries, each player's sums and OpenSkill rating (GROUPS.md).

The ratings are a thin wrapper over the ``openskill`` package (Plackett–Luce, default
parameters): one update per finished, non-cooperative game, in the group's order. The figures
are kept per version of the group's list (the games and the version of each), as a game keeps
its replays: a page of an unchanged group computes nothing, and a game added at the end goes
on from the figures before it instead of rating every game again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import orjson
from openskill.models import PlackettLuce

from . import board
from .cache import LRU
from .models import Member
from .rules.errors import RulesError
from .rules.gamefile import GameFile, parse
from .rules.stats import Line, Summary, Tally, ranked, summarize
from .rules.words import _

MODEL = PlackettLuce()
#: A player's rating before any game: the model's default (μ = 25, σ = 25/3).
DEFAULT = (MODEL.mu, MODEL.sigma)


class Rating(NamedTuple):
    """An OpenSkill rating: μ, σ, and the ordinal μ − 3σ the leaderboard is ordered by."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """μ − 3σ (the package's ``ordinal()``).

        >>> round(Rating(25.0, 25 / 3).ordinal, 9)
        0.0
        """
        return self.mu - 3 * self.sigma


def rate(ratings: dict[str, Rating], places: Sequence[tuple[str, int]]) -> None:
    """Update the ratings of one game's players, ranked by its standings (1 the best, ties share)."""
    teams = [[MODEL.rating(*ratings.get(key, DEFAULT))] for key, _rank in places]
    new = MODEL.rate(teams, ranks=[rank for _key, rank in places])
    for (key, _rank), (player,) in zip(places, new):
        ratings[key] = Rating(player.mu, player.sigma)


class Entry(NamedTuple):
    """One game of a group as its page shows it."""

    title: str
    players: tuple[str, ...]
    finished: bool
    cooperative: bool
    winners: tuple[str, ...]
    preset: str  # the id of its rules' preset; "" for a game the rules no longer replay
    house: bool  # whether the table changed any rule of the preset
    deals: int
    summary: Summary

    @property
    def variant(self) -> str:
        """Its rules' name in the page's language (an entry is kept for every language)."""
        return board.variant_name(self.preset, self.house) if self.preset else _("can't be shown")


def entry(game: GameFile) -> Entry:
    """What a group shows of a game, from its replay."""
    state = game.game
    winners = () if game.rules.cooperative or not state.finished else tuple(game.players[w] for w in state.winners)
    played = sum(1 for result in state.deals if result.finished)
    return Entry(game.title, game.players, state.finished, game.rules.cooperative, winners,
                 game.rules.preset, board.house_rules(game.rules), played, summarize(state))


@dataclass(slots=True)
class Player:
    """A player of a group: the spelling of their most recent game, sums, rating and its story."""

    key: str
    name: str
    tally: Tally = field(default_factory=Tally)
    rating: Rating = field(default_factory=lambda: Rating(*DEFAULT))
    #: After each of their finished games: (the game's index in the group, its line, the rating
    #: after it, the hit rate to date).
    history: list[tuple[int, Line, Rating, float | None]] = field(default_factory=list)

    def copy(self) -> Player:
        """A player to go on counting from, leaving this one as it is."""
        return Player(self.key, self.name, self.tally.copy(), self.rating, list(self.history))


@dataclass(slots=True)
class Figures:
    """A group's figures after its games, in the group's order."""

    keys: tuple[tuple[str, int], ...] = ()
    entries: list[Entry] = field(default_factory=list)
    players: dict[str, Player] = field(default_factory=dict)
    #: After each rated game: (the game's index, every rated player's ordinal then).
    chart: list[tuple[int, dict[str, float]]] = field(default_factory=list)
    #: Whether every game counted is finished (none of them changes at each tap any more).
    settled: bool = True
    #: What the group's page shows of these figures, rendered once, by the token it was asked with.
    pages: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def extended(self, key: tuple[str, int], game: Entry) -> Figures:
        """These figures with one more game at the end (this object is left as it is)."""
        index = len(self.entries)
        players = {k: p.copy() for k, p in self.players.items()}
        ratings = {k: p.rating for k, p in players.items()}
        summary = game.summary
        places = ranked(summary)
        if places is not None:
            rate(ratings, places)
        for line in summary.lines:
            player = players.setdefault(line.key, Player(line.key, line.name))
            player.name = line.name
            player.tally.add(line)
            player.rating = ratings.get(line.key, player.rating)
            player.history.append((index, line, player.rating, player.tally.hit_rate))
        chart = list(self.chart)
        if places is not None:
            chart.append((index, {k: r.ordinal for k, r in ratings.items()}))
        return Figures((*self.keys, key), [*self.entries, game], players, chart,
                       settled=self.settled and game.finished)

    def leaderboard(self) -> list[Player]:
        """The players, best rating (ordinal) first; then more games, then by name."""
        return sorted(self.players.values(), key=lambda p: (-p.rating.ordinal, -p.tally.games, p.name.casefold()))


#: The figures of each group, by its edit token: the newest computed in this worker.
_figures: LRU[Figures] = LRU(16)
#: The figures of each group up to its first game not finished (see ``figures``).
_settled: LRU[Figures] = LRU(16)
#: What a group shows of each game, by (game token, version): a version never changes.
_entries: LRU[Entry] = LRU(4096)


def figures(group: str, members: Sequence[Member], data: Callable[[list[int]], dict[int, str]]) -> Figures:
    """The figures of the group with this token, whose games these are, in order; ``data`` reads
    the stored game files of games whose entries are not kept (one call, at most).

    The figures kept for the group are used as they are when nothing changed, and gone on from
    when games were only added at the end. A game being played changes at every tap: the figures
    before the first game not finished are kept too, and gone on from. Otherwise (a game removed,
    put back in its place, a finished game changed) every game is counted again, in order.
    """
    keys = tuple(member.key for member in members)
    kept = _figures.find(group)
    if kept is not None and kept.keys == keys:
        return kept
    start = max((found for found in (kept, _settled.find(group))
                 if found is not None and keys[:len(found.keys)] == found.keys),
                key=lambda found: len(found.keys), default=Figures())
    later = members[len(start.keys):]
    missing = [member for member in later if _entries.find(member.key) is None]
    if missing:
        stored = data([member.id for member in missing])
        for member in missing:
            if member.id in stored:
                _entries.put(member.key, _entry_of(stored[member.id], member.title))
    result = settled = start
    for member in later:
        found = _entries.find(member.key)
        if found is not None:  # a game deleted between the two SELECTs is left out
            result = result.extended(member.key, found)
            if result.settled:
                settled = result
    _figures.put(group, result)
    if settled.keys:
        _settled.put(group, settled)
    return result


def _entry_of(data: str, title: str) -> Entry:
    """A stored game's entry; a game the rules no longer replay is listed, and counts for nothing."""
    document = orjson.loads(data)
    try:
        return entry(parse(document))
    except RulesError:
        players = tuple(str(name) for name in document.get("players", ()))
        return Entry(title, players, False, False, (), "", False, 0, Summary(False, False, ()))
