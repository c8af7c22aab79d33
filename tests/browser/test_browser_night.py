"""A club night's two pages in each moment of the night: the director's phone shows the next step
on its first screen (issue 30, item 4), and the room screen fills a TV with type read across the
room, ending on the winners (issue 30, item 5)."""

from __future__ import annotations

from typing import Any

import pytest
from phone import PHONE, next_look
from playwright.sync_api import APIRequestContext, Browser, Locator, Page, expect

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou", "Max"]
#: Three deals of one card: a table's game is played, or left under way, in one request.
QUICK = {"preset": "oh-hell", "deal": "fixed", "max_cards": 1, "deals": 3}
#: The sizes a room screen is shown at: a TV (or a projector) at full HD and at 720 lines.
SCREENS = [(1920, 1080), (1280, 720)]


def night(request: APIRequestContext, players: list[str] = NAMES, **fields: Any) -> dict[str, str]:
    """A club night made through the API; its links."""
    made = request.post("/api/events", data={"name": "Friday club night", "players": players,
                                             "rounds": 2, "rules": QUICK, "seed": 7, **fields})
    assert made.status == 201, made.text()
    links: dict[str, str] = made.json()["links"]
    return links


def tables(request: APIRequestContext, links: dict[str, str]) -> list[dict[str, Any]]:
    """The tables of the round started last."""
    found: list[dict[str, Any]] = request.get(links["api"]).json()["played"][-1]["tables"]
    return found


def play(request: APIRequestContext, table: dict[str, Any], deals: int) -> None:
    """Enter ``deals`` deals of a table's game through its API: the first seat bids 1 and takes the
    trick, the next bids 1 and misses, the others bid 0."""
    read = request.get(table["links"]["api"])
    game = read.json()
    seats = len(game["players"])
    doc = {name: game[name] for name in ("format", "title", "players", "rules", "first_dealer")}
    doc["deals"] = [{"bids": [int(seat < 2) for seat in range(seats)],
                     "tricks": [int(seat == 0) for seat in range(seats)]}] * deals
    edit = table["links"]["edit"].rstrip("/").rsplit("/", 1)[1]
    put = request.put(f"/api/games/{edit}", data=doc, headers={"If-Match": read.headers["etag"]})
    assert put.status == 200, put.text()


def headline(winners: list[str]) -> str:
    """The winners' headline in English, which lists "Ann and Bob", "Ann, Bob, and Cy"."""
    if len(winners) == 1:
        return f"{winners[0]} wins"
    return (" and " if len(winners) == 2 else ", and ").join([", ".join(winners[:-1]),
                                                              winners[-1]]) + " win"


def on_first_screen(page: Page, target: Locator) -> None:
    """``target`` is on the screen the page opens on, where a finger finds it: inside the viewport,
    not under anything else."""
    expect(target).to_be_visible()
    assert page.evaluate("window.scrollY") == 0
    box = target.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (box, size)
    assert target.evaluate("(e, [x, y]) => e.contains(document.elementFromPoint(x, y))",
                           [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])


def test_the_director_s_phone_shows_the_next_step_first_at_each_moment_of_the_night(
        page: Page) -> None:
    links = night(page.request)
    page.goto(links["edit"])
    # Before a round: who is here, the seating, and Start; the standings, all zero, are folded away.
    expect(page.locator(".ev-here li")).to_have_count(len(NAMES))
    on_first_screen(page, page.get_by_role("button", name="Start round 1"))
    expect(page.locator(".ev-board")).not_to_be_visible()
    expect(page.locator("#plan-rounds")).not_to_be_visible()

    page.get_by_role("button", name="Start round 1").click()
    expect(page.locator(".flash")).to_contain_text("Round 1 has started")
    first = tables(page.request, links)
    play(page.request, first[0], 1)
    page.reload()
    # During a round: the tables' progress and the clock; the next round's seating is folded away.
    on_first_screen(page, page.locator(".ev-table .ev-progress").first)
    expect(page.locator(".ev-table .ev-progress").first).to_have_text("deal 2 of 3")
    on_first_screen(page, page.locator("summary", has_text="Round clock"))
    expect(page.get_by_role("heading",
                            name="Provisional standings: round 1 as it stands")).to_be_visible()
    expect(page.locator("#ev-next-tables")).not_to_be_visible()

    for table in first:
        play(page.request, table, 3)
    page.reload()
    # Between two rounds: the next round's Start again; the round played is folded away.
    on_first_screen(page, page.get_by_role("button", name="Start round 2"))
    expect(page.locator(".ev-round .ev-table").first).not_to_be_visible()
    page.get_by_role("button", name="Start round 2").click()
    expect(page.locator(".flash")).to_contain_text("Round 2 has started")
    for table in tables(page.request, links):
        play(page.request, table, 3)
    page.reload()
    # After the last round: the results.
    winners = [line["name"] for line in page.request.get(links["api"]).json()["standings"]
               if line["rank"] == 1]
    on_first_screen(page, page.locator(".ev-winners"))
    expect(page.locator(".ev-winners")).to_have_text(headline(winners))
    on_first_screen(page, page.locator(".ev-board tbody tr").first)


def test_the_director_s_page_comes_to_the_next_step_when_the_round_finishes(page: Page) -> None:
    """The last table finishes while the director's page is open: Start comes
    without a reload by hand."""
    links = night(page.request)
    assert page.request.post(links["api"] + "/rounds", data={}).status == 201
    page.clock.install()
    page.goto(links["edit"])
    expect(page.locator(".ev-table .ev-progress").first).to_have_text("not started")
    for table in tables(page.request, links):
        play(page.request, table, 3)
    next_look(page)
    on_first_screen(page, page.get_by_role("button", name="Start round 2"))


def measures(page: Page) -> dict[str, float]:
    """What the room screen shows as a room reads it: its smallest name, and how much of the screen
    its content (the title, the tables and the standings) covers."""
    found: dict[str, float] = page.evaluate("""() => {
      const names = [...document.querySelectorAll('.ev-seats li, .ev-board tbody .lb-name')]
        .filter(e => e.checkVisibility());
      const boxes = [...document.querySelectorAll('.room h1, #live')]
        .map(e => e.getBoundingClientRect());
      const union = (f, pick) => f(...boxes.map(pick));
      return { smallest: Math.min(...names.map(e => parseFloat(getComputedStyle(e).fontSize))),
               names: names.length,
               height: (union(Math.max, b => b.bottom) - union(Math.min, b => b.top)) / innerHeight,
               width: (union(Math.max, b => b.right) - union(Math.min, b => b.left)) / innerWidth,
               bottom: Math.max(...[...document.querySelectorAll('#live *')]
                                .map(e => e.getBoundingClientRect().bottom))
                       - innerHeight,
               right: document.documentElement.scrollWidth - innerWidth };
    }""")
    return found


@pytest.mark.parametrize(("width", "height"), SCREENS, ids=[f"{w}x{h}" for w, h in SCREENS])
def test_the_room_screen_fills_a_tv_with_type_read_across_the_room(browser: Browser, server: str,
                                                                   width: int, height: int) -> None:
    """Names at least 40 px on a 1080-line screen (and as much of a 720-line one), the content on
    most of the screen and none of it off it, the phones' controls not on the TV."""
    context = browser.new_context(viewport={"width": width, "height": height}, base_url=server)
    room = context.new_page()
    links = night(room.request, rounds=3)
    assert room.request.post(links["api"] + "/rounds", data={}).status == 201
    play(room.request, tables(room.request, links)[0], 2)
    room.goto(links["view"])
    room.wait_for_load_state("load")
    expect(room.get_by_role("heading",
                            name="Provisional standings: round 1 as it stands")).to_be_visible()
    seen = measures(room)
    assert seen["names"] == 2 * len(NAMES)  # each player in their seat and in the standings
    assert seen["smallest"] >= 40 * height / 1080, seen
    assert seen["height"] >= 0.85 and seen["width"] >= 0.9, seen
    assert seen["bottom"] <= 0 and seen["right"] <= 0, seen  # nobody scrolls a TV
    expect(room.get_by_label("Where do I sit?")).not_to_be_visible()
    expect(room.get_by_label("Keep the screen on")).not_to_be_visible()
    context.close()


def test_the_phone_s_controls_are_on_the_phone(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport=PHONE, base_url=server)
    phone = context.new_page()
    links = night(phone.request)
    phone.goto(links["view"])
    phone.wait_for_load_state("load")
    expect(phone.get_by_label("Where do I sit?")).to_be_visible()
    expect(phone.get_by_label("Keep the screen on")).to_be_visible()
    context.close()


@pytest.mark.parametrize(("width", "height"), [*SCREENS, (PHONE["width"], PHONE["height"])])
def test_the_room_screen_ends_on_the_winners_named_as_a_sentence_lists_them(
        browser: Browser, server: str, width: int, height: int) -> None:
    """Two tables whose first seats win alike: the night's winners tie, and the headline names
    both, "Ann and Eve win" (the language's list form)."""
    context = browser.new_context(viewport={"width": width, "height": height}, base_url=server)
    room = context.new_page()
    links = night(room.request, NAMES[:8], rounds=1, tables={"size": 4})
    assert room.request.post(links["api"] + "/rounds", data={}).status == 201
    room.clock.install()
    room.goto(links["view"])
    expect(room.locator(".ev-winners")).to_have_count(0)
    for table in tables(room.request, links):
        play(room.request, table, 3)
    room.clock.run_for(3000)  # the room screen's next look, without a reload
    winners = [line["name"] for line in room.request.get(links["api"]).json()["standings"]
               if line["rank"] == 1]
    assert len(winners) == 2
    expect(room.locator(".ev-winners")).to_have_text(headline(winners))
    on_first_screen(room, room.locator(".ev-winners"))
    context.close()
