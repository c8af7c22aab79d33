"""What every page shares: CSRF protection, security headers, links to a game, error pages."""

from __future__ import annotations

from flask import Flask, Response, current_app, url_for
from flask_wtf.csrf import CSRFProtect

from .models import Game

csrf = CSRFProtect()

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "SAMEORIGIN",
}

#: The pages of a game, by the name they have in the export's ``links``.
LINKS = {"api": "api.get_game", "edit": "play.game", "view": "play.view", "sheet": "sheets.filled"}


def game_links(game: Game, editable: bool = True) -> dict[str, str]:
    """Absolute links to a game's pages; without the edit token, only the read-only ones."""
    links = {}
    for name, endpoint in LINKS.items():
        if endpoint not in current_app.view_functions or (name == "edit" and not editable):
            continue
        token = game.token if editable and name != "view" else game.view_token
        links[name] = url_for(endpoint, token=token, _external=True)
    return links


def _secure(response: Response) -> Response:
    for header, value in SECURITY_HEADERS.items():
        response.headers.setdefault(header, value)
    return response


def init_app(app: Flask) -> None:
    """Install CSRF protection and the security headers on every response."""
    csrf.init_app(app)
    app.after_request(_secure)
