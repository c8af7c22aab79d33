"""The read-only page follows the game while it is scored on another phone, without a reload."""

from __future__ import annotations

import pytest
from phone import PHONE, Taps, assert_fits_the_phone, next_look
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser


def test_the_read_only_page_updates_itself_as_deals_are_entered(page: Page, browser: Browser,
                                                                server: str) -> None:
    taps = Taps(page)
    page.goto("/new")
    for seat, name in enumerate(["Ann", "Bob", "Cy", "Dee"]):
        page.fill(f"input[name=players-{seat}]", name)
    page.locator("details.box summary").first.click()
    page.fill("input[name='rules-max_cards']", "2")
    taps.save("button.primary[value=preview]")
    taps.save(page.locator("button[value=start]").first)
    page.goto(page.url + "/share")
    view_url = page.locator(".share .link a").first.get_attribute("href")
    assert view_url and "/v/" in view_url
    page.go_back()

    viewer_context = browser.new_context(viewport=PHONE)
    viewer = viewer_context.new_page()
    viewer.clock.install()
    viewer.goto(view_url)
    expect(viewer.locator(".deal-title")).to_have_text("Deal 1 of 3 · 2 cards")
    viewer.evaluate("window.notReloaded = true")
    assert viewer.locator("form").count() == 0
    assert_fits_the_phone(viewer)

    taps.bid(1)  # answered: stored
    next_look(viewer)
    expect(viewer.locator(".announce")).to_have_text("Bids 1 for 2 tricks: under by 1")
    for bid in (0, 0, 0):
        taps.bid(bid)
    taps.save(".tricks-form button[type=submit]")
    next_look(viewer)
    expect(viewer.locator(".last-deal")).to_contain_text("Deal 1 scored")
    expect(viewer.locator("#live-status")).to_have_text("Deal 1 scored")  # for a screen reader,
    expect(viewer.get_by_text("Deal 1 scored")).to_have_count(2)
    seen = viewer.get_by_text("Deal 1 scored").evaluate_all(
        "found => found.filter(e => e.checkVisibility() && e.getBoundingClientRect().width > 1)"
        ".length")
    assert seen == 1  # but said once to the eye: the deal's card
    expect(viewer.locator(".board tbody tr").first).to_contain_text("1 / 1")
    assert viewer.evaluate("window.notReloaded") is True
    viewer_context.close()
