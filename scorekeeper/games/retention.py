"""Retention, off by default: ``flask remove-unplayed`` removes the games nobody entered a deal in
once nobody has changed them for ``REMOVE_UNPLAYED_AFTER_DAYS`` days. A game with a deal, even
one bid, is never removed. The host runs the command from cron (docs/hosting.md); no request does
this work.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import click
import orjson
from flask import Flask, current_app
from flask.cli import with_appcontext
from sqlalchemy import bindparam, delete, select

from ..rules.values import whole
from ..store.db import commit, connection
from ..store.games import Game

SETTING = "REMOVE_UNPLAYED_AFTER_DAYS"
#: How many games one DELETE names (a statement's parameters are bounded on every database).
BATCH = 500

_games = Game.__table__
#: A stored game file lists its deals as "deals":[...]; one that starts with a deal has played.
_PLAYED = '%"deals":[{%'


def _unplayed(data: str) -> bool:
    """Whether a stored game file holds no deal (one that can't be read is kept: it may have
    some)."""
    try:
        document = orjson.loads(data)
    except orjson.JSONDecodeError:
        return False
    return isinstance(document, dict) and not document.get("deals")


def remove_unplayed(days: int, now: datetime | None = None) -> int:
    """Delete the games with no deal that nobody changed in the last ``days`` days, and commit; how
    many.

    The DELETE checks again that each game is unchanged since then, so a deal entered while the
    games are being read keeps its game.
    """
    before = (now or datetime.now(UTC)) - timedelta(days=days)
    stale = select(_games.c.id, _games.c.data).where(_games.c.updated_at < before,
                                                     _games.c.data.not_like(_PLAYED))
    ids = [row.id for row in connection().execute(stale) if _unplayed(row.data)]
    removed = 0
    for start in range(0, len(ids), BATCH):
        gone = connection().execute(
            delete(_games).where(_games.c.id.in_(bindparam("ids", expanding=True)),
                                 _games.c.updated_at < before),
            {"ids": ids[start:start + BATCH]})
        removed += gone.rowcount
    commit()
    return removed


@click.command("remove-unplayed")
@with_appcontext
def remove_unplayed_command() -> None:
    """Remove the games nobody entered a deal in and nobody changed for REMOVE_UNPLAYED_AFTER_DAYS
    days."""
    days = current_app.config[SETTING]
    if not days:
        click.echo(f"{SETTING} is 0 (off): no game is removed.")
        return
    removed = remove_unplayed(days)
    click.echo(f"{removed} game(s) without a deal and unchanged for {days} days removed.")


def init_app(app: Flask) -> None:
    """Check the setting (a bad one stops the app with its name) and add
    ``flask remove-unplayed``."""
    app.config[SETTING] = whole(app.config[SETTING],
                                f"{SETTING} (days before a game without a deal is removed)",
                                0, 36500)
    app.cli.add_command(remove_unplayed_command)
