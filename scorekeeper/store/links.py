"""A game's seat links and its join link (SEATS.md, "Links and what each may do").

Each is made from the game's secret, its edit token, as an HMAC: the same every time it is asked
for, and unguessable without the edit token. A seat's or the join link's token is the game's
read-only token (which finds the row, by its index) followed by 43 characters of that HMAC (256
bits), compared in constant time. Holding one gives the read-only link, never the edit link, nor
another seat's link (the join link excepted: taking a seat is what it is for). No column holds
them: nothing to migrate, and a game's seats are there as soon as the game is.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import NamedTuple

from sqlalchemy import bindparam, select

from ..rules.gamefile import MAX_PLAYERS
from .db import TOKEN_CHARS, fixed_row
from .games import Game, StoredGame

#: The characters of a seat's or the join link's own part (an HMAC-SHA256, URL-safe base64).
MAC = 43
#: The longest read-only token a game may have (the games table's column).
LONGEST = 64

_BY_VIEW = select(Game.__table__).where(Game.__table__.c.view_token == bindparam("t"))


def _mac(game: StoredGame, what: str) -> str:
    digest = hmac.new(game.token.encode(), f"{what} {game.id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def join_token(game: StoredGame) -> str:
    """The token of the game's join link: it lists the players, each leading to their seat."""
    return game.view_token + _mac(game, "join")


def seat_token(game: StoredGame, seat: int) -> str:
    """The token of the seat link of the player at ``seat`` (counting from 0)."""
    return game.view_token + _mac(game, f"seat {seat}")


class Linked(NamedTuple):
    """What a seat's or the join link leads to: the game, and the seat (None: the join link)."""

    game: StoredGame
    seat: int | None


def find_link(token: str) -> Linked | None:
    """The game and seat of a seat link's token, the game of a join link's; None for anything
    else (an edit or read-only token included). Every seat a game may have is compared, in
    constant time each, so the answer's time says nothing of which part matched."""
    if not MAC < len(token) <= LONGEST + MAC or not TOKEN_CHARS.issuperset(token):
        return None
    row = fixed_row(_BY_VIEW, {"t": token[:-MAC]})
    if row is None:
        return None
    game = StoredGame(*row)
    own = token[-MAC:].encode()
    found: Linked | None = None
    if secrets.compare_digest(_mac(game, "join").encode(), own):
        found = Linked(game, None)
    for seat in range(MAX_PLAYERS):
        if secrets.compare_digest(_mac(game, f"seat {seat}").encode(), own):
            found = Linked(game, seat)
    if found is not None and found.seat is not None and found.seat >= len(
            game.document["players"]):
        return None
    return found
