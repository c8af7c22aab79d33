"""The sheet model: what a blank or filled sheet prints, asked of the rules core (no PDF here)."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules.gamefile import parse
from scorekeeper.rules.presets import make_rules
from scorekeeper.sheets.layout import (
    COMPACT_ROWS,
    LONG_ROWS,
    MONO_EM,
    MONO_PT,
    PAPER_MM,
    PT_MM,
    SIDE_MM,
    SheetError,
    layout,
)
from scorekeeper.sheets.model import Entry, Row, blank_sheet, filled_sheet, text_grid

FOUR = ("Ann", "Bob", "Cy", "Dee")


def game(**fields: Any) -> Any:
    return parse({"players": list(FOUR), "rules": {"max_cards": 3}, **fields})


def test_blank_rows_follow_the_schedule_with_dealers_in_seating_order() -> None:
    sheet = blank_sheet(make_rules({}, 4), FOUR, first_dealer=2)
    assert [row.cards for row in sheet.rows] == [str(n) for n in [*range(10, 0, -1), *range(2, 11)]]
    assert [row.dealer for row in sheet.rows[:5]] == ["Cy", "Dee", "Ann", "Bob", "Cy"]
    assert all(row.hook == "" for row in sheet.rows)  # the hook applies to every deal
    assert sheet.hook_label == "can't bid" and sheet.scored and not sheet.filled


def test_blank_without_names_numbers_the_seats() -> None:
    sheet = blank_sheet(make_rules({}, 5))
    assert sheet.players == ("",) * 5
    assert [row.dealer for row in sheet.rows[:6]] == ["1", "2", "3", "4", "5", "1"]


def test_hook_from_frees_the_small_deals_only() -> None:
    sheet = blank_sheet(make_rules({"hook_from": 3}, 4), FOUR)
    assert {row.cards for row in sheet.rows if row.hook is None} == {"1", "2"}


def test_free_and_simultaneous_bidding_print_no_dealer_column() -> None:
    assert blank_sheet(make_rules({"bidding": "free"}, 4)).hook_label is None
    assert blank_sheet(make_rules({"preset": "british-oh-hell"}, 4)).hook_label is None


def test_open_patterns_print_twenty_rows_or_the_deal_count() -> None:
    fixed = blank_sheet(make_rules({"preset": "oh-well"}, 4), FOUR)
    assert [row.cards for row in fixed.rows] == ["13"] * 20
    manual = blank_sheet(make_rules({"deal": "manual", "deals": 8}, 4), FOUR)
    assert [row.cards for row in manual.rows] == [""] * 8


def test_denexa_blank_adds_one_card_tie_break_rows() -> None:
    sheet = blank_sheet(make_rules({"preset": "denexa"}, 4), FOUR)
    extra = [row for row in sheet.rows if row.mark == "T"]
    assert [(row.number, row.cards) for row in extra] == [(20, "1"), (21, "1"), (22, "1")]
    assert [row.dealer for row in extra] == ["Dee", "Ann", "Bob"]  # deal 20 is dealt by seat 19 % 4


def test_cooperative_blank_has_no_scores_and_spare_rows_for_re_deals() -> None:
    sheet = blank_sheet(make_rules({"preset": "cooperative"}, 4), FOUR)
    assert not sheet.scored and sheet.hook_label == "must bid"
    assert [row.cards for row in sheet.rows if row.mark == "↻"] == [""] * 6


def test_rotation_and_no_trump_deals_are_pre_filled() -> None:
    sheet = blank_sheet(make_rules({"preset": "kachuful"}, 4), FOUR)
    assert [row.trump for row in sheet.rows[:6]] == ["♠", "♦", "♣", "♥", "NT", "♠"]
    custom = blank_sheet(make_rules({"deal": "custom", "sequence": "2-3NT-2"}, 4), FOUR)
    assert [row.trump for row in custom.rows] == ["", "NT", ""]


def test_filled_rows_mark_missed_bids_leaders_and_the_dealers_forbidden_bid() -> None:
    sheet = filled_sheet(game(deals=[{"bids": [1, 1, 0, 0], "tricks": [1, 1, 1, 0]},
                                     {"bids": [None, None, 1, 0]}]))
    first = sheet.rows[0]
    # Ann deals 3 cards: Bob 1, Cy 0, Dee 0 bid first, so the hook forbids Ann 3 − 1 = 2.
    assert first.hook == "2"
    assert [e.missed for e in first.entries] == [False, False, True, False]
    assert [e.total for e in first.entries] == ["11", "11", "1", "10"]
    assert [e.leader for e in first.entries] == [True, True, False, False]
    second = sheet.rows[1]
    assert [e.bid for e in second.entries] == ["", "", "1", "0"] and second.hook == ""
    assert len(sheet.rows) == 5  # the 3 deals still to come are printed blank


def test_filled_results_name_the_winner_and_settle_the_stakes() -> None:
    deals = [{"bids": [1, 1, 0, 0], "tricks": [1, 1, 1, 0]},
             {"bids": [0, 0, 1, 0], "tricks": [0, 0, 1, 1]},
             {"bids": [1, 0, 1, 0], "tricks": [1, 0, 0, 0]},
             {"bids": [0, 1, 0, 0], "tricks": [0, 1, 0, 1]},
             {"bids": [1, 1, 0, 0], "tricks": [1, 0, 1, 1]}]
    sheet = filled_sheet(game(deals=deals, stakes={"per_point": "1", "currency": "€",
                                                   "settlement": "to-winner"}))
    assert sheet.results is not None
    assert sheet.results.verdict == "Winner: Ann"
    assert sheet.results.places[0].name == "Ann" and sheet.results.places[0].winner
    assert all(line.endswith(tuple("0123456789")) and " pays Ann €" in line
               for line in sheet.results.payments)
    assert sheet.chart is not None


def test_adjustments_are_marked_and_listed() -> None:
    sheet = filled_sheet(game(deals=[{"bids": [1, 1, 0, 0], "tricks": [1, 1, 1, 0]}],
                              adjustments=[{"deal": 1, "player": 3, "points": -5,
                                            "reason": "revoke"}]))
    assert sheet.rows[0].entries[3].adjusted and sheet.rows[0].entries[3].total == "5"
    assert sheet.results is not None and sheet.results.adjustments == ("deal 1: Dee −5 (revoke)",)


@pytest.mark.parametrize(
    ("players", "rows", "landscape", "one_page"),
    [(3, 19, False, True), (5, 25, False, True), (6, 11, True, True), (8, 25, True, True),
     (10, 40, True, False)],
)
def test_layout_turns_to_landscape_from_six_players(players: int, rows: int, landscape: bool,
                                                    one_page: bool) -> None:
    for paper in ("a4", "letter"):
        page = layout(paper, None, players, rows, filled=True, summary_lines=8)
        assert (page.landscape, page.one_page, page.long) == (landscape, one_page, False)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("filled", [False, True])
def test_a_sheet_of_more_than_two_pages_is_long(paper: str, filled: bool) -> None:
    two_pages = max(rows for rows in range(1, 200)
                    if not layout(paper, None, 10, rows, filled=filled).long)
    assert 40 <= two_pages <= 55  # two landscape pages of 6 mm rows, less the footer
    page = layout(paper, None, 10, two_pages + 1, filled=filled)
    if filled:  # a record to read
        assert page.long and not page.landscape and page.row_height == COMPACT_ROWS
        assert layout(paper, "landscape", 10, 300, filled=True).landscape  # as asked
    else:  # still room to write in
        assert page.long and page.landscape and page.row_height == LONG_ROWS


def test_long_rows_label_their_deals_and_the_dealers_restriction() -> None:
    sheet = filled_sheet(game(deals=[{"bids": [1, 1, 0, 0], "tricks": [1, 1, 1, 0]}]))
    assert [row.label for row in sheet.rows] == ["1", "2", "3", "4", "5"]
    assert [row.restriction for row in sheet.rows] == ["2", "", "", "", ""]
    assert [row.dealer_seat for row in sheet.rows] == [0, 1, 2, 3, 0]
    denexa = make_rules({"bidding": "free", "preset": "denexa"}, 4)
    assert blank_sheet(denexa).rows[-1].label == "22T"
    assert blank_sheet(make_rules({"hook_from": 3}, 4)).rows[9].restriction == "free"


def long_game(**fields: Any) -> Any:
    """Ninety deals of two cards: a sheet too long for two pages."""
    return game(rules={"deal": "fixed", "max_cards": 2, "deals": 90}, **fields)


def test_a_long_filled_sheet_is_a_line_of_text_per_deal() -> None:
    deals = [{"bids": [0, 1, 0, 0], "tricks": [0, 1, 1, 0]},
             {"bids": [0, 0, 1, 0], "tricks": [0, 0, 1, 1]},
             {"bids": [None, None, None, 1]}]
    sheet = filled_sheet(long_game(deals=deals,
                                   adjustments=[{"deal": 2, "player": 0, "points": 5}]))
    grid = sheet.grid
    assert sheet.long and grid is not None and len(grid.lines) == len(sheet.rows) == 90
    assert ({len(line) for line in grid.lines} == {len(grid.labels) + 4 * grid.column}
            == {grid.width})
    assert grid.rules == tuple(grid.lead + seat * grid.column for seat in range(4))
    assert grid.names == FOUR
    columns = [[line[at:at + grid.column] for at in grid.rules] for line in grid.lines]
    # Common scoring: a made bid scores 10 + tricks, a missed one 1 a trick; Ann's 5 points at
    # deal 2 are an adjustment (†).
    assert [column.split() for column in columns[0]] == [["0/0", "10"], ["1/1", "★11"],
                                                         ["0/1✗", "1"], ["0/0", "10"]]
    assert [column.split() for column in columns[1]] == [["0/0", "★25†"], ["0/0", "21"],
                                                         ["1/1", "12"], ["0/1✗", "11"]]
    assert [column.split() for column in columns[2]] == [[], [], [], ["1"]]  # being bid
    assert columns[3] == [" " * grid.column] * 4  # still to come
    assert all(column.startswith(" ") and column.endswith(" ") for row in columns for column in row)
    # Ann deals 2 cards: Bob 1, Cy 0, Dee 0 bid first, so the hook forbids Ann 2 − 1 = 1.
    assert [line[:grid.lead].split() for line in grid.lines[:3]] == [["1", "2", "Ann", "1"],
                                                                     ["2", "2", "Bob", "1"],
                                                                     ["3", "2", "Cy"]]
    assert grid.labels.split() == ["#", "Cards", "Dealer", "can't", "bid"]


def test_a_long_cooperative_sheet_has_no_totals() -> None:
    sheet = filled_sheet(parse({"players": list(FOUR),
                                "deals": [{"bids": [1, 0, 1, 0], "tricks": [1, 0, 1, 0]}],
                                "rules": {"preset": "cooperative", "deal": "fixed", "max_cards": 2,
                                          "deals": 90}}))
    assert sheet.grid is not None
    assert sheet.grid.lines[0][sheet.grid.lead:].split() == ["1/1", "0/0", "1/1", "0/0"]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_grid_takes_the_largest_type_that_fits_the_page(paper: str) -> None:
    entry = Entry("12", "13", total="−123456789", missed=True, leader=True, adjusted=True)
    rows = [Row(n, "13", n % 10, "Bartholom…", "NT", "0–12", (entry,) * 10) for n in range(1, 301)]
    names = [f"{n} Bartholomew Evangeline Hildegard-Maxim" for n in range(10)]
    for landscape in (False, True):
        width = PAPER_MM[paper][1 if landscape else 0] - SIDE_MM
        grid = text_grid(rows, names, "can't bid", True, width)
        assert grid.width * grid.font_pt * MONO_EM * PT_MM <= width
        assert ((grid.width + 1) * grid.font_pt * MONO_EM * PT_MM > width
                or grid.font_pt == MONO_PT[0])
        assert grid.lines[-1].split()[-2:] == ["12/13✗", "★−123456789†"]
        assert all(len(name) == grid.column - 2 and name.endswith("…") for name in grid.names)
    few = text_grid(rows[:3], FOUR, None, True, PAPER_MM[paper][0] - SIDE_MM)
    assert few.font_pt == MONO_PT[0] and few.width * few.font_pt * MONO_EM * PT_MM > 0.98 * (
        PAPER_MM[paper][0] - SIDE_MM)  # the players' columns share the width to spare


def test_a_grid_prints_the_seat_of_a_dealer_whose_name_it_cannot_align() -> None:
    rows = [Row(1, "3", 2, "山田", "", None, (Entry(),) * 3),
            Row(2, "3", 0, "Zoë", "", None, (Entry(),) * 3)]
    grid = text_grid(rows, ("Zoë", "Åsa", "山田"), None, True, 190)
    assert [line.split() for line in grid.lines] == [["1", "3", "seat", "3"], ["2", "3", "Zoë"]]


def test_a_filled_sheet_too_wide_for_portrait_turns_landscape_unless_asked() -> None:
    # A house formula of a million points a deal: totals of nine digits and a sign.
    doc = {"players": [f"Player {n}" for n in range(10)],
           "rules": {"deal": "fixed", "max_cards": 5, "deals": 150, "bidding": "free",
                     "scoring": "custom", "made": "1000000", "missed": "-1000000"},
           "deals": [{"bids": [1, 0, 0, 0, 0, 1, 1, 1, 1, 0],
                      "tricks": [1, 1, 1, 1, 1, 0, 0, 0, 0, 0]}] * 150}
    sheet = filled_sheet(parse(doc))
    assert sheet.long and sheet.landscape and sheet.grid is not None and (
        sheet.grid.font_pt >= MONO_PT[1])
    asked = filled_sheet(parse(doc), orientation="portrait")
    assert not asked.landscape and asked.grid is not None and asked.grid.font_pt < MONO_PT[1]
    short = {**doc, "rules": {**doc["rules"], "deals": 5}, "deals": doc["deals"][:2]}
    assert filled_sheet(parse(short)).grid is None  # a sheet of a page has a cell per value


def test_many_adjustments_leave_the_results_box_for_a_block_of_their_own() -> None:
    deal = {"bids": [1, 1, 0, 0], "tricks": [1, 1, 1, 0]}
    few = [{"deal": 1, "player": 0, "points": 1}] * 6
    assert filled_sheet(game(deals=[deal], adjustments=few)).boxed_adjustments
    assert not filled_sheet(game(deals=[deal], adjustments=few * 2)).boxed_adjustments
    assert blank_sheet(make_rules({}, 4)).boxed_adjustments  # nothing to list


def test_layout_refuses_unknown_paper_and_orientation() -> None:
    with pytest.raises(SheetError, match="legal"):
        layout("legal", None, 4, 19)
    with pytest.raises(SheetError, match="sideways"):
        layout("a4", "sideways", 4, 19)


def test_a_one_page_sheet_can_tighten_its_rows_and_a_long_one_cannot() -> None:
    short = blank_sheet(make_rules({}, 4), FOUR)
    tighter = short.tighter()
    assert tighter is not None and tighter.row_height < short.row_height
    long = blank_sheet(make_rules({"deal": "fixed", "deals": 90, "max_cards": 2}, 4), FOUR)
    assert not long.one_page and long.tighter() is None


def test_a_deal_a_player_sits_out_prints_a_dash_and_their_total_carried_over() -> None:
    """RULES.md §7 on the sheet: a dash in a deal someone is not dealt in, their total unchanged;
    the deals to come show who will sit out; the page is laid out for every player of the game."""
    game = parse({"players": [*FOUR, "Eve", "Fay"],
                  "rules": {"deal": "fixed", "max_cards": 2, "bidding": "free", "deals": 4},
                  "absent": [{"player": 4, "from": 1, "to": 1}, {"player": 1, "from": 2, "to": 2},
                             {"player": 5, "from": 1}],
                  "deals": [{"bids": [1, 1, 0, 0, None, None], "tricks": [1, 1, 0, 0, None, None]},
                            {"bids": [0, None, 1, 0, 1, None], "tricks": [0, None, 1, 0, 1, None]},
                            {"bids": [0, 0, 0, 1, 0, None]}]})
    sheet = filled_sheet(game)
    first, second, third, fourth = sheet.rows
    assert (first.entries[4].bid, first.entries[4].took, first.entries[4].score,
            first.entries[4].total) == ("–", "–", "–", "0")
    assert (second.entries[1].bid, second.entries[1].score,
            second.entries[1].total) == ("–", "–", "11")
    assert third.entries[5].bid == "–" and third.entries[0].bid == "0"
    # Fay has left: she sits out what is to come
    assert fourth.entries[5].bid == "–" and fourth.entries[0] == Entry()
    assert sheet.landscape  # six players' columns, though five sat down at deal 1
    assert sheet.results is not None and sheet.results.table == (
        "Eve joined at deal 2; Fay left before the first deal.")
