"""Changes at the table (RULES.md §7): late arrivals, players who leave, sit-outs. Checked against
the independent reference of tests/rules/reference.py, with Hypothesis, and against the examples
and refusals §7 names."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import dealers
from strategies import NAMES, games

from scorekeeper.rules.gamefile import GameFileError, export, parse


@settings(max_examples=300, deadline=None)
@given(case=games())
def test_a_game_with_absences_replays_as_section_7_says(case: dict[str, Any]) -> None:
    """Dealer, eldest hand, the players present, points (null for those away), totals, winners and
    the settlement, deal by deal, as the independent reference replays them."""
    exported = export(parse(case["document"]))
    reference = case["reference"]
    for deal, expected in zip(exported["deals"], reference.deals, strict=True):
        assert (deal["dealer"], deal["eldest"], deal["present"]) == (
            expected.dealer, expected.eldest, expected.present)
        assert deal["points"] == expected.points and deal["totals"] == expected.totals
        assert deal["made"] == [None if p is None else deal["bids"][s] == deal["tricks"][s]
                                for s, p in enumerate(expected.points)]
    who = dealers(case["players"], case["first_dealer"], case["absences"], len(case["sizes"]))
    for upcoming in exported["schedule"][len(reference.deals):]:
        # the deals to come follow the absences
        assert upcoming["dealer"] == who[upcoming["number"] - 1]
    if exported["finished"]:
        assert exported["winners"] == [NAMES[seat] for seat in reference.winners()]
        nets = reference.pairwise_nets(Fraction(1))
        assert exported["settlement"]["net"] == {NAMES[s]: f"{int(net)}.00"
                                                 for s, net in enumerate(nets)}


@settings(max_examples=200, deadline=None)
@given(case=games(stretches=0))
def test_without_absences_a_game_replays_exactly_as_before(case: dict[str, Any]) -> None:
    """§7: old game files keep their meaning exactly: an empty ``absent`` is no ``absent`` at all,
    and the dealer of deal k is (first dealer + k) mod P."""
    assert not case["absences"]
    document = {**case["document"], "absent": []}
    without = {key: value for key, value in document.items() if key != "absent"}
    assert export(parse(document)) == export(parse(without))
    players, first = case["players"], case["first_dealer"]
    assert [d["dealer"] for d in export(parse(without))["schedule"]] == [
        (first + k) % players for k in range(len(case["sizes"]))]


@settings(max_examples=200, deadline=None)
@given(players=st.integers(3, 7), first=st.integers(0, 6), deals=st.integers(2, 12), data=st.data())
def test_a_one_deal_sit_out_skips_that_player_in_the_rotation_once(players: int, first: int,
                                                                    deals: int,
                                                                    data: st.DataObject) -> None:
    first %= players
    seat = data.draw(st.integers(0, players - 1))
    deal = data.draw(st.integers(2 if seat == first else 1, deals))
    rules = {"deal": "fixed", "max_cards": 1, "bidding": "free"}
    base = {"players": NAMES[:players], "first_dealer": first, "rules": rules}
    before = [d["dealer"] for d in export(parse(base))["schedule"][:deals + 1]]
    rules_for_count = {**rules, "deals": deals + 1}
    before = [d["dealer"] for d in export(parse({**base, "rules": rules_for_count}))["schedule"]]
    after = [d["dealer"] for d in export(parse({
        **base, "rules": rules_for_count,
        "absent": [{"player": seat, "from": deal, "to": deal}]}))["schedule"]]
    index = deal - 1
    assert after[:index] == before[:index]
    # the deal was theirs: the next player deals it, and everyone moves up
    if before[index] == seat:
        assert after[index:] == before[index + 1:] + [(before[-1] + 1) % players]
    else:
        assert after == before


def test_the_example_of_section_7() -> None:
    """Ann, Bob, Cy, Dee; Ann deals deal 4; Bob sits out deal 5: Cy deals deal 5 and Dee bids
    first; Dee deals deal 6."""
    document = {"players": NAMES[:4], "first_dealer": 1,
                "rules": {"deal": "fixed", "max_cards": 1, "deals": 8, "bidding": "free"},
                "absent": [{"player": 1, "from": 5, "to": 5}]}
    schedule = export(parse(document))["schedule"]
    assert schedule[3]["dealer"] == 0
    assert (schedule[4]["dealer"], schedule[5]["dealer"]) == (2, 3)
    game = parse({**document, "deals": [{"bids": [0, 0, 1, 0], "tricks": [1, 0, 0, 0]}] * 4
                                        + [{"bids": [0, None, 0, 0]}]})
    assert game.game.deals[4].deal.eldest == 3
    assert game.game.deals[4].deal.bidding_order(4) == [3, 0, 2]


FOUR = {"players": NAMES[:4], "rules": {"deal": "fixed", "max_cards": 3}}


@pytest.mark.parametrize(("document", "words"), [
    pytest.param({**FOUR, "absent": [{"player": 1, "from": 1}],
                  "deals": [{"bids": [None, 1, None, None]}]},
                 "deal 1: Bob is not dealt in this deal, so has no bid",
                 id="a bid from an absent player"),
    pytest.param({**FOUR, "absent": [{"player": 1, "from": 1}],
                  "deals": [{"bids": [1, None, 1, 0], "tricks": [1, 1, 1, 0]}]},
                 "deal 1: Bob is not dealt in this deal, so has no tricks",
                 id="tricks of an absent player"),
    pytest.param({**FOUR, "absent": [{"player": 2, "from": 2, "to": 4}, {"player": 2, "from": 4}]},
                 "deal 4: Cy is away twice over", id="overlapping absences"),
    pytest.param({**FOUR, "absent": [{"player": 2, "from": 2}, {"player": 2, "from": 2, "to": 3}]},
                 "deal 2: Cy is away twice over", id="two absences from the same deal"),
    pytest.param({**FOUR, "absent": [{"player": 0, "from": 1, "to": 2}]},
                 "deal 1: Ann deals first, so must be dealt in at deal 1",
                 id="a first dealer absent from deal 1"),
    pytest.param({**FOUR, "absent": [{"player": 1, "from": 3}, {"player": 2, "from": 3},
                                     {"player": 3, "from": 5}]},
                 "deal 5: at least two players must be dealt in",
                 id="fewer than two players present"),
    pytest.param({"players": NAMES[:6], "rules": {"deal": "down", "max_cards": 10},
                  "absent": [{"player": 4, "from": 1, "to": 1}, {"player": 5, "from": 1, "to": 1}],
                  "deals": [{"bids": [1, 1, 1, 1, None, None], "tricks": [10, 0, 0, 0, None, None]},
                            {"bids": [1, 1, 1, 1, 1, 1]}]},
                 "deal 2: 6 players can't get 9 cards from one pack: play the rest with at most 8 "
                 "(change the plan) or add a pack", id="a deal too big for the players present"),
    pytest.param({**FOUR, "absent": [{"player": 3, "from": 1}],
                  "deals": [{"bids": [1, 1, 1, None]}]},
                 "deal 1: Ann deals and can't bid 1: the bids would add up to the 3 tricks (hook)",
                 id="the hook broken among the players present"),
    pytest.param({**FOUR, "absent": [{"player": 7, "from": 1}]},
                 "An absent player must be a whole number from 0 to 3", id="an unknown player"),
    pytest.param({**FOUR, "absent": [{"player": 1, "from": 3, "to": 2}]},
                 "The last deal Bob is away must be", id="a range that ends before it begins"),
    pytest.param({**FOUR, "absent": [{"player": 1, "from": 1.0}]},
                 "The first deal Bob is away must be a whole number",
                 id="a deal number as a float"),
])
def test_bad_absences_are_refused_naming_the_deal(document: dict[str, Any], words: str) -> None:
    with pytest.raises(GameFileError) as refused:
        parse(document)
    assert words in str(refused.value)


def test_the_pattern_is_sized_for_the_players_present_at_deal_1() -> None:
    """§7: default M for the players present at deal 1: 6 at the table, one arriving later: 8 cards
    (six players), not 7 (seven players)."""
    document = {"players": NAMES[:7], "absent": [{"player": 6, "from": 1, "to": 4}]}
    assert export(parse(document))["schedule"][0]["cards"] == 8


def test_no_card_is_left_counts_the_players_present() -> None:
    """§7: P_k · n = N means no trump with a turned-up trump: 13 cards to the
    four present of five."""
    document = {"players": NAMES[:5], "rules": {"deal": "custom", "sequence": "13-10"},
                "absent": [{"player": 4, "from": 1, "to": 1}]}
    schedule = export(parse(document))["schedule"]
    assert schedule[0]["trump"] is False


def test_those_away_score_nothing_and_keep_their_total() -> None:
    document = {"players": NAMES[:3], "rules": {"deal": "fixed", "max_cards": 1, "bidding": "free"},
                "absent": [{"player": 2, "from": 2, "to": 2}],
                "deals": [{"bids": [1, 0, 0], "tricks": [1, 0, 0]},
                          {"bids": [0, 1, None], "tricks": [0, 1, None]}]}
    deal = export(parse(document))["deals"][1]
    assert deal["points"] == [10, 11, None] and deal["made"] == [True, True, None]
    assert deal["totals"] == [21, 21, 10] and deal["present"] == [0, 1]


@pytest.mark.parametrize(("made", "absent", "deal_1"), [
    pytest.param("10 / (players - 3)", [{"player": 3, "from": 2}],
                 {"bids": [1, 0, 1, 0], "tricks": [1, 0, 1, 1]}, id="a player leaves"),
    pytest.param("10 / (players - 3)", [{"player": 3, "from": 2, "to": 2}],
                 {"bids": [1, 0, 1, 0], "tricks": [1, 0, 1, 1]}, id="a player sits out"),
    pytest.param("10 / (players - 4)", [{"player": 3, "from": 1, "to": 1}],
                 {"bids": [1, 0, 1, None], "tricks": [1, 1, 1, None]}, id="a late arrival"),
])
def test_a_house_formula_is_worked_out_for_the_players_of_every_deal_to_come(
        made: str, absent: list[Any], deal_1: dict[str, Any]) -> None:
    """§8: a formula is checked for every deal of the schedule, so that a game never gets stuck on
    it at a later deal; §7: its ``players`` are those dealt in. A change of who plays that makes
    the formula divide by zero at deal 2 is refused, naming that deal."""
    document = {"players": NAMES[:4], "absent": absent, "deals": [deal_1],
                "rules": {"max_cards": 3, "scoring": "custom", "made": made, "missed": "0"}}
    with pytest.raises(GameFileError) as refused:
        parse(document)
    assert str(refused.value).startswith(f"deal 2: The made formula '{made}' divides by zero")
