"""Changes at the table in Chromium: the plan changed mid-game and played to its new end, then the
same table again; the plan page by keyboard alone and without JavaScript; new rules previewed and
saved."""

from __future__ import annotations

from typing import Any

import pytest
from phone import Taps, assert_fits_the_phone
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

FOUR = ["Ann", "Bob", "Cy", "Dee"]
#: 3 cards down to 1 and back up: 5 deals. Deal 1 (Ann deals) is scored.
GAME = {"players": FOUR, "rules": {"max_cards": 3},
        "deals": [{"bids": [0, 1, 1, 0], "tricks": [1, 1, 0, 1]}]}


def opened(page: Page, **document: Any) -> None:
    """A game stored through the API, opened on this phone."""
    created = page.request.post("/api/games", data=document).json()
    page.goto(created["links"]["edit"])


def rows(page: Page) -> list[str]:
    """The cards of each deal still to come, as the plan page shows them now."""
    return [field.input_value() for field in page.locator(".plan-rows input[name^=cards-]").all()]


def test_stop_after_this_deal_then_play_to_the_end_and_play_again(page: Page) -> None:
    taps = Taps(page)
    opened(page, **GAME)
    for bid in (1, 0, 0):  # deal 2, 2 cards: Cy, Dee, Ann bid; Bob deals
        taps.bid(bid)
    taps.tap("text=Change the plan…")
    expect(page.locator("h1")).to_have_text("Change the plan")
    assert rows(page) == ["1", "2", "3"]
    expect(page.locator(".plan-no").first).to_have_text("Deal 3")
    assert_fits_the_phone(page)

    taps.tap(".plan-row >> nth=0 >> button[value=more-0]")  # in place: no trip to the server
    taps.tap(".plan-row >> nth=1 >> button[value=remove-1]")
    assert rows(page) == ["2", "3"]
    expect(page.locator(".plan-no").nth(1)).to_have_text("Deal 4")
    expect(page.locator("#plan-count")).to_have_text("2 deals to come")

    taps.save("button[value=stop]")
    assert rows(page) == []
    expect(page.locator(".plan-none")).to_have_text("Nothing more: the game ends after deal 2.")
    taps.save("#plan-form .action-bar button[value=save]")
    expect(page.locator(".flash-done")).to_have_text("The plan is changed: this deal is the last.")
    expect(page.locator(".deal-title")).to_have_text("Deal 2 of 2 · 2 cards")

    taps.bid(0)  # Bob can't bid 1 (hook)
    taps.took(3, 1)  # Dee took one she didn't bid; Bob, the dealer, none
    taps.save(".tricks-form button[type=submit]")
    expect(page.locator(".over-title")).to_have_text("Game over")
    assert_fits_the_phone(page)
    old = page.url
    taps.save("button:has-text('Play again')")
    assert page.url != old
    expect(page.locator(".flash-done")).to_have_text(
        "A new game for the same table: Cy deals first.")
    expect(page.locator(".deal-meta")).to_contain_text("Cy deals · Dee bids first")
    page.goto("/")
    expect(page.locator(".games li")).to_have_count(2)


def focus_by_tab(page: Page, selector: str, most: int = 60) -> None:
    """Press Tab until ``selector`` has the focus, as someone without a mouse
    or a touch screen does."""
    for _ in range(most):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement && document.activeElement.matches(s)",
                         selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_the_plan_page_by_keyboard_alone(page: Page) -> None:
    opened(page, **GAME)
    page.goto(page.url + "/plan")
    focus_by_tab(page, "button[value=remove-0]")
    page.keyboard.press("Enter")  # deal 2's place is gone; the focus moves to the next deal's ✕
    assert rows(page) == ["1", "2", "3"]
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "Remove deal 2"
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == (
        "Deal 2: one card more")
    page.keyboard.press("Space")
    assert rows(page) == ["2", "2", "3"]
    focus_by_tab(page, "button[value=one]")
    page.keyboard.press("Enter")  # one more one-card deal; its cards have the focus
    assert rows(page) == ["2", "2", "3", "1"]
    assert page.evaluate("document.activeElement.name") == "cards-3"
    page.keyboard.press("Enter")  # Enter in a field saves the plan
    expect(page.locator(".flash-done")).to_have_text("The plan is changed: 4 deals to come.")
    expect(page.locator(".deal-title")).to_have_text("Deal 2 of 5 · 2 cards")


def test_without_javascript_the_plan_buttons_post_and_come_back(plain: Page) -> None:
    taps = Taps(plain)
    opened(plain, **GAME)
    taps.tap("text=Change the plan…")
    assert rows(plain) == ["2", "1", "2", "3"]
    taps.save("button[value=remove-0]")
    taps.save("button[value=less-1]")
    taps.save("button[value=one]")
    assert rows(plain) == ["1", "1", "3", "1"]
    plain.select_option("select[name=shape]", "down")
    plain.fill("input[name=top]", "2")
    taps.save("button[value=rebuild]")
    assert rows(plain) == ["2", "1"]
    assert_fits_the_phone(plain)
    taps.save("#plan-form .action-bar button[value=save]")
    expect(plain.locator(".flash-done")).to_have_text("The plan is changed: 2 deals to come.")
    expect(plain.locator(".deal-title")).to_have_text("Deal 2 of 3 · 2 cards")


def test_new_rules_are_previewed_then_saved(page: Page) -> None:
    taps = Taps(page)
    opened(page, **GAME)
    taps.tap("text=Change the rules…")
    expect(page.locator("input[name='rules-max_cards']")).to_have_value("3")
    assert_fits_the_phone(page)
    page.select_option("select[name='rules-scoring']", "exact")
    taps.save("#rules-form .action-bar button")
    expect(page.locator("h1")).to_have_text("Play by these rules?")
    expect(page.locator("table.changes").first).to_contain_text("Ann")
    assert_fits_the_phone(page)
    taps.save("button[value=save]")
    expect(page.locator(".flash-done")).to_have_text(
        "The rules are changed: 1 deal scores differently.")
