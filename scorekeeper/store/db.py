"""The database: its tables' base, the connection of each request, tokens, and fixed statements run
as compiled SQL.

The app reads and writes with one Core statement each, on one connection per request
(``connection()``), not through the ORM session. The games and the groups are kept by
``store.games`` and ``store.groups``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import string
from collections.abc import Callable
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, NamedTuple

from flask import Flask, g
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import (
    Connection,
    CursorResult,
    Dialect,
    Executable,
    Select,
    event,
)
from sqlalchemy.orm import DeclarativeBase


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


def release() -> None:
    """Give this request's database connection back now (what was not committed rolled back): a
    request held a while holds none; the next use opens another."""
    _close_connection(None)
    db.session.close()


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
    >>> ((edit, view) == derived_tokens(b"key", "abc", 3), edit != view, len(edit),
    ...  TOKEN_CHARS.issuperset(edit + view))
    (True, True, 43, True)
    >>> (derived_tokens("key", "abc", 4) != (edit, view)
    ...  and derived_tokens("other", "abc", 3) != (edit, view))
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


def utc_now() -> datetime:
    return datetime.now(UTC)


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
    columns = (tuple(column.type.dialect_impl(dialect).result_processor(dialect, None)
                     for column in statement.selected_columns)
               if isinstance(statement, Select) else ())
    return _Compiled(str(compiled), order, convert, columns)


def _params(ready: _Compiled, values: dict[str, Any]) -> tuple[Any, ...] | dict[str, Any]:
    """A statement's parameters as its driver takes them: converted, in order or by name."""
    params = {name: ready.convert[name](value) if name in ready.convert else value
              for name, value in values.items()}
    return tuple(params[name] for name in ready.order) if ready.order is not None else params


def run_fixed(statement: Executable, values: dict[str, Any]) -> CursorResult[Any]:
    """Run a fixed statement on this request's connection as SQL already compiled for its database:
    what SQLAlchemy would send, without compiling and processing it again at every request (a tap's
    UPDATE, a new game's INSERT). It runs as any other statement does, in the same transaction,
    with the same events."""
    conn = connection()
    ready = _compiled(statement, conn.dialect)
    return conn.exec_driver_sql(ready.sql, _params(ready, values))


def fixed_row(statement: Select[Any], values: dict[str, Any]) -> list[Any] | None:
    """The first row of a fixed SELECT (run as ``run_fixed`` runs a statement), its values converted
    as SQLAlchemy converts them; None when there is none."""
    conn = connection()
    ready = _compiled(statement, conn.dialect)
    row = conn.exec_driver_sql(ready.sql, _params(ready, values)).fetchone()
    if row is None:
        return None
    return [value if convert is None else convert(value)
            for value, convert in zip(row, ready.columns)]
