"""The JSON API: the game file in, the export out (GAME-FILE.md)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from .models import StoredGame, commit, find_game
from .rules.errors import RulesError
from .rules.gamefile import export, parse
from .web import csrf, game_links, read_json

bp = Blueprint("api", __name__, url_prefix="/api")
csrf.exempt(bp)  # JSON only: a cross-site form can't send application/json without CORS


def _error(message: str, status: int) -> tuple[Response, int]:
    return jsonify(error=message), status


@bp.errorhandler(HTTPException)
def http_error(exc: HTTPException) -> tuple[Response, int]:
    """Every API error is JSON with a message, never an HTML page."""
    return _error(exc.description or exc.name, exc.code or 500)


def export_game(game: StoredGame, editable: bool = True) -> dict[str, Any]:
    """The export document of a stored game, with the links its token may see."""
    return export(game.load(), game_links(game, editable))


@bp.post("/games")
def create_game() -> tuple[Response, int]:
    """Store a game file: 201 with the export, or 422 naming what is wrong; nothing stored then."""
    if not request.is_json:
        return _error("send the game file as JSON (Content-Type: application/json)", 415)
    try:
        data = read_json(request.get_data())
    except ValueError as exc:
        return _error(f"the body is not valid JSON: {exc}", 400)
    try:
        checked = parse(data)
    except RulesError as exc:
        return _error(str(exc), 422)
    game = StoredGame.create(checked)
    links = game_links(game)
    response = jsonify(export(checked, links))  # made before the commit: a failure stores nothing
    response.headers["Location"] = links["api"]
    commit()
    return response, 201


@bp.get("/games/<token>")
def get_game(token: str) -> Response | tuple[Response, int]:
    """The export of a game, by its edit or read-only token."""
    game, editable = find_game(token)
    if game is None:
        return _error("no game has this link", 404)
    return jsonify(export_game(game, editable))
