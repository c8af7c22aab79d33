"""With JavaScript off every screen still works: plain forms, POST-redirect-GET, same tap budget."""

from __future__ import annotations

import pytest
from phone import Taps, assert_fits_the_phone
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def test_setup_and_a_deal_without_javascript(plain: Page) -> None:
    taps = Taps(plain)
    plain.goto("/new")
    taps.save("button[value=add]")  # the row buttons post the form back, names kept
    assert plain.locator("input[name^=players-]").count() == 5
    for seat, name in enumerate(["Ann", "Bob", "Cy", "Dee"]):
        taps.fill(f"input[name=players-{seat}]", name)
    taps.save("button[value=remove-4]")
    taps.save("button.primary[value=preview]")
    taps.save(plain.locator("button[value=start]").first)
    expect(plain.locator(".deal-title")).to_have_text("Deal 1 of 19 · 10 cards")

    deal = Taps(plain)
    for bid in (3, 2, 2):
        deal.bid(bid)
    # Ann can't make it 10: not sent
    expect(plain.locator(".bid-form button.struck")).to_be_disabled()
    expect(plain.locator("#tap-status")).to_have_count(0)  # no outbox: each tap is a page load
    deal.bid(2)
    expect(plain.locator(".tricks-form .prompt")).to_contain_text(
        "Ann's too, so that together they make 10")
    deal.took(1, 4)  # Bob took one more; without JavaScript the dealer's count is tapped too
    deal.took(0, 2)
    deal.save(".tricks-form button[type=submit]")
    expect(plain.locator(".last-deal")).to_contain_text("Deal 1 scored")
    expect(plain.locator(".last-deal")).to_contain_text("Bob ✗ 4")
    assert deal.count <= 7
    assert_fits_the_phone(plain)


def test_without_javascript_enter_in_a_name_previews(plain: Page) -> None:
    plain.goto("/new")
    for seat, name in enumerate(["Ann", "Bob", "Cy"]):
        plain.fill(f"input[name=players-{seat}]", name)
    plain.press("input[name=players-2]", "Enter")
    expect(plain.locator("h1")).to_have_text("Ready to play?")
    expect(plain.locator(".lead")).to_contain_text("Ann · Bob · Cy")


def test_without_javascript_a_deal_is_corrected_with_the_same_buttons_and_checks(
        plain: Page) -> None:
    created = plain.request.post("/api/games", data={
        "players": ["Ann", "Bob", "Cy", "Dee"], "rules": {"max_cards": 3},
        "deals": [{"bids": [0, 1, 1, 0], "tricks": [1, 1, 1, 0]}]}).json()
    plain.goto(created["links"]["edit"] + "/deal/1")
    taps = Taps(plain)
    expect(plain.locator("input[type=text]")).to_have_count(0)
    # Ann dealt: the hook
    expect(plain.locator("[data-kind=bids][data-seat='0'] label.struck")).to_have_text("1")
    taps.tap("[data-kind=tricks][data-seat='3'] label.num >> nth=1")  # Dee took 1 too: 4 of 3
    taps.save(".correct button[type=submit]")
    expect(plain.locator("#error")).to_contain_text("The tricks add up to 4, but 3 were played")
    expect(plain.locator("#trick-sum")).to_have_text("Together 4 of 3 tricks: 1 too many")
    # kept
    expect(plain.locator("[data-kind=tricks][data-seat='3'] input:checked")).to_have_value("1")
    taps.tap("[data-kind=tricks][data-seat='0'] label.num >> nth=0")
    taps.save(".correct button[type=submit]")
    expect(plain.locator(".flash-done")).to_have_text("Deal 1 corrected.")
    assert taps.count == 4
