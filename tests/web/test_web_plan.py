"""Changes at the table (RULES.md §7) on their pages: the plan of the deals still to come (or,
without one, when the game ends), new rules for the whole game previewed before they are saved, and
a new game for the same table once one is over."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from unittest.mock import patch

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webhelpers import FOUR, Scorer, csrf_from, message, snapshot, text

from scorekeeper.changes import games
from scorekeeper.store import games as stored_games

Start = Callable[..., Scorer]

#: 3 cards down to 1 and back up (3, 2, 1, 2, 3); Ann deals first.
RULES = {"max_cards": 3}
#: Deal 1 (3 cards, Ann deals): Ann 0/1 ✗, Bob 1/1, Cy 1/0 ✗, Dee 0/1 ✗.
#: Deal 2 (2 cards, Bob deals): Ann 1/1, Bob 0/0, Cy 0/0, Dee 0/1 ✗.
TWO_DEALS = [{"bids": [0, 1, 1, 0], "tricks": [1, 1, 0, 1]},
             {"bids": [1, 0, 0, 0], "tricks": [1, 0, 0, 1]}]


def rows(page: str) -> list[str]:
    """The cards of each deal still to come, as the plan page shows them."""
    return re.findall(r'name="cards-\d+" value="([^"]*)"', page.split('<template', 1)[0])


def value(page: str, name: str) -> str | None:
    """The value of a page's text field or hidden field, by its name."""
    found = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', page)
    return found.group(1) if found else None


def plan(game: Scorer, **fields: Any) -> Any:
    """Post the plan page's form, with its rows as ``cards=[...]`` and the rest as given."""
    cards = fields.pop("cards", [])
    return game.post("/plan",
                     {**{f"cards-{row}": size for row, size in enumerate(cards)}, **fields})


def stored_rules(game: Scorer) -> dict[str, Any]:
    rules: dict[str, Any] = game.export()["rules"]
    return rules


# The plan of a game with hand sizes set in advance


def test_the_plan_page_lists_the_deals_still_to_come(start: Start) -> None:
    game = start(rules=RULES, deals=TWO_DEALS)
    page = game.client.get(game.url + "/plan").get_data(as_text=True)
    assert rows(page) == ["1", "2", "3"]
    said = text(page)
    assert "Dealt so far: 3 · 2 ." in said and "Deal 3 − + ✕ Deal 4 − + ✕ Deal 5" in said
    assert "Stop after this deal (deal 3)" in said and "NT" not in said
    assert "Change the plan…" in text(game.page())


def test_the_deal_being_played_keeps_its_size_and_the_plan_goes_on_after_it(start: Start) -> None:
    game = start(rules=RULES, deals=[*TWO_DEALS, {"bids": [None, None, None, 0]}])
    page = game.client.get(game.url + "/plan").get_data(as_text=True)
    assert rows(page) == ["2", "3"]
    assert "Dealt so far: 3 · 2 ; deal 3 (1 card) is being played." in text(page)
    assert ('aria-label="Deal 4: cards each"' in page
            and "Stop after this deal (deal 3)" in text(page))


def test_a_number_of_deals_stops_the_plan_shown_where_the_game_stops(start: Start) -> None:
    game = start(rules={**RULES, "deals": 3}, deals=TWO_DEALS)
    assert rows(game.client.get(game.url + "/plan").get_data(as_text=True)) == ["1"]


def test_a_new_plan_is_written_as_custom_after_the_sizes_dealt(start: Start) -> None:
    game = start(rules={**RULES, "scoring": "exact"}, deals=TWO_DEALS)
    response = plan(game, cards=["1", " 1 "], action="save")
    assert response.status_code == 302 and response.headers["Location"] == game.url
    assert stored_rules(game) == {"scoring": "exact", "deal": "custom", "sequence": "3-2-1-1"}
    page = text(game.page())
    assert "The plan is changed: 2 deals to come." in page and "Deal 3 of 4 · 1 card" in page
    assert [deal["cards"] for deal in game.export()["schedule"]] == [3, 2, 1, 1]


def test_enter_in_a_deals_number_saves_the_plan(start: Start) -> None:
    game = start(rules=RULES, deals=TWO_DEALS)
    page = game.client.get(game.url + "/plan").get_data(as_text=True)
    form = page.split('id="plan-form"', 1)[1]
    first = re.search(r'<button type="submit" name="action" value="(\w+)"', form)
    # the form's default button comes before the rows' buttons
    assert first and first.group(1) == "save"
    assert plan(game, cards=["2"]).status_code == 302  # a post without an action saves
    assert stored_rules(game)["sequence"] == "3-2-2"


@pytest.mark.parametrize(("action", "after"), [
    ("remove-1", ["1", "3"]), ("less-2", ["1", "2", "2"]), ("more-0", ["2", "2", "3"]),
    ("less-0", ["1", "2", "3"]),
    ("add", ["1", "2", "3", "3"]), ("one", ["1", "2", "3", "1"]), ("remove-7", ["1", "2", "3"]),
])
def test_the_row_buttons_change_the_page_and_store_nothing(app: Flask, start: Start, action: str,
                                                           after: list[str]) -> None:
    game = start(rules=RULES, deals=TWO_DEALS)
    before = snapshot(app)
    response = plan(game, cards=["1", "2", "3"], action=action)
    assert response.status_code == 200 and rows(response.get_data(as_text=True)) == after
    assert snapshot(app) == before


def test_a_row_typed_wrong_is_kept_as_typed_while_the_rows_change(start: Start) -> None:
    game = start(rules=RULES, deals=TWO_DEALS)
    page = plan(game, cards=["x", "2"], action="more-0").get_data(as_text=True)
    assert rows(page) == ["x", "2"]
    assert rows(plan(game, cards=["x"], action="add").get_data(as_text=True)) == ["x", "1"]


def test_stop_after_this_deal_between_deals_keeps_the_deal_about_to_be_dealt(start: Start) -> None:
    game = start(rules=RULES, deals=TWO_DEALS)
    page = plan(game, action="stop").get_data(as_text=True)
    assert rows(page) == ["1"]
    assert plan(game, cards=["1"]).status_code == 302
    assert stored_rules(game) == {"deal": "custom", "sequence": "3-2-1"}
    game.bid(0, 0, 0, 0)
    game.tricks(0, 0, 1, 0)
    assert "Game over" in text(game.page())


def test_stop_after_this_deal_while_it_is_played_leaves_nothing_to_come(start: Start) -> None:
    game = start(rules=RULES, deals=[*TWO_DEALS, {"bids": [None, None, None, 0]}])
    page = plan(game, action="stop").get_data(as_text=True)
    assert rows(page) == [] and "Nothing more: the game ends after deal 3." in text(page)
    assert plan(game, action="save").status_code == 302
    assert "The plan is changed: this deal is the last." in text(game.page())
    assert game.export()["schedule"][-1]["number"] == 3


@pytest.mark.parametrize(("shape", "top", "after"), [
    ("down", "3", ["3", "2", "1"]), ("up", "2", ["1", "2"]), ("down-up", "2", ["2", "1", "2"]),
    ("up-down", "2", ["1", "2", "1"]),
])
def test_the_rest_is_rebuilt_down_up_or_both_from_a_top_hand(start: Start, shape: str, top: str,
                                                             after: list[str]) -> None:
    game = start(rules=RULES, deals=TWO_DEALS)
    response = plan(game, action="rebuild", shape=shape, top=top)
    assert response.status_code == 200 and rows(response.get_data(as_text=True)) == after


@pytest.mark.parametrize(("fields", "said"), [
    ({"top": "1e5"}, "The top hand (n) must be a whole number from 1 to 52, not '1e5'."),
    ({"top": ""}, "The top hand (n) must be a whole number from 1 to 52, not ''."),
    ({"top": "3", "shape": "sideways"},
     "The shape must be one of down, up, down-up, up-down, not 'sideways'."),
])
def test_a_rebuild_that_cant_be_read_says_why_and_keeps_what_was_typed(
        start: Start, fields: dict[str, str], said: str) -> None:
    game = start(rules=RULES, deals=TWO_DEALS)
    response = plan(game, action="rebuild", **{"shape": "down", **fields})
    assert response.status_code == 422 and message(response) == said
    page = response.get_data(as_text=True)
    assert rows(page) == ["1", "2", "3"] and f'name="top" id="top" value="{fields["top"]}"' in page


@pytest.mark.parametrize(("cards", "said"), [
    (["14"], ("A hand in the sequence of 14 cards can't be dealt to 4 players from 52 cards: the "
              "largest possible is 13; choose at most 13 or play with a second pack.")),
    (["2", "x"], "Deal 4's hand must be a whole number from 1 to 52, not 'x'."),
    (["2", "53"], "Deal 4's hand must be a whole number from 1 to 52, not '53'."),
    (["1e1"], "Deal 3's hand must be a whole number from 1 to 52, not '1e1'."),
    (["", "2"], "Deal 3 has no number of cards: type one, or remove the deal."),
    (["1"] * 99, "A plan has at most 100 deals in all: 2 are dealt, so at most 98 can come."),
])
def test_a_plan_that_cant_be_dealt_is_refused_and_kept_as_typed(
        app: Flask, start: Start, cards: list[str], said: str) -> None:
    game = start(rules=RULES, deals=TWO_DEALS)
    before = snapshot(app)
    response = plan(game, cards=cards, action="save")
    assert response.status_code == 422 and message(response) == said
    assert rows(response.get_data(as_text=True)) == cards
    assert snapshot(app) == before


#: Four players at deal 1 (10 cards down), Eve dealt in from deal 2: five from then on.
ARRIVED = {"players": [*FOUR, "Eve"], "rules": {"deal": "down", "max_cards": 10},
           "absent": [{"player": 4, "from": 1, "to": 1}],
           "deals": [{"bids": [3, 2, 2, 2, None], "tricks": [4, 2, 2, 2, None]}]}
TOO_BIG = ("At deal 2, 5 players can't get 12 cards from one pack: play the rest with at most 10 "
           "(change the plan) or add a pack.")


def test_a_plan_too_big_for_the_players_of_a_deal_to_come_is_refused(
        app: Flask, start: Start) -> None:
    """RULES.md §7: a deal whose cards can't be dealt to the players present is refused; the plan
    is sized for the five dealt in from deal 2, not for the four of deal 1."""
    game = start(**ARRIVED)
    before = snapshot(app)
    response = plan(game, cards=["12", "11"], action="save")
    assert response.status_code == 422 and message(response) == TOO_BIG
    assert rows(response.get_data(as_text=True)) == ["12", "11"]
    assert snapshot(app) == before


def test_a_plan_that_leaves_no_deal_at_all_is_refused(app: Flask, start: Start) -> None:
    game = start(rules=RULES)
    before = snapshot(app)
    response = plan(game, action="save")
    assert response.status_code == 422 and message(response) == "A game needs at least one deal."
    assert snapshot(app) == before


def test_no_trump_deals_can_be_marked(start: Start) -> None:
    game = start(rules=RULES, deals=TWO_DEALS)
    page = plan(game, cards=["1", "2", "3"], action="nt").get_data(as_text=True)
    assert 'name="nt-2"' in page and 'name="marks" value="nt"' in page
    assert plan(game, cards=["1", "2", "3"], marks="nt", **{"nt-2": "yes"}).status_code == 302
    assert stored_rules(game)["sequence"] == "3-2-1-2-3NT"
    assert game.export()["schedule"][4]["trump"] is False
    marked = game.client.get(game.url + "/plan").get_data(as_text=True)
    assert (re.search(r'name="nt-2" value="yes" checked', marked)
            and not re.search(r'name="nt-1"[^>]*checked', marked))


def test_a_pattern_with_no_trump_deals_shows_the_marks(start: Start) -> None:
    game = start(players=["Ann", "Bob", "Cy"], rules={"preset": "oh-sh-64", "max_cards": 2})
    page = game.client.get(game.url + "/plan").get_data(as_text=True)
    assert rows(page) == ["1", "2", "2", "2", "2", "1"]
    assert re.findall(r'name="nt-(\d)" value="yes" checked', page) == ["2", "3"]
    response = plan(game, cards=["1", "2"], **{"nt-0": "perhaps"})
    assert (response.status_code == 422
            and message(response) == "Deal 1 at no trump must be yes or no, not 'perhaps'.")


# Games without a plan of hand sizes: when they end


def test_a_fixed_game_changes_its_number_of_deals_or_its_target(start: Start) -> None:
    game = start(rules={"preset": "oh-well", "max_cards": 2},
                 deals=[{"bids": [0, 0, 0, 1], "tricks": [1, 0, 0, 1]}])
    page = game.client.get(game.url + "/plan").get_data(as_text=True)
    assert "When the game ends" in text(page) and value(page, "target") == "100"
    assert "Change when the game ends…" in text(game.page())
    assert game.post("/plan", deals="5", target="150").status_code == 302
    assert stored_rules(game) == {"preset": "oh-well", "max_cards": 2, "deals": 5, "target": 150}
    assert ("The game now ends after 5 deals or when a total reaches 150, whichever comes first."
            in text(game.page()))
    assert game.post("/plan", deals="", target="").status_code == 302
    assert stored_rules(game) == {"preset": "oh-well", "max_cards": 2}  # the preset's target again
    assert "The game now ends when a total reaches 100." in text(game.page())


def test_a_manual_game_with_no_end_goes_on_until_the_table_ends_it(start: Start) -> None:
    game = start(rules={"deal": "manual", "deals": 4})
    assert game.post("/plan", deals="").status_code == 302
    assert "The game now goes on until the table ends it." in text(game.page())


@pytest.mark.parametrize(("fields", "said"), [
    ({"deals": "1e5"}, "Number of deals must be a whole number from 1 to 200, not '1e5'."),
    ({"target": "0"}, "Game to (points) must be a whole number from 1 to 100,000, not '0'."),
    ({"deals": "1"}, "2 deals have been dealt already: the game can't end after 1."),
])
def test_an_end_that_cant_be_is_refused_and_kept_as_typed(
        app: Flask, start: Start, fields: dict[str, str], said: str) -> None:
    game = start(rules={"deal": "fixed", "max_cards": 1},
                 deals=[{"bids": [0, 0, 0, 0], "tricks": [1, 0, 0, 0]}] * 2)
    before = snapshot(app)
    response = game.post("/plan", fields)
    assert response.status_code == 422 and message(response).startswith(said)
    name, typed = next(iter(fields.items()))
    assert value(response.get_data(as_text=True), name) == typed
    assert snapshot(app) == before


# New rules for the whole game


def test_the_rules_page_shows_the_games_rules(start: Start) -> None:
    game = start(rules={"preset": "blackout", "max_cards": 3, "spades_double": True})
    page = game.client.get(game.url + "/rules").get_data(as_text=True)
    assert '<option value="blackout" selected>' in page
    assert value(page, "rules-max_cards") == "3"
    assert '<option selected value="yes">yes</option>' in page
    assert "Change the rules…" in text(game.page())


def test_a_deck_size_the_form_doesnt_offer_is_shown_and_kept(start: Start) -> None:
    """A game file may give any deck of 20 to 104 cards (README, Limits); the rules page shows the
    game's own and keeps it when another rule changes, instead of falling back to the preset's."""
    game = start(rules={"max_cards": 3, "deck_size": 60})
    page = game.client.get(game.url + "/rules").get_data(as_text=True)
    assert '<option selected value="60">60</option>' in page
    fields = {"preset": "oh-hell", "rules-max_cards": "3", "rules-deck_size": "60",
              "rules-scoring": "exact"}
    assert game.post("/rules", {**fields, "action": "save"}).status_code == 302
    assert stored_rules(game) == {"preset": "oh-hell", "max_cards": 3, "deck_size": 60,
                                  "scoring": "exact"}
    response = game.post("/rules", {**fields, "rules-deck_size": "200", "action": "preview"})
    assert message(response) == "Deck size must be a whole number from 20 to 104, not '200'."


def test_the_rules_of_a_game_with_the_longest_sequence_can_be_changed(start: Start) -> None:
    """RULES.md §8: a custom sequence of at most 100 deals; each may be written "10NT" (as a new
    plan writes it), so the form takes the 499 characters of the longest; a trump cycle as long."""
    sequence, cycle = "-".join(["10NT"] * 100), "-".join(["NT", "S"] * 50)
    game = start(rules={"deal": "custom", "sequence": sequence, "trump": "rotation",
                        "trump_cycle": cycle})
    response = game.post("/rules", {"preset": "oh-hell", "rules-deal": "custom",
                                    "rules-sequence": sequence, "rules-trump": "rotation",
                                    "rules-trump_cycle": cycle, "rules-scoring": "exact",
                                    "action": "save"})
    assert response.status_code == 302
    assert stored_rules(game)["scoring"] == "exact"


def test_the_preview_says_which_points_and_which_totals_change(app: Flask, start: Start) -> None:
    """Exact scoring gives a missed bid 0 where common gives the tricks taken: Ann's 1 and Dee's 1
    in deal 1, Dee's 1 in deal 2 (Cy missed with no trick: 0 either way)."""
    game = start(rules=RULES, deals=TWO_DEALS)
    before = snapshot(app)
    response = game.post("/rules",
                         {"preset": "oh-hell", "rules-max_cards": "3", "rules-scoring": "exact"})
    assert response.status_code == 200
    page = text(response.get_data(as_text=True))
    assert "Scoring made: 10 + tricks; missed: 1 per trick → made: 10 + tricks; missed: 0" in page
    assert ("2 deals score differently: Deal Player Before After 1 Ann 1 0 1 Dee 1 0 2 Dee 1 0 "
            "Totals" in page)
    assert "Totals Player Before After Ann 12 11 Bob 21 21 Cy 10 10 Dee 2 0" in page
    assert snapshot(app) == before  # a preview stores nothing


def test_saving_the_new_rules_scores_every_deal_again(start: Start) -> None:
    game = start(rules=RULES, deals=TWO_DEALS)
    fields = {"preset": "oh-hell", "rules-max_cards": "3", "rules-scoring": "exact",
              "action": "save"}
    response = game.post("/rules", fields)
    assert response.status_code == 302 and response.headers["Location"] == game.url
    assert stored_rules(game) == {"preset": "oh-hell", "max_cards": 3, "scoring": "exact"}
    assert "The rules are changed: 2 deals score differently." in text(game.page())
    assert [s["total"] for s in game.export()["standings"]] == [21, 11, 10, 0]


def test_the_preview_carries_the_fields_and_the_version_to_save_or_to_change(start: Start) -> None:
    game = start(rules=RULES, deals=TWO_DEALS)
    page = game.post("/rules", {"preset": "oh-hell", "rules-max_cards": "3",
                                "rules-zero_bid": "5+n"}).get_data(
        as_text=True)
    save = page.split("</form>")[-2]
    assert re.search(r'name="version"[^>]*value="1"', save)
    assert 'name="rules-zero_bid" value="5+n"' in save and 'name="preset" value="oh-hell"' in save
    assert 'name="action" value="save"' in save and 'name="action" value="edit"' in save
    back = game.post("/rules", {"preset": "oh-hell", "rules-zero_bid": "5+n", "action": "edit"})
    assert back.status_code == 200 and value(back.get_data(as_text=True), "rules-zero_bid") == "5+n"


def test_rules_that_change_the_plan_keep_the_hand_sizes_dealt(start: Start) -> None:
    game = start(rules=RULES, deals=TWO_DEALS)
    page = text(game.post("/rules",
                          {"preset": "oh-hell", "rules-max_cards": "2"}).get_data(as_text=True))
    assert ("Deals 3 cards down to 1 and back up to 3: 5 deals (one pack) → "
            "the sequence 3-2-2: 3 deals (one pack)") in page
    assert "No deal entered so far scores differently." in page
    assert game.post("/rules", {"preset": "oh-hell", "rules-max_cards": "2",
                                "action": "save"}).status_code == 302
    assert stored_rules(game) == {"preset": "oh-hell", "deal": "custom", "sequence": "3-2-2"}
    assert "The rules are changed: no deal scores differently." in text(game.page())


def test_the_same_rules_change_nothing(start: Start) -> None:
    game = start(rules=RULES, deals=TWO_DEALS)
    page = text(game.post("/rules",
                          {"preset": "oh-hell", "rules-max_cards": "3"}).get_data(as_text=True))
    assert "These are the rules the game is played by already: nothing would change." in page
    assert "Save the new rules" not in page


FREE = {"max_cards": 3, "bidding": "free"}
#: Deal 1: Bob, Cy, Dee bid 1, 1, 0 and Ann (the dealer) 1: the bids add up to the 3 tricks.
HOOKED = [{"bids": [1, 1, 1, 0], "tricks": [1, 1, 1, 0]}]


@pytest.mark.parametrize("action", ["preview", "save"])
def test_rules_a_deal_entered_no_longer_fits_are_refused_with_the_rule(app: Flask, start: Start,
                                                                         action: str) -> None:
    game = start(rules=FREE, deals=HOOKED)
    before = snapshot(app)
    response = game.post("/rules", {"preset": "oh-hell", "rules-max_cards": "3",
                                    "rules-bidding": "hook", "action": action})
    assert response.status_code == 422
    assert (message(response)
            == "Deal 1: Ann deals and can't bid 1: the bids would add up to the 3 tricks (hook)")
    page = response.get_data(as_text=True)
    assert ("Nothing was changed." in text(page)
            and '<option selected value="hook">hook</option>' in page)
    assert snapshot(app) == before


@pytest.mark.parametrize("action", ["preview", "save"])
def test_rules_whose_plan_is_too_big_for_the_players_of_a_deal_to_come_are_refused(
        app: Flask, start: Start, action: str) -> None:
    game = start(**ARRIVED)
    before = snapshot(app)
    response = game.post("/rules", {"preset": "oh-hell", "rules-deal": "down",
                                    "rules-max_cards": "13", "action": action})
    assert response.status_code == 422
    assert message(response) == TOO_BIG
    assert snapshot(app) == before


@pytest.mark.parametrize(("fields", "said"), [
    ({"rules-max_cards": "1e5"},
     "Top hand (cards) must be a whole number from 1 to 104, not '1e5'."),
    ({"rules-scoring": "golf"}, "Scoring: Not a valid choice."),
    ({"preset": "poker"}, "Rules: Not a valid choice."),
    ({"rules-max_cards": "14"}, "A top hand of 14 cards can't be dealt to 4 players from 52 cards"),
])
def test_rules_that_cant_be_read_are_refused_and_kept_as_typed(
        app: Flask, start: Start, fields: dict[str, str], said: str) -> None:
    game = start(rules=RULES, deals=TWO_DEALS)
    before = snapshot(app)
    for action in ("preview", "save"):
        response = game.post("/rules", {"preset": "oh-hell", **fields, "action": action})
        assert response.status_code == 422 and message(response).startswith(said)
    assert snapshot(app) == before


# Stale pages and the read-only link


@pytest.mark.parametrize(("path", "fields"), [
    ("/plan", {"cards-0": "1", "action": "save"}),
    ("/plan", {"deals": "3"}),
    ("/rules", {"preset": "oh-hell", "rules-scoring": "exact"}),
    ("/rules", {"preset": "oh-hell", "rules-scoring": "exact", "action": "save"}),
])
def test_a_change_from_a_page_out_of_date_changes_nothing(app: Flask, start: Start, path: str,
                                                          fields: dict[str, str]) -> None:
    rules = {"deal": "fixed", "max_cards": 1} if "deals" in fields else RULES
    game = start(rules=rules, deals=TWO_DEALS[:1] if "deals" not in fields else [])
    stale = game.version()
    game.bid(0)  # another phone enters a bid
    before = snapshot(app)
    response = game.client.post(game.url + path, data={**fields, "version": stale,
                                                       "csrf_token": csrf_from(game.page())})
    assert response.status_code == 409 and "This screen was out of date" in message(response)
    assert snapshot(app) == before


@pytest.mark.parametrize("path", ["/plan", "/rules", "/again"])
def test_the_read_only_link_can_change_neither_plan_nor_rules_nor_start_again(
        app: Flask, start: Start, path: str) -> None:
    game = start(rules=RULES, deals=[*TWO_DEALS, {"bids": [0, 0, 0, 0], "tricks": [0, 0, 1, 0]},
                                     {"bids": [0, 1, 0, 0], "tricks": [1, 1, 0, 0]},
                                     {"bids": [1, 1, 0, 0], "tricks": [1, 1, 0, 1]}])
    assert "Game over" in text(game.page())
    before = snapshot(app)
    fields = {"csrf_token": csrf_from(game.page()), "version": game.version(), "cards-0": "1",
              "action": "save", "preset": "oh-hell"}
    response = game.client.post(f"/g/{game.view_token}{path}", data=fields)
    assert response.status_code == 403
    if path != "/again":
        assert game.client.get(f"/g/{game.view_token}{path}").status_code == 403
    assert snapshot(app) == before


# Play again


def _finish(game: Scorer) -> None:
    """Three deals of 2, 1 and 2 cards: Ann, Bob and Cy deal them."""
    game.bid(1, 0, 0, 0)
    game.tricks(0, 1, 1, 0)
    game.bid(0, 0, 0, 0)
    game.tricks(1, 0, 0, 0)
    game.bid(0, 1, 0, 0)
    game.tricks(1, 0, 0, 1)


def test_play_again_starts_the_same_table_with_the_deal_moved_on(app: Flask, start: Start) -> None:
    game = start(title="Friday", rules={"preset": "blackout", "max_cards": 2},
                 stakes={"per_point": "0.10", "currency": "€"})
    _finish(game)
    over = game.page()
    form = re.search(r'<form method="post" action="/g/[^"]+/again">(.*?)</form>', over, re.DOTALL)
    assert form and 'name="csrf_token"' in form.group(1) and "Play again" in form.group(1)
    assert "/again" not in game.client.get(f"/v/{game.view_token}").get_data(as_text=True)
    before = snapshot(app)
    response = game.post("/again")
    assert response.status_code == 302
    stored = snapshot(app)
    assert stored[:-1] == before and len(stored) == len(before) + 1
    new = Scorer(game.client, response.headers["Location"].rsplit("/", 1)[1], "")
    assert new.token != game.token
    again = new.export()
    assert again["players"] == FOUR and again["first_dealer"] == 3  # Cy dealt last: Dee deals first
    assert again["rules"] == {"preset": "blackout", "max_cards": 2}
    assert again["stakes"] == {"per_point": "0.10", "currency": "€"} and again["title"] == "Friday"
    assert again["deals"] == [] and not again["finished"]
    page = text(new.page())
    assert ("A new game for the same table: Dee deals first." in page
            and "Deal 1 of 3 · 2 cards" in page)
    home = game.client.get("/").get_data(as_text=True)
    assert home.index(new.token) < home.index(game.token)  # on this phone's list, first


def test_play_again_tapped_twice_or_resent_opens_the_one_new_game(app: Flask, start: Start) -> None:
    game = start(rules={"max_cards": 2})
    _finish(game)
    before = snapshot(app)
    first, second = game.post("/again"), game.post("/again")  # a double tap, or the form resent
    assert first.status_code == second.status_code == 302
    assert first.headers["Location"] == second.headers["Location"]
    assert len(snapshot(app)) == len(before) + 1
    home = game.client.get("/").get_data(as_text=True)
    assert home.count(first.headers["Location"].rsplit("/", 1)[1]) == 1  # on this phone's list once
    other = app.test_client()  # the read-only link the new game has is no edit link of the old one
    new = other.get("/api/games/" + first.headers["Location"].rsplit("/", 1)[1]).get_json()
    assert new["links"]["view"].rsplit("/", 1)[1] not in (game.token, game.view_token)


def test_play_again_asked_at_the_same_moment_stores_one_game(app: Flask, start: Start) -> None:
    """Two asks racing: the second finds the new game's link taken by the first's (the database's
    unique link), takes its own insert back and opens the first's game."""
    game = start(rules={"max_cards": 2})
    _finish(game)
    before = snapshot(app)
    found = stored_games.find_game
    misses = iter([True])

    def not_yet(token: str) -> tuple[Any, bool]:
        """The first look finds nothing, as if the other ask had not stored its game yet."""
        if next(misses, False):
            return None, False
        return found(token)

    game.post("/again")
    with patch.object(games, "find_game", not_yet):
        response = game.post("/again")
    assert response.status_code == 302 and len(snapshot(app)) == len(before) + 1


def test_play_again_leaves_out_who_has_left(client: FlaskClient) -> None:
    """Ann leaves after deal 2; Cy deals deal 3, the last: Dee, the next at the table, deals
    first."""
    game = {"players": FOUR, "rules": {"max_cards": 2}, "absent": [{"player": 0, "from": 3}],
            "deals": [{"bids": [1, 0, 0, 0], "tricks": [0, 1, 1, 0]},
                      {"bids": [0, 0, 0, 0], "tricks": [1, 0, 0, 0]},
                      {"bids": [None, 1, 0, 0], "tricks": [None, 1, 0, 1]}]}
    created = client.post("/api/games", json=game).get_json()
    assert created["finished"] and created["deals"][-1]["dealer"] == 2
    form = {"csrf_token": csrf_from(client.get("/new").get_data(as_text=True)), "version": 1}
    response = client.post(created["links"]["edit"] + "/again", data=form)
    assert response.status_code == 302
    new = client.get("/api/games/" + response.headers["Location"].rsplit("/", 1)[1]).get_json()
    assert new["players"] == ["Bob", "Cy", "Dee"] and new["first_dealer"] == 2


def test_only_a_finished_game_is_played_again(app: Flask, start: Start) -> None:
    game = start(rules=RULES, deals=TWO_DEALS)
    before = snapshot(app)
    response = game.post("/again")
    assert response.status_code == 422
    assert (message(response)
            == "Only a finished game can be played again: finish this one, or end it now.")
    assert snapshot(app) == before
