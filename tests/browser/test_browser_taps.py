"""The tap budget: a 4-player setup in at most 15 taps, a typical deal in at most 7, no typing
in a deal."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from phone import Taps, assert_fits_the_phone
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

SETUP_BUDGET = 15
DEAL_BUDGET = 7


def set_up(page: Page) -> Taps:
    """From the home page to a started 4-player game with the default rules; counted."""
    taps = Taps(page)
    page.goto("/")
    taps.tap("text=New game")
    for seat, name in enumerate(["Ann", "Bob", "Cy", "Dee"]):
        taps.fill(f"input[name=players-{seat}]", name)
    taps.save("button.primary[value=preview]")
    taps.save(page.locator("button[value=start]").first)
    expect(page.locator(".deal-title")).to_have_text("Deal 1 of 19 · 10 cards")
    return taps


def deal(page: Page) -> dict[str, object]:
    """The first deal as the JSON API exports it."""
    token = page.url.rsplit("/", 1)[1]
    exported = json.loads(page.request.get(f"/api/games/{token}").text())
    return exported["deals"][0]  # type: ignore[no-any-return]


def test_setting_up_a_four_player_game_takes_at_most_15_taps(page: Page) -> None:
    taps = set_up(page)
    print(f"setup taps: {taps.count}")
    assert taps.count <= SETUP_BUDGET


def test_a_deal_where_one_player_misses_by_one_takes_at_most_7_taps(page: Page) -> None:
    set_up(page)
    page.evaluate("window.samePage = true")
    taps = Taps(page)
    for bid in (3, 2, 2, 2):  # Bob, Cy, Dee, then Ann deals: 9 of 10, under by 1
        taps.bid(bid)
    assert_fits_the_phone(page)
    expect(page.locator(".tricks-form .prompt")).to_contain_text(
        "Ann, the dealer, gets the rest: tap only what differs")
    taps.took(1, 4)  # Bob took one more than his 3; Ann, the dealer, keeps "the rest" = her bid
    expect(page.locator("#trick-sum")).to_have_text("Together 10 of 10 tricks ✓")
    taps.save(".tricks-form button[type=submit]")
    expect(page.locator(".last-deal")).to_contain_text("Deal 1 scored")
    print(f"deal taps: {taps.count}")
    assert taps.count <= DEAL_BUDGET
    assert page.evaluate("window.samePage") is True  # each tap swapped the panel: no page loads
    assert deal(page)["tricks"] == [2, 4, 2, 2] and deal(page)["made"] == [True, False, True, True]


def test_when_the_dealer_is_the_one_who_missed_the_deal_takes_5_taps(page: Page) -> None:
    set_up(page)
    taps = Taps(page)
    for bid in (3, 2, 2, 2):
        taps.bid(bid)
    # the rest: one over
    expect(page.locator(".seat-row[data-seat='0'] input:checked")).to_have_value("3")
    taps.save(".tricks-form button[type=submit]")
    expect(page.locator(".last-deal")).to_contain_text("Deal 1 scored")
    assert taps.count == 5
    assert deal(page)["tricks"] == [3, 3, 2, 2] and deal(page)["made"] == [False, True, True, True]


def test_setting_up_four_players_with_enter_between_the_names_takes_the_taps_the_readme_says(
        page: Page) -> None:
    """From the home page to the first deal: the names typed with Enter between
    them (a key, not a tap)."""
    taps = Taps(page)
    page.goto("/")
    taps.tap("text=New game")
    # its scripts run: Enter moves on to the next name (typed before, it doesn't)
    page.wait_for_load_state()
    first = page.locator("input[name=players-0]")
    if not first.evaluate("e => e === document.activeElement"):
        taps.tap(first)
    for name in ("Ann", "Bob", "Cy", "Dee"):
        page.keyboard.type(name)
        page.keyboard.press("Enter")
    assert [page.input_value(f"input[name=players-{seat}]")
            for seat in range(4)] == ["Ann", "Bob", "Cy", "Dee"]
    taps.save("button.primary[value=preview]")
    taps.save(page.locator("button[value=start]").first)
    expect(page.locator(".deal-title")).to_have_text("Deal 1 of 19 · 10 cards")
    print(f"setup taps, names typed with Enter: {taps.count}")
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    said = re.search(r"the\s+first\s+deal\s+in\s+(\d+)\s+taps", readme)
    assert said and int(said.group(1)) == taps.count, (said and said.group(0), taps.count)
