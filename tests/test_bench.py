"""Every benchmark of bench/ runs: each script once with ``--smoke`` (its every part at tiny sizes,
no figure asserted), as `make test` runs them, so that a change to the protocol, the defaults or
the limits can't quietly break one (a tap that must name its deal, a rate limit turned on…). What
the benchmarks measure is in docs/benchmarks.md; here, only that each ends without an error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
#: The modules the scripts share: run through them, never on their own.
HELPERS = {"harness.py", "baseline_app.py"}
#: The scripts, each run as `.venv/bin/python bench/<script> --smoke`.
SCRIPTS = ["bench_sheet.py", "club_night.py", "event_pages.py", "followers.py", "group_cold.py",
           "latency.py", "load_tables.py", "run.py", "seat_latency.py", "seating.py",
           "sheet_cases.py", "tap_to_phones.py", "trace_tap.py", "worst_cases.py"]


def test_every_script_of_bench_has_a_smoke_run() -> None:
    assert {path.name for path in BENCH.glob("*.py")} - HELPERS == set(SCRIPTS)


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_benchmark_runs(script: str, tmp_path: Path) -> None:
    # as a host runs them: with the server's own time for a sheet, not the tests' (conftest.py)
    env = {name: value for name, value in os.environ.items() if name != "COSTLY_WITHIN"}
    done = subprocess.run([sys.executable, str(BENCH / script), "--smoke"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=600, check=False, env=env)
    assert done.returncode == 0, (f"ended with {done.returncode}:\n"
                                  f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    assert done.stdout.strip(), f"{script} --smoke printed nothing"
