"""Changes at the table in Chromium: a short game through a late arrival, a sit-out, a departure
and a change of plan to the settled end; the arrival form with the keyboard alone, and without
JavaScript."""

from __future__ import annotations

import pytest
from phone import Taps, assert_fits_the_phone
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

#: Three players down from 4 cards for 10 cents a point; deal 1 is Ann's.
GAME = {"players": ["Ann", "Bob", "Cy"], "rules": {"deal": "down", "max_cards": 4},
        "stakes": {"per_point": "0.10", "currency": "€"}}


def opened(page: Page, **document: object) -> str:
    """A game stored through the API and opened on this phone; its page's address."""
    created = page.request.post("/api/games", data={**GAME, **document}).json()
    page.goto(created["links"]["edit"])
    return page.url


def test_a_game_through_an_arrival_a_sit_out_a_departure_and_a_new_plan_to_the_settlement(
        page: Page) -> None:
    taps = Taps(page)
    opened(page)
    for bid in (1, 1, 1):                        # deal 1, 4 cards: Bob, Cy, then Ann deals
        taps.bid(bid)
    taps.save(".tricks-form button[type=submit]")  # Ann takes the rest, 2: she missed

    taps.save("text=Someone arrives…")
    assert_fits_the_phone(page)
    taps.fill("#arrive-name", "Dee")
    taps.tap("text=between Cy and Ann")
    taps.tap("text=the lowest total at the table")
    expect(page.locator("label:has-text('the lowest total at the table')")).to_contain_text(": 2")
    taps.save("#arrive-form button[type=submit]")
    expect(page.locator(".flash-done")).to_have_text("Dee joins at deal 2 with 2.")
    expect(page.locator(".seat-notes")).to_have_text("Dee joined at deal 2 with 2.")

    # Deal 2, 3 cards: Bob deals, Cy, Dee and Ann bid before him; Bob takes the rest and misses.
    expect(page.locator(".deal-meta")).to_have_text("Bob deals · Cy bids first and leads")
    for bid in (1, 0, 1, 0):
        taps.bid(bid)
    taps.save(".tricks-form button[type=submit]")

    taps.save("text=Someone leaves or sits out…")
    assert_fits_the_phone(page)
    taps.tap("#sit-out >> text=Bob")
    taps.save("#sit-out button[type=submit]")
    expect(page.locator(".flash-done")).to_have_text("Bob sits out deal 3.")
    expect(page.locator(".deal-away")).to_have_text("Bob sits this deal out.")
    expect(page.locator(".bidders .who")).to_have_text(["Dee", "Ann", "Cy deals"])
    # deal 3, 2 cards: Cy deals, takes the rest and misses
    for bid in (0, 1, 0):
        taps.bid(bid)
    expect(page.locator(".tricks-form .seat-row")).to_have_count(3)
    taps.save(".tricks-form button[type=submit]")
    expect(page.locator(".board tbody tr").nth(2).locator("td").nth(1)).to_have_text("–")

    taps.save("text=Someone leaves or sits out…")
    taps.tap("#leave >> text=Cy")
    taps.save("#leave button[type=submit]")
    expect(page.locator(".flash-done")).to_have_text("Cy leaves after deal 3.")
    expect(page.locator(".standings-strip")).to_contain_text("Cy (left)")

    taps.tap("text=Change the plan…")           # the table plays one more one-card deal
    expect(page.locator(".plan-no").first).to_have_text("Deal 4")
    taps.tap("button[value=one]")
    expect(page.locator("#plan-count")).to_have_text("2 deals to come")
    taps.save("#plan-form .action-bar button[value=save]")
    expect(page.locator(".flash-done")).to_have_text("The plan is changed: 2 deals to come.")

    # Deal 4, 1 card: Dee deals (the first dealt in after Cy), Ann bids first; Dee takes the trick.
    expect(page.locator(".deal-meta")).to_have_text("Dee deals · Ann bids first and leads")
    for bid in (0, 0, 0):
        taps.bid(bid)
    taps.save(".tricks-form button[type=submit]")
    # Deal 5, the one added: Ann deals, Bob bids first; Ann takes the trick she didn't bid.
    expect(page.locator(".deal-meta")).to_have_text("Ann deals · Bob bids first and leads")
    for bid in (0, 0, 0):
        taps.bid(bid)
    taps.save(".tricks-form button[type=submit]")

    expect(page.locator(".over-title")).to_have_text("Game over")
    # Everyone is ranked and settles, Cy too: Ann 35; Dee 33 (from her starting 2); Bob 32; Cy 23.
    expect(page.locator(".standings li")).to_have_text(["1. Ann 35", "2. Dee 33", "3. Bob 32",
                                                        "4. Cy (left) 23"])
    expect(page.locator(".winner")).to_have_text("★ Ann wins with 35.")
    # Pairwise at 10 cents: Ann +1.70, Dee +0.90, Bob +0.50, Cy −3.10.
    expect(page.locator(".payments li")).to_have_text(["Cy pays Ann €1.70", "Cy pays Dee €0.90",
                                                       "Cy pays Bob €0.50"])
    # nobody joins a game that is over
    assert "Someone arrives" not in page.locator("main").inner_text()
    assert_fits_the_phone(page)
    page.emulate_media(color_scheme="dark")
    assert_fits_the_phone(page)


def test_the_arrival_form_with_the_keyboard_alone(page: Page) -> None:
    game = opened(page, deals=[{"bids": [1, 1, 1], "tricks": [2, 1, 1]}])
    page.goto(game + "/arrive")
    page.keyboard.press("Tab")                   # the brand link
    page.keyboard.press("Tab")                   # the language control
    page.keyboard.press("Tab")                   # the name
    page.keyboard.type("Dee")
    page.keyboard.press("Tab")                   # the first gap, between Ann and Bob
    page.keyboard.press("ArrowDown")             # between Bob and Cy
    expect(page.locator("input[name=seat][value='2']")).to_be_checked()
    page.keyboard.press("Tab")                   # the starting scores: 0 first
    page.keyboard.press("Tab")                   # the number box: typing ticks "a number"
    page.keyboard.type("12")
    expect(page.locator("#start-number")).to_be_checked()
    page.keyboard.press("Enter")
    expect(page.locator(".flash-done")).to_have_text("Dee joins at deal 2 with 12.")
    # 12 leads
    expect(page.locator(".board thead th")).to_have_text(["Deal", "Ann", "Bob", "Dee ★", "Cy"])


def test_without_javascript_a_number_typed_is_the_starting_score(plain: Page) -> None:
    game = opened(plain, deals=[{"bids": [1, 1, 1], "tricks": [2, 1, 1]}])
    plain.goto(game + "/arrive")
    plain.fill("#arrive-name", "Dee")
    plain.locator("text=between Cy and Ann").click()
    plain.fill("#arrive-points", "-3")
    plain.locator("#arrive-form button[type=submit]").click()
    expect(plain.locator(".flash-done")).to_have_text("Dee joins at deal 2 with −3.")
    plain.goto(game + "/leave")
    plain.locator("#sit-out >> text=Dee").click()
    plain.locator("#sit-out button[type=submit]").click()
    expect(plain.locator(".deal-away")).to_have_text("Dee sits this deal out.")
