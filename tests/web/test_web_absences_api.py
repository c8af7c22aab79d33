"""Games with absences (RULES.md §7) through the JSON API, as a program sends them: each export
against the independent reference of tests/rules/reference.py, and bad files refused with the
deal named and nothing stored."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from webhelpers import snapshot

# The rules tests' independent reference of §7 and their strategies, shared with these.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "rules"))
from reference import dealers
from strategies import NAMES, games

PRESETS = ["oh-hell", "blackout", "hassenpfeffer", "cypriot", "get-fred", "oy-vey", "kachuful",
           "boerenbridge", "elevator", "up-and-down-the-river", "nomination-whist", "trickster",
           "playohshit", "cardgames-io"]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=games())
def test_games_with_absences_through_the_api_export_as_section_7_says(app: Flask,
                                                                      case: dict[str, Any]) -> None:
    response = app.test_client().post("/api/games", json=case["document"])
    assert response.status_code == 201, response.get_json()
    exported, reference = response.get_json(), case["reference"]
    for deal, expected in zip(exported["deals"], reference.deals, strict=True):
        assert (deal["dealer"], deal["eldest"], deal["present"]) == (
            expected.dealer, expected.eldest, expected.present)
        assert (deal["points"], deal["totals"]) == (expected.points, expected.totals)
    who = dealers(case["players"], case["first_dealer"], case["absences"], len(case["sizes"]))
    assert [d["dealer"] for d in exported["schedule"]] == who[:len(exported["schedule"])]
    if exported["finished"]:
        assert exported["winners"] == [NAMES[seat] for seat in reference.winners()]
        nets = reference.pairwise_nets(Fraction(1))
        assert exported["settlement"]["net"] == {NAMES[s]: f"{int(net)}.00"
                                                 for s, net in enumerate(nets)}


@pytest.mark.parametrize("preset", PRESETS)
def test_a_sit_out_under_every_preset_deals_the_others_and_keeps_the_absent_total(
        app: Flask, preset: str) -> None:
    """Under every preset, a player who sits out the deal they would deal is skipped once: the next
    player present deals it and the turn moves on from there; in a deal they sit out they score
    null and keep their total."""
    client = app.test_client()
    document = {"players": NAMES[:5], "rules": {"preset": preset},
                "absent": [{"player": 2, "from": 3, "to": 3}]}
    schedule = client.post("/api/games", json=document).get_json()["schedule"]
    assert [deal["dealer"] for deal in schedule[:5]] == [0, 1, 3, 4, 0]  # Cy's turn went to Dee
    first, second = schedule[0]["cards"], schedule[1]["cards"]
    deals = [{"bids": [0] * 5, "tricks": [first, 0, 0, 0, 0]},
             {"bids": [0] * 5, "tricks": [second, 0, 0, 0, 0]}, {"bids": [0, 0, None, 0, 0]}]
    played = client.post("/api/games", json={**document, "deals": deals})
    assert played.status_code == 201, played.get_json()
    third = played.get_json()["deals"][2]
    assert third["present"] == [0, 1, 3, 4] and third["eldest"] == 4 and third["bids"][2] is None


@pytest.mark.parametrize(("absent", "deals", "words"), [
    ([{"player": 1, "from": 1}], [{"bids": [None, 1, None, None]}],
     "deal 1: Bob is not dealt in this deal"),
    ([{"player": 2, "from": 2, "to": 4}, {"player": 2, "from": 3}], [],
     "deal 3: Cy is away twice over"),
    ([{"player": 0, "from": 1, "to": 1}], [], "deal 1: Ann deals first"),
    ([{"player": 1, "from": 2}, {"player": 2, "from": 2}, {"player": 3, "from": 2}], [],
     "deal 2: at least two players must be dealt in"),
    ([{"player": 3, "from": 1}], [{"bids": [1, 1, 1, None]}],
     "deal 1: Ann deals and can't bid 1: the bids would add up to the 3 tricks (hook)"),
])
def test_bad_absences_through_the_api_are_refused_and_nothing_is_stored(
        app: Flask, absent: list[dict[str, int]], deals: list[dict[str, Any]], words: str) -> None:
    document = {"players": NAMES[:4], "rules": {"deal": "fixed", "max_cards": 3}, "absent": absent,
                "deals": deals}
    response = app.test_client().post("/api/games", json=document)
    assert response.status_code == 422 and words in response.get_json()["error"]
    assert snapshot(app) == []


def test_a_deal_too_big_for_the_players_present_is_refused_with_the_way_out(app: Flask) -> None:
    document = {"players": NAMES[:6], "rules": {"deal": "down", "max_cards": 10},
                "absent": [{"player": 4, "from": 1, "to": 1}, {"player": 5, "from": 1, "to": 1}],
                "deals": [{"bids": [1, 1, 1, 1, None, None], "tricks": [10, 0, 0, 0, None, None]},
                          {"bids": [1, 1, 1, 1, 1, 1]}]}
    response = app.test_client().post("/api/games", json=document)
    assert response.status_code == 422
    assert response.get_json()["error"] == (
        "deal 2: 6 players can't get 9 cards from one pack: play the rest with "
        "at most 8 (change the plan) or add a pack")
