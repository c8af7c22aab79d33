"""This device's memory: the games it opened, kept in its own signed session cookie.

There is no server-wide list of games: a phone sees the games it created, imported or opened.
"""

from __future__ import annotations

from flask import session

from .models import StoredGame, games_of

#: The most recent games kept per kind; a cookie holds about 4 kB.
KEEP = 25
KINDS = ("edit", "view")


def remember(token: str, kind: str = "edit") -> None:
    """Put a game's token at the top of this device's list (edit or read-only)."""
    tokens = remembered(kind)
    if tokens[:1] == [token] and session.permanent:
        return  # already first: leave the cookie as it is
    session[kind] = [token, *(t for t in tokens if t != token)][:KEEP]
    session.permanent = True


def forget(*tokens: str) -> None:
    """Drop tokens (a deleted game's) from this device's lists."""
    for kind in KINDS:
        if kind in session:
            session[kind] = [t for t in session[kind] if t not in tokens]


def keep_only(tokens: set[str]) -> None:
    """Drop the tokens of games that are gone (deleted on another phone)."""
    for kind in KINDS:
        kept = [t for t in remembered(kind) if t in tokens]
        if kept != session.get(kind, []):
            session[kind] = kept


def remembered(kind: str) -> list[str]:
    """This device's tokens of one kind, most recent first."""
    tokens = session.get(kind, [])
    return [t for t in tokens if isinstance(t, str)] if isinstance(tokens, list) else []


def games() -> list[StoredGame]:
    """The games this device holds (to edit or to follow), the most recently played first."""
    return games_of(remembered("edit"), remembered("view"))
