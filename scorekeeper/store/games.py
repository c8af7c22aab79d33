"""The games: one row per game, holding the game file's input part; everything else is replayed.

The app reads and writes games with one Core statement each, on one connection per request
(``connection()``), not through the ORM session: a tap is a SELECT and an UPDATE, without the
session's bookkeeping. The ``Game`` model describes the table (migrations, tests); the games
the app works with are ``StoredGame`` records of the rows it selected.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, NamedTuple

import orjson
from sqlalchemy import (
    DateTime,
    Executable,
    ForeignKey,
    Integer,
    String,
    Text,
    bindparam,
    delete,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from ..rules.gamefile import GameFile, normalized, parse, to_input
from ..rules.record import document, record
from .cache import LRU
from .db import TOKEN_CHARS, commit, connection, db, fixed_row, new_token, run_fixed, utc_now

#: Replayed games by ``game_key``; callers treat a GameFile as read-only.
_replayed: LRU[GameFile] = LRU(128)
#: The newest replay of each game in this worker, by token: the next version goes on from it
#: (``parse(..., previous=)``) instead of replaying every deal again.
_newest: LRU[GameFile] = LRU(128)


#: What one version of one game is kept by in a worker's caches (its replay, its pages, its sheet,
#: its entry in a group's figures): its token, when its row was made, and its version.
GameKey = tuple[str, str, int]


def game_key(token: str, created_at: datetime, version: int) -> GameKey:
    """A version of a game never changes, but a token may come back: a game deleted and then made
    again (a second "Play again" of the same game, after the first new game was deleted) starts its
    versions anew, and is told from the deleted one by when its row was made (kept as SQLite gives
    it back: in UTC, without a time zone)."""
    made = created_at.astimezone(UTC).replace(tzinfo=None) if created_at.tzinfo else created_at
    return token, made.isoformat(), version


class Game(db.Model):  # type: ignore[name-defined]
    """The games table: a game's edit and read-only tokens, and the game file input it replays from.

    The app works with ``StoredGame``: a row as it selected it, and what can be done with it.
    """

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True)
    token: Mapped[str] = mapped_column(String(64), unique=True, default=new_token)
    view_token: Mapped[str] = mapped_column(String(64), unique=True, default=new_token)
    title: Mapped[str] = mapped_column(String(100), default="")
    data: Mapped[str] = mapped_column(Text)
    version: Mapped[int] = mapped_column(Integer, nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now,
                                                 onupdate=utc_now)
    #: What the players entered from their own phones that ``data`` doesn't hold yet, for the deal
    #: being played (sealed bids, trick counts not all in): JSON, '' for nothing (SEATS.md). Never
    #: part of the game file, so no answer built from it can hold a sealed bid.
    seats: Mapped[str] = mapped_column(Text, nullable=False, default="", server_default="")
    # An ORM update (a test, the shell) checks the version it read too, as the app's UPDATE does.
    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012 - SQLAlchemy reads it once


class GameTap(db.Model):  # type: ignore[name-defined]
    """The client id of every tap stored in a game, kept for the life of the game: a tap a phone
    sends again (its answer was lost, or both copies arrive at once) is recognised and not applied
    twice, however many taps came since. ``version`` is the game's version the tap made."""

    __tablename__ = "game_taps"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    tap: Mapped[str] = mapped_column(String(40), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, nullable=False)


class GameRecord(db.Model):  # type: ignore[name-defined]
    """What a group shows of a finished game (``rules.record``), stored with the version it is of
    by the write that made that version: a worker that holds nothing of a group reads it instead
    of replaying the game. A record of another version than the game's is not read."""

    __tablename__ = "game_summaries"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    version: Mapped[int] = mapped_column(Integer, nullable=False)
    data: Mapped[str] = mapped_column(Text, nullable=False)


class Written(NamedTuple):
    """A game's next version as written, before its commit: data and title columns, version,
    time."""

    data: str
    title: str
    version: int
    at: datetime
    seats: str


@dataclass(slots=True)
class StoredGame:
    """A game as stored (its row, as selected), and what can be done with it: replay it, store a
    new version of it, delete it."""

    id: int
    token: str
    view_token: str
    title: str
    data: str
    version: int
    created_at: datetime
    updated_at: datetime
    seats: str = ""

    @property
    def key(self) -> GameKey:
        """What this version of the game is kept by (``game_key``)."""
        return game_key(self.token, self.created_at, self.version)

    @property
    def entries(self) -> dict[str, Any]:
        """What the seats entered that the game file doesn't hold yet (the ``seats`` column), as a
        document; empty for nothing."""
        value: dict[str, Any] = orjson.loads(self.seats) if self.seats else {}
        return value

    @property
    def document(self) -> dict[str, Any]:
        """The stored input part of the game file."""
        value: dict[str, Any] = orjson.loads(self.data)
        return value

    def replay(self, document: dict[str, Any]) -> GameFile:
        """Check and replay a game file of this game (GameFileError when refused), going on from the
        newest replay of it this worker holds: the deals they share are not replayed again."""
        game = parse(document, previous=_newest.find(self.token))
        _newest.put(self.token, game)
        return game

    def load(self) -> GameFile:
        """Replay the stored game file (once per version in each worker: a version never
        changes)."""
        return _replayed.get(self.key, lambda: self.replay(self.document))

    @classmethod
    def create(cls, game: GameFile, tokens: tuple[str, str] | None = None) -> StoredGame:
        """A new game holding a checked game file: one INSERT, which the caller commits
        (``commit``). ``tokens``: its edit and read-only tokens, when they are made from something
        (``derived_tokens``).

        Its replay is not kept: the worker's cache is for the games being played, and an import
        (a backup restores dozens) would push them out. The game's first page replays it once.
        """
        data, title = _columns(game)
        kept = _record(game)
        now = utc_now()
        edit, view = tokens or (new_token(), new_token())
        row = {"token": edit, "view_token": view, "title": title, "data": data,
               "version": 1, "created_at": now, "updated_at": now, "seats": ""}
        created = cls(id=run_fixed(_CREATE, row).scalar_one(), **row)
        if kept is not None:
            run_fixed(_keep_record(connection().dialect.name),
                      {"game_id": created.id, "version": 1, "data": kept})
        return created

    def save(self, game: GameFile, tap: str | None = None, seats: str | None = None) -> bool:
        """Store a checked game file as this game's next version and commit, in one UPDATE that
        only matches the version this game was read at; ``tap``, the client id of the tap that made
        the change, is kept with it for the life of the game, in the same transaction. False, with
        nothing stored and the transaction rolled back, when another write came first (another
        phone, a resent form, the same tap arriving twice at once). ``seats``: the new value of what
        the seats entered (``seats`` column); None keeps it as it is."""
        written = self.stage(game, seats)
        if written is None:
            return False
        try:
            if tap is not None:
                run_fixed(_TAP, {"game_id": self.id, "tap": tap, "version": written.version})
            commit()
        except IntegrityError:  # this tap id is stored already: the change is not made twice
            connection().rollback()
            return False
        self.stored(game, written)
        return True

    def stage(self, game: GameFile, seats: str | None = None) -> Written | None:
        """Write a checked game file as this game's next version, for the caller to commit with what
        else it writes (``save``, or a club night's ``StoredEvent.save``), then to call ``stored``.
        None, with the transaction rolled back, when another write came first."""
        data, title = _columns(game)
        kept = _record(game)  # worked out before the write: the UPDATE holds the write lock
        written = Written(data, title, self.version + 1, utc_now(),
                          self.seats if seats is None else seats)
        if run_fixed(_SAVE, {"game_id": self.id, "read_at": self.version, "data": data,
                             "title": title, "version": written.version, "now": written.at,
                             "seats": written.seats}).rowcount != 1:
            connection().rollback()
            return None
        if kept is not None:
            run_fixed(_keep_record(connection().dialect.name),
                      {"game_id": self.id, "version": written.version, "data": kept})
        return written

    def stored(self, game: GameFile, written: Written) -> None:
        """A staged game file was committed: this game is at its next version, and its replay is
        kept."""
        self.data, self.title, self.version, self.updated_at, self.seats = written
        _keep(self, game)

    def applied(self, tap: str) -> bool:
        """Whether the tap with this client id was stored, however long ago (sent again: don't apply
        it twice); read from the database as it is now, so a copy that lost the race to the UPDATE
        sees the one that won."""
        return fixed_row(_APPLIED, {"game_id": self.id, "tap": tap}) is not None

    def delete(self) -> None:
        """Delete the game for good, and commit."""
        run_fixed(_DELETE, {"game_id": self.id})
        commit()


def _keep(stored: StoredGame, game: GameFile) -> None:
    """Keep the replay of what a change just stored, as replaying the stored data would give it."""
    game = normalized(game)
    _replayed.put(stored.key, game)
    _newest.put(stored.token, game)


def _record(game: GameFile) -> str | None:
    """What a group keeps of a finished game (``rules.record``), as stored; None while it goes
    on."""
    return document(record(game)) if game.game.finished else None


@lru_cache(maxsize=4)
def _keep_record(dialect: str) -> Executable:
    """A game's record, in place of the one it had (of an older version)."""
    upsert = (sqlite_insert if dialect == "sqlite" else postgresql_insert)(_records).values(
        game_id=bindparam("game_id"), version=bindparam("version"), data=bindparam("data"))
    return upsert.on_conflict_do_update(index_elements=[_records.c.game_id],
                                        set_={"version": upsert.excluded.version,
                                              "data": upsert.excluded.data})


def _columns(game: GameFile) -> tuple[str, str]:
    """The ``data`` and ``title`` columns of a checked game file."""
    data = orjson.dumps(to_input(game)).decode()
    # PostgreSQL text can't hold NUL; data has it as \u0000
    return data, game.title.replace("\x00", "")


_games = Game.__table__
#: A new game, with every column but its id given; it returns the id.
_CREATE = (insert(_games).values({column.name: bindparam(column.name)
                                  for column in _games.c if column.name != "id"})
           .returning(_games.c.id))
#: A change to a game: written only over the version it was made from.
_SAVE = (update(_games)
         .where(_games.c.id == bindparam("game_id"), _games.c.version == bindparam("read_at"))
         .values(data=bindparam("data"), title=bindparam("title"), version=bindparam("version"),
                 updated_at=bindparam("now"), seats=bindparam("seats")))
_records = GameRecord.__table__
#: The records of these games that are of their current version.
_RECORDS = (select(_records.c.game_id, _records.c.data)
            .join(_games,
                  (_games.c.id == _records.c.game_id) & (_games.c.version == _records.c.version))
            .where(_records.c.game_id.in_(bindparam("ids", expanding=True))))
_taps = GameTap.__table__
#: A tap's client id, kept with the change it made (in the same transaction).
_TAP = insert(_taps).values(game_id=bindparam("game_id"), tap=bindparam("tap"),
                            version=bindparam("version"))
#: Whether a tap was stored.
_APPLIED = select(_taps.c.version).where(_taps.c.game_id == bindparam("game_id"),
                                         _taps.c.tap == bindparam("tap"))
#: A deleted game.
_DELETE = delete(_games).where(_games.c.id == bindparam("game_id"))
#: Built once: every page looks a game up by its token.
_BY_TOKEN = select(_games).where(or_(_games.c.token == bindparam("t"),
                                     _games.c.view_token == bindparam("t")))


def find_game(token: str) -> tuple[StoredGame | None, bool]:
    """The game whose edit or read-only token this is, and whether the token may edit."""
    if not token or len(token) > 64 or not TOKEN_CHARS.issuperset(token):
        return None, False
    row = fixed_row(_BY_TOKEN, {"t": token})  # its columns in StoredGame's order
    if row is None:
        return None, False
    game = StoredGame(*row)
    return game, secrets.compare_digest(game.token, token)


def games_of(edit: list[str], view: list[str]) -> list[StoredGame]:
    """The games with these edit or read-only tokens, the most recently played first."""
    query = (select(_games).where(_games.c.token.in_(edit) | _games.c.view_token.in_(view))
             .order_by(_games.c.updated_at.desc()))
    return [StoredGame(**row._mapping) for row in connection().execute(query)]


def games_by_id(ids: list[int]) -> list[StoredGame]:
    """The games with these ids, the most recently played first (none asked, none read)."""
    if not ids:
        return []
    query = select(_games).where(_games.c.id.in_(ids)).order_by(_games.c.updated_at.desc())
    return [StoredGame(**row._mapping) for row in connection().execute(query)]


def records_of(ids: list[int]) -> dict[int, str]:
    """The stored records of these games that are of each game's current version, by id (one
    SELECT; none asked, none read)."""
    if not ids:
        return {}
    return {row.game_id: row.data for row in connection().execute(_RECORDS, {"ids": ids})}
