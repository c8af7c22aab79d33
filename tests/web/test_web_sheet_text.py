"""Where the sheets' words land, read from the PDF itself: a name with emoji prints its emoji in an
embedded font, and no heading runs into or over another in any language, blank or filled."""

from __future__ import annotations

import io
import re
import subprocess
import tempfile
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale, gettext
from pypdf import PdfReader

from scorekeeper.rules.values import LANGUAGES

#: What a page, a sheet or a header says, the same on any database: `make test` runs it on SQLite
#: only.
pytestmark = pytest.mark.rendering


def blank(client: FlaskClient, **params: Any) -> bytes:
    response = client.get("/sheets/blank.pdf", query_string=params)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_data()


def test_a_name_with_emoji_prints_its_emoji_in_an_embedded_font(client: FlaskClient) -> None:
    """DejaVu has few emoji: they are drawn from Symbola (make installs it), embedded, and the
    PDF's text holds them, so they print as the emoji and not as empty boxes."""
    reader = PdfReader(io.BytesIO(blank(client, players="Ann 🦊,Bob 🎲,Cy,Dee")))
    fonts = [font.get_object() for font in reader.pages[0]["/Resources"]["/Font"].values()]
    symbola = [font for font in fonts if "Symbola" in str(font["/BaseFont"])]
    assert (symbola
            and all("/FontFile2" in font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
                    for font in symbola))
    page = reader.pages[0].extract_text()
    assert "🦊" in page and "🎲" in page


class Word(NamedTuple):
    """A word of a PDF page as poppler reads it, in points from the page's top left."""

    left: float
    top: float
    right: float
    bottom: float
    text: str


WORD = re.compile(r'<word xMin="([0-9.]+)" yMin="([0-9.]+)" xMax="([0-9.]+)" '
                  r'yMax="([0-9.]+)">([^<]*)</word>')


def words(pdf: bytes) -> list[list[Word]]:
    """Each page's words, with the box poppler gives each (``pdftotext -bbox``)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "sheet.pdf"
        path.write_bytes(pdf)
        html = subprocess.run(["pdftotext", "-bbox", str(path), "-"], capture_output=True,
                              text=True, check=True).stdout
    pages = html.split("<page ")[1:]
    return [
        [Word(float(a), float(b), float(c), float(d), w) for a, b, c, d, w in WORD.findall(page)]
        for page in pages]


def overlapping(page: list[Word]) -> list[tuple[str, str]]:
    """The pairs of words that print over each other, or touch as if one word: their boxes share
    height and come closer than a third of a point side by side."""
    found = []
    for n, one in enumerate(page):
        for other in page[n + 1:]:
            height = min(one.bottom, other.bottom) - max(one.top, other.top)
            if height <= 0.3 * min(one.bottom - one.top, other.bottom - other.top):
                continue
            if one.left < other.right + 0.3 and other.left < one.right + 0.3:
                found.append((one.text, other.text))
    return found


GAME = {"players": ["Annemarie", "Bartholomeus", "Cy", "Dee"], "title": "Vrijdag",
        "rules": {"max_cards": 3}, "stakes": {"per_point": "0.05", "currency": "EUR"},
        "deals": [{"bids": [1, 0, 1, 0], "tricks": [2, 0, 1, 0]},
                  {"bids": [1, 1, 0, 1], "tricks": [0, 1, 0, 1]}]}


def glued(page: list[Word], labels: list[str]) -> list[str]:
    """The words that are two of the column labels run together ("SlagenScore")."""
    return [word.text for word in page
            if any(word.text == one + other for one in labels for other in labels)]


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_no_word_of_a_sheet_runs_into_or_over_another_in_any_language(
        app: Flask, client: FlaskClient, language: str) -> None:
    with app.test_request_context(), force_locale(language):
        labels = [gettext(label)
                  for label in ("Bid", "Took", "Score", "Total", "Cards", "Dealer", "Trump")]
    sheets = {
        "blank, 4 players": blank(client, players="4", lang=language),
        "blank, 8 players": blank(client, players="8", lang=language),
        "blank, 10 players": blank(client, players="10", lang=language),
        "blank, landscape": blank(client, players="6", orientation="landscape", lang=language),
    }
    made = client.post("/api/games", json=GAME)
    assert made.status_code == 201
    token = made.get_json()["links"]["view"].rsplit("/", 1)[1]
    filled = client.get(f"/g/{token}/sheet.pdf", query_string={"lang": language})
    assert filled.status_code == 200
    sheets["filled"] = filled.get_data()
    clashes = {name: found for name, pdf in sheets.items()
               for found in [sorted({(*pair,) for page in words(pdf) for pair in overlapping(page)}
                                    | {(word,) for page in words(pdf)
                                       for word in glued(page, labels)})] if found}
    assert not clashes


#: Totals in the thousands with decimals, the leader's star and an adjustment's mark: "★1.212,25†".
THOUSANDS = {"players": ["Ann", "Bob", "Cy", "Dee"], "title": "Vrijdag",
             "rules": {"deal": "fixed", "max_cards": 3, "deals": 3, "scoring": "custom",
                       "made": "10 + tricks * 2.25", "missed": "-bid * 1.5"},
             "stakes": {"per_point": "0.05", "currency": "EUR"},
             "adjustments": [{"deal": 1, "player": 0, "points": 1200, "reason": "start"}],
             "deals": [{"bids": [1, 1, 1, 1], "tricks": [1, 1, 1, 0]},
                       {"bids": [0, 2, 0, 0], "tricks": [1, 2, 0, 0]},
                       {"bids": [1, 0, 1, 0], "tricks": [1, 0, 2, 0]}]}


@pytest.mark.parametrize("language", ["en", "nl", "fr"])
def test_a_total_in_the_thousands_stays_in_its_column(client: FlaskClient, language: str) -> None:
    """"★1.212,25†" and the winner's "1.224½ +€ 179,88" print inside their columns: no total runs
    into the next player's bid, nor the standings' total into its amount."""
    made = client.post("/api/games", json=THOUSANDS)
    assert made.status_code == 201, made.get_json()
    token = made.get_json()["links"]["view"].rsplit("/", 1)[1]
    pdf = client.get(f"/g/{token}/sheet.pdf", query_string={"lang": language}).get_data()
    page = words(pdf)[0]
    assert any(word.text.startswith("★1") for word in page)  # the leader's total is printed
    assert not overlapping(page)
