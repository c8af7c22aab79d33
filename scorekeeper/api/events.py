"""The JSON API of club nights (EVENTS.md, "API"): a new event, its next round, its players'
changes, and the event with its rounds and standings."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from flask import Blueprint, Response, jsonify, url_for
from werkzeug.exceptions import HTTPException

from ..events import document as documents
from ..events import rounds
from ..rules import values
from ..rules.errors import RulesError
from ..rules.words import N_, _
from ..store.db import commit, rollback
from ..store.events import StoredEvent, find_event
from ..web import language
from ..web.signed import csrf
from ..web.site import game_links, no_store
from .views import error, http_error, json_object

bp = Blueprint("events_api", __name__, url_prefix="/api")
csrf.exempt(bp)  # JSON only, as the games' API
bp.register_error_handler(HTTPException, http_error)

#: The answer of a change that lost the race to another one.
STALE = N_("The event was changed at the same time by another request: look at it again and retry")


def event_links(stored: StoredEvent, editable: bool) -> dict[str, str]:
    """The event's links a token may see: the edit link only with the edit token."""
    links = {"view": url_for("events.event", event=stored.view_token, _external=True)}
    token = stored.view_token
    if editable:
        token = stored.token
        links["edit"] = url_for("events.event", event=token, _external=True)
    links["api"] = url_for("events_api.get_event", event=token, _external=True)
    return links


def document(loaded: rounds.Loaded) -> dict[str, Any]:
    """The event as EVENTS.md gives it: the table games' edit links only with the edit token."""
    doc = loaded.doc
    played = []
    for started in loaded.rounds:
        tables = []
        for table in started.tables:
            entry: dict[str, Any] = {"table": table.number, "players": list(table.players),
                                     "finished": table.finished, "winners": table.winners}
            if table.now.ended_early:
                entry["ended_early"] = True
            deal, planned = table.deal
            entry["deal"], entry["deals"] = deal, planned
            if table.game is not None:
                links = game_links(table.game, loaded.editable)
                entry["links"] = {name: links[name]
                                  for name in ("edit", "view", "api") if name in links}
            tables.append(entry)
        played.append({"round": started.number, "byes": list(started.byes),
                       "finished": started.finished, "tables": tables})
    found: dict[str, Any] = {
        "format": documents.FORMAT, "name": doc["name"], "date": doc["date"],
        "players": [p["name"] for p in doc["players"]], "rules": doc["rules"],
        "rounds": doc["rounds"], "tables": doc["tables"], "seating": doc["seating"],
        "ranking": doc["ranking"], "seed": doc["seed"], "language": doc.get("language"),
        "changes": [{"name": p["name"], "arrives": p["arrives"], "last": p["last"],
                     "away": p.get("away", []), "byes": p["asked"]}
                    for p in doc["players"]
                    if p["arrives"] > 1 or p["last"] is not None or p["asked"] or p.get("away")],
        "played": played, "standings": rounds.standing_lines(loaded),
        "links": event_links(loaded.stored, loaded.editable),
    }
    return found


def _answer(stored: StoredEvent, editable: bool = True) -> Response:
    answer = jsonify(document(rounds.load(stored, editable, rounds.mark(stored))))
    return no_store(answer) if editable else answer


@bp.post("/events")
def create_event() -> tuple[Response, int]:
    """Start an event: 201 with the event, or 422 naming what is wrong; nothing stored then."""
    data, refused = json_object(_("the event (%(example)s)",
                                  example='{"name": "Club night", "players": […], "rounds": 3}'))
    if refused is not None:
        return refused
    assert data is not None
    try:
        doc = documents.new_event(data, date.today(), language.current())
        if data.get("group") is not None:
            doc["group"] = documents.group_id(data["group"])
    except RulesError as exc:
        return error(str(exc), 422)
    stored = StoredEvent.create(doc)
    response = _answer(stored)
    response.headers["Location"] = event_links(stored, True)["api"]
    commit()
    return response, 201


def _change(event: str, what: str,
            make: Callable[[StoredEvent, dict[str, Any]], documents.Document],
            status: int) -> Response | tuple[Response, int]:
    """Read the request's JSON object, make the event's new document from it and save it: the
    event with ``status``; 409 when it can't be done now, 422 naming what is wrong, nothing
    stored."""
    data, refused = json_object(what)
    if refused is not None:
        return refused
    assert data is not None
    stored, editable = find_event(event)
    if stored is None:
        return error(_("no event has this link"), 404)
    if not editable:
        return error(_("this is the read-only link of an event: it can't change it"), 403)
    try:
        doc = make(stored, data)
    except rounds.Busy as exc:
        rollback()
        return error(str(exc), 409)
    except RulesError as exc:
        rollback()
        return error(str(exc), 422)
    if not stored.save(doc):
        return error(_(STALE), 409)
    return _answer(stored), status


def _round(stored: StoredEvent, data: dict[str, Any]) -> documents.Document:
    values.fields(data, ("tables",), lambda: _("The round"))
    return rounds.start(rounds.load(stored, True), data.get("tables"))


@bp.post("/events/<event>/rounds")
def start_round(event: str) -> Response | tuple[Response, int]:
    """Seat and start the next round (``{}``, or ``{"tables": [[…], …]}`` seated by hand): 201."""
    return _change(event, _("the round (%(example)s)", example="{}"), _round, 201)


@bp.post("/events/<event>/players")
def change_players(event: str) -> Response | tuple[Response, int]:
    """Someone arrives, withdraws or asks for a bye: 200 with the event."""
    return _change(event, _("the change (%(example)s)", example='{"arrive": "Eve"}'),
                   lambda stored, data: documents.change_players(stored.document, data), 200)


@bp.post("/events/<event>/plan")
def change_plan(event: str) -> Response | tuple[Response, int]:
    """Another number of planned rounds or another seating for the rounds to come: 200 with the
    event."""
    return _change(event, _("the plan (%(example)s)", example='{"rounds": 5, "seating": "ranked"}'),
                   lambda stored, data: documents.change_plan(stored.document, data), 200)


@bp.get("/events/<event>")
def get_event(event: str) -> Response | tuple[Response, int]:
    """The event, by its edit or read-only link."""
    stored, editable = find_event(event)
    if stored is None:
        return error(_("no event has this link"), 404)
    return _answer(stored, editable)
