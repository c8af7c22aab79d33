"""A club night's pages: the director's page (the edit link) and the room screen (the read-only
link), which follows the tables as they enter deals (static/js/view.js polls ``state``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    g,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from .. import changes
from ..changes import edits
from ..phone import device
from ..play.wording import score_in
from ..rules import characters, values
from ..rules.errors import RulesError
from ..rules.event import lineups
from ..rules.words import N_, _, listed
from ..store.cache import LRU
from ..store.db import rollback
from ..store.events import StoredEvent, find_event, state_of
from ..web import access, language, qr
from ..web.signed import CSRF_MARK, csrf_field
from ..web.site import event_or_404, join_link, no_store
from . import document as documents
from . import follow, night, rounds

bp = Blueprint("events", __name__)

#: What a director's change says when another came first.
STALE = N_("The event was changed meanwhile on another screen: here it is as it is now. Try again.")


def _token(loaded: rounds.Loaded) -> str:
    return loaded.stored.token if loaded.editable else loaded.stored.view_token


#: Where each phone's form token goes in a kept part of a page.
#: The tables and standings as HTML, by the event's state, the link's kind and the language.
_parts: LRU[str] = LRU(64)


def _live(loaded: rounds.Loaded, state: str) -> str:
    """The part of the pages that follows the tables, rendered once per state of the event (with
    ``CSRF_MARK`` where each phone's form token goes)."""
    code = language.current()
    key = (loaded.stored.id, _token(loaded), state, code)
    return _parts.get(key, lambda: render_template("events/_live.html", loaded=loaded,
                                                   token=_token(loaded),
                                                   lines=loaded.provisional or loaded.lines,
                                                   provisional=loaded.provisional is not None,
                                                   scored=partial(score_in, code=code),
                                                   csrf_mark=Markup(CSRF_MARK),
                                                   ends=round_clock(loaded),
                                                   joins=_joins(loaded)))


def _joins(loaded: rounds.Loaded) -> dict[int, tuple[str, Markup]]:
    """The join link of each table still playing the current round, with its QR code, by the
    table's number: the director's page shows it on demand, to a table whose card is lost (SEATS.md,
    "Club nights"). Only the director's link gets them: the room screen holds no seat's link."""
    current = loaded.current
    if not loaded.editable or current is None:
        return {}
    links = {t.number: join_link(t.game) for t in current.tables if t.game and not t.finished}
    return {number: (link, qr.svg(link)) for number, link in links.items()}


def where(loaded: rounds.Loaded, typed: str) -> str:
    """Where a player sits in the current round, in words: the table and seat, a bye, or why not."""
    try:
        name = documents.find_player(loaded.doc, typed)["name"]
    except RulesError as exc:
        return str(exc)
    current = loaded.current
    if current is None:
        return _("%(name)s: the first round has not been seated yet.", name=name)
    for table in current.tables:
        if name in table.players:
            return _("%(name)s: round %(round)s, table %(table)s, seat %(seat)s.", name=name,
                     round=current.number, table=table.number, seat=table.players.index(name) + 1)
    if name in current.byes:
        return _("%(name)s has a bye in round %(round)s.", name=name, round=current.number)
    return _("%(name)s does not play round %(round)s.", name=name, round=current.number)


def event_page(stored: StoredEvent, editable: bool, error: str = "", status: int = 200) -> Response:
    """The director's page or the room screen. Kept whole per state of the event and language while
    it carries nothing for one visitor (an error, a name asked, a message); each phone's form token
    is put in as it is sent."""
    state = rounds.mark(stored)
    asked = ("" if editable
             else characters.visible(str(request.args.get("name", "")))[:values.MAX_NAME])
    plain = not error and not asked.strip() and not session.get("_flashes")
    key = ("page", stored.token, editable, state, language.current())
    page = _parts.find(key) if plain else None
    if page is None:
        page = _render(rounds.load(stored, editable, state), state, error, asked)
        if plain:
            _parts.put(key, page)
    return no_store(make_response(page.replace(CSRF_MARK, str(csrf_field())) if editable else page,
                                  status))


def _render(loaded: rounds.Loaded, state: str, error: str, asked: str) -> str:
    live = Markup(_live(loaded, state))
    if not loaded.editable:
        answer = where(loaded, asked) if asked.strip() else ""
        return render_template("events/room.html", loaded=loaded, live=live, mark=state,
                               asked=asked, answer=answer)
    try:
        loaded.ready()
        busy = ""
    except rounds.Busy as exc:
        busy = str(exc)
    return render_template("events/director.html", loaded=loaded, live=live, mark=state,
                           proposal=loaded.proposal(), busy=busy, error=error,
                           next_round=len(loaded.rounds) + 1, csrf_mark=Markup(CSRF_MARK),
                           titled=rounds.game_title(loaded.doc, 1, 1))


@bp.route("/events/new", methods=("GET", "POST"))
def new() -> str | BaseResponse | tuple[str, int]:
    """A new club night: its name, date, players (one a line), rounds, table size, seating,
    ranking, rules and group; then the director's page (events/night.py)."""
    return night.new()


@bp.get("/events/new/rounds")
def new_rounds() -> Response:
    """What a round of the rules being chosen takes, as the new-night form shows it (JSON)."""
    return night.lengths()


@bp.get("/e/<event>")
def event(event: str) -> Response:
    """The director's page with the edit link; the room screen with the read-only link."""
    stored, editable = event_or_404(event, edit=False)
    if editable:
        access.directing(stored.id)
    device.remember_event(stored, editable)
    return event_page(stored, editable)


@bp.get("/e/<event>/state")
def state(event: str) -> Response:
    """The event's mark, and its tables and standings as HTML when they changed since ``?v=``, with
    the moment of the night (the director's page is loaded again when it changes)."""
    now = state_of(event)
    if now is None:
        abort(404, _("No event has this link: check that the whole link was opened."))
    if request.args.get("v") == now:  # nothing changed: one SELECT, as a game's live view
        return no_store(jsonify(version=now))
    stored, editable = event_or_404(event, edit=False)
    now = rounds.mark(stored)
    loaded = rounds.load(stored, editable, now)
    html = _live(loaded, now)
    return no_store(jsonify(version=now, moment=loaded.moment,
                            html=html.replace(CSRF_MARK, str(csrf_field())) if editable else html))


def _save(stored: StoredEvent, change: Any, done: str) -> Response | BaseResponse:
    """Make the event's new document with ``change`` and store it; else the page says why."""
    loaded = rounds.load(stored, True)
    try:
        doc = change(loaded)
    except rounds.Busy as exc:
        rollback()  # the table games a refused start made
        return event_page(stored, True, str(exc), 409)
    except RulesError as exc:
        rollback()  # the table games a refused start made
        return event_page(stored, True, str(exc), 422)
    if not stored.save(doc):
        return event_page(event_or_404(stored.token, edit=True)[0], True, _(STALE), 409)
    flash(done, "done")
    return redirect(url_for("events.event", event=stored.token))


def init_app(app: Any) -> None:
    """The template helpers of the event pages, and what a seat's page of a table game shows of its
    night (events/follow.py: the seat's page is below the events layer)."""
    app.jinja_env.filters.update(zip=zip, listed=listed)
    app.jinja_env.globals.update(seat_night=follow.seat_night)


#: The longest round clock, in minutes.
MAX_CLOCK = 240


@bp.post("/e/<event>/clock")
def clock(event: str) -> Response | BaseResponse:
    """Set the current round's clock to end so many minutes from now (0: no clock)."""
    stored, _editable = event_or_404(event, edit=True)
    typed = str(request.form.get("minutes", ""))

    def set_clock(loaded: rounds.Loaded) -> documents.Document:
        minutes = values.whole(typed, lambda: _("The round clock's minutes"), 0, MAX_CLOCK)
        if loaded.current is None or loaded.current.finished:
            raise rounds.Busy(_("No round is being played: "
                                "the clock is set for a round under way."))
        ends = datetime.now(UTC) + timedelta(minutes=minutes)
        found = ({"round": loaded.current.number, "ends": ends.isoformat(timespec="seconds")}
                 if minutes else None)
        return dict(loaded.doc, clock=found)

    return _save(stored, set_clock, _("The round clock is set."))


def round_clock(loaded: rounds.Loaded) -> datetime | None:
    """When the current round's clock ends, if the director set one."""
    found = loaded.doc.get("clock")
    current = loaded.current
    if not found or current is None or found["round"] != current.number or current.finished:
        return None
    return datetime.fromisoformat(found["ends"])


@bp.post("/e/<event>/players")
def players(event: str) -> Response | BaseResponse:
    """Someone arrives (or comes back), withdraws, takes a bye in a round to come, or plays it after
    all."""
    stored, _editable = event_or_404(event, edit=True)
    action = str(request.form.get("action", ""))
    if action not in ("arrive", "withdraw", "bye", "play"):
        return event_page(stored, True,
                          _("Choose what changes: someone arrives, withdraws or takes a bye."), 422)
    change: dict[str, Any] = {action: str(request.form.get("name", ""))}
    if action in ("bye", "play"):
        change["round"] = str(request.form.get("round", ""))

    def changed(loaded: rounds.Loaded) -> documents.Document:
        if "round" in change:
            change["round"] = values.whole(change["round"], lambda: _("The round"), 1,
                                           loaded.doc["rounds"])
        return documents.change_players(loaded.doc, change)

    name = change[action].strip()
    back = action == "arrive" and any(
        documents.key(p["name"]) == documents.key(name) and p["last"] is not None
        for p in stored.document["players"])
    done = {"arrive": _("%(name)s plays again from the next round.", name=name) if back
            else _("%(name)s plays from the next round.", name=name),
            "withdraw": _("%(name)s has withdrawn.", name=name),
            "bye": _("%(name)s has a bye in round %(round)s.", name=name,
                     round=change.get("round", "")),
            "play": _("%(name)s plays round %(round)s after all.", name=name,
                      round=change.get("round", ""))}[action]
    return _save(stored, changed, done)


@bp.post("/e/<event>/plan")
def plan(event: str) -> Response | BaseResponse:
    """Another number of planned rounds, another seating for the rounds to come."""
    stored, _editable = event_or_404(event, edit=True)
    typed, seating = str(request.form.get("rounds", "")), str(request.form.get("seating", ""))

    def changed(loaded: rounds.Loaded) -> documents.Document:
        change: dict[str, Any] = {"rounds": values.whole(typed, lambda: _("The number of rounds"),
                                                         1, documents.MAX_ROUNDS)}
        if seating != loaded.doc["seating"]:
            change["seating"] = seating
        return documents.change_plan(loaded.doc, change)

    return _save(stored, changed, _("The rounds to come are planned again."))


@bp.post("/e/<event>/swap")
def swap(event: str) -> Response | BaseResponse:
    """Exchange two players' seats in the proposed seating of the next round."""
    stored, _editable = event_or_404(event, edit=True)
    one, other = str(request.form.get("one", "")), str(request.form.get("other", ""))
    return _save(stored, lambda loaded: rounds.swapped(loaded, one, other),
                 _("%(one)s and %(other)s have changed seats.", one=one.strip(),
                   other=other.strip()))


def games_to_start() -> int:
    """How many games starting the next round of this request's event makes, its tables: what the
    limit on new games counts (EVENTS.md, "Limits"). Worked out once, before the request, without
    seating anyone (the limit asks again once the round is started); 1 for a request the start
    refuses anyway (it is not counted then)."""
    if "games_to_start" not in g:
        g.games_to_start = _tables_to_start()
    found: int = g.games_to_start
    return found


def _tables_to_start() -> int:
    stored, editable = find_event(str((request.view_args or {}).get("event", "")))
    if stored is None or not editable:
        return 1
    body = request.get_json(silent=True) if request.is_json else None
    if isinstance(body, dict) and isinstance(body.get("tables"), list):
        return max(1, min(len(body["tables"]), documents.MAX_TABLES))
    try:
        coming = lineups(documents.core_event(stored.document))
    except RulesError:
        return 1
    return len(coming[0].split) if coming else 1


@bp.post("/e/<event>/start")
def start(event: str) -> Response | BaseResponse:
    """Start the next round as proposed: one game per table."""
    stored, _editable = event_or_404(event, edit=True)
    return _save(stored, lambda loaded: rounds.start(loaded, None),
                 _("Round %(round)s has started: every table's game is ready.",
                   round=len(stored.document["played"]) + 1))


@bp.post("/e/<event>/tables/<int:number>/end")
def end_table(event: str, number: int) -> Response | BaseResponse:
    """End a table's game of the current round early, whatever its state (the round's time is up):
    a deal under way is dropped, and the game counts as it stands after its last finished deal, its
    players tied when it has none (EVENTS.md, "Ending a table early"). The game and the night are
    written in one transaction."""
    stored, _editable = event_or_404(event, edit=True)
    loaded = rounds.load(stored, True)
    current = loaded.current
    table = (current.tables[number - 1]
             if current is not None and 1 <= number <= len(current.tables) else None)
    if table is None or table.game is None:
        return event_page(stored, True,
                          _("The current round has no table %(table)s.", table=number), 404)
    if table.finished:
        return event_page(stored, True, _("Table %(table)s has finished already.", table=number),
                          409)
    staged = changes.stage(table.game, edits.end_as_it_stands)
    if isinstance(staged, changes.Refused):
        return event_page(stored, True, staged.reason, staged.status)
    if isinstance(staged, changes.Stale):
        return event_page(stored, True, _(STALE), 409)
    played = [*stored.document["played"]]
    tables = [dict(t) for t in played[-1]["tables"]]
    tables[number - 1]["ended_early"] = True
    played[-1] = dict(played[-1], tables=tables)
    # The game's change is rolled back with it
    if not stored.save(dict(stored.document, played=played)):
        return event_page(event_or_404(stored.token, edit=True)[0], True, _(STALE), 409)
    changes.keep(staged)
    flash(_("Table %(table)s's game has ended: it counts as it stands.", table=number), "done")
    return redirect(url_for("events.event", event=stored.token))

