"""The phone in another language: the header's switch, and the scripts' sentences from the catalog.

What the page should say is worked out from the catalog itself, with the rules of ``%`` and plural
forms the app uses, so these tests read the translation as the phone shows it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.support import Translations
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent.parent
FOUR = ["Ann", "Bob", "Cy", "Dee"]


def catalog(code: str) -> Translations:
    found = Translations.load(str(ROOT / "translations"), [code])
    assert isinstance(found, Translations), f"no compiled catalog for {code}: run make translations"
    return found


@pytest.fixture
def dutch(browser: Browser, server: str) -> Page:
    """A phone whose browser asks for Dutch."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=server, locale="nl-NL")
    return context.new_page()


def test_a_bid_and_the_status_line_in_dutch(dutch: Page) -> None:
    nl = catalog("nl")
    created = dutch.request.post("/api/games", data={"players": FOUR, "rules": {"max_cards": 3}}).json()
    dutch.goto(created["links"]["edit"])
    expect(dutch.locator("html")).to_have_attribute("lang", "nl")
    dutch.keyboard.press("1")  # Bob bids 1; Cy is next
    tap = nl.gettext("%(player)s bid %(bid)s") % {"player": "Bob", "bid": 1}
    expect(dutch.locator("#tap-status")).to_have_text(nl.gettext("%(tap)s · %(player)s bids next")
                                                      % {"tap": tap, "player": "Cy"})
    dutch.keyboard.press("1")
    dutch.keyboard.press("1")  # Dee's 1: 3 bid for 3 cards, so Ann, the dealer, can't bid 0
    dutch.keyboard.press("0")
    english = "%(player)s deals and can't bid %(bid)s: the bids would add up to the %(num)s tricks (hook)"
    refusal = nl.ngettext(english, english, 3)
    assert refusal != english
    expect(dutch.locator("#tap-status")).to_have_text(refusal % {"player": "Ann", "bid": 0, "num": 3})


def test_the_header_switches_the_language_and_the_phone_remembers(page: Page) -> None:
    created = page.request.post("/api/games", data={"players": FOUR}).json()
    page.goto(created["links"]["edit"])
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.locator("details.lang summary").click()
    page.locator("details.lang a[lang=de]").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    assert page.url == created["links"]["edit"]  # back on the same page
    de = catalog("de")
    expect(page.locator("#board-title")).to_have_text(de.gettext("Scoreboard"))
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("details.lang summary")).to_contain_text("DE")
