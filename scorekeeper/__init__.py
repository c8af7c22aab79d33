"""scorekeeper: keep score for Oh Hell at the table; the app factory."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from .rules.values import whole

ROOT = Path(__file__).resolve().parent.parent


def database_url(url: str) -> str:
    """Normalise a DATABASE_URL: ``postgres://`` is PostgreSQL through psycopg 3.

    >>> database_url("postgres://u:p@localhost/db")
    'postgresql+psycopg://u:p@localhost/db'
    """
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def _secret_key(instance: Path) -> str:
    """The SECRET_KEY kept in instance/secret_key, generated on the first run."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: defaults, then instance/config.py (or the test mapping), then blueprints."""
    app = Flask(
        __name__,
        instance_path=str(ROOT / "instance"),
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=database_url(
            os.environ.get("DATABASE_URL", f"sqlite:///{instance / 'scorekeeper.sqlite'}")
        ),
        WTF_CSRF_TIME_LIMIT=None,
        SQLITE_SYNCHRONOUS=os.environ.get("SQLITE_SYNCHRONOUS", "NORMAL"),
        MAX_CONTENT_LENGTH=1024 * 1024,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 365,
        # The device's list of games is re-sent only when it changes, not with every page.
        SESSION_REFRESH_EACH_REQUEST=False,
        # The address the share page's links and QR codes use, e.g. http://192.168.1.20:5000
        # (empty: the one the page was opened at, or this computer's network address for localhost).
        PUBLIC_URL=os.environ.get("PUBLIC_URL", ""),
        # How many reverse proxies (Caddy, nginx) stand in front of the app: their
        # X-Forwarded-Proto, -Host and -For headers are then believed, so links say https. 0: none
        # is believed.
        PROXY_HOPS=os.environ.get("PROXY_HOPS", "0"),
        # Rate limits per client address on new games, imports, groups and sheets (ratelimits.py),
        # counted in this worker's memory, or in Redis or memcached shared by every worker and
        # server (redis://host:6379, memcached://host:11211).
        RATELIMIT_ENABLED=os.environ.get("RATELIMIT_ENABLED", "yes"),
        RATELIMIT_STORAGE_URI=os.environ.get("RATELIMIT_STORAGE_URI", "memory://"),
        # How many costly requests (a sheet drawn, a backup restored, a large group counted) a
        # server works on at once, whatever its workers (web/lanes.py); the others are answered 503
        # at once.
        COSTLY_AT_ONCE=os.environ.get("COSTLY_AT_ONCE", "1"),
        # Seconds within which a sheet is answered: drawn, or 503 with a page that opens it once it
        # is (web/lanes.py); 0: when drawn, however long that takes.
        COSTLY_WITHIN=os.environ.get("COSTLY_WITHIN", "1.0"),
        # Seconds a phone's request for news of a game may be held until the game changes, on a
        # server answering in threads (web/live.py); 0: answered at once, the phone asks again.
        LIVE_WAIT=os.environ.get("LIVE_WAIT", "25"),
        # Days after which `flask remove-unplayed` removes a game nobody entered a deal in and
        # nobody changed (retention.py); 0: never.
        REMOVE_UNPLAYED_AFTER_DAYS=os.environ.get("REMOVE_UNPLAYED_AFTER_DAYS", "0"),
        # Signs the phones' cookies and form tokens; empty: the one kept in instance/secret_key.
        # Several app servers sharing the load are given the same one.
        SECRET_KEY=os.environ.get("SECRET_KEY", ""),
        # The catalogs of every language but English (translations/<code>/LC_MESSAGES).
        BABEL_TRANSLATION_DIRECTORIES=str(ROOT / "translations"),
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance)
    hops = whole(app.config["PROXY_HOPS"], "PROXY_HOPS (the reverse proxies in front of the app)",
                 0, 5)
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)  # type: ignore[method-assign]

    # The layers, from the bottom (docs/architecture.md): each package imports only those below it.
    from .api import events as events_api
    from .api import views as api
    from .events import printed as _night_sheets  # noqa: F401  (the night's PDFs, on events.bp)
    from .events import views as events
    from .games import retention
    from .games import views as games
    from .groups import files as group_files
    from .groups import views as groups
    from .phone import jswords, offline
    from .play import seat
    from .play import views as play
    from .sheets import views as sheets
    from .store.db import db, init_db, migrate
    from .table import plan
    from .table import views as table
    from .web import address, lanes, language, live, logs, ratelimits, site

    # Flask's error log, and the development server's (flask run)
    logs.install(app.logger.name, "werkzeug")
    init_db(app)
    migrate.init_app(app, db, directory=str(ROOT / "migrations"))
    site.init_app(app)
    lanes.init_app(app)
    live.init_app(app)
    language.init_app(app)
    jswords.init_app(app)
    address.init_app(app)
    play.init_app(app)
    sheets.init_app(app)
    groups.init_app(app)
    events.init_app(app)
    for blueprint in (api.bp, events_api.bp, events.bp, games.bp, play.bp, seat.bp, plan.bp,
                      sheets.bp, table.bp, offline.bp, groups.bp, group_files.bp):
        app.register_blueprint(blueprint)
    ratelimits.init_app(app, costs={"events.start": events.games_to_start,
                                    "events_api.start_round": events.games_to_start})
    retention.init_app(app)
    return app
