"""Results printed as a listing: columns of monospaced text aligned with spaces, one line of text
for each line of the sheet. A PDF draws a line of text many times faster than the cells of a table,
which a club night of 400 players and 20 rounds needs; and the lines are set in as many columns
side by side, and in as large a type, as the page's width allows.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..rules.ranking import Line, TableResult

#: The advance of a character of DejaVu Sans Mono (the listing's font), in ems.
ADVANCE = 1233 / 2048
#: The width of a listing's lines, in points: A4 paper within margins of 12 mm.
LINE = (210 - 2 * 12) / 25.4 * 72
#: The largest type of a listing, in points, and the smallest one shrinks to.
LARGEST, SMALLEST = 8.0, 5.0
#: The most lines of one column of the standings: 100 players fit one page in two columns.
COLUMN = 50
#: What separates two columns of a listing.
GAP = "   "
#: The type size of the rounds' tables, in points.
ROUNDS = 7.0


def width(text: str) -> int:
    """How many of the font's character cells a text takes: two for a wide character (Chinese,
    Japanese, Korean), none for a combining mark.

    >>> [width(t) for t in ("Ann", "Zoë", "Zoe\\u0308", "王芳")]
    [3, 3, 3, 4]
    """
    if text.isascii():
        return len(text)
    return sum(0 if unicodedata.combining(c)
               else 2 if unicodedata.east_asian_width(c) in "WF" else 1
               for c in text)


def fit(text: str, cells: int, right: bool = False) -> str:
    """A text padded with spaces to ``cells`` cells, on the left when ``right`` (numbers)."""
    pad = " " * max(0, cells - width(text))
    return pad + text if right else text + pad


def size(cells: int) -> float:
    """The type size (points) at which a line of ``cells`` characters fills the width at most.

    >>> size(80), size(200)
    (8.0, 5.0)
    """
    return round(max(SMALLEST, min(LARGEST, LINE / (cells * ADVANCE))), 2)


@dataclass(frozen=True)
class Block:
    """Lines of a listing set together: a heading line (in bold) and its lines, in one type size;
    ``page``: the block begins a page."""

    head: str
    lines: tuple[str, ...]
    size: float
    page: bool = False


def table(header: Sequence[str], rows: Sequence[Sequence[str]], left: int) -> list[Block]:
    """Rows as aligned columns (column ``left`` to the left, the others to the right), the heading
    above; at most ``COLUMN`` lines in a column, two columns side by side, a page of them each.

    >>> [b.lines for b in table(["#", "Player"], [["1", "Ann"], ["2", "Bob"]], 1)]
    [('1 Ann', '2 Bob')]
    """
    widths = [max([width(h), *(width(row[i]) for row in rows)]) for i, h in enumerate(header)]

    def line(cells: Sequence[str]) -> str:
        return " ".join(fit(text, widths[i], right=i != left) for i, text in enumerate(cells))

    head, lines = line(header), [line(row) for row in rows]
    if len(lines) <= COLUMN:
        return [Block(head.rstrip(), tuple(s.rstrip() for s in lines), size(width(head)))]
    blocks = []
    for start in range(0, len(lines), 2 * COLUMN):
        page = lines[start:start + 2 * COLUMN]
        half = (len(page) + 1) // 2
        both = [page[i] + (GAP + page[half + i] if half + i < len(page) else "")
                for i in range(half)]
        blocks.append(Block(head + GAP + head, tuple(s.rstrip() for s in both),
                            size(2 * width(head) + len(GAP)), page=start > 0))
    return blocks


def groups(labels: Sequence[str], cells: Sequence[Sequence[tuple[str, str, str]]],
           type_size: float) -> tuple[str, ...]:
    """Each label's line with its cells (a place, a name, a total) aligned across all the lines, as
    many on a line as fit at ``type_size``; the rest go on the next lines, under the first cell.

    >>> groups(["Table 1", "Table 2"],
    ...        [[("1", "Ann", "11"), ("2", "Bob", "-3")], [("1", "Cy", "4")]], 8)
    ('Table 1  1 Ann 11  2 Bob -3', 'Table 2  1 Cy   4')
    """
    found = [cell for group in cells for cell in group]
    places, names, totals = (max((width(cell[i]) for cell in found), default=0) for i in range(3))
    label = max((width(text) for text in labels), default=0)
    room = int(LINE / (type_size * ADVANCE))
    cell = places + names + totals + 2
    many = max(1, (room - label) // (cell + 2))
    lines = []
    for text, group in zip(labels, cells):
        shown = [f"{fit(p, places, True)} {fit(n, names)} {fit(t, totals, True)}"
                 for p, n, t in group]
        for start in range(0, max(1, len(shown)), many):
            lines.append(("  ".join([fit(text if start == 0 else "", label),
                                     *shown[start:start + many]])).rstrip())
    return tuple(lines)


def standings(header: Sequence[str], lines: Sequence[Line],
              shown: Callable[[Fraction | int], str]) -> list[Block]:
    """The standings as a listing: rank, name, score, tables won, bids made of deals, points (the
    numbers but the rank as ``shown`` writes them)."""
    return table(header, [[str(line.rank), line.name, shown(line.score), shown(line.tables_won),
                           f"{shown(line.made)}/{shown(line.deals)}", shown(line.totals)]
                          for line in lines], left=1)


def round_tables(labels: Sequence[str], tables: Sequence[tuple[TableResult | None, Sequence[str]]],
                 shown: Callable[[Fraction], str]) -> tuple[str, ...]:
    """A round's tables as lines: each table's label, then its players by place with their final
    totals (as ``shown`` writes them); the players alone of a table without a result."""
    cells = [sorted((str(place), name, shown(total)) for place, name, total
                    in zip(result.places, result.players, result.totals)) if result is not None
             else [("", name, "") for name in players] for result, players in tables]
    return groups(labels, cells, ROUNDS)
