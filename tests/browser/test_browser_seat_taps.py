"""A seat's own taps (SEATS.md, "Live"): shown at once, kept on the phone without the network and
sent when it is back, even after the page was closed; a tap the server refuses says why."""

from __future__ import annotations

from typing import Any

import pytest
from phone import PHONE
from playwright.sync_api import Browser, BrowserContext, Page, expect

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def _bids(page: Page, made: dict[str, Any]) -> list[int | None]:
    deals = page.request.get(made["links"]["api"]).json()["deals"]
    bids: list[int | None] = deals[-1]["bids"] if deals else [None] * len(PLAYERS)
    return bids


def troubles(page: Page) -> list[str]:
    """The page's uncaught exceptions, and every request of its own (a tap, a question to the
    server) that went out with no network: none is sent while the phone is offline. (A request
    let go on purpose is no trouble, nor the browser's own fetch of the page's icon.)"""
    found: list[str] = []
    page.on("pageerror", lambda exc: found.append(str(exc)))
    page.on("requestfailed", lambda request: found.append(f"{request.url} {request.failure}")
            if request.failure != "net::ERR_ABORTED" and "/icons/" not in request.url else None)
    return found


def _bobs_phone(page: Page, browser: Browser, server: str, *, deaf: bool = False
                ) -> tuple[dict[str, Any], BrowserContext, Page, list[str]]:
    """A new game, and Bob's seat (he bids first) open on his own phone, at his turn: the game,
    the phone, its page and what troubled it. ``deaf``: the page hears nothing of the game's
    changes (its questions cut from the start)."""
    made: dict[str, Any] = page.request.post(
        "/api/games", data={"players": PLAYERS, "rules": {"max_cards": 3}}).json()
    context = browser.new_context(viewport=PHONE, base_url=server, service_workers="block")
    bob = context.new_page()
    errors = troubles(bob)
    if deaf:
        bob.route("**/state?*", lambda route: route.abort())
    bob.goto(made["links"]["seats"][1])
    expect(bob.locator(".your-bid")).to_be_visible()
    return made, context, bob, errors


def test_a_bid_made_with_no_network_waits_on_the_phone_and_is_saved_when_it_is_back(
        page: Page, browser: Browser, server: str) -> None:
    made, context, bob, errors = _bobs_phone(page, browser, server)
    context.set_offline(True)
    expect(bob.locator("#live-offline")).to_be_visible()
    bob.locator(".seat-bid button.num", has_text="2").click()
    # shown at once: the bid in its place, the turn moved on, and where the tap is
    expect(bob.locator(".seat-sent .prompt")).to_have_text("Your bid: 2")
    expect(bob.locator(".seat-sent .where")).to_contain_text("No network")
    expect(bob.locator(".seat-sent .next")).to_have_text("Cy bids next.")
    expect(bob.locator(".bidders li.now .who")).to_have_text("Cy")
    assert _bids(page, made) == [None, None, None, None]
    # the page closed, the phone back online: the tap kept on the phone goes at the next look
    bob.close()
    context.set_offline(False)
    again = context.new_page()
    again_errors = troubles(again)
    again.goto(made["links"]["seats"][1])
    expect(again.locator(".bidders li:first-child .what")).to_have_text("2")
    expect(again.locator("#step .muted")).to_have_text("Cy is bidding.")
    assert _bids(page, made) == [None, 2, None, None]
    assert not errors and not again_errors
    context.close()


def test_the_network_back_sends_the_tap_and_the_page_catches_up(
        page: Page, browser: Browser, server: str) -> None:
    made, context, bob, errors = _bobs_phone(page, browser, server)
    context.set_offline(True)
    bob.locator(".seat-bid button.num", has_text="1").click()
    expect(bob.locator(".seat-sent[data-where=nonet]")).to_be_visible()
    context.set_offline(False)
    expect(bob.locator("#live-offline")).to_be_hidden()
    expect(bob.locator("#step .muted")).to_have_text("Cy is bidding.")
    assert _bids(page, made) == [None, 1, None, None]
    assert not errors
    context.close()


def test_a_tap_the_server_refuses_says_why_and_the_page_shows_the_game_as_it_is(
        page: Page, browser: Browser, server: str) -> None:
    made, context, bob, _errors = _bobs_phone(page, browser, server, deaf=True)
    # Bob's seat, open on another phone too, bid 0 there first; this page has not heard of it yet
    other = page.request.post(made["links"]["seats"][1].replace("/s/", "/api/games/") + "/taps",
                              data={"tap": "otherphone01", "deal": 1, "step": "bid", "value": 0})
    assert other.ok, other.text()
    bob.locator(".seat-bid button.num", has_text="2").click()
    expect(bob.locator(".seat-refused[role=alert]")).to_have_text(
        "Bob has bid 0 in deal 1 already: this bid was not saved.")
    assert _bids(page, made) == [None, 0, None, None]
    bob.unroute("**/state?*")
    bob.reload()
    expect(bob.locator(".bidders li:first-child .what")).to_have_text("0")
    context.close()
