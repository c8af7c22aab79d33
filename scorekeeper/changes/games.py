"""New games: a game opened (a new game, an import, "Play again") and the games a restored backup
or a club night's round makes, each stored as a checked game file (``StoredGame.create``)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.exc import IntegrityError

from ..rules.gamefile import GameFile
from ..store.db import commit, rollback
from ..store.games import StoredGame, find_game
from ..store.groups import StoredGroup


@dataclass(frozen=True)
class Opened:
    """A new game, stored (or the one the same ask stored already); ``full``: its group holds as
    many games as a group can, and the game is played all the same, in no group."""

    game: StoredGame
    full: bool = False


def create(checked: GameFile, tokens: tuple[str, str] | None = None) -> StoredGame:
    """A new game holding a checked game file, for the caller to commit with what else it writes
    (every game of a restored backup; a club night's round and its games; the API's answer, made
    before the commit)."""
    return StoredGame.create(checked, tokens)


def open_game(checked: GameFile, tokens: tuple[str, str] | None = None,
              group: StoredGroup | None = None) -> Opened:
    """Store a new game (in ``group``, if given) and commit.

    With ``tokens`` made from what asked for it (``derived_tokens``), a second ask, a double tap or
    a resent form, finds the game the first one stored instead of storing another.
    """
    game = find_game(tokens[0])[0] if tokens else None
    full = False
    if game is None:
        try:
            game = StoredGame.create(checked, tokens)
        except IntegrityError:  # stored by the same ask, at the same moment
            rollback()
            game = find_game(tokens[0])[0] if tokens else None
            if game is None:
                raise
        else:
            full = group is not None and group.add(game) == "full"
    commit()
    return Opened(game, full)
