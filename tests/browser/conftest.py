"""Real Chromium against the real app: one server per session on 127.0.0.1 and a free port.

The tests are skipped only when /usr/bin/chromium is missing and CI is not set; in CI they must run.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator

import pytest
from flask_migrate import upgrade
from phone import PHONE, console_errors
from playwright.sync_api import Browser, Page, sync_playwright
from werkzeug.serving import make_server

from scorekeeper import create_app

collect_ignore = ["conftest.py"]  # no doctests here; see tests/conftest.py

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run",
        "--disable-component-update", "--disable-sync", "--disable-quic"]


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app on a throw-away, migrated SQLite database, served from a background thread."""
    database = tmp_path_factory.mktemp("browser") / "browser.sqlite"
    app = create_app({"SECRET_KEY": "browser", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}"})
    with app.app_context():
        upgrade()
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()
    thread.join(5)


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
    """A phone (390 × 844) with its own cookies; any console error (a CSP refusal too) fails the test."""
    context = browser.new_context(viewport=PHONE, base_url=server)
    phone = context.new_page()
    errors = console_errors(phone)
    yield phone
    context.close()
    unexpected = [e for e in errors if "status of 4" not in e]  # refused forms answer 4xx on purpose
    assert not unexpected, unexpected


@pytest.fixture
def plain(browser: Browser, server: str) -> Iterator[Page]:
    """A phone with JavaScript turned off."""
    context = browser.new_context(viewport=PHONE, base_url=server, java_script_enabled=False)
    yield context.new_page()
    context.close()
