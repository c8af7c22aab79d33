"""Benchmark plumbing: gunicorn on 127.0.0.1, a threaded HTTP load generator, latency figures.

Every request goes to 127.0.0.1 only; every load is bounded in requests and in time.
"""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
#: ``--smoke`` on a benchmark's command line: every part of it once, at tiny sizes, and no figure
#: passes or fails anything (errors still do). `make test` runs every script of bench/ so
#: (tests/test_bench.py), lest a change to the protocol or the defaults break one unseen.
SMOKE = "--smoke" in sys.argv[1:]
if SMOKE:
    sys.argv.remove("--smoke")


def sized(full: int, smoke: int) -> int:
    """A benchmark's size: ``full`` when measuring, ``smoke`` in a smoke run."""
    return smoke if SMOKE else full


def migrated_sqlite(prefix: str) -> dict[str, str]:
    """The environment of an app on a new, migrated SQLite file in a folder of its own."""
    import tempfile

    folder = tempfile.mkdtemp(prefix=prefix)
    env = {"DATABASE_URL": f"sqlite:///{folder}/app.sqlite"}
    subprocess.run([str(BIN / "flask"), "--app", "scorekeeper", "db", "upgrade"], cwd=ROOT,
                   env={**os.environ, **env}, check=True, capture_output=True)
    return env


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def gunicorn(app: str, env: dict[str, str], workers: int = 2, threads: int = 1) -> Iterator[int]:
    """Serve ``app`` (a gunicorn app spec) with ``workers`` workers; yields the port."""
    port = free_port()
    process = subprocess.Popen(
        [str(BIN / "gunicorn"), "--workers", str(workers), "--threads", str(threads),
         "--bind", f"127.0.0.1:{port}", "--log-level", "warning", app],
        cwd=ROOT, env={**os.environ, **env},
    )
    try:
        wait_for_port(port)
        yield port
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)


def wait_for_port(port: int, timeout: float = 120) -> None:
    """Block until the app on ``port`` answers a page: gunicorn listens before its workers have
    loaded the app, and a first request would wait for them (seconds on a busy machine), in the
    time a benchmark measures or a browser allows."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        connection = http.client.HTTPConnection("127.0.0.1", port,
                                                timeout=max(1.0, deadline - time.monotonic()))
        try:
            connection.request("GET", "/manifest.webmanifest")
            if connection.getresponse().status < 500:
                return
        except OSError:
            time.sleep(0.1)
        finally:
            connection.close()
    raise RuntimeError(f"nothing answers on 127.0.0.1:{port} after {timeout} s")


@dataclass
class Result:
    """Latencies (seconds) and failures of one load run."""

    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def rate(self) -> float:
        """Successful requests per second."""
        return len(self.latencies) / self.seconds if self.seconds else 0.0

    def percentile(self, q: float) -> float:
        """The q-th percentile latency in milliseconds."""
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return 1000 * ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]

    @property
    def p50(self) -> float:
        """Median latency in milliseconds."""
        return 1000 * statistics.median(self.latencies) if self.latencies else float("nan")


#: One request: (method, path, body, headers) and the statuses that count as success.
Request = tuple[str, str, bytes | None, dict[str, str]]


def load(
    port: int,
    make_request: Callable[[int, int], Request],
    *,
    clients: int,
    requests: int,
    seconds: float = 60,
    ok: tuple[int, ...] = (200, 201, 303),
) -> Result:
    """Send ``requests`` requests per client from ``clients`` threads (keep-alive), bounded in
    time."""
    result = Result()
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def client(number: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for i in range(requests):
            if time.monotonic() > deadline:
                break
            method, path, body, headers = make_request(number, i)
            start = time.perf_counter()
            try:
                connection.request(method, path, body=body, headers=headers)
                response = connection.getresponse()
                response.read()
                status = response.status
            except (OSError, http.client.HTTPException) as exc:
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                with lock:
                    result.errors.append(f"{method} {path}: {exc!r}")
                continue
            elapsed = time.perf_counter() - start
            with lock:
                if status in ok:
                    result.latencies.append(elapsed)
                else:
                    result.errors.append(f"{method} {path}: HTTP {status}")
        connection.close()

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    result.seconds = time.perf_counter() - start
    return result


def size_of(connection: http.client.HTTPConnection, path: str) -> int:
    """The bytes of one answer, uncompressed, on a kept-alive connection."""
    connection.request("GET", path)
    return len(connection.getresponse().read())


def page_weight(port: int, path: str,
                headers: dict[str, str] | None = None) -> tuple[dict[str, int], list[str]]:
    """The bytes of a page and of each stylesheet and script it loads, by file name (the page as
    "page"), and the addresses on the page that lead to another host."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", path, headers=headers or {})
    page = connection.getresponse().read()
    html = page.decode()
    assets = re.findall(r'<(?:link rel="stylesheet" href|script src)="([^"]+)"', html)
    foreign = [a for a in re.findall(r'(?:src|href)="([^"]+)"', html)
               if a.startswith(("http:", "https:", "//"))]
    sizes = {"page": len(page)}
    for asset in assets:
        sizes[asset.split("?")[0].rsplit("/", 1)[-1]] = size_of(connection, asset)
    connection.close()
    return sizes, foreign
