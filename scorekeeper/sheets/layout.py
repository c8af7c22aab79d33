"""A sheet's page: the papers and orientations, the height of its rows and of its footer, and
whether it fits one page.
"""

from __future__ import annotations

import unicodedata
from typing import NamedTuple

from ..rules.words import _

PAPERS = ("a4", "letter")
ORIENTATIONS = ("portrait", "landscape")


class SheetError(ValueError):
    """A sheet option that can't be printed, such as an unknown paper size."""


#: Row heights (mm) the stylesheet offers, roomiest first; see layout().
ROW_HEIGHTS = (8.0, 7.0, 6.0, 5.2, 4.6, 4.2)
#: Row height of a sheet too long for one page: room to write in, over as many pages as it takes.
LONG_ROWS = 6.0
#: Pages a sheet of LONG_ROWS and its footer may take before it is printed long (see layout()).
NORMAL_PAGES = 2
#: Row height of a long filled sheet: a record to read, not a form to write on.
COMPACT_ROWS = 3.0
#: A long filled sheet is set in DejaVu Sans Mono, every character of it 1233/2048 em wide.
MONO_EM = 1233 / 2048
#: Its type size (pt): the largest that fits the page's width, at most the first; below the
#: second a portrait sheet turns to landscape (unless portrait is asked for).
MONO_PT = (6.5, 5.0)
#: What a page's width loses to its side margins and the score table's outer borders (mm), as
#: sheet.css draws them.
PT_MM = 25.4 / 72
SIDE_MM = 2 * 9 + 2 * 1.2 * PT_MM
#: Characters a line of text in that font may carry, each one character wide: the Latin, Greek
#: and Cyrillic letters DejaVu Sans Mono has all of, and the ellipsis of a shortened name. A
#: dealer's name of other characters (wider, or set in another font) would push the line out of
#: its columns: the dealer's seat is printed instead.
MONO_CHARS = frozenset(
    chr(c) for a, b in ((0x20, 0x7E), (0xA0, 0x17F), (0x386, 0x3CE), (0x400, 0x45F),
                        (0x2026, 0x2026))
    for c in range(a, b + 1) if unicodedata.category(chr(c)) != "Cn"
)
#: The fewest characters inside a player's column of a long filled sheet, cooperative or scored:
#: room for its heading, "Bid/took" or "Bid/took Total" in condensed type (see sheet.css).
GRID_HEADING = (6, 10)
#: Adjustments listed in the results box; more get a block of their own, in columns.
BOXED_ADJUSTMENTS = 6
#: Paper sizes in mm (short side, long side).
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
#: What a page holds besides the deal rows (mm): margins, title line, column heads, gaps.
FRAME_MM = 9 + 11 + 8.5 + 12 + 3 + 2


def footer_mm(players: int, filled: bool, summary_lines: int, landscape: bool) -> float:
    """A generous estimate of the footer's height in mm: rules box, standings, chart.

    Landscape puts it all side by side; portrait stacks the standings under rules and chart.

    >>> footer_mm(4, False, 6, False), footer_mm(8, True, 7, True), footer_mm(4, True, 7, False)
    (27.0, 42.0, 73.2)
    """
    rules = max(27.0, 6 + 3.4 * summary_lines)
    if not filled:
        return rules
    standings = 15 + 3.3 * players
    return max(rules, standings, 42.0) if landscape else max(rules, 45.0) + max(standings, 28.0)


class Layout(NamedTuple):
    """How a sheet sits on its paper (see layout())."""

    landscape: bool
    row_height: float  # mm
    one_page: bool  # meant to fit one page
    long: bool  # more rows than NORMAL_PAGES pages hold: printed a line per deal


def layout(paper: str, orientation: str | None, players: int, rows: int, *, filled: bool = False,
           summary_lines: int = 6) -> Layout:
    """Landscape from 6 players on; the roomiest rows that keep the sheet on one page, if any.

    A sheet that would take more than NORMAL_PAGES pages is long: a blank one keeps its rows
    to write in, a filled one is a record to read and gets small rows on portrait paper (unless
    landscape is asked for, or filled_sheet() finds its lines too wide), so that the longest
    game takes a few pages.

    >>> layout("a4", None, 4, 19)
    Layout(landscape=False, row_height=8.0, one_page=True, long=False)
    >>> tuple(layout("a4", None, 8, 25, filled=True, summary_lines=7))
    (True, 4.6, True, False)
    >>> tuple(layout("letter", "portrait", 4, 60)), tuple(layout("a4", None, 10, 203))
    ((False, 6.0, False, False), (True, 6.0, False, True))
    >>> layout("a4", None, 10, 300, filled=True)
    Layout(landscape=False, row_height=3.0, one_page=False, long=True)
    """
    if paper not in PAPERS:
        raise SheetError(_("Unknown paper size %(paper)s; use one of: %(papers)s.",
                           paper=repr(paper), papers=", ".join(PAPERS)))
    if orientation is not None and orientation not in ORIENTATIONS:
        raise SheetError(_("Unknown orientation %(orientation)s; "
                           "use %(portrait)s or %(landscape)s.", orientation=repr(orientation),
                           portrait="portrait", landscape="landscape"))
    landscape = players > 5 if orientation is None else orientation == "landscape"
    height = PAPER_MM[paper][0 if landscape else 1]
    room = height - FRAME_MM - footer_mm(players, filled, summary_lines, landscape)
    fitting = [h for h in ROW_HEIGHTS if h * max(rows, 1) <= room]
    if fitting:
        return Layout(landscape, fitting[0], True, False)
    long = rows * LONG_ROWS > room + (NORMAL_PAGES - 1) * (height - FRAME_MM)
    if long and filled:
        return Layout(orientation == "landscape", COMPACT_ROWS, False, True)
    return Layout(landscape, LONG_ROWS, False, long)
