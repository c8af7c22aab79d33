"""Hostile player names show as text on every page that shows names, and as the exact string in
files.

The PDF sheets (blank and filled) are checked in test_web_sheets.py, the PDF fetcher in
test_web_security.py.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient
from webhelpers import Scorer, csrf_from

Start = Callable[..., Scorer]
SCRIPT, IMG = "<script>alert(1)</script>", "<img src=x onerror=alert(1)>"
ESCAPED = {SCRIPT: "&lt;script&gt;alert(1)&lt;/script&gt;",
           IMG: "&lt;img src=x onerror=alert(1)&gt;"}
NAMES = [SCRIPT, IMG, "Cy", "Dee"]
BIDDING = [{"bids": [0, 1, 1, 0], "tricks": [1, 1, 1, 0]}, {"bids": [None, None, 1, None]}]


@pytest.fixture
def games(start: Start) -> dict[str, Scorer]:
    """A game with hostile names at each step a game page can be at."""
    rules = {"max_cards": 3}
    return {
        "bid": start(players=NAMES, rules=rules, deals=BIDDING,
                     adjustments=[{"deal": 1, "player": 0, "points": 5, "reason": SCRIPT}]),
        "bids": start(players=NAMES, rules={**rules, "bidding": "free", "simultaneous": True}),
        "tricks": start(players=NAMES, rules=rules, deals=[{"bids": [1, 1, 0, 0]}]),
        "cards": start(players=NAMES, rules={"deal": "manual", "deals": 3}),
        "played": start(players=NAMES, rules=rules, deals=BIDDING[:1]),
        "over": start(players=NAMES, rules=rules, deals=BIDDING[:1], ended=True),
        "hook": start(players=NAMES, rules=rules, deals=[{"bids": [None, 1, 1, 0]}]),
    }


def _post(client: FlaskClient, path: str, data: dict[str, Any], **kwargs: Any) -> str:
    form = {"csrf_token": csrf_from(client.get("/import").get_data(as_text=True)), **data}
    return client.post(path, data=form, **kwargs).get_data(as_text=True)


def _new(client: FlaskClient, names: list[str]) -> str:
    return _post(client, "/new",
                 {"action": "preview", **{f"players-{i}": n for i, n in enumerate(names)}})


def _import(client: FlaskClient, document: object) -> str:
    return _post(client, "/import",
                 {"file": (io.BytesIO(json.dumps(document).encode()), "file.json")},
                 content_type="multipart/form-data")


Page = Callable[[FlaskClient, dict[str, Scorer]], str]
PAGES: dict[str, tuple[Page, tuple[str, ...]]] = {
    "home": (lambda c, g: c.get("/").get_data(as_text=True), (SCRIPT, IMG)),
    "new-game preview": (lambda c, g: _new(c, NAMES), (SCRIPT, IMG)),
    "new-game refusal naming a player": (lambda c, g: _new(c, [SCRIPT, SCRIPT.upper()]), (SCRIPT,)),
    "game page, a bid": (lambda c, g: g["bid"].page(), (SCRIPT, IMG)),
    "game page, bids at once": (lambda c, g: g["bids"].page(), (SCRIPT, IMG)),
    "game page, tricks": (lambda c, g: g["tricks"].page(), (SCRIPT, IMG)),
    "game page, cards of a deal": (lambda c, g: g["cards"].page(), (SCRIPT, IMG)),
    "game page, game over": (lambda c, g: g["over"].page(), (SCRIPT, IMG)),
    "game page, refused bid naming the dealer": (
        lambda c, g: g["hook"].post("/bid", seat=0, bid=1).get_data(as_text=True), (SCRIPT,)),
    "read-only page": (lambda c, g: c.get(f"/v/{g['bid'].view_token}").get_data(as_text=True),
                       (SCRIPT, IMG)),
    "live state fragment": (
        lambda c, g: c.get(f"/v/{g['bid'].view_token}/state").get_json()["html"], (SCRIPT, IMG)),
    "correction page": (lambda c, g: c.get(g["bid"].url + "/deal/1").get_data(as_text=True),
                        (SCRIPT, IMG)),
    "end page, the winners": (lambda c, g: c.get(g["played"].url + "/end").get_data(as_text=True),
                              (IMG,)),
    "share page": (lambda c, g: c.get(g["bid"].url + "/share").get_data(as_text=True),
                   (SCRIPT, IMG)),
    "delete confirmation": (lambda c, g: c.get(g["bid"].url + "/delete").get_data(as_text=True),
                            (SCRIPT, IMG)),
    "import result": (lambda c, g: _import(c, {"format": "oh-hell-scorekeeper/backup-1",
                                               "games": [{"players": NAMES}]}), (SCRIPT, IMG)),
    "import refusal naming a player": (
        lambda c, g: _import(c, {"players": NAMES, "rules": {"max_cards": 3},
                                 "deals": [{"bids": [1, 1, 1, 0]}]}),
        (SCRIPT,)),
}


@pytest.mark.parametrize("name", PAGES)
def test_hostile_names_are_escaped_text_on_every_page_that_shows_names(
        client: FlaskClient, games: dict[str, Scorer], name: str) -> None:
    render, shown = PAGES[name]
    page = render(client, games)
    for hostile in (SCRIPT, IMG):
        assert hostile not in page and "<script>alert" not in page and "<img src=x" not in page
    for hostile in shown:
        assert ESCAPED[hostile] in page


@pytest.mark.parametrize("path", ["/export.json", "/api"])
def test_hostile_names_are_the_exact_strings_in_the_exported_files(
        client: FlaskClient, games: dict[str, Scorer], path: str) -> None:
    game = games["bid"]
    url = f"/api/games/{game.token}" if path == "/api" else game.url + path
    document = json.loads(client.get(url).get_data(as_text=True))
    assert document["players"] == NAMES and document["adjustments"][0]["reason"] == SCRIPT
    backed_up = client.get("/backup.json").get_json()["games"]
    assert all(g["players"] == NAMES for g in backed_up) and len(backed_up) == len(games)
