"""The step's data on the game page: what a phone needs to draw the deal's every step without asking
(step.js), made by the rules core. The values are worked out by hand from RULES.md §2."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from webhelpers import Scorer

Start = Callable[..., Scorer]
THREE = ["Ann", "Bob", "Cy"]
DATA = re.compile(r'<script type="application/json" id="step-data" '
                  r'data-game="([^"]+)">([^<]*)</script>')
ALL_OF_2 = [[0, 2]]  # every bid of a 2-card deal allowed


def data(page: str) -> dict[str, Any]:
    """The step's data a game page carries."""
    found = DATA.search(page)
    assert found, "the page carries no step data"
    return json.loads(found.group(2))  # type: ignore[no-any-return]


def hook(name: str, bid: int, cards: int = 2) -> str:
    return f"{name} deals and can't bid {bid}: the bids would add up to the {cards} tricks (hook)"


def test_the_hook_strikes_the_dealers_completing_bid_for_each_running_total(start: Start) -> None:
    page = start(rules={"max_cards": 3}).page()  # deal 1, 3 cards: Ann deals, Bob bids first
    step = data(page)
    assert step["version"] == 1 and step["deal"] == 1 and step["cards"] == 3 and step["dealer"] == 0
    assert step["names"] == ["Ann", "Bob", "Cy", "Dee"] and step["order"] == [1, 2, 3, 0]
    assert step["bids"] == [None, None, None, None] and step["at_once"] is False
    # Bob, Cy and Dee bid anything; the running totals before them reach 0, 0–3 and 0–6.
    assert step["bidding"][:3] == [[[0, [[0, 3]], None]], [[3, [[0, 3]], None]],
                                   [[6, [[0, 3]], None]]]
    # Ann can't make it 3: after 0 she can't bid 3, after 1 not 2, …; after 4 to 9 anything.
    assert step["bidding"][3] == [[0, [[0, 2]], 0], [1, [[0, 1], [3, 3]], 1],
                                  [2, [[0, 0], [2, 3]], 2], [3, [[1, 3]], 3], [9, [[0, 3]], None]]
    assert step["reasons"] == [hook("Ann", 3, 3), hook("Ann", 2, 3), hook("Ann", 1, 3),
                               hook("Ann", 0, 3)]
    assert step["announce"] == ["under by %(tricks)s", "even", "over by %(tricks)s"]
    assert step["tricks"] == {"total": 3, "rest": 0}


def test_dealer_must_exceed_asks_for_more_than_the_tricks_and_falls_back_to_the_hook(
        start: Start) -> None:
    step = data(start(players=THREE,
                      rules={"bidding": "dealer-must-exceed", "max_cards": 2}).page())
    assert step["order"] == [1, 2, 0]
    assert step["bidding"][2] == [[0, [[0, 1]], 0], [1, [[2, 2]], 1], [2, [[1, 2]], 2],
                                  [4, ALL_OF_2, None]]
    fallback = "— everyone else bid 0, so the hook applies (dealer must exceed)"
    exceed = "the bids must add up to more than the 2 tricks (dealer must exceed)"
    assert step["reasons"] == [hook("Ann", 2).replace("(hook)", fallback),
                               f"Ann deals and must bid at least 2: {exceed}",
                               f"Ann deals and must bid at least 1: {exceed}"]


def test_must_equal_bounds_every_bidder_and_names_the_dealers_one_bid(start: Start) -> None:
    step = data(start(players=THREE, rules={"bidding": "must-equal", "max_cards": 2}).page())
    must = "the bids must add up to the 2 tricks (must equal)"
    most = "the bids can't add up to more than the 2 tricks (must equal)"
    assert step["bidding"] == [
        [[0, ALL_OF_2, None]],                                          # Bob bids first: anything
        [[0, ALL_OF_2, None], [1, [[0, 1]], 0], [2, [[0, 0]], 1]],      # Cy: at most what is left
        [[0, [[2, 2]], 2], [1, [[1, 1]], 3], [2, [[0, 0]], 4]],         # Ann: exactly what is left
    ]
    assert step["reasons"] == [f"Cy can bid at most 1: {most}", f"Cy can bid at most 0: {most}",
                               f"Ann deals and must bid 2: {must}",
                               f"Ann deals and must bid 1: {must}",
                               f"Ann deals and must bid 0: {must}"]


def test_free_bidding_refuses_nothing(start: Start) -> None:
    step = data(start(players=THREE, rules={"bidding": "free", "max_cards": 2}).page())
    assert step["bidding"] == [[[0, ALL_OF_2, None]], [[2, ALL_OF_2, None]], [[4, ALL_OF_2, None]]]
    assert step["reasons"] == []


def test_bids_shown_at_once_are_each_checked_as_a_first_bid(start: Start) -> None:
    step = data(start(players=THREE,
                      rules={"preset": "british-oh-hell", "deal": "down", "max_cards": 2}).page())
    assert step["at_once"] is True and step["order"] == [1, 2, 0]
    assert step["bidding"] == [[[0, ALL_OF_2, None]]] * 3 and step["reasons"] == []
    assert step["announce"] == ["under by %(tricks)s", "even", "over by %(tricks)s"]


def test_a_player_sitting_out_is_not_in_the_order_and_the_hook_counts_the_others(
        start: Start) -> None:
    page = start(rules={"max_cards": 2}, absent=[{"player": 2, "from": 1, "to": 1}]).page()
    step = data(page)  # Cy sits deal 1 out: Bob, Dee, then Ann deals
    assert step["order"] == [1, 3, 0] and step["bids"] == [None, None, None, None]
    assert step["bidding"][2] == [[0, [[0, 1]], 0], [1, [[0, 0], [2, 2]], 1], [2, [[1, 2]], 2],
                                  [4, ALL_OF_2, None]]
    assert step["reasons"] == [hook("Ann", 2), hook("Ann", 1), hook("Ann", 0)]


def test_the_data_follows_the_bids_stored_and_the_tricks_step(start: Start) -> None:
    game = start(rules={"max_cards": 2})
    game.bid(1, 0)
    assert data(game.page())["bids"] == [None, 1, 0, None] and data(game.page())["version"] == 3
    game.bid(0, 0)
    step = data(game.page())
    assert step["bids"] == [0, 1, 0, 0] and step["tricks"] == {"total": 2, "rest": 0}


def test_a_game_over_or_a_deal_without_its_cards_carries_only_its_version(start: Start) -> None:
    over = start(players=THREE, rules={"deal": "down", "max_cards": 1},
                 deals=[{"bids": [0, 0, 0], "tricks": [1, 0, 0]}])
    assert data(over.page()) == {"version": 1}
    manual = start(players=THREE, rules={"deal": "manual", "deals": 3})
    assert data(manual.page()) == {"version": 1}


def test_only_the_edit_page_carries_the_data_and_it_names_the_game_page(start: Start) -> None:
    game = start(rules={"max_cards": 2})
    assert DATA.search(game.page()).group(1) == game.url  # type: ignore[union-attr]
    view = game.client.get(f"/v/{game.view_token}").get_data(as_text=True)
    assert "step-data" not in view


@pytest.mark.parametrize("name", ["</script><script>alert(1)</script>", "Zoë & 'Ann'", "<!--"])
def test_names_in_the_data_are_json_that_cannot_close_its_script(start: Start, name: str) -> None:
    page = start(players=[name, "Bob"], rules={"max_cards": 2}).page()
    raw = DATA.search(page).group(2)  # type: ignore[union-attr]
    assert "<" not in raw and "&" not in raw
    assert data(page)["names"][0] == name and name in data(page)["reasons"][0]


def test_the_deals_after_the_one_being_played_come_with_their_data_under_the_plans_name(
        start: Start) -> None:
    """The phone goes on offline from deal to deal: /deals.json has each later deal's step data,
    made as the page's own deal's is, under the name of the game's plan, which taps leave as it
    is."""
    game = start(rules={"max_cards": 3})  # deals of 3, 2, 1, 2, 3 cards
    step = data(game.page())
    later = game.client.get(game.url + "/deals.json").get_json()
    assert later["plan"] == step["plan"] and [d["deal"] for d in later["deals"]] == [2, 3, 4, 5]
    second = later["deals"][0]  # 2 cards: Bob deals, Cy bids first
    assert second["cards"] == 2 and second["dealer"] == 1 and second["order"] == [2, 3, 0, 1]
    assert second["bidding"][3] == [[0, [[0, 1]], 0], [1, [[0, 0], [2, 2]], 1], [2, [[1, 2]], 2],
                                    [6, [[0, 2]], None]]
    assert second["reasons"] == [hook("Bob", 2), hook("Bob", 1), hook("Bob", 0)]
    assert "Deal 2 of 5" in second["head"] and "<b>Bob</b> deals" in second["head"]
    game.bid(1, 1, 0, 0)
    game.tricks(1, 1, 0, 1)
    after = data(game.page())
    assert after["deal"] == 2 and after["plan"] == step["plan"]
    assert {k: v for k, v in after.items() if k in second} == {k: v for k, v in second.items()
                                                               if k not in ("head", "eldest")}
    # a last 1-card deal
    assert game.post("/plan", {"cards-0": "1", "action": "save"}).status_code == 302
    changed = data(game.page())
    assert changed["plan"] != step["plan"] and changed["cards"] == 1
    assert (game.client.get(game.url + "/deals.json").get_json()
            == {"plan": changed["plan"], "deals": []})


@pytest.mark.parametrize("rules", [{"preset": "cooperative"}, {"deal": "manual", "deals": 3}])
def test_no_deal_is_listed_ahead_when_the_points_or_the_table_decide_it(
        start: Start, rules: dict[str, Any]) -> None:
    game = start(rules=rules)
    later = game.client.get(game.url + "/deals.json").get_json()
    assert later["deals"] == []
