"""A club night's pages in each moment of the night: the director's phone shows the next step on
its first screen (issue 30, item 4)."""

from __future__ import annotations

from typing import Any

import pytest
from phone import next_look
from playwright.sync_api import APIRequestContext, Locator, Page, expect

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou", "Max"]
#: Three deals of one card: a table's game is played, or left under way, in one request.
QUICK = {"preset": "oh-hell", "deal": "fixed", "max_cards": 1, "deals": 3}


def night(request: APIRequestContext, players: list[str] = NAMES, **fields: Any) -> dict[str, str]:
    """A club night made through the API; its links."""
    made = request.post("/api/events", data={"name": "Friday club night", "players": players, "rounds": 2,
                                             "rules": QUICK, "seed": 7, **fields})
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


def test_the_director_s_phone_shows_the_next_step_first_at_each_moment_of_the_night(page: Page) -> None:
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
    expect(page.get_by_role("heading", name="Provisional standings: round 1 as it stands")).to_be_visible()
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
    expect(page.get_by_role("heading", name="Standings after 2 rounds")).to_be_visible()
    on_first_screen(page, page.locator(".ev-board tbody tr").first)


def test_the_director_s_page_comes_to_the_next_step_when_the_round_finishes(page: Page) -> None:
    """The last table finishes while the director's page is open: Start comes without a reload by hand."""
    links = night(page.request)
    assert page.request.post(links["api"] + "/rounds", data={}).status == 201
    page.clock.install()
    page.goto(links["edit"])
    expect(page.locator(".ev-table .ev-progress").first).to_have_text("not started")
    for table in tables(page.request, links):
        play(page.request, table, 3)
    next_look(page)
    on_first_screen(page, page.get_by_role("button", name="Start round 2"))
