"""The JSON API: the game file in, the export out (GAME-FILE.md)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from .. import changes
from ..changes import Stale, games, groups
from ..events.rounds import seating_kept
from ..groups import loaded
from ..groups.figures import Figures
from ..play.sealed import refusal as sealed_refusal
from ..play.sealed import sealed_export
from ..rules import values
from ..rules.errors import RulesError
from ..rules.gamefile import export, parse
from ..rules.words import _
from ..store.db import commit
from ..store.events import table_of
from ..store.games import StoredGame, find_game
from ..store.groups import StoredGroup, find_group
from ..web import access
from ..web.access import Act
from ..web.signed import csrf
from ..web.site import error_message, game_links, no_store, read_json, table_links
from . import seats

bp = Blueprint("api", __name__, url_prefix="/api")
csrf.exempt(bp)  # JSON only: a cross-site form can't send application/json without CORS


def error(message: str, status: int) -> tuple[Response, int]:
    """An API error: JSON with the message, and its status."""
    return jsonify(error=message), status


@bp.errorhandler(HTTPException)
def http_error(exc: HTTPException) -> tuple[Response, int]:
    """Every API error is JSON with a message, never an HTML page."""
    return error(error_message(exc), exc.code or 500)


def export_game(game: StoredGame, editable: bool = True) -> dict[str, Any]:
    """The export document of a stored game, with the links its token may see (the edit link's
    hold the join link and every seat's)."""
    return sealed_export(game, edit_links(game) if editable else game_links(game, False))


def edit_links(game: StoredGame) -> dict[str, Any]:
    """The links an edit link's answer holds: every page's, the join link, every seat's."""
    return {**game_links(game), **table_links(game)}


@bp.post("/games")
def create_game() -> tuple[Response, int]:
    """Store a game file: 201 with the export, or 422 naming what is wrong; nothing stored then."""
    if not request.is_json:
        return error(_("send the game file as JSON (Content-Type: %(type)s)",
                       type="application/json"), 415)
    try:
        data = read_json(request.get_data())
    except ValueError as exc:
        return error(_("the body is not valid JSON: %(problem)s", problem=exc), 400)
    try:
        checked = parse(data)
    except RulesError as exc:
        return error(str(exc), 422)
    game = games.create(checked)
    links = edit_links(game)
    # Made before the commit: a failure stores nothing
    response = no_store(jsonify(export(checked, links)))
    response.headers["Location"] = links["api"]
    commit()
    return response, 201


@bp.get("/games/<token>")
def get_game(token: str) -> Response | tuple[Response, int]:
    """The export of a game, by its edit or read-only token."""
    game, editable = find_game(token)
    if game is None:
        return seats.get_seat(token)
    response = jsonify(export_game(game, editable))
    response.headers["ETag"] = f'"{game.version}"'
    return no_store(response) if editable else response


bp.post("/games/<token>/taps")(seats.taps)


@bp.put("/games/<token>")
def replace_game(token: str) -> Response | tuple[Response, int]:
    """Replace a game's input as a whole, over the version its ``If-Match`` names (one of the ETags
    it lists): 200 with the export; 428 without ``If-Match``, 412 when the game changed since (or
    for ``*``, which would skip the check); a refused file changes nothing."""
    game, editable = find_game(token)
    if game is None:
        return seats.refuse(token)
    if not editable:
        return error(_("this is the read-only link of a game: it can't change it"), 403)
    expected, etag = request.headers.get("If-Match"), f'"{game.version}"'
    if expected is None:
        return error(_("send If-Match with the ETag of the game as you read it (GET %(path)s)",
                        path=request.path), 428)
    # Any of those sent; "*" skips no check
    if etag not in (tag.strip() for tag in expected.split(",")):
        return error(_("the game has changed since you read it: "
                       "read it again (its ETag is now %(etag)s)", etag=etag), 412)
    hidden = sealed_refusal(game)
    if hidden is not None:  # a deal's bids are sealed: replaced, they would be read back or lost
        return error(hidden, 409)
    data, refused = json_object(_("the game file"))
    if refused is not None:
        return refused
    assert data is not None
    try:
        checked = game.replay(data)
    except RulesError as exc:
        return error(str(exc), 422)
    before = game.load()
    act = (Act.RULES if (checked.rules_input, checked.title) != (before.rules_input, before.title)
           else Act.RESUME if before.ended and not checked.ended else Act.PLAY)
    refused = access.refusal(game, act)
    if refused is not None:
        return error(refused, 403)
    place = table_of(game)
    refusal = None if place is None else seating_kept(place.players, checked)
    if refusal is not None:
        return error(refusal, 422)
    if isinstance(changes.replace(game, checked), Stale):
        return error(_("the game has changed since you read it: read it again"), 412)
    response = jsonify(export(checked, edit_links(game)))
    response.headers["ETag"] = f'"{game.version}"'
    return no_store(response)


def json_object(what: str) -> tuple[dict[str, Any] | None, tuple[Response, int] | None]:
    """The request's JSON object (``what`` names it in a refusal), or the error answer that refuses
    it (nothing stored)."""
    if not request.is_json:
        return None, error(_("send JSON (Content-Type: %(type)s)", type="application/json"), 415)
    try:
        data = read_json(request.get_data())
    except ValueError as exc:
        return None, error(_("the body is not valid JSON: %(problem)s", problem=exc), 400)
    if not isinstance(data, dict):
        return None, error(_("send %(what)s as a JSON object", what=what), 422)
    return data, None


@bp.post("/groups")
def create_group() -> tuple[Response, int]:
    """Start a group: ``{"name": …}`` → 201 with the group, or 422 naming what is wrong."""
    data, refused = json_object(_("the group (%(example)s)", example='{"name": "Friday club"}'))
    if refused is not None:
        return refused
    assert data is not None
    try:
        values.fields(data, ("name",), _("the group"))
        name = values.group_name(data.get("name"))
    except RulesError as exc:
        return error(str(exc), 422)
    group = StoredGroup.create(name)
    links = loaded.group_links(group, True)
    response = jsonify(loaded.document(loaded.Loaded(group, True, [], Figures())))
    response.headers["Location"] = links["api"]
    commit()
    return response, 201


@bp.post("/groups/<group>/games")
def add_game(group: str) -> Response | tuple[Response, int]:
    """Put a game in a group: ``{"game": "<the game's edit link or token>"}`` → 200 with the
    group."""
    data, refused = json_object(_("the game (%(example)s)",
                                  example=_('{"game": "<its edit link>"}')))
    if refused is not None:
        return refused
    assert data is not None
    found, editable = find_group(group)
    if found is None:
        return error(_("no group has this link"), 404)
    if not editable:
        return error(_("this is the read-only link of a group: it can't add games"), 403)
    try:
        values.fields(data, ("game",), _("the request"))
        token = values.link_token(data.get("game"), _("The game's link"))
    except RulesError as exc:
        return error(str(exc), 422)
    outcome = access.add_to_group(found, token)
    if outcome in ("view", "none", "night", "other", "full"):
        return error(groups.refusal(outcome), groups.STATUS[outcome])
    commit()
    return jsonify(loaded.document(loaded.load(found.token)))


@bp.get("/groups/<group>")
def get_group(group: str) -> Response | tuple[Response, int]:
    """A group with its games and players' figures, by its edit or read-only token."""
    found, _editable = find_group(group)
    if found is None:
        return error(_("no group has this link"), 404)
    return jsonify(loaded.document(loaded.load(group)))
