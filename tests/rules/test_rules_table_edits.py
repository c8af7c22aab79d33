"""The changes at the table as edits of the game file (scorekeeper/changes/edits.py, RULES.md §7): a
late arrival, a player leaving or sitting out, a new plan, new rules, play again. Each keeps the
deals already played as they were scored, unless the table asks for the whole game to be scored
again."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from strategies import NAMES, games

from scorekeeper.changes import edits
from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.gamefile import GameFileError, export, parse

SETTINGS = settings(max_examples=150, deadline=None)


@SETTINGS
@given(case=games(), seat=st.integers(0, 7), start=st.integers(-50, 50))
def test_a_late_arrival_keeps_every_earlier_deals_points_and_totals(case: dict[str, Any], seat: int,
                                                                     start: int) -> None:
    """§7: adding a player mid-game keeps every earlier deal's points and totals (the newcomer's
    seat holds null in them), and they join at the next deal with their starting score."""
    document = case["document"]
    assume(len(document["players"]) < len(NAMES))
    before = export(parse(document))
    seat %= len(document["players"]) + 1
    changed = copy.deepcopy(document)
    edits.arrive(changed, "Newcomer", seat, start)
    after = export(parse(changed))
    for old, new in zip(before["deals"], after["deals"], strict=True):
        assert new["points"][:seat] + new["points"][seat + 1:] == old["points"]
        assert new["points"][seat] is None and seat not in new["present"]
        assert new["dealer"] == old["dealer"] + (old["dealer"] >= seat)  # the same person deals
        assert new["totals"][:seat] + new["totals"][seat + 1:] == old["totals"]
    if before["deals"] and not after["finished"]:
        assert after["deals"][-1]["totals"][seat] == start
        upcoming = after["schedule"][len(after["deals"])]
        assert upcoming["number"] == len(after["deals"]) + 1


@SETTINGS
@given(case=games(), data=st.data())
def test_a_rules_change_taken_back_restores_the_game_exactly(case: dict[str, Any],
                                                             data: st.DataObject) -> None:
    """§7: a rules change the table takes back gives back the game exactly as it was."""
    document = case["document"]
    game = parse(document)
    change = data.draw(st.sampled_from([{"scoring": "exact"}, {"scoring": "binary", "zero_bid": 5},
                                        {"bidding": "free"},
                                        {"deal": "custom", "sequence": "1-1-1-1-1-1-1-1-1-1-1-1-1"},
                                        {"deal": "down", "max_cards": 3}]))
    changed = copy.deepcopy(document)
    try:
        edits.set_rules(changed, game, {**document["rules"], **change}, game.rules.players)
        new = parse(changed)
    except RulesError:
        return  # refused: these rules can't be played, or a deal entered no longer replays
    back = copy.deepcopy(changed)
    edits.set_rules(back, new, document["rules"], new.rules.players)
    assert export(parse(back)) == export(game)


@SETTINGS
@given(case=games(), data=st.data())
def test_a_new_plan_keeps_the_deals_played_and_deals_what_it_lists(case: dict[str, Any],
                                                                   data: st.DataObject) -> None:
    """§7 changing the plan: written as custom, the hand sizes played so far, then the new plan."""
    document = case["document"]
    game = parse(document)
    assume(not game.game.finished)
    upcoming = data.draw(st.lists(st.tuples(st.integers(1, 3), st.booleans()), max_size=5))
    changed = copy.deepcopy(document)
    try:
        edits.set_plan(changed, game, upcoming)
        new = export(parse(changed))
    except edits.EditError:
        assert not upcoming and not game.game.deals  # a game needs at least one deal
        return
    except GameFileError as exc:
        assert "two players" in str(exc)
        return
    before = export(game)
    assert new["deals"] == before["deals"]
    still = [(d["cards"], not d["trump"]) for d in new["schedule"][len(new["deals"]):]]
    assert [cards for cards, _ in still] == [cards for cards, _ in upcoming]
    assert all(no_trump for (_, no_trump), (_, asked) in zip(still, upcoming) if asked)


@pytest.mark.parametrize("upcoming", [[(1, False)], [(2, False)], []])
def test_a_new_plan_while_breaking_a_tie_keeps_the_tie_break_deals_played(
        upcoming: list[Any]) -> None:
    """§7: a new plan keeps the hand sizes played: the one-card deals already played to break a tie
    (§5) too, so that they replay as they were scored and the new plan's deals come after them."""
    document = {"players": NAMES[:4],
                "rules": {"deal": "down", "max_cards": 1, "tie": "one-card-hand"},
                "deals": [{"bids": [0, 0, 0, 0], "tricks": [1, 0, 0, 0]},
                          {"bids": [0, 0, 0, 0], "tricks": [0, 1, 0, 0]}]}
    game = parse(document)
    assert game.game.tiebreak and game.game.deals[1].tiebreak
    edits.set_plan(document, game, upcoming)
    new = export(parse(document))
    assert [deal["totals"] for deal in new["deals"]] == [deal["totals"]
                                                         for deal in export(game)["deals"]]
    to_come = new["schedule"][2:]
    if upcoming:  # the plan's deals, not a tie-break
        assert [deal["cards"] for deal in to_come] == [cards for cards, _ in upcoming]
        assert not parse(document).game.tiebreak
    else:  # still tied: the tie-break goes on
        assert [deal["cards"] for deal in to_come] == [1] and parse(document).game.tiebreak


def test_a_new_plan_while_a_tie_break_deal_is_bid_keeps_that_deal() -> None:
    document = {"players": NAMES[:4],
                "rules": {"deal": "down", "max_cards": 1, "tie": "one-card-hand"},
                "deals": [{"bids": [0, 0, 0, 0], "tricks": [1, 0, 0, 0]},
                          {"bids": [None, None, 0, None]}]}
    game = parse(document)
    assert game.game.current is not None and game.game.current.tiebreak
    edits.set_plan(document, game, [(2, False)])
    new = export(parse(document))
    assert new["deals"][1]["bids"] == [None, None, 0, None]
    assert [deal["cards"] for deal in new["schedule"]] == [1, 1, 2]


def _four(**extra: Any) -> dict[str, Any]:
    return {"players": NAMES[:4],
            "rules": {"deal": "fixed", "max_cards": 1, "bidding": "free", "deals": 9},
            "deals": [{"bids": [0, 0, 0, 0], "tricks": [1, 0, 0, 0]}] * 2, **extra}


def test_leaving_then_coming_back() -> None:
    document = _four()
    edits.leave(document, 2)
    assert document["absent"] == [{"player": 2, "from": 3}]
    schedule = export(parse(document))["schedule"]
    assert all(deal["dealer"] != 2 for deal in schedule[2:])  # a player who has left stays out
    with pytest.raises(edits.EditError, match="Cy has left already"):
        edits.leave(document, 2)
    document["deals"].append({"bids": [0, 0, None, 0], "tricks": [1, 0, None, 0]})
    edits.come_back(document, 2)
    assert document["absent"] == [{"player": 2, "from": 3, "to": 3}]
    with pytest.raises(edits.EditError, match="Cy is at the table already"):
        edits.come_back(document, 2)


def test_sitting_out_the_next_deal() -> None:
    document = _four()
    edits.sit_out(document, [1, 3])
    game = parse(document)
    assert game.game.next_deal is not None and game.game.next_deal.present == (0, 2)
    with pytest.raises(edits.EditError, match="Bob is not at the table for the next deal anyway"):
        edits.sit_out(document, [1])


def test_a_sit_out_becomes_a_departure_when_the_player_leaves() -> None:
    document = _four()
    edits.sit_out(document, [1])
    edits.leave(document, 1)
    assert document["absent"] == [{"player": 1, "from": 3}]


def test_play_again_keeps_those_at_the_table_and_moves_the_deal_on() -> None:
    """§7 play again: the same players (those present at the end, in the same seats), rules and
    stakes; the deal moves on to the player after the last dealer."""
    document = _four(stakes={"per_point": "0.10"}, title="Friday")
    document["rules"] = {**document["rules"], "deals": 3}
    document["absent"] = [{"player": 0, "from": 3}]
    document["deals"].append({"bids": [None, 0, 0, 0], "tricks": [None, 1, 0, 0]})
    game = parse(document)
    assert game.game.finished and game.game.deals[-1].deal.dealer == 2  # Cy dealt the last deal
    again = edits.play_again(game)
    assert again == {"players": ["Bob", "Cy", "Dee"], "first_dealer": 2, "rules": document["rules"],
                     "title": "Friday", "stakes": {"per_point": "0.10"}}
    assert parse(again).game.next_deal is not None
