"""The docs stand on their own (docs/spec/README.md): every citation of the specification in the
code, the tests and the docs finds its section inside the repository, and every link of the docs
leads to a file and a heading that exist."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: What each name the code gives the specification means: the file of this repository to read.
#: docs/spec/README.md says the same in words; test_the_index_names_every_file keeps them alike.
SPEC = {
    "RULES.md": "docs/spec/rules.md",
    "GAME-FILE.md": "docs/spec/game-file.md",
    "GROUPS.md": "docs/spec/groups.md",
    "EVENTS.md": "docs/spec/events.md",
    "SEATS.md": "docs/spec/seats.md",
    "ARCHITECTURE.md": "docs/architecture.md",
}
#: A "§7" with no file name before it is a section of the rules: only they are numbered.
NUMBERED = "RULES.md"
INDEX = ROOT / "docs" / "spec" / "README.md"

#: The files read for citations: the project's own text, not what it installs or vendors.
SUFFIXES = {".py", ".md", ".js", ".html", ".css", ".txt", ".toml", ".cfg", ".ini", ".sh", ".yml",
            ".yaml", ".po"}
NAMES = {"Makefile"}
SKIPPED_DIRS = {".git", ".venv", "venv", "node_modules", "vendor", "__pycache__", "instance",
                ".hypothesis", ".pytest_cache", ".ruff_cache", ".mypy_cache", "build", "dist"}
#: This file, whose examples of broken citations below must stay broken.
SELF = Path(__file__).resolve()

_NAME = "|".join(re.escape(name.removesuffix(".md")) for name in SPEC)
_CITED = rf"(?<![\w/.-])(?P<name>{_NAME})\.md"  # a name of SPEC, not the tail of a path
_GAP = r"[ \t\n]"
_QUOTED = r'"[^"]{1,120}"|“[^”]{1,120}”|\'[^\'\n]{1,120}\''
_DOUBLE_QUOTED = r'"(?P<quoted>[^"]{1,120})"|“(?P<curly>[^”]{1,120})”'
#: A line break with what continues a comment or a docstring on the next line: the indentation,
#: and "#", "#:", "//" or a lone "*". Taken out, so a citation wrapped over two lines reads whole.
_CONTINUED = re.compile(r"\n[ \t]*(?:(?:#:?|//|\*)(?![*/])[ \t]*)?")
#: RULES.md §7; RULES.md §1, §2, §5; RULES.md §3/§5.
_NUMBERS = re.compile(rf"{_CITED},?\s*(?P<list>§\d+(?:\s*(?:,|/|and|&)\s*§\d+)*)")
_NUMBER = re.compile(r"§(?P<number>\d+)")
#: §7 "Who deals"; RULES.md §5: "ended".
_NUMBER_QUOTE = re.compile(rf"§(?P<number>\d+)[:,]?{_GAP}*(?:{_DOUBLE_QUOTED})")
#: EVENTS.md, "Ranking"; EVENTS.md "Limits" and "Who may do what"; docs/hosting.md, "Costly…".
_NAMED = re.compile(rf"(?<![\w/.-])(?P<name>(?:{_NAME})\.md|docs/[\w/.-]+\.md)(?:,{_GAP}*|{_GAP}+)"
                    rf"(?P<list>(?:(?:{_QUOTED})(?:{_GAP}*(?:,|;|and|or){_GAP}*)?)+)")
#: EVENTS.md: "words of it".
_QUOTE = re.compile(rf"{_CITED}:{_GAP}*(?:{_DOUBLE_QUOTED})")
#: GAME-FILE.md deals:, RULES.md notation: (a field or a heading).
_FIELD = re.compile(rf"{_CITED}{_GAP}+(?P<word>[a-z_]+)(?P<colon>:?)")
_ANY_NAME = re.compile(r"(?<![\w/.-])([A-Z][A-Z0-9_-]*[A-Z0-9])\.md\b")
_DOC_PATH = re.compile(r"(?<![\w/.-])(docs/[\w/.-]*\w\.md)\b")
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$")


@dataclass(frozen=True)
class Heading:
    level: int
    text: str  # as written: "7. Changes at the table"
    title: str  # without its number: "Changes at the table"
    number: str | None  # "7" for "## 7. Changes at the table"
    body: str  # the section's text, its subsections included


def folded(text: str) -> str:
    """Text as a citation and a heading are compared: quotes straightened, markup and case dropped,
    white space made single, the trailing stop dropped."""
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    text = re.sub(r"[`*_]", "", text)
    return " ".join(text.split()).lower().rstrip(".:")


def slug(title: str) -> str:
    """The anchor a Markdown heading gets, as GitHub makes it."""
    text = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return text.replace(" ", "-")


@cache
def headings(path: Path) -> tuple[Heading, ...]:
    """The headings of a Markdown file (not those inside a fenced block), each with its section."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[tuple[int, int, str]] = []
    fenced = False
    for index, line in enumerate(lines):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and (match := _HEADING.match(line)):
            found.append((index, len(match.group(1)), match.group(2)))
    result = []
    for at, (index, level, title) in enumerate(found):
        end = next((other for other, deeper, _ in found[at + 1:] if deeper <= level), len(lines))
        number = re.match(r"(\d+)\.\s", title)
        result.append(Heading(level, title, re.sub(r"^\d+\.\s+", "", title),
                              number and number.group(1), "\n".join(lines[index:end])))
    return tuple(result)


def anchors(path: Path) -> set[str]:
    """Every anchor a file's headings give; a repeated heading's get -1, -2… as on GitHub."""
    found: set[str] = set()
    counts: dict[str, int] = {}
    for heading in headings(path):
        base = slug(heading.text)
        found.add(f"{base}-{counts[base]}" if base in counts else base)
        counts[base] = counts.get(base, 0) + 1
    return found


def spec_file(name: str) -> Path:
    return ROOT / SPEC[name]


Found = Iterator[tuple[int, str]]  # where in the text, and what is wrong


def unknown_names(text: str, named: dict[int, str]) -> Found:
    for match in _ANY_NAME.finditer(text):
        name = f"{match.group(1)}.md"
        if name not in SPEC and not (ROOT / name).is_file():
            yield match.start(), f"{name} is no file of the repository, nor a name in SPEC"


def section_numbers(text: str, named: dict[int, str]) -> Found:
    for match in _NUMBER.finditer(text):
        name, number = named.get(match.start(), NUMBERED), match.group("number")
        if not any(h.number == number for h in headings(spec_file(name))):
            yield match.start(), f"{name} §{number}: {SPEC[name]} has no section {number}"


def section_quotes(text: str, named: dict[int, str]) -> Found:
    for match in _NUMBER_QUOTE.finditer(text):
        name, number = named.get(match.start(), NUMBERED), match.group("number")
        quoted = match.group("quoted") or match.group("curly")
        sections = [h for h in headings(spec_file(name)) if h.number == number]
        if sections and not any(folded(quoted) in folded(h.body) for h in sections):
            yield match.start(), f'{name} §{number} "{quoted}": not in that section of {SPEC[name]}'


def section_names(text: str, named: dict[int, str]) -> Found:
    for match in _NAMED.finditer(text):
        name = match.group("name")
        path = spec_file(name) if name in SPEC else ROOT / name
        if path.is_file():  # else doc_paths says so
            titles = {folded(h.title) for h in headings(path)}
            for quoted in re.findall(_QUOTED, match.group("list")):
                if folded(quoted[1:-1]) not in titles:
                    yield match.start(), f"{name}, {quoted}: no heading of {SPEC.get(name, name)}"


def quotations(text: str, named: dict[int, str]) -> Found:
    for match in _QUOTE.finditer(text):
        name = f"{match.group('name')}.md"
        quoted = match.group("quoted") or match.group("curly")
        if folded(quoted) not in folded(spec_file(name).read_text(encoding="utf-8")):
            yield match.start(), f'{name}: "{quoted}" is not in {SPEC[name]}'


def fields(text: str, named: dict[int, str]) -> Found:
    """A word and a colon after a name, or any word after GAME-FILE.md (its fields are cited so):
    a heading's word or a field (in backticks or quotes) of that file."""
    for match in _FIELD.finditer(text):
        name, word = f"{match.group('name')}.md", match.group("word")
        if match.group("colon") or name == "GAME-FILE.md":
            page = spec_file(name)
            words = {w for h in headings(page) for w in re.findall(r"\w+", folded(h.title))}
            words |= set(re.findall(r'[`"](\w+)[`"]', page.read_text(encoding="utf-8")))
            if word not in words:
                yield match.start(), f"{name} {word}: no field or heading of {SPEC[name]}"


def doc_paths(text: str, named: dict[int, str]) -> Found:
    for match in _DOC_PATH.finditer(text):
        if not (ROOT / match.group(1)).is_file():
            yield match.start(), f"{match.group(1)} is no file of the repository"


CHECKS = (unknown_names, section_numbers, section_quotes, section_names, quotations, fields,
          doc_paths)


def unresolved_in(text: str, where: str = "text") -> list[str]:
    """Every citation of ``text`` that doesn't find its section, as "where:line: what"."""
    text = _CONTINUED.sub("\n", text)
    named: dict[int, str] = {}  # where a § number follows a name of SPEC: that name
    for match in _NUMBERS.finditer(text):
        for number in _NUMBER.finditer(match.group("list")):
            named[match.start("list") + number.start()] = f"{match.group('name')}.md"
    return [f"{where}:{text.count(chr(10), 0, at) + 1}: {' '.join(why.split())}"
            for check in CHECKS for at, why in check(text, named)]


def project_files() -> list[Path]:
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.endswith(".egg-info"))
        for file in sorted(files):
            path = Path(folder) / file
            if (path.suffix in SUFFIXES or file in NAMES) and path != SELF:
                found.append(path)
    return found


def test_every_file_of_the_map_is_in_the_repository() -> None:
    missing = [f"{name} → {path}" for name, path in SPEC.items() if not (ROOT / path).is_file()]
    assert not missing, f"the specification names files that are not there: {missing}"


def test_the_index_names_every_file() -> None:
    """docs/spec/README.md tells a reader what the code's names mean, the same map as SPEC."""
    index = INDEX.read_text(encoding="utf-8")
    for name, path in SPEC.items():
        link = os.path.relpath(ROOT / path, INDEX.parent)
        assert any(f"`{name}`" in row and f"]({link})" in row for row in index.splitlines()), (
            f"docs/spec/README.md has no row that says {name} means {path}")


def test_the_readme_leads_to_the_specification() -> None:
    assert "](docs/spec/README.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_each_numbered_section_is_there_once() -> None:
    for path in SPEC.values():
        numbers = [h.number for h in headings(ROOT / path) if h.number]
        assert len(numbers) == len(set(numbers)), f"{path} numbers a section twice: {numbers}"


def test_every_citation_finds_its_section() -> None:
    """RULES.md §7, EVENTS.md, "Ending a table early", GAME-FILE.md deals: and the like, wherever
    the code, the tests or the docs give them, each lead to a section of the repository's docs."""
    problems = [problem for path in project_files()
                for problem in unresolved_in(path.read_text(encoding="utf-8", errors="replace"),
                                             str(path.relative_to(ROOT)))]
    assert not problems, "citations that lead nowhere:\n" + "\n".join(problems)


@pytest.mark.parametrize("text", [
    "RULES.md §9 is not a section",
    "see §0",
    "RULES.md §5 / EVENTS.md §2",
    '§7 "Who shuffles": not part of section 7',
    'EVENTS.md, "Who brings the snacks"',
    "(EVENTS.md,\n    # \"Ending a table\n    # late\")",
    'EVENTS.md, "Ranking" and "Prizes"',
    "docs/hosting.md, 'No such heading'",
    'EVENTS.md: "the director can delete the night"',
    "GAME-FILE.md colour: a field the game file does not have",
    "GAME-FILE.md jokers",
    "RULES.md glossary: no such heading",
    "TABLES.md says so",
    "docs/nowhere.md",
])
def test_a_citation_that_leads_nowhere_is_found(text: str) -> None:
    assert unresolved_in(text)


@pytest.mark.parametrize("text", [
    "RULES.md §1, §2, §5 and §3/§7",
    '§7 "Who deals": the first dealer',
    'RULES.md §2: "Dee deals and can\'t bid 3: the bids would add up to the 7 tricks (hook)"',
    "(EVENTS.md,\n    # \"Ending a table\n    # early\")",
    'EVENTS.md, "Who plays a round" and "Coming back"',
    "EVENTS.md, 'Who sits where', rule 3",
    "docs/hosting.md, \"Costly requests\"",
    "GAME-FILE.md deals: a prefix of bids; GAME-FILE.md settlement; GAME-FILE.md example",
    "RULES.md notation: N = 52·D; RULES.md says so",
])
def test_a_citation_that_resolves_passes(text: str) -> None:
    assert unresolved_in(text) == []


def test_every_link_of_the_docs_leads_somewhere() -> None:
    """README.md and docs/: each relative link names a file that exists, and a heading of it."""
    problems = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        for match in _LINK.finditer(page.read_text(encoding="utf-8")):
            target = match.group(1)
            if re.match(r"[a-z][a-z0-9+.-]*:", target):
                continue  # another site
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            if not linked.exists():
                problems.append(f"{page.relative_to(ROOT)}: {target}: no such file")
            elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                problems.append(f"{page.relative_to(ROOT)}: {target}: no such heading")
    assert not problems, "links that lead nowhere:\n" + "\n".join(problems)
