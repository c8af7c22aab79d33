"""The database: one row per game, holding the game file's input part; everything else is replayed."""

from __future__ import annotations

import json
import secrets
import string
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from flask import Flask
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import DateTime, Integer, String, Text, bindparam, event, or_
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from .cache import LRU
from .rules.gamefile import GameFile, parse, to_input

#: Replayed games by (token, version); callers treat a GameFile as read-only.
_replayed: LRU[GameFile] = LRU(128)


class Base(DeclarativeBase):
    """Declarative base of every table."""


# Objects stay usable after a commit: a redirect after saving needs no second SELECT.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
migrate = Migrate()


def sqlite_pragmas(synchronous: str) -> Callable[[Any, Any], None]:
    """What every new SQLite connection is told: WAL, wait for a lock, foreign keys, durability.

    ``synchronous=FULL`` (the default) makes an acknowledged entry survive a power cut, not only
    a crash of the app; ``NORMAL`` keeps it through any crash of the app and commits faster.
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
    """Bind the database to the app; SQLite connections get their pragmas as they are opened."""
    db.init_app(app)
    synchronous = app.config["SQLITE_SYNCHRONOUS"]
    if synchronous not in ("FULL", "NORMAL", "EXTRA"):
        raise ValueError(f"SQLITE_SYNCHRONOUS must be FULL, NORMAL or EXTRA, not {synchronous!r}")
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            event.listen(db.engine, "connect", sqlite_pragmas(synchronous))


def new_token() -> str:
    """An unguessable URL token: 256 random bits from ``secrets``."""
    return secrets.token_urlsafe(32)


#: The characters of a token (URL-safe base64); anything else is no token, and never reaches SQL.
TOKEN_CHARS = frozenset(string.ascii_letters + string.digits + "-_")


def _now() -> datetime:
    return datetime.now(UTC)


class Game(db.Model):  # type: ignore[name-defined]
    """A game: its edit and read-only tokens, and the game file input it replays from."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True)
    token: Mapped[str] = mapped_column(String(64), unique=True, default=new_token)
    view_token: Mapped[str] = mapped_column(String(64), unique=True, default=new_token)
    title: Mapped[str] = mapped_column(String(100), default="")
    data: Mapped[str] = mapped_column(Text)
    version: Mapped[int] = mapped_column(Integer, nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now, onupdate=_now)

    # Every UPDATE checks the version it was read at: a stale write fails instead of winning.
    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012 - SQLAlchemy reads it once

    @property
    def document(self) -> dict[str, Any]:
        """The stored input part of the game file."""
        value: dict[str, Any] = json.loads(self.data)
        return value

    def load(self) -> GameFile:
        """Replay the stored game file (once per version in each worker: a version never changes)."""
        return _replayed.get((self.token, self.version), lambda: parse(self.document))

    def store(self, game: GameFile) -> None:
        """Keep a checked game file's input part."""
        self.data = json.dumps(to_input(game), separators=(",", ":"), ensure_ascii=False)
        self.title = game.title.replace("\x00", "")  # PostgreSQL text can't hold NUL; data has it as \u0000


#: Built once: every page looks a game up by its token.
_BY_TOKEN = db.select(Game).where(or_(Game.token == bindparam("t"), Game.view_token == bindparam("t")))


def find_game(token: str) -> tuple[Game | None, bool]:
    """The game whose edit or read-only token this is, and whether the token may edit."""
    if not token or len(token) > 64 or not TOKEN_CHARS.issuperset(token):
        return None, False
    game = db.session.execute(_BY_TOKEN, {"t": token}).scalar_one_or_none()
    return game, game is not None and secrets.compare_digest(game.token, token)
