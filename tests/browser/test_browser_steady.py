"""The game page holds still and answers every tap: a Save that can't save says why on the button
itself, the correction gives the dealer the rest as live entry does, the bid buttons stay where the
finger is from tap to tap, the next deal's title is in view after Save, and a phone held sideways
shows the rows of tricks above the Save bar."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest
from phone import ALL_SENT, MARK, replaced
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser

FOUR = ["Ann", "Bob", "Cy", "Dee"]
UPRIGHT, SIDEWAYS = {"width": 390, "height": 844}, {"width": 844, "height": 390}
#: Where each bid button is on the screen (not on the page: a scroll moves
#: them under the finger too).
BUTTONS = """() => [...document.querySelectorAll('.bid-form .numbers button')]
  .map(b => {
    const r = b.getBoundingClientRect();
    return [b.value, Math.round(r.left), Math.round(r.top)];
  })"""
#: Two frames drawn: the focus, moved in the frame after a step is drawn, has moved.
FRAMES = ("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame("
          "() => done(true))))")
#: Scrolled down to the last row of tricks, as after tapping it.
AT_LAST_ROW = ("() => document.querySelector('.seat-row:last-of-type')"
               ".scrollIntoView({ block: 'center' })")
NUDGED = re.compile(r"\bnudge\b")
#: Where the rows of tricks and the Save button are on the screen.
ON_SCREEN = """() => [...document.querySelectorAll('.seat-row, .action-bar button')]
  .map(e => Math.round(e.getBoundingClientRect().top))"""


def opened(page: Page, **document: Any) -> str:
    """A game of four stored through the API and opened on this phone; its edit URL."""
    created = page.request.post("/api/games", data={"players": FOUR, **document}).json()
    page.goto(created["links"]["edit"])
    return str(created["links"]["edit"])


def stored(server: str, edit: str) -> dict[str, Any]:
    """The game as the server holds it (the API's export)."""
    with urllib.request.urlopen(f"{server}/api/games/{edit.rsplit('/', 1)[1]}") as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


def finger(page: Page, target: Locator) -> None:
    """A tap where the button is on the screen, as a finger's (Playwright's own click scrolls first,
    and waits for a button that is not held back)."""
    box = target.bounding_box()
    assert box, target
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def took(page: Page, seat: int, tricks: int, kind: str = "") -> None:
    """Tap a player's count of tricks (on the correction page, ``kind`` "tricks")."""
    row = f"[data-kind={kind}][data-seat='{seat}']" if kind else f".seat-row[data-seat='{seat}']"
    page.locator(f"{row} label.num").nth(tricks).click()


# Item 8: the Save button says why it can't save, and a tap on it is answered where the finger is.

@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_save_whose_tricks_dont_add_up_says_why_on_the_button_and_answers_the_tap(
        page: Page, server: str, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme)
    # deal 1: Ann deals, 10 cards
    edit = opened(page, rules={"max_cards": 10}, deals=[{"bids": [3, 2, 2, 2]}])
    save = page.locator(".tricks-form button[type=submit]")
    expect(save).to_have_text("Save deal 1")
    took(page, 0, 6)  # Ann, the dealer, by hand: 6 + 2 + 2 + 2 = 12 of 10
    expect(page.locator("#trick-sum")).to_have_text("Together 12 of 10 tricks: 2 too many")
    expect(save).to_have_text("Can't save: 2 tricks too many")
    expect(save).to_have_accessible_name("Can't save: 2 tricks too many")
    expect(save).to_have_attribute("aria-disabled", "true")
    # no longer the green "go" of a Save
    assert "primary" not in (save.get_attribute("class") or "")
    page.evaluate(AT_LAST_ROW)
    at = page.evaluate(ON_SCREEN)
    finger(page, save)  # held back (aria-disabled), yet a tap lands on it
    expect(page.locator("#tap-status")).to_have_text("Together 12 of 10 tricks: 2 too many")
    expect(save).to_be_focused()
    assert page.evaluate(ON_SCREEN) == at  # the page did not scroll away from the finger
    # the sum beside the button, shown again
    expect(page.locator("#trick-sum")).to_have_class(NUDGED)
    took(page, 0, 3)  # 9 of 10
    expect(save).to_have_text("Can't save: 1 trick missing")
    took(page, 0, 4)
    expect(save).to_have_text("Save deal 1")
    expect(save).not_to_have_attribute("aria-disabled", "true")
    save.click()
    expect(page.locator("#tap-status")).to_have_text("Deal 1 saved")
    page.wait_for_function(ALL_SENT)
    assert stored(server, edit)["deals"][0]["tricks"] == [4, 2, 2, 2]


def test_a_correction_that_cant_be_saved_says_why_on_its_button(page: Page, server: str) -> None:
    edit = opened(page, rules={"max_cards": 10},
                  deals=[{"bids": [3, 2, 2, 2], "tricks": [4, 2, 2, 2]}])
    page.goto(edit + "/deal/1")
    save = page.locator(".correct button[type=submit]")
    expect(save).to_have_text("Save the correction")
    took(page, 0, 7, "tricks")  # Ann, the dealer, by hand: 13 of 10
    expect(save).to_have_text("Can't save: 3 tricks too many")
    expect(save).to_have_attribute("aria-disabled", "true")
    at = page.evaluate(ON_SCREEN)
    finger(page, save)
    expect(save).to_be_focused()
    assert page.evaluate(ON_SCREEN) == at and page.url.endswith("/deal/1")
    expect(page.locator("#trick-sum")).to_have_class(NUDGED)
    # Dee bid 3: Ann can't bid 3 (hook)
    page.locator("[data-kind=bids][data-seat='3'] label.num").nth(3).click()
    expect(save).to_have_text("Can't save: Ann can't bid 3")
    finger(page, save)
    expect(page.locator("#reason-0")).to_be_focused()  # the reason, up among the bids, is read
    page.locator("[data-kind=bids][data-seat='3'] label.num").nth(2).click()
    took(page, 0, 4, "tricks")
    expect(save).to_have_text("Save the correction")
    save.click()
    expect(page.locator(".flash-done")).to_have_text("Deal 1 corrected.")
    assert stored(server, edit)["deals"][0]["tricks"] == [4, 2, 2, 2]


# Item 9: the correction gives the dealer the rest, as live entry does.

def test_the_correction_gives_the_dealer_the_rest_until_the_dealers_count_is_tapped(
        page: Page, server: str) -> None:
    edit = opened(page, rules={"max_cards": 10},
                  deals=[{"bids": [3, 2, 2, 2], "tricks": [4, 2, 2, 2]}])
    page.goto(edit + "/deal/1")
    sum_line, ann = page.locator("#trick-sum"), page.locator("[data-kind=tricks][data-seat='0']")
    took(page, 3, 3, "tricks")  # Dee took 3, not 2: Ann, the dealer, 3
    expect(ann.locator("input:checked")).to_have_value("3")
    expect(ann.locator("[data-mark]")).to_have_text("✓ made")
    expect(sum_line).to_have_text("Together 10 of 10 tricks ✓")
    took(page, 1, 1, "tricks")  # Bob 1: Ann 4
    expect(ann.locator("input:checked")).to_have_value("4")
    took(page, 0, 5, "tricks")  # Ann's own count, by hand: it stays as tapped from now on
    expect(sum_line).to_have_text("Together 11 of 10 tricks: 1 too many")
    took(page, 1, 0, "tricks")
    expect(ann.locator("input:checked")).to_have_value("5")
    expect(sum_line).to_have_text("Together 10 of 10 tricks ✓")
    page.locator(".correct button[type=submit]").click()
    expect(page.locator(".flash-done")).to_have_text("Deal 1 corrected.")
    assert stored(server, edit)["deals"][0]["tricks"] == [5, 0, 2, 3]


# Item 10: no bid button moves between two taps of a deal.

@pytest.mark.parametrize("viewport", [UPRIGHT, SIDEWAYS], ids=["upright", "sideways"])
@pytest.mark.parametrize("before", ["first-deal", "deal-scored", "deal-saved-here"])
def test_no_bid_button_moves_between_two_taps_of_a_deal(page: Page, viewport: dict[str, int],
                                                        before: str) -> None:
    page.set_viewport_size(viewport)  # type: ignore[arg-type]
    scored = [{"bids": [3, 2, 2, 2], "tricks": [4, 2, 2, 2]}]
    opened(page, rules={"max_cards": 10},
           deals={"first-deal": [], "deal-scored": scored,
                  "deal-saved-here": [{"bids": [3, 2, 2, 2]}]}[before])
    # deal 1's tricks saved on this phone: its card and "Deal 1 saved" above
    if before == "deal-saved-here":
        page.locator(".tricks-form button[type=submit]").click()
        expect(page.locator(".last-deal:not(.pending) h2")).to_have_text("Deal 1 scored")
    page.wait_for_function(ALL_SENT)
    expect(page.locator(".bid-form")).to_be_visible()
    page.evaluate(FRAMES)
    where = page.evaluate(BUTTONS)
    for value in (2, 2, 2):  # three of the four bids: the last one opens the tricks
        page.evaluate(MARK)
        page.locator(f".bid-form button[name=bid][value='{value}']").click()
        assert page.evaluate(BUTTONS) == where, "drawn on the phone"
        replaced(page)
        page.wait_for_function(ALL_SENT)
        expect(page.locator(".bidders .queued")).to_have_count(0)
        assert page.evaluate(BUTTONS) == where, "the server's answer"


# Item 11: after Save, the next deal's title is in view.

@pytest.mark.parametrize("viewport", [UPRIGHT, SIDEWAYS], ids=["upright", "sideways"])
def test_after_save_the_next_deals_title_is_in_view(page: Page, viewport: dict[str, int]) -> None:
    page.set_viewport_size(viewport)  # type: ignore[arg-type]
    opened(page, rules={"max_cards": 10}, deals=[{"bids": [3, 2, 2, 2]}])
    page.evaluate(AT_LAST_ROW)
    assert page.evaluate("scrollY") > 0
    page.locator(".tricks-form button[type=submit]").click()
    title = page.locator(".deal-title")
    expect(title).to_contain_text("Deal 2 of 19")
    page.wait_for_function(ALL_SENT)
    # the server's answer is in
    expect(page.locator(".last-deal:not(.pending) h2")).to_have_text("Deal 1 scored")
    page.evaluate(FRAMES)
    expect(title).to_be_in_viewport(ratio=1)
    expect(page.locator(".bid-form button[name=bid][value='0']")).to_be_in_viewport(ratio=1)


# Item 15: held sideways, the rows of tricks show above the Save bar.

#: The rows of tricks wholly on screen above the Save bar.
ROWS_SHOWN = """() => {
  const bar = document.querySelector('.action-bar').getBoundingClientRect().top;
  return [...document.querySelectorAll('.seat-row')].filter(row => {
    const r = row.getBoundingClientRect(); return r.top >= 0 && r.bottom <= bar; }).length;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("where", ["tricks", "correct"])
def test_held_sideways_every_row_of_four_players_tricks_shows_above_the_save_bar(
        page: Page, where: str, scheme: str) -> None:
    page.set_viewport_size(SIDEWAYS)  # type: ignore[arg-type]
    page.emulate_media(color_scheme=scheme)
    deal = {"bids": [3, 2, 2, 2], **({"tricks": [4, 2, 2, 2]} if where == "correct" else {})}
    edit = opened(page, rules={"max_cards": 10}, deals=[deal])
    if where == "correct":
        page.goto(edit + "/deal/1")
        # past the bids
        page.locator(".correct-kind").nth(1).evaluate("title => title.scrollIntoView()")
    assert page.evaluate(ROWS_SHOWN) == 4
    if where == "tricks":
        assert page.evaluate("scrollY") == 0  # as the step opens
