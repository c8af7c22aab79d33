"""Sealed bids on the players' own phones (SEATS.md, "Sealed bids"), in Chromium: a deal of bids at
once with the scorer's phone and four seats' phones. Each player bids on their own phone (Dee has
none: the scorer bids for her, sealed too); every other phone shows only who has bid; once the
last bid is in, all of them show at once on every phone."""

from __future__ import annotations

import pytest
from phone import PHONE, assert_fits_the_phone, next_look
from playwright.sync_api import Browser, BrowserContext, Page, expect

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
#: The bids of deal 1 (7 cards), by seat; Bob bids first, Ann deals.
BIDS = [3, 2, 5, 1]


def test_a_sealed_deal_each_player_bids_on_their_phone_and_all_show_at_once(
        page: Page, browser: Browser, server: str) -> None:
    made = page.request.post("/api/games", data={
        "players": PLAYERS, "rules": {"preset": "british-oh-hell", "deal": "custom",
                                      "sequence": "7-6"}}).json()
    page.goto(made["links"]["edit"])  # the scorer's phone
    contexts: list[BrowserContext] = []
    phones: list[Page] = []
    for seat in range(3):  # Dee has no phone
        context = browser.new_context(viewport=PHONE, base_url=server, service_workers="block")
        contexts.append(context)
        phone = context.new_page()
        phone.clock.install()
        phone.goto(made["links"]["join"])
        phone.get_by_role("link", name=PLAYERS[seat]).click()
        expect(phone.locator(".your-bid")).to_have_text("Your bid, sealed until everyone has bid")
        phones.append(phone)
    assert_fits_the_phone(phones[0])
    order = [1, 2, 3, 0]  # Bob, Cy, Dee, Ann: how every phone lists them
    bids, bid_in = list(BIDS), set()
    for seat in (1, 0, 2):
        phones[seat].locator("form.seat-bid button.num", has_text=str(bids[seat])).first.click()
        bid_in.add(seat)
        expect(phones[seat].locator(".your-bid")).to_have_text(
            f"Your bid: {bids[seat]}, sealed. Change it until everyone has bid.")
        for other, phone in enumerate(phones):
            next_look(phone)
            expected = [f"{bids[p]} (your bid, sealed)" if p == other and p in bid_in
                        else "✓ has bid" if p in bid_in else "… not yet" for p in order]
            expect(phone.locator(".sealed-bids .what")).to_have_count(4)
            expect(phone.locator(".sealed-bids .what")).to_have_text(expected)
        # the scorer's page follows: a player who bid on their phone shows as having bid, no more
        expect(page.locator(f"#step .seat-row[data-seat='{seat}'] .has-bid")).to_have_text(
            "✓ has bid, on another phone")
        expect(page.locator(f"#step .seat-row[data-seat='{seat}'] input")).to_have_count(0)
    # Bob changes his mind before the last bid is in
    phones[1].locator("form.seat-bid button.num", has_text="4").first.click()
    expect(phones[1].locator(".your-bid")).to_contain_text("Your bid: 4, sealed.")
    bids[1] = 4
    # the last bid, Dee's, from the scorer's phone: every bid shows at once, on every phone
    expect(page.locator("#bid-sum")).to_have_text(
        "3 of 4 have bid · the bids show once everyone has")
    page.locator("#step .seat-row[data-seat='3'] label.num").nth(bids[3]).click()
    page.locator("#step .bids-form button[type=submit]").click()
    expect(page.locator(".tricks-form")).to_be_visible()
    for seat in range(4):
        expect(page.locator(f".tricks-form [data-seat='{seat}'] legend .muted")).to_have_text(
            f"bid {bids[seat]}")
    for phone in phones:
        next_look(phone)
        expect(phone.locator("#step .bidders .what")).to_have_text(
            [str(bids[p]) for p in order])
        expect(phone.locator(".sealed-bids")).to_have_count(0)
        # the bids shown, each player's phone asks for their own trick count
        expect(phone.locator(".your-count")).to_have_text("Your tricks")
    for context in contexts:
        context.close()


def test_the_same_seat_on_another_phone_shows_that_it_has_bid_not_the_bid(
        page: Page, browser: Browser, server: str) -> None:
    made = page.request.post("/api/games", data={
        "players": PLAYERS, "rules": {"preset": "british-oh-hell", "deal": "custom",
                                      "sequence": "7-6"}}).json()
    page.goto(made["links"]["seats"][0])
    page.locator("form.seat-bid button.num", has_text="6").first.click()
    expect(page.locator(".your-bid")).to_contain_text("Your bid: 6, sealed.")
    context = browser.new_context(viewport=PHONE, base_url=server, service_workers="block")
    other = context.new_page()
    other.goto(made["links"]["seats"][0])
    expect(other.locator(".seat-note")).to_have_text(
        "Your bid is in, entered on another phone: this seat is open there too, or the scorer "
        "entered it. Until everyone has bid, only that phone shows the bid or changes it.")
    expect(other.locator(".your-bid")).to_have_count(0)
    expect(other.locator(".sealed-bids .what").last).to_have_text("✓ has bid")
    context.close()
