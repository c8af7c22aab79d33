"""Changes at the table (RULES.md §7) from the game's pages: someone arrives, leaves, comes back or
sits the next deal out; each refusal in words with nothing stored; the board's dashes and notes."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from webhelpers import FOUR, Scorer, csrf_from, message, snapshot, text
from werkzeug.test import TestResponse

Start = Callable[..., Scorer]

#: Deal 1 of a 4-player game to 3 cards, finished: Ann 11, Bob 11, Cy 1, Dee 10.
DEAL_1 = {"bids": [1, 1, 0, 0], "tricks": [1, 1, 1, 0]}


def one_deal(start: Start, **document: Any) -> Scorer:
    """A 4-player game to 3 cards with deal 1 scored."""
    return start(rules={"max_cards": 3}, deals=[DEAL_1], **document)


def said(game: Scorer) -> str:
    """The confirmation the game page shows after a change."""
    found = re.search(r'class="flash flash-done"[^>]*>(.*?)</p>', game.page(), re.DOTALL)
    return text(found.group(1)) if found else ""


def page(game: Scorer, path: str) -> str:
    response = game.client.get(game.url + path)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def arrive(game: Scorer, **fields: Any) -> TestResponse:
    return game.post("/arrive", {"name": "Eve", "seat": 2, "start": "zero", **fields})


# Someone arrives ----------------------------------------------------------------------------------

def test_the_arrival_page_offers_every_gap_clockwise_and_each_starting_score(start: Start) -> None:
    shown = text(page(one_deal(start), "/arrive"))
    assert "They are dealt in from deal 2 ." in shown
    gaps = re.findall(r"between (\w+) and (\w+)", shown)
    assert gaps == [("Ann", "Bob"), ("Bob", "Cy"), ("Cy", "Dee"), ("Dee", "Ann")]
    assert ("0 the lowest total at the table: 1 the others' average, rounded down: 8 a number"
            in shown)


def test_the_game_page_leads_to_the_changes_at_the_table(start: Start) -> None:
    game = one_deal(start)
    shown = game.page()
    assert f'href="/g/{game.token}/arrive"' in shown and f'href="/g/{game.token}/leave"' in shown


def test_an_arrival_sits_in_the_gap_chosen_from_the_next_deal_with_the_average(
        start: Start) -> None:
    game = one_deal(start)
    response = arrive(game, seat=2, start="average")
    assert response.status_code == 302
    assert said(game) == "Eve joins at deal 2 with 8."
    exported = game.export()
    assert exported["players"] == ["Ann", "Bob", "Eve", "Cy", "Dee"]
    assert exported["absent"] == [{"player": 2, "from": 1, "to": 1}]
    assert exported["adjustments"] == [{"deal": 1, "player": 2, "points": 8,
                                        "reason": "joined late"}]
    assert exported["deals"][0]["points"] == [11, 11, None, 1, 10]
    assert exported["deals"][0]["present"] == [0, 1, 3, 4]


@pytest.mark.parametrize(("fields", "points", "words"), [
    pytest.param({"start": "zero"}, None, "Eve joins at deal 2 with 0.", id="zero"),
    pytest.param({"start": "lowest"}, 1, "Eve joins at deal 2 with 1.", id="the lowest total"),
    pytest.param({"start": "number", "points": "-5"}, -5, "Eve joins at deal 2 with −5.",
                 id="a number"),
    pytest.param({"start": None, "points": "12"}, 12, "Eve joins at deal 2 with 12.",
                 id="a number typed with nothing ticked (no JavaScript)"),
])
def test_each_starting_score_is_a_joined_late_adjustment(start: Start, fields: dict[str, Any],
                                                         points: int | None, words: str) -> None:
    game = one_deal(start)
    assert arrive(game, **fields).status_code == 302
    assert said(game) == words
    adjustments = game.export().get("adjustments", [])
    assert adjustments == ([] if points is None else [{"deal": 1, "player": 2, "points": points,
                                                        "reason": "joined late"}])


def test_an_arrival_before_the_first_deal_plays_from_deal_1_with_no_starting_score(
        start: Start) -> None:
    game = start(rules={"max_cards": 3})
    shown = page(game, "/arrive")
    assert "Starting score" not in text(shown) and 'name="start" value="zero"' in shown
    assert arrive(game, seat=4).status_code == 302
    assert said(game) == "Eve joins at deal 1."
    exported = game.export()
    assert exported["players"] == [*FOUR, "Eve"] and "absent" not in exported


def test_an_arrival_while_a_deal_is_played_joins_the_deal_after_it(start: Start) -> None:
    game = one_deal(start)
    game.bid(1)  # Cy bids in deal 2
    assert "once deal 2 is over" in text(page(game, "/arrive"))
    assert arrive(game, seat=4, start="lowest").status_code == 302
    assert said(game) == "Eve joins at deal 3 with 1."
    exported = game.export()
    assert exported["deals"][1]["bids"] == [None, None, 1, None, None]
    assert exported["absent"] == [{"player": 4, "from": 1, "to": 2}]


BAD_ARRIVALS = [
    pytest.param({"name": ""},
                 "The new player's name is missing: every player needs a name.", id="no name"),
    pytest.param({"name": "Eve\u200b"},
                 "The new player's name contains an invisible character (zero width space)",
                 id="an invisible character"),
    pytest.param({"name": " bob "}, "Bob is in this game already: every player needs a different "
                                    "name, so add an initial or choose a nickname.",
                 id="a name taken, in other letters"),
    pytest.param({"name": "\uff22ob"}, "Bob is in this game already",
                 id="a name taken, in full-width letters"),
    pytest.param({"seat": None}, "Where they sit: choose a place at the table.", id="no seat"),
    pytest.param({"seat": 7}, "Choose where the new player sits.", id="a seat beyond the table"),
    pytest.param({"seat": "²"}, "Where they sit must be a whole number from 1 to 10, not '²'.",
                 id="a seat not a number"),
    pytest.param({"start": None}, "Starting score: choose what they start with.",
                 id="no starting score"),
    pytest.param({"start": "number"},
                 "Starting score: type the number they start with, such as 10 or -5.",
                 id="a number chosen, none typed"),
    pytest.param({"start": "lowest", "points": "12"},
                 "Starting score: 12 is typed as a number, but the lowest total is chosen: choose "
                 "one of the two.",
                 id="a number typed and another choice ticked"),
    pytest.param({"start": "number", "points": "1e5"},
                 "Starting score must be a whole number from -10,000 to 10,000, not '1e5'.",
                 id="an exponent"),
    pytest.param({"start": "number", "points": "10001"},
                 "Starting score must be a whole number from -10,000 to 10,000, not '10001'.",
                 id="too many points"),
]


@pytest.mark.parametrize(("fields", "words"), BAD_ARRIVALS)
def test_a_refused_arrival_says_why_stores_nothing_and_keeps_what_was_typed(
        app: Flask, start: Start, fields: dict[str, Any], words: str) -> None:
    game = one_deal(start)
    before = snapshot(app)
    response = arrive(game, **{"name": "Eve", "start": "zero", "points": "", **fields})
    assert response.status_code == 422
    assert words in message(response)
    assert snapshot(app) == before
    shown = response.get_data(as_text=True)
    name = fields.get("name", "Eve").strip()
    if name and "\u200b" not in name:
        assert f'value="{name}"' in shown
    if isinstance(fields.get("points"), str):
        assert f'value="{fields["points"]}"' in shown
    if fields.get("start") == "lowest":
        assert re.search(r'value="lowest" checked', shown)


def test_a_starting_score_before_any_deal_or_in_a_cooperative_game_is_refused(
        app: Flask, start: Start) -> None:
    game = start(rules={"max_cards": 3})
    response = arrive(game, start="number", points="5")
    assert (message(response)
            == "No deal has been played yet: the new player starts at 0 like everyone.")
    together = start(rules={"preset": "cooperative", "max_cards": 3},
                     deals=[{"bids": [1, 1, 1, 0], "tricks": [1, 1, 1, 0]}])
    assert 'name="start" value="zero"' in page(together, "/arrive")
    response = arrive(together, start="number", points="5")
    assert (message(response)
            == "A cooperative game keeps no points: the new player starts with none.")
    assert arrive(together).status_code == 302 and said(together) == "Eve joins at deal 2."


def test_nobody_arrives_during_the_last_deal(app: Flask, start: Start) -> None:
    """An arrival is dealt in from the next deal; during the last deal there is none, and they
    would be ranked (and settle) for a game they never played."""
    game = start(rules={"max_cards": 1, "deal": "down"}, stakes={"per_point": "1"})
    game.bid(0, 0, 0)
    before = snapshot(app)
    response = arrive(game, seat=4, start="number", points="50")
    assert response.status_code == 422
    assert message(response) == ("Deal 1 is the last deal: there is no deal to deal Eve in. Change "
                                 "the plan first to play on.")
    assert f'href="/g/{game.token}/plan">Change the plan</a>' in response.get_data(as_text=True)
    assert snapshot(app) == before


def test_nobody_arrives_during_a_tie_break(app: Flask, start: Start) -> None:
    """The game is decided but for the tie between its leaders: a newcomer would be ranked in it."""
    game = start(players=["Ann", "Bob", "Cy"], rules={"preset": "denexa", "max_cards": 1})
    game.bid(0, 0, 0)
    assert game.tricks(1, 0, 0).status_code == 302  # Bob and Cy tie for the lead
    before = snapshot(app)
    response = arrive(game, seat=2)
    assert response.status_code == 422
    assert message(response) == ("The game is over but for its tie-break: there is no deal to deal "
                                 "Eve in. Play again to start a new game with them.")
    assert snapshot(app) == before


def test_nobody_sits_out_or_comes_back_after_the_last_deal(app: Flask, start: Start) -> None:
    """Sitting out and coming back take effect from the next deal: during the last deal there is
    none."""
    game = start(rules={"max_cards": 2, "deal": "down"})  # deals of 2 and 1 cards
    assert game.post("/leave", player=1).status_code == 302  # Bob leaves before deal 1
    game.bid(0, 0, 0)
    assert game.post("/tricks", {"tricks-0": 2, "tricks-2": 0, "tricks-3": 0}).status_code == 302
    game.bid(0, 0, 0)  # deal 2, the last, is being played
    before = snapshot(app)
    refused = game.post("/sit-out", player=2)
    assert refused.status_code == 422
    assert message(refused) == ("Deal 2 is the last deal: there is no deal after it to sit out. "
                                "Change the plan first to play on.")
    assert f'href="/g/{game.token}/plan">Change the plan</a>' in refused.get_data(as_text=True)
    back = game.post("/come-back", player=1)
    assert back.status_code == 422
    assert message(back) == ("Deal 2 is the last deal: there is no deal after it for Bob to come "
                             "back at. Change the plan first to play on.")
    assert snapshot(app) == before


def test_a_game_of_ten_players_takes_nobody_more(app: Flask, start: Start) -> None:
    ten = [*FOUR, "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]
    game = start(players=ten, rules={"max_cards": 3})
    shown = page(game, "/arrive")
    assert "This game has 10 players already, as many as a game can have." in text(shown)
    assert 'name="name"' not in shown
    before = snapshot(app)
    response = arrive(game, name="Kim")
    assert message(response) == "This game has 10 players already, as many as a game can have."
    assert snapshot(app) == before


def test_nobody_joins_a_finished_game(app: Flask, start: Start) -> None:
    game = start(players=["Ann", "Bob"], rules={"max_cards": 1},
                 deals=[{"bids": [0, 0], "tricks": [1, 0]}])
    assert ("The game is over: nobody joins, leaves or sits out any more."
            in text(page(game, "/arrive")))
    assert f"/g/{game.token}/arrive" not in game.page()
    before = snapshot(app)
    response = arrive(game, seat=1)
    assert message(response) == "The game is over: nobody joins, leaves or sits out any more."
    assert snapshot(app) == before


#: Deal 1 of a 4-player game of 13 cards down: an arrival makes deal 2 (12 cards) too big.
THIRTEEN = {"rules": {"deal": "down", "max_cards": 13},
            "deals": [{"bids": [3, 3, 3, 3], "tricks": [3, 3, 3, 4]}]}
TOO_BIG = ("At deal 2, 5 players can't get 12 cards from one pack: play the rest with at most 10 "
           "(change the plan) or add a pack.")


def test_an_arrival_no_deal_to_come_can_hold_is_refused_with_the_way_out(
        app: Flask, start: Start) -> None:
    game = start(**THIRTEEN)
    before = snapshot(app)
    response = arrive(game, seat=4)
    assert response.status_code == 422 and message(response) == TOO_BIG
    assert snapshot(app) == before
    assert 'value="Eve"' in response.get_data(as_text=True)


def test_the_way_out_links_to_changing_the_plan_or_adding_a_pack(app: Flask, start: Start) -> None:
    game = start(**THIRTEEN)
    shown = page(game, "/arrive")  # said before a name is typed
    assert ("With one more player, at deal 2, 5 players can't get 12 cards from one pack: play the "
            "rest with at most 10 (change the plan) or add a pack. Change the plan Add a pack "
            "Name") in text(shown)
    for html in (shown, arrive(game, seat=4).get_data(as_text=True)):
        assert f'href="/g/{game.token}/plan">Change the plan</a>' in html
        assert f'href="/g/{game.token}/rules">Add a pack</a>' in html
    assert game.client.get(f"/g/{game.token}/plan").status_code == 200  # where they lead is there
    assert game.client.get(f"/g/{game.token}/rules").status_code == 200


def test_with_two_packs_the_plan_is_the_one_way_out(app: Flask, start: Start) -> None:
    game = start(players=["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"],
                 rules={"decks": 2, "deal": "down", "max_cards": 13},
                 deals=[{"bids": [1] * 8, "tricks": [2, 1, 1, 1, 1, 1, 1, 5]}])
    response = arrive(game, name="Ivy", seat=8)
    assert message(response) == ("At deal 2, 9 players can't get 12 cards from 104 cards: play the "
                                 "rest with at most 11 (change the plan).")
    shown = response.get_data(as_text=True)
    assert "Change the plan</a>" in shown and "Add a pack" not in shown


# Someone leaves, sits out, comes back -------------------------------------------------------------

def test_the_page_lists_who_may_sit_out_leave_or_come_back(start: Start) -> None:
    game = one_deal(start, absent=[{"player": 1, "from": 2}, {"player": 2, "from": 2, "to": 2}])
    shown = page(game, "/leave")
    assert "Who plays deal 2" in text(shown)
    sit_out = shown[shown.index('id="sit-out"'):shown.index('id="leave"')]
    assert re.findall(r'type="checkbox" name="player" value="(\d)"', sit_out) == ["0", "3"]
    leave = shown[shown.index('id="leave"'):shown.index('id="come-back"')]
    assert re.findall(r'type="radio" name="player" value="(\d)"', leave) == ["0", "2", "3"]
    back = text(shown[shown.index('id="come-back"'):])
    assert "Bob left after deal 1 Comes back at deal 2" in back
    assert "Cy sits deal 2 out Plays deal 2 after all" in back


def test_a_player_who_leaves_is_dealt_out_from_the_next_deal_and_still_ranked(start: Start) -> None:
    game = one_deal(start)
    assert game.post("/leave", player=1).status_code == 302
    assert said(game) == "Bob leaves after deal 1."
    exported = game.export()
    assert exported["absent"] == [{"player": 1, "from": 2}]
    assert [s["player"] for s in exported["standings"]] == ["Ann", "Bob", "Dee", "Cy"]
    shown = game.page()
    assert re.search(r'<li class="leader gone"><span role="img" aria-label="leader">★</span> Bob '
                     r'<small>\(left\)</small> <b>11</b></li>', shown)
    assert ('<span class="name">Bob</span>' in shown
            and '<span class="seat-note">left</span>' in shown)
    assert "Bob left after deal 1." in text(shown)
    assert "Bob" not in text(
        shown[shown.index('class="bidders"'):shown.index("</ol>", shown.index('class="bidders"'))])


def test_a_player_who_left_comes_back_at_the_next_deal(start: Start) -> None:
    game = one_deal(start, absent=[{"player": 1, "from": 2}])
    game.bid(0, 0, 1)  # deal 2 without Bob: Cy deals (the first dealt in after Ann), Dee bids first
    assert game.tricks(0, None, 1, 1).status_code == 302
    assert game.post("/come-back", player=1).status_code == 302
    assert said(game) == "Bob comes back at deal 3."
    assert game.export()["absent"] == [{"player": 1, "from": 2, "to": 2}]


def test_a_player_sitting_the_next_deal_out_can_play_it_after_all(start: Start) -> None:
    game = one_deal(start)
    assert game.post("/sit-out", player=2).status_code == 302
    assert said(game) == "Cy sits out deal 2."
    assert "Cy sits this deal out." in text(game.page())
    assert game.post("/come-back", player=2).status_code == 302
    assert said(game) == "Cy plays deal 2 after all."
    assert "absent" not in game.export()


def test_several_players_sit_out_at_once(start: Start) -> None:
    game = start(players=[*FOUR, "Eve"], rules={"max_cards": 3})
    assert game.post("/sit-out", {"player": [3, 1]}).status_code == 302
    assert said(game) == "Bob and Dee sit out deal 1."
    assert game.export()["absent"] == [{"player": 1, "from": 1, "to": 1},
                                       {"player": 3, "from": 1, "to": 1}]
    assert "Bob and Dee sit this deal out." in text(game.page())


def test_a_departure_a_house_formula_cant_score_is_refused_before_the_game_gets_stuck(
        app: Flask, start: Start) -> None:
    """RULES.md §8: the formula is worked out for every deal to come, with its players (§7); the
    departure is refused, not the first bid of the next deal."""
    game = start(rules={"max_cards": 3, "scoring": "custom",
                        "made": "10 / (players - 3)", "missed": "0"},
                 deals=[DEAL_1])
    before = snapshot(app)
    response = game.post("/leave", player=3)
    assert response.status_code == 422
    assert message(response) == ("Deal 2: The made formula '10 / (players - 3)' divides by zero "
                                 "for bid 0, tricks 0, cards 2.")
    assert snapshot(app) == before
    game.bid(0)  # the game goes on with everyone


BAD_CHANGES = [
    pytest.param("/leave", {"player": 1}, [{"player": 1, "from": 2}], "Bob has left already.",
                 id="left already"),
    pytest.param("/leave", {"player": 1}, [{"player": 2, "from": 2}, {"player": 3, "from": 2}],
                 "Deal 2: at least two players must be dealt in.", id="fewer than two left"),
    pytest.param("/leave", {}, [], "Player: choose who it is.", id="nobody chosen to leave"),
    pytest.param("/leave", {"player": 7}, [], "That player is not in the game.",
                 id="a player not in the game"),
    pytest.param("/leave", {"player": "١"}, [],
                 "Player must be a whole number from 0 to 9, not '١'.",
                 id="another script's digit"),
    pytest.param("/come-back", {"player": 1}, [], "Bob is at the table already.",
                 id="back, but never away"),
    pytest.param("/sit-out", {}, [], "Choose who sits the next deal out.",
                 id="nobody chosen to sit out"),
    pytest.param("/sit-out", {"player": [0, 1, 2]}, [],
                 "Deal 2: at least two players must be dealt in.", id="all but one sit out"),
    pytest.param("/sit-out", {"player": 1}, [{"player": 1, "from": 2}],
                 "Bob is not at the table for the next deal anyway.",
                 id="sitting out after leaving"),
    pytest.param("/sit-out", {"player": ["0", "x"]}, [],
                 "A player must be a whole number from 0 to 9, not 'x'.",
                 id="a player not a number"),
    pytest.param("/sit-out", {"player": list(map(str, range(11)))}, [],
                 "At most 10 players can be chosen.", id="more players than a table"),
]


@pytest.mark.parametrize(("path", "fields", "absent", "words"), BAD_CHANGES)
def test_a_refused_change_at_the_table_says_why_and_stores_nothing(
        app: Flask, start: Start, path: str, fields: dict[str, Any], absent: list[Any],
        words: str) -> None:
    game = one_deal(start, absent=absent)
    before = snapshot(app)
    response = game.post(path, fields)
    assert response.status_code == 422
    assert message(response) == words
    assert snapshot(app) == before
    assert "Who plays deal 2" in text(response.get_data(as_text=True))


def test_a_sit_out_of_deal_1_that_leaves_deal_2_too_big_is_refused_with_the_way_out(
        app: Flask, start: Start) -> None:
    """RULES.md §7: the pattern is sized for the players at deal 1: five of six make it 10 cards
    down, and deal 2's 9 cards can't be dealt to the six again. Refused, as an arrival is, with the
    way out, not found at deal 2's first bid."""
    game = start(players=[*FOUR, "Eve", "Fay"])
    before = snapshot(app)
    response = game.post("/sit-out", player=1)
    assert response.status_code == 422
    assert message(response) == ("At deal 2, 6 players can't get 9 cards from one pack: play the "
                                 "rest with at most 8 (change the plan) or add a pack.")
    assert "Change the plan</a>" in response.get_data(as_text=True)
    assert snapshot(app) == before
    # gone for good: five are dealt 10 cards down
    assert game.post("/leave", player=1).status_code == 302


def test_a_refused_sit_out_keeps_the_players_ticked(start: Start) -> None:
    game = one_deal(start)
    shown = game.post("/sit-out", {"player": [0, 1, 2]}).get_data(as_text=True)
    assert re.findall(r'name="player" value="(\d)" checked', shown) == ["0", "1", "2"]


def test_a_return_no_deal_to_come_can_hold_is_refused_with_the_way_out(
        app: Flask, start: Start) -> None:
    five = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]  # Fay arrived at deal 2 as Bob left
    game = start(players=five, rules={"deal": "down"},
                 absent=[{"player": 5, "from": 1, "to": 1}, {"player": 1, "from": 2}],
                 deals=[{"bids": [3, 2, 2, 2, 2, None], "tricks": [2, 2, 2, 2, 2, None]}])
    before = snapshot(app)
    response = game.post("/come-back", player=1)
    assert message(response) == ("At deal 2, 6 players can't get 9 cards from one pack: play the "
                                 "rest with at most 8 (change the plan) or add a pack.")
    assert snapshot(app) == before
    assert "Change the plan</a>" in response.get_data(as_text=True)


@pytest.mark.parametrize("path", ["/leave", "/sit-out", "/come-back"])
def test_nobody_leaves_or_comes_back_to_a_finished_game(app: Flask, start: Start,
                                                        path: str) -> None:
    game = start(players=["Ann", "Bob", "Cy"], rules={"max_cards": 1},
                 deals=[{"bids": [0, 0, 0], "tricks": [1, 0, 0]}])
    assert "The game is over" in text(page(game, "/leave"))
    before = snapshot(app)
    response = game.post(path, player=1)
    assert message(response) == "The game is over: nobody joins, leaves or sits out any more."
    assert snapshot(app) == before


def test_an_ended_game_is_resumed_before_anyone_leaves(start: Start) -> None:
    game = one_deal(start, ended=True)
    response = game.post("/leave", player=1)
    assert message(response) == "The game was ended: resume it first to change who plays."


@pytest.mark.parametrize(("path", "fields"),
                         [("/arrive", {"name": "Eve", "seat": 1, "start": "zero"}),
                          ("/leave", {"player": 1}), ("/sit-out", {"player": 1}),
                          ("/come-back", {"player": 1})])
def test_a_change_from_an_old_page_changes_nothing(app: Flask, start: Start, path: str,
                                                   fields: dict[str, Any]) -> None:
    game = one_deal(start, absent=[{"player": 1, "from": 2}] if path == "/come-back" else [])
    version = game.version()
    game.bid(1)
    before = snapshot(app)
    response = game.post(path, fields, version=version)
    assert response.status_code == 409 and snapshot(app) == before


@pytest.mark.parametrize("path", ["/arrive", "/leave", "/sit-out", "/come-back"])
def test_the_read_only_link_changes_nobody(app: Flask, start: Start, path: str) -> None:
    game = one_deal(start)
    before = snapshot(app)
    form = {"csrf_token": csrf_from(game.page()), "version": game.version(), "player": 1,
            "name": "Eve", "seat": 1}
    response = game.client.post(f"/g/{game.view_token}{path}", data=form)
    assert response.status_code == 403 and snapshot(app) == before
    assert game.client.get(f"/g/{game.view_token}/arrive").status_code == 403
