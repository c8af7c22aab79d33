"""Real Chromium against the real app: one server per session on 127.0.0.1 and a free port.

The tests are skipped only when /usr/bin/chromium is missing and CI is not set; in CI they must run.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

import pytest
from flask_migrate import upgrade
from phone import PHONE, console_errors
from playwright.sync_api import Browser, Page, sync_playwright
from werkzeug.serving import WSGIRequestHandler, make_server

from scorekeeper import create_app

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

collect_ignore = ["conftest.py"]  # no doctests here; see tests/conftest.py

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run",
        "--disable-component-update", "--disable-sync", "--disable-quic"]


class Reachable:
    """The app, or, while ``up`` is false, a server that answers every request with a 503: a phone
    then finds no app, whatever the browser's offline emulation lets through."""

    def __init__(self, app: Any) -> None:
        self.app, self.up = app, True

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if self.up:
            return self.app(environ, start_response)
        start_response("503 Service Unavailable", [("Content-Type", "text/plain")])
        return [b"no network"]


REACHABLE: list[Reachable] = []


class _Handler(WSGIRequestHandler):
    """Werkzeug's request handler, but a phone that hangs up in the middle of an answer (a test's
    end) leaves no file open: werkzeug's cleanup reads the reset socket and raises before it closes
    the answer's body, which is closed here instead."""

    def connection_dropped(self, error: BaseException,
                           environ: WSGIEnvironment | None = None) -> None:
        body = (environ or {}).get("browser.body")
        if body is not None:
            body.close()


class _Body:
    """An answer's body that is closed once, whoever closes it first."""

    def __init__(self, body: Iterable[bytes]) -> None:
        self.body, self.closed = body, False

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.body)

    def close(self) -> None:
        if not self.closed and hasattr(self.body, "close"):
            self.closed = True
            self.body.close()


def _keeping_the_body(app: WSGIApplication) -> WSGIApplication:
    """The app, with each answer's body kept in its request's environ for ``_Handler``."""
    def wrapped(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        environ["browser.body"] = body = _Body(app(environ, start_response))
        return body
    return wrapped


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app on a throw-away, migrated SQLite database, served from a background thread."""
    database = tmp_path_factory.mktemp("browser") / "browser.sqlite"
    # A sheet is answered when drawn, however long the machine takes (COSTLY_WITHIN 0): a test
    # waits for what it asks
    app = create_app({"SECRET_KEY": "browser", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
                      "RATELIMIT_ENABLED": False, "COSTLY_WITHIN": "0"})
    with app.app_context():
        upgrade()
    REACHABLE.append(Reachable(app))
    httpd = make_server("127.0.0.1", 0, _keeping_the_body(REACHABLE[-1]), threaded=True,
                        request_handler=_Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()
    thread.join(5)


@pytest.fixture
def no_server(server: str) -> Iterator[Reachable]:
    """The server, to be taken off the network (``up = False``) within a test; back on after it."""
    yield REACHABLE[-1]
    REACHABLE[-1].up = True


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Headless Chromium; a missing binary skips the tests, except in CI where it fails them."""
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but Chromium is missing at {CHROMIUM}")
        pytest.skip(f"Chromium is not installed at {CHROMIUM}")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
    """A phone (390 × 844) with its own cookies; any console error (a CSP
    refusal too) fails the test."""
    context = browser.new_context(viewport=PHONE, base_url=server)
    phone = context.new_page()
    errors = console_errors(phone)
    yield phone
    context.close()
    # refused forms answer 4xx on purpose
    unexpected = [e for e in errors if "status of 4" not in e]
    assert not unexpected, unexpected


@pytest.fixture
def plain(browser: Browser, server: str) -> Iterator[Page]:
    """A phone with JavaScript turned off."""
    context = browser.new_context(viewport=PHONE, base_url=server, java_script_enabled=False)
    yield context.new_page()
    context.close()
