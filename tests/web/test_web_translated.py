"""Every page, both printed sheets and the refusals, asked for in each language: its <html lang>,
and no English sentence left.

Each page is asked for in English and in the language, with the same games behind it: any piece
of text (or a label, a title, a placeholder) that reads the same in both is English left behind,
unless it is a name the players typed, a number, or a word the language shares with English.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from html.parser import HTMLParser

import pytest
from flask.testing import FlaskClient
from pypdf import PdfReader
from webhelpers import FOUR, Scorer, csrf_from

from scorekeeper.rules.values import LANGUAGES
from scorekeeper.web.language import TAGS

#: What a page, a sheet or a header says, the same on any database: `make test` runs it on SQLite
#: only.
pytestmark = pytest.mark.rendering

Start = Callable[..., Scorer]
OTHER_LANGUAGES = [code for code in LANGUAGES if code != "en"]

#: What the players typed, the app's name and the languages' own names: the same in every language.
TYPED = ["Friday game", "Friday club", "Sunday", *FOUR, "Eve"]
NAMES = ["Scorekeeper", "Oh Hell", *LANGUAGES.values()]
#: Words a language writes as English does ("Total" in Spanish), or names kept in every language
#: (the presets named after a website or a book), by language; "" for all of them.
SAME = {
    "": {"NT", "PDF", "CSV", "QR", "JSON", "EN", "NL", "DE", "FR", "ES", "IT", "PT", "CardGames",
         "io", "Trickster", "Cards", "playohshit", "com", "Denexa", "Pagat", "Parlett", "Bicycle",
         "Kachuful", "Boerenbridge", "Blackout", "Blob", "Cypriot", "Hassenpfeffer", "Oy", "Vey",
         "Get", "Fred", "Oh", "Pshaw", "Well", "Sh", "Elevator", "Hell", "Nomination", "Whist",
         "British", "Up", "and", "Down", "the", "River", "Cooperative", "EUR", "A4", "A5", "x",
         "id", "US", "Letter"},
    "nl": {"Offline", "even", "exact", "Rating"},
    "de": {"Offline", "optional", "Name"},
    "fr": {"exact", "rotation", "Place", "Points", "Total", "total"},
    "es": {"manual", "no", "Error", "Total", "total"},
    "it": {"Offline", "no"},
    "pt": {"Offline", "manual", "Rating", "Zeros", "Total", "total"},
}
WORD = re.compile(r"[A-Za-z]{2,}")
#: A house formula, as typed or shown as an example: its four names are the same in every language.
FORMULA = re.compile(r"[-+*/()0-9., ²×÷−]*"
                     r"(?:(?:bid|tricks|cards|players|abs|min|max|n)\b[-+*/()0-9., ²×÷−]*)+")
ATTRIBUTES = ("aria-label", "title", "placeholder", "alt")
#: A link or a host name, shown to be copied: the same in every language.
ADDRESS = re.compile(r"(?:https?://|localhost)\S*")


class _Texts(HTMLParser):
    """The pieces of text of a page a person sees or hears, and its <html lang>."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.lang = ""
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "html":
            self.lang = found.get("lang") or ""
        # code: a command or a field as typed, in every language
        if tag in ("script", "style", "code"):
            self._skip += 1
        for name in ATTRIBUTES:
            if found.get(name):
                self.texts.append(str(found[name]))
        if tag == "input" and found.get("type") in ("submit", "button") and found.get("value"):
            self.texts.append(str(found["value"]))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "code"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.texts.append(data)


def _pieces(texts: list[str]) -> set[str]:
    return {" ".join(piece.split()) for piece in texts if piece.strip()}


def _english_left(english: set[str], translated: set[str], code: str) -> list[str]:
    """The pieces that read the same in English and in the language, and hold an English word."""
    same = SAME[""] | SAME[code]
    left = []
    for piece in sorted(english & translated):
        if FORMULA.fullmatch(piece) or ADDRESS.fullmatch(piece):
            continue
        rest = piece
        for typed in TYPED + NAMES:  # as whole words: Cy is a player, Cypriot a word
            rest = re.sub(rf"\b{re.escape(typed)}\b", " ", rest)
        if any(word not in same for word in WORD.findall(rest)):
            left.append(piece)
    return left


def _page(client: FlaskClient, url: str, code: str) -> tuple[str, set[str]]:
    response = client.get(f"{url}{'&' if '?' in url else '?'}lang={code}")
    assert response.status_code < 500, url
    if response.mimetype == "application/pdf":
        reader = PdfReader(io.BytesIO(response.data))
        lines = [line for page in reader.pages for line in page.extract_text().splitlines()]
        # the sheet's <html lang>
        return str(reader.trailer["/Root"].get("/Lang", "")), _pieces(lines)
    parser = _Texts()
    parser.feed(response.get_data(as_text=True))
    return parser.lang, _pieces(parser.texts)


def _refusals(client: FlaskClient, game: Scorer, code: str) -> set[str]:
    """What the app says to a bid the hook forbids, a bid out of range and a name left out."""
    said = set()
    page = client.get(game.url, query_string={"lang": code}).get_data(as_text=True)
    seat = re.search(r'name="seat" value="(\d+)"', page)
    assert seat
    for bid in ("1", "99", "1e100000000"):
        response = client.post(f"{game.url}/bid?lang={code}", data={
            "csrf_token": csrf_from(page), "version": game.version(),
            "seat": seat.group(1), "bid": bid})
        parser = _Texts()
        parser.feed(client.get(game.url, query_string={"lang": code}).get_data(as_text=True)
                    if response.status_code == 302 else response.get_data(as_text=True))
        said |= _pieces(parser.texts)
    form = client.get("/new", query_string={"lang": code}).get_data(as_text=True)
    response = client.post(f"/new?lang={code}",
                           data={"csrf_token": csrf_from(form), "players": "Ann\n\n"})
    parser = _Texts()
    parser.feed(response.get_data(as_text=True))
    return said | _pieces(parser.texts)


@pytest.fixture
def pages(client: FlaskClient, start: Start) -> list[str]:
    """Every kind of page, with games behind it: one being bid, one being played with bids at once,
    one over with a settlement, a group holding them."""
    playing = start(title="Friday game", rules={"preset": "oh-hell", "max_cards": 3},
                    stakes={"per_point": "0.10", "currency": "€"},
                    deals=[{"bids": [1, 0, 1, 0], "tricks": [1, 1, 1, 0]},
                           {"bids": [None, None, 0, 1]}])
    at_once = start(players=[*FOUR, "Eve"], rules={"preset": "british-oh-hell"})
    tricks = start(rules={"max_cards": 2}, deals=[{"bids": [1, 0, 0, 0]}])
    over = start(players=["Ann", "Bob", "Cy"], rules={"deal": "fixed", "max_cards": 1, "deals": 1},
                 stakes={"per_point": "0.5", "currency": "EUR"},
                 deals=[{"bids": [1, 0, 1], "tricks": [1, 0, 0]}])
    group = client.post("/api/groups", json={"name": "Friday club"}).get_json()
    group_token = group["links"]["edit"].rstrip("/").rsplit("/", 1)[1]
    for game in (playing, over):
        client.post(f"/api/groups/{group_token}/games",
                    json={"game": f"http://localhost{game.url}"})
    urls = ["/", "/new", "/import", "/groups/new", "/sheets/blank", "/offline", "/no-such-page",
            f"/gr/{group_token}", f"/gr/{group_token}/players/Ann", f"/gr/{group_token}/share",
            f"/new?group={group_token}", at_once.url, tricks.url, over.url, f"/v/{over.view_token}",
            f"{over.url}/sheet.pdf", "/sheets/blank.pdf"]
    urls += [playing.url + path for path in ("", "/deal/1", "/share", "/rules", "/plan", "/arrive",
                                             "/leave", "/delete", "/group", "/end")]
    return [*urls, f"/v/{playing.view_token}", f"/g/{playing.token}/sheet.pdf"]


@pytest.mark.parametrize("code", OTHER_LANGUAGES)
def test_no_english_is_left_on_any_page_or_sheet(client: FlaskClient, pages: list[str],
                                                 start: Start, code: str) -> None:
    left = {}
    for url in pages:
        english_lang, english = _page(client, url, "en")
        lang, translated = _page(client, url, code)
        assert english_lang == "en" and lang == TAGS.get(code, code), url
        found = _english_left(english, translated, code)
        if found:
            left[url] = found
    game = start(title="Sunday", rules={"preset": "oh-hell", "max_cards": 2},
                 deals=[{"bids": [None, 1, 0, 0]}])
    found = _english_left(_refusals(client, game, "en"), _refusals(client, game, code), code)
    if found:
        left["refusals"] = found
    assert not left, f"English left in {code}: {left}"
