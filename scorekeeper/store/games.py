"""The database: one row per game, holding the game file's input part; everything else is replayed.

The app reads and writes games with one Core statement each, on one connection per request
(``connection()``), not through the ORM session: a tap is a SELECT and an UPDATE, without the
session's bookkeeping. The ``Game`` model describes the table (migrations, tests); the games
the app works with are ``StoredGame`` records of the rows it selected.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import string
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, NamedTuple

import orjson
from flask import Flask, g
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import (
    Boolean,
    Connection,
    CursorResult,
    DateTime,
    Dialect,
    Executable,
    ForeignKey,
    Integer,
    Select,
    String,
    Text,
    bindparam,
    delete,
    event,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from .cache import LRU
from .rules.gamefile import GameFile, normalized, parse, to_input
from .rules.values import MAX_GROUP_GAMES

#: Replayed games by ``game_key``; callers treat a GameFile as read-only.
_replayed: LRU[GameFile] = LRU(128)
#: The newest replay of each game in this worker, by token: the next version goes on from it
#: (``parse(..., previous=)``) instead of replaying every deal again.
_newest: LRU[GameFile] = LRU(128)


class Base(DeclarativeBase):
    """Declarative base of every table."""


# Objects stay usable after a commit: a redirect after saving needs no second SELECT.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
migrate = Migrate()


def sqlite_pragmas(synchronous: str) -> Callable[[Any, Any], None]:
    """What every new SQLite connection is told: WAL, wait for a lock, foreign keys, durability.

    ``synchronous=NORMAL`` (the default; SQLite's advice for WAL) keeps every acknowledged entry
    through any crash or kill of the app, and costs no disk flush per commit; only an operating
    system crash or a power cut can take back the last entries before the next checkpoint.
    ``FULL`` flushes the log at every commit, so an entry survives a power cut too.
    """

    def on_connect(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.close()

    return on_connect


def init_db(app: Flask) -> None:
    """Bind the database to the app; SQLite connections get their pragmas as they are opened.
    An error's message leaves out its statement's parameters: a new game's are both its tokens."""
    options = app.config.get("SQLALCHEMY_ENGINE_OPTIONS", {})
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {"hide_parameters": True, **options}
    db.init_app(app)
    synchronous = app.config["SQLITE_SYNCHRONOUS"]
    if synchronous not in ("FULL", "NORMAL", "EXTRA"):
        raise ValueError(f"SQLITE_SYNCHRONOUS must be FULL, NORMAL or EXTRA, not {synchronous!r}")
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            event.listen(db.engine, "connect", sqlite_pragmas(synchronous))
    app.teardown_appcontext(_close_connection)


def connection() -> Connection:
    """This request's database connection, opened on first use and closed (what was not committed
    rolled back) when the request ends."""
    if "games_db" not in g:
        g.games_db = db.engine.connect()
    found: Connection = g.games_db
    return found


def commit() -> None:
    """Commit what this request wrote."""
    connection().commit()


def rollback() -> None:
    """Take back what this request wrote and has not committed."""
    connection().rollback()


def _close_connection(_error: BaseException | None) -> None:
    opened = g.pop("games_db", None)
    if opened is not None:
        opened.close()


def new_token() -> str:
    """An unguessable URL token: 256 random bits from ``secrets``."""
    return secrets.token_urlsafe(32)


def derived_tokens(secret: str | bytes, *made_from: object) -> tuple[str, str]:
    """An edit and a read-only token made from ``made_from`` and the secret key: the same for the
    same things (a second "play again" of the same game finds the game the first one made),
    unguessable without the key, and of the form of ``new_token``'s.

    >>> edit, view = derived_tokens("key", "abc", 3)
    >>> (edit, view) == derived_tokens(b"key", "abc", 3), edit != view, len(edit), TOKEN_CHARS.issuperset(edit + view)
    (True, True, 43, True)
    >>> derived_tokens("key", "abc", 4) != (edit, view) and derived_tokens("other", "abc", 3) != (edit, view)
    True
    """
    key = secret.encode() if isinstance(secret, str) else secret
    text = " ".join(map(str, made_from))

    def one(kind: str) -> str:
        digest = hmac.new(key, f"{kind} {text}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()

    return one("edit"), one("view")


#: The characters of a token (URL-safe base64); anything else is no token, and never reaches SQL.
TOKEN_CHARS = frozenset(string.ascii_letters + string.digits + "-_")


def _now() -> datetime:
    return datetime.now(UTC)


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
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now, onupdate=_now)
    # An ORM update (a test, the shell) checks the version it read too, as the app's UPDATE does.
    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012 - SQLAlchemy reads it once


class GameTap(db.Model):  # type: ignore[name-defined]
    """The client id of every tap stored in a game, kept for the life of the game: a tap a phone
    sends again (its answer was lost, or both copies arrive at once) is recognised and not applied
    twice, however many taps came since. ``version`` is the game's version the tap made."""

    __tablename__ = "game_taps"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    tap: Mapped[str] = mapped_column(String(40), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, nullable=False)


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

    @property
    def key(self) -> GameKey:
        """What this version of the game is kept by (``game_key``)."""
        return game_key(self.token, self.created_at, self.version)

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
        """Replay the stored game file (once per version in each worker: a version never changes)."""
        return _replayed.get(self.key, lambda: self.replay(self.document))

    @classmethod
    def create(cls, game: GameFile, tokens: tuple[str, str] | None = None) -> StoredGame:
        """A new game holding a checked game file: one INSERT, which the caller commits (``commit``).
        ``tokens``: its edit and read-only tokens, when they are made from something (``derived_tokens``).

        Its replay is not kept: the worker's cache is for the games being played, and an import
        (a backup restores dozens) would push them out. The game's first page replays it once.
        """
        data, title = _columns(game)
        now = _now()
        edit, view = tokens or (new_token(), new_token())
        row = {"token": edit, "view_token": view, "title": title, "data": data,
               "version": 1, "created_at": now, "updated_at": now}
        return cls(id=_run(_CREATE, row).scalar_one(), **row)

    def save(self, game: GameFile, tap: str | None = None) -> bool:
        """Store a checked game file as this game's next version and commit, in one UPDATE that
        only matches the version this game was read at; ``tap``, the client id of the tap that made
        the change, is kept with it for the life of the game, in the same transaction. False, with
        nothing stored and the transaction rolled back, when another write came first (another
        phone, a resent form, the same tap arriving twice at once)."""
        data, title = _columns(game)
        now, version = _now(), self.version + 1
        stored = _run(_SAVE, {"game_id": self.id, "read_at": self.version, "data": data,
                              "title": title, "version": version, "now": now})
        if stored.rowcount != 1:
            connection().rollback()
            return False
        try:
            if tap is not None:
                _run(_TAP, {"game_id": self.id, "tap": tap, "version": version})
            commit()
        except IntegrityError:  # this tap id is stored already: the change is not made twice
            connection().rollback()
            return False
        self.data, self.title, self.version, self.updated_at = data, title, version, now
        _keep(self, game)
        return True

    def applied(self, tap: str) -> bool:
        """Whether the tap with this client id was stored, however long ago (sent again: don't apply
        it twice); read from the database as it is now, so a copy that lost the race to the UPDATE
        sees the one that won."""
        return _row(_APPLIED, {"game_id": self.id, "tap": tap}) is not None

    def delete(self) -> None:
        """Delete the game for good, and commit."""
        _run(_DELETE, {"game_id": self.id})
        commit()


def _keep(stored: StoredGame, game: GameFile) -> None:
    """Keep the replay of what a change just stored, as replaying the stored data would give it."""
    game = normalized(game)
    _replayed.put(stored.key, game)
    _newest.put(stored.token, game)


def _columns(game: GameFile) -> tuple[str, str]:
    """The ``data`` and ``title`` columns of a checked game file."""
    data = orjson.dumps(to_input(game)).decode()
    return data, game.title.replace("\x00", "")  # PostgreSQL text can't hold NUL; data has it as \u0000


_games = Game.__table__
#: A new game, with every column but its id given; it returns the id.
_CREATE = (insert(_games).values({column.name: bindparam(column.name) for column in _games.c if column.name != "id"})
           .returning(_games.c.id))
#: A change to a game: written only over the version it was made from.
_SAVE = (update(_games)
         .where(_games.c.id == bindparam("game_id"), _games.c.version == bindparam("read_at"))
         .values(data=bindparam("data"), title=bindparam("title"), version=bindparam("version"),
                 updated_at=bindparam("now")))
_taps = GameTap.__table__
#: A tap's client id, kept with the change it made (in the same transaction).
_TAP = insert(_taps).values(game_id=bindparam("game_id"), tap=bindparam("tap"), version=bindparam("version"))
#: Whether a tap was stored.
_APPLIED = select(_taps.c.version).where(_taps.c.game_id == bindparam("game_id"), _taps.c.tap == bindparam("tap"))
#: A deleted game.
_DELETE = delete(_games).where(_games.c.id == bindparam("game_id"))
#: Built once: every page looks a game up by its token.
_BY_TOKEN = select(_games).where(or_(_games.c.token == bindparam("t"), _games.c.view_token == bindparam("t")))


class _Compiled(NamedTuple):
    """A statement as the database's driver takes it: its SQL, the order of its parameters (None:
    by name), and the conversions SQLAlchemy makes of them and of the columns a SELECT returns
    (dates, on SQLite)."""

    sql: str
    order: tuple[str, ...] | None
    convert: dict[str, Callable[[Any], Any]]
    columns: tuple[Callable[[Any], Any] | None, ...]


@lru_cache(maxsize=16)
def _compiled(statement: Executable, dialect: Dialect) -> _Compiled:
    compiled = statement.compile(dialect=dialect)
    order = tuple(compiled.positiontup) if compiled.positional and compiled.positiontup else None
    convert = {name: process for name, bind in compiled.binds.items()
               if (process := bind.type.dialect_impl(dialect).bind_processor(dialect)) is not None}
    columns = tuple(column.type.dialect_impl(dialect).result_processor(dialect, None)
                    for column in statement.selected_columns) if isinstance(statement, Select) else ()
    return _Compiled(str(compiled), order, convert, columns)


def _params(ready: _Compiled, values: dict[str, Any]) -> tuple[Any, ...] | dict[str, Any]:
    """A statement's parameters as its driver takes them: converted, in order or by name."""
    params = {name: ready.convert[name](value) if name in ready.convert else value
              for name, value in values.items()}
    return tuple(params[name] for name in ready.order) if ready.order is not None else params


def _run(statement: Executable, values: dict[str, Any]) -> CursorResult[Any]:
    """Run a fixed statement on this request's connection as SQL already compiled for its database:
    what SQLAlchemy would send, without compiling and processing it again at every request (a tap's
    UPDATE, a new game's INSERT). It runs as any other statement does, in the same transaction,
    with the same events."""
    conn = connection()
    ready = _compiled(statement, conn.dialect)
    return conn.exec_driver_sql(ready.sql, _params(ready, values))


def _row(statement: Select[Any], values: dict[str, Any]) -> list[Any] | None:
    """The first row of a fixed SELECT (run as ``_run`` runs a statement), its values converted as
    SQLAlchemy converts them; None when there is none."""
    conn = connection()
    ready = _compiled(statement, conn.dialect)
    row = conn.exec_driver_sql(ready.sql, _params(ready, values)).fetchone()
    if row is None:
        return None
    return [value if convert is None else convert(value) for value, convert in zip(row, ready.columns)]


def find_game(token: str) -> tuple[StoredGame | None, bool]:
    """The game whose edit or read-only token this is, and whether the token may edit."""
    if not token or len(token) > 64 or not TOKEN_CHARS.issuperset(token):
        return None, False
    row = _row(_BY_TOKEN, {"t": token})  # its columns in StoredGame's order
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


class Group(db.Model):  # type: ignore[name-defined]
    """The groups table: a table of players who play together, with an edit and a read-only token.

    ``version`` counts the changes to its list of games (added, removed): a game's place in the
    list is the version that added it, so the list keeps the order games were added in.
    """

    __tablename__ = "groups"

    id: Mapped[int] = mapped_column(primary_key=True)
    token: Mapped[str] = mapped_column(String(64), unique=True, default=new_token)
    view_token: Mapped[str] = mapped_column(String(64), unique=True, default=new_token)
    name: Mapped[str] = mapped_column(String(100))
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now, onupdate=_now)


class GroupGame(db.Model):  # type: ignore[name-defined]
    """A game's place in a group: one row per game at most (a game is in one group at most).

    A game taken out of its group keeps its row, inactive, so that put back it takes its old
    place again (and the figures are those before it was taken out); added to another group, the
    row moves there. Deleting the game or the group deletes the row.
    """

    __tablename__ = "group_games"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer, nullable=False)
    active: Mapped[bool] = mapped_column(Boolean, nullable=False, default=True)


@dataclass(slots=True)
class Member:
    """A game of a group as its page lists it: what the games table says of it, without its data."""

    id: int
    token: str
    view_token: str
    title: str
    version: int
    created_at: datetime
    updated_at: datetime

    @property
    def key(self) -> GameKey:
        """What its figures are kept by (``game_key``)."""
        return game_key(self.token, self.created_at, self.version)


@dataclass(slots=True)
class StoredGroup:
    """A group as stored (its row, as selected), and what can be done with it."""

    id: int
    token: str
    view_token: str
    name: str
    version: int
    created_at: datetime
    updated_at: datetime

    @classmethod
    def create(cls, name: str) -> StoredGroup:
        """A new group with this (checked) name: one INSERT, which the caller commits."""
        now = _now()
        row = {"token": new_token(), "view_token": new_token(), "name": name, "version": 0,
               "created_at": now, "updated_at": now}
        found = connection().execute(insert(_groups).values(row).returning(_groups.c.id)).scalar_one()
        return cls(id=found, **row)

    def members(self) -> list[Member]:
        """The group's games, in the order they were added (one SELECT, whatever their number)."""
        return [Member(*row) for row in connection().execute(_MEMBERS, {"group": self.id})]

    def mark(self) -> tuple[int, int, int]:
        """What tells one state of the group's games from another, without reading them (one
        SELECT of two sums): its version (a game added or taken out), how many games it holds (a
        game deleted) and the sum of their versions (a game changed: a version only grows)."""
        count, versions = connection().execute(_MARK, {"group": self.id}).one()
        return self.version, count, versions

    def add(self, game: StoredGame) -> str:
        """Put a game in the group: "added", "here" (it already was: nothing changes), "other"
        (it is in another group: nothing changes) or "full" (the group holds ``MAX_GROUP_GAMES``
        games already: nothing changes). The caller commits.

        Two requests may find a game in no group at the same moment and put it in two. The
        database lets the first place stand (a game has one row at most, and an inactive row is
        only taken while inactive); the second request takes back all it wrote, as ``save`` does,
        and is answered as if it had come after the first: "other", or "here"."""
        row = connection().execute(_PLACE, {"game": game.id}).first()
        if row is not None and row.active:
            return "here" if row.group_id == self.id else "other"
        if connection().execute(_COUNT, {"group": self.id}).scalar_one() >= MAX_GROUP_GAMES:
            return "full"
        version, updated = self.version, self.updated_at
        position = self._changed()
        try:
            if row is None:  # refused (UNIQUE) when another request put it in a group since
                connection().execute(insert(_members).values(game_id=game.id, group_id=self.id, position=position,
                                                             active=True))
                placed = 1
            else:  # back in its old place here; at the end in another group
                placed = connection().execute(
                    update(_members).where(_members.c.game_id == game.id, _members.c.active.is_(False))
                    .values(group_id=self.id, position=row.position if row.group_id == self.id else position,
                            active=True)).rowcount
        except IntegrityError:
            placed = 0
        if placed == 1:
            return "added"
        connection().rollback()
        self.version, self.updated_at = version, updated
        row = connection().execute(_PLACE, {"game": game.id}).first()
        return "here" if row is not None and row.active and row.group_id == self.id else "other"

    def remove(self, game_id: int) -> bool:
        """Take a game out of the group (it keeps its place, should it come back); False when it
        is not in the group. The caller commits."""
        taken = connection().execute(
            update(_members).where(_members.c.game_id == game_id, _members.c.group_id == self.id,
                                   _members.c.active.is_(True)).values(active=False))
        if taken.rowcount != 1:
            return False
        self._changed()
        return True

    def _changed(self) -> int:
        now = _now()
        self.version = connection().execute(
            update(_groups).where(_groups.c.id == self.id).values(version=_groups.c.version + 1, updated_at=now)
            .returning(_groups.c.version)).scalar_one()
        self.updated_at = now
        return self.version


_groups = Group.__table__
_members = GroupGame.__table__
_MEMBERS = (select(_games.c.id, _games.c.token, _games.c.view_token, _games.c.title, _games.c.version,
                   _games.c.created_at, _games.c.updated_at)
            .join(_members, _members.c.game_id == _games.c.id)
            .where(_members.c.group_id == bindparam("group"), _members.c.active.is_(True))
            .order_by(_members.c.position))
_MARK = (select(func.count(), func.coalesce(func.sum(_games.c.version), 0))
         .select_from(_members.join(_games, _members.c.game_id == _games.c.id))
         .where(_members.c.group_id == bindparam("group"), _members.c.active.is_(True)))
_PLACE = select(_members).where(_members.c.game_id == bindparam("game"))
_COUNT = (select(func.count()).select_from(_members)
          .where(_members.c.group_id == bindparam("group"), _members.c.active.is_(True)))
_GROUP_BY_TOKEN = select(_groups).where(or_(_groups.c.token == bindparam("t"), _groups.c.view_token == bindparam("t")))
_DATA = select(_games.c.id, _games.c.data).where(_games.c.id.in_(bindparam("ids", expanding=True)))


def find_group(token: str) -> tuple[StoredGroup | None, bool]:
    """The group whose edit or read-only token this is, and whether the token may edit."""
    if not token or len(token) > 64 or not TOKEN_CHARS.issuperset(token):
        return None, False
    row = connection().execute(_GROUP_BY_TOKEN, {"t": token}).first()
    if row is None:
        return None, False
    group = StoredGroup(**row._mapping)
    return group, secrets.compare_digest(group.token, token)


def groups_by_id(ids: list[int]) -> list[StoredGroup]:
    """The groups with these ids, the most recently changed first (none asked, none read)."""
    if not ids:
        return []
    query = select(_groups).where(_groups.c.id.in_(ids)).order_by(_groups.c.updated_at.desc())
    return [StoredGroup(**row._mapping) for row in connection().execute(query)]


def group_of(game: StoredGame) -> StoredGroup | None:
    """The group a game is in, if any."""
    row = connection().execute(
        select(_groups).join(_members, _members.c.group_id == _groups.c.id)
        .where(_members.c.game_id == game.id, _members.c.active.is_(True))).first()
    return None if row is None else StoredGroup(**row._mapping)


def game_data(ids: list[int]) -> dict[int, str]:
    """The stored game files of these games, by id (one SELECT; none asked, none read)."""
    if not ids:
        return {}
    return {row.id: row.data for row in connection().execute(_DATA, {"ids": ids})}
