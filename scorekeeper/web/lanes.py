"""The costly lane (docs/hosting.md, "Costly requests"): work that takes a second or more, a
printable sheet drawn, a backup restored, runs in at most ``COSTLY_AT_ONCE`` requests at once on
a server, whichever of its workers takes them, so the other workers stay free for the tables'
taps. One more request may wait its turn, for ``WAIT`` seconds at most; any other is answered at
once: 503 with ``Retry-After`` and a sentence saying so, and nothing it asked for is done. The one
waiting goes next, so a phone that asks again and again can't keep the lane to itself. What a
worker has kept (a sheet already drawn for this version of a game) needs no place in the lane.

The lane's places are lock files (``flock``) beside the SQLite database (in the instance folder
for PostgreSQL): every worker and thread of a server takes its place in the same set, and a
worker that dies lets its place go. App servers on different machines sharing one PostgreSQL
database each have their own lane.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from flask import Flask, current_app, g, has_app_context
from werkzeug.exceptions import ServiceUnavailable

from ..rules import values
from ..rules.words import _

#: Seconds a refused request is asked to wait: about what a sheet takes to draw.
RETRY_AFTER = 5
#: The longest a request waits for a place, and how often it looks, in seconds.
WAIT, POLL = 1.0, 0.02


class LaneFull(ServiceUnavailable):
    """Every place of the costly lane is taken: answered 503, asked to come back in a few
    seconds."""

    def __init__(self) -> None:
        super().__init__(_("The server is busy drawing a sheet or restoring games for someone "
                           "else: nothing was done. Try again in a few seconds; scores can still "
                           "be entered."),
                         retry_after=RETRY_AFTER)


def _folder(app: Flask) -> tuple[Path, str]:
    """Where the lane's lock files are, and what their names start with."""
    database = str(app.config["SQLALCHEMY_DATABASE_URI"])
    if database.startswith("sqlite:///") and database != "sqlite:///:memory:":
        path = Path(database.removeprefix("sqlite:///"))
        return path.parent, f"{path.name}.lane"
    if database in ("sqlite://", "sqlite:///:memory:"):  # a database in this process's memory alone
        database = f"{database} {os.getpid()}"
    return Path(app.instance_path), f"lane-{hashlib.sha256(database.encode()).hexdigest()[:16]}"


def places(app: Flask) -> list[Path]:
    """The lock files of this app's lane: one per request it works on at once."""
    folder, name = _folder(app)
    return [folder / f"{name}-{n}.lock" for n in range(app.config["COSTLY_AT_ONCE"])]


def waiting_place(app: Flask) -> Path:
    """The lock file of the one request waiting for a place."""
    folder, name = _folder(app)
    return folder / f"{name}-next.lock"


def _take(paths: list[Path]) -> BinaryIO | None:
    """One of these lock files, held; None when every one is held already."""
    for path in paths:
        handle = path.open("ab")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            continue
        return handle
    return None


def _release(handle: BinaryIO) -> None:
    fcntl.flock(handle, fcntl.LOCK_UN)
    handle.close()


@contextmanager
def costly() -> Iterator[None]:
    """Do the costly work inside in one of the lane's places, after waiting for one in the lane's
    waiting place if need be; LaneFull when the waiting place is taken too, or the wait is over.
    Outside a request, with no lane (``COSTLY_AT_ONCE`` 0), or in a request that holds a place
    already, the work is simply done."""
    if not has_app_context() or not current_app.config["COSTLY_AT_ONCE"] or g.get("in_lane"):
        yield
        return
    app = current_app
    # every request comes through it: the one waiting goes next
    waiting = _take([waiting_place(app)])
    if waiting is None:
        raise LaneFull()
    try:
        deadline = time.monotonic() + WAIT
        while (held := _take(places(app))) is None:
            if time.monotonic() >= deadline:
                raise LaneFull()
            time.sleep(POLL)
    finally:
        _release(waiting)
    g.in_lane = True
    try:
        yield
    finally:
        g.in_lane = False
        _release(held)


def init_app(app: Flask) -> None:
    """Read ``COSTLY_AT_ONCE`` (0 to 64; 0: no lane)."""
    app.config["COSTLY_AT_ONCE"] = values.whole(app.config["COSTLY_AT_ONCE"],
                                                "COSTLY_AT_ONCE (costly requests at once)", 0, 64)
