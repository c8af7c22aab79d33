"""Trick counts from the players' own phones (SEATS.md, "Tricks"), in Chromium: four seats' phones
and the scorer's at a deal whose bids are in; the players enter their counts on their own phones,
one of them wrong, every phone shows who has entered and then the mismatch, and it is settled: by
the player changing their count, or by the scorer."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from phone import PHONE, next_look
from playwright.sync_api import Browser, BrowserContext, Page, expect

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
#: Deal 1 (2 cards, Ann deals) with every bid in.
GAME = {"players": PLAYERS, "rules": {"max_cards": 2}, "deals": [{"bids": [1, 0, 0, 0]}]}
MISMATCH = "3 tricks entered, 2 played: Ann 1, Bob 1, Cy 0, Dee 1."


@pytest.fixture
def contexts(browser: Browser, server: str) -> Iterator[list[BrowserContext]]:
    """Four phones of their own, one per player."""
    made = [browser.new_context(viewport=PHONE, base_url=server, service_workers="block")
            for _ in PLAYERS]
    yield made
    for context in made:
        context.close()


def seated(page: Page, contexts: list[BrowserContext]) -> tuple[dict[str, str], list[Page]]:
    """The game opened on the scorer's phone (``page``) and each player's seat on their own."""
    made = page.request.post("/api/games", data=GAME).json()
    page.goto(made["links"]["edit"])
    phones = []
    for seat, context in enumerate(contexts):
        phone = context.new_page()
        phone.clock.install()  # their look at the game, when the test says (next_look)
        phone.goto(made["links"]["seats"][seat])
        phones.append(phone)
    return made["links"], phones


def count(phone: Page, took: int) -> None:
    """A player taps their count on their own phone; it shows as theirs."""
    phone.locator(f".seat-count button[value='{took}']").click()
    expect(phone.locator(".your-count")).to_have_text(f"Your tricks: {took}")
    expect(phone.locator(f".seat-count button[value='{took}']")).to_have_attribute(
        "aria-pressed", "true")


def every_phone_says(page: Page, phones: list[Page], said: str) -> None:
    """Each phone shows the counts as ``said``: the seats' at their next look, the scorer's as its
    page follows the game."""
    for phone in phones:
        next_look(phone)
        expect(phone.locator("#counts .counts-said")).to_have_text(said)
    expect(page.locator("#counts .counts-said")).to_have_text(said)


def enter_with_one_wrong(page: Page, phones: list[Page]) -> None:
    """Ann, Bob, Cy and Dee enter 1, 1, 0, 1: one trick too many of the 2 played."""
    for seat, said in enumerate(["Tricks entered: Ann 1 · waiting for Bob, Cy, and Dee",
                                 "Tricks entered: Ann 1, Bob 1 · waiting for Cy and Dee",
                                 "Tricks entered: Ann 1, Bob 1, Cy 0 · waiting for Dee"]):
        count(phones[seat], [1, 1, 0][seat])
        every_phone_says(page, phones, said)
    count(phones[3], 1)
    every_phone_says(page, phones, MISMATCH)
    for phone in phones:
        expect(phone.locator("#counts")).to_have_class("counts flash")
    # the scorer's tricks step starts at the players' counts, and says why it can't save them
    for seat, took in enumerate([1, 1, 0, 1]):
        expect(page.locator(f".tricks-form [data-seat='{seat}'] input:checked")).to_have_value(
            str(took))
    expect(page.locator("#trick-sum")).to_have_text("Together 3 of 2 tricks: 1 too many")
    expect(page.locator(".tricks-form .prompt")).to_contain_text(
        "Each row starts at the count its player entered on their phone")


def deal_2_everywhere(page: Page, phones: list[Page]) -> None:
    expect(page.locator(".deal-title")).to_contain_text("Deal 2")
    for phone in phones:
        next_look(phone)
        expect(phone.locator(".deal-title")).to_contain_text("Deal 2")
        expect(phone.locator("#counts")).to_have_count(0)


def test_a_player_corrects_their_own_count_and_the_deal_is_stored(
        page: Page, contexts: list[BrowserContext]) -> None:
    links, phones = seated(page, contexts)
    enter_with_one_wrong(page, phones)
    expect(phones[3].locator(".counts-next")).to_have_text(
        "Check your count and change it if it is wrong, or the scorer settles them.")
    count_again = phones[3].locator(".seat-count button[value='0']")
    count_again.click()  # Dee took none
    deal_2_everywhere(page, phones)
    made = page.request.get(links["api"]).json()
    assert made["deals"][0]["tricks"] == [1, 1, 0, 0]


def test_the_scorer_settles_counts_that_dont_add_up(page: Page,
                                                     contexts: list[BrowserContext]) -> None:
    links, phones = seated(page, contexts)
    enter_with_one_wrong(page, phones)
    # Bob won no trick: the scorer says so, and saves the deal
    page.locator(".tricks-form [data-seat='1'] label.num").nth(0).click()
    expect(page.locator("#trick-sum")).to_have_text("Together 2 of 2 tricks ✓")
    page.locator(".tricks-form button[type=submit]").click()
    deal_2_everywhere(page, phones)
    made = page.request.get(links["api"]).json()
    assert made["deals"][0]["tricks"] == [1, 0, 0, 1]


def test_a_count_tapped_with_no_network_waits_on_the_phone_and_a_late_one_says_why(
        page: Page, contexts: list[BrowserContext]) -> None:
    links, phones = seated(page, contexts)
    contexts[0].set_offline(True)
    phones[0].locator(".seat-count button[value='1']").click()
    # shown at once, kept on the phone, and what comes next
    expect(phones[0].locator(".seat-sent .prompt")).to_have_text("Your tricks: 1")
    expect(phones[0].locator(".seat-sent .where")).to_contain_text("No network")
    expect(phones[0].locator(".seat-sent .next")).to_have_text("Waiting for Bob, Cy, and Dee.")
    contexts[0].set_offline(False)
    expect(phones[0].locator(".your-count")).to_have_text("Your tricks: 1")
    every_phone_says(page, phones, "Tricks entered: Ann 1 · waiting for Bob, Cy, and Dee")
    # Dee's phone is away while the scorer saves the deal: her count comes too late
    contexts[3].set_offline(True)
    phones[3].locator(".seat-count button[value='0']").click()
    expect(phones[3].locator(".seat-sent .where")).to_contain_text("No network")
    # Ann's row keeps the count she entered (she deals: the rest is no longer hers to take)
    expect(page.locator("#trick-sum")).to_have_text("Together 1 of 2 tricks: 1 missing")
    page.locator(".tricks-form [data-seat='3'] label.num").nth(1).click()
    page.locator(".tricks-form button[type=submit]").click()
    expect(page.locator(".deal-title")).to_contain_text("Deal 2")
    contexts[3].set_offline(False)
    # the game as it is now, and why her count was not saved, still said over it
    expect(phones[3].locator(".deal-title")).to_contain_text("Deal 2")
    expect(phones[3].locator(".seat-refused[role=alert]")).to_have_text(
        "Deal 1 is stored already: Dee's count was not saved. The scorer can correct the deal.")
    made = page.request.get(links["api"]).json()
    assert made["deals"][0]["tricks"] == [1, 0, 0, 1]
