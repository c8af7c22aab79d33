"""The package's layers (docs/architecture.md): each package imports only itself and the packages
below it, the rules core imports nothing but the standard library, and no module grows past what a
newcomer reads in one sitting."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"

#: From the bottom up: a package may import the ones before it, never one after it.
LAYERS = ("rules", "store", "changes", "web", "phone", "play", "sheets", "groups", "games", "table", "events", "api")

#: The longest a module may be, in lines.
MOST_LINES = 450


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def imported(path: Path) -> set[str]:
    """Every module this file imports, as an absolute dotted name (relative imports resolved)."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    package = parts[:-1]  # what "." names, in a package's __init__ as in its modules
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                name = ".".join((*base, node.module) if node.module else base)
            else:
                name = node.module or ""
            found.add(name)
            # ``from . import board``: the names may be modules too
            found.update(f"{name}.{alias.name}" for alias in node.names)
    return found


def layer(name: str) -> str | None:
    """The layer a dotted module name belongs to, or None outside the app's packages."""
    parts = name.split(".")
    if parts[0] != "scorekeeper" or len(parts) < 2 or parts[1] not in LAYERS:
        return None
    return parts[1]


@pytest.mark.parametrize("path", [p for p in modules() if p.parent != PACKAGE], ids=lambda p: str(p.relative_to(PACKAGE)))
def test_a_package_imports_only_the_layers_below_it(path: Path) -> None:
    own = path.relative_to(PACKAGE).parts[0]
    above = {name for name in imported(path) if (other := layer(name)) and LAYERS.index(other) > LAYERS.index(own)}
    assert not above, f"{own} is below {sorted(above)}"


@pytest.mark.parametrize("path", sorted((PACKAGE / "rules").rglob("*.py")), ids=lambda p: p.name)
def test_the_rules_core_imports_only_the_standard_library(path: Path) -> None:
    outside = {name for name in imported(path)
               if name.split(".")[0] not in sys.stdlib_module_names and not name.startswith("scorekeeper.rules")}
    assert not outside


def test_every_module_belongs_to_a_layer() -> None:
    loose = [p.name for p in modules() if p.parent == PACKAGE and p.name != "__init__.py"]
    assert not loose
    assert {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()} == set(LAYERS)


def test_no_module_is_longer_than_a_sitting() -> None:
    long = {str(p.relative_to(PACKAGE)): n for p in modules()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MOST_LINES}
    assert not long
