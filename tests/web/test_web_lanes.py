"""The costly lane (web/lanes.py): a sheet drawn or a backup restored takes one of the server's
``COSTLY_AT_ONCE`` places, whichever worker serves it; with every place taken it is answered at
once, 503 with Retry-After, and does nothing, while the tables' taps go on."""

from __future__ import annotations

import fcntl
import io
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, BinaryIO

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_web_backup import costly, restore
from webhelpers import FOUR, closed, csrf_from, snapshot, text

from scorekeeper import create_app
from scorekeeper.games import backup
from scorekeeper.rules import scoring
from scorekeeper.rules.errors import ValueRefused
from scorekeeper.sheets import pdf
from scorekeeper.web import lanes


@contextmanager
def taken(app: Flask, places: int, waiting: bool = True) -> Iterator[None]:
    """``places`` of the app's lane held, as other workers drawing sheets hold them, and its
    waiting place too (``waiting``), as a request waiting for a place does."""
    with ExitStack() as stack:
        for path in lanes.places(app)[:places] + ([lanes.waiting_place(app)] if waiting else []):
            handle = stack.enter_context(path.open("ab"))
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield


def another_app(database_url: str, **settings: str) -> Flask:
    """Another worker or server of the app on this test's database, with these settings."""
    return create_app({"TESTING": True, "SECRET_KEY": "test", "RATELIMIT_ENABLED": False,
                       "SQLALCHEMY_DATABASE_URI": database_url, **settings})


def held(path: Path) -> bool:
    """Whether someone holds this lock file of the lane: read in the kernel's list of locks, since
    trying it would take the place, for that instant, from whoever reaches for it then."""
    inode = path.stat().st_ino if path.exists() else -1
    return any(line.split()[1] == "FLOCK" and int(line.split()[5].rsplit(":", 1)[1]) == inode
               for line in Path("/proc/locks").read_text().splitlines() if "->" not in line)


def new_game(client: FlaskClient) -> str:
    created = client.post("/api/games", json={"players": FOUR, "rules": {"preset": "oh-hell"}})
    assert created.status_code == 201
    return str(created.get_json()["links"]["edit"]).rsplit("/", 1)[1]


def bid(client: FlaskClient, game: str) -> int:
    page = client.get(f"/g/{game}").get_data(as_text=True)
    version = page.split('name="version" value="')[1].split('"')[0]
    return client.post(f"/g/{game}/bid", data={"csrf_token": csrf_from(page), "version": version,
                                               "deal": "1", "seat": "1", "bid": "0"}).status_code


def upload(client: FlaskClient) -> int:
    page = client.get("/import").get_data(as_text=True)
    backup = {"format": "oh-hell-scorekeeper/backup-1",
              "games": [{"players": ["Ann", "Bob", "Cy"]}]}
    file = (io.BytesIO(json.dumps(backup).encode()), "backup.json")
    return client.post("/import", data={"csrf_token": csrf_from(page), "file": file},
                       content_type="multipart/form-data").status_code


def test_with_every_place_taken_a_sheet_is_answered_at_once_and_the_taps_go_on(
        app: Flask, client: FlaskClient) -> None:
    game = new_game(client)
    with taken(app, 1):
        busy = client.get(f"/g/{game}/sheet.pdf")
        assert busy.status_code == 503 and busy.headers["Retry-After"] == str(lanes.RETRY_AFTER)
        assert "The server is busy drawing a sheet or restoring games for someone else" in text(
            busy.get_data(as_text=True))
        assert bid(client, game) == 302  # a tap needs no place
        blank = client.get("/sheets/blank.pdf", query_string={"players": "5"})
        assert blank.status_code == 503
    drawn = client.get(f"/g/{game}/sheet.pdf")
    assert drawn.status_code == 200 and drawn.data.startswith(b"%PDF")
    with taken(app, 1):  # what a worker drew already needs no place
        assert client.get(f"/g/{game}/sheet.pdf").data == drawn.data


def test_with_every_place_taken_a_restore_stores_nothing(app: Flask, client: FlaskClient) -> None:
    before = snapshot(app)
    with taken(app, 1):
        assert upload(client) == 503
    assert snapshot(app) == before
    assert upload(client) == 200
    assert len(snapshot(app)) == len(before) + 1


def test_the_one_request_waiting_goes_next_and_any_other_is_answered_at_once(
        app: Flask, client: FlaskClient) -> None:
    """A sheet asked while another is drawn waits its turn in the waiting place, and is drawn as
    soon as the place is free; meanwhile a third request, the waiting place taken, is refused at
    once."""
    game = new_game(client)
    answers: list[int] = []
    with ExitStack() as stack:
        [place] = lanes.places(app)
        running = stack.enter_context(place.open("ab"))
        fcntl.flock(running, fcntl.LOCK_EX | fcntl.LOCK_NB)
        waiter = threading.Thread(target=lambda: answers.append(
            app.test_client().get(f"/g/{game}/sheet.pdf").status_code))
        waiter.start()
        # the request is waiting: the state this test needs
        while not held(lanes.waiting_place(app)):
            assert waiter.is_alive(), answers
        assert client.get("/sheets/blank.pdf", query_string={"players": "9"}).status_code == 503
        fcntl.flock(running, fcntl.LOCK_UN)
    waiter.join()
    assert answers == [200]


def test_a_lane_of_two_lets_a_second_sheet_in(app: Flask, client: FlaskClient,
                                              database_url: str) -> None:
    wide = another_app(database_url, COSTLY_AT_ONCE="2")
    phone = wide.test_client()
    game = new_game(phone)
    with taken(wide, 1, waiting=False):
        assert phone.get(f"/g/{game}/sheet.pdf").status_code == 200
    with taken(wide, 2):
        assert phone.get("/sheets/blank.pdf", query_string={"players": "6"}).status_code == 503
    open_lane = another_app(database_url, COSTLY_AT_ONCE="0")
    with taken(wide, 2):
        assert open_lane.test_client().get("/sheets/blank.pdf",
                                           query_string={"players": "7"}).status_code == 200
    closed(wide)
    closed(open_lane)


def test_a_worker_that_dies_lets_its_place_go(app: Flask, client: FlaskClient) -> None:
    [place] = lanes.places(app)
    program = ("import fcntl, sys\n"
               f"held = open({str(place)!r}, 'ab')\n"
               "fcntl.flock(held, fcntl.LOCK_EX)\n"
               "print('held', flush=True)\n"
               "sys.stdin.read()\n")
    holder = subprocess.Popen([sys.executable, "-c", program],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    assert client.get("/sheets/blank.pdf", query_string={"players": "8"}).status_code == 503
    holder.kill()
    holder.wait(timeout=60)
    holder.stdout.close()
    holder.stdin.close()  # type: ignore[union-attr]
    assert client.get("/sheets/blank.pdf", query_string={"players": "8"}).status_code == 200


@pytest.mark.parametrize("setting", ["-1", "65", "two", "1.5"])
def test_a_lane_setting_that_is_no_small_number_stops_the_app_with_its_name(
        database_url: str, setting: str) -> None:
    with pytest.raises(ValueRefused, match="COSTLY_AT_ONCE"):
        another_app(database_url, COSTLY_AT_ONCE=setting)


class Gate:
    """Work that waits, each time it is done, until the test opens the gate (as a sheet long to
    draw on a busy server), and counts itself: a lock file held by the test and a log, since the
    lane draws in a process forked from the worker."""

    def __init__(self, folder: Path) -> None:
        self.gate, self.log = folder / "gate", folder / "done"
        self.closed: BinaryIO | None = self.gate.open("ab")
        fcntl.flock(self.closed, fcntl.LOCK_EX)

    def wait(self) -> None:
        with self.log.open("a") as log:
            log.write("done\n")
        with self.gate.open("ab") as gate:  # waits for the state the work needs: the gate open
            fcntl.flock(gate, fcntl.LOCK_SH)

    def open(self) -> None:
        if self.closed is not None:
            fcntl.flock(self.closed, fcntl.LOCK_UN)
            self.closed.close()
            self.closed = None

    @property
    def count(self) -> int:
        return len(self.log.read_text().splitlines()) if self.log.exists() else 0


@contextmanager
def slow_drawing(monkeypatch: pytest.MonkeyPatch, folder: Path) -> Iterator[Gate]:
    """Every sheet drawn waits for the gate."""
    gate, render = Gate(folder), pdf.render_pdf

    def waiting(sheet: Any) -> bytes:
        gate.wait()
        return render(sheet)

    monkeypatch.setattr(pdf, "render_pdf", waiting)
    try:
        yield gate
    finally:
        gate.open()


def kept_in_folder(app: Flask) -> list[Path]:
    """The sheets the lane's folder keeps."""
    return [path for path in lanes.kept_folder(app).glob("*") if not path.suffix]


def test_a_sheet_not_drawn_in_time_is_answered_503_and_opens_by_itself_once_drawn(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Issue 29: a costly request is answered within its bound, by the sheet or by a 503 that says
    when to come back, and the browser comes back by itself; the drawing goes on meanwhile, once,
    and the sheet is kept for the next request, whichever worker of the server takes it."""
    app.config["COSTLY_WITHIN"] = 0.2
    game, other_table = new_game(client), new_game(client)
    with slow_drawing(monkeypatch, tmp_path) as drawing:
        first = client.get(f"/g/{game}/sheet.pdf")
        assert first.status_code == 503
        assert first.headers["Retry-After"] == first.headers["Refresh"] == str(lanes.DRAWN_AFTER)
        page = text(first.get_data(as_text=True))
        assert "Drawing your sheet" in page and "Your sheet is being drawn" in page
        assert "Error 503" not in page  # nothing went wrong
        assert bid(client, other_table) == 302  # the taps go on
        # The same sheet asked again while it is drawn is not drawn a second time: it waits
        # (here, till its own time is up)
        again = client.get(f"/g/{game}/sheet.pdf", headers={"Accept-Language": "en"})
        assert again.status_code == 503 and drawing.count == 1
        # A HEAD is answered as its GET is, headers and all
        head = client.head(f"/g/{game}/sheet.pdf")
        assert head.status_code == 503 and head.headers["Refresh"] == str(lanes.DRAWN_AFTER)
        # An API client is told when to come back, and nothing more
        assert "Refresh" not in client.get(f"/api/games/{game}").headers
        drawing.open()
        # the state this test needs: the sheet drawn and kept, its place in the lane let go
        while not kept_in_folder(app) or held(lanes.places(app)[0]):
            assert drawing.count == 1
    other_worker = another_app(app.config["SQLALCHEMY_DATABASE_URI"])
    monkeypatch.setattr(lanes, "_kept", lanes.LRU(lanes.KEEP_IN_MEMORY))  # that worker's memory
    with taken(app, 1):  # a sheet kept needs no place in the lane
        kept = other_worker.test_client().get(f"/g/{game}/sheet.pdf")
    assert kept.status_code == 200 and kept.data.startswith(b"%PDF") and drawing.count == 1
    closed(other_worker)


def test_a_sheet_drawn_in_time_is_answered_at_once(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    app.config["COSTLY_WITHIN"] = 60
    answers: list[int] = []
    with slow_drawing(monkeypatch, tmp_path) as drawing:
        asking = threading.Thread(target=lambda: answers.append(
            app.test_client().get("/sheets/blank.pdf", query_string={"players": "6"}).status_code))
        asking.start()
        while not drawing.count:
            assert asking.is_alive()
        drawing.open()
        asking.join()
    assert answers == [200] and drawing.count == 1


def test_the_lane_folder_keeps_only_the_newest_sheets(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lanes, "KEEP_ON_DISK", 2)
    monkeypatch.setattr(lanes, "_kept", lanes.LRU(lanes.KEEP_IN_MEMORY))  # none in memory yet
    for players in (4, 5, 6):
        assert client.get("/sheets/blank.pdf",
                          query_string={"players": str(players)}).status_code == 200
    assert len(kept_in_folder(app)) == 2


@pytest.mark.parametrize("setting", ["-1", "61", "two", "1.25"])
def test_a_sheet_time_setting_that_is_no_number_of_seconds_stops_the_app_with_its_name(
        database_url: str, setting: str) -> None:
    with pytest.raises(ValueRefused, match="COSTLY_WITHIN"):
        another_app(database_url, COSTLY_WITHIN=setting)


def test_a_restore_not_checked_in_time_stores_nothing_and_sent_again_is_restored_once(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Issue 29: a restore whose house formulas take longer to check than its request may is
    answered 503 with nothing stored; the check goes on, and the same file sent again, to any
    worker of the server, is restored with the check's findings, not checked a second time."""
    app.config["COSTLY_WITHIN"] = 0.2
    document = {"format": "oh-hell-scorekeeper/backup-1",
                "games": [costly(1), {"players": ["Ann", "Bob", "Cy"]}]}
    checks, check = Gate(tmp_path), backup.check

    def waiting(sent: object) -> bytes:
        checks.wait()
        return check(sent)

    monkeypatch.setattr(backup, "check", waiting)
    before = snapshot(app)
    try:
        refused = restore(client, document)
    finally:
        checks.open()
    assert refused.status_code == 503 and refused.headers["Retry-After"] == str(lanes.DRAWN_AFTER)
    assert "Refresh" not in refused.headers  # a form sent: the browser must not send it again
    assert "Your file is still being checked: nothing was stored yet" in text(
        refused.get_data(as_text=True))
    assert snapshot(app) == before
    while not kept_in_folder(app) or held(lanes.places(app)[0]):  # the check done and kept
        assert checks.count == 1
    # Another worker of the server: nothing of it in its memory, and its own checks refused
    monkeypatch.setattr(lanes, "_kept", lanes.LRU(lanes.KEEP_IN_MEMORY))
    monkeypatch.setattr(scoring, "_told", {})

    def never(*key: object) -> None:
        raise AssertionError(f"checked again: {key}")

    monkeypatch.setattr(scoring, "_check", never)
    restored = restore(client, document)
    assert restored.status_code == 200 and checks.count == 1
    assert len(snapshot(app)) == len(before) + 2


def test_the_sheets_an_earlier_version_of_the_app_kept_are_gone_when_it_starts(
        app: Flask, database_url: str) -> None:
    """An upgrade may draw its sheets otherwise: what the old version kept is never served."""
    ours = lanes.kept_folder(app)
    earlier = ours.with_name(ours.name.rsplit("-", 1)[0] + "-000000000000")
    earlier.mkdir(parents=True)
    (earlier / "a-sheet").write_bytes(b"%PDF drawn by an earlier version")
    upgraded = another_app(database_url)
    assert not earlier.exists() and lanes.kept_folder(upgraded) == ours
    closed(upgraded)
