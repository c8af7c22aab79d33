"""The score sheet as data: its rows, cells, rules summary and results, all asked of the rules core.

Nothing here knows HTML or PDF (pdf.py renders a Sheet); nothing here scores a deal: points,
totals, leaders, forbidden bids and settlements come from scorekeeper.rules.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from fractions import Fraction
from typing import Any

from markupsafe import Markup

from ..play.board import is_redeal, joined_after
from ..play.chart import running_totals_svg, shorten
from ..play.summary import rules_summary
from ..play.wording import points, suit_sign, written
from ..rules.bidding import bid_check
from ..rules.game import replay
from ..rules.gamefile import GameFile
from ..rules.presets import Rules
from ..rules.schedule import Deal, fixed_trump, seat_after
from ..rules.stakes import Stakes
from ..rules.state import DealResult, standings
from ..rules.variants import PRESETS
from ..rules.words import N_, _
from .layout import (
    BOXED_ADJUSTMENTS,
    GRID_HEADING,
    MONO_CHARS,
    MONO_EM,
    MONO_PT,
    PAPER_MM,
    PT_MM,
    ROW_HEIGHTS,
    SIDE_MM,
    layout,
)
from .results import Results, results

#: Rows printed for an open pattern (fixed, manual) that sets no number of deals.
OPEN_ROWS = 20
#: Spare rows on a blank sheet: tie-break one-card deals, re-deals of a cooperative game.
SPARE_TIEBREAKS = 3
SPARE_REDEALS = 6
#: The dealer column's width in characters (the full names head the player columns).
DEALER_CHARS = 9
#: Bidding rules that restrict the dealer, and what the sheet's dealer column is headed.
DEALER_RULES = {"hook": N_("can't bid"), "dealer-must-exceed": N_("can't bid"),
                "must-equal": N_("must bid")}

@dataclass(frozen=True)
class Entry:
    """One player's four cells in one row of the sheet."""

    bid: str = ""
    took: str = ""
    score: str = ""
    total: str = ""
    missed: bool = False
    leader: bool = False
    adjusted: bool = False

    @property
    def marked_total(self) -> str:
        """The total with its marks: ★ leading, † adjusted at this deal.

        >>> Entry(total="31", leader=True, adjusted=True).marked_total
        '★31†'
        """
        return ("★" if self.leader else "") + self.total + ("†" if self.adjusted else "")


#: A player's cells in a deal they are not dealt in (RULES.md §7): a dash, the total carried over.
AWAY = Entry("–", "–", "–")


@dataclass(frozen=True)
class Row:
    """One deal: ``hook`` is None where the dealer bids freely, "" for the scorer to fill in."""

    number: int
    cards: str
    dealer_seat: int
    dealer: str  # the dealer's name, shortened
    trump: str
    hook: str | None
    entries: tuple[Entry, ...]
    mark: str = ""  # "T" a tie-break deal, "↻" the deal before dealt again (cooperative)

    @property
    def label(self) -> str:
        """The deal's number with its mark, as one line of a long sheet prints it."""
        return f"{self.number}{self.mark}"

    @property
    def restriction(self) -> str:
        """The dealer cell's text on a long sheet: "free" where the dealer bids freely."""
        return _("free") if self.hook is None else self.hook


@dataclass(frozen=True)
class Grid:
    """A long filled sheet's rows as lines of monospace text, one per deal, aligned by characters.

    A line holds the deal's own columns (``lead`` characters), then ``column`` characters for
    each player, the first of them a space that the rule before the player is drawn down.
    """

    font_pt: float  # the type size that makes a line fit the page's width
    lead: int
    column: int
    names: tuple[str, ...]  # shortened to fit their columns
    labels: str  # the heading line under the names
    lines: tuple[str, ...]  # one per row of the sheet

    @property
    def width(self) -> int:
        """Characters in a line."""
        return self.lead + self.column * len(self.names)

    @property
    def rules(self) -> tuple[int, ...]:
        """Where the rule before each player's column is drawn, in characters from the left."""
        return tuple(self.lead + self.column * seat for seat in range(len(self.names)))


@dataclass(frozen=True)
class Sheet:
    """Everything the template prints; ``results`` and ``chart`` are None on a blank sheet."""

    title: str
    paper: str
    landscape: bool
    row_height: float
    one_page: bool  # whether layout() meant the sheet to fit on one page
    players: tuple[str, ...]  # "" for a seat whose name is written in by hand
    rows: tuple[Row, ...]
    hook_label: str | None  # None: no deal restricts the dealer, so no dealer column
    scored: bool  # False for cooperative play: only bids and tricks
    summary: tuple[tuple[str, str], ...]
    date: str = ""
    results: Results | None = None
    chart: Markup | None = None
    long: bool = False  # printed a line per deal: blank in a cell per column, filled as ``grid``
    grid: Grid | None = None  # a long filled sheet's rows as monospace text

    @property
    def filled(self) -> bool:
        """Whether the sheet shows a game that was played."""
        return self.results is not None

    @property
    def boxed_adjustments(self) -> bool:
        """Whether the adjustments fit the results box, rather than a block of their own."""
        return self.results is None or len(self.results.adjustments) <= BOXED_ADJUSTMENTS

    def tighter(self) -> Sheet | None:
        """The same one-page sheet with the next smaller rows, if it has any left to give."""
        smaller = [h for h in ROW_HEIGHTS if h < self.row_height]
        return replace(self, row_height=smaller[0]) if self.one_page and smaller else None


def _hook_cell(rules: Rules, cards: int | None) -> str | None:
    """A blank dealer cell where the rule restricts this deal's dealer, None where it doesn't."""
    rule = rules.bidding.rule if cards is None else rules.bidding.rule_for(cards)
    return "" if rule in DEALER_RULES and not rules.bidding.simultaneous else None


def _dealer_bids(rules: Rules, result: DealResult, players: int) -> str | None:
    """What the dealer could not bid (or had to bid) given the others' bids, as the core says."""
    deal, cards = result.deal, result.deal.cards or 0
    if _hook_cell(rules, cards) is None:
        return None
    earlier = [result.bids[seat] for seat in deal.bidding_order(players)[:-1]]
    if any(bid is None for bid in earlier):
        return ""
    check = bid_check(rules.bidding, cards, [bid or 0 for bid in earlier], dealer=True)
    if rules.bidding.rule_for(cards) == "must-equal":
        return " ".join(str(bid) for bid in check.allowed)
    banned = [bid for bid in range(cards + 1) if bid not in check.allowed]
    if not banned:
        return "–"
    if len(banned) > 2 and banned == list(range(banned[0], banned[-1] + 1)):
        return f"{banned[0]}–{banned[-1]}"
    return " ".join(str(bid) for bid in banned)


def _row(deal: Deal, seats: Sequence[str], entries: tuple[Entry, ...], hook: str | None,
         mark: str = "", trump: str | None = None) -> Row:
    """A row of the sheet; ``trump`` is the recorded one, else the one the rules fix (if any)."""
    dealer = shorten(seats[deal.dealer], DEALER_CHARS) or str(deal.dealer + 1)
    cards = "" if deal.cards is None else str(deal.cards)
    return Row(deal.number, cards, deal.dealer, dealer, suit_sign(trump or deal.trump or ""), hook,
               entries, mark)


def _aligned(values: Sequence[str], widths: Sequence[int], right: Sequence[bool]) -> str:
    """Values padded to their widths, a space apart and around."""
    cells = (v.rjust(w) if r else v.ljust(w) for v, w, r in zip(values, widths, right))
    return " " + " ".join(cells) + " "


def text_grid(rows: Sequence[Row], players: Sequence[str], hook_label: str | None, scored: bool,
              width_mm: float) -> Grid:
    """The rows as lines of monospace text, in the largest type that fits ``width_mm``.

    Each column is as wide as its widest value or heading; type of MONO_PT[0] can leave width
    to spare, which widens the players' columns.

    >>> rows = [Row(9, "5", 0, "Ann", "", "free", (Entry("2", "3", total="31", missed=True),
    ...                                           Entry("1", "1", total="−4", leader=True)))]
    >>> grid = text_grid(rows, ("Ann", "Bob"), "can't bid", True, 60)
    >>> grid.font_pt, grid.lead, grid.column, grid.rules
    (5.64, 26, 12, (26, 38))
    >>> print(grid.labels, grid.lines[0], sep="\\n")
     # Cards Dealer can't bid
     9     5 Ann    free       2/3✗    31  1/1   ★−4
    """
    dealers = [row.dealer if set(row.dealer) <= MONO_CHARS
               else _("seat %(seat)s", seat=row.dealer_seat + 1)
               for row in rows]
    fields = [(_("#"), [row.label for row in rows], True),
              (_("Cards"), [row.cards for row in rows], True), (_("Dealer"), dealers, False)]
    if any(row.trump for row in rows):
        fields.append((_("Trump"), [row.trump for row in rows], False))
    if hook_label is not None:
        fields.append((hook_label, [row.restriction for row in rows], False))
    headings, columns, right = zip(*fields)
    widths = [max([len(heading), *map(len, values)]) for heading, values in zip(headings, columns)]
    entries = [entry for row in rows for entry in row.entries]
    bid = max(len(e.bid) for e in entries)
    took = max(len(e.took) for e in entries)
    missed = any(e.missed for e in entries)
    adjusted = any(e.adjusted for e in entries)
    tally = bid + (took + 1 if took else 0) + missed
    total = max(len(e.total) + e.leader for e in entries) + adjusted
    inner = max(tally + 1 + total if scored else tally, GRID_HEADING[scored])
    lead = 1 + sum(w + 1 for w in widths)
    chars = lead + len(players) * (inner + 2)
    font = min(MONO_PT[0], math.floor(100 * width_mm / (chars * MONO_EM * PT_MM)) / 100)
    spare = max(0, int(width_mm / (font * MONO_EM * PT_MM)) - chars)
    inner += spare // len(players)
    # The dealer's column takes the rest: the lines fill the width
    widths[2] += spare % len(players)

    def cell(entry: Entry) -> str:
        text = (entry.bid.rjust(bid)
                + ("/" + entry.took if entry.took else "").ljust(took + 1 if took else 0)
                + ("✗" if entry.missed else " " * missed))
        if scored:
            marked = (("★" if entry.leader else "") + entry.total
                      + ("†" if entry.adjusted else " " * adjusted))
            text += marked.rjust(inner - len(text))
        return f" {text:{inner}} "

    lines = tuple(_aligned(values, widths, right) + "".join(cell(entry) for entry in row.entries)
                  for row, values in zip(rows, zip(*columns)))
    return Grid(font, lead + spare % len(players), inner + 2,
                tuple(shorten(name, inner) for name in players), _aligned(headings, widths, right),
                lines)


def _grid(rows: Sequence[Row], names: Sequence[str], frame: dict[str, Any]) -> Grid:
    """The rows as text on the page that _frame() chose."""
    width = PAPER_MM[frame["paper"]][1 if frame["landscape"] else 0] - SIDE_MM
    return text_grid(rows, names, frame["hook_label"], frame["scored"], width)


def _mark(game: GameFile, deal: Deal, tiebreak: bool) -> str:
    # The mark of a tie-break deal: the letter the rules box explains "(T)" with.
    return _("T") if tiebreak else "↻" if is_redeal(game, deal) else ""


def _spare(rules: Rules, first_dealer: int, index: int, cards: int | None) -> Deal:
    """The deal at 0-based ``index`` beyond the schedule (a tie-break or re-deal)."""
    dealer = seat_after(first_dealer, rules.players, index)
    trump = fixed_trump(index, cards, False, rule=rules.trump, cycle=rules.trump_cycle,
                        deck=rules.deck_size, players=rules.players)
    return Deal(index + 1, cards, dealer, seat_after(dealer, rules.players), trump)


def _frame(rules: Rules, rows: int, paper: str, orientation: str | None, filled: bool,
           summary: tuple[tuple[str, str], ...], players: int | None = None) -> dict[str, Any]:
    """The Sheet fields that depend on the page: orientation, row height, the dealer column;
    ``players`` columns (the rules' players, the players at deal 1, unless the game has more)."""
    page = layout(paper, orientation, players or rules.players, rows, filled=filled,
                  summary_lines=len(summary))
    label = None if rules.bidding.simultaneous else DEALER_RULES.get(rules.bidding.rule)
    if label is not None:
        label = _(label)
    return {"paper": paper, "hook_label": label, "summary": summary,
            "scored": not rules.cooperative, **page._asdict()}


def blank_sheet(
    rules: Rules,
    names: Sequence[str] | None = None,
    *,
    first_dealer: int = 0,
    title: str = "",
    paper: str = "a4",
    orientation: str | None = None,
    stakes: Stakes | None = None,
) -> Sheet:
    """A sheet to play on: the schedule printed down the left, every score cell empty."""
    seats = tuple(names) if names else ("",) * rules.players
    plan = rules
    if rules.open_ended and rules.deals is None:
        plan = replace(rules, deals=OPEN_ROWS)
    deals = replay(plan, [s or str(i + 1) for i, s in enumerate(seats)], [],
                   first_dealer=first_dealer).schedule
    empty = (Entry(),) * rules.players
    rows = [_row(d, seats, empty, _hook_cell(rules, d.cards)) for d in deals]
    spare: tuple[int | None, str, int] = (None, "", 0)
    if rules.cooperative:
        spare = (None, "↻", SPARE_REDEALS)
    elif rules.tie == "one-card-hand":
        spare = (1, _("T"), SPARE_TIEBREAKS)
    cards, mark, count = spare
    for index in range(len(rows), len(rows) + count):
        deal = _spare(rules, first_dealer, index, cards)
        rows.append(_row(deal, seats, empty, _hook_cell(rules, cards), mark))
    frame = _frame(rules, len(rows), paper, orientation, False, rules_summary(rules, stakes))
    return Sheet(title=title or default_title(rules), players=seats, rows=tuple(rows), **frame)


def default_title(rules: Rules) -> str:
    """The sheet's title when the table gives none.

    >>> from ..rules.presets import make_rules
    >>> default_title(make_rules({"preset": "kachuful"}, 4))
    'Kachuful'
    >>> default_title(make_rules({"preset": "up-and-down-the-river"}, 4))
    'Up and Down the River'
    """
    return _(PRESETS[rules.preset].title)


def filled_sheet(game: GameFile, *, paper: str = "a4", orientation: str | None = None,
                 played_on: date | None = None) -> Sheet:
    """A played game's sheet: every bid, trick and score, leaders, results and the chart."""
    state, rules, names = game.game, game.rules, game.players
    players = len(names)
    made_bids = [0] * players
    rows: list[Row] = []
    joined = joined_after(game)  # a late arrival has no total before the deal they joined after
    series: list[list[Fraction | None]] = [[None if s in joined else Fraction(0)]
                                           for s in range(players)]
    adjusted = {(a.deal, a.player) for a in game.adjustments}
    for result in state.deals:
        seats = result.deal.seats(players)
        entries = tuple(Entry("" if b is None else str(b)) if s in seats else AWAY
                        for s, b in enumerate(result.bids))
        if result.tricks is not None and result.made is not None and result.points is not None:
            bids = [b or 0 for b in result.bids]
            before = {seat for seat, last in joined.items() if result.deal.number < last}
            for seat in range(players):
                made_bids[seat] += bids[seat] if result.made[seat] else 0
                series[seat].append(None if seat in before else Fraction(result.totals[seat]))
            leaders = {s.player for s in standings(rules, result.totals, made_bids) if s.rank == 1}
            entries = tuple(
                Entry(str(bids[s]), str(result.tricks[s]), points(result.points[s]),  # type: ignore[arg-type]
                      points(result.totals[s]), not result.made[s],
                      s in leaders and not rules.cooperative, (result.deal.number, s) in adjusted)
                if s in seats else replace(AWAY, total="–") if s in before else
                replace(AWAY, total=points(result.totals[s]),
                        leader=s in leaders and not rules.cooperative,
                        adjusted=(result.deal.number, s) in adjusted)
                for s in range(players)
            )
        rows.append(_row(result.deal, names, entries, _dealer_bids(rules, result, players),
                         _mark(game, result.deal, result.tiebreak), result.trump))
    empty = (Entry(),) * players
    for deal in state.schedule[len(state.deals):]:
        seats = deal.seats(players)
        upcoming = (tuple(Entry() if s in seats else AWAY for s in range(players))
                    if deal.present else empty)
        rows.append(_row(deal, names, upcoming, _hook_cell(rules, deal.cards),
                         _mark(game, deal, state.tiebreak)))
    frame = _frame(rules, len(rows), paper, orientation, True, rules_summary(rules, game.stakes),
                   players)
    if frame["long"]:
        frame["grid"] = _grid(rows, names, frame)
        if frame["grid"].font_pt < MONO_PT[1] and orientation is None:
            frame["landscape"] = True
            frame["grid"] = _grid(rows, names, frame)
    chart = None if rules.cooperative or len(series[0]) < 2 else running_totals_svg(names, series)
    return Sheet(title=game.title or default_title(rules), players=names, rows=tuple(rows),
                 # A date pattern (Unicode CLDR): day, month and year, as the sheet's title line has
                 # it.
                 date="" if played_on is None else written(played_on, "yMMMMd"),
                 results=results(game), chart=chart, **frame)

