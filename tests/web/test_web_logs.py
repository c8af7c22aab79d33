"""Logs without capabilities (docs/hosting.md): a server's logs show a token by its first
characters.

Both servers run for real on 127.0.0.1 — gunicorn as ``make serve`` starts it (with the project's
gunicorn.conf.py, the access log on stdout), Flask's development server as ``make run`` does —
while a phone plays through the links, and every line they logged is searched for a whole token.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from scorekeeper.web.logs import SHOWN

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
APP = "logged_app:create_app({database!r})"
SERVERS = {
    "gunicorn": lambda port, app: [str(BIN / "gunicorn"), "--workers", "1", "--bind",
                                   f"127.0.0.1:{port}", "--access-logfile", "-", app],
    "flask run": lambda port, app: [str(BIN / "flask"), "--app", app, "run", "--host", "127.0.0.1",
                                    "--port", str(port)],
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serving(server: str, database: str, logs: Path) -> Iterator[int]:
    """The server on a free port of 127.0.0.1, its stdout and stderr written to ``logs``."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent)}
    with logs.open("wb") as out:
        process = subprocess.Popen(SERVERS[server](port, APP.format(database=database)), cwd=ROOT,
                                   env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    assert process.poll() is None and time.monotonic() < deadline, logs.read_text()
                    time.sleep(0.1)
            yield port
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)


def ask(port: int, method: str, path: str, body: Any = None, **headers: str) -> tuple[int, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        if body is not None:
            headers["Content-Type"] = "application/json"
        connection.request(method, path, None if body is None else json.dumps(body), headers)
        response = connection.getresponse()
        data = response.read()
        is_json = response.getheader("Content-Type") == "application/json"
        return response.status, json.loads(data) if is_json else data
    finally:
        connection.close()


def token_of(link: str) -> str:
    return link.rstrip("/").rsplit("/", 1)[1]


@pytest.mark.parametrize("server", SERVERS)
def test_no_log_line_of_a_server_holds_a_whole_token(server: str, app: Flask, database_url: str,
                                                      tmp_path: Path) -> None:
    """``app`` is not asked anything: it empties a shared database (PostgreSQL) after the test."""
    logs = tmp_path / "server.log"
    with serving(server, database_url, logs) as port:
        status, game = ask(port, "POST", "/api/games",
                           {"players": ["Ann", "Bob", "Cy"], "rules": {"max_cards": 3}})
        assert status == 201
        edit, view = token_of(game["links"]["edit"]), token_of(game["links"]["view"])
        status, group = ask(port, "POST", "/api/groups", {"name": "Friday"})
        assert status == 201
        group_edit, group_view = token_of(group["links"]["edit"]), token_of(group["links"]["view"])
        join, seat = token_of(game["links"]["join"]), token_of(game["links"]["seats"][1])
        steps = [("GET", f"/j/{join}", None, {}),
                 ("GET", f"/s/{seat}", None, {"Referer": f"http://127.0.0.1:{port}/j/{join}"}),
                 ("GET", f"/s/{seat}/state?v=0", None, {}),
                 ("POST", f"/api/games/{seat}/taps",
                  {"tap": "a-logged-tap", "deal": 1, "step": "bid", "value": 0}, {}),
                 ("GET", f"/g/{edit}", None, {"Referer": f"http://127.0.0.1:{port}/"}),
                 ("GET", f"/v/{view}", None,
                  {"Referer": f"http://127.0.0.1:{port}/g/{edit}/share"}),
                 ("GET", f"/v/{view}/state?v=0", None, {}),
                 ("GET", f"/api/games/{edit}", None, {}),
                 ("GET", f"/g/{edit}/export.json", None, {}),
                 ("GET", f"/language/nl?next=/g/{edit}", None, {}),
                 ("POST", f"/api/groups/{group_edit}/games", {"game": game["links"]["edit"]}, {}),
                 ("GET", f"/gr/{group_edit}", None, {}),
                 ("GET", f"/gr/{group_view}/games.csv", None, {}),
                 ("GET", f"/g/{edit}/no-such-page", None, {}),
                 ("GET", f"/g/{edit}/crash", None, {})]
        statuses = [ask(port, method, path, body, **headers)[0]
                    for method, path, body, headers in steps]
        assert (statuses[-2:] == [404, 500]
                and all(status < 400 for status in statuses[:-2])), statuses
    logged = logs.read_text()
    for token in (edit, view, group_edit, group_view, join, seat):
        assert token not in logged
        assert token[:SHOWN + 1] not in logged
    # the requests and the failure were logged, shortened
    assert f"/g/{edit[:SHOWN]}…/crash" in logged
    assert "IntegrityError" in logged
