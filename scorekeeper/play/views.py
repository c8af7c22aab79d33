"""Playing a game: its page, a deal step by step, corrections, adjustments, the end, sharing.

Every write is the changes layer's (``changes.apply``): it changes the game file's input
(``changes.edits``), replays it and stores it only when the rules accept it; the page renders how it
went (``answer.answered``), once stored by a redirect (POST-redirect-GET).
"""

from __future__ import annotations

import json
from typing import Any

from flask import (
    Blueprint,
    Flask,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.utils import secure_filename
from werkzeug.wrappers import Response

from ..changes import Refused, Saved, edits
from ..phone import device
from ..rules.bidding import announce
from ..rules.errors import RulesError
from ..rules.game import trump_choices
from ..rules.gamefile import GameFile, GameFileError, parse
from ..rules.turn import Screen, screen
from ..rules.words import _
from ..store.games import StoredGame, find_game
from ..web import address, live, qr
from ..web.access import Act
from ..web.fields import VersionForm, sentence
from ..web.site import game_links, game_or_404, no_game, no_store, table_links
from . import board, counts, pages, sealed, wording
from .answer import answered, apply_posted, context, game_page
from .chart import running_totals_svg
from .forms import (
    BID_TAP,
    UNDO_TAP,
    AdjustForm,
    CardsForm,
    SeatsForm,
    StakesForm,
    TrumpForm,
    read_tap,
    seats_form,
)
from .step import correction_data, deal_steps, plan_name
from .summary import adjustment_words, stakes_words
from .taps import target

bp = Blueprint("play", __name__)

@bp.get("/g/<token>")
def game(token: str) -> Response:
    """The game's edit page: the step being entered, then the board."""
    found, editable = find_game(token)
    if found is None:
        no_game()
    if not editable:
        return redirect(url_for("play.view", token=token))
    device.remember(found)
    return game_page(found)


@bp.get("/v/<token>")
def view(token: str) -> Response:
    """The read-only page: it follows the game as it is entered (view.js polls ``state``)."""
    found = game_or_404(token, edit=False)
    device.remember(found, editable=False)
    page = pages.cached(("view", found.key), lambda: render_template(
        "play/view.html", **context(found, found.load(), editable=False)))
    return no_store(make_response(page))


@bp.get("/v/<token>/state")
def state(token: str) -> Response:
    """The game's version, and the read-only board as HTML when it changed since ``?v=``; held
    till it changes with ``wait``, on a server that can (web/live.py)."""
    def board_of(found: StoredGame) -> dict[str, Any]:
        html = pages.cached(("live", found.key), lambda: render_template(
            "play/_live.html", **context(found, found.load(), editable=False)))
        gamefile = found.load()
        return {"html": html, "news": sealed.news(found, gamefile)
                or counts.news(gamefile, counts.counts_of(found, gamefile))}

    return live.state(game_or_404(token, edit=False), lambda: game_or_404(token, edit=False),
                      board_of)


@bp.get("/g/<token>/state")
def scorer_state(token: str) -> Response:
    """The game's version, for the scorer's page (play.js): when the game changed through another
    phone (a player's own bid, SEATS.md), the page takes the server's again. Held till it changes
    with ``wait``, on a server that can (web/live.py)."""
    return live.state(game_or_404(token, edit=True), lambda: game_or_404(token, edit=True),
                      lambda _found: {})


@bp.get("/g/<token>/chart")
@bp.get("/v/<token>/chart", endpoint="view_chart")
def chart(token: str) -> Response:
    """The running totals as a chart (the sheet's), asked for from the board."""
    found, editable = find_game(token)
    if found is None:
        no_game()
    gamefile = found.load()
    page = render_template("play/chart.html", game=found, file=gamefile, token=token,
                           editable=editable,
                           chart=running_totals_svg(gamefile.players,
                                                    board.running_totals(gamefile), "currentColor"))
    return no_store(make_response(page))


@bp.get("/g/<token>/deals.json")
def deals(token: str) -> Response:
    """The deals after the one being played, as the phone draws them without a connection: each
    one's step data and header (``deal_steps``), under the name of the game's plan."""
    found = game_or_404(token, edit=True)
    gamefile = found.load()

    def render() -> str:
        steps = deal_steps(gamefile)
        for step in steps:
            deal = gamefile.game.schedule[step["deal"] - 1]
            step["head"] = render_template("play/_deal_head.html", file=gamefile, deal=deal,
                                           names=gamefile.players, state=gamefile.game,
                                           screen=Screen("bid", deal, None))
        return json.dumps({"plan": plan_name(gamefile), "deals": steps}, ensure_ascii=False,
                          separators=(",", ":"))

    response = make_response(pages.cached(("deals", found.key), render))
    response.mimetype = "application/json"
    return no_store(response)


@bp.post("/g/<token>/bid")
def bid(token: str) -> Response:
    """One bid, from the bid buttons."""
    found, tap = game_or_404(token, edit=True), read_tap(request.form, BID_TAP)
    seat, value = tap.numbers["seat"] or 0, tap.numbers["bid"] or 0
    return answered(found, apply_posted(found, tap, lambda doc: edits.set_bid(doc, seat, value),
                                        aim=target("bid", tap.numbers["seat"])))


def _seats(game: StoredGame, *, bids: bool) -> SeatsForm:
    """Every player's bid (or tricks) in the deal being played, as posted."""
    gamefile = game.load()
    step = screen(gamefile)
    cards = step.deal.cards or 0 if step.deal else 0
    seats = step.deal.seats(len(gamefile.players)) if step.deal else None
    return seats_form(request.form, gamefile.players, cards, bids=bids, tricks=not bids,
                      seats=seats)


def _save_seats(token: str, *, bids: bool) -> Response:
    """Every player's bid (simultaneous bidding) or trick count at once; refused, the page keeps
    them."""
    found = game_or_404(token, edit=True)
    form = _seats(found, bids=bids)
    kind, change = ("bids", edits.set_bids) if bids else ("tricks", edits.set_tricks)
    outcome = apply_posted(found, form, lambda doc: change(doc, form.entries(kind)),
                           aim=target(kind))
    if isinstance(outcome, Refused):
        return game_page(found, outcome.reason, outcome.status, **{kind: form.numbers[kind]})
    return answered(found, outcome)


@bp.post("/g/<token>/bids")
def bids(token: str) -> Response:
    """Every bid at once (simultaneous bidding); those tapped, sealed till all are in, when the bids
    are sealed."""
    found = game_or_404(token, edit=True)
    if not found.load().rules.sealed:
        return _save_seats(token, bids=True)
    outcome, kept = sealed.scorer_bids(found)
    if isinstance(outcome, Refused):
        return game_page(found, outcome.reason, outcome.status, bids=kept)
    return answered(found, outcome)


@bp.post("/g/<token>/undo")
def undo(token: str) -> Response:
    """Take back the last bid of the deal being played."""
    found = game_or_404(token, edit=True)
    gamefile = found.load()
    seen = sealed.shown(found, gamefile, own=False)
    if seen is not None and seen.count:  # the sealed bids, every one
        return answered(found, sealed.take_back(found))
    step = screen(gamefile)
    order = step.deal.bidding_order(len(gamefile.players)) if step.deal else []
    at_once = gamefile.rules.bidding.simultaneous
    bids = step.result.bids if step.result else ()
    # Bids in turn: the undo names the bid it takes back (a manual deal's cards alone need none).
    seat = (read_tap(request.form, UNDO_TAP) if not at_once and any(b is not None for b in bids)
            else None)
    aim, refused = target("undo", seat.numbers["seat"] if seat else None)
    return answered(found, apply_posted(found, VersionForm(),
                                        lambda doc: edits.undo_bid(doc, order, at_once=at_once),
                                        aim=(aim, [*refused, *(seat.errors if seat else [])])))


@bp.post("/g/<token>/trump")
def trump(token: str) -> Response:
    """Record the trump of the deal being played."""
    found, form = game_or_404(token, edit=True), TrumpForm()
    return answered(found, apply_posted(found, form,
                                        lambda doc: edits.set_trump(doc, form.trump.data or ""),
                                        aim=target("trump")))


@bp.post("/g/<token>/cards")
def cards(token: str) -> Response:
    """How many cards the next deal has (the manual pattern)."""
    found, form = game_or_404(token, edit=True), CardsForm()
    return answered(found, apply_posted(found, form,
                                        lambda doc: edits.set_cards(doc, form.cards.data or 0),
                                        aim=target("cards")))


@bp.post("/g/<token>/tricks")
def tricks(token: str) -> Response:
    """The tricks of the deal being played; the sum is checked before anything is saved."""
    return _save_seats(token, bids=False)


def _correct_page(game: StoredGame, number: int, form: SeatsForm, error: str = "",
                  status: int = 200) -> Response:
    gamefile = game.load()
    result = gamefile.game.deals[number - 1]
    data, struck = correction_data(gamefile, result.deal, form.numbers["bids"])
    page = render_template("play/correct.html", game=game, file=gamefile, result=result, form=form,
                           error=error, trumps=trump_choices(gamefile.rules, result.deal),
                           title=board.deal_name(gamefile, result.deal), data=data, struck=struck,
                           announce=announce,
                           undoable=number == len(game.document.get("deals", [])))
    return no_store(make_response(page, status))


@bp.route("/g/<token>/deal/<count:number>", methods=("GET", "POST"))
def correct(token: str, number: int) -> Response:
    """Correct a finished deal; every later deal is replayed, and refused if it no longer fits."""
    found = game_or_404(token, edit=True)
    deals = found.load().game.deals
    hidden = sealed.refusal(found, number)
    if hidden is not None:  # its bids are sealed: nothing reads them back
        return game_page(found, hidden, 409)
    if not 1 <= number <= len(deals) or not deals[number - 1].finished:
        return game_page(found, _("Deal %(number)s is not a finished deal of this game, "
                                  "so it can't be corrected.", number=number), 404)
    result = deals[number - 1]
    data = {"bids": list(result.bids), "tricks": list(result.tricks or ()),
            "trump": result.trump or "", "version": found.version}
    posted = request.form if request.method == "POST" else None  # HEAD and OPTIONS change nothing
    form = seats_form(posted, found.document["players"], result.deal.cards or 0, bids=True,
                      tricks=True, trump=True, data=data, seats=result.deal.seats(len(result.bids)))
    if posted is None:
        return _correct_page(found, number, form)
    outcome = apply_posted(found, form, lambda doc: edits.replace_deal(
        doc, number, form.entries("bids"), form.entries("tricks"), form.trump))
    if isinstance(outcome, Refused):
        return _correct_page(found, number, form, outcome.reason, outcome.status)
    if isinstance(outcome, Saved):
        flash(_("Deal %(number)s corrected.", number=number), "done")
    return answered(found, outcome)


@bp.post("/g/<token>/deal/<count:number>/undo")
def undo_deal(token: str, number: int) -> Response:
    """Take back the tricks of the last deal (from its card), to enter them again."""
    found = game_or_404(token, edit=True)
    outcome = apply_posted(found, VersionForm(), lambda doc: edits.undo_tricks(doc, number))
    if isinstance(outcome, Saved):
        flash(_("Deal %(number)s: the tricks are taken back; enter them again.", number=number),
              "done")
    return answered(found, outcome)


@bp.post("/g/<token>/adjust")
def adjust(token: str) -> Response:
    """Give a player one-off points at a deal, with a reason."""
    found, form = game_or_404(token, edit=True), AdjustForm()
    deal = form.deal.data or 0
    outcome = apply_posted(found, form, lambda doc: edits.add_adjustment(
        doc, deal, form.player.data or 0, form.points.data or 0, form.reason.data or ""))
    if isinstance(outcome, Refused):
        return game_page(found, outcome.reason, outcome.status, adjust=form)
    if isinstance(outcome, Saved):  # added last
        flash(_("%(adjustment)s added at deal %(deal)s.",
                adjustment=adjustment_words(outcome.game.load(), -1), deal=deal), "done")
    return answered(found, outcome)


@bp.post("/g/<token>/stakes")
def stakes(token: str) -> Response:
    """Change the stakes (they can change until the game is settled)."""
    found, form = game_or_404(token, edit=True), StakesForm()
    outcome = apply_posted(found, form, lambda doc: edits.set_stakes(doc, form.stakes_input()))
    if isinstance(outcome, Refused):
        return game_page(found, outcome.reason, outcome.status, stakes=form)
    if isinstance(outcome, Saved):
        flash(_stakes_saved(outcome.game.load()), "done")
    return answered(found, outcome)


def _stakes_saved(gamefile: GameFile) -> str:
    """What the game is now played for, once its stakes changed (worded as the sheet words them)."""
    if gamefile.stakes is None:
        return _("The game has no stakes now.")
    return _("Stakes saved: %(stakes)s.", stakes=stakes_words(gamefile.stakes))


@bp.post("/g/<token>/adjust/<count:index>/remove")
def unadjust(token: str, index: int) -> Response:
    """Take an adjustment back."""
    found = game_or_404(token, edit=True)
    gamefile, said = found.load(), ""
    if 0 <= index < len(gamefile.adjustments):  # else the edit refuses it, and says why
        said = _("Removed: %(adjustment)s at deal %(deal)s.",
                 adjustment=adjustment_words(gamefile, index),
                 deal=gamefile.adjustments[index].deal)
    outcome = apply_posted(found, VersionForm(), lambda doc: edits.remove_adjustment(doc, index))
    if isinstance(outcome, Saved):
        flash(said, "done")
    return answered(found, outcome)


@bp.route("/g/<token>/end", methods=("GET", "POST"))
def end(token: str) -> Response:
    """End the game now, after a confirmation: the totals so far decide."""
    found = game_or_404(token, edit=True)
    if request.method == "POST":
        return answered(found, apply_posted(found, VersionForm(),
                                            lambda doc: edits.set_ended(doc, True)))
    document = found.document
    edits.set_ended(document, True)
    try:
        ended: GameFile | None = parse(document)
        refusal = ""
    except RulesError as exc:
        ended, refusal = None, sentence(str(exc))
    page = render_template("play/end.html", game=found, file=found.load(), ended=ended,
                           refusal=refusal)
    return no_store(make_response(page))


@bp.post("/g/<token>/resume")
def resume(token: str) -> Response:
    """Take back "End the game now"."""
    found = game_or_404(token, edit=True)
    outcome = apply_posted(found, VersionForm(), lambda doc: edits.set_ended(doc, False),
                           act=Act.RESUME)
    if isinstance(outcome, Saved):
        flash(_("The game goes on."), "done")
    return answered(found, outcome)


@bp.get("/g/<token>/export.json")
def export_file(token: str) -> Response:
    """The game file (input and everything computed), as a download."""
    found = game_or_404(token, edit=True)
    links = {**game_links(found), **table_links(found)}
    try:
        document = sealed.sealed_export(found, links)
    except GameFileError:
        # Stored before a limit it breaks: the file as stored, to correct and import
        document = {**found.document, "links": links}
    name = (secure_filename(f"oh-hell-{found.title or 'game'}-{found.created_at:%Y-%m-%d}")
            or "oh-hell-game")
    response = make_response(json.dumps(document, indent=2, ensure_ascii=False))
    response.mimetype = "application/json"
    response.headers["Content-Disposition"] = f'attachment; filename="{name}.json"'
    return no_store(response)  # it holds the game's edit link


@bp.get("/g/<token>/share")
def share(token: str) -> Response:
    """The edit link and the read-only link, each with a QR code."""
    found = game_or_404(token, edit=True)
    table = table_links(found)
    seats = {f"seat-{seat}": link for seat, link in enumerate(table["seats"])}
    shared = address.share_links({**game_links(found), "join": table["join"], **seats},
                                 request.environ.get("SERVER_NAME", ""),
                                 current_app.config["PUBLIC_URL"])
    links = shared.links
    page = render_template("play/share.html", game=found, file=found.load(), links=links,
                           shared=shared,
                           codes={kind: qr.svg(links[kind]) for kind in ("edit", "view", "join")},
                           seats=[(links[name], qr.svg(links[name])) for name in seats],
                           offline=address.keeps_offline(links["edit"]))
    return no_store(make_response(page))


def init_app(app: Flask) -> None:
    """The template helpers of a game's pages: how they write points, money, a reason and a suit,
    and the board's parts (``board``)."""
    app.jinja_env.filters.update(points=wording.points, money=wording.money, reason=wording.reason)
    app.jinja_env.globals.update(board=board, suits=wording.SUIT_SIGNS, suit_sign=wording.suit_sign)
