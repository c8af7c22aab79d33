"""A late arrival on the board and the sheets, in the page's language: no total and no line on the
chart before they joined, their line starting where they joined, and the app's own reason for their
starting points ("joined late") said in the language of the page."""

from __future__ import annotations

import io
import re
from fractions import Fraction

from flask.testing import FlaskClient
from pypdf import PdfReader
from webhelpers import text

from scorekeeper.play.chart import running_totals_svg
from scorekeeper.rules.gamefile import parse
from scorekeeper.sheets.model import filled_sheet

#: Eve joined after deal 2, with 12 points; three deals played.
LATE = {"players": ["Ann", "Bob", "Cy", "Eve"], "rules": {"max_cards": 3},
        "absent": [{"player": 3, "from": 1, "to": 2}],
        "adjustments": [{"deal": 2, "player": 3, "points": 12, "reason": "joined late"}],
        "deals": [{"bids": [1, 1, 0, None], "tricks": [1, 1, 1, None]},
                  {"bids": [0, 0, 1, None], "tricks": [0, 1, 1, None]},
                  {"bids": [1, 1, 0, 0], "tricks": [1, 0, 0, 0]}]}


def started(client: FlaskClient) -> tuple[str, str]:
    made = client.post("/api/games", json=LATE)
    assert made.status_code == 201, made.get_json()
    links = made.get_json()["links"]
    return links["edit"].rsplit("/", 1)[1], links["view"].rsplit("/", 1)[1]


def sheet(client: FlaskClient, token: str, language: str) -> str:
    response = client.get(f"/g/{token}/sheet.pdf", query_string={"lang": language})
    assert response.status_code == 200
    reader = PdfReader(io.BytesIO(response.get_data()))
    return "\n".join(page.extract_text() for page in reader.pages)


def test_the_reason_the_app_gives_a_late_arrival_is_in_the_page_language(
        client: FlaskClient) -> None:
    edit, view = started(client)
    for language, said in (("nl", "later erbij gekomen"), ("de", None), ("fr", None)):
        for path in (f"/g/{edit}", f"/v/{view}"):
            page = text(client.get(path, query_string={"lang": language}).get_data(as_text=True))
            assert "joined late" not in page
        printed = sheet(client, view, language)
        assert "joined late" not in printed
        if said:
            assert said in printed
    assert "joined late" in sheet(client, view, "en")


def test_a_late_arrival_has_no_total_before_joining_and_their_line_starts_where_they_joined(
        client: FlaskClient) -> None:
    _edit, view = started(client)
    printed = sheet(client, view, "en")
    rows = {int(line.split()[0]): line.split() for line in printed.splitlines()
            if re.match(r"\d+ \d+ \w+ ", line)}
    assert rows[1][-4:] == ["–", "–", "–", "–"]  # Eve before she joined: no total
    assert rows[2][-4:] == ["–", "–", "–", "12†"]  # the deal she joined after: her starting points
    assert rows[3][-4:] == ["0", "0", "10", "22"]
    sheet_model = filled_sheet(parse(LATE))
    assert sheet_model.chart is not None
    lines = re.findall(r'<polyline points="([^"]*)"', str(sheet_model.chart))
    # from the start, and Eve's from deal 2
    assert [len(line.split()) for line in lines] == [4, 4, 4, 2]


def test_the_chart_starts_a_line_where_its_player_joined() -> None:
    chart = str(running_totals_svg(["Ann", "Eve"], [[Fraction(0), Fraction(11), Fraction(21)],
                                                    [None, Fraction(12), Fraction(22)]]))
    ann, eve = re.findall(r'<polyline points="([^"]*)"', chart)
    assert len(ann.split()) == 3 and len(eve.split()) == 2
    assert eve.split()[0].split(",")[0] == ann.split()[1].split(",")[0]  # at deal 1's place
