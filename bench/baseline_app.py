"""The baselines the app is measured against: a hello world and one read + one commit of one row.

Served by gunicorn like the app, on the same SQLite settings (WAL, busy timeout).
"""

from __future__ import annotations

import os
from typing import Any

from flask import Flask
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import Engine, event
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """Declarative base."""


db = SQLAlchemy(model_class=Base)


class Counter(db.Model):  # type: ignore[name-defined]
    """One row, read and written on every request."""

    id: Mapped[int] = mapped_column(primary_key=True)
    value: Mapped[int] = mapped_column(default=0)


@event.listens_for(Engine, "connect")
def _pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute(f"PRAGMA synchronous={os.environ.get('SQLITE_SYNCHRONOUS', 'NORMAL')}")
    cursor.close()


def create_app() -> Flask:
    """The baseline app."""
    app = Flask(__name__)
    app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["BASELINE_DATABASE_URL"]
    db.init_app(app)

    @app.get("/hello")
    def hello() -> str:
        return "Hello, World!"

    @app.post("/commit")
    def commit() -> str:
        row = db.session.get(Counter, 1)
        assert row is not None
        row.value = value = row.value + 1
        db.session.commit()
        return str(value)  # not row.value: the commit expired it, and reading it would SELECT again

    return app


def prepare() -> None:
    """Create the table and its one row (run once, before the workers start)."""
    app = create_app()
    with app.app_context():
        db.create_all()
        if db.session.get(Counter, 1) is None:
            db.session.add(Counter(id=1))
            db.session.commit()
