"""The new-game form with JavaScript on: each message said once, Enter moving from name to name."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def test_a_refused_field_is_named_once_even_with_the_live_example(page: Page) -> None:
    page.goto("/new")
    for seat, name in enumerate(["Ann", "Bob", "Cy"]):
        page.fill(f"input[name=players-{seat}]", name)
    page.locator("summary:has-text('House rules')").click()
    page.fill("input[name='rules-target']", "many")
    page.locator("button.primary[value=preview]").click()
    expect(page.locator("#error")).to_contain_text("Game to (points) must be a whole number from 1 to 100,000, not 'many'.")
    page.wait_for_load_state("networkidle")  # the live example has answered
    assert page.locator("main").inner_text().count("not 'many'") == 1
    page.fill("input[name='rules-target']", "lots")  # once changed, the example speaks again
    expect(page.locator("#example")).to_contain_text("must be a whole number from 1 to 100,000, not 'lots'")


def test_enter_in_a_name_moves_to_the_next_name_then_to_the_rules(page: Page) -> None:
    page.goto("/new")
    page.focus("input[name=players-0]")
    for seat, name in enumerate(["Ann", "Bob", "Cy", "Dee"]):
        expect(page.locator(f"input[name=players-{seat}]")).to_be_focused()
        page.keyboard.type(name)
        page.keyboard.press("Enter")
    expect(page.locator("#preset")).to_be_focused()
    expect(page.locator("h1")).to_have_text("New game")  # nothing was sent
    assert [page.input_value(f"input[name=players-{seat}]") for seat in range(4)] == ["Ann", "Bob", "Cy", "Dee"]
