"""A club night in a real browser: the director starts a round, a table enters its deal on its own
phone, and the room screen follows without a reload; "Where do I sit?" answers a player."""

from __future__ import annotations

import pytest
from phone import PHONE, Taps, assert_fits_the_phone, next_look
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]


def test_the_room_screen_follows_the_tables_without_a_reload(page: Page, browser: Browser,
                                                             server: str) -> None:
    page.goto("/events/new")
    page.fill("input[name=name]", "Friday club night")
    page.fill("textarea[name=players]", "\n".join(PLAYERS))
    page.fill("input[name=rounds]", "2")
    page.fill("input[name=size]", "3")
    page.get_by_role("button", name="Create the club night").click()
    expect(page.locator(".flash")).to_contain_text("The club night is ready")
    page.click("text=Start round 1")
    expect(page.locator(".flash")).to_contain_text("Round 1 has started")
    room_url = page.locator("a", has_text="Room screen").get_attribute("href")
    assert room_url

    room_context = browser.new_context(viewport={"width": 1920, "height": 1080}, base_url=server)
    room = room_context.new_page()
    room.clock.install()
    room.goto(room_url)
    expect(room.locator(".ev-table").first).to_contain_text("not started")
    room.evaluate("window.notReloaded = true")

    page.click("text=Table 1's game")
    Taps(page).bid(0)  # answered: stored
    next_look(room)
    expect(room.locator(".ev-table").first).to_contain_text("deal 1 of")
    assert room.evaluate("window.notReloaded") is True

    phone = browser.new_context(viewport=PHONE, base_url=server).new_page()
    phone.goto(room_url)
    phone.fill("input[name=name]", "ivy")
    phone.click("text=Find")
    expect(phone.locator(".ev-answer")).to_contain_text("Ivy: round 1, table")
    assert_fits_the_phone(phone)
    room_context.close()


def test_the_room_screen_shows_a_club_night_of_thirteen_whole_on_a_tv(browser: Browser,
                                                                      server: str) -> None:
    """Nobody scrolls a TV: at 1920 × 1080 the round's three tables and every line of the standings
    are on the screen, light and dark."""
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": 1920, "height": 1080}, base_url=server,
                                      color_scheme=scheme)
        room = context.new_page()
        made = room.request.post(server + "/api/events", data={
            "name": "Friday club night", "players": [f"Player {n}" for n in range(1, 14)],
            "rounds": 3})
        assert made.status == 201
        links = made.json()["links"]
        assert room.request.post(links["api"] + "/rounds", data={}).status == 201
        room.goto(links["view"])
        rows = room.locator(".leaderboard tbody tr")
        expect(rows).to_have_count(13)
        for box in (rows.last.bounding_box(), room.locator(".ev-table").last.bounding_box()):
            assert box is not None and box["y"] + box["height"] <= 1080
        context.close()


def test_ending_a_tables_game_is_asked_first_and_its_link_is_a_target_of_its_own(
        browser: Browser, server: str) -> None:
    """Issue 30, item 2: "End this game now (time is up)" ended a running table in one tap, 11 px
    under the table game's 20 px link."""
    context = browser.new_context(viewport=PHONE, base_url=server, has_touch=True)
    page = context.new_page()
    made = page.request.post(server + "/api/events", data={
        "name": "Friday club night", "players": PLAYERS[:8], "rounds": 2,
        "rules": {"preset": "oh-hell", "deal": "fixed", "max_cards": 1, "deals": 3}})
    links = made.json()["links"]
    assert page.request.post(links["api"] + "/rounds", data={}).status == 201
    page.goto(links["edit"])
    card = page.locator(".ev-table").first
    link, question = card.locator(".ev-links a"), card.locator(".ev-end summary")
    to, ask = link.bounding_box(), question.bounding_box()
    assert to is not None and ask is not None
    # a near miss opens nothing
    assert to["height"] >= 40 and ask["y"] - (to["y"] + to["height"]) >= 16
    question.tap()
    expect(card.locator(".ev-end form p")).to_have_text(
        "Table 1 has not finished a deal: end its game now? Its players count as tied.")
    assert page.request.get(links["api"]).json()["played"][0]["tables"][0]["finished"] is False
    card.locator(".ev-end button").tap()
    expect(page.locator(".flash")).to_contain_text("Table 1's game has ended")
    assert page.request.get(links["api"]).json()["played"][0]["tables"][0]["finished"] is True
    context.close()


def test_a_director_who_closed_the_tab_opens_the_night_from_the_home_page(browser: Browser,
                                                                          server: str) -> None:
    """Issue 30, item 1: the night made on this phone is on its home page, and one tap leads back to
    the director's page; the room screen's link is beside it."""
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport=PHONE, base_url=server, color_scheme=scheme)
        page = context.new_page()
        page.goto("/events/new")
        page.fill("input[name=name]", f"Club night in {scheme}")
        page.fill("textarea[name=players]", "\n".join(PLAYERS))
        page.get_by_role("button", name="Create the club night").click()
        expect(page.locator(".flash")).to_contain_text("The club night is ready")
        director = page.url
        page.close()  # the tab is closed
        home = context.new_page()
        home.goto("/")
        card = home.locator(".night-card", has_text=f"Club night in {scheme}")
        expect(card).to_contain_text("0 of 3 rounds started")
        assert_fits_the_phone(home)
        card.locator(".night-room").click()
        expect(home.locator("h1")).to_contain_text(f"Club night in {scheme}")
        assert home.locator("text=Start round 1").count() == 0  # the room screen: nothing to start
        home.go_back()
        card.locator(".game-link").click()
        assert home.url == director
        expect(home.locator("text=Start round 1")).to_be_visible()
        context.close()
