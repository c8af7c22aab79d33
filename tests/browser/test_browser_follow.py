"""A player's phone follows them through a club night (SEATS.md, "Club nights"): the seat's page
open on the player's phone offers their seat of the next round as soon as the director starts it,
without a reload, and the offer opens that seat."""

from __future__ import annotations

import pytest
from phone import PHONE, assert_fits_the_phone
from playwright.sync_api import Browser, Page, expect
from test_browser_night import night, play, tables

pytestmark = pytest.mark.browser


def test_the_seat_page_offers_the_next_rounds_seat_without_a_reload_and_it_opens(
        page: Page, browser: Browser, server: str) -> None:
    links = night(page.request)  # 13 players at three tables, two rounds of three deals
    page.goto(links["edit"])  # the director's phone
    page.get_by_role("button", name="Start round 1").click()
    expect(page.get_by_role("button", name="Start round 1")).to_have_count(0)
    first = tables(page.request, links)
    name = first[1]["players"][3]
    join = page.request.get(first[1]["links"]["edit"].replace("/g/", "/api/games/")
                            ).json()["links"]["join"]
    context = browser.new_context(viewport=PHONE, base_url=server, service_workers="block")
    # the phone's buzzer, counted
    context.add_init_script("window.buzzed = 0;"
                            " navigator.vibrate = () => { window.buzzed++; return true; };")
    phone = context.new_page()
    phone.goto(join)  # the player scans the table card's join code
    phone.get_by_role("link", name=name).click()
    expect(phone.locator(".seat-me")).to_contain_text(f"Your seat: {name}")
    phone.evaluate("window.sameDocument = true")  # gone if the page is loaded again
    for table in first:
        play(page.request, table, 3)
    expect(phone.locator(".night-waiting")).to_have_text(
        "Your seat in round 2 shows here when the round starts.")
    page.reload()
    page.get_by_role("button", name="Start round 2").click()
    expect(page.get_by_role("button", name="Start round 2")).to_have_count(0)
    second = tables(page.request, links)
    table = next(t for t in second if name in t["players"])
    seat = table["players"].index(name)
    expect(phone.locator(".night-offer h2")).to_have_text(
        f"Round 2: table {table['table']}, seat {seat + 1}")
    expect(phone.locator("#live-status")).to_contain_text(f"Round 2: table {table['table']}")
    assert phone.evaluate("window.sameDocument") is True, "the offer came without a reload"
    assert phone.evaluate("window.buzzed") >= 1
    expect(phone.locator(".night-place")).to_contain_text("Club night: place")
    assert_fits_the_phone(phone)
    phone.get_by_role("link", name=f"Take your seat at table {table['table']}").click()
    seats = page.request.get(table["links"]["edit"].replace("/g/", "/api/games/")
                             ).json()["links"]["seats"]
    expect(phone.locator(".seat-me")).to_contain_text(f"Your seat: {name}")
    assert phone.url == seats[seat]
    expect(phone.locator(".game-event")).to_have_text(
        f"Round 2 · table {table['table']} of Friday club night")
    expect(phone.locator(".night-offer")).to_have_count(0)
    context.close()
