"""Every player's phone (SEATS.md): four players take their seats from the join link on their own
phones, and bid in turn there, while the scorer's phone goes on as before."""

from __future__ import annotations

import pytest
from phone import PHONE, assert_fits_the_phone, next_look
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def test_a_whole_deal_bid_in_turn_on_the_players_own_phones(page: Page, browser: Browser,
                                                             server: str) -> None:
    made = page.request.post("/api/games", data={"players": PLAYERS,
                                                 "rules": {"max_cards": 2}}).json()
    page.goto(made["links"]["edit"])  # the scorer's phone
    phones: list[Page] = []
    contexts = []
    for seat, name in enumerate(PLAYERS):
        context = browser.new_context(viewport=PHONE, base_url=server, service_workers="block")
        contexts.append(context)
        # the phone's buzzer, counted
        context.add_init_script("window.buzzed = 0;"
                                " navigator.vibrate = () => { window.buzzed++; return true; };")
        phone = context.new_page()
        phone.clock.install()
        phone.goto(made["links"]["join"])
        phone.get_by_role("link", name=name).click()
        expect(phone.locator(".seat-me")).to_contain_text(f"Your seat: {name}")
        assert phone.url == made["links"]["seats"][seat]
        phones.append(phone)
    assert_fits_the_phone(phones[0])
    # Deal 1 (2 cards): Ann deals, Bob bids first, then Cy, Dee and Ann
    order, bids = [1, 2, 3, 0], [1, 0, 0]
    for step, seat in enumerate(order):
        for other, phone in enumerate(phones):
            next_look(phone)
            if other == seat:
                expect(phone.locator(".your-bid")).to_be_visible()
                # the turn came while the page was open (the first bidder's was there already)
                assert phone.evaluate("window.buzzed") == (1 if step else 0)
            else:
                expect(phone.locator("#step .muted")).to_have_text(
                    f"{PLAYERS[seat]} is bidding.")
                expect(phone.locator(".your-bid")).to_have_count(0)
        if seat == 0:  # the dealer: the hook struck out, with its reason
            struck = phones[0].locator("button.num.struck")
            expect(struck).to_have_text("1")
            expect(phones[0].locator("#bid-reason")).to_contain_text(
                "Ann deals and can't bid 1")
            struck.focus()  # reachable by the keyboard, so its reason is read; it sends nothing
            phones[0].keyboard.press("Enter")
            expect(phones[0].locator(".your-bid")).to_be_visible()
            bid = 2
            phones[0].keyboard.press("Tab")  # the next bid, by the keyboard alone
            expect(phones[0].locator("button.num:focus")).to_have_text("2")
            phones[0].keyboard.press("Enter")
        else:
            bid = bids[step]
            phones[seat].locator("button.num:not(.struck)", has_text=str(bid)).click()
        expect(phones[seat].locator(f"#step .bidders li:nth-child({step + 1}) .what")
               ).to_have_text(str(bid))
    for phone in phones:
        next_look(phone)
        expect(phone.locator(".your-count")).to_have_text("Your tricks")
    # the scorer's phone saw the bids come in, without a reload (its page follows the game), and
    # goes on as before: the tricks, entered for everyone
    expect(page.locator(".tricks-form")).to_be_visible()
    page.locator(".tricks-form [data-seat='1'] label.num").nth(1).click()
    page.locator(".tricks-form [data-seat='2'] label.num").nth(0).click()
    page.locator(".tricks-form [data-seat='3'] label.num").nth(0).click()
    page.locator(".tricks-form [data-seat='0'] label.num").nth(1).click()
    page.locator(".tricks-form button[type=submit]").click()
    expect(page.locator(".deal-title")).to_contain_text("Deal 2")
    # deal 2: Bob deals, Cy bids first
    next_look(phones[2])
    expect(phones[2].locator(".your-bid")).to_be_visible()
    expect(phones[2].locator(".seat-me")).to_contain_text("place")
    for context in contexts:
        context.close()


def test_a_seat_bids_without_javascript(plain: Page) -> None:
    made = plain.request.post("/api/games", data={"players": PLAYERS,
                                                  "rules": {"max_cards": 2}}).json()
    plain.goto(made["links"]["join"])
    plain.get_by_role("link", name="Cy").click()
    expect(plain.locator("#step .muted")).to_have_text("Bob is bidding.")
    # Bob bids from his phone, through the API
    bob = made["links"]["seats"][1].replace("/s/", "/api/games/") + "/taps"
    assert plain.request.post(bob, data={"tap": "bob-taps-0001", "deal": 1, "step": "bid",
                                         "value": 1}).ok
    plain.reload()
    plain.get_by_role("button", name="0").click()
    expect(plain.locator("#step .bidders li:nth-child(2) .what")).to_have_text("0")
    expect(plain.locator("#step .muted")).to_have_text("Dee is bidding.")
