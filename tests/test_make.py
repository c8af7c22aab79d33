"""What `make run` does, read from `make -n` (nothing is run): where it listens, and that it
installs what the app needs from the lock's first part only, the test tools being for
`make test`."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from lock import TEST_MARK, blocks


def dry_run(*args: str) -> list[str]:
    """The commands `make -n` prints for ``args``, in an environment without PORT or HOST."""
    env = {key: value for key, value in os.environ.items() if key not in ("PORT", "HOST")}
    done = subprocess.run(["make", "-n", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=True)
    return done.stdout.splitlines()


def flask_commands(lines: list[str]) -> list[str]:
    return [line.split("--app scorekeeper ", 1)[1] for line in lines if "--app scorekeeper" in line]


@pytest.mark.parametrize(("args", "address", "port"), [
    pytest.param((), "0.0.0.0", "5000", id="every address, port 5000"),
    pytest.param(("PORT=8000",), "0.0.0.0", "8000", id="PORT=8000"),
    pytest.param(("PORT=8000", "HOST=127.0.0.1"), "127.0.0.1", "8000", id="this computer only"),
])
def test_make_run_prints_the_address_then_listens_where_it_is_told(args: tuple[str, ...],
                                                                   address: str, port: str) -> None:
    assert flask_commands(dry_run("run", *args)) == [
        "db upgrade", f"address --host {address} --port {port}",
        f"run --host {address} --port {port}"]


def parts() -> tuple[dict[str, str], dict[str, str]]:
    """The lock's packages to run the app, and those the test tools add."""
    run, _, test = (ROOT / "requirements.lock").read_text(encoding="utf-8").partition(TEST_MARK)
    return blocks(run), blocks(test)


def names(requirements: list[str]) -> set[str]:
    return {re.split(r"[\[<>=!~ ;]", requirement, maxsplit=1)[0].lower()
            for requirement in requirements}


def test_the_lock_pins_the_app_first_and_the_test_tools_below_the_line() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    run, test = parts()
    assert names(project["dependencies"]) <= set(run)
    assert names(project["optional-dependencies"]["test"]) <= set(test)
    assert not set(run) & set(test)  # a package both need is pinned once, above the line
    assert all("--hash=sha256:" in block for block in [*run.values(), *test.values()])


def test_make_run_installs_the_app_without_the_test_tools() -> None:
    lines = dry_run("-B", "venv-run")
    install = [line for line in lines if "pip install --no-deps --require-hashes" in line]
    mark = TEST_MARK.removeprefix("# ")
    pip = (".venv/bin/python -m pip install --no-deps --require-hashes --only-binary :all:"
           " -r /dev/stdin")
    assert install == [f"sed '/{mark}/,$d' requirements.lock | {pip}"]
    assert f"sed '' requirements.lock | {pip}" in dry_run("-B", ".venv")  # make test: all of it
    assert "venv-run" in next(line for line in (ROOT / "Makefile").read_text().splitlines()
                              if line.startswith("run:"))


def test_make_serve_live_holds_questions_in_threads_on_its_own_port() -> None:
    """The server of docs/hosting.md ("Following games live"): gthread workers on port 8001."""
    [gunicorn] = [line for line in dry_run("serve-live") if "gunicorn" in line]
    assert "--worker-class gthread" in gunicorn and "--bind 0.0.0.0:8001" in gunicorn
    assert re.search(r"--threads \d{3,}", gunicorn)
