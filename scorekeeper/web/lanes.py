"""The costly lane (docs/hosting.md, "Costly requests"): work that takes a second or more, a
printable sheet drawn, a backup restored, runs in at most ``COSTLY_AT_ONCE`` requests at once on
a server, whichever of its workers takes them, so the other workers stay free for the tables'
taps. One more request may wait its turn, for ``WAIT`` seconds at most; any other is answered at
once: 503 with ``Retry-After`` and a sentence saying so, and nothing it asked for is done. The one
waiting goes next, so a phone that asks again and again can't keep the lane to itself.

A sheet (``drawn``) is answered within ``COSTLY_WITHIN`` seconds of its request however busy the
server is: drawn by then, it is sent; not yet, the request is answered 503 with ``Retry-After``
and a page that opens the sheet by itself (``Refresh``), while the drawing goes on beside the
worker's next requests. A sheet drawn is kept, in the worker's memory and in the lane's folder for
every worker of the server, by what it shows (a game's version, an event's state, the asking
words): asking again gets it at once, and needs no place in the lane. A sheet being drawn for one
request is not drawn again for another: that one waits for it, until its own time is up.

The lane's places are lock files (``flock``) beside the SQLite database (in the instance folder
for PostgreSQL): every worker and thread of a server takes its place in the same set, and a
worker that dies lets its place go. App servers on different machines sharing one PostgreSQL
database each have their own lane.
"""

from __future__ import annotations

import fcntl
import hashlib
import logging
import os
import shutil
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import BinaryIO, NoReturn

from flask import Flask, current_app, g, has_app_context, request
from werkzeug.exceptions import ServiceUnavailable

from ..rules import values
from ..rules.words import N_, _
from ..store.cache import LRU
from ..store.db import db

#: Seconds a refused request is asked to wait: about what a sheet takes to draw.
RETRY_AFTER = 5
#: The longest a request waits for a place, and how often it looks, in seconds.
WAIT, POLL = 1.0, 0.02
#: Seconds a request for a sheet still being drawn is asked to wait before asking again.
DRAWN_AFTER = 2
#: How many sheets the lane's folder keeps (the newest), and each worker's memory.
KEEP_ON_DISK, KEEP_IN_MEMORY = 64, 32

#: The addresses of a database in one process's memory: no other worker shares it.
IN_MEMORY = ("sqlite://", "sqlite:///:memory:")

_kept: LRU[bytes] = LRU(KEEP_IN_MEMORY)


class LaneFull(ServiceUnavailable):
    """Every place of the costly lane is taken: answered 503, asked to come back in a few
    seconds."""

    def __init__(self) -> None:
        super().__init__(_("The server is busy drawing a sheet or restoring games for someone "
                           "else: nothing was done. Try again in a few seconds; scores can still "
                           "be entered."),
                         retry_after=RETRY_AFTER)


class StillDrawing(ServiceUnavailable):
    """A sheet not drawn yet when its request's time is up: answered 503; the drawing goes on, and
    asking again in a moment gets the sheet."""

    waiting_title = N_("Drawing your sheet")

    def __init__(self) -> None:
        super().__init__(_("Your sheet is being drawn: it will be ready in a few seconds, and "
                           "this page opens it by itself. If it doesn't, open the sheet again."),
                         retry_after=DRAWN_AFTER)


class StillChecking(ServiceUnavailable):
    """A restore whose checks are not worked out when its request's time is up: answered 503,
    nothing stored; the checks go on, and the same file sent again in a moment is restored at
    once."""

    waiting_title = N_("Checking your file")

    def __init__(self) -> None:
        super().__init__(_("Your file is still being checked: nothing was stored yet. Send it "
                           "again in a few seconds: the check goes on meanwhile, and is not done "
                           "twice."),
                         retry_after=DRAWN_AFTER)


def _folder(app: Flask) -> tuple[Path, str]:
    """Where the lane's lock files are, and what their names start with."""
    database = str(app.config["SQLALCHEMY_DATABASE_URI"])
    if database.startswith("sqlite:///") and database != "sqlite:///:memory:":
        path = Path(database.removeprefix("sqlite:///"))
        return path.parent, f"{path.name}.lane"
    if database in IN_MEMORY:  # a database in this process's memory alone
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


def _place() -> BinaryIO:
    """A place of the lane, held, after waiting for one in the lane's waiting place if need be;
    LaneFull when the waiting place is taken too, or the wait is over (``WAIT`` seconds, and never
    past ``COSTLY_WITHIN`` seconds of the request)."""
    app = current_app
    # every request comes through it: the one waiting goes next
    waiting = _take([waiting_place(app)])
    if waiting is None:
        raise LaneFull()
    try:
        deadline = time.monotonic() + WAIT
        if app.config["COSTLY_WITHIN"]:  # and never past the request's own time
            deadline = min(deadline, g.get("began", deadline) + app.config["COSTLY_WITHIN"])
        while (held := _take(places(app))) is None:
            if time.monotonic() >= deadline:
                raise LaneFull()
            time.sleep(POLL)
    finally:
        _release(waiting)
    return held


@contextmanager
def costly() -> Iterator[None]:
    """Do the costly work inside in one of the lane's places (``_place``). Outside a request, with
    no lane (``COSTLY_AT_ONCE`` 0), or in a request that holds a place already, the work is simply
    done."""
    if not has_app_context() or not current_app.config["COSTLY_AT_ONCE"] or g.get("in_lane"):
        yield
        return
    held = _place()
    g.in_lane = True
    try:
        yield
    finally:
        g.in_lane = False
        _release(held)


@cache
def _made_by(root: str) -> str:
    """What tells this version of the app from another: its code, templates and stylesheets,
    hashed. A sheet drawn by another version is not served by this one."""
    digest = hashlib.sha256()
    base = Path(root).parent
    for part in ("scorekeeper", "templates", "static/css"):
        for path in sorted((base / part).rglob("*")):
            if path.is_file() and path.suffix in (".py", ".html", ".css", ".svg"):
                digest.update(path.relative_to(base).as_posix().encode() + b"\0")
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def kept_folder(app: Flask) -> Path:
    """The folder where the server keeps the sheets this version of the app drew."""
    folder, name = _folder(app)
    return folder / f"{name}-kept-{_made_by(app.root_path)}"


def _kept_path(app: Flask, key: Hashable) -> Path:
    """Where the lane's folder keeps the sheet drawn for ``key`` (a tuple of words and numbers)."""
    return kept_folder(app) / hashlib.sha256(repr(key).encode()).hexdigest()


def _read_kept(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def _keep(path: Path, data: bytes) -> None:
    """Keep a sheet drawn in the lane's folder (whole or not at all), and only the newest
    ``KEEP_ON_DISK`` there; a sheet's lock file goes with it, when nobody holds it."""
    partial = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.part")
    partial.write_bytes(data)
    partial.replace(path)
    kept = []
    for found in path.parent.iterdir():
        if found.suffix not in (".lock", ".part"):
            try:
                kept.append((found.stat().st_mtime, found))
            except OSError:  # removed by another worker meanwhile
                continue
    for _mtime, old in sorted(kept, reverse=True)[KEEP_ON_DISK:]:
        old.unlink(missing_ok=True)
        if (lock := _take([old.with_name(f"{old.name}.lock")])) is not None:
            old.with_name(f"{old.name}.lock").unlink(missing_ok=True)
            _release(lock)


def drawn(key: Hashable, prepare: Callable[[], Callable[[], bytes]],
          late: type[ServiceUnavailable] = StillDrawing) -> bytes:
    """The sheet ``key`` names, kept or drawn: ``prepare()`` reads in this request what the sheet
    shows (the database, the page's HTML) and returns the drawing itself, which reads nothing
    stored (it may run after the request). ``late`` (StillDrawing) when the sheet isn't ready
    within ``COSTLY_WITHIN`` seconds of the request; LaneFull when the lane is. (What a restore's
    checks found is kept as a sheet is: the checks drawn, ``late`` StillChecking.)"""
    found = _kept.find(key)
    if found is not None:
        return found
    if not has_app_context() or not current_app.config["COSTLY_AT_ONCE"]:
        return prepare()()
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    if str(app.config["SQLALCHEMY_DATABASE_URI"]) in IN_MEMORY:
        with costly():  # a database in this process's memory: no other worker to keep it for
            found = prepare()()
        _kept.put(key, found)
        return found
    path = _kept_path(app, key)
    within = app.config["COSTLY_WITHIN"]
    due = g.get("began", time.monotonic()) + within if within else None
    if (found := _read_kept(path)) is None:
        path.parent.mkdir(exist_ok=True)
        drawing = _take([path.with_name(f"{path.name}.lock")])
        if drawing is None:  # another request draws it: wait for it
            found = _wait_for(path, due, late)
        else:
            found = _draw(app, key, path, prepare, drawing, due, late)
    _kept.put(key, found)
    return found


def _wait_for(path: Path, due: float | None, late: type[ServiceUnavailable]) -> bytes:
    """The sheet another request draws, once kept; StillDrawing when ``due`` comes first, or when
    that drawing stopped with nothing kept."""
    while (found := _read_kept(path)) is None:
        if (held := _take([path.with_name(f"{path.name}.lock")])) is not None:
            _release(held)  # that drawing is over: kept just now, or never
            if (found := _read_kept(path)) is not None:
                return found
            raise late()
        if due is not None and time.monotonic() >= due:
            raise late()
        time.sleep(POLL)
    return found


def _draw(app: Flask, key: Hashable, path: Path, prepare: Callable[[], Callable[[], bytes]],
          drawing: BinaryIO, due: float | None, late: type[ServiceUnavailable]) -> bytes:
    """Draw the sheet in a place of the lane, holding ``drawing`` (the sheet's own lock) until it is
    kept; past ``due``, the drawing goes on in a thread of this worker and the request is answered
    StillDrawing."""
    try:
        draw = prepare()
        held = _place()
    except BaseException:
        _release(drawing)
        raise
    if due is None:
        try:
            data = draw()
            _keep(path, data)
            return data
        finally:
            _release(held)
            _release(drawing)
    # The drawing in a process of its own, forked from this worker: it shares no interpreter lock
    # with the worker's next requests (the tables' taps), holds the lane's place and the sheet's
    # lock (their files stay locked while it has them open), and is gone once the sheet is kept.
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child: measured by the tests through what it keeps)
        _drawing_child(path, draw)
    held.close()
    drawing.close()
    ended: list[int] = []
    waiter = threading.Thread(target=lambda: ended.append(os.waitpid(pid, 0)[1]),
                              name="a sheet being drawn", daemon=True)
    waiter.start()
    waiter.join(max(0.0, due - time.monotonic()))
    if not ended:
        raise late()
    if ended[0] != 0 or (found := _read_kept(path)) is None:
        return draw()  # the drawing failed: drawn here, to say why (or drawn after all)
    return found


def _drawing_child(path: Path, draw: Callable[[], bytes]) -> NoReturn:
    """Draw the sheet and keep it, in the forked process, and end it."""
    status = 1
    try:
        # the worker's database connections stay the worker's: any the drawing needed would be new
        db.engine.dispose(close=False)
        request_socket = request.environ.get("gunicorn.socket")
        if request_socket is not None:  # the worker's connection, to be closed by the worker
            os.close(request_socket.fileno())
        _keep(path, draw())
        status = 0
    except BaseException:
        logging.getLogger(__name__).exception("A sheet could not be drawn")
    finally:
        os._exit(status)


def _began() -> None:
    g.began = time.monotonic()


def init_app(app: Flask) -> None:
    """Read ``COSTLY_AT_ONCE`` (0 to 64; 0: no lane) and ``COSTLY_WITHIN`` (seconds, 0 to 60;
    0: a sheet is answered when drawn, however long that takes)."""
    app.config["COSTLY_AT_ONCE"] = values.whole(app.config["COSTLY_AT_ONCE"],
                                                "COSTLY_AT_ONCE (costly requests at once)", 0, 64)
    app.config["COSTLY_WITHIN"] = float(values.decimal(
        app.config["COSTLY_WITHIN"], "COSTLY_WITHIN (seconds within which a sheet is answered)",
        Decimal(0), Decimal(60), 1))
    app.before_request(_began)
    if str(app.config["SQLALCHEMY_DATABASE_URI"]) not in IN_MEMORY:
        ours = kept_folder(app)
        for other in ours.parent.glob(f"{ours.name.rsplit('-', 1)[0]}-*"):
            if other != ours and other.is_dir():  # kept by an earlier version of the app
                shutil.rmtree(other, ignore_errors=True)
