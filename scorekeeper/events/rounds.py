"""A club night's rounds: the table games of each round read at once, their progress, the
standings, the proposed seating of the next round, and starting it (EVENTS.md, "Playing a round").

A round is started by checking everything first (the seating, one game file per table, replayed
by the rules core) and only then writing: the table games, their places in the event's group and
the event's new document, in one short transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

from ..changes.games import create as create_game
from ..rules.errors import EventError
from ..rules.event import Seating, lineups
from ..rules.gamefile import GameFile, parse
from ..rules.ranking import Line, RoundResult, TableResult, Tally, lines_of, table_result, tally
from ..rules.seating import next_round
from ..rules.seats import manual, ranked, swap
from ..rules.words import _, listed, ngettext
from ..store.cache import LRU
from ..store.events import StoredEvent
from ..store.games import StoredGame, games_by_id
from ..store.groups import groups_by_id
from ..web import language
from .document import Document, core_event

#: The next round's seating ``mixed`` by event and version: planning it is the costly part of a
#: page.
_planned: LRU[Seating] = LRU(32)
#: Events with their rounds' games by ``Loaded.key``: 300 phones following a room screen, or a
#: director's page opened again, read and rank the games once per change.
_loaded: LRU[Loaded] = LRU(32)
#: What the event's pages take of each table game, by ``game_key``: a deal entered at one table
#: replays that table's game alone.
_progress: LRU[Progress] = LRU(2048)
#: The standings by the event and the versions of its finished rounds' games: they change only
#: when a round finishes or a finished game is corrected, not at every deal.
_standings: LRU[tuple[Tally, tuple[Line, ...]]] = LRU(32)
#: The provisional standings by the event and the versions of all its games.
_provisional: LRU[tuple[Line, ...]] = LRU(32)


class Busy(EventError):
    """A round can't be started now: the current one is not finished, or every round was played."""


@dataclass(frozen=True)
class Progress:
    """What the event takes of a table's game: finished, the deal being played (the last one once
    finished; 0 before the first), the deals planned, the winners, the result for the standings,
    whether the director ended it early, and while it goes on, its result as it stands after its
    last finished deal (for the provisional standings)."""

    finished: bool
    deal: int
    deals: int
    winners: tuple[str, ...]
    result: TableResult | None
    ended_early: bool = False
    standing: TableResult | None = None


def progress(file: GameFile, ended_early: bool = False) -> Progress:
    """A table game's progress, from its replay. One the director ended early counts as it stands
    after its last finished deal, its players tied when it has none (EVENTS.md, "Ending a table
    early"), even if its game was reopened since."""
    state = file.game
    played, planned = len(state.deals), len(state.schedule)
    if ended_early and not state.finished:
        done = sum(deal.finished for deal in state.deals)
        leaders = tuple(file.players[w] for w in state.leaders()) if done else ()
        return Progress(True, done, planned, leaders, table_result(state, as_it_stands=True), True)
    if played and not state.finished and state.current is None:  # the next deal is up
        played = min(played + 1, planned) if planned else played + 1
    if not state.finished:
        return Progress(False, played, planned, (), None,
                        standing=table_result(state, as_it_stands=True))
    return Progress(True, played, planned, tuple(file.players[w] for w in state.winners),
                    table_result(state), ended_early)


#: A table whose game was deleted: it holds its round up no longer, and has no result.
GONE = Progress(True, 0, 0, (), None)


@dataclass(frozen=True)
class Table:
    """A table of a started round: its number, players in seat order, its game (None once
    deleted) and that game's progress."""

    number: int
    players: tuple[str, ...]
    game: StoredGame | None
    now: Progress

    @property
    def finished(self) -> bool:
        """Its game is finished (or ended early, or deleted)."""
        return self.now.finished

    @property
    def deal(self) -> tuple[int, int]:
        """The deal being played and the deals planned."""
        return self.now.deal, self.now.deals

    @property
    def winners(self) -> list[str]:
        """The winners of its finished game."""
        return list(self.now.winners)

    @property
    def result(self) -> TableResult | None:
        """What the standings take of its finished game."""
        return self.now.result


@dataclass(frozen=True)
class Round:
    """A started round: its number, tables and byes."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...]

    @property
    def finished(self) -> bool:
        """Every table's game is finished (a game ended early counts)."""
        return all(table.finished for table in self.tables)


@dataclass(frozen=True)
class Loaded:
    """An event as its pages and its API show it: the stored row, whether the token may edit, its
    document and its started rounds with their games (read in one SELECT)."""

    stored: StoredEvent
    editable: bool
    doc: Document
    rounds: tuple[Round, ...]

    @property
    def current(self) -> Round | None:
        """The round started last, if any."""
        return self.rounds[-1] if self.rounds else None

    @property
    def finished_rounds(self) -> tuple[Round, ...]:
        """The rounds whose games are all finished."""
        return tuple(r for r in self.rounds if r.finished)

    @cached_property
    def _finished(self) -> tuple[Tally, tuple[Line, ...]]:
        """The sums and standings after the finished rounds, worked out again only when they can
        change."""
        games = tuple(t.game.key if t.game else None
                      for r in self.finished_rounds for t in r.tables)

        def work_out() -> tuple[Tally, tuple[Line, ...]]:
            sums = tally([p["name"] for p in self.doc["players"]], self._results(),
                         self.doc["ranking"])
            return sums, lines_of(sums)

        return _standings.get((self.stored.token, self.stored.version, games), work_out)

    @property
    def lines(self) -> tuple[Line, ...]:
        """The standings after the finished rounds."""
        return self._finished[1]

    def _results(self) -> list[RoundResult]:
        return [RoundResult(tuple(t.result for t in r.tables if t.result is not None), r.byes)
                for r in self.finished_rounds]

    @cached_property
    def provisional(self) -> tuple[Line, ...] | None:
        """While a round is under way, the standings with it counted as each of its tables stands
        after its last finished deal, a table with none as a tie (EVENTS.md, "Ranking"); else None.
        Only the round under way is added to the finished rounds' sums."""
        current = self.current
        if current is None or current.finished:
            return None
        games = tuple(t.game.key if t.game else None for r in self.rounds for t in r.tables)
        return _provisional.get((self.stored.token, self.stored.version, games), self._provisional)

    def _provisional(self) -> tuple[Line, ...]:
        current = self.current
        assert current is not None
        now = tuple(found for t in current.tables
                    if (found := t.now.result or t.now.standing) is not None)
        sums = tally([p["name"] for p in self.doc["players"]], [RoundResult(now, current.byes)],
                     self.doc["ranking"], after=self._finished[0])
        return lines_of(sums)

    @property
    def to_come(self) -> bool:
        """Rounds are left to play."""
        return len(self.rounds) < self.doc["rounds"]

    @property
    def moment(self) -> str:
        """The moment of the night, which orders its pages: ``seat`` before a round, ``play`` while
        one is under way, ``end`` once the last planned round is finished."""
        current = self.current
        if current is not None and not current.finished:
            return "play"
        return "seat" if self.to_come else "end"

    @property
    def winners(self) -> list[str]:
        """Who won the night, once its last round is finished (those ranked first); else nobody."""
        return [line.name for line in self.lines if line.rank == 1] if self.moment == "end" else []

    def ready(self) -> None:
        """Refuse (Busy) to start a round now, naming why."""
        current = self.current
        if not self.to_come:
            if current is not None and not current.finished:
                raise Busy(_("Round %(round)s is the last planned round, and it is being played: "
                             "plan more rounds under \u201cRounds to come\u201d to play another",
                             round=current.number))
            raise Busy(_("Every planned round has been played"))
        if current is not None and not current.finished:
            waiting = [str(t.number) for t in current.tables if not t.finished]
            raise Busy(ngettext(
                "Round %(round)s is not finished: table %(tables)s is still playing",
                "Round %(round)s is not finished: tables %(tables)s are still playing",
                len(waiting), round=current.number, tables=listed(waiting)))

    def proposal(self) -> Seating | None:
        """The seating proposed for the next round (a swap the director made included), or None
        when every round has been started."""
        if not self.to_come:
            return None
        number = len(self.rounds) + 1
        kept = self.doc.get("proposal")
        if kept is not None and kept["round"] == number:
            return Seating(tuple(map(tuple, kept["tables"])), tuple(kept["byes"]))
        event = core_event(self.doc)
        if self.doc["seating"] == "ranked" and self.rounds:
            return ranked(lineups(event)[0], [line.name for line in self.lines])
        key = (self.stored.token, self.stored.version)
        return _planned.get(key, lambda: next_round(event))


def game_ids(doc: Document) -> list[int]:
    """The ids of every table game of the rounds started."""
    return [t["game"] for r in doc["played"] for t in r["tables"]]


def mark(stored: StoredEvent) -> str:
    """What tells one state of an event and its games from another (one SELECT)."""
    return stored.mark()


def load(stored: StoredEvent, editable: bool, state: str | None = None) -> Loaded:
    """The event with its rounds' games (one SELECT of them all, replayed once per version), kept
    by the event, the link's kind and ``state`` (its ``mark``) when given."""
    if state is None:
        return _read(stored, editable)
    return _loaded.get((stored.id, stored.token, editable, state), lambda: _read(stored, editable))


def _read(stored: StoredEvent, editable: bool) -> Loaded:
    doc = stored.document
    games = {game.id: game for game in games_by_id(game_ids(doc))}
    rounds = []
    for played in doc["played"]:
        tables = []
        for number, table in enumerate(played["tables"], start=1):
            game, early = games.get(table["game"]), bool(table.get("ended_early"))
            now = GONE if game is None else _progress.get(
                (game.key, early), lambda game=game, early=early: progress(game.load(), early))
            tables.append(Table(number, tuple(table["players"]), game, now))
        rounds.append(Round(played["round"], tuple(tables), tuple(played["byes"])))
    return Loaded(stored, editable, doc, tuple(rounds))


def swapped(loaded: Loaded, one: object, other: object) -> Document:
    """The document with two players of the proposed seating exchanged."""
    loaded.ready()
    seating = loaded.proposal()
    assert seating is not None
    done = swap(seating, one, other)  # type: ignore[arg-type]
    return dict(loaded.doc, proposal={"round": len(loaded.rounds) + 1,
                                      "tables": [list(t) for t in done.tables],
                                      "byes": list(done.byes)})


def game_title(doc: Document, number: int, table: int) -> str:
    """A table game's title: "<event> · round r · table t", in the night's language (EVENTS.md,
    "Playing a round"): "Vrijdag · spelronde 1 · tafel 2" for a Dutch night, whoever starts it."""
    with language.speaking(doc.get("language")):
        return _("%(event)s · round %(round)s · table %(table)s", event=doc["name"], round=number,
                 table=table)


def start(loaded: Loaded, tables: object | None) -> Document:
    """Seat and start the next round (``tables``: a manual seating): the table games are made and
    stored, and the event's new document returned for the caller to save, which commits them all."""
    loaded.ready()
    doc = loaded.doc
    seating = manual(core_event(doc), tables) if tables is not None else loaded.proposal()
    assert seating is not None
    number = len(loaded.rounds) + 1
    files = [parse({"title": game_title(doc, number, t), "players": list(players),
                    "rules": doc["rules"], "first_dealer": 0})
             for t, players in enumerate(seating.tables, start=1)]
    group = groups_by_id([doc["group"]]) if doc.get("group") is not None else []
    made = []
    for file in files:
        game = create_game(file)
        loaded.stored.attach(game.id)
        for found in group:
            found.add(game)
        made.append(game)
    played = {"round": number, "byes": list(seating.byes),
              "tables": [{"players": list(players), "game": game.id}
                         for players, game in zip(seating.tables, made)]}
    return dict(doc, played=[*doc["played"], played], proposal=None)


def seating_kept(seated: tuple[str, ...], game: GameFile) -> str | None:
    """Why a table game's file changes the players its round seated, or None: the seated players
    stay, in seat order; anyone else joined the table late (absent from deal 1), as RULES.md §7
    lets a table change."""
    names = list(game.players)
    for name in seated:
        if name not in names:
            return _("%(name)s was seated at this table by the club night and stays among its "
                     "players (someone who leaves is marked absent from then on)", name=name)
    if [name for name in names if name in seated] != list(seated):
        return _("the players seated at this table by the club night keep their seat order: "
                 "%(players)s", players=", ".join(seated))
    late = {absence.player for absence in game.absences if absence.first == 1}
    for seat, name in enumerate(names):
        if name not in seated and seat not in late:
            return _("%(name)s was not seated at this table by the club night: someone who joins "
                     "the table arrives late (absent from deal 1)", name=name)
    return None


def score(value: Fraction) -> float:
    """A score as the file gives it: rounded to 2 decimals, half to even."""
    return float(round(value, 2))


def total(value: Fraction) -> int | float:
    """A sum of final totals as the file gives it."""
    return int(value) if value.denominator == 1 else score(value)


def standing_lines(loaded: Loaded) -> list[dict[str, Any]]:
    """The standings as the event's file gives them."""
    return [{"rank": line.rank, "name": line.name, "score": score(line.score),
             "rounds_played": line.rounds_played, "tables_won": line.tables_won,
             "deals": line.deals, "made": line.made,
             "per_round": [score(s) for s in line.per_round], "totals": total(line.totals)}
            for line in loaded.lines]

