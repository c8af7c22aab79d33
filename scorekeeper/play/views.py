"""Playing a game: its page, a deal step by step, corrections, adjustments, the end, sharing.

Every write loads the game file's input, changes it (``edits``), replays it with ``parse()``
and stores it only when the rules accept it; then it redirects (POST-redirect-GET).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import (
    Blueprint,
    Flask,
    current_app,
    flash,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup
from werkzeug.utils import secure_filename
from werkzeug.wrappers import Response

from ..changes import edits
from ..phone import device
from ..rules.bidding import announce
from ..rules.errors import RulesError
from ..rules.game import trump_choices
from ..rules.gamefile import GameFile, GameFileError, export, parse
from ..rules.words import N_, _
from ..store.games import StoredGame, find_game
from ..web import access, address, language
from ..web.access import Act
from ..web.fields import VersionForm, sentence
from ..web.site import endpoint_url, game_links, game_or_404, no_game, no_store
from . import board, pages, wording
from .chart import running_totals_svg
from .forms import (
    BID_TAP,
    UNDO_TAP,
    AdjustForm,
    CardsForm,
    SeatsForm,
    StakesForm,
    Tap,
    TrumpForm,
    read_tap,
    seats_form,
    tap_id,
)
from .step import (
    Screen,
    bid_panel,
    correction_data,
    deal_steps,
    plan_name,
    screen,
    step_data,
    tricks_guess,
)
from .summary import adjustment_words, stakes_words
from .taps import Target, misplaced, target

bp = Blueprint("play", __name__)

STALE = N_("This screen was out of date: the game had changed since it was shown (on another phone, "
           "or before going back). Nothing was changed — this is the game as it is now.")

#: The same, for a tap: it names its deal.
STALE_TAP = N_("Deal %(deal)s: this entry was made on a screen that was out of date (the game had changed on "
               "another phone). Nothing was changed — this is the game as it is now.")

#: Renders the page a refused write came from: (game, error message, HTTP status) → response.
Failure = Callable[[StoredGame, str, int], Response]


def context(game: StoredGame, gamefile: GameFile, *, editable: bool) -> dict[str, Any]:
    """Everything the game pages show, from the replayed game."""
    step = screen(gamefile)
    deal, result = step.deal, step.result
    offers = access.offers(game) if editable else frozenset()
    # A table's link its round no longer lets play shows the game as a read-only link does, and why.
    locked = access.refusal(game, Act.PLAY) if editable and Act.PLAY not in offers else None
    editable = editable and locked is None
    return {
        "game": game, "file": gamefile, "state": gamefile.game, "names": gamefile.players,
        "screen": step, "editable": editable,
        "panel": bid_panel(gamefile, deal, result) if deal and step.kind == "bid" else None,
        "guess": tricks_guess(deal, result.bids) if deal and result and step.kind == "tricks" else None,
        "trumps": trump_choices(gamefile.rules, deal) if deal else (),
        "board_html": pages.board_html(game, gamefile, editable=editable),
        "last": board.last_result(gamefile), "settlement": gamefile.settlement(),
        # In this page's language, whatever opens the PDF (a phone's download manager sends no cookie).
        "sheet": endpoint_url("sheets.filled", token=game.token if editable else game.view_token,
                              lang=language.current()),
        "step_json": _step_json(step_data(gamefile, game.version) or {"version": game.version})
        if editable else None,
        # Asked of the database only once the game is over: the deals' pages stay as light as they were.
        "joinable": device.joinable(game) if Act.GROUP in offers and gamefile.game.finished else None,
        "event": pages.event_link(game), "offers": offers,
        "locked": locked,
    }



def _step_json(data: dict[str, Any]) -> Markup:
    """The step's data as compact JSON that is safe inside the page's <script type="application/json">."""
    return htmlsafe_json_dumps(data, separators=(",", ":"), ensure_ascii=False)


def _page(game: StoredGame, error: str = "", status: int = 200, **kept: Any) -> Response:
    page = render_template("play/game.html", error=error, kept=kept,
                           **context(game, game.load(), editable=True))
    return no_store(make_response(page, status))


def _applied(game: StoredGame) -> Response:
    """A tap stored already (sent again, its answer lost): answered as when it was stored."""
    return redirect(url_for("play.game", token=game.token))


def _save(game: StoredGame, form: VersionForm | Tap, change: Callable[[edits.Document], None],
          fail: Failure = _page, done: Callable[[], str] | None = None,
          check: Callable[[GameFile], None] | None = None,
          aim: tuple[Target, list[str]] | None = None, act: Act = Act.PLAY) -> Response:
    """Apply one change if the form is current and the rules accept the result; else say why.

    ``done`` words what was saved, for the page it redirects to (a change made away from the
    deal being played, which would otherwise show no sign of it). ``check`` may refuse a game the
    rules accept but the table can't play on (an EditError: a deal still to come too big for it).
    ``aim`` is a tap's target: it is applied to that deal and step only, or refused naming the deal.
    A tap whose client id was stored is answered as stored, however long ago and however it raced.
    ``act`` is what the change does, which the link must be allowed (web/access.py).
    """
    tap = tap_id(request.form)
    if tap is not None and game.applied(tap):  # sent again (its answer was lost): it is stored once
        return _applied(game)
    refused = access.refusal(game, act)
    if refused is not None:
        return fail(game, refused, 403)
    version, refusals = form.posted()
    if aim is not None:
        refusals = [*aim[1], *refusals]
        where = misplaced(game.load(), aim[0]) if aim[0].deal is not None else None
        if where is not None:
            return _page(game, where, 409)
    if version != game.version:
        return _page(game, _(STALE_TAP, deal=aim[0].deal) if aim and aim[0].deal else _(STALE), 409)
    if refusals:
        return fail(game, " ".join(refusals), 422)
    document = game.document
    try:
        change(document)
        checked = game.replay(document)
        if check is not None:
            check(checked)
    except (RulesError, edits.EditError) as exc:
        return fail(game, sentence(str(exc)), 422)
    if not game.save(checked, tap):
        if tap is not None and game.applied(tap):  # the other copy of this very tap came first
            return _applied(game)
        return _page(game_or_404(game.token, edit=True),  # another write came first: this one is stale
                     _(STALE_TAP, deal=aim[0].deal) if aim and aim[0].deal else _(STALE), 409)
    if done is not None:
        flash(done(), "done")
    return redirect(url_for("play.game", token=game.token))


@bp.get("/g/<token>")
def game(token: str) -> Response:
    """The game's edit page: the step being entered, then the board."""
    found, editable = find_game(token)
    if found is None:
        no_game()
    if not editable:
        return redirect(url_for("play.view", token=token))
    device.remember(found)
    return _page(found)


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
    """The game's version, and the read-only board as HTML when it changed since ``?v=``."""
    found = game_or_404(token, edit=False)
    if request.args.get("v") == str(found.version):  # a version is compared as text: never read as a number
        return no_store(jsonify(version=found.version))
    html = pages.cached(("live", found.key), lambda: render_template(
        "play/_live.html", **context(found, found.load(), editable=False)))
    return no_store(jsonify(version=found.version, html=html, news=board.news(found.load())))


@bp.get("/g/<token>/chart")
@bp.get("/v/<token>/chart", endpoint="view_chart")
def chart(token: str) -> Response:
    """The running totals as a chart (the sheet's), asked for from the board."""
    found, editable = find_game(token)
    if found is None:
        no_game()
    gamefile = found.load()
    page = render_template("play/chart.html", game=found, file=gamefile, token=token, editable=editable,
                           chart=running_totals_svg(gamefile.players, board.running_totals(gamefile), "currentColor"))
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
            step["head"] = render_template("play/_deal_head.html", file=gamefile, deal=deal, names=gamefile.players,
                                           state=gamefile.game, screen=Screen("bid", deal, None))
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
    return _save(found, tap, lambda doc: edits.set_bid(doc, seat, value), aim=target("bid", tap.numbers["seat"]))


def _seats(game: StoredGame, *, bids: bool) -> SeatsForm:
    """Every player's bid (or tricks) in the deal being played, as posted."""
    gamefile = game.load()
    step = screen(gamefile)
    cards = step.deal.cards or 0 if step.deal else 0
    seats = step.deal.seats(len(gamefile.players)) if step.deal else None
    return seats_form(request.form, gamefile.players, cards, bids=bids, tricks=not bids, seats=seats)


def _save_seats(token: str, *, bids: bool) -> Response:
    """Every player's bid (simultaneous bidding) or trick count at once; refused, the page keeps them."""
    found = game_or_404(token, edit=True)
    form = _seats(found, bids=bids)
    kind, change = ("bids", edits.set_bids) if bids else ("tricks", edits.set_tricks)
    return _save(found, form, lambda doc: change(doc, form.entries(kind)),
                 lambda g, error, status: _page(g, error, status, **{kind: form.numbers[kind]}),
                 aim=target(kind))


@bp.post("/g/<token>/bids")
def bids(token: str) -> Response:
    """Every bid at once (simultaneous bidding)."""
    return _save_seats(token, bids=True)


@bp.post("/g/<token>/undo")
def undo(token: str) -> Response:
    """Take back the last bid of the deal being played."""
    found = game_or_404(token, edit=True)
    gamefile = found.load()
    step = screen(gamefile)
    order = step.deal.bidding_order(len(gamefile.players)) if step.deal else []
    at_once = gamefile.rules.bidding.simultaneous
    bids = step.result.bids if step.result else ()
    # Bids in turn: the undo names the bid it takes back (a manual deal's cards alone need none).
    seat = read_tap(request.form, UNDO_TAP) if not at_once and any(b is not None for b in bids) else None
    aim, refused = target("undo", seat.numbers["seat"] if seat else None)
    return _save(found, VersionForm(), lambda doc: edits.undo_bid(doc, order, at_once=at_once),
                 aim=(aim, [*refused, *(seat.errors if seat else [])]))


@bp.post("/g/<token>/trump")
def trump(token: str) -> Response:
    """Record the trump of the deal being played."""
    found, form = game_or_404(token, edit=True), TrumpForm()
    return _save(found, form, lambda doc: edits.set_trump(doc, form.trump.data or ""), aim=target("trump"))


@bp.post("/g/<token>/cards")
def cards(token: str) -> Response:
    """How many cards the next deal has (the manual pattern)."""
    found, form = game_or_404(token, edit=True), CardsForm()
    return _save(found, form, lambda doc: edits.set_cards(doc, form.cards.data or 0), aim=target("cards"))


@bp.post("/g/<token>/tricks")
def tricks(token: str) -> Response:
    """The tricks of the deal being played; the sum is checked before anything is saved."""
    return _save_seats(token, bids=False)


def _correct_page(game: StoredGame, number: int, form: SeatsForm, error: str = "", status: int = 200) -> Response:
    gamefile = game.load()
    result = gamefile.game.deals[number - 1]
    data, struck = correction_data(gamefile, result.deal, form.numbers["bids"])
    page = render_template("play/correct.html", game=game, file=gamefile, result=result, form=form,
                           error=error, trumps=trump_choices(gamefile.rules, result.deal),
                           title=board.deal_name(gamefile, result.deal), data=data, struck=struck,
                           announce=announce, undoable=number == len(game.document.get("deals", [])))
    return no_store(make_response(page, status))


@bp.route("/g/<token>/deal/<count:number>", methods=("GET", "POST"))
def correct(token: str, number: int) -> Response:
    """Correct a finished deal; every later deal is replayed, and refused if it no longer fits."""
    found = game_or_404(token, edit=True)
    deals = found.load().game.deals
    if not 1 <= number <= len(deals) or not deals[number - 1].finished:
        return _page(found, _("Deal %(number)s is not a finished deal of this game, so it can't be corrected.",
                              number=number), 404)
    result = deals[number - 1]
    data = {"bids": list(result.bids), "tricks": list(result.tricks or ()), "trump": result.trump or "",
            "version": found.version}
    posted = request.form if request.method == "POST" else None  # HEAD and OPTIONS change nothing
    form = seats_form(posted, found.document["players"], result.deal.cards or 0, bids=True, tricks=True,
                      trump=True, data=data, seats=result.deal.seats(len(result.bids)))
    if posted is None:
        return _correct_page(found, number, form)
    return _save(found, form,
                 lambda doc: edits.replace_deal(doc, number, form.entries("bids"), form.entries("tricks"),
                                                form.trump),
                 lambda g, error, status: _correct_page(g, number, form, error, status),
                 lambda: _("Deal %(number)s corrected.", number=number))


@bp.post("/g/<token>/deal/<count:number>/undo")
def undo_deal(token: str, number: int) -> Response:
    """Take back the tricks of the last deal (from its card), to enter them again."""
    found = game_or_404(token, edit=True)
    return _save(found, VersionForm(), lambda doc: edits.undo_tricks(doc, number),
                 done=lambda: _("Deal %(number)s: the tricks are taken back; enter them again.", number=number))


@bp.post("/g/<token>/adjust")
def adjust(token: str) -> Response:
    """Give a player one-off points at a deal, with a reason."""
    found, form = game_or_404(token, edit=True), AdjustForm()
    deal = form.deal.data or 0
    return _save(found, form, lambda doc: edits.add_adjustment(
        doc, deal, form.player.data or 0, form.points.data or 0, form.reason.data or ""),
        lambda g, error, status: _page(g, error, status, adjust=form),
        lambda: _("%(adjustment)s added at deal %(deal)s.", adjustment=adjustment_words(found.load(), -1),
                  deal=deal))  # added last


@bp.post("/g/<token>/stakes")
def stakes(token: str) -> Response:
    """Change the stakes (they can change until the game is settled)."""
    found, form = game_or_404(token, edit=True), StakesForm()
    return _save(found, form, lambda doc: edits.set_stakes(doc, form.stakes_input()),
                 lambda g, error, status: _page(g, error, status, stakes=form),
                 lambda: _stakes_saved(found.load()))


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
        said = _("Removed: %(adjustment)s at deal %(deal)s.", adjustment=adjustment_words(gamefile, index),
                 deal=gamefile.adjustments[index].deal)
    return _save(found, VersionForm(), lambda doc: edits.remove_adjustment(doc, index), done=lambda: said)


@bp.route("/g/<token>/end", methods=("GET", "POST"))
def end(token: str) -> Response:
    """End the game now, after a confirmation: the totals so far decide."""
    found = game_or_404(token, edit=True)
    if request.method == "POST":
        return _save(found, VersionForm(), lambda doc: edits.set_ended(doc, True))
    document = found.document
    edits.set_ended(document, True)
    try:
        ended: GameFile | None = parse(document)
        refusal = ""
    except RulesError as exc:
        ended, refusal = None, sentence(str(exc))
    page = render_template("play/end.html", game=found, file=found.load(), ended=ended, refusal=refusal)
    return no_store(make_response(page))


@bp.post("/g/<token>/resume")
def resume(token: str) -> Response:
    """Take back "End the game now"."""
    found = game_or_404(token, edit=True)
    return _save(found, VersionForm(), lambda doc: edits.set_ended(doc, False), done=lambda: _("The game goes on."),
                 act=Act.RESUME)


@bp.get("/g/<token>/export.json")
def export_file(token: str) -> Response:
    """The game file (input and everything computed), as a download."""
    found = game_or_404(token, edit=True)
    try:
        document = export(found.load(), game_links(found))
    except GameFileError:  # stored before a limit it breaks: the file as stored, to correct and import
        document = {**found.document, "links": game_links(found)}
    name = secure_filename(f"oh-hell-{found.title or 'game'}-{found.created_at:%Y-%m-%d}") or "oh-hell-game"
    response = make_response(json.dumps(document, indent=2, ensure_ascii=False))
    response.mimetype = "application/json"
    response.headers["Content-Disposition"] = f'attachment; filename="{name}.json"'
    return no_store(response)  # it holds the game's edit link


@bp.get("/g/<token>/share")
def share(token: str) -> Response:
    """The edit link and the read-only link, each with a QR code."""
    found = game_or_404(token, edit=True)
    shared = address.share_links(game_links(found), request.environ.get("SERVER_NAME", ""),
                                 current_app.config["PUBLIC_URL"])
    links = shared.links
    page = render_template("play/share.html", game=found, file=found.load(), links=links, shared=shared,
                           codes={kind: address.qr_code(links[kind]) for kind in ("edit", "view")},
                           offline=address.keeps_offline(links["edit"]))
    return no_store(make_response(page))


def init_app(app: Flask) -> None:
    """The template helpers of a game's pages: how they write points, money, a reason and a suit,
    and the board's parts (``board``)."""
    app.jinja_env.filters.update(points=wording.points, money=wording.money, reason=wording.reason)
    app.jinja_env.globals.update(board=board, suits=wording.SUIT_SIGNS, suit_sign=wording.suit_sign)
