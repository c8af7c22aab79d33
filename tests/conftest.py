"""Fixtures shared by the web tests: a throw-away, migrated database for every test, and one app
for them all, its settings restored after each.

With TEST_DATABASE_URL set (CI sets it to a throw-away PostgreSQL server), the web tests run
against that database instead of SQLite: migrated once, emptied after every test. Run in parallel
(pytest -n, pytest-xdist), each worker gets a database of its own on that server.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade
from jinja2 import FileSystemBytecodeCache
from sqlalchemy import create_engine, make_url

from scorekeeper import create_app
from scorekeeper.store.db import db
from scorekeeper.web import lanes

POSTGRES_URL = os.environ.get("TEST_DATABASE_URL", "")
# Every app a test makes (and every server it starts) answers a sheet when drawn, however long a
# busy machine takes (web/lanes.py); the tests of answering within the time set it themselves
os.environ.setdefault("COSTLY_WITHIN", "0")

# No doctests here: without this, --doctest-modules imports this file again as module "conftest",
# which clashes with tests/browser/conftest.py (collected before it, being first in name order).
collect_ignore = ["conftest.py"]


def _own_database(url: str, worker: str) -> str:
    """A new, empty database for this worker next to the one at ``url``: its address."""
    name = f"{make_url(url).database}_{worker}"
    server = create_engine(url, isolation_level="AUTOCOMMIT")
    with server.connect() as connection:
        connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}"')
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    server.dispose()
    return make_url(url).set(database=name).render_as_string(hide_password=False)


def pytest_configure(config: pytest.Config) -> None:
    """A worker of pytest-xdist moves TEST_DATABASE_URL to a database of its own before the tests
    are collected (test modules read it too): workers sharing one would empty each other's
    tables."""
    global POSTGRES_URL
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if POSTGRES_URL and worker:
        POSTGRES_URL = os.environ["TEST_DATABASE_URL"] = _own_database(POSTGRES_URL, worker)


def _config(url: str) -> dict[str, object]:
    # No rate limits: a test makes games faster than any club; tests/web/test_web_rate_limits.py
    # turns them on.
    return {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url,
            "RATELIMIT_ENABLED": False, "COSTLY_WITHIN": "0"}


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A database brought to the newest migration once per test session."""
    if POSTGRES_URL:
        app = create_app(_config(POSTGRES_URL))
        with app.app_context():
            db.drop_all()
            db.session.execute(db.text("DROP TABLE IF EXISTS alembic_version"))
            db.session.commit()
            upgrade()
            db.engine.dispose()
        return POSTGRES_URL
    path = tmp_path_factory.mktemp("template") / "template.sqlite"
    app = create_app(_config(f"sqlite:///{path}"))
    with app.app_context():
        upgrade()
        db.engine.dispose()
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return str(path)


@pytest.fixture(scope="session")
def database_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where each test's SQLite database is, the same path for every test of a session (and
    worker), so that one app serves them all (see ``app``)."""
    return tmp_path_factory.mktemp("database") / "test.sqlite"


@pytest.fixture
def database_url(migrated_database: str, database_path: Path) -> str:
    """A fresh copy of the migrated SQLite database, or the shared PostgreSQL one.

    The copy is a new file: a connection some earlier test left open keeps the old one."""
    if POSTGRES_URL:
        return POSTGRES_URL
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{database_path}{suffix}").unlink(missing_ok=True)
    shutil.copy(migrated_database, database_path)
    return f"sqlite:///{database_path}"


@pytest.fixture(scope="session")
def compiled_templates(tmp_path_factory: pytest.TempPathFactory) -> FileSystemBytecodeCache:
    """Jinja's cache of compiled templates, shared by the apps of a session (and worker): a fresh
    app compiles every template it renders anew, a few tenths of a second for the game page, more
    than most tests take. A template's entry is used only while its source is unchanged."""
    return FileSystemBytecodeCache(str(tmp_path_factory.mktemp("templates")))


@pytest.fixture(scope="session")
def printing_loaded() -> None:
    """WeasyPrint imported and the fonts found, once per session (and worker), before a test times a
    request: the app loads them at its first sheet, which takes seconds then, whichever test asks
    first (with tests run in parallel, any of them)."""
    app = create_app(_config("sqlite://"))
    assert app.test_client().get("/sheets/blank.pdf",
                                 query_string={"players": "4"}).status_code == 200
    with app.app_context():
        db.engine.dispose()


@pytest.fixture(scope="session")
def shared_app(database_path: Path, compiled_templates: FileSystemBytecodeCache,
               printing_loaded: None) -> tuple[Flask, dict[str, object]]:
    """The app of every test of a session (and worker), with its settings as made: creating an app
    compiles the URL builders of every route, 40 ms of CPU, more than many tests take."""
    app = create_app(_config(POSTGRES_URL or f"sqlite:///{database_path}"))
    app.jinja_env.bytecode_cache = compiled_templates
    return app, dict(app.config)


@pytest.fixture
def app(shared_app: tuple[Flask, dict[str, object]], database_url: str) -> Iterator[Flask]:
    """The session's app on this test's fresh database (``database_url``), with the settings it was
    made with: what a test changes in them is undone after it. The rate limits are off, so no
    count is carried over; the worker's caches are kept by each game's version, as in a server."""
    app, settings = shared_app
    assert app.config["SQLALCHEMY_DATABASE_URI"] == database_url
    # the sheets the server keeps go with the database
    shutil.rmtree(lanes.kept_folder(app), ignore_errors=True)
    yield app
    with app.app_context():
        if POSTGRES_URL:
            db.session.execute(db.text("DELETE FROM group_games"))
            db.session.execute(db.text("DELETE FROM groups"))
            db.session.execute(db.text("DELETE FROM games"))
            db.session.execute(db.text("DELETE FROM event_games"))
            db.session.execute(db.text("DELETE FROM events"))
            db.session.commit()
        db.engine.dispose()
    app.config.clear()
    app.config.update(settings)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
