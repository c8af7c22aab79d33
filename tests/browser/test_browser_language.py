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
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=server,
                                  locale="nl-NL")
    return context.new_page()


def test_a_bid_and_the_status_line_in_dutch(dutch: Page) -> None:
    nl = catalog("nl")
    created = dutch.request.post("/api/games",
                                 data={"players": FOUR, "rules": {"max_cards": 3}}).json()
    dutch.goto(created["links"]["edit"])
    expect(dutch.locator("html")).to_have_attribute("lang", "nl")
    dutch.keyboard.press("1")  # Bob bids 1; Cy is next
    tap = nl.gettext("%(player)s bid %(bid)s") % {"player": "Bob", "bid": 1}
    expect(dutch.locator("#tap-status")).to_have_text(nl.gettext("%(tap)s · %(player)s bids next")
                                                      % {"tap": tap, "player": "Cy"})
    dutch.keyboard.press("1")
    dutch.keyboard.press("1")  # Dee's 1: 3 bid for 3 cards, so Ann, the dealer, can't bid 0
    dutch.keyboard.press("0")
    english = ("%(player)s deals and can't bid %(bid)s: the bids would add up to the %(num)s "
               "trick (hook)")
    refusal = nl.ngettext(english, english.replace("trick", "tricks"), 3)
    assert refusal not in (english, english.replace("trick", "tricks"))
    expect(dutch.locator("#tap-status")).to_have_text(
        refusal % {"player": "Ann", "bid": 0, "num": 3})


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


def test_a_deal_of_one_card_drawn_by_the_phone_counts_one_trick(dutch: Page) -> None:
    """Offline, the phone's script draws the deal itself: on a deal of one card its sentences take
    the singular the catalog gives for 1 ("voor 1 slag"), as the server's page does."""
    nl = catalog("nl")
    created = dutch.request.post("/api/games", data={
        "players": FOUR, "rules": {"deal": "fixed", "max_cards": 1, "deals": 1}}).json()
    dutch.goto(created["links"]["edit"])
    dutch.wait_for_function("() => window.Step !== undefined")
    dutch.context.set_offline(True)
    for _ in range(3):
        dutch.keyboard.press("0")  # Bob, Cy and Dee bid 0: Ann, the dealer, bids last
    under = nl.gettext("under by %(tricks)s") % {"tricks": 1}
    said = nl.ngettext("Bids %(total)s for %(num)s trick: <b>%(announce)s</b>",
                       "Bids %(total)s for %(num)s tricks: <b>%(announce)s</b>", 1)
    assert " %(num)s slag:" in said
    expect(dutch.locator("#step .announce")).to_have_text(
        said.replace("<b>", "").replace("</b>", "") % {"total": 0, "num": 1, "announce": under})
    dutch.keyboard.press("0")
    together = nl.ngettext("Together %(total)s of %(num)s trick ✓",
                           "Together %(total)s of %(num)s tricks ✓", 1)
    expect(dutch.locator("#step .tricks-form .sum")).to_have_text(together % {"total": 1, "num": 1})


@pytest.mark.parametrize(("code", "written"),
                         [("nl", "1.234,5"), ("de", "1.234,5"), ("en", "1,234.5")])
def test_the_phone_writes_a_number_as_the_page_s_language_does(browser: Browser, server: str,
                                                               code: str, written: str) -> None:
    """A number the phone's script puts in a sentence is written as the
    page's language writes it."""
    page = browser.new_context(viewport={"width": 390, "height": 844}, base_url=server).new_page()
    created = page.request.post("/api/games", data={"players": FOUR}).json()
    page.goto(f"{created['links']['edit']}?lang={code}")
    shown = page.evaluate("() => window.words('bidof', { bid: 1234.5 })")
    assert (shown == catalog(code).gettext("bid %(bid)s") % {"bid": written} if code != "en"
            else shown == f"bid {written}")
