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

A seat's page at a club night follows the night too (SEATS.md, "Club nights": the next round's
seat is offered on it): its version is its game's and its night's (``"<game>.<night>"``), and its
question held is woken by a change of either; the watcher reads the nights' versions the same way,
one indexed read for all of them.
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
from ..store.events import Event, night_version
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
        #: By club night: the same, for the seats' pages that follow their night too.
        self.nights: dict[int, list[tuple[int, threading.Event]]] = {}
        self.thread: threading.Thread | None = None

    def wait(self, game: int, version: int, seconds: float,
             night: tuple[int, int] | None = None) -> None:
        """Until the game's stored version is no longer ``version`` (nor, given ``night``, the
        night's key and version, the night's), or ``seconds`` passed."""
        woken = threading.Event()
        watched = [(self.waiting, game, (version, woken))]
        if night is not None:
            watched.append((self.nights, night[0], (night[1], woken)))
        with self.lock:
            for table, key, entry in watched:
                table.setdefault(key, []).append(entry)
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._watch, name="live watcher",
                                               daemon=True)
                self.thread.start()
        try:
            woken.wait(seconds)
        finally:
            with self.lock:
                for table, key, entry in watched:
                    entries = table.get(key, [])
                    if entry in entries:
                        entries.remove(entry)
                    if not entries:
                        table.pop(key, None)

    def _watch(self) -> None:
        """Look while anybody waits; end when nobody has for a while (a new wait starts it
        again)."""
        idle = 0.0
        while idle < 60:
            time.sleep(LOOK)
            with self.lock:
                games, nights = list(self.waiting), list(self.nights)
            if not games:
                idle += LOOK
                continue
            idle = 0.0
            with self.app.app_context():
                try:
                    current = {Game: _versions(Game, games), Event: _versions(Event, nights)}
                except Exception:  # the database away for a moment: looked at again next time
                    self.app.logger.exception("The live watcher could not read the games")
                    continue
                finally:
                    db.session.remove()
            with self.lock:
                for kind, waiting in ((Game, self.waiting), (Event, self.nights)):
                    for key, entries in waiting.items():
                        for version, woken in entries:
                            if current[kind].get(key) != version:
                                woken.set()


def _versions(kind: type[Game | Event], keys: list[int]) -> dict[int, int]:
    """The stored versions of these games (or club nights), by key: one indexed read each
    ``CHUNK`` of them, none for none."""
    found: dict[int, int] = {}
    for at in range(0, len(keys), CHUNK):
        rows = db.session.execute(select(kind.id, kind.version).where(
            kind.id.in_(keys[at:at + CHUNK])))
        found.update((key, version) for key, version in rows)
    return found


def can_hold() -> bool:
    """Whether this request may be held: the server answers others meanwhile, in threads, and
    ``LIVE_WAIT`` is not 0."""
    return bool(request.environ.get("wsgi.multithread")) and current_app.config["LIVE_WAIT"] > 0


def wait_for_change(game: int, version: int, night: tuple[int, int] | None = None) -> None:
    """Hold this request until the game's version is no longer ``version`` (nor its night's, the
    night's key and version given), or ``LIVE_WAIT`` seconds passed; the request's database
    session is closed first (nothing held meanwhile)."""
    release()
    watcher: Watcher = current_app.extensions["scorekeeper.live"]
    watcher.wait(game, version, current_app.config["LIVE_WAIT"], night)


def version_of(game: StoredGame, night: tuple[int, int] | None) -> int | str:
    """The version a phone following a game shows: the game's, or at a club night, for a page
    that follows its night too, the game's and the night's."""
    return game.version if night is None else f"{game.version}.{night[1]}"


def followed(game: StoredGame) -> int | str:
    """The version of a game and its club night (one more indexed read for a table game), as a
    seat's page shows it (``state`` with ``night``)."""
    return version_of(game, night_version(game))


def state(found: StoredGame, read_again: Callable[[], StoredGame],
          changed: Callable[[StoredGame], dict[str, Any]], *, night: bool = False) -> Response:
    """The answer to a phone following a game (``?v=`` the version it shows, ``wait`` to be held):
    the version alone when nothing changed, else with ``changed(game)`` (the part of the page to
    swap in); ``again``: the milliseconds to let pass before asking again. Held (``can_hold``)
    until the game changes, the game is read again (``read_again``). ``night``: the page follows
    the game's club night too (a seat's: ``followed``)."""
    holds = bool(request.args.get("wait")) and can_hold()
    again = 0 if holds else EVERY_MS
    watched = night_version(found) if night else None
    # A version is compared as text: never read as a number
    if request.args.get("v") == str(version_of(found, watched)) and holds:
        wait_for_change(found.id, found.version, watched)
        found = read_again()
        watched = night_version(found) if night else None
    version = version_of(found, watched)
    if request.args.get("v") == str(version):
        return no_store(jsonify(version=version, again=again))
    return no_store(jsonify(version=version, again=again, **changed(found)))


def init_app(app: Flask) -> None:
    """Read ``LIVE_WAIT`` (seconds a request for a game's state may be held, 0 to 55; 0: never
    held) and make the process's watcher."""
    app.config["LIVE_WAIT"] = values.whole(
        app.config["LIVE_WAIT"], "LIVE_WAIT (seconds a request for news may be held)", 0, 55)
    app.extensions["scorekeeper.live"] = Watcher(app)
