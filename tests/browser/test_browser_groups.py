"""A group's screens on a small phone, light and dark: nothing scrolls sideways, every tap target
is at least 44 px; the roster's chips seat the players without JavaScript too."""

from __future__ import annotations

import pytest
from phone import assert_fits_the_phone
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

LONG = ["Annabelle-Marguerite", "Bartholomew", "Cy", "Evangeline Dupont"]


def _group(page: Page) -> str:
    group = page.request.post("/api/groups",
                              data={"name": "The Friday evening club of the big table"}).json()
    edit = group["links"]["edit"].rsplit("/", 1)[1]
    for first in range(3):
        players = LONG[first:] + LONG[:first]
        game = page.request.post("/api/games", data={
            "title": f"A long title for the evening number {first + 1} of the season",
            "players": players,
            "rules": {"deal": "fixed", "max_cards": 1, "deals": 1},
            "deals": [{"bids": [1, 1, 0, 0], "tricks": [1, 0, 0, 0]}]}).json()
        page.request.post(f"/api/groups/{edit}/games", data={"game": game["links"]["edit"]})
    return edit


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_group_screens_fit_a_small_phone(page: Page, scheme: str) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    page.emulate_media(color_scheme=scheme)
    edit = _group(page)
    view = page.request.get(f"/api/groups/{edit}").json()["links"]["view"]
    game = page.request.get(f"/api/groups/{edit}").json()["games"][0]["links"]["edit"]
    for url in (f"/gr/{edit}", view, f"/gr/{edit}/players/Cy", f"/gr/{edit}/share",
                f"/new?group={edit}", "/groups/new", game + "/group"):
        page.goto(url)
        assert_fits_the_phone(page)
    page.goto(f"/gr/{edit}")
    expect(page.locator(".group-chart svg")).to_be_visible()


def test_the_roster_seats_players_without_javascript(plain: Page) -> None:
    page = plain
    edit = _group(page)
    page.goto(f"/new?group={edit}")
    for name in ("Cy", "Annabelle-Marguerite"):
        page.get_by_role("button", name=name, exact=True).click()
    expect(page.locator("input[name=players-0]")).to_have_value("Cy")
    expect(page.locator("input[name=players-1]")).to_have_value("Annabelle-Marguerite")
    page.get_by_role("button", name="Preview the schedule").click()
    page.get_by_role("button", name="Start game").first.click()
    games = page.request.get(f"/api/groups/{edit}").json()["games"]
    assert games[-1]["players"] == ["Cy", "Annabelle-Marguerite"]
