"""Every screen fits a 360 px phone: a wide board scrolls inside its own box, never the page."""

from __future__ import annotations

import pytest
from phone import assert_fits_the_phone
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

#: Whether an element casts a shadow that can be seen.
SHADOW = "e => !/^(none|rgba\\(0, 0, 0, 0\\))/.test(getComputedStyle(e).boxShadow)"
TEN = ["Annabelle", "Bartholomew", "Cy", "Dee", "Evangeline", "Fay", "Gus", "Hildegard", "Ivo",
       "Jo"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_ten_players_on_a_small_phone(page: Page, scheme: str) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    page.emulate_media(color_scheme=scheme)
    created = page.request.post("/api/games", data={
        "title": "A very long title for a game night with ten players at the big table",
        "players": TEN, "rules": {"max_cards": 5},
        "deals": [{"bids": [1, 0, 0, 1, 0, 0, 1, 0, 0, 1],
                   "tricks": [1, 0, 0, 1, 0, 0, 1, 1, 0, 1]},
                  {"bids": [0, None, 0, 0, 0, 0, 0, 0, 0, 1]}],
    }).json()
    edit = created["links"]["edit"]
    for url in (edit, edit + "/share", edit + "/deal/1", edit + "/end", created["links"]["view"],
                "/", "/new"):
        page.goto(url)
        assert_fits_the_phone(page)
    page.goto(edit)
    board = page.locator(".board-box .scroll")
    assert board.evaluate("e => e.scrollWidth > e.clientWidth")  # the table scrolls in its box


def test_a_four_way_lead_on_the_home_list_has_a_line_of_its_own(page: Page) -> None:
    created = page.request.post("/api/games", data={
        "players": ["Annabelle", "Bartholomew", "Evangeline", "Hildegard"],
        "rules": {"max_cards": 2, "bidding": "free", "scoring": "binary"},
        "deals": [{"bids": [1, 1, 0, 0], "tricks": [1, 1, 0, 0]}],
    }).json()
    page.goto(created["links"]["edit"])  # the phone now holds the game
    page.goto("/")
    card = page.locator(".game-card").first
    expect(card.locator(".game-leader")).to_contain_text(
        "Annabelle, Bartholomew, Evangeline and Hildegard")
    expect(card.locator(".game-meta")).to_contain_text("Oh Hell, house rules · today")
    leader, go = card.locator(".game-leader").bounding_box(), card.locator(".go").bounding_box()
    assert leader and go
    # "Resume" sits below the leader, never over it
    assert go["y"] >= leader["y"] + leader["height"] - 1
    assert_fits_the_phone(page)


def test_a_wide_board_shows_that_it_scrolls_and_keeps_its_deal_column(page: Page) -> None:
    created = page.request.post("/api/games", data={
        "players": TEN, "rules": {"max_cards": 5},
        "deals": [{"bids": [1, 0, 0, 1, 0, 0, 1, 0, 0, 1],
                   "tricks": [1, 0, 0, 1, 0, 0, 1, 1, 0, 1]}],
    }).json()
    page.goto(created["links"]["edit"])
    box = page.locator(".board-scroll")
    hint, deal_col = page.locator(".scroll-hint"), page.locator(".board tbody .deal-col").first
    expect(hint).to_have_text("10 players · scroll →")
    assert hint.evaluate("e => getComputedStyle(e).opacity") == "1"
    # the edge shadow
    assert "local" in box.evaluate("e => getComputedStyle(e).backgroundAttachment")
    assert not deal_col.evaluate(SHADOW)
    box.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    left = box.evaluate("e => e.getBoundingClientRect().left")
    # it stayed put
    assert abs(deal_col.evaluate("e => e.getBoundingClientRect().left") - left) <= 2
    assert hint.evaluate("e => getComputedStyle(e).opacity") == "0"
    assert deal_col.evaluate(SHADOW)  # columns went under it


def test_a_board_that_fits_says_nothing_about_scrolling(page: Page) -> None:
    created = page.request.post("/api/games", data={"players": ["Ann", "Bob", "Cy", "Dee", "Eve"],
                                                     "rules": {"max_cards": 3}}).json()
    page.set_viewport_size({"width": 430, "height": 900})
    page.goto(created["links"]["edit"])
    assert page.locator(".board-scroll").evaluate("e => e.scrollWidth <= e.clientWidth")
    assert page.locator(".scroll-hint").evaluate("e => getComputedStyle(e).opacity") == "0"


#: Where the first row of buttons and the Save bar are on screen, as the page opens.
FIRST_ROW = """() => {
  const row = document.querySelector('.seat-row'), bar = document.querySelector('.action-bar');
  const top = document.querySelector('.top'), r = row.getBoundingClientRect(),
    b = bar.getBoundingClientRect();
  return { row: [r.top, r.bottom], bar: [b.top, b.bottom],
           header: top.getBoundingClientRect().height, scrolled: scrollY, height: innerHeight };
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("step", ["tricks", "bids-at-once", "correct"])
def test_held_sideways_the_first_row_of_buttons_shows_above_the_save_bar(page: Page, step: str,
                                                                         scheme: str) -> None:
    """844 × 390: the header, the deal's title and the Save bar leave room for the
    first row, unscrolled."""
    page.set_viewport_size({"width": 844, "height": 390})
    page.emulate_media(color_scheme=scheme)
    rules: dict[str, object] = {"max_cards": 10}
    deals: list[dict[str, object]] = [{"bids": [3, 2, 2, 2]}]
    if step == "bids-at-once":
        rules, deals = {"preset": "british-oh-hell", "deal": "down", "max_cards": 10}, []
    if step == "correct":
        deals = [{"bids": [3, 2, 2, 2], "tricks": [3, 2, 2, 3]}]
    created = page.request.post("/api/games", data={"players": ["Ann", "Bob", "Cy", "Dee"],
                                                     "rules": rules, "deals": deals}).json()
    page.goto(created["links"]["edit"] + ("/deal/1" if step == "correct" else ""))
    expect(page.locator(".action-bar")).to_be_visible()
    at = page.evaluate(FIRST_ROW)
    assert at["scrolled"] == 0
    assert at["header"] <= 48, at  # one line
    assert at["bar"][1] - at["bar"][0] <= 70, at  # the sum beside the Save button
    assert at["row"][1] <= at["bar"][0], at  # the whole first row, above the bar


#: How many pixels of the board are out of sight to the right of its box.
OVERFLOW = ("() => { const box = document.querySelector('.board-scroll');"
            " return box.scrollWidth - box.clientWidth; }")


@pytest.mark.parametrize("where", ["edit", "view"])
def test_the_scroll_hint_shows_only_when_columns_are_hidden(page: Page, where: str) -> None:
    created = page.request.post("/api/games", data={
        "players": ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"], "rules": {"max_cards": 3},
        "deals": [{"bids": [1, 1, 0, 0, 0, 0], "tricks": [1, 1, 1, 0, 0, 0]}]}).json()
    page.goto(created["links"][where])
    hint = page.locator(".scroll-hint")
    overflow = page.evaluate(OVERFLOW)
    assert overflow > 60  # 390 px: a player's column is out of sight
    expect(hint).to_be_visible()
    # the board 4 px wider than its box
    page.set_viewport_size({"width": 390 + overflow - 4, "height": 844})
    expect(hint).to_be_hidden()
    assert 0 < page.evaluate(OVERFLOW) <= 8
    page.set_viewport_size({"width": 390 + overflow + 40, "height": 844})  # all of it in sight
    expect(hint).to_be_hidden()
    page.set_viewport_size({"width": 390, "height": 844})  # turned back: hidden columns again
    expect(hint).to_be_visible()
