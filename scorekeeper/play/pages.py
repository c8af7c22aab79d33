"""Rendered parts of a game's pages, kept per game version: rendered once, served until it changes.

A game's version changes with every write, so a key of its version (``StoredGame.key``) can never
serve an old page;
the language is part of the key too.
Each worker keeps its own small cache; nothing visitor-specific (forms, messages) is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from flask import render_template, session, url_for
from markupsafe import Markup

from ..rules.gamefile import GameFile
from ..rules.words import _
from ..store.cache import LRU
from ..store.events import table_of
from ..store.games import StoredGame
from ..web import language
from . import board

_pages: LRU[str] = LRU(256)


def cached(key: Hashable, render: Callable[[], str]) -> str:
    """A rendered page or fragment, in this visitor's language; pages carrying a message for this
    visitor are never kept."""
    if session.get("_flashes"):
        return render()
    return _pages.get((key, language.current()), render)


def board_html(game: StoredGame, gamefile: GameFile, *, editable: bool) -> Markup:
    """The scoreboard of a game as HTML (with correction links when ``editable``)."""

    def render() -> str:
        return render_template(
            "play/_board.html", game=game, file=gamefile, state=gamefile.game,
            names=gamefile.players, editable=editable, rows=board.board(gamefile),
            leaders=board.leaders(gamefile),
        )

    return Markup(cached(("board", game.key, editable), render))


def event_link(game: StoredGame) -> tuple[str, str] | None:
    """"Round r · table t of <event>" and the event's room screen, for a table game: never the
    director's page, whichever link of the game (web/access.py)."""
    place = table_of(game)
    if place is None:
        return None
    words = _("Round %(round)s · table %(table)s of %(event)s", round=place.round,
              table=place.table, event=place.event)
    return words, url_for("events.event", event=place.view_token)
