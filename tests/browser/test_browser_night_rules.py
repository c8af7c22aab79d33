"""A club night's house rules on its form (issue 30, item 3): the new game's house-rules panel, a
shorter round one tap away with its deals and minutes, and every table's game played by them."""

from __future__ import annotations

import re

import pytest
from phone import PHONE
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def night_form(page: Page) -> None:
    page.goto("/events/new")
    page.fill("input[name=name]", "Short night")
    page.fill("textarea[name=players]", "\n".join(PLAYERS))
    page.fill("input[name=rounds]", "2")
    page.fill("input[name=size]", "4")


def first_table(page: Page) -> dict[str, object]:
    """Round 1 started through the API; its first table's game, as the API gives it."""
    event = page.request.get(page.url.replace("/e/", "/api/events/")).json()
    started = page.request.post(event["links"]["api"] + "/rounds", data={}).json()
    table = started["played"][0]["tables"][0]
    game: dict[str, object] = page.request.get(table["links"]["api"]).json()
    page.goto(table["links"]["edit"])
    return game


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_night_with_a_shorter_round_and_house_rules_starts_every_table_by_them(
        browser: Browser, server: str, javascript: bool) -> None:
    context = browser.new_context(viewport=PHONE, base_url=server, java_script_enabled=javascript)
    page = context.new_page()
    night_form(page)
    now = page.locator("#round-now")
    expect(now).to_contain_text("19 deals")  # Oh Hell at tables of 3 to 5
    shorter = page.get_by_role("button", name=re.compile(r"^Top hand 5: 9 deals, about \d+"))
    expect(shorter).to_have_attribute("aria-pressed", "false")
    shorter.click()  # one tap: the top hand is set, the round is 9 deals
    expect(now).to_contain_text("9 deals")
    expect(page.get_by_role("button", name=re.compile("^Top hand 5"))).to_have_attribute(
        "aria-pressed", "true")
    if not javascript:  # the page came back with everything typed, at the length chosen
        expect(page.get_by_role("button", name=re.compile("^Top hand 5"))).to_be_focused()
        expect(page.locator("textarea[name=players]")).to_have_value("\n".join(PLAYERS))
        # the rule it set
        expect(page.locator("details:has(#rules-max_cards)")).to_have_attribute("open", "")
    else:
        page.locator("summary", has_text="House rules").click()
    top = page.locator("#rules-max_cards")
    expect(top).to_have_value("5")
    top.fill("3")
    page.select_option("#rules-scoring", "exact")
    if javascript:  # the length follows the house rules as they are typed
        expect(now).to_contain_text("5 deals")
        expect(page.get_by_role("button", name=re.compile("^Top hand 5"))).to_have_attribute(
            "aria-pressed", "false")
    page.get_by_role("button", name="Create the club night").click()
    expect(page.locator(".flash")).to_contain_text("The club night is ready")
    game = first_table(page)
    assert game["rules"] == {"preset": "oh-hell", "max_cards": 3, "scoring": "exact"}
    expect(page.locator(".deal-title")).to_contain_text("Deal 1 of 5 · 3 cards")
    context.close()


def test_rules_a_table_size_of_the_night_cannot_play_are_refused_beside_the_rule(
        page: Page) -> None:
    night_form(page)
    page.locator("summary", has_text="House rules").click()
    page.fill("#rules-max_cards", "12")  # 12 cards to each of 5: more than a pack
    page.get_by_role("button", name="Create the club night").click()
    top = page.locator("#rules-max_cards")
    expect(top).to_be_focused()
    expect(page.locator("details:has(#rules-max_cards)")).to_have_attribute("open", "")
    said = page.locator("#rules-max_cards-error")
    expect(said).to_contain_text("Top hand (cards)")
    expect(said).to_contain_text("A table of 5 can't play these rules")
    expect(said).to_contain_text("the largest possible is 10")
    expect(top).to_have_accessible_description(re.compile(re.escape(said.inner_text())))
    expect(page.locator("#error")).to_have_count(0)
    expect(top).to_have_value("12")
    expect(page.locator("textarea[name=players]")).to_have_value("\n".join(PLAYERS))
    expect(page.locator("input[name=name]")).to_have_value("Short night")
