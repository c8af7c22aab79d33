"""What every page shares: CSRF protection, security headers, the look-up of a game's, a group's or
a club night's link (404 when it leads nowhere), links to a game, error pages."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

import orjson
from flask import Flask, Response, abort, current_app, jsonify, render_template, request, url_for
from flask.json.provider import DefaultJSONProvider
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, MethodNotAllowed, ServiceUnavailable
from werkzeug.routing import BaseConverter

from ..rules import characters, values
from ..rules.gamefile import GameFileError
from ..rules.words import N_, _
from ..store.cache import LRU
from ..store.events import StoredEvent, find_event
from ..store.games import StoredGame, find_game
from ..store.groups import StoredGroup, find_group
from ..store.links import join_token, seat_token
from .signed import SessionInterface, csrf

T = TypeVar("T")

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
#: Stands for the token while a link is built once per address the app is reached at.
_MARK = "0token0"
#: The parts of a request an absolute link is built from: scheme, host and the app's own prefix.
_ADDRESS = ("wsgi.url_scheme", "HTTP_HOST", "SERVER_NAME", "SERVER_PORT", "SCRIPT_NAME")


def _parts() -> dict[str, tuple[str, str]]:
    """Each game page's absolute link, before and after the token, as ``url_for`` builds it here."""

    def build() -> dict[str, tuple[str, str]]:
        parts = {}
        for name, endpoint in LINKS.items():
            if endpoint in current_app.view_functions:
                before, _mark, after = (url_for(endpoint, token=_MARK, _external=True)
                                        .rpartition(_MARK))
                parts[name] = (before, after)
        return parts

    # By the address the app is reached at: what of the request ``url_for`` builds a link from.
    environ = request.environ
    address = tuple(environ.get(name) for name in _ADDRESS)
    kept: LRU[dict[str, tuple[str, str]]] = current_app.extensions.setdefault(
        "scorekeeper.links", LRU(16))
    return kept.get(address, build)


def game_links(game: StoredGame, editable: bool = True) -> dict[str, str]:
    """Absolute links to a game's pages; without the edit token, only the read-only ones.

    A token is URL-safe (``new_token``), so it goes into the link as it is: the links are the ones
    ``url_for`` would build, without building each of them for every game.
    """
    links = {}
    for name, (before, after) in _parts().items():
        if name == "edit" and not editable:
            continue
        token = game.token if editable and name != "view" else game.view_token
        links[name] = before + token + after
    return links


def join_link(game: StoredGame) -> str:
    """The game's join link (SEATS.md): where each player at the table takes their seat. Only the
    edit link's answers hold it (the table cards, the director's page, the share page)."""
    return url_for("seat.join", token=join_token(game), _external=True)


def table_links(game: StoredGame) -> dict[str, Any]:
    """The game's join link and its seat links, in seat order (SEATS.md): only the edit link's
    answers hold them."""
    if "seat.page" not in current_app.view_functions:
        return {}
    players = len(game.document["players"])
    return {"join": join_link(game),
            "seats": [url_for("seat.page", token=seat_token(game, seat), _external=True)
                      for seat in range(players)]}


def _by_link(found: tuple[T | None, bool], edit: bool, missing: Callable[[], NoReturn],
             read_only: str) -> tuple[T, bool]:
    """What a link found and whether it may change it: ``missing()`` (404) when it found nothing,
    403 with ``read_only`` when a read-only link is used to change it."""
    thing, editable = found
    if thing is None:
        missing()
    if edit and not editable:
        abort(403, read_only)
    return thing, editable


def game_or_404(token: str, *, edit: bool) -> StoredGame:
    """The game of a link; 404 when there is none, 403 when a read-only link is used to change
    it."""
    return _by_link(find_game(token), edit, no_game, _(
        "This is the read-only link of a game: it can show the game but not change it."))[0]


def no_game() -> NoReturn:
    """The 404 page of a link that leads to no game."""
    abort(404, _("No game has this link: it may have been deleted, or the link is incomplete."))


def no_group() -> NoReturn:
    """The 404 of a link that leads to no group."""
    abort(404, _("No group has this link: it may have been deleted, or the link is incomplete."))


def no_event() -> NoReturn:
    """The 404 of a link that leads to no club night."""
    abort(404, _("No event has this link: check that the whole link was opened."))


def group_or_404(token: str, *, edit: bool) -> tuple[StoredGroup, bool]:
    """The group of a link, and whether it may edit; 404 when none, 403 when a read-only link is
    used to change it."""
    return _by_link(find_group(token), edit, no_group, _(
        "This is the read-only link of a group: it can show the group but not change it."))


def event_or_404(token: str, *, edit: bool) -> tuple[StoredEvent, bool]:
    """The club night of a link, and whether the link is its director's; 404 when there is none,
    403 when a room screen's link is used to change it."""
    return _by_link(find_event(token), edit, no_event, _(
        "This is the read-only link of an event: it shows the event but can't change it."))


#: Deeper than any game file or backup: deeper JSON is refused before anything recurses through it.
MAX_DEPTH = 20


_CONTAINERS = frozenset({dict, list})


def _depth(value: object, limit: int) -> bool:
    """Whether decoded JSON is nested no deeper than ``limit`` levels (level by level, no
    recursion).

    >>> _depth([1, {"a": [2]}], 3), _depth([1, {"a": [2]}], 2), _depth(7, 0)
    (True, False, True)
    """
    level = [value] if type(value) in _CONTAINERS else []
    for _level in range(limit):
        if not level:
            return True
        inner: list[object] = []
        for item in level:
            for child in item.values() if type(item) is dict else item:
                if type(child) in _CONTAINERS:
                    inner.append(child)
        level = inner
    return not level


def read_json(raw: str | bytes) -> object:
    """Decoded JSON; a ValueError says why it isn't usable (not JSON, nested too deep, not text).

    >>> read_json('{"a": [1]}')
    {'a': [1]}
    >>> read_json('["\\ud800"]')
    Traceback (most recent call last):
    ...
    ValueError: it holds an unpaired surrogate such as \\ud800, which is not text
    """
    too_deep = _("it is nested more than %(levels)s levels deep", levels=MAX_DEPTH)
    try:  # orjson refuses all the below (and NaN, which json takes); json then says which it is
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        pass
    else:
        if not _depth(data, MAX_DEPTH):
            raise ValueError(too_deep)
        return data
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        # The problem is Python's own words (English): only the frame is translated.
        raise ValueError(_("%(problem)s (line %(line)s)", problem=exc.msg,
                           line=exc.lineno)) from None
    except UnicodeDecodeError:
        raise ValueError(_("it is not UTF-8 text")) from None
    except ValueError:  # Python reads no whole number of more than 4300 digits
        raise ValueError(_("it holds a number of more than %(digits)s digits",
                           digits=4300)) from None
    except RecursionError:
        raise ValueError(too_deep) from None
    if not _depth(data, MAX_DEPTH):
        raise ValueError(too_deep)
    try:
        json.dumps(data, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        raise ValueError(_("it holds an unpaired surrogate such as %(example)s, which is not text",
                           example="\\ud800")) from None
    return data


def endpoint_url(endpoint: str, **values: str) -> str | None:
    """A link to a page another blueprint may not provide (yet): None when it doesn't."""
    return url_for(endpoint, **values) if endpoint in current_app.view_functions else None


ERROR_TITLES = {400: N_("That request wasn't understood"), 403: N_("Not with this link"),
                404: N_("Not found"), 405: N_("Not like that"), 413: N_("That file is too large"),
                503: N_("Busy right now")}
#: What an error says when nothing more particular was given: Werkzeug's own sentences (and
#: names, for a code without a title of ours), in the page's language.
ERROR_MESSAGES = {
    400: N_("The browser (or proxy) sent a request that this server could not understand."),
    403: N_("You don't have the permission to access the requested resource. "
            "It is either read-protected or not readable by the server."),
    404: N_("The requested URL was not found on the server. "
            "If you entered the URL manually please check your spelling and try again."),
    405: N_("The method is not allowed for the requested URL."),
    415: N_("The server does not support the media type transmitted in the request."),
    429: N_("This user has exceeded an allotted request count. Try again later."),
    500: N_("The server encountered an internal error and was unable to complete your request. "
            "Either the server is overloaded or there is an error in the application."),
}
ERROR_NAMES = {400: N_("Bad Request"), 403: N_("Forbidden"), 404: N_("Not Found"),
               405: N_("Method Not Allowed"), 413: N_("Request Entity Too Large"),
               415: N_("Unsupported Media Type"), 429: N_("Too Many Requests"),
               500: N_("Internal Server Error")}
CSRF_MESSAGE = N_("The form expired or was sent from elsewhere; nothing was changed — "
                  "reload and try again.")


def error_name(exc: HTTPException) -> str:
    """The name of an HTTP error's status (Werkzeug's), in the page's language when it is one of
    ours."""
    code = exc.code or 500
    return _(ERROR_NAMES[code]) if exc.name == ERROR_NAMES.get(code) else exc.name


def error_message(exc: HTTPException) -> str:
    """What an HTTP error says: the sentence it was raised with (already in the page's language),
    else Werkzeug's sentence for its code, else its status's name."""
    default = type(exc).description
    if exc.description is not None and exc.description != default:
        return exc.description
    if default is not None and default == ERROR_MESSAGES.get(exc.code or 500):
        return _(default)
    return exc.description or error_name(exc)


def no_store(response: Response) -> Response:
    """An answer kept by no cache (the browser's, a proxy's): one that holds an edit link, or that
    going back must show as it is now."""
    response.headers["Cache-Control"] = "no-store"
    return response


def _error_page(exc: HTTPException) -> tuple[str | Response, int, dict[str, str]]:
    """Errors as an HTML page (as JSON under /api/), with a sentence saying what happened; a 405
    says in ``Allow`` which methods the address answers, a 503 in ``Retry-After`` when to ask
    again (and a page asked for by a browser asks again by itself then: ``Refresh``)."""
    code = exc.code or 500
    headers = ({"Allow": ", ".join(sorted(exc.valid_methods))}
               if isinstance(exc, MethodNotAllowed) and exc.valid_methods else {})
    if isinstance(exc, ServiceUnavailable) and exc.retry_after is not None:
        headers["Retry-After"] = str(exc.retry_after)
        if request.method in ("GET", "HEAD") and not request.path.startswith("/api/"):
            # the page (a sheet being drawn) is asked again by the browser itself then
            headers["Refresh"] = str(exc.retry_after)
    message = _(CSRF_MESSAGE) if isinstance(exc, CSRFError) else error_message(exc)
    if code == 413:
        message = _("The file or form sent is larger than 1 MB; nothing was changed.")
    if request.path.startswith("/api/"):
        return jsonify(error=message), code, headers
    waiting = getattr(exc, "waiting_title", None)  # work going on for this request: no error
    if waiting is not None:
        title = _(waiting)
    elif isinstance(exc, CSRFError):
        title = _("The form expired")
    elif code in ERROR_TITLES:
        title = _(ERROR_TITLES[code])
    else:
        title = error_name(exc)
    return render_template("error.html", code=code, title=title, message=message,
                           waiting=waiting is not None), code, headers


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON, with ``jsonify`` encoded by orjson: the same documents, several times faster.

    Keys keep their order (the game file's own order); what orjson leaves alone (Decimal, dates,
    dataclasses) goes through Flask's own ``default``, as before.
    """

    sort_keys = False
    OPTIONS = (orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
               | orjson.OPT_PASSTHROUGH_DATACLASS)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        """A JSON response, as ``jsonify`` makes it (indented in debug mode)."""
        options = self.OPTIONS | orjson.OPT_APPEND_NEWLINE
        if self.compact is False or (self.compact is None and self._app.debug):
            options |= orjson.OPT_INDENT_2
        body = orjson.dumps(self._prepare_response_obj(args, kwargs), default=self.default,
                            option=options)
        return self._app.response_class(body, mimetype=self.mimetype)


_SECURITY = [(name, value, name.lower()) for name, value in SECURITY_HEADERS.items()]


def _secure(response: Response) -> Response:
    """Every response carries the security headers (those a view set itself are left as set)."""
    present = {name.lower() for name, _ in response.headers}
    response.headers.extend([(name, value) for name, value, low in _SECURITY if low not in present])
    return response


def _unreplayable(exc: GameFileError) -> tuple[str | Response, int]:
    """A stored game the rules no longer replay (stored before a bound it breaks): its pages say
    so, and where its game file can still be downloaded (as stored), corrected and imported."""
    message = _("This game can't be shown: it was stored before a limit it breaks — %(refusal)s. "
                "Its game file can still be downloaded as it was stored, "
                "corrected and imported again.", refusal=exc)
    if request.path.startswith("/api/"):
        return jsonify(error=message), 409
    token = request.view_args.get("token") if request.view_args else None
    links = {} if token is None else {
        "export": endpoint_url("play.export_file", token=token),
        "delete": endpoint_url("games.delete", token=token)}
    return render_template("error.html", code=409, title=_("This game can't be shown"),
                           message=message, links=links), 409


class CountConverter(BaseConverter):
    """A deal number or a list index in a URL: ASCII digits only (Werkzeug's ``int`` also takes
    other scripts' digits, ``/deal/١``), read by ``values.whole``."""

    regex = r"[0-9]{1,6}"

    def to_python(self, value: str) -> int:
        """The number the URL gives."""
        return values.whole(value, _("A number in the address"), 0, 999_999)

    def to_url(self, value: Any) -> str:
        """The number as the URL writes it."""
        return str(value)


def init_app(app: Flask) -> None:
    """Install CSRF protection, the security headers, the error pages, the template helpers every
    page uses, the JSON provider, the session cookie and the URL converter of counts."""
    app.url_map.converters["count"] = CountConverter
    app.json = JSONProvider(app)
    app.session_interface = SessionInterface()
    csrf.init_app(app)
    app.after_request(_secure)
    app.register_error_handler(HTTPException, _error_page)
    app.register_error_handler(GameFileError, _unreplayable)
    app.jinja_env.filters.update(visible=characters.visible)
    app.jinja_env.globals.update(endpoint_url=endpoint_url)
