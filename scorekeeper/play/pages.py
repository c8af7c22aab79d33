"""Rendered parts of a game's pages, kept per game version: rendered once, served until it changes.

A game's version changes with every write, so a key of its version (``StoredGame.key``) can never serve
an old page;
the language is part of the key too.
Each worker keeps its own small cache; nothing visitor-specific (forms, messages) is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from flask import render_template, session
from markupsafe import Markup

from ..rules.gamefile import GameFile
from ..store.cache import LRU
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
