"""The game page, and how a page answers a change to the game: the changes layer writes it
(``changes.apply``) and says how it went; this renders that outcome (POST-redirect-GET once stored).
The table's pages (table/) answer their changes here too, and a new game opens here (``open_new``).
"""

from __future__ import annotations

from typing import Any

from flask import flash, make_response, redirect, render_template, request, url_for
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup
from werkzeug.wrappers import Response

from .. import changes
from ..changes import AlreadyApplied, Change, Check, Outcome, Saved, Stale
from ..changes.games import open_game
from ..changes.groups import refusal
from ..changes.taps import Target
from ..phone import device
from ..rules.game import trump_choices
from ..rules.gamefile import GameFile
from ..rules.turn import screen
from ..store.games import StoredGame
from ..store.groups import StoredGroup
from ..web import access, language
from ..web.access import Act
from ..web.fields import VersionForm
from ..web.site import endpoint_url, no_game, no_store
from . import board, counts, pages, sealed
from .forms import Tap, tap_id
from .step import bid_panel, step_data


def context(game: StoredGame, gamefile: GameFile, *, editable: bool) -> dict[str, Any]:
    """Everything the game pages show, from the replayed game."""
    step = screen(gamefile)
    deal, result = step.deal, step.result
    offers = access.offers(game) if editable else frozenset()
    # A table's link its round no longer lets play shows the game as a read-only link does, and why.
    locked = access.refusal(game, Act.PLAY) if editable and Act.PLAY not in offers else None
    editable = editable and locked is None
    counted = counts.counts_of(game, gamefile)  # the players' own counts (SEATS.md), if any
    # who has bid while the bids are sealed; the bids this phone entered on its own page alone
    seen = sealed.shown(game, gamefile, own=editable)
    data = step_data(gamefile, game.version) if editable else None
    if data is not None and seen is not None:
        data["sealed"] = sealed.step_part(seen)
    return {
        "game": game, "file": gamefile, "state": gamefile.game, "names": gamefile.players,
        "screen": step, "editable": editable,
        "panel": bid_panel(gamefile, deal, result) if deal and step.kind == "bid" else None,
        "guess": (counts.prefilled(deal, result.bids, counted)
                  if deal and result and step.kind == "tricks" else None),
        "counts": counted,
        "trumps": trump_choices(gamefile.rules, deal) if deal else (),
        "board_html": pages.board_html(game, gamefile, editable=editable),
        "last": board.last_result(gamefile), "settlement": gamefile.settlement(),
        # In this page's language, whatever opens the PDF (a phone's download manager sends no
        # cookie).
        "sheet": endpoint_url("sheets.filled", token=game.token if editable else game.view_token,
                              lang=language.current()),
        "step_json": step_json(counts.with_counts(data or {"version": game.version}, counted))
        if editable else None,
        "sealed": seen,
        # Asked of the database only once the game is over: the deals' pages stay as light as they
        # were.
        "joinable": (device.joinable(game) if Act.GROUP in offers and gamefile.game.finished
                     else None),
        "event": pages.event_link(game), "offers": offers,
        "locked": locked,
    }


def step_json(data: dict[str, Any]) -> Markup:
    """The step's data as compact JSON that is safe inside the page's <script
    type="application/json">."""
    return htmlsafe_json_dumps(data, separators=(",", ":"), ensure_ascii=False)


def game_page(game: StoredGame, error: str = "", status: int = 200, **kept: Any) -> Response:
    """The game's edit page, saying ``error`` (with ``status``) and showing what was typed
    (``kept``)."""
    page = render_template("play/game.html", error=error, kept=kept,
                           **context(game, game.load(), editable=True))
    return no_store(make_response(page, status))


def apply_posted(game: StoredGame, form: VersionForm | Tap, change: Change, *,
                 aim: tuple[Target, list[str]] | None = None, act: Act = Act.PLAY,
                 check: Check | None = None) -> Outcome:
    """Hand a posted change to the changes layer with what the request says: the version the form
    was drawn from and what it refused, the tap's client id, its target (``aim``: the target and
    what was refused of it), and whether this link may do ``act`` (web/access.py)."""
    version, refusals = form.posted()
    target = None
    if aim is not None:
        target, unread = aim
        refusals = [*unread, *refusals]
    return changes.apply(game, change, version=version, refusals=refusals, tap=tap_id(request.form),
                         target=target, refused=access.refusal(game, act), check=check)


def answered(game: StoredGame, outcome: Outcome) -> Response:
    """The game page's answer to a change: the game page again once stored (or stored before), the
    game as it is now when the change was stale (409), else the game page saying why (a page with a
    form of its own renders a ``Refused`` itself, keeping what was typed)."""
    if isinstance(outcome, Saved | AlreadyApplied):
        return redirect(url_for("play.game", token=outcome.game.token))
    if isinstance(outcome, Stale):
        return game_page(outcome.game or no_game(), outcome.reason, 409)
    return game_page(game, outcome.reason, outcome.status)


def open_new(checked: GameFile, tokens: tuple[str, str] | None = None,
             group: StoredGroup | None = None) -> Response:
    """Store a new game (in ``group``, if given: ``changes.games.open_game``), remember it on this
    phone and open it. With ``tokens`` made from what asked for it, a second ask opens the game the
    first one stored."""
    opened = open_game(checked, tokens, group)
    if opened.full:  # the game is played all the same
        flash(refusal("full"), "error")
    device.remember(opened.game)
    return redirect(url_for("play.game", token=opened.game.token))
