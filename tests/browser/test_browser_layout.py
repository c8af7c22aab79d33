"""Every screen fits a 360 px phone: a wide board scrolls inside its own box, never the page."""

from __future__ import annotations

import pytest
from phone import assert_fits_the_phone
from playwright.sync_api import Page

pytestmark = pytest.mark.browser

TEN = ["Annabelle", "Bartholomew", "Cy", "Dee", "Evangeline", "Fay", "Gus", "Hildegard", "Ivo", "Jo"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_ten_players_on_a_small_phone(page: Page, scheme: str) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    page.emulate_media(color_scheme=scheme)
    created = page.request.post("/api/games", data={
        "title": "A very long title for a game night with ten players at the big table",
        "players": TEN, "rules": {"max_cards": 5},
        "deals": [{"bids": [1, 0, 0, 1, 0, 0, 1, 0, 0, 1], "tricks": [1, 0, 0, 1, 0, 0, 1, 1, 0, 1]},
                  {"bids": [0, None, 0, 0, 0, 0, 0, 0, 0, 1]}],
    }).json()
    edit = created["links"]["edit"]
    for url in (edit, edit + "/share", edit + "/deal/1", edit + "/end", created["links"]["view"], "/", "/new"):
        page.goto(url)
        assert_fits_the_phone(page)
    page.goto(edit)
    board = page.locator(".board-box .scroll")
    assert board.evaluate("e => e.scrollWidth > e.clientWidth")  # the table scrolls in its box
