"""The events table: a club night's document (``events.document``), with an edit and a read-only
token made like a game's; each table's game is an ordinary row of the games table."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson
from flask import g
from sqlalchemy import (
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    bindparam,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.orm import Mapped, mapped_column

from .db import TOKEN_CHARS, commit, connection, db, new_token, utc_now
from .games import Game, StoredGame, games_by_id


class Event(db.Model):  # type: ignore[name-defined]
    """The events table: an event's tokens, name and document; ``version`` counts its changes."""

    __tablename__ = "events"

    id: Mapped[int] = mapped_column(primary_key=True)
    token: Mapped[str] = mapped_column(String(64), unique=True, default=new_token)
    view_token: Mapped[str] = mapped_column(String(64), unique=True, default=new_token)
    name: Mapped[str] = mapped_column(String(100))
    data: Mapped[str] = mapped_column(Text)
    version: Mapped[int] = mapped_column(Integer, nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now,
                                                 onupdate=utc_now)


class EventGame(db.Model):  # type: ignore[name-defined]
    """A table game of an event: what tells a state of the event's games from another is read
    through it in one SELECT, without reading the event's document or the games."""

    __tablename__ = "event_games"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)


@dataclass(slots=True)
class StoredEvent:
    """An event as stored (its row, as selected), and what can be done with it."""

    id: int
    token: str
    view_token: str
    name: str
    data: str
    version: int
    created_at: datetime
    updated_at: datetime

    @property
    def document(self) -> dict[str, Any]:
        """The stored document (a fresh copy: the caller may change it)."""
        value: dict[str, Any] = orjson.loads(self.data)
        return value

    @classmethod
    def create(cls, document: dict[str, Any]) -> StoredEvent:
        """A new event holding a checked document: one INSERT, which the caller commits."""
        now = utc_now()
        row = {"token": new_token(), "view_token": new_token(),
               "name": document["name"].replace("\x00", ""),
               "data": orjson.dumps(document).decode(), "version": 1, "created_at": now,
               "updated_at": now}
        found = connection().execute(
            insert(_events).values(row).returning(_events.c.id)).scalar_one()
        return cls(id=found, **row)

    def attach(self, game_id: int) -> None:
        """Count a new table game among the event's: one INSERT, which ``save`` commits."""
        connection().execute(_ATTACH, {"game_id": game_id, "event_id": self.id})

    def mark(self) -> str:
        """What tells one state of the event and its games from another (``state_of``)."""
        found = connection().execute(_MARK, {"event_id": self.id}).one()
        return _marked(self.version, found[0], found[1])

    def save(self, document: dict[str, Any]) -> bool:
        """Store the document as the next version and commit (with whatever else this request
        wrote), only over the version it was read at; False, all of it rolled back, when another
        change came first."""
        data, version = orjson.dumps(document).decode(), self.version + 1
        stored = connection().execute(_SAVE,
                                      {"event_id": self.id, "read_at": self.version, "data": data,
                                       "version": version, "now": utc_now()})
        if stored.rowcount != 1:
            connection().rollback()
            return False
        commit()
        self.data, self.version = data, version
        return True


_events = Event.__table__
_SAVE = (update(_events).where(_events.c.id == bindparam("event_id"),
                               _events.c.version == bindparam("read_at"))
         .values(data=bindparam("data"), version=bindparam("version"), updated_at=bindparam("now")))
_BY_TOKEN = select(_events).where(or_(_events.c.token == bindparam("t"),
                                      _events.c.view_token == bindparam("t")))


def find_event(token: str) -> tuple[StoredEvent | None, bool]:
    """The event whose edit or read-only token this is, and whether the token may edit."""
    if not token or len(token) > 64 or not TOKEN_CHARS.issuperset(token):
        return None, False
    row = connection().execute(_BY_TOKEN, {"t": token}).first()
    if row is None:
        return None, False
    event = StoredEvent(**row._mapping)
    return event, secrets.compare_digest(event.token, token)


def events_by_id(ids: list[int]) -> list[StoredEvent]:
    """The events with these ids, the most recently changed first (none asked, none read)."""
    if not ids:
        return []
    query = select(_events).where(_events.c.id.in_(ids)).order_by(_events.c.updated_at.desc())
    return [StoredEvent(**row._mapping) for row in connection().execute(query)]


_games = Game.__table__
_links = EventGame.__table__
_ATTACH = insert(_links).values(game_id=bindparam("game_id"), event_id=bindparam("event_id"))
_MARK = (select(func.count(_games.c.id), func.coalesce(func.sum(_games.c.version), 0))
         .select_from(_links.join(_games, _links.c.game_id == _games.c.id))
         .where(_links.c.event_id == bindparam("event_id")))
_STATE = (select(_events.c.version,
                 select(func.count(_games.c.id))
                 .select_from(_links.join(_games, _links.c.game_id == _games.c.id))
                 .where(_links.c.event_id == _events.c.id).scalar_subquery(),
                 select(func.coalesce(func.sum(_games.c.version), 0))
                 .select_from(_links.join(_games, _links.c.game_id == _games.c.id))
                 .where(_links.c.event_id == _events.c.id).scalar_subquery())
          .where(or_(_events.c.token == bindparam("t"), _events.c.view_token == bindparam("t"))))


_PLACE = (select(_events.c.id, _events.c.name, _events.c.token, _events.c.view_token,
                 _events.c.data)
          .select_from(_links.join(_events, _links.c.event_id == _events.c.id))
          .where(_links.c.game_id == bindparam("game_id")))


_NIGHT = (select(_events.c.id, _events.c.version)
          .select_from(_links.join(_events, _links.c.event_id == _events.c.id))
          .where(_links.c.game_id == bindparam("game_id")))


def night_version(game: StoredGame) -> tuple[int, int] | None:
    """The key and the version of the club night a table game is in, in one SELECT by the game's
    key that reads no document: a seat's page follows its night too (SEATS.md, "Club nights";
    web/live.py). None for any other game; a game whose title is not a table game's (as
    ``table_of`` tells) is asked nothing of the database."""
    if " · " not in game.title:
        return None
    found = connection().execute(_NIGHT, {"game_id": game.id}).first()
    return None if found is None else (found[0], found[1])


@dataclass(frozen=True, slots=True)
class Place:
    """Where a table game sits in its event: the game's key, the event's key, name and links, the
    round, the table and the players the round seated there (in seat order); whether its round is
    the event's current one (the last started), the games of its round, and those the director ended
    early (EVENTS.md, "Ending a table early"), which count as they stand."""

    game: int
    event_id: int
    event: str
    token: str
    view_token: str
    round: int
    table: int
    players: tuple[str, ...]
    current: bool
    games: tuple[int, ...]
    ended_early: frozenset[int]

    @property
    def closed(self) -> bool:
        """The director ended this table's game early."""
        return self.game in self.ended_early

    def finished(self) -> bool:
        """Whether every game of its round is finished (ended, ended early by the director, or
        deleted), as the club night counts it (events/rounds.py): each replayed by the rules
        core."""
        return all(game.id in self.ended_early or game.load().game.finished
                   for game in games_by_id(list(self.games)))


def table_of(game: StoredGame) -> Place | None:
    """A table game's place in its club night, read once per request; None for any other game. A
    club night titles its table games "<night> · round r · table t" in every language, and nothing
    changes a table game's title (web/access.py): a game without " · " in its title is asked nothing
    of the database, so a tap on it still reads the database once."""
    if " · " not in game.title:
        return None
    known = g.setdefault("table_places", {})
    if game.id not in known:
        known[game.id] = place_of(game.id)
    found: Place | None = known[game.id]
    return found


def place_of(game_id: int) -> Place | None:
    """The event, round and table of a table game, in one SELECT by the game's key; None for a game
    outside an event."""
    found = connection().execute(_PLACE, {"game_id": game_id}).first()
    if found is None:
        return None
    rounds = orjson.loads(found.data)["played"]
    for played in rounds:
        for number, table in enumerate(played["tables"], start=1):
            if table["game"] == game_id:
                return Place(game_id, found.id, found.name, found.token, found.view_token,
                             played["round"], number, tuple(table["players"]), played is rounds[-1],
                             tuple(t["game"] for t in played["tables"] if t["game"] is not None),
                             frozenset(t["game"] for t in played["tables"] if t.get("ended_early")))
    return None


def _marked(version: int, count: int, versions: int) -> str:
    return f"{version}.{count}.{versions}"


def state_of(token: str) -> str | None:
    """An event's state by its link, in one SELECT that reads neither its document nor its games:
    its version, how many of its games are left and the sum of their versions (a version only
    grows). None when no event has this link."""
    if not token or len(token) > 64 or not TOKEN_CHARS.issuperset(token):
        return None
    found = connection().execute(_STATE, {"t": token}).first()
    return None if found is None else _marked(found[0], found[1], found[2])
