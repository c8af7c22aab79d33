"""The app behind a real nginx, configured with exactly the lines docs/hosting.md shows, and
``PROXY_HOPS=1``: the rate limits count the address nginx saw, whatever a client writes in
``X-Forwarded-For``, and two clients that send no such header are counted apart (finding 6 of the
club nights' review: with the lines documented before, 30 new events, each with a made-up
address, were all welcome, and every client without the header shared the proxy's one count).

Each client is a different loopback address (127.0.0.2, 127.0.0.3…), as phones behind a router
are different addresses to the proxy.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from flask import Flask
from werkzeug.serving import make_server

from scorekeeper import ROOT, create_app
from scorekeeper.store.db import db
from scorekeeper.web import ratelimits

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
if NGINX is None and not os.environ.get("CI"):  # `make test` installs it (Makefile, DEB_TEST)
    pytest.skip("nginx is not installed", allow_module_level=True)

#: The location block docs/hosting.md gives for nginx.
DOCUMENTED = re.search(r"```nginx\n(.*?)```", (ROOT / "docs" / "hosting.md").read_text(), re.DOTALL)
GAME = json.dumps({"players": ["Ann", "Bob", "Cy"]})


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def answered(port: int) -> bool:
    """Whether something on ``port`` answers an HTTP request."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", "/manifest.webmanifest")
        return connection.getresponse().status < 500
    except OSError:
        return False
    finally:
        connection.close()


@pytest.fixture
def app(database_url: str) -> Iterator[Flask]:  # the suite's app has no rate limits and no proxy
    made = create_app({"TESTING": True, "SECRET_KEY": "test",
                       "SQLALCHEMY_DATABASE_URI": database_url,
                       "PROXY_HOPS": "1", "RATELIMIT_ENABLED": True,
                       "RATE_LIMITS": dict.fromkeys(ratelimits.LIMITS, "2 per minute")})
    yield made
    with made.app_context():
        # the shared PostgreSQL database stays empty
        db.session.execute(db.text("DELETE FROM games"))
        db.session.commit()
        db.engine.dispose()


@contextmanager
def proxied(app: Flask, location: str, tmp_path: Path) -> Iterator[int]:
    """The app served on a thread, behind nginx with ``location`` (the port of app.example.org's
    server block written in for 127.0.0.1:8000); yields nginx's port."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    port = free_port()
    temp = {name: tmp_path / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    temp_paths = " ".join(f"{name}_temp_path {path};" for name, path in temp.items())
    config = tmp_path / "nginx.conf"
    config.write_text(f"""
        daemon off;
        master_process off;
        pid {tmp_path / "nginx.pid"};
        error_log {tmp_path / "error.log"};
        events {{ worker_connections 64; }}
        http {{
            access_log off;
            {temp_paths.replace("body_temp", "client_body_temp")}
            server {{
                listen 127.0.0.1:{port};
                {location.replace("127.0.0.1:8000", f"127.0.0.1:{server.server_port}")}
            }}
        }}
    """)
    assert NGINX is not None, "nginx is not installed: `make deps-test` installs it"
    said = tmp_path / "stderr.log"
    with said.open("wb") as stderr:
        nginx = subprocess.Popen([NGINX, "-c", str(config), "-p", str(tmp_path)], stderr=stderr)
    try:
        deadline = time.monotonic() + 60
        while not answered(port):
            assert nginx.poll() is None, said.read_text()
            assert time.monotonic() < deadline, "nginx did not answer within a minute"
        yield port
    finally:
        nginx.terminate()
        nginx.wait(timeout=30)
        server.shutdown()
        server.server_close()
        thread.join()


def new_games(port: int, client: str, forwarded: list[str | None]) -> list[int]:
    """POST /api/games through the proxy from the loopback address ``client``, once per entry of
    ``forwarded`` (the X-Forwarded-For the client sends, if any): the answers' status codes."""
    codes = []
    for header in forwarded:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30,
                                                source_address=(client, 0))
        headers = {"Content-Type": "application/json"} | (
            {"X-Forwarded-For": header} if header else {})
        connection.request("POST", "/api/games", body=GAME, headers=headers)
        codes.append(connection.getresponse().status)
        connection.close()
    return codes


MADE_UP = ["203.0.113.1", "203.0.113.2", "203.0.113.3", "198.51.100.9, 203.0.113.4"]


def test_the_documented_nginx_lines_count_the_address_nginx_saw(app: Flask, tmp_path: Path) -> None:
    assert DOCUMENTED is not None, "docs/hosting.md shows no nginx block"
    with proxied(app, DOCUMENTED.group(1), tmp_path) as port:
        # a new address each time: refused
        assert new_games(port, "127.0.0.2", MADE_UP) == [201, 201, 429, 429]
        # counted apart from .2
        assert new_games(port, "127.0.0.3", [None, None, None]) == [201, 201, 429]
        assert new_games(port, "127.0.0.4", [None]) == [201]


def test_without_its_x_forwarded_for_line_a_made_up_address_passes(
        app: Flask, tmp_path: Path) -> None:
    """What the line prevents, shown: the test above fails on the lines documented before."""
    assert DOCUMENTED is not None
    location = "\n".join(line for line in DOCUMENTED.group(1).splitlines()
                         if "X-Forwarded-For" not in line)
    with proxied(app, location, tmp_path) as port:
        assert new_games(port, "127.0.0.2", MADE_UP[:3]) == [201, 201, 201]
        assert new_games(port, "127.0.0.3", [None, None]) == [201, 201]
        # every client without the header: one count
        assert new_games(port, "127.0.0.4", [None]) == [429]
