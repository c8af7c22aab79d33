"""A tap lands on its own deal, once, or the phone says why not; and a game goes on offline from
deal to deal: the findings of the last review, each as the user's steps in Chromium."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from test_browser_outbox import (
    ALL_SENT,
    PLAN_KEPT,
    Phones,
    bid,
    opened,
    outbox,
    phones,
    status,
    stored,
)

pytestmark = pytest.mark.browser
__all__ = ["phones"]  # the fixture, shared with the outbox's tests


def took(page: Page, seat: int, tricks: int) -> None:
    page.locator(f".seat-row[data-seat='{seat}'] label.num").nth(tricks).click()


def save_tricks(page: Page) -> None:
    page.locator(".tricks-form button[type=submit]").click()


def test_counts_that_dont_add_up_are_not_sent_and_said_once_with_the_rows_on_screen(
        phones: Phones, server: str) -> None:
    """Finding 1 and 6: deal 1's counts 9 of 10 are not sent; corrected, deal 1 is saved, and
    deal 2's bids go to deal 2, with no box of taps not saved left behind."""
    page = phones()
    token = opened(page)  # deal 1: 10 cards; Bob, Cy, Dee bid, Ann deals
    for value in (3, 2, 4, 0):
        bid(page, value)
    took(page, 0, 0)  # Ann, the dealer, took 0 instead of the 1 left: 9 of 10
    save = page.locator(".tricks-form button[type=submit]")
    expect(save).to_have_text("Can't save: 1 trick missing")
    save.click(force=True)  # held back, yet tapped: said on the status line, nothing sent
    expect(page.locator("#trick-sum")).to_have_text("Together 9 of 10 tricks: 1 missing")
    status(page).to_have_text("Together 9 of 10 tricks: 1 missing")
    expect(page.locator(".seat-row")).to_have_count(4)
    expect(page.locator(".seat-row[data-seat='0']")).to_be_in_viewport()  # the row tapped last
    expect(page.locator("#error, .unsaved:not([hidden])")).to_have_count(0)
    page.wait_for_function(ALL_SENT)  # the bids
    assert stored(server, token)["deals"][0].get("tricks") is None and outbox(page)["queue"] == []
    took(page, 1, 4)  # Bob took 4: 10 of 10
    save_tricks(page)
    status(page).to_have_text("Deal 1 saved", timeout=10_000)
    for value in (2, 2, 2, 2):  # deal 2: 9 cards
        bid(page, value)
    expect(page.locator(".tricks-form")).to_be_visible()
    page.wait_for_function(ALL_SENT)
    deals = stored(server, token)["deals"]
    assert deals[0]["tricks"] == [0, 4, 2, 4] and deals[1] == {**deals[1], "bids": [2, 2, 2, 2]}
    assert "tricks" not in deals[1]
    expect(page.locator(".unsaved:not([hidden])")).to_have_count(0)


def test_counts_for_a_deal_another_phone_finished_are_never_stored_on_the_next(phones: Phones,
                                                                               server: str) -> None:
    """Finding 1 through the server: this phone's counts for deal 1, sent after another phone saved
    deal 1 and began deal 2, are refused naming deal 1, and deal 2 stays as it is."""
    a, b = phones(), phones()
    token = opened(a, rules={"max_cards": 3})
    for value in (1, 1, 0, 0):
        bid(a, value)
    expect(a.locator(".tricks-form")).to_be_visible()
    a.wait_for_function(ALL_SENT)
    a.context.set_offline(True)
    took(a, 2, 2)
    save_tricks(a)
    b.goto(f"/g/{token}")
    save_tricks(b)  # Ann, the dealer, took the one left
    expect(b.locator(".bid-form")).to_be_visible()
    bid(b, 1)  # deal 2's first bid
    b.wait_for_function(ALL_SENT)
    a.context.set_offline(False)
    status(a).to_have_text("Deal 1 · The tricks of deal 1 — not saved: Deal 1 is finished: "
                           "this entry for it was not saved. To change the deal, correct it "
                           "from the board.", timeout=10_000)
    deals = stored(server, token)["deals"]
    assert deals[0]["tricks"] == [1, 1, 1, 0] and "tricks" not in deals[1]
    expect(a.locator(".unsaved:not([hidden])")).to_have_count(0)


def test_the_same_number_for_two_players_in_a_row_is_two_bids(phones: Phones, server: str) -> None:
    """Finding 3: a quick 1 for Bob, then 1 for Cy as soon as the screen says Cy bids next (before
    the server answered the first, as a quick hand does): both are taken."""
    page = phones()
    token = opened(page, rules={"max_cards": 5})
    page.locator(".bid-form button[name=bid][value='1']").click()
    status(page).to_have_text("Bob bid 1 · Cy bids next")
    page.locator(".bid-form button[name=bid][value='1']").click()
    status(page).to_have_text("Cy bid 1 · Dee bids next")
    page.wait_for_function(ALL_SENT)
    assert stored(server, token)["deals"][0]["bids"] == [None, 1, 1, None]


def test_three_deals_entered_offline_are_stored_each_on_its_own_deal(phones: Phones, server: str,
                                                                     no_server: Any) -> None:
    """Finding 4: deal after deal without a connection, then everything stored in order."""
    page = phones()
    token = opened(page, rules={"max_cards": 3})  # deals of 3, 2, 1, 2, 3 cards
    page.wait_for_function(PLAN_KEPT)
    page.context.set_offline(True)
    # In bidding order; the dealer's row takes what the others leave.
    # Stored by seat: Ann, Bob, Cy, Dee.
    entered = [((1, 1, 0, 0), ([0, 1, 1, 0], [1, 1, 1, 0])),
               ((0, 1, 0, 0), ([0, 0, 0, 1], [0, 1, 0, 1])),
               ((1, 0, 0, 1), ([0, 0, 1, 1], [0, 0, 0, 1]))]
    titles = ["Deal 1 of 5 · 3 cards", "Deal 2 of 5 · 2 cards", "Deal 3 of 5 · 1 card"]
    for number, (bids, _tricks) in enumerate(entered, 1):
        expect(page.locator(".deal-title")).to_have_text(titles[number - 1])
        for value in bids:
            bid(page, value)
        expect(page.locator(".tricks-form")).to_be_visible()
        save_tricks(page)  # the dealer takes what the others leave
    expect(page.locator(".deal-title")).to_have_text("Deal 4 of 5 · 2 cards")
    expect(page.locator(".pending h2")).to_have_text("Deal 3 entered · points pending")
    expect(page.locator("#tools .offline-note")).to_contain_text(
        "someone arriving or leaving, the plan and the rules")
    status(page).to_contain_text("saved, waiting for the network")
    assert stored(server, token)["deals"] == []
    page.context.set_offline(False)
    status(page).to_have_text("Deal 3 saved", timeout=15_000)
    expect(page.locator("#tools .offline-note")).to_be_hidden()
    deals = stored(server, token)["deals"]
    assert len(deals) == 3
    assert [(deal["bids"], deal["tricks"]) for deal in deals] == [by_seat
                                                                  for _taps, by_seat in entered]
    expect(page.locator(".deal-title")).to_have_text("Deal 4 of 5 · 2 cards")


def test_counts_tapped_survive_a_reload(phones: Phones) -> None:
    """Finding 5: the tricks step keeps the counts tapped so far through a reload."""
    page = phones()
    opened(page, rules={"max_cards": 3})
    for value in (1, 1, 0, 0):
        bid(page, value)
    took(page, 2, 2)  # Cy took 2; Ann, the dealer, the rest: 0
    expect(page.locator("#trick-sum")).to_have_text("Together 3 of 3 tricks ✓")
    page.wait_for_function(ALL_SENT)
    page.reload()
    expect(page.locator(".seat-row[data-seat='2'] input[value='2']")).to_be_checked()
    expect(page.locator(".seat-row[data-seat='0'] input[value='0']")).to_be_checked()
    expect(page.locator("#trick-sum")).to_have_text("Together 3 of 3 tricks ✓")
