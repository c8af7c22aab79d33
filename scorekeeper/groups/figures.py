"""A group's figures: its games' summaries, each player's sums and OpenSkill rating (GROUPS.md).

The ratings are a thin wrapper over the ``openskill`` package (Plackett–Luce, default
parameters): one update per finished, non-cooperative game, in the group's order. The figures
are kept per version of the group's list (the games and the version of each), as a game keeps
its replays: a page of an unchanged group computes nothing, and a game added at the end goes
on from the figures before it instead of rating every game again.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

import orjson
from openskill.models import PlackettLuce

from ..play import board
from ..rules.errors import RulesError
from ..rules.gamefile import GameFile, parse
from ..rules.record import Record, read, record
from ..rules.stats import Line, Summary, Tally, ranked
from ..rules.words import _
from ..store.cache import LRU
from ..store.games import GameKey
from ..store.groups import Member

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


def rate(ratings: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """The ratings of one game's players after it, ranked by its standings (1 the best, ties
    share)."""
    return list(_rated(tuple(ratings), tuple(ranks)))


@lru_cache(maxsize=4096)
def _rated(ratings: tuple[Rating, ...], ranks: tuple[int, ...]) -> tuple[Rating, ...]:
    """``rate``, worked out once for the same ratings and ranks: a game of players new to the group
    (guests, a new group's first games) rates them all from the same default."""
    new = MODEL.rate([[MODEL.rating(*rating)] for rating in ratings], ranks=list(ranks))
    return tuple(Rating(player.mu, player.sigma) for (player,) in new)


#: Reads the stored records of games (by id) that are of each game's current version
#: (``store.games``).
Records = Callable[[list[int]], dict[int, str]]


def no_records(_ids: list[int]) -> dict[int, str]:
    """No stored record: every game is replayed."""
    return {}


class Entry(Record):
    """One game of a group as its page shows it: its record (``rules.record``), and its rules'
    name."""

    __slots__ = ()

    @property
    def variant(self) -> str:
        """Its rules' name in the page's language (an entry is kept for every language)."""
        return board.variant_name(self.preset, self.house) if self.preset else _("can't be shown")


def entry(game: GameFile) -> Entry:
    """What a group shows of a game, from its replay."""
    return Entry(*record(game))


class Played(NamedTuple):
    """One of a player's finished games: its index in the group, their line, their rating and hit
    rate to date after it, and their game before (None for their first). Copies of the figures
    share these chains: a player's story is never copied."""

    game: int
    line: Line
    rating: Rating
    hit: float | None
    before: Played | None


@dataclass(slots=True)
class Player:
    """A player of a group: the spelling of their most recent game, sums, rating and its story."""

    key: str
    name: str
    tally: Tally = field(default_factory=Tally)
    rating: Rating = field(default_factory=lambda: Rating(*DEFAULT))
    #: Their latest finished game, the chain of their others behind it.
    last: Played | None = None

    @property
    def history(self) -> list[Played]:
        """Their finished games, in the group's order."""
        games = []
        step = self.last
        while step is not None:
            games.append(step)
            step = step.before
        games.reverse()
        return games

    def copy(self) -> Player:
        """A player to go on counting from, leaving this one as it is."""
        return Player(self.key, self.name, self.tally.copy(), self.rating, self.last)


@dataclass(slots=True)
class Figures:
    """A group's figures after its games, in the group's order. Once made, a ``Figures`` never
    changes (its rendered pages aside): figures with more games are a new one, made by
    ``extended``."""

    keys: tuple[GameKey, ...] = ()
    entries: list[Entry] = field(default_factory=list)
    players: dict[str, Player] = field(default_factory=dict)
    #: The indexes of the rated games, in order (the ratings chart's steps).
    rated: list[int] = field(default_factory=list)
    #: Whether every game counted is finished (none of them changes at each tap any more).
    settled: bool = True
    #: What the group's pages show of these figures, rendered once, by what they were asked with.
    pages: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    def extended(self, games: Iterable[tuple[GameKey, Entry]]) -> Figures:
        """These figures with more games at the end, this object left as it is. One pass: the
        players' index is copied once, and a player once, when a new game first changes them; a
        game touches only its own players."""
        keys, entries, rated = list(self.keys), list(self.entries), list(self.rated)
        players, mine, settled = self.players, set[str](), self.settled
        for key, game in games:
            index = len(entries)
            keys.append(key)
            entries.append(game)
            settled = settled and game.finished
            lines = game.summary.lines
            if not lines:
                continue
            if players is self.players:
                players = dict(players)
            for line in lines:
                if line.key not in mine:
                    found = players.get(line.key)
                    players[line.key] = (Player(line.key, line.name) if found is None
                                         else found.copy())
                    mine.add(line.key)
            places = ranked(game.summary)
            if places is not None:
                after = rate([players[who].rating for who, _rank in places],
                             [rank for _who, rank in places])
                for (who, _rank), rating in zip(places, after):
                    players[who].rating = rating
                rated.append(index)
            for line in lines:
                player = players[line.key]
                player.name = line.name
                player.tally.add(line)
                player.last = Played(index, line, player.rating, player.tally.hit_rate, player.last)
        return Figures(tuple(keys), entries, players, rated, settled)

    def leaderboard(self) -> list[Player]:
        """The players, best rating (ordinal) first; then more games, then by name."""
        return sorted(self.players.values(),
                      key=lambda p: (-p.rating.ordinal, -p.tally.games, p.name.casefold()))


#: The figures of each group, by its edit token: the newest computed in this worker.
_figures: LRU[Figures] = LRU(16)
#: The figures of each group up to its first game not finished (see ``figures``).
_settled: LRU[Figures] = LRU(16)
#: What a group shows of each game, by ``Member.key``: a version never changes.
_entries: LRU[Entry] = LRU(4096)


#: Each group's games and figures, by its edit token, with the mark of the state they are of.
_marked: LRU[tuple[Hashable, list[Member], Figures]] = LRU(16)


def marked(group: str, mark: Hashable, members: Callable[[], list[Member]],
           data: Callable[[list[int]], dict[int, str]],
           records: Records = no_records) -> tuple[list[Member], Figures]:
    """The games of the group with this token (``members`` reads them) and their figures, as
    ``figures`` counts them; while the group's mark (``StoredGroup.mark``) is the one they were
    read at, neither is read nor counted again: a page of an unchanged group reads no game."""
    kept = _marked.find(group)
    if kept is not None and kept[0] == mark:
        return kept[1], kept[2]
    games = members()
    result = figures(group, games, data, records)
    _marked.put(group, (mark, games, result))
    return games, result


def figures(group: str, members: Sequence[Member], data: Callable[[list[int]], dict[int, str]],
            records: Records = no_records) -> Figures:
    """The figures of the group with this token, whose games these are, in order; ``data`` reads
    the stored game files of games whose entries are kept neither in this worker nor as records
    (``records`` reads those of the games' current versions; one call each, at most).

    The figures kept for the group are used as they are when nothing changed, and gone on from
    when games were only added at the end. A game being played changes at every tap: the figures
    before the first game not finished are kept too, and gone on from. Otherwise (a game removed,
    put back in its place, a finished game changed) every game is counted again, in order, in
    one pass, from the entries the kept figures hold: no game they hold is replayed again.
    """
    keys = tuple(member.key for member in members)
    kept = _figures.find(group)
    if kept is not None and kept.keys == keys:
        return kept
    found = [f for f in (kept, _settled.find(group)) if f is not None]
    start = max((f for f in found if keys[:len(f.keys)] == f.keys), key=lambda f: len(f.keys),
                default=Figures())
    later = _entries_of(members[len(start.keys):],
                        [f for f in found if len(f.keys) > len(start.keys)], data, records)
    cut = (next((n for n, (_key, game) in enumerate(later) if not game.finished), len(later))
           if start.settled else 0)
    settled = start.extended(later[:cut]) if cut else start
    result = settled.extended(later[cut:]) if cut < len(later) else settled
    _figures.put(group, result)
    if settled.keys and settled.settled:
        _settled.put(group, settled)
    return result


def _entries_of(members: Sequence[Member], kept: Sequence[Figures],
                data: Callable[[list[int]], dict[int, str]],
                records: Records) -> list[tuple[GameKey, Entry]]:
    """The entries of these games, in order: kept in this worker (by version, or in figures kept
    for the group), else their records stored with the game's version (``records``), else replayed
    from the stored games (one call of ``data``). A game deleted in the meantime is left out."""
    held = {key: game for figures in kept for key, game in zip(figures.keys, figures.entries)}
    entries: dict[GameKey, Entry] = {}
    for member in members:
        game = held.get(member.key) or _entries.find(member.key)
        if game is not None:
            entries[member.key] = game
    missing = [member for member in members if member.key not in entries]
    if missing:
        found = records([member.id for member in missing])
        for member in missing:
            if member.id in found and (stored := read(found[member.id])) is not None:
                entries[member.key] = game = Entry(*stored)
                _entries.put(member.key, game)
        missing = [member for member in missing if member.key not in entries]
    if missing:
        stored = data([member.id for member in missing])
        for member in missing:
            if member.id in stored:
                entries[member.key] = _entry_of(stored[member.id], member.title)
                _entries.put(member.key, entries[member.key])
    return [(member.key, entries[member.key]) for member in members if member.key in entries]


def _entry_of(data: str, title: str) -> Entry:
    """A stored game's entry; a game the rules no longer replay is listed, and counts for
    nothing."""
    document = orjson.loads(data)
    try:
        return entry(parse(document))
    except RulesError:
        players = tuple(str(name) for name in document.get("players", ()))
        return Entry(title, players, False, False, (), "", False, 0, Summary(False, False, ()))
