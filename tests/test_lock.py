"""The lock is complete: `make` installs it with ``pip install --no-deps`` (nothing is resolved
against the package index at install time), so every requirement of every locked package, with the
extras asked of it, must be met by a pin of the same part of the lock. The app's part (what
`make run` installs) stands alone; the test tools' part may lean on it.

Each package's requirements are read from its own metadata, as installed in this venv, which holds
exactly the lock (the first test checks that)."""

from __future__ import annotations

import importlib.metadata
import sys
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from lock import TEST_MARK, blocks

#: The platforms the lock is resolved for (the Makefile's LOCK_PYTHON, on Linux).
PLATFORMS = [{"implementation_name": "cpython", "implementation_version": "3.11.0",
              "os_name": "posix", "platform_machine": machine,
              "platform_python_implementation": "CPython",
              "platform_release": "", "platform_system": "Linux", "platform_version": "",
              "python_full_version": "3.11.0", "python_version": "3.11", "sys_platform": "linux"}
             for machine in ("x86_64", "aarch64")]

Pins = dict[str, Version]
Requires = Mapping[str, list[Requirement]]


def pins(text: str) -> Pins:
    """The lock's (or one part's) packages and their pinned versions."""
    return {canonicalize_name(name): Version(block.split("==", 1)[1].split()[0])
            for name, block in blocks(text).items()}


def lock_parts(text: str) -> tuple[Pins, Pins]:
    """What `make run` installs, and what `make test` installs (all of it)."""
    run, mark, _test = text.partition(TEST_MARK)
    assert mark, "the lock has no line between its two parts"
    return pins(run), pins(text)


def project_roots(extras: Iterable[str] = ()) -> list[Requirement]:
    """What pyproject.toml asks for (with the extras named), plus pip and the build backend, which
    the Makefile installs from the lock as well."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    wanted = [*project["project"]["dependencies"], "pip", *project["build-system"]["requires"]]
    for extra in extras:
        wanted += project["project"]["optional-dependencies"][extra]
    return [Requirement(line) for line in wanted]


def holds(requirement: Requirement, extra: str) -> bool:
    """Whether a requirement holds, on some platform of the lock, for its package asked for with
    ``extra`` ("" for the package alone) and not already without it."""
    marker = requirement.marker
    if marker is None:
        return not extra

    def under(name: str) -> bool:
        return any(Marker.evaluate(marker, {**platform, "extra": name}) for platform in PLATFORMS)
    return under(extra) and not (extra and under(""))


def unmet(roots: list[Requirement], pinned: Pins, requires: Requires) -> list[str]:
    """Every requirement, from the roots down through each pinned package's own requirements (with
    the extras asked of it), that no pin of ``pinned`` meets, in words; and each pin nothing asks
    for.

    >>> from packaging.version import Version as V
    >>> needs = {"weasyprint": [Requirement("fonttools[woff]>=4.59")],
    ...          "fonttools": [Requirement('brotli>=1.2; extra == "woff"'),
    ...                        Requirement('lxml; extra == "lxml"')],
    ...          "brotli": []}
    >>> unmet([Requirement("weasyprint")],
    ...       {"weasyprint": V("70"), "fonttools": V("4.68"), "brotli": V("1.2.1")}, needs)
    []
    >>> unmet([Requirement("weasyprint")], {"weasyprint": V("70"), "fonttools": V("4.68")}, needs)
    ['brotli>=1.2; extra == "woff" (for fonttools[woff]) has no pin']
    >>> unmet([Requirement("weasyprint")],
    ...       {"weasyprint": V("70"), "fonttools": V("4.5"), "brotli": V("1")}, needs)
    ['fonttools[woff]>=4.59 (for weasyprint) is pinned as 4.5',
     'brotli>=1.2; extra == "woff" (for fonttools[woff]) is pinned as 1']
    >>> unmet([], {"brotli": V("1")}, needs)
    ['brotli is pinned, but nothing asks for it']
    """
    problems: list[str] = []
    asked: dict[str, set[str]] = {}  # the extras of each package whose requirements were followed
    todo = [(requirement, "pyproject.toml") for requirement in roots]
    while todo:
        requirement, by = todo.pop(0)
        name = canonicalize_name(requirement.name)
        if name not in pinned:
            problems.append(f"{requirement} (for {by}) has no pin")
            continue
        if not requirement.specifier.contains(pinned[name], prereleases=True):
            problems.append(f"{requirement} (for {by}) is pinned as {pinned[name]}")
        extras = {canonicalize_name(extra) for extra in requirement.extras}
        new = ({""} | extras) - asked.setdefault(name, set())
        asked[name] |= new
        label = f"{name}[{','.join(sorted(extras))}]" if extras else name
        todo += [(needed, label) for extra in sorted(new) for needed in requires.get(name, [])
                 if holds(needed, extra)]
    problems += [f"{name} is pinned, but nothing asks for it"
                 for name in sorted(set(pinned) - set(asked))]
    return problems


def installed_requirements() -> Requires:
    """Every installed package's requirements, from its own metadata."""
    return {canonicalize_name(dist.metadata["Name"]):
            [Requirement(line) for line in dist.requires or []]
            for dist in importlib.metadata.distributions()}


LOCK = (ROOT / "requirements.lock").read_text(encoding="utf-8")


def test_this_venv_holds_exactly_the_locked_releases() -> None:
    _run, everything = lock_parts(LOCK)
    installed = {canonicalize_name(dist.metadata["Name"]): Version(dist.version)
                 for dist in importlib.metadata.distributions()}
    installed.pop("scorekeeper")
    assert installed == everything


def test_the_apps_part_of_the_lock_meets_every_requirement_of_the_app_on_its_own() -> None:
    run, _everything = lock_parts(LOCK)
    assert unmet(project_roots(), run, installed_requirements()) == []


def test_the_whole_lock_meets_every_requirement_of_the_app_and_its_test_tools() -> None:
    _run, everything = lock_parts(LOCK)
    assert unmet(project_roots(["test"]), everything, installed_requirements()) == []


@pytest.mark.parametrize(("package", "why"), [
    pytest.param("brotli", "fonttools[woff]", id="asked for through an extra only"),
    pytest.param("psycopg-binary", "psycopg[binary]", id="an extra of pyproject.toml"),
    pytest.param("pydyf", "weasyprint", id="a plain requirement"),
    pytest.param("packaging", "wheel", id="the build backend's"),
])
def test_a_lock_missing_one_pin_is_caught_and_the_pin_named(package: str, why: str) -> None:
    broken = LOCK.replace(blocks(LOCK)[package], "")
    run, _everything = lock_parts(broken)
    problems = unmet(project_roots(), run, installed_requirements())
    assert problems and all(problem.startswith(package) for problem in problems), problems
    assert any(f"(for {why})" in problem for problem in problems), problems


def test_a_package_that_only_the_test_tools_pin_does_not_count_for_the_app() -> None:
    run, everything = lock_parts(LOCK)
    block = blocks(LOCK)["packaging"]
    moved = LOCK.replace(block, "").replace(TEST_MARK + "\n", TEST_MARK + "\n" + block)
    run, everything = lock_parts(moved)
    assert "packaging" in everything and "packaging" not in run
    assert [problem for problem in unmet(project_roots(), run, installed_requirements())
            if problem.startswith("packaging")]
