"""Following a game without asking again and again (SEATS.md, "Live"; docs/architecture.md,
"Following a game"): a phone asks for a game's state with the version it shows and ``wait``, and
when nothing changed the request is held until the game changes, or for ``LIVE_WAIT`` seconds,
then answered. Only a server that answers requests in threads holds one (gunicorn's ``gthread``
workers, the development server): a sync worker held would be a worker lost to the tables' taps,
so there the phone is answered at once and asks again a few seconds later, as it always did.

One watcher per process looks, every ``LOOK`` seconds while anybody waits, at the versions of the
games waited for: one indexed read for all of them, whatever the number of phones. It wakes the
requests whose game changed (or was deleted), and each reads its game again (one indexed read)
and answers. A held request holds no database connection. The watcher reads the database every
server shares, so a change stored by any app server wakes the phones of every other.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, current_app, jsonify, request
from sqlalchemy import select

from ..rules import values
from ..store.db import db, release
from ..store.games import Game, StoredGame
from .site import no_store

#: Seconds between the watcher's looks at the versions of the games waited for.
LOOK = 0.25
#: How many games one look reads at most in one statement.
CHUNK = 500
#: Milliseconds a phone lets pass before it asks again, its question not held (view.js's EVERY).
EVERY_MS = 3000


class Watcher:
    """The requests of one process waiting for their games to change, and the thread that wakes
    them."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.lock = threading.Lock()
        #: By game: the version each waiting request knows, and what wakes it.
        self.waiting: dict[int, list[tuple[int, threading.Event]]] = {}
        self.thread: threading.Thread | None = None

    def wait(self, game: int, version: int, seconds: float) -> None:
        """Until the game's stored version is no longer ``version``, or ``seconds`` passed."""
        entry = (version, threading.Event())
        with self.lock:
            self.waiting.setdefault(game, []).append(entry)
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._watch, name="live watcher",
                                               daemon=True)
                self.thread.start()
        try:
            entry[1].wait(seconds)
        finally:
            with self.lock:
                entries = self.waiting.get(game, [])
                if entry in entries:
                    entries.remove(entry)
                if not entries:
                    self.waiting.pop(game, None)

    def _watch(self) -> None:
        """Look while anybody waits; end when nobody has for a while (a new wait starts it
        again)."""
        idle = 0.0
        while idle < 60:
            time.sleep(LOOK)
            with self.lock:
                games = list(self.waiting)
            if not games:
                idle += LOOK
                continue
            idle = 0.0
            current: dict[int, int] = {}
            with self.app.app_context():
                try:
                    for at in range(0, len(games), CHUNK):
                        rows = db.session.execute(select(Game.id, Game.version).where(
                            Game.id.in_(games[at:at + CHUNK])))
                        current.update((game, version) for game, version in rows)
                except Exception:  # the database away for a moment: looked at again next time
                    self.app.logger.exception("The live watcher could not read the games")
                    continue
                finally:
                    db.session.remove()
            with self.lock:
                for game, entries in self.waiting.items():
                    for version, woken in entries:
                        if current.get(game) != version:
                            woken.set()


def can_hold() -> bool:
    """Whether this request may be held: the server answers others meanwhile, in threads, and
    ``LIVE_WAIT`` is not 0."""
    return bool(request.environ.get("wsgi.multithread")) and current_app.config["LIVE_WAIT"] > 0


def wait_for_change(game: int, version: int) -> None:
    """Hold this request until the game's version is no longer ``version``, or ``LIVE_WAIT``
    seconds passed; the request's database session is closed first (nothing held meanwhile)."""
    release()
    watcher: Watcher = current_app.extensions["scorekeeper.live"]
    watcher.wait(game, version, current_app.config["LIVE_WAIT"])


def state(found: StoredGame, read_again: Callable[[], StoredGame],
          changed: Callable[[StoredGame], dict[str, Any]]) -> Response:
    """The answer to a phone following a game (``?v=`` the version it shows, ``wait`` to be held):
    the version alone when nothing changed, else with ``changed(game)`` (the part of the page to
    swap in); ``again``: the milliseconds to let pass before asking again. Held (``can_hold``)
    until the game changes, the game is read again (``read_again``)."""
    holds = bool(request.args.get("wait")) and can_hold()
    again = 0 if holds else EVERY_MS
    # A version is compared as text: never read as a number
    if request.args.get("v") == str(found.version) and holds:
        wait_for_change(found.id, found.version)
        found = read_again()
    if request.args.get("v") == str(found.version):
        return no_store(jsonify(version=found.version, again=again))
    return no_store(jsonify(version=found.version, again=again, **changed(found)))


def init_app(app: Flask) -> None:
    """Read ``LIVE_WAIT`` (seconds a request for a game's state may be held, 0 to 55; 0: never
    held) and make the process's watcher."""
    app.config["LIVE_WAIT"] = values.whole(
        app.config["LIVE_WAIT"], "LIVE_WAIT (seconds a request for news may be held)", 0, 55)
    app.extensions["scorekeeper.live"] = Watcher(app)
