"""Migrations: a database made by the first migration, with games in it, upgrades intact."""

from __future__ import annotations

import json
import os
from pathlib import Path

from flask import Flask
from flask_migrate import downgrade, upgrade

from scorekeeper import create_app
from scorekeeper.store.db import db
from scorekeeper.store.games import Game, find_game

POSTGRES_URL = os.environ.get("TEST_DATABASE_URL", "")

GAMES = [
    {"players": ["Ann", "Bob", "Cy"], "rules": {"max_cards": 3},
     "deals": [{"bids": [1, 1, 0], "tricks": [1, 2, 0]}]},
    {"title": "<b>Friday</b>", "players": ["Dee", "Eve"],
     "rules": {"preset": "oh-pshaw", "max_cards": 2},
     "deals": [{"bids": [0, 1], "tricks": [0, 1]}, {"bids": [1, None]}]},
]


def test_upgrade_from_the_first_migration_keeps_every_game(tmp_path: Path) -> None:
    url = POSTGRES_URL or f"sqlite:///{tmp_path / 'old.sqlite'}"
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        if POSTGRES_URL:
            downgrade(revision="base")
        upgrade(revision="0001")
        for number, doc in enumerate(GAMES):
            db.session.execute(
                db.text(
                    "INSERT INTO games (token, view_token, title, data, version, created_at, "
                    "updated_at) VALUES (:t, :v, :title, :data, 1, CURRENT_TIMESTAMP, "
                    "CURRENT_TIMESTAMP)"
                ),
                {"t": f"edit{number}", "v": f"view{number}", "title": doc.get("title", ""),
                 "data": json.dumps(doc)},
            )
        db.session.commit()
        upgrade()
        tokens = db.session.execute(db.select(Game.token).order_by(Game.token)).scalars().all()
        assert tokens == ["edit0", "edit1"]
    with app.app_context():  # the app's own connection, closed at the end of this context
        games = [find_game(token)[0] for token in tokens]
        assert games[0] is not None and games[1] is not None
        assert [str(t) for t in games[0].load().game.totals] == ["11", "2", "10"]
        assert games[1].load().game.current is not None
    with app.app_context():
        db.session.execute(db.text("DELETE FROM games"))
        db.session.commit()
        db.engine.dispose()


def _pragmas(app: Flask) -> dict[str, object] | None:
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            return None
        with db.engine.connect() as connection:
            return {name: connection.exec_driver_sql(f"PRAGMA {name}").scalar()
                    for name in ("journal_mode", "busy_timeout", "foreign_keys", "synchronous")}


def test_sqlite_connections_use_wal_a_busy_timeout_foreign_keys_and_normal_sync(app: Flask) -> None:
    """WAL with synchronous=NORMAL (1) by default: no disk flush per commit, nothing lost by a crash
    of the app."""
    pragma = _pragmas(app)
    if pragma is not None:
        assert pragma == {"journal_mode": "wal", "busy_timeout": 10000, "foreign_keys": 1,
                          "synchronous": 1}


def test_sqlite_synchronous_full_flushes_every_commit_when_asked(tmp_path: Path) -> None:
    """SQLITE_SYNCHRONOUS=FULL (2): an acknowledged entry survives a power cut too."""
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLITE_SYNCHRONOUS": "FULL",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'full.sqlite'}"})
    assert _pragmas(app) == {"journal_mode": "wal", "busy_timeout": 10000, "foreign_keys": 1,
                             "synchronous": 2}


def test_the_migrations_make_the_tables_the_models_describe(database_url: str) -> None:
    """The database the migrations made (tests/conftest.py: a run of every migration, once per
    session and worker) has the tables the models describe."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": database_url})
    with app.app_context():
        with db.engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), db.metadata)
        db.engine.dispose()
    assert [d for d in differences if "group" in repr(d)] == []
