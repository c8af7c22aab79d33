"""The groups' tables: a group and the games in it (in order, some taken out), read and changed
through ``StoredGroup``."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import (
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    bindparam,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from ..rules.values import MAX_GROUP_GAMES
from .db import TOKEN_CHARS, connection, db, new_token, utc_now
from .games import Game, GameKey, StoredGame, game_key

_games = Game.__table__


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
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now,
                                                 onupdate=utc_now)


class GroupGame(db.Model):  # type: ignore[name-defined]
    """A game's place in a group: one row per game at most (a game is in one group at most).

    A game taken out of its group keeps its row, inactive, so that put back it takes its old
    place again (and the figures are those before it was taken out); added to another group, the
    row moves there. Deleting the game or the group deletes the row.
    """

    __tablename__ = "group_games"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
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
        now = utc_now()
        row = {"token": new_token(), "view_token": new_token(), "name": name, "version": 0,
               "created_at": now, "updated_at": now}
        found = connection().execute(
            insert(_groups).values(row).returning(_groups.c.id)).scalar_one()
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
                connection().execute(insert(_members).values(game_id=game.id, group_id=self.id,
                                                             position=position, active=True))
                placed = 1
            else:  # back in its old place here; at the end in another group
                placed = connection().execute(
                    update(_members).where(_members.c.game_id == game.id,
                                           _members.c.active.is_(False))
                    .values(group_id=self.id,
                            position=row.position if row.group_id == self.id else position,
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
        now = utc_now()
        self.version = connection().execute(
            update(_groups).where(_groups.c.id == self.id)
            .values(version=_groups.c.version + 1, updated_at=now)
            .returning(_groups.c.version)).scalar_one()
        self.updated_at = now
        return self.version


_groups = Group.__table__
_members = GroupGame.__table__
_MEMBERS = (select(_games.c.id, _games.c.token, _games.c.view_token, _games.c.title,
                   _games.c.version, _games.c.created_at, _games.c.updated_at)
            .join(_members, _members.c.game_id == _games.c.id)
            .where(_members.c.group_id == bindparam("group"), _members.c.active.is_(True))
            .order_by(_members.c.position))
_MARK = (select(func.count(), func.coalesce(func.sum(_games.c.version), 0))
         .select_from(_members.join(_games, _members.c.game_id == _games.c.id))
         .where(_members.c.group_id == bindparam("group"), _members.c.active.is_(True)))
_PLACE = select(_members).where(_members.c.game_id == bindparam("game"))
_COUNT = (select(func.count()).select_from(_members)
          .where(_members.c.group_id == bindparam("group"), _members.c.active.is_(True)))
_GROUP_BY_TOKEN = select(_groups).where(or_(_groups.c.token == bindparam("t"),
                                            _groups.c.view_token == bindparam("t")))
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
