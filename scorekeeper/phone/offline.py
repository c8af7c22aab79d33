"""The app on the phone: its service worker at the site's root, its web app manifest, its offline
page.

Every static file a phone loads is linked with the first digits of its content's SHA-256
(``/static/css/app.css?v=…``), and the service worker lists each of them with that hash: a changed
byte is a new link and a new worker, so a phone never runs an old file with a new page. The
JavaScript and CSS are served without their comments and spaces (rjsmin, rcssmin): the files in
``static/`` stay as they are written, and a phone loads less.
"""

from __future__ import annotations

import hashlib
import json
import mimetypes
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import rcssmin
import rjsmin
from flask import Blueprint, Flask, current_app, make_response, render_template, request, url_for
from werkzeug.wrappers import Response

from ..rules.words import N_, _
from ..store.cache import LRU
from ..web import language

bp = Blueprint("offline", __name__)

#: Hex digits of a file's SHA-256 in its link and in the worker's list.
HASH = 12
#: Files of the printed sheet: WeasyPrint reads them on the server, a phone never loads them.
PRINT_ONLY = frozenset({"css/sheet.css", "css/sheet-rules.svg"})
#: The phone's bar above the page (light: the app's green; dark: the header's grey) and the
#: background of the installed app's splash screen: the colours of static/css/app.css.
THEME_COLOR = {"light": "#0b6e4f", "dark": "#1e1e1e"}
BACKGROUND = "#f4f4f1"
NAME, SHORT_NAME = N_("Oh Hell scorekeeper"), N_("Scorekeeper")
DESCRIPTION = N_("Keep score for Oh Hell and its cousins at the card table.")
#: The icons of the manifest (static/icons/, drawn by scripts/icons.py): file, sizes, purpose.
ICONS = [("icons/icon.svg", "any", "any"), ("icons/icon-192.png", "192x192", "any"),
         ("icons/icon-512.png", "512x512", "any"),
         ("icons/icon-maskable-512.png", "512x512", "maskable")]

T = TypeVar("T")


def digest(data: bytes) -> str:
    """The short content hash a link and the worker's list carry.

    >>> digest(b"body { }")
    '9e6a49769db8'
    """
    return hashlib.sha256(data).hexdigest()[:HASH]


def minified(name: str, data: bytes) -> bytes:
    r"""A static file as a phone gets it: JavaScript and CSS without comments and spaces.

    >>> minified("js/a.js", b"// why\nconst a = 1;  // one\n")
    b'const a=1;'
    >>> minified("css/a.css", b"/* light */\nbody {\n  color: #000;\n}\n")
    b'body{color:#000}'
    >>> minified("icons/a.svg", b"<svg> </svg>")
    b'<svg> </svg>'
    """
    if name.endswith(".js"):
        return bytes(rjsmin.jsmin(data))
    if name.endswith(".css"):
        return bytes(rcssmin.cssmin(data))
    return data


def served_files(folder: str | Path) -> dict[str, bytes]:
    """Every file a phone may load from the static folder, by its path there, as it is served."""
    root = Path(folder)
    found = {path.relative_to(root).as_posix(): path
             for path in sorted(root.rglob("*")) if path.is_file()}
    return {name: minified(name, path.read_bytes())
            for name, path in found.items() if name not in PRINT_ONLY}


def file_hashes(folder: str | Path) -> dict[str, str]:
    """The hash of every file a phone may load from the static folder, as it is served."""
    return {name: digest(data) for name, data in served_files(folder).items()}


def static_files() -> dict[str, tuple[bytes, str]]:
    """This app's static files as served, with their hashes: read once per worker (at every
    request in debug mode, where the files are being edited)."""
    app = current_app
    assert app.static_folder is not None
    kept: dict[str, tuple[bytes, str]] | None = app.extensions.get("scorekeeper.static")
    if kept is None or app.debug:
        kept = {name: (data, digest(data))
                for name, data in served_files(app.static_folder).items()}
        app.extensions["scorekeeper.static"] = kept
    return kept


def static_hashes() -> dict[str, str]:
    """This app's static files and the hashes of what is served."""
    return {name: found for name, (_, found) in static_files().items()}


def static_file(filename: str) -> Response:
    """A static file, as served; the printed sheet's files as they are written."""
    found = static_files().get(filename)
    if found is None:
        return current_app.send_static_file(filename)
    return _fresh(found[0], mimetypes.guess_type(filename)[0] or "application/octet-stream")


def _hashed(endpoint: str, values: dict[str, Any]) -> None:
    """Give every link to a static file its content hash (``?v=``)."""
    if endpoint == "static" and "v" not in values:
        found = static_files().get(values.get("filename", ""))
        if found:
            values["v"] = found[1]


def _kept(name: str, make: Callable[[], T]) -> T:
    """What ``make`` gives, made once per worker, per address prefix the app is served under and per
    language (every time in debug mode, where templates and files are being edited)."""
    if current_app.debug:
        return make()
    kept: LRU[Any] = current_app.extensions.setdefault("scorekeeper.offline", LRU(16))
    found: T = kept.get((name, request.script_root, language.current()), make)
    return found


def manifest_document() -> dict[str, Any]:
    """The web app manifest: names, the home page as start, standalone, colours and icons."""
    home = url_for("games.index")
    return {
        "id": home, "name": _(NAME), "short_name": _(SHORT_NAME), "lang": language.current(),
        "description": _(DESCRIPTION),
        "start_url": home, "scope": home, "display": "standalone",
        "background_color": BACKGROUND, "theme_color": THEME_COLOR["light"],
        "icons": [{"src": url_for("static", filename=name), "sizes": sizes, "purpose": purpose,
                   "type": "image/svg+xml" if name.endswith(".svg") else "image/png"}
                  for name, sizes, purpose in ICONS],
    }


def _manifest_body() -> bytes:
    return json.dumps(manifest_document(), indent=1).encode()


def _offline_body() -> bytes:
    # Without this visitor's messages: the same page for every phone, as the worker's list hashes
    # it.
    return render_template("offline/page.html", get_flashed_messages=lambda **_: ()).encode()


def precache() -> list[dict[str, str]]:
    """What the worker keeps at install: every static file, the manifest and the offline page,
    each with the hash of its content."""
    files = [{"url": url_for("static", filename=name), "hash": found}
             for name, found in static_hashes().items()]
    return files + [{"url": url_for("offline.manifest"), "hash": digest(_manifest_body())},
                    {"url": url_for("offline.page"), "hash": digest(_offline_body())}]


def _worker_body() -> bytes:
    files = precache()
    pages = [url_for(endpoint, token="0")[:-1] for endpoint in ("play.game", "play.view")]
    return render_template(
        "offline/sw.js", files=files, version=digest(json.dumps(files).encode()),
        home=url_for("games.index"), pages=pages, static=url_for("static", filename="x")[:-1],
        offline=url_for("offline.page"),
    ).encode()


def _fresh(body: bytes, mimetype: str) -> Response:
    """A response asked for again at every use (``no-cache``), answered 304 when unchanged."""
    response = make_response(body)
    response.mimetype = mimetype
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    return response.make_conditional(request)


@bp.get("/sw.js")
def worker() -> Response:
    """The service worker, at the site's root so that it serves every page
    (templates/offline/sw.js)."""
    return _fresh(_kept("worker", _worker_body), "text/javascript")


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest, which makes the app installable."""
    return _fresh(_kept("manifest", _manifest_body), "application/manifest+json")


@bp.get("/offline")
def page() -> Response:
    """The page the worker shows in place of a page it holds no copy of, when there is no
    connection."""
    return _fresh(_kept("page", _offline_body), "text/html")


@bp.record_once
def _install(state: Any) -> None:
    """Hash every link to a static file, and give the templates the theme colours."""
    app: Flask = state.app
    app.url_defaults(_hashed)
    app.view_functions["static"] = static_file
    app.jinja_env.globals.update(theme_color=THEME_COLOR)
