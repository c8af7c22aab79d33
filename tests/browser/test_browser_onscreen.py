"""Each step's main action is on the screen of a 390 × 844 phone without
scrolling, however many rows."""

from __future__ import annotations

from typing import Any

import pytest
from phone import assert_fits_the_phone
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

FIVE = ["Ann", "Bob", "Cy", "Dee", "Eve"]
TEN = [*FIVE, "Fay", "Gus", "Hal", "Ivy", "Jo"]


def opened(page: Page, **document: Any) -> None:
    """A game stored through the API, opened on this phone."""
    created = page.request.post("/api/games", data=document).json()
    page.goto(created["links"]["edit"])


def on_screen(page: Page, selector: str) -> None:
    """The element is wholly inside the viewport, the page not scrolled."""
    assert page.evaluate("window.scrollY") == 0
    box = page.locator(selector).bounding_box()
    assert box, selector
    height = page.viewport_size["height"]  # type: ignore[index]
    assert 0 <= box["y"] and box["y"] + box["height"] <= height, (
        f"{selector} at {box}, screen {height} px")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_save_button_of_a_ten_card_deal_for_five_is_on_screen(page: Page, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme)
    opened(page, players=FIVE, deals=[{"bids": [2, 2, 2, 2, 1]}])
    expect(page.locator(".deal-title")).to_have_text("Deal 1 of 19 · 10 cards")
    # the rows run below the screen
    assert page.evaluate("document.documentElement.scrollHeight") > 844
    on_screen(page, ".tricks-form button[type=submit]")
    on_screen(page, "#trick-sum")
    page.locator(".seat-row[data-seat='1'] label.num").nth(3).click()  # the sum follows in the bar
    expect(page.locator("#trick-sum")).to_have_text("Together 10 of 10 tricks ✓")
    assert_fits_the_phone(page)


def test_the_save_button_of_ten_players_is_on_screen(page: Page) -> None:
    opened(page, players=TEN, deals=[{"bids": [1, 0, 0, 1, 0, 0, 1, 0, 0, 1]}])
    expect(page.locator(".deal-title")).to_have_text("Deal 1 of 9 · 5 cards")
    on_screen(page, ".tricks-form button[type=submit]")
    assert_fits_the_phone(page)


def test_the_save_button_of_bids_shown_at_once_is_on_screen(page: Page) -> None:
    opened(page, players=FIVE, rules={"preset": "british-oh-hell", "deal": "down", "max_cards": 10})
    expect(page.locator(".prompt")).to_contain_text("The bids are sealed until everyone has bid")
    on_screen(page, ".seats button[type=submit]")
    for seat, bid in enumerate([2, 3, 1, 0, 2]):
        page.locator(f".seat-row:has(input[name=bids-{seat}]) label.num").nth(bid).click()
    expect(page.locator("#bid-sum")).to_have_text("5 of 5 bids · together 8 for 10 tricks")
    assert_fits_the_phone(page)


def test_the_bid_buttons_of_ten_players_are_on_screen(page: Page) -> None:
    opened(page, players=TEN, deals=[{"bids": [None, 0, 0, 1, 0, 0, 1, 0, 0, 1]}])
    expect(page.locator(".prompt")).to_contain_text("Ann bids (the dealer, last)")
    on_screen(page, ".bid-form .numbers button >> nth=-1")


def test_the_save_button_of_a_correction_for_ten_players_is_on_screen(page: Page) -> None:
    opened(page, players=TEN, deals=[{"bids": [1, 0, 0, 1, 0, 0, 1, 0, 0, 1],
                                      "tricks": [1, 0, 0, 1, 0, 0, 1, 1, 0, 1]}])
    page.goto(page.url + "/deal/1")
    on_screen(page, ".correct button[type=submit]")
    assert_fits_the_phone(page)
