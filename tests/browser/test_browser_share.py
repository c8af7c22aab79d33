"""The share page in Chromium: its warning for links that lead to this
computer, and copying a link."""

from __future__ import annotations

import pytest
from phone import PHONE, assert_fits_the_phone
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser


def shared(page: Page) -> str:
    """A new game's share page, opened as the test server's 127.0.0.1; its read-only link."""
    created = page.request.post("/api/games", data={"players": ["Ann", "Bob", "Cy"]}).json()
    page.goto(created["links"]["edit"] + "/share")
    return str(created["links"]["view"])


def test_a_link_is_copied_with_its_button(page: Page) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    view = shared(page)
    # The test server listens on 127.0.0.1 only: the page says so, and keeps the links as they are.
    expect(page.locator("#address-note")).to_contain_text("These links lead to 127.0.0.1")
    expect(page.locator(".share .link a").first).to_have_text(view)
    page.get_by_role("button", name="Copy the read-only link").click()
    expect(page.locator(".copied").first).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == view
    assert_fits_the_phone(page)


def test_where_the_clipboard_is_not_offered_the_link_is_selected(page: Page) -> None:
    # plain http
    page.add_init_script("Object.defineProperty(window, 'isSecureContext', {value: false})")
    view = shared(page)
    page.get_by_role("button", name="Copy the read-only link").click()
    expect(page.locator(".copied").first).not_to_be_empty()
    assert page.evaluate("window.getSelection().toString()") == view


def test_without_javascript_the_link_is_text_and_no_button_shows(browser: Browser,
                                                                 server: str) -> None:
    context = browser.new_context(viewport=PHONE, base_url=server, java_script_enabled=False)
    plain = context.new_page()
    view = shared(plain)
    expect(plain.locator(".share .link a").first).to_have_text(view)
    expect(plain.locator("button.copy").first).to_be_hidden()
    context.close()
