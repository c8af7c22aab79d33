"""Every player's phone (SEATS.md): a seat's page, where that player follows the game and enters
their own bid in turn and their own trick count (play/counts.py), and the join page, where each
player takes their seat.

A seat's bid is a tap like the scorer's (docs/architecture.md, "Taps that never wait for the
network"): it names its deal, its step and its seat, carries a client id, and is written by the one
writer of a game (``changes.apply``), once however many times it is sent. What a seat may do is
web/access.py's to say (``seat_refusal``); whether it is the player's turn, the rules core's
(``rules.turn.bid_refusal``, asked through ``changes.taps``).
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import Blueprint, make_response, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from .. import changes
from ..changes import Outcome, Stale, edits
from ..changes.taps import Target
from ..phone import device
from ..rules.gamefile import MAX_HAND
from ..rules.turn import screen
from ..rules.words import N_
from ..store.games import StoredGame
from ..store.links import find_link, join_token, seat_token
from ..web import access, live
from ..web.access import Act
from ..web.site import no_game, no_store
from . import board, counts, pages, sealed
from .forms import BID_TAP, DEAL_TAP, read_tap, tap_id
from .step import bid_panel

bp = Blueprint("seat", __name__)

#: How many times a seat's bid is judged again when another phone's write came first.
TRIES = 3

#: A seat's bid as its page posts it: the deal it was made on and the bid (no seat: its link's).
SEAT_TAP = {**DEAL_TAP, "bid": BID_TAP["bid"]}
#: A seat's trick count as its page posts it: the deal and the count.
SEAT_COUNT = {**DEAL_TAP, "tricks": (N_("Tricks"), 0, MAX_HAND, N_("tap the number of tricks"))}


def joined(token: str) -> StoredGame:
    """The game of a join link; 404 for anything else."""
    found = find_link(token)
    if found is None or found.seat is not None:
        no_game()
    return found.game


def seated(token: str) -> tuple[StoredGame, int]:
    """The game and the seat of a seat link; 404 for anything else."""
    found = find_link(token)
    if found is None or found.seat is None:
        no_game()
    return found.game, found.seat


def enter_bid(game: StoredGame, seat: int, value: int, *, tap: str | None, deal: int | None,
              refusals: list[str] | None = None) -> Outcome:
    """Enter the bid of the player at ``seat`` from their seat link, if the seat may (web/access.py)
    and it fits the game as it is now (its deal, the player's turn): the changes layer's outcome.
    A seat's tap lands by its deal and turn, not by the version its page showed: when another
    phone's write came first meanwhile, it is judged again on the game as that write left it."""
    for _attempt in range(TRIES):
        rules = game.load().rules
        if rules.sealed:  # entered in secret, till every bid is in
            outcome = sealed.seat_bid(game, seat, value, tap=tap, deal=deal,
                                      refusals=refusals or [])
        else:
            refused = access.seat_refusal(game, Act.BID, seat, seat,
                                          at_once=rules.bidding.simultaneous)
            outcome = changes.apply(game, lambda doc: edits.set_bid(doc, seat, value),
                                    version=game.version, refusals=refusals or [], tap=tap,
                                    target=Target("bid", deal, seat), refused=refused)
        # another write came first: judged again on the game as that write left it
        if not (isinstance(outcome, Stale) and outcome.game is not None
                and outcome.reason == changes.stale(deal)):
            return outcome
        game = outcome.game
    return outcome  # other phones wrote meanwhile, again and again: the seat taps again


def seat_context(game: StoredGame, seat: int, error: str = "") -> dict[str, Any]:
    """What a seat's page shows: the game as the read-only page does, from this player's seat,
    with their bid buttons when it is their turn."""
    gamefile = game.load()
    step = screen(gamefile)
    deal, result = step.deal, step.result
    standing = next((s for s in gamefile.game.standings if s.player == seat), None)
    return {
        "game": game, "file": gamefile, "state": gamefile.game, "names": gamefile.players,
        "screen": step, "editable": False, "offers": frozenset(), "error": error,
        "panel": bid_panel(gamefile, deal, result) if deal and step.kind == "bid" else None,
        "guess": None, "trumps": (), "last": board.last_result(gamefile),
        "settlement": gamefile.settlement(),
        "board_html": pages.board_html(game, gamefile, editable=False),
        "event": pages.event_link(game), "seat": seat, "seat_link": seat_token(game, seat),
        "standing": standing, "tap": secrets.token_urlsafe(12),
        "counts": counts.counts_of(game, gamefile),
        "sealed": sealed.shown(game, gamefile, own=True),
    }


def seat_page(game: StoredGame, seat: int, error: str = "", status: int = 200) -> Response:
    """A seat's page, saying ``error`` (with ``status``); at a club night it follows the night too
    (its version: ``live.followed``), for the next round's seat (events/follow.py)."""
    version = live.followed(game)
    page = render_template("play/seat.html", version=version, **seat_context(game, seat, error))
    return no_store(make_response(page, status))


@bp.get("/s/<token>")
def page(token: str) -> Response:
    """A seat's page: the game as it happens, and this player's bid when it is their turn."""
    game, seat = seated(token)
    device.remember_seat(game, seat)
    device.phone_id(make=True)  # a sealed bid it enters is shown to it alone, even sent twice
    return seat_page(game, seat)


@bp.get("/s/<token>/state")
def state(token: str) -> Response:
    """The game's version, and the seat's live part as HTML when it changed since ``?v=`` (the
    read-only page's way of following the game: static/js/view.js; held with ``wait``). At a club
    night the version is the game's and the night's: a new round offers the player's next seat."""
    game, seat = seated(token)

    def seat_part(found: StoredGame) -> dict[str, Any]:
        shown = seat_context(found, seat)
        return {"html": render_template("play/_seat_live.html", **shown),
                "news": sealed.news(found, shown["file"])
                or counts.news(shown["file"], shown["counts"])}

    return live.state(game, lambda: seated(token)[0], seat_part, night=True)


@bp.post("/s/<token>/bid")
def bid(token: str) -> Response:
    """The seat's own bid, from its bid buttons."""
    game, seat = seated(token)
    tap = read_tap(request.form, SEAT_TAP)
    outcome = enter_bid(game, seat, tap.numbers["bid"] or 0, tap=tap_id(request.form),
                        deal=tap.numbers["deal"], refusals=tap.errors)
    return _answered(token, game, seat, outcome)


@bp.post("/s/<token>/tricks")
def tricks(token: str) -> Response:
    """The seat's own trick count, from its number buttons (entered, or changed)."""
    game, seat = seated(token)
    tap = read_tap(request.form, SEAT_COUNT)
    outcome = counts.enter_count(game, seat, tap.numbers["tricks"] or 0, tap=tap_id(request.form),
                                 deal=tap.numbers["deal"], refusals=tap.errors)
    return _answered(token, game, seat, outcome)


def _answered(token: str, game: StoredGame, seat: int, outcome: Outcome) -> Response:
    """A seat's page's answer to its tap: its page again once stored (or stored before), else its
    page saying why."""
    if isinstance(outcome, changes.Saved | changes.AlreadyApplied):
        return redirect(url_for("seat.page", token=token))
    if isinstance(outcome, Stale):
        return seat_page(outcome.game or no_game(), seat, outcome.reason, 409)
    return seat_page(game, seat, outcome.reason, outcome.status)


@bp.get("/j/<token>")
def join(token: str) -> Response:
    """The join page: the players at the table, each leading to their seat's page."""
    game = joined(token)
    gamefile = game.load()
    seats = [(name, url_for("seat.page", token=seat_token(game, seat)))
             for seat, name in enumerate(gamefile.players)]
    page = render_template("play/join.html", game=game, file=gamefile, seats=seats,
                           mine=device.seat_of(game), event=pages.event_link(game),
                           join=join_token(game))
    return no_store(make_response(page))
