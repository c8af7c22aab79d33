"""The code reads at one width: ruff checks that no line is over 100 characters (E501, selected in
pyproject.toml, run by `make test`), and this checks what ruff's stable rules don't: no Python
file holds a run of three or more blank lines (two is the most, between top-level definitions)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("scorekeeper", "tests", "bench", "scripts", "migrations")


def python_files() -> list[Path]:
    return sorted(path for folder in FOLDERS for path in (ROOT / folder).rglob("*.py")
                  if "vendor" not in path.parts)


def test_no_python_file_has_three_blank_lines_in_a_row() -> None:
    found = [f"{path.relative_to(ROOT)}:{text[:match.start()].count(chr(10)) + 2}"
             for path in python_files()
             for text in [path.read_text(encoding="utf-8")]
             for match in re.finditer(r"\n[ \t]*\n[ \t]*\n[ \t]*\n", text)]
    assert not found, f"three blank lines or more at {', '.join(found)}"


def test_ruff_checks_the_reading_width() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ruff"]
    assert config["line-length"] == 100
    assert "E501" in config["lint"]["extend-select"]
