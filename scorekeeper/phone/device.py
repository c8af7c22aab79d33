"""This device's memory: the games, groups and club nights it opened, kept in its own signed
session cookie.

There is no server-wide list of games: a phone sees the games it created, imported or opened.
The cookie holds one short entry per game, most recent first: ``e`` (may edit) or ``v`` (read
only), the game's row id, and the first characters of the token it was opened with, so that an
entry can never lead to another game that later got the same id. Entries are short enough for
a full backup's games and more to fit the cookie's 4 kB (KEEP).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from typing import NamedTuple, TypeVar

from flask import session

from ..store.events import StoredEvent, events_by_id
from ..store.games import StoredGame, games_by_id, games_of
from ..store.groups import StoredGroup, group_of, groups_by_id
from ..web import access

#: The most games a device remembers (the oldest opened are forgotten first); a restored backup
#: holds at most half of them (backup.MAX_GAMES), so a restore is never forgotten at once.
KEEP = 100
#: The most groups a device remembers, the same way (in the cookie's ``groups``).
KEEP_GROUPS = 20
#: The most club nights a device remembers, the same way (in the cookie's ``events``).
KEEP_EVENTS = 20
#: The most seats a device remembers (the cookie's ``seats``: a game's id and a seat each).
KEEP_SEATS = 20
#: How many characters of a game's token an entry keeps, to tell the game from a later one.
CHECK = 8
_ENTRY = re.compile(rf"([ev])([0-9]{{1,12}})\.([A-Za-z0-9_-]{{{CHECK}}})")


class Held(NamedTuple):
    """A game this device holds, and whether it may edit it (it has the edit link)."""

    game: StoredGame
    editable: bool


def _entry(game: StoredGame | StoredGroup | StoredEvent, editable: bool) -> str:
    token = game.token if editable else game.view_token
    return f"{'e' if editable else 'v'}{game.id}.{token[:CHECK]}"


def _entries() -> list[str]:
    """This device's entries, most recent first (a cookie of the earlier format is read once)."""
    if "edit" in session or "view" in session:
        _convert()
    entries = session.get("games", [])
    return [e for e in entries if isinstance(e, str)] if isinstance(entries, list) else []


def _convert() -> None:
    """Turn a cookie that lists whole tokens (the earlier format) into entries: nothing is
    forgotten."""
    edit, view = (_tokens(session.pop(kind, [])) for kind in ("edit", "view"))
    found = games_of(edit, view)
    session["games"] = [_entry(game, game.token in edit) for game in found][:KEEP]
    session.permanent = True


def _tokens(value: object) -> list[str]:
    return [t for t in value if isinstance(t, str)] if isinstance(value, list) else []


def remember(game: StoredGame, editable: bool = True) -> None:
    """Put a game at the top of this device's list, to edit or to follow (a game it may edit stays
    editable when it is followed by its read-only link too)."""
    entries = _entries()
    mine = [e for e in entries if _id(e) == game.id]
    if mine and mine[0].startswith("e"):
        editable = True
    entry = _entry(game, editable)
    if entries[:1] == [entry] and session.permanent:
        return  # already first: leave the cookie as it is
    session["games"] = [entry, *(e for e in entries if _id(e) != game.id)][:KEEP]
    session.permanent = True


def _id(entry: str) -> int | None:
    match = _ENTRY.fullmatch(entry)
    return None if match is None else int(match.group(2))  # ASCII digits, checked by the pattern


def forget(game: StoredGame) -> None:
    """Drop a game (a deleted one) from this device's list."""
    entries = _entries()
    kept = [e for e in entries if _id(e) != game.id]
    if kept != entries:
        session["games"] = kept


def games() -> list[Held]:
    """The games this device holds (to edit or to follow), the most recently played first; entries
    of games that are gone (deleted on another phone) are dropped from the list."""
    return [Held(game, editable) for game, editable in _held("games", _entries(), games_by_id)]


Item = TypeVar("Item", StoredGame, StoredGroup, StoredEvent)


def _held(key: str, entries: list[str],
          by_id: Callable[[list[int]], list[Item]]) -> list[tuple[Item, bool]]:
    """The games or groups of these entries (``by_id`` reads them, in its order) whose token still
    begins as the entry remembers, and whether each may be edited; the other entries are dropped
    from the cookie's ``key``."""
    wanted: dict[int, tuple[bool, str]] = {}
    for entry in entries:
        match = _ENTRY.fullmatch(entry)
        if match is not None:
            wanted[int(match.group(2))] = (match.group(1) == "e", match.group(3))
    held = []
    for item in by_id(list(wanted)):
        editable, check = wanted[item.id]
        if (item.token if editable else item.view_token).startswith(check):
            held.append((item, editable))
    found = {item.id for item, _ in held}
    kept = [e for e in entries if _id(e) in found]
    if kept != entries:
        session[key] = kept
    return held


def _kept_entries(key: str) -> list[str]:
    entries = session.get(key, [])
    return [e for e in entries if isinstance(e, str)] if isinstance(entries, list) else []


def _remember_kept(key: str, item: StoredGroup | StoredEvent, editable: bool, keep: int) -> None:
    """Put a group or a club night at the top of this device's list ``key`` (one it may edit stays
    editable when it is opened by its read-only link too)."""
    entries = _kept_entries(key)
    mine = [e for e in entries if _id(e) == item.id]
    if mine and mine[0].startswith("e"):
        editable = True
    entry = _entry(item, editable)
    if entries[:1] == [entry] and session.permanent:
        return
    session[key] = [entry, *(e for e in entries if _id(e) != item.id)][:keep]
    session.permanent = True


def remember_group(group: StoredGroup, editable: bool) -> None:
    """Put a group at the top of this device's list of groups."""
    _remember_kept("groups", group, editable, KEEP_GROUPS)


def groups() -> list[tuple[StoredGroup, bool]]:
    """The groups this device has opened, the most recently changed first, and whether it may edit
    each; entries of groups that are gone are dropped."""
    return _held("groups", _kept_entries("groups"), groups_by_id)


def remember_event(event: StoredEvent, editable: bool) -> None:
    """Put a club night at the top of this device's list of nights: the director's page (the edit
    link) or the room screen (the read-only link) was opened on it."""
    _remember_kept("events", event, editable, KEEP_EVENTS)


def events() -> list[tuple[StoredEvent, bool]]:
    """The club nights this device has opened, the most recently changed first, and whether it holds
    the director's link of each; entries of nights that are gone are dropped."""
    return _held("events", _kept_entries("events"), events_by_id)


def joinable(game: StoredGame) -> tuple[StoredGroup | None, list[StoredGroup], str]:
    """The group a game is in (None: none), the groups this device may put it in (those it holds the
    edit link of, offered as one tap each instead of a link to paste), and the token of the group's
    link the game's edit link may show (web/access.py: a club night's table, the read-only one)."""
    current = group_of(game)
    if current is None:
        return None, [group for group, editable in groups() if editable], ""
    return current, [], access.group_token(game, current.token, current.view_token)


def remember_seat(game: StoredGame, seat: int) -> None:
    """This phone took the seat of the player at ``seat`` (SEATS.md): the game is listed as one it
    follows, and its entry leads to that seat's page (``seat_of``). A phone keeps one seat per
    game, the last it opened."""
    remember(game, editable=False)
    entry = f"{game.id}.{seat}"
    kept = _kept_entries("seats")
    if kept[:1] == [entry]:
        return
    session["seats"] = [entry, *(e for e in kept
                                 if e.partition(".")[0] != str(game.id))][:KEEP_SEATS]


def seat_of(game: StoredGame) -> int | None:
    """The seat this phone took in a game (``remember_seat``), None when it took none."""
    for entry in _kept_entries("seats"):
        number, _dot, seat = entry.partition(".")
        if number == str(game.id) and seat.isascii() and seat.isdigit():
            return int(seat)
    return None


#: A phone's own id: 16 random bytes, as ``secrets.token_urlsafe`` writes them.
_PHONE = re.compile(r"[A-Za-z0-9_-]{22}")


def phone_id(make: bool = False) -> str | None:
    """This phone's own random id, kept in its session cookie: a sealed bid is shown only on the
    phone that entered it, and changed from it alone (SEATS.md). Made (``make``) when the phone
    first enters one; None before that."""
    mine = session.get("phone")
    if isinstance(mine, str) and _PHONE.fullmatch(mine):
        return mine
    if not make:
        return None
    session["phone"] = mine = secrets.token_urlsafe(16)
    session.permanent = True
    return mine
