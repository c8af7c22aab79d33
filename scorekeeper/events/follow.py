"""A player's phone follows them through a club night (SEATS.md, "Club nights"; docs/events.md,
"A player's phone through the night").

A seat's page of a table game (play/seat.py) shows, above its own game once its table has
finished, what the night holds for its player: once a later round has started, the player's seat
in it, as a link to the seat's page of the same player at their new table (and to no other link:
not another player's seat, not a table's scorer link, not the director's;
tests/web/test_web_events_walk.py reads every answer), or that they sit that round out or have
withdrawn; and their place in the night's standings. The player is known by the name at their
seat, which must be one the night seated at that table: a stranger who joined the table late is
offered nothing.

The seat's page asks for it through its template (``seat_night``, a template global the events
pages register): the events layer is above the seat's page, which may not import it. The seat's
page follows the night's version as well as its game's (web/live.py), so the offer comes within
a moment of the director starting the round, without a reload.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import url_for

from ..rules.gamefile import GameFile
from ..store.events import find_event, table_of
from ..store.games import StoredGame
from ..store.links import seat_token
from . import rounds


@dataclass(frozen=True)
class Offer:
    """What the latest round, started after the seat's own, holds for its player: their table and
    seat (from 1) and that seat's page; or a bye; or nothing, having withdrawn (or not playing that
    round for another reason: neither is set)."""

    round: int
    table: int = 0
    seat: int = 0
    link: str = ""
    bye: bool = False
    withdrawn: bool = False


@dataclass(frozen=True)
class SeatNight:
    """What a seat's page shows of its club night once the player's table has finished: the offer
    of a later round; else the next round (its seat will show here), or that the player has
    withdrawn; and their place in the standings after the finished rounds (None before any)."""

    offer: Offer | None
    waiting: int | None
    withdrawn: bool
    rank: int | None
    players: int
    after: int


def seat_night(game: StoredGame, seat: int, gamefile: GameFile) -> SeatNight | None:
    """What the club night holds for the player at ``seat`` of a table game, once their table has
    finished (or on a table of an earlier round); None while the table plays the round under way
    (its page is drawn again at every deal, and the night's standings read every game of the
    night), for a game outside a night, and for a seat the night did not seat there. The night is
    read as it is now: its games are kept per state of the night, as the room screen's
    (rounds.load)."""
    place = table_of(game)
    if (place is None or not 0 <= seat < len(gamefile.players)
            or (place.current and not place.closed and not gamefile.game.finished)):
        return None
    stored, _editable = find_event(place.view_token)
    if stored is None:
        return None
    loaded = rounds.load(stored, False, rounds.mark(stored))
    name = gamefile.players[seat]
    number = next((played.number for played in loaded.rounds for table in played.tables
                   if table.game is not None and table.game.id == game.id
                   and name in table.players), None)
    entry = next((p for p in loaded.doc["players"] if p["name"] == name), None)
    if number is None or entry is None:
        return None
    withdrawn = entry["last"] is not None
    latest = loaded.current
    offer = (_offer(latest, name, withdrawn)
             if latest is not None and latest.number > number else None)
    waiting = (len(loaded.rounds) + 1
               if offer is None and not withdrawn and loaded.to_come else None)
    line = next((line for line in loaded.lines if line.name == name), None)
    after = len(loaded.finished_rounds)
    return SeatNight(offer, waiting, withdrawn and offer is None,
                     line.rank if line is not None and after else None, len(loaded.lines), after)


def _offer(latest: rounds.Round, name: str, withdrawn: bool) -> Offer:
    """The player's place in the latest round: the seat's page of the same player at their table,
    and nobody else's."""
    for table in latest.tables:
        if name not in table.players:
            continue
        found = table.game
        players = found.load().players if found is not None else ()
        if found is None or name not in players:  # its game deleted: the seat leads nowhere
            return Offer(latest.number, table.number, table.players.index(name) + 1)
        seat = players.index(name)  # the player's own seat in the game, by their name
        return Offer(latest.number, table.number, seat + 1,
                     url_for("seat.page", token=seat_token(found, seat)))
    if name in latest.byes:
        return Offer(latest.number, bye=True)
    return Offer(latest.number, withdrawn=withdrawn)
