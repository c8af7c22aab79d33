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
LAYERS = ("rules", "store", "changes", "web", "phone", "play", "sheets", "groups", "games", "table",
          "events", "api")

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


@pytest.mark.parametrize("path", [p for p in modules() if p.parent != PACKAGE],
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_a_package_imports_only_the_layers_below_it(path: Path) -> None:
    own = path.relative_to(PACKAGE).parts[0]
    above = {name for name in imported(path)
             if (other := layer(name)) and LAYERS.index(other) > LAYERS.index(own)}
    assert not above, f"{own} is below {sorted(above)}"


@pytest.mark.parametrize("path", sorted((PACKAGE / "rules").rglob("*.py")), ids=lambda p: p.name)
def test_the_rules_core_imports_only_the_standard_library(path: Path) -> None:
    outside = {name for name in imported(path)
               if name.split(".")[0] not in sys.stdlib_module_names
               and not name.startswith("scorekeeper.rules")}
    assert not outside


def test_every_module_belongs_to_a_layer() -> None:
    loose = [p.name for p in modules() if p.parent == PACKAGE and p.name != "__init__.py"]
    assert not loose
    assert {p.name for p in PACKAGE.iterdir()
            if p.is_dir() and (p / "__init__.py").exists()} == set(LAYERS)


def test_no_module_is_longer_than_a_sitting() -> None:
    long = {str(p.relative_to(PACKAGE)): n for p in modules()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MOST_LINES}
    assert not long


#: What stores a game: ``StoredGame.create``, and a game's ``save``, ``stage`` and ``stored``.
GAME_WRITES = ("save", "stage", "stored")


def _event(value: ast.expr | None) -> bool:
    """Whether a value is a club night: read or made by an event's look-up (``find_event``,
    ``event_or_404``, ``StoredEvent.create``), or annotated ``StoredEvent``."""
    if isinstance(value, ast.Call):
        value = value.func
    return value is not None and "event" in ast.unparse(value).lower()


def _night_names(function: ast.AST) -> set[str]:
    """The names a function binds to a club night, which it may save."""
    names: set[str] = set()
    if isinstance(function, ast.FunctionDef):
        names.update(arg.arg for arg in function.args.args if _event(arg.annotation))
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and _event(node.value):
            for target in node.targets:
                elements = target.elts if isinstance(target, ast.Tuple) else [target]
                names.update(e.id for e in elements if isinstance(e, ast.Name))
    return names


def game_writes(path: Path) -> list[str]:
    """Where a module stores a game itself: ``StoredGame.create(…)``, or ``x.save(…)``,
    ``x.stage(…)``, ``x.stored(…)`` on anything but a club night (or the changes layer's own
    ``changes.stage``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    scopes = [tree, *(node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef))]
    for scope in scopes:
        nights = _night_names(scope)
        for node in ast.walk(scope):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            receiver, method = node.func.value, node.func.attr
            if (method == "create" and ast.unparse(receiver) == "StoredGame"
                    or method in GAME_WRITES and not isinstance(receiver, ast.Call) and not (
                        isinstance(receiver, ast.Name) and receiver.id in {"changes", *nights})):
                found.append(f"line {node.lineno}: {ast.unparse(node.func)}")
    return sorted(set(found))


@pytest.mark.parametrize("path", [p for p in modules() if p.parent != PACKAGE
                                  and p.relative_to(PACKAGE).parts[0] not in ("store", "changes")],
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_only_the_changes_layer_writes_a_game(path: Path) -> None:
    """scorekeeper/changes is the one writer of a game (and the store, which it calls)."""
    assert not game_writes(path)


def test_the_writes_check_finds_a_game_written_elsewhere(tmp_path: Path) -> None:
    written = tmp_path / "writer.py"
    written.write_text("def tap(game, stored):\n    game.save(checked)\n"
                       "    StoredGame.create(checked)\n"
                       "    stored, editable = event_or_404(token, edit=True)\n"
                       "    stored.save(doc)\n"
                       "    table.game.stage(ended)\n", encoding="utf-8")
    assert game_writes(written) == ["line 2: game.save", "line 3: StoredGame.create",
                                    "line 6: table.game.stage"]


def from_imports(path: Path, root: Path = PACKAGE) -> list[tuple[str, str]]:
    """Every ``from … import name`` of a file under ``root`` (the package): (the module, as an
    absolute dotted name, the name); ``from __future__`` aside."""
    package = path.relative_to(root.parent).with_suffix("").parts[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            base = package[:len(package) - node.level + 1] if node.level else ()
            module = ".".join((*base, node.module) if node.module else base)
            found.extend((module, alias.name) for alias in node.names)
    return found


def views_imported(path: Path, root: Path = PACKAGE) -> list[str]:
    """The views modules of other packages a file imports: ``from ..play.views import …``,
    ``from ..groups import views``."""
    own = path.relative_to(root).parts[0]
    found = set()
    for module, name in from_imports(path, root):
        for named in (module, f"{module}.{name}"):
            parts = named.split(".")
            if layer(named) not in (None, own) and "views" in parts[2:]:
                found.add(".".join(parts[:parts.index("views", 2) + 1]))
    return sorted(found)


def private_imported(path: Path, root: Path = PACKAGE) -> list[str]:
    """The private names (``_name``) a file imports from another module (``_``, the translation
    of a message, is no private name)."""
    return sorted(f"{module}.{name}" for module, name in from_imports(path, root)
                  if name.startswith("_") and name != "_"
                  and not (name.startswith("__") and name.endswith("__")))


@pytest.mark.parametrize("path", [p for p in modules() if p.parent != PACKAGE],
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_package_imports_another_package_s_views(path: Path) -> None:
    """A package's views are its pages, not a library: what pages share lives in web/ (or store/,
    changes/). The app's factory (scorekeeper/__init__.py) alone registers them all."""
    assert not views_imported(path)


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_imports_a_private_name_from_another(path: Path) -> None:
    assert not private_imported(path)


def test_the_import_rules_find_what_they_forbid(tmp_path: Path) -> None:
    written = tmp_path / "scorekeeper" / "table" / "written.py"
    written.parent.mkdir(parents=True)
    written.write_text("from __future__ import annotations\n"
                       "from ..play.views import _save, context\n"
                       "from ..groups import views\nfrom .views import Dealable\n"
                       "from ..play import board\nfrom ..web.site import _secure\n",
                       encoding="utf-8")
    root = tmp_path / "scorekeeper"
    assert views_imported(written, root) == ["scorekeeper.groups.views", "scorekeeper.play.views"]
    assert private_imported(written, root) == ["scorekeeper.play.views._save",
                                               "scorekeeper.web.site._secure"]
