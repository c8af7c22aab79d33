"""A whole 4-player game in Chromium: setup, a refused hook bid, a correction,
stakes, the settled end."""

from __future__ import annotations

import pytest
from phone import PHONE, Taps, assert_fits_the_phone
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser


def test_a_whole_game_to_the_settled_end(page: Page) -> None:
    taps = Taps(page)
    page.goto("/")
    assert_fits_the_phone(page)
    taps.tap("text=New game")
    for seat, name in enumerate(["Ann", "Bob", "Cy", "Dee"]):
        taps.fill(f"input[name=players-{seat}]", name)
    taps.tap("summary:has-text('House rules')")
    taps.fill("input[name='rules-max_cards']", "2")
    expect(page.locator("#example")).to_contain_text("made: 10 + tricks")
    taps.tap("summary:has-text('Stakes')")
    page.select_option("select[name=stakes]", "per_point")
    taps.fill("input[name=amount]", "0.10")
    taps.fill("input[name=currency]", "€")
    assert_fits_the_phone(page)
    taps.save("button.primary[value=preview]")
    expect(page.locator("h2")).to_contain_text("Schedule: 3 deals")
    assert_fits_the_phone(page)
    taps.save(page.locator("button[value=start]").first)

    # Deal 1, 2 cards: Bob 1, Cy 0, Dee 0 — Ann deals and the hook forbids 1.
    expect(page.locator(".deal-title")).to_have_text("Deal 1 of 3 · 2 cards")
    for bid in (1, 0, 0):
        taps.bid(bid)
    struck = page.locator(".bid-form button.struck")
    expect(struck).to_have_text("1")
    expect(struck).to_have_attribute("aria-disabled", "true")  # reachable by Tab, its reason read
    reason = "Ann deals and can't bid 1: the bids would add up to the 2 tricks (hook)"
    expect(page.locator("#bid-reason")).to_have_text(reason)
    assert_fits_the_phone(page)
    struck.click(force=True)  # refused on the phone, as the page's data says: nothing is sent
    expect(page.locator("#tap-status")).to_have_text(reason)
    expect(page.locator(".prompt")).to_contain_text("Ann bids")
    game_url = page.url
    assert "/bid" not in game_url
    page.reload()  # a reload lands on the same step
    expect(page.locator(".prompt")).to_contain_text("Ann bids")
    taps.bid(0)

    # Tricks: rows start at the bids, Ann (dealer) gets the rest; Cy took one more than bid.
    expect(page.locator("#trick-sum")).to_contain_text("Together 2 of 2 tricks")
    taps.took(2, 1)
    expect(page.locator(".seat-row[data-seat='0'] input:checked")).to_have_value("0")
    expect(page.locator("#trick-sum")).to_have_text("Together 2 of 2 tricks ✓")
    assert_fits_the_phone(page)
    taps.save(".tricks-form button[type=submit]")
    expect(page.locator(".last-deal")).to_contain_text("Deal 1 scored")

    # Deal 2, 1 card: everyone bids 0, Bob (dealer) takes the trick — the default rest.
    for bid in (0, 0, 0, 0):
        taps.bid(bid)
    taps.save(".tricks-form button[type=submit]")

    # Correct deal 1: it was Dee, not Cy, who took the second trick.
    taps.save(page.get_by_role("link", name="1 · ").first)
    assert_fits_the_phone(page)
    expect(page.locator("input[type=text]")).to_have_count(0)  # the big buttons of the entry steps
    tricks = "[data-kind=tricks][data-seat='{}'] label.num"
    taps.tap(page.locator(tricks.format(2)).nth(0))
    expect(page.locator("[data-kind=tricks][data-seat='2'] [data-mark]")).to_have_text("✓ made")
    # Ann dealt: the rest
    expect(page.locator("[data-kind=tricks][data-seat='0'] input:checked")).to_have_value("1")
    taps.tap(page.locator(tricks.format(3)).nth(1))
    expect(page.locator("#trick-sum")).to_have_text("Together 2 of 2 tricks ✓")
    # Ann's own count, by hand: it no longer follows
    taps.tap(page.locator(tricks.format(0)).nth(1))
    expect(page.locator("#trick-sum")).to_have_text("Together 3 of 2 tricks: 1 too many")
    save = page.locator(".correct button[type=submit]")
    expect(save).to_have_text("Can't save: 1 trick too many")
    taps.tap(save, held=True)  # as at the tricks step, not sent
    expect(save).to_be_focused()
    assert "/deal/1" in page.url and page.locator("#error").count() == 0
    # Cy bid 1: Ann can't bid 0
    taps.tap(page.locator("[data-kind=bids][data-seat='2'] label.num").nth(1))
    expect(page.locator("#reason-0")).to_have_text(
        "Ann deals and can't bid 0: the bids would add up to the 2 tricks (hook)")
    expect(save).to_have_text("Can't save: Ann can't bid 0")
    taps.tap(save, held=True)
    expect(page.locator("#reason-0")).to_be_focused()
    taps.tap(page.locator("[data-kind=bids][data-seat='2'] label.num").nth(0))
    expect(page.locator("#reason-0")).to_contain_text("Ann deals and can't bid 1")
    taps.tap(page.locator(tricks.format(0)).nth(0))
    expect(page.locator("#trick-sum")).to_have_text("Together 2 of 2 tricks ✓")
    taps.save(".correct button[type=submit]")
    expect(page.locator(".deal-title")).to_have_text("Deal 3 of 3 · 2 cards")
    totals = page.locator(".board tfoot td")
    expect(totals).to_have_text(["20", "12", "20", "11"])

    # Deal 3, 2 cards: Dee 1, Ann 0, Bob 0, Cy (dealer) can't bid 1; Cy takes the rest, 1 trick.
    for bid in (1, 0, 0, 0):
        taps.bid(bid)
    taps.save(".tricks-form button[type=submit]")

    expect(page.locator(".over-title")).to_have_text("Game over")
    expect(page.locator(".winner")).to_have_text("★ Ann wins with 30.")
    payments = page.locator(".payments li")
    expect(payments).to_have_count(3)
    expect(payments).to_have_text(["Cy pays Ann €1.10", "Bob pays Ann €0.70", "Dee pays Ann €0.70"])
    assert_fits_the_phone(page)
    page.emulate_media(color_scheme="dark")
    assert_fits_the_phone(page)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_the_deal_just_scored_is_corrected_or_taken_back_from_its_card(
        browser: Browser, server: str, javascript: bool) -> None:
    context = browser.new_context(viewport=PHONE, base_url=server, java_script_enabled=javascript)
    page = context.new_page()
    created = page.request.post("/api/games", data={
        "players": ["Ann", "Bob", "Cy", "Dee"], "rules": {"max_cards": 3},
        "deals": [{"bids": [1, 1, 0, 0], "tricks": [1, 1, 1, 0]}]}).json()
    page.goto(created["links"]["edit"])
    card = page.locator(".last-deal")
    expect(card).to_contain_text("Deal 1 scored")
    card.get_by_role("link", name="Correct this deal").click()
    expect(page.locator("h1")).to_have_text("Correct deal 1 of 5")
    page.get_by_role("button", name="↶ Take back its tricks").click()
    expect(page.locator(".flash-done")).to_have_text(
        "Deal 1: the tricks are taken back; enter them again.")
    expect(page.locator(".deal-title")).to_contain_text("Deal 1 of")
    expect(page.locator(".tricks-form")).to_be_visible()  # its bids kept, the tricks to enter again
    page.locator(".seat-row[data-seat='2'] label.num").nth(0).click()
    page.locator(".seat-row[data-seat='3'] label.num").nth(1).click()
    if not javascript:
        page.locator(".seat-row[data-seat='0'] label.num").nth(1).click()
    page.locator(".tricks-form button[type=submit]").click()
    expect(page.locator(".last-deal h2")).to_have_text("Deal 1 scored", timeout=10_000)
    expect(page.locator(".board tfoot td")).to_have_text(["11", "11", "10", "1"])
    context.close()
