"""Score sheets as PDF: blank ones for any rules and table, filled ones of a stored game.

Every expectation is worked out here from RULES.md, not by asking the code that draws the sheet.
"""

from __future__ import annotations

import io
import itertools
import random
import re
from decimal import Decimal
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from bench.sheet_cases import LARGEST_BLANK, largest_game_file
from bench.worst_cases import MADE, MISSED
from bench.worst_cases import largest_game as heaviest_game
from scorekeeper.store.db import db
from scorekeeper.store.games import Game

#: What a page, a sheet or a header says, the same on any database: `make test` runs it on SQLite
#: only.
pytestmark = pytest.mark.rendering

FOUR = ["Ann", "Bob", "Cy", "Dee"]
EIGHT = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
TEN = [*EIGHT, "Ida", "Jo"]
A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)
MINUS = "\u2212"
# A row of the sheet: deal number (a mark after it), cards (blank for manual), the dealer.
ROW = re.compile(r"^(\d+)[T↻]?\s+(\d*)\s*(?![a-z])(\S+)")


# --- helpers -------------------------------------------------------------------------------


class Sheet(PdfReader):
    """A printed sheet whose pages' text is extracted once: pypdf takes seconds over a page of a
    300-deal sheet (in layout mode most), and the checks read most pages more than once."""

    def __init__(self, data: bytes) -> None:
        super().__init__(io.BytesIO(data))
        self.extracted: dict[tuple[int, str], str] = {}

    def page_text(self, page: int, mode: str = "plain") -> str:
        """The text of a page, ``plain`` or laid out as printed (``layout``), with − as -."""
        if (page, mode) not in self.extracted:
            extracted = self.pages[page].extract_text(extraction_mode=mode)
            self.extracted[page, mode] = extracted.replace(MINUS, "-")
        return self.extracted[page, mode]


def pdf(response: Any) -> Sheet:
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    assert response.mimetype == "application/pdf"
    return Sheet(response.data)


def text(reader: Sheet, page: int | None = None) -> str:
    pages = range(len(reader.pages)) if page is None else [page]
    return "\n".join(reader.page_text(p) for p in pages)


def squeezed(value: str) -> str:
    """Text without white space: a long name may wrap inside its column head."""
    return "".join(value.split())


def size(reader: PdfReader, page: int = 0) -> tuple[float, float]:
    box = reader.pages[page].mediabox
    return round(float(box.width), 2), round(float(box.height), 2)


def is_paper(reader: PdfReader, paper: tuple[float, float], landscape: bool) -> bool:
    expected = (paper[1], paper[0]) if landscape else paper
    return all(abs(a - b) < 0.5 for a, b in zip(size(reader), expected))


def row_lines(reader: Sheet) -> dict[int, str]:
    """The text line of each deal's row: deals 1, 2, 3 … in order, over every page."""
    rows: dict[int, str] = {}
    for line in text(reader).splitlines():
        match = ROW.match(line)
        if match and int(match[1]) == len(rows) + 1:
            rows[len(rows) + 1] = line
    return rows


def schedule(reader: Sheet) -> list[tuple[int, str, str]]:
    """The (deal, cards, dealer) of each printed row, in order."""
    return [(n, m[2], m[3]) for n, line in row_lines(reader).items() if (m := ROW.match(line))]


def row_cells(reader: Sheet, number: int, players: int) -> list[str]:
    """The 4 cells (bid, took, score, total) of every player in deal ``number``'s row."""
    tokens = row_lines(reader)[number].replace("★", "").split()
    return tokens[-4 * players:]


def long_rows(reader: Sheet) -> dict[int, list[str]]:
    """A long sheet's deals, each as the words of its line across the page, read by position
    (its cells hold a column of lines each): deal 1, 2, 3 … in order, over every page."""
    rows: dict[int, list[str]] = {}
    for page in range(len(reader.pages)):
        for line in reader.page_text(page, "layout").splitlines():
            words = line.split()
            if (words and re.fullmatch(r"\d+[T↻]?", words[0])
                    and int(words[0].rstrip("T↻")) == len(rows) + 1):
                rows[len(rows) + 1] = words
    return rows


def pages_of_rows(reader: Sheet) -> list[int]:
    """The pages that hold a long sheet's deals: their lines begin with a number and the cards."""
    row = re.compile(r"^ *\d+[T↻]? +\d+ ", re.MULTILINE)
    return [page for page in range(len(reader.pages))
            if row.search(reader.page_text(page, "layout"))]


def blank(client: FlaskClient, **params: Any) -> Sheet:
    return pdf(client.get("/sheets/blank.pdf", query_string=params))


def store(client: FlaskClient, doc: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/games", json={"format": "oh-hell-scorekeeper/1", **doc})
    assert response.status_code == 201, response.get_json()
    body: dict[str, Any] = response.get_json()
    return body


def common(bid: int, took: int) -> int:
    """RULES.md §3, common: a made bid scores 10 + tricks, a missed one 1 per trick."""
    return took + 10 if bid == took else took


def running_totals(deals: list[tuple[list[int], list[int]]]) -> list[list[int]]:
    totals = [0] * len(deals[0][0])
    result = []
    for bids, tricks in deals:
        totals = [total + common(b, t) for total, b, t in zip(totals, bids, tricks)]
        result.append(totals)
    return result


def random_deals(players: int, cards: int, count: int, seed: int) -> list[dict[str, list[int]]]:
    """Legal deals under free bidding: any bids, tricks adding up to the cards."""
    rng = random.Random(seed)
    deals = []
    for _ in range(count):
        tricks = [0] * players
        for _ in range(cards):
            tricks[rng.randrange(players)] += 1
        bids = [t if rng.random() < 0.6 else rng.randint(0, cards) for t in tricks]
        deals.append({"bids": bids, "tricks": tricks})
    return deals


# Three players, oh-hell from 2 cards: 2, 1, 2. Ann deals first; each dealer dodges the hook.
SHORT_GAME = [
    ([0, 1, 0], [1, 1, 0]),  # Ann deals 2: Bob 1, Cy 0, so Ann can't bid 1
    ([1, 1, 0], [1, 0, 0]),  # Bob deals 1: Cy 0, Ann 1, so Bob can't bid 0
    ([1, 1, 1], [1, 0, 1]),  # Cy deals 2: Ann 1, Bob 1, so Cy can't bid 0
]


def short_game(**fields: Any) -> dict[str, Any]:
    return {
        "title": "Friday at Ann's",
        "players": ["Ann", "Bob", "Cy"],
        "rules": {"preset": "oh-hell", "max_cards": 2},
        "stakes": {"per_point": "0.10", "currency": "€"},
        "deals": [{"bids": b, "tricks": t} for b, t in SHORT_GAME],
        **fields,
    }


# --- the blank sheet ----------------------------------------------------------------------


def test_blank_form_offers_every_preset_and_both_papers(client: FlaskClient) -> None:
    page = client.get("/sheets/blank").get_data(as_text=True)
    assert 'action="/sheets/blank.pdf"' in page and 'method="get"' in page
    for name in ("oh-hell", "elevator", "kachuful", "cooperative"):
        assert f'value="{name}"' in page
    assert 'value="a4"' in page and 'value="letter"' in page
    # the CSP: no inline style, no inline script
    assert "<style" not in page and "style=" not in page
    assert not re.search(r'<script(?![^>]*\s(?:src=|type="application/json"))', page)


def test_blank_oh_hell_prints_the_schedule_dealers_and_player_columns(client: FlaskClient) -> None:
    reader = blank(client, preset="oh-hell", players="Ann,Bob,Cy,Dee", paper="a4")
    assert len(reader.pages) == 1
    assert is_paper(reader, A4, landscape=False)
    rows = schedule(reader)
    # 4 players: M = min(10, floor(51 / 4)) = 10, down-up: 10 … 1 … 10, Ann deals first.
    assert [int(cards) for _, cards, _ in rows] == [*range(10, 0, -1), *range(2, 11)]
    assert [dealer for _, _, dealer in rows] == [FOUR[k % 4] for k in range(19)]
    content = text(reader)
    assert all(name in content for name in FOUR)
    assert content.count("Bid Took Score Total") == 4
    assert "Dealercan'tbid" in squeezed(content)
    assert "Date" in content and "Place" in content and "Scorer" in content


def test_blank_sheet_summarises_the_rules_in_force(client: FlaskClient) -> None:
    content = text(blank(client, preset="oh-hell", players="4", zero_bid="5", spades_double="true",
                         per_point="0.05", currency="€"))
    flat = " ".join(content.split())
    assert "RULES IN FORCE" in content
    assert "10 cards down to 1 and back up to 10: 19 deals" in flat
    assert "hook: the dealer can't make the bids add up to the cards" in flat
    assert "made: 10 + tricks; missed: 1 per trick" in flat
    assert "a made zero bid scores 5" in flat
    assert "spades as trump counts double" in flat
    assert "highest total wins; tied leaders share the win" in flat
    assert "€0.05 per point" in flat


@pytest.mark.parametrize(
    ("params", "phrases"),
    [
        ({"preset": "playohshit"}, ["Jack of trumps and the other Jack of its colour"]),
        ({"preset": "denexa"}, ["must make the bids add up to more than the cards",
                                "made: 10 per trick bid", "extra one-card deals"]),
        ({"preset": "oh-well"}, ["13 cards every deal", "the game ends when a total reaches 100",
                                 "dealer's last card"]),
        ({"preset": "kachuful"}, ["rotates ♠ ♦ ♣ ♥ NT", "made: 10 + tricks; missed: 0"]),
        ({"preset": "cooperative"}, ["must equal", "dealt again", "the table wins together"]),
        ({"preset": "oh-hell", "max_cards": "7"}, ["house rules based on Oh Hell"]),
    ],
)
def test_blank_sheet_names_each_presets_rules(client: FlaskClient, params: dict[str, str],
                                              phrases: list[str]) -> None:
    flat = " ".join(text(blank(client, players="4", **params)).split())
    for phrase in phrases:
        assert phrase in flat


def test_blank_with_a_number_of_players_leaves_the_names_to_write_in(client: FlaskClient) -> None:
    reader = blank(client, players="5")
    content = text(reader)
    assert "Ann" not in content
    # 5 players: M = min(10, floor(51 / 5)) = 10; dealers are seats 1..5 from seat 1.
    rows = schedule(reader)
    assert len(rows) == 19
    assert [dealer for _, _, dealer in rows[:6]] == ["1", "2", "3", "4", "5", "1"]
    assert content.count("Bid Took Score Total") == 5


def test_blank_first_dealer_by_name_starts_the_dealer_column(client: FlaskClient) -> None:
    rows = schedule(blank(client, players="Ann,Bob,Cy,Dee", first_dealer="Cy"))
    assert [dealer for _, _, dealer in rows[:5]] == ["Cy", "Dee", "Ann", "Bob", "Cy"]


def test_blank_marks_no_trump_deals_of_a_custom_sequence(client: FlaskClient) -> None:
    reader = blank(client, players="Ann,Bob,Cy,Dee", deal="custom", sequence="1-2-3NT-2-1")
    lines = row_lines(reader)
    assert "NT" in lines[3].split()
    assert all("NT" not in lines[deal].split() for deal in (1, 2, 4, 5))


def test_blank_kachuful_prints_the_trump_rotation(client: FlaskClient) -> None:
    lines = row_lines(blank(client, preset="kachuful", players="Ann,Bob,Cy,Dee"))
    trumps = [lines[deal].split()[3] for deal in range(1, 11)]
    assert trumps == ["♠", "♦", "♣", "♥", "NT", "♠", "♦", "♣", "♥", "NT"]


def test_blank_oh_pshaw_last_deal_is_no_trump_when_all_cards_are_dealt(client: FlaskClient) -> None:
    lines = row_lines(blank(client, preset="oh-pshaw", players="Ann,Bob,Cy,Dee"))
    last = lines[len(lines)]
    assert last.split()[:2] == ["13", "13"] and "NT" in last.split()  # 4 × 13 = 52: none left


def test_blank_hook_from_lets_one_card_deals_go_free(client: FlaskClient) -> None:
    rows = [line.split()
            for line in row_lines(blank(client, players="Ann,Bob,Cy,Dee", hook_from="2")).values()]
    assert rows and all((row[1] == "1") == ("free" in row) for row in rows)


def test_blank_free_bidding_has_no_dealer_column(client: FlaskClient) -> None:
    content = text(blank(client, preset="british-oh-hell", players="4"))
    assert "Dealercan't" not in squeezed(content) and "no dealer restriction" not in content
    assert "Trump Bid Took" in content


def test_blank_open_pattern_prints_twenty_rows_and_manual_leaves_cards_blank(
        client: FlaskClient) -> None:
    fixed = schedule(blank(client, players="Ann,Bob,Cy,Dee", deal="fixed", max_cards="5"))
    assert [cards for _, cards, _ in fixed] == ["5"] * 20
    manual = schedule(blank(client, players="Ann,Bob,Cy,Dee", deal="manual", deals="12"))
    assert len(manual) == 12 and all(cards == "" for _, cards, _ in manual)


def test_blank_letter_paper_and_landscape_for_many_players(client: FlaskClient) -> None:
    assert is_paper(blank(client, players="4", paper="letter"), LETTER, landscape=False)
    assert is_paper(blank(client, players="8", paper="letter"), LETTER, landscape=True)
    assert is_paper(blank(client, players="8", paper="a4"), A4, landscape=True)
    assert is_paper(blank(client, players="3", paper="a4", orientation="landscape"), A4,
                    landscape=True)


def test_blank_eight_players_and_twenty_five_deals_fit_one_page(client: FlaskClient) -> None:
    for paper in ("a4", "letter"):
        reader = blank(client, players=",".join(EIGHT), deal="fixed", max_cards="6", deals="25",
                       paper=paper)
        assert len(reader.pages) == 1
        assert [n for n, _, _ in schedule(reader)] == list(range(1, 26))


def test_blank_forty_deal_sequence_repeats_the_column_heads_on_every_page(
        client: FlaskClient) -> None:
    sequence = "-".join(str(1 + k % 5) for k in range(40))
    reader = blank(client, players=",".join(TEN), deal="custom", sequence=sequence)
    assert len(reader.pages) >= 2
    assert [n for n, _, _ in schedule(reader)] == list(range(1, 41))
    for page in range(len(reader.pages)):
        content = text(reader, page)
        assert "Bid Took Score Total" in content
        assert all(name in content for name in TEN)
    assert "RULES IN FORCE" in text(reader, len(reader.pages) - 1)
    assert "page 2 of" in text(reader, 1)


def test_blank_embeds_dejavu_sans(client: FlaskClient) -> None:
    reader = blank(client, players="4")
    fonts = reader.pages[0]["/Resources"]["/Font"]
    names = [str(font.get_object()["/BaseFont"]) for font in fonts.values()]
    assert names and all("DejaVu" in name for name in names)
    for font in fonts.values():
        descendant = font.get_object()["/DescendantFonts"][0].get_object()
        assert "/FontFile2" in descendant["/FontDescriptor"]  # embedded, not just named


def test_names_in_chinese_or_japanese_print_in_a_font_that_has_them(client: FlaskClient) -> None:
    """DejaVu has no CJK characters: they are drawn from Droid Sans Fallback (make installs it),
    embedded too, and not as empty boxes."""
    reader = blank(client, players="李雷,韩梅梅,さくら,Ann")
    fonts = [font.get_object() for font in reader.pages[0]["/Resources"]["/Font"].values()]
    fallback = [font for font in fonts if "Droid-Sans-Fallback" in str(font["/BaseFont"])]
    assert (fallback
            and all("/FontFile2" in font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
                    for font in fallback))
    text = reader.pages[0].extract_text()
    assert all(name in text for name in ("李雷", "韩梅梅", "さくら"))


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"preset": "no-such-game", "players": "4"}, "Unknown preset 'no-such-game'"),
        ({"players": "1"}, "The number of players must be a whole number from 2 to 10, not '1'"),
        ({"players": "200"},
         "The number of players must be a whole number from 2 to 10, not '200'"),
        ({"players": "²"}, "2 to 10 players"),
        ({"players": "9" * 5000}, "The number of players must be a whole number from 2 to 10"),
        ({"players": "A,B,C,D,E,F,G,H,I,J,K"}, "2 to 10 players"),
        ({"players": "Ann"}, "2 to 10 players"),
        ({"players": "Ann,ann"}, "listed twice"),
        ({"players": ""}, "Give the players"),
        ({"players": "4", "paper": "legal"}, "The paper must be one of a4, letter, not 'legal'"),
        ({"players": "4", "orientation": "diagonal"},
         "The orientation must be one of portrait, landscape, not 'diagonal'"),
        ({"preset": "trickster", "players": "6"}, "the largest possible is 8"),
        ({"players": "4", "max_cards": "ten"},
         "Top hand (cards) must be a whole number from 1 to 104, not 'ten'"),
        ({"players": "4", "spades_double": "maybe"},
         "Spades double must be yes or no, not 'maybe'"),
        ({"players": "4", "zero_bid": "1e100000000"},
         "A made zero bid scores must be a whole number"),
        ({"players": "4", "zero_bid": "²"}, "A made zero bid scores must be a whole number"),
        ({"players": "4", "deal": "custom", "sequence": "9" * 5000}, "is not a number of cards"),
        ({"players": "4", "first_dealer": "²"}, "first dealer '²'"),
        ({"players": "4", "first_dealer": "5"},
         "The first dealer's seat must be a whole number from 1 to 4"),
        ({"players": "10", "deal": "fixed", "max_cards": "5", "deals": "1000"},
         "Number of deals must be a whole number from 1 to 200, not '1000'"),
        ({"players": "4", "per_point": "1e-99999999"},
         "The stake per point must be an amount from 0.0001 to 1,000"),
        ({"players": "4", "scoring": "golf"}, "Unknown scoring system 'golf'"),
        ({"players": "4", "deal": "custom"}, "needs a sequence"),
        ({"preset": "cooperative", "players": "4", "per_point": "0.1"},
         "can't be played for stakes"),
        ({"players": "4", "per_point": "0.1", "ante": "2"}, "alternatives"),
        ({"players": "4", "first_dealer": "Zed"}, "first dealer 'Zed'"),
        ({"players": "4", "title": "x" * 101}, "The title is longer than 100 characters"),
        ({"players": "4", "title": "Fri\x00day"},
         "The title contains an invisible character (null)"),
        ({"players": "4", "colour": "red"}, "Unknown parameter 'colour'"),
    ],
)
def test_blank_refuses_bad_parameters_with_a_message(client: FlaskClient, params: dict[str, str],
                                                     message: str) -> None:
    response = client.get("/sheets/blank.pdf", query_string=params)
    assert response.status_code == 400
    assert response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert message.replace("'", "&#39;") in page
    assert "Traceback" not in page


# --- the filled sheet ---------------------------------------------------------------------


def test_filled_sheet_shows_bids_totals_standings_and_payments(client: FlaskClient) -> None:
    links = store(client, short_game())["links"]
    reader = pdf(client.get(links["sheet"]))
    assert len(reader.pages) == 1 and is_paper(reader, A4, landscape=False)
    content = text(reader)
    totals = running_totals(SHORT_GAME)
    for deal, (bids, tricks) in enumerate(SHORT_GAME, start=1):
        cells = row_cells(reader, deal, 3)
        for seat in range(3):
            bid, took, score, total = cells[4 * seat: 4 * seat + 4]
            missed = bids[seat] != tricks[seat]
            assert bid == f"{bids[seat]}{'✗' if missed else ''}"
            assert took == str(tricks[seat])
            assert score == str(common(bids[seat], tricks[seat]))
            assert total == str(totals[deal - 1][seat])
    assert totals[-1] == [23, 11, 31]
    assert "Winner: Cy" in content
    assert "Friday at Ann's" in content
    # Pairwise at 0.10 per point: net_i = 0.10 × Σ_j (s_i − s_j).
    final = totals[-1]
    nets = [Decimal("0.10") * sum(s - o for o in final) for s in final]
    assert nets == [Decimal("0.40"), Decimal("-3.20"), Decimal("2.80")]
    # Bob alone owes, so he pays each of the others their net.
    assert "Bob pays Cy €2.80" in content and "Bob pays Ann €0.40" in content
    assert "+€2.80" in content and "-€3.20" in content


def test_filled_sheet_marks_leaders_and_dealer_restrictions(client: FlaskClient) -> None:
    lines = row_lines(pdf(client.get(store(client, short_game())["links"]["sheet"])))
    # Leader after deal 1: Bob 11 (Cy 10, Ann 1); after deal 2 and 3: Cy.
    assert "★11" in lines[1] and "★20" in lines[2] and "★31" in lines[3]
    assert lines[1].count("★") == lines[2].count("★") == 1
    # The dealer-can't-bid cell: Ann (deal 1) can't bid 2 − 1 − 0 = 1; Bob 1 − 0 − 1 = 0.
    assert lines[1].split()[:4] == ["1", "2", "Ann", "1"]
    assert lines[2].split()[:4] == ["2", "1", "Bob", "0"]


def test_filled_sheet_by_edit_or_read_only_token_on_letter_paper(
        app: Flask, client: FlaskClient) -> None:
    store(client, short_game())
    with app.app_context():
        game = db.session.execute(db.select(Game)).scalar_one()
        tokens = (game.token, game.view_token)
    for token in tokens:
        reader = pdf(client.get(f"/g/{token}/sheet.pdf", query_string={"paper": "letter"}))
        assert is_paper(reader, LETTER, landscape=False)
        assert "Winner: Cy" in text(reader)


def test_filled_sheet_of_an_unfinished_game_keeps_the_rows_to_come(client: FlaskClient) -> None:
    doc = short_game(
        deals=[{"bids": b, "tricks": t} for b, t in SHORT_GAME[:1]] + [{"bids": [1, None, 0]}])
    reader = pdf(client.get(store(client, doc)["links"]["sheet"]))
    assert [n for n, _, _ in schedule(reader)] == [1, 2, 3]
    content = text(reader)
    assert "STANDINGS AFTER DEAL 1" in content and "not finished" in content
    assert "pays" not in content


def test_filled_elevator_game_of_twenty_three_deals_fits_one_page(client: FlaskClient) -> None:
    rng = random.Random(4)
    deals = []
    for cards in [*range(1, 13), *range(11, 0, -1)]:  # elevator, 4 players: up to 12, 23 deals
        dealer = len(deals) % 4
        order = [(dealer + 1 + k) % 4 for k in range(4)]
        bids = [0] * 4
        for seat in order:
            bid = rng.randint(0, cards)
            if seat == dealer and sum(bids) + bid == cards:  # the hook
                bid = (bid + 1) % (cards + 1)
            bids[seat] = bid
        tricks = [0] * 4
        for _ in range(cards):
            tricks[rng.randrange(4)] += 1
        deals.append({"bids": bids, "tricks": tricks})
    body = store(client, {"players": FOUR, "rules": {"preset": "elevator"}, "deals": deals})
    reader = pdf(client.get(body["links"]["sheet"]))
    assert len(reader.pages) == 1
    assert [int(c) for _, c, _ in schedule(reader)] == [*range(1, 13), *range(11, 0, -1)]
    final = running_totals([(d["bids"], d["tricks"]) for d in deals])[-1]
    cells = row_cells(reader, 23, 4)
    assert [cells[4 * s + 3] for s in range(4)] == [str(t) for t in final]
    best = max(final)
    winners = [name for name, total in zip(FOUR, final) if total == best]
    assert (("Winner: " if len(winners) == 1 else "Winners (tied): ") + ", ".join(winners)
            in text(reader))


def test_filled_eight_players_twenty_five_deals_fit_one_landscape_page(client: FlaskClient) -> None:
    deals = random_deals(8, 6, 25, seed=8)
    body = store(client, {"players": EIGHT, "deals": deals,
                          "rules": {"deal": "fixed", "max_cards": 6, "deals": 25,
                                    "bidding": "free"},
                          "stakes": {"per_point": "0.05", "currency": "€"}})
    assert body["finished"]
    for paper, dims in (("a4", A4), ("letter", LETTER)):
        reader = pdf(client.get(body["links"]["sheet"], query_string={"paper": paper}))
        assert len(reader.pages) == 1 and is_paper(reader, dims, landscape=True)
        content = text(reader)
        final = running_totals([(d["bids"], d["tricks"]) for d in deals])[-1]
        cells = row_cells(reader, 25, 8)
        assert [cells[4 * s + 3] for s in range(8)] == [str(t) for t in final]
        assert "RUNNING TOTALS" in content and "SETTLEMENT" in content


def test_filled_ten_players_thirty_two_deals_repeat_the_heads(client: FlaskClient) -> None:
    deals = random_deals(10, 5, 32, seed=10)
    body = store(client, {"players": TEN, "deals": deals,
                          "rules": {"deal": "fixed", "max_cards": 5, "deals": 32,
                                    "bidding": "free"}})
    reader = pdf(client.get(body["links"]["sheet"]))
    assert len(reader.pages) >= 2
    second = text(reader, 1)
    assert "Bid Took Score Total" in second and all(name in second for name in TEN)
    assert [n for n, _, _ in schedule(reader)] == list(range(1, 33))


def test_filled_sheet_unknown_token_is_404_and_bad_paper_400(client: FlaskClient) -> None:
    assert client.get("/g/no-such-token/sheet.pdf").status_code == 404
    sheet = store(client, short_game())["links"]["sheet"]
    response = client.get(sheet, query_string={"paper": "a3"})
    assert (response.status_code == 400
            and "The paper must be one of a4, letter" in response.get_data(as_text=True))
    assert client.get(sheet, query_string={"zoom": "2"}).status_code == 400


# --- the largest sheets (RULES.md §8) ----------------------------------------------------


def test_the_largest_game_prints_every_deal_on_a_few_pages(client: FlaskClient) -> None:
    doc = largest_game_file()
    names, adjustments = doc["players"], doc["adjustments"]
    reader = pdf(client.get(store(client, doc)["links"]["sheet"]))
    assert 3 <= len(reader.pages) <= 5 and is_paper(reader, A4, landscape=False)
    rows = long_rows(reader)
    assert list(rows) == list(range(1, 301))
    totals = [0] * len(names)
    for number, deal in enumerate(doc["deals"], start=1):
        adjusted = [a for a in adjustments if a["deal"] == number]
        totals = [
            total + common(bid, took) + sum(a["points"] for a in adjusted if a["player"] == seat)
            for seat, (total, bid, took) in enumerate(zip(totals, deal["bids"], deal["tricks"]))]
        # The deal, its cards and dealer, then each player's bid/took (✗ if missed) and total.
        words = rows[number]
        assert words[:4] == [str(number), "5", "Player", str((number - 1) % 10)]
        cells = words[4:]
        assert len(cells) == 2 * len(names)
        for seat, (bid, took) in enumerate(zip(deal["bids"], deal["tricks"])):
            assert cells[2 * seat] == f"{bid}/{took}{'✗' if bid != took else ''}"
            mark = "†" if any(a["player"] == seat for a in adjusted) else ""
            assert cells[2 * seat + 1].lstrip("★") == f"{totals[seat]:,}{mark}"
    pages = pages_of_rows(reader)
    assert pages == list(range(len(pages))) and len(pages) >= 3
    for page in pages:  # the column heads repeat on every page of rows
        content = text(reader, page)
        assert squeezed(content).count("Bid/tookTotal") == len(names)
        assert all(name in content for name in names)
    ending = squeezed(text(reader))
    for heading in ("RULESINFORCE", "RUNNINGTOTALS", "FINALSTANDINGS", "SETTLEMENT",
                    "ADJUSTMENTS†"):
        assert heading in ending
    for adjustment in adjustments:
        assert squeezed(adjustment["reason"]) in ending


def house_points(formula: str, bid: int, took: int) -> int:
    """A house formula's points (RULES.md §3) for one of the heaviest game's five-card deals at
    ten players: the benchmark's formulas are written as Python expressions too."""
    value: int = eval(formula, {"__builtins__": {}, "abs": abs, "min": min, "max": max},
                      {"bid": bid, "tricks": took, "cards": 5, "players": 10})
    return value


def test_the_heaviest_game_prints_every_deal_on_five_pages_at_most(client: FlaskClient) -> None:
    doc = heaviest_game()  # 40-character names, a 100-character title, house formulas
    names, adjustments = doc["players"], doc["adjustments"]
    reader = pdf(client.get(store(client, doc)["links"]["sheet"]))
    assert len(reader.pages) <= 5 and is_paper(reader, A4, landscape=False)
    fonts = [font.get_object() for font in reader.pages[0]["/Resources"]["/Font"].values()]
    assert any("DejaVu-Sans-Mono" in str(font["/BaseFont"]) for font in fonts)  # the lines' font
    assert all("/FontFile2" in font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
               for font in fonts)
    rows = long_rows(reader)
    assert list(rows) == list(range(1, 301))
    totals = [0] * len(names)
    for number, deal in enumerate(doc["deals"], start=1):
        adjusted = [a for a in adjustments if a["deal"] == number]
        totals = [
            total + house_points(MADE if bid == took else MISSED, bid, took)
            + sum(a["points"] for a in adjusted if a["player"] == seat)
            for seat, (total, bid, took) in enumerate(zip(totals, deal["bids"], deal["tricks"]))]
        # The deal, its cards, the dealer's name shortened ("0 Bartho…"), then each player's
        # bid/took (✗ if missed) and total (★ leading, † adjusted).
        words = rows[number]
        assert words[:4] == [str(number), "5", str((number - 1) % 10), "Bartho…"]
        cells = words[4:]
        assert len(cells) == 2 * len(names)
        for seat, (bid, took) in enumerate(zip(deal["bids"], deal["tricks"])):
            assert cells[2 * seat] == f"{bid}/{took}{'✗' if bid != took else ''}"
            mark = "†" if any(a["player"] == seat for a in adjusted) else ""
            leading = "★" if totals[seat] == max(totals) else ""
            assert cells[2 * seat + 1] == f"{leading}{totals[seat]:,}{mark}"
    for page in pages_of_rows(reader):  # every page of rows is headed by the names, shortened
        lines = reader.page_text(page, "layout").splitlines()
        heads = "\n".join(itertools.takewhile(lambda line: not re.match(r" *\d+ +5 ", line), lines))
        assert squeezed(heads).count("Bid/tookTotal") == len(names)
        assert all(any(name[:k] + "…" in heads for k in range(8, 40)) for name in names)
    ending = squeezed(text(reader))
    assert "Winner:" + squeezed(names[max(range(10), key=totals.__getitem__)]) in ending
    for adjustment in adjustments:
        assert squeezed(adjustment["reason"]) in ending


def test_a_long_cooperative_sheet_prints_bids_and_tricks_only(client: FlaskClient) -> None:
    deals = [{"bids": d["tricks"], "tricks": d["tricks"]} for d in random_deals(5, 3, 120, seed=5)]
    body = store(client, {"players": EIGHT[:5], "deals": deals,
                          "rules": {"preset": "cooperative", "deal": "fixed",
                                    "max_cards": 3, "deals": 120}})
    rows = long_rows(pdf(client.get(body["links"]["sheet"])))
    assert list(rows) == list(range(1, 121))
    for number, deal in enumerate(deals, start=1):
        # deal, cards, dealer, what the dealer must bid, then each player's bid/took: no totals
        assert rows[number][4:] == [f"{bid}/{bid}" for bid in deal["bids"]]


def test_the_largest_blank_sheet_keeps_rows_to_write_in(client: FlaskClient) -> None:
    reader = blank(client, **LARGEST_BLANK)
    assert len(reader.pages) <= 8 and is_paper(reader, A4, landscape=True)
    rows = long_rows(reader)
    assert list(rows) == list(range(1, 204))  # 200 deals and 3 spare tie-break deals
    assert [words[:3] for words in rows.values()][-4:] == [["200", "5", "10"], ["201T", "1", "1"],
                                                          ["202T", "1", "2"], ["203T", "1", "3"]]
    for page in range(len(reader.pages)):
        assert text(reader, page).count("Bid Took Score Total") == 10
    assert "RULES IN FORCE" in text(reader, len(reader.pages) - 1)


# --- hostile names ------------------------------------------------------------------------

HOSTILE = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>",
           '<img src="file:///etc/passwd">']


def _images(reader: PdfReader) -> int:
    count = 0
    for page in reader.pages:
        xobjects = page["/Resources"].get("/XObject") or {}
        count += sum(1 for x in xobjects.values() if x.get_object().get("/Subtype") == "/Image")
    return count


def test_hostile_names_print_as_text_on_a_blank_sheet(client: FlaskClient) -> None:
    reader = blank(client, players=",".join([*HOSTILE, "Dee"]))
    content = squeezed(text(reader))
    for name in HOSTILE:
        assert squeezed(name) in content
    assert _images(reader) == 0 and "root:" not in content


def test_hostile_names_print_as_text_on_a_filled_sheet_and_its_chart(client: FlaskClient) -> None:
    body = store(client, short_game(players=HOSTILE))
    reader = pdf(client.get(body["links"]["sheet"]))
    content = squeezed(text(reader))
    for name in HOSTILE:
        assert content.count(squeezed(name)) >= 2  # column head, standings
    assert squeezed(HOSTILE[0][:11]) + "…" in content  # the chart's legend, shortened
    assert _images(reader) == 0 and "root:" not in content
