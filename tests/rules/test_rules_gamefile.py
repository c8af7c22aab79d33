"""The game file format oh-hell-scorekeeper/1 (GAME-FILE.md): parse, refuse, export."""

from __future__ import annotations

import copy
import json
import unicodedata
from typing import Any

import pytest

from scorekeeper.rules.characters import hidden_character
from scorekeeper.rules.gamefile import FORMAT, GameFileError, export, parse

EXAMPLE: dict[str, Any] = {
    "format": "oh-hell-scorekeeper/1",
    "title": "Friday at Ann's",
    "players": ["Ann", "Bob", "Cy", "Dee"],
    "first_dealer": 0,
    "rules": {"preset": "oh-hell", "scoring": "exact", "max_cards": 7},
    "stakes": {"per_point": "0.05", "currency": "EUR", "settlement": "pairwise"},
    "deals": [
        {"trump": "S", "bids": [2, 1, 0, 3], "tricks": [2, 2, 0, 3]},
        {"trump": "H", "bids": [1, 1, 2, 1]},
    ],
}


def game(**changes: Any) -> dict[str, Any]:
    """The GAME-FILE.md example with some fields replaced (None removes a field)."""
    data = copy.deepcopy(EXAMPLE)
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return data


def roundtrip(data: dict[str, Any]) -> dict[str, Any]:
    first = export(parse(data))
    again = export(parse(json.loads(json.dumps(first))))
    assert again == first
    assert json.dumps(again, sort_keys=True) == json.dumps(first, sort_keys=True)
    return first


def test_export_of_the_game_file_example() -> None:
    """GAME-FILE.md export: the input repeated, plus numbers, cards, dealer, eldest, bid_total,
    announce, made, points and totals, schedule, finished, standings, winners, settlement; and the
    players dealt in (present: everybody here)."""
    doc = export(parse(EXAMPLE))
    assert doc["format"] == FORMAT
    assert doc["title"] == "Friday at Ann's"
    assert doc["players"] == ["Ann", "Bob", "Cy", "Dee"]
    assert doc["rules"] == EXAMPLE["rules"]
    assert doc["stakes"] == EXAMPLE["stakes"]
    assert doc["deals"][0] == {
        "number": 1, "cards": 7, "dealer": 0, "eldest": 1, "present": [0, 1, 2, 3], "trump": "S",
        "bids": [2, 1, 0, 3], "tricks": [2, 2, 0, 3], "bid_total": 6, "announce": "under by 1",
        "made": [True, False, True, True], "points": [12, 0, 10, 13], "totals": [12, 0, 10, 13],
    }
    second = doc["deals"][1]
    assert (second["number"], second["cards"], second["dealer"], second["eldest"]) == (2, 6, 1, 2)
    assert second["bids"] == [1, 1, 2, 1] and "tricks" not in second and "points" not in second
    assert second["announce"] == "under by 1"
    assert [d["cards"] for d in doc["schedule"]] == [7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7]
    assert doc["schedule"][0] == {"number": 1, "cards": 7, "dealer": 0, "trump": True}
    assert doc["finished"] is False
    assert doc["standings"] == [
        {"player": "Dee", "total": 13, "rank": 1}, {"player": "Ann", "total": 12, "rank": 2},
        {"player": "Cy", "total": 10, "rank": 3}, {"player": "Bob", "total": 0, "rank": 4},
    ]
    assert doc["winners"] == []
    assert doc["settlement"] is None


def test_export_parse_export_is_identical() -> None:
    """GAME-FILE.md: an export imported again exports identically (the computed part recomputed)."""
    roundtrip(EXAMPLE)


def test_defaults_preset_oh_hell_first_dealer_0_no_deals() -> None:
    """GAME-FILE.md: preset defaults to oh-hell, first_dealer to 0; a game may have no deals yet."""
    parsed = parse({"players": ["Ann", "Bob", "Cy"]})
    assert parsed.rules.preset == "oh-hell" and parsed.first_dealer == 0
    doc = export(parsed)
    assert doc["deals"] == [] and len(doc["schedule"]) == 19
    roundtrip({"players": ["Ann", "Bob", "Cy"]})


def test_a_finished_game_with_stakes_exports_winners_and_settlement() -> None:
    """GAME-FILE.md settlement: currency, nets as decimal strings adding up to "0.00", payments."""
    data = {
        "players": ["Ann", "Bob", "Cy"],
        "rules": {"max_cards": 1},
        "stakes": {"per_point": "0.05", "currency": "EUR"},
        "deals": [{"bids": [0, 1, 1], "tricks": [0, 1, 0]}],
    }
    doc = roundtrip(data)
    # 1 card, Ann deals: Ann 0/0 → 10, Bob 1/1 → 11, Cy 1/0 → 0
    assert doc["finished"] is True and doc["winners"] == ["Bob"]
    assert doc["settlement"]["currency"] == "EUR"
    # pairwise: 0.05 · (3 s_i − 21)
    assert doc["settlement"]["net"] == {"Ann": "0.45", "Bob": "0.60", "Cy": "-1.05"}
    assert sum(float(v) for v in doc["settlement"]["net"].values()) == 0
    pays = doc["settlement"]["payments"]
    assert len(pays) <= 2
    assert sorted((p["from"], p["to"], p["amount"]) for p in pays) == [
        ("Cy", "Ann", "0.45"), ("Cy", "Bob", "0.60")]


def test_halves_are_exported_as_numbers_with_trick_scoring() -> None:
    """GAME-FILE.md: points/totals are numbers; halves are possible with trick scoring."""
    data = {"players": ["Ann", "Bob"], "rules": {"scoring": "trick", "max_cards": 1},
            "deals": [{"bids": [0, 0], "tricks": [0, 1]}]}
    doc = roundtrip(data)
    assert doc["deals"][0]["points"] == [0.5, -1]


def test_scratch_scoring_reports_scratches_as_points_and_totals() -> None:
    """GAME-FILE.md: scratch scoring reports scratches as points/totals."""
    data = {"players": ["Ann", "Bob"], "rules": {"scoring": "scratch", "max_cards": 2},
            "deals": [{"bids": [0, 1], "tricks": [1, 1]}]}
    doc = roundtrip(data)
    assert doc["deals"][0]["points"] == [1, 0]
    assert doc["standings"][0] == {"player": "Bob", "total": 0, "rank": 1}


def test_adjustments_and_ended_are_kept_and_exported() -> None:
    """GAME-FILE.md adjustments (1-based deal, player index) and ended: true."""
    data = game(adjustments=[{"deal": 1, "player": 1, "points": -10, "reason": "revoke"}],
                deals=EXAMPLE["deals"][:1], ended=True)
    doc = roundtrip(data)
    assert doc["adjustments"] == data["adjustments"]
    assert doc["ended"] is True and doc["finished"] is True
    assert doc["deals"][0]["points"] == [12, 0, 10, 13]
    assert doc["deals"][0]["totals"] == [12, -10, 10, 13]
    assert doc["winners"] == ["Dee"]
    assert doc["settlement"] is not None


def test_partial_bids_in_bidding_order_with_nulls() -> None:
    """GAME-FILE.md: a prefix of bids in bidding order, null for players who have not bid yet."""
    data = game(deals=[EXAMPLE["deals"][0], {"bids": [None, None, 2, 1]}])  # deal 2: Cy, Dee first
    doc = roundtrip(data)
    assert doc["deals"][1]["bids"] == [None, None, 2, 1]
    assert doc["deals"][1]["bid_total"] == 3


def test_manual_pattern_needs_cards_and_exports_them() -> None:
    """GAME-FILE.md: cards is required for the manual pattern."""
    data = {"players": ["Ann", "Bob"], "rules": {"deal": "manual"},
            "deals": [{"cards": 5, "bids": [2, 2], "tricks": [3, 2]}]}
    assert roundtrip(data)["deals"][0]["cards"] == 5
    del data["deals"][0]["cards"]  # type: ignore[attr-defined]
    with pytest.raises(GameFileError, match="^deal 1: .*cards"):
        parse(data)


def test_rotation_trump_and_custom_sequence_round_trip() -> None:
    """GAME-FILE.md rules: trump rotation with trump_cycle, custom sequence."""
    data = {"players": ["Ann", "Bob", "Cy"],
            "rules": {"deal": "custom", "sequence": "1-2NT-1", "trump": "rotation",
                      "trump_cycle": "H-S"},
            "deals": [{"bids": [0, 0, 0], "tricks": [1, 0, 0]},
                      {"bids": [0, 0, 1], "tricks": [0, 1, 1]}]}
    doc = roundtrip(data)
    assert [d["trump"] for d in doc["deals"]] == ["H", "NT"]
    assert [(s["trump"], s.get("suit")) for s in doc["schedule"]] == [(True, "H"), (False, None),
                                                                      (True, "H")]


# ---- refused files -----------------------------------------------------------------------------

# Ann deals last: Bob 1, Cy 0, Dee 4 → Ann 2 = 7
HOOK_BREAKER = game(deals=[{"bids": [2, 1, 0, 4]}])
REFUSED: list[tuple[str, Any, list[str]]] = [
    ("not an object", ["players"], ["object"]),
    ("wrong format", game(format="oh-hell-scorekeeper/2"), ["format"]),
    ("unknown top-level field", game(colour="red"), ["colour"]),
    ("unknown preset", game(rules={"preset": "whist-of-doom"}), ["preset", "whist-of-doom"]),
    ("unknown rules field", game(rules={"preset": "oh-hell", "jokers": 2}), ["rules", "jokers"]),
    ("unknown rules value", game(rules={"deal": "zigzag"}), ["Deal pattern", "zigzag"]),
    ("unknown stakes field", game(stakes={"per_point": "0.05", "bet": 1}), ["stakes", "bet"]),
    ("per_point and ante", game(stakes={"per_point": "0.05", "ante": "1"}), ["Stakes", "ante"]),
    ("unknown deal field", game(deals=[{"bids": [2, 1, 0, 3], "colour": 1}]), ["deal 1", "colour"]),
    ("hook-breaking bid", HOOK_BREAKER,
     ["deal 1", "Ann deals and can't bid 2", "7 tricks", "hook"]),
    ("hook-breaking bid in deal 2", game(deals=[EXAMPLE["deals"][0], {"bids": [2, 1, 2, 1]}]),
     ["deal 2", "Bob deals and can't bid 1", "6 tricks", "hook"]),
    ("tricks not adding up", game(deals=[{"bids": [2, 1, 0, 3], "tricks": [2, 2, 0, 2]}]),
     ["deal 1", "add up to 6", "7"]),
    ("tricks out of range", game(deals=[{"bids": [2, 1, 0, 3], "tricks": [8, 0, 0, -1]}]),
     ["deal 1", "Ann", "8"]),
    ("more deals than the schedule",
     {"players": ["Ann", "Bob"], "rules": {"max_cards": 1},
      "deals": [{"bids": [0, 0], "tricks": [1, 0]}, {"bids": [0, 0]}]}, ["deal 2", "over"]),
    ("bids out of bidding order", game(deals=[{"bids": [None, None, 0, 3]}]),
     ["deal 1", "Cy", "Bob", "eldest"]),
    ("bid as a string", game(deals=[{"bids": [2, "1", 0, 3]}]), ["deal 1", "Bob", "bid"]),
    ("bid as a boolean", game(deals=[{"bids": [2, True, 0, 3]}]), ["deal 1", "Bob", "bid"]),
    ("bid too large", game(deals=[{"bids": [8, 1, 0, 3]}]), ["deal 1", "Ann", "8"]),
    ("tricks as strings", game(deals=[{"bids": [2, 1, 0, 3], "tricks": ["2", 2, 0, 3]}]),
     ["deal 1", "Ann", "tricks"]),
    ("too few bids", game(deals=[{"bids": [2, 1, 0]}]), ["deal 1", "bids"]),
    ("trump not a suit", game(deals=[{"trump": "X", "bids": [2, 1, 0, 3]}]), ["deal 1", "trump"]),
    ("trump not a string", game(deals=[{"trump": 4, "bids": [2, 1, 0, 3]}]), ["deal 1", "trump"]),
    ("cards not matching the schedule", game(deals=[{"cards": 6, "bids": [2, 1, 0, 3]}]),
     ["deal 1", "7", "6"]),
    ("tricks before every bid", game(deals=[{"bids": [None, 1, 0, 3], "tricks": [2, 2, 0, 3]}]),
     ["deal 1"]),
    ("an unfinished deal before the last",
     game(deals=[{"bids": [2, 1, 0, 3]}, {"bids": [1, 1, 2, 1]}]), ["deal 1", "unfinished"]),
    ("duplicate names", game(players=["Ann", "Bob", "ann", "Dee"]), ["ann", "listed twice"]),
    ("the same name in another Unicode form",
     game(players=["Jos\u00e9", "Bob", "Jose\u0301", "Dee"]), ["listed twice"]),
    ("the same name in full-width letters", game(players=["Ann", "Bob", "\uff21nn", "Dee"]),
     ["listed twice"]),
    ("one player", game(players=["Ann"]), ["players", "2 to 10"]),
    ("eleven players", game(players=[f"P{i}" for i in range(11)]), ["players", "2 to 10"]),
    ("empty name", game(players=["Ann", " ", "Cy", "Dee"]), ["Player 2", "name"]),
    ("name too long", game(players=["Ann", "B" * 41, "Cy", "Dee"]), ["Player 2", "40"]),
    ("first dealer not a seat", game(first_dealer=4), ["first dealer", "0 to 3"]),
    ("cooperative with stakes", game(rules={"preset": "cooperative"}, deals=[]),
     ["stakes", "cooperative"]),
    ("cooperative with a scoring field",
     game(rules={"preset": "cooperative", "scoring": "common"}, stakes=None, deals=[]),
     ["scoring", "cooperative"]),
    ("adjustment naming a deal not in the game",
     game(adjustments=[{"deal": 3, "player": 0, "points": 5, "reason": "late"}]), ["deal 3"]),
    ("adjustment naming a player not in the game",
     game(adjustments=[{"deal": 1, "player": 4, "points": 5}]), ["deal 1", "player"]),
    ("adjustment with unknown field",
     game(adjustments=[{"deal": 1, "player": 0, "points": 5, "why": "x"}]), ["adjustments"]),
    ("adjustment points not a number",
     game(adjustments=[{"deal": 1, "player": 0, "points": "5"}]), ["deal 1", "Ann"]),
    ("adjustment points a huge number",
     game(adjustments=[{"deal": 1, "player": 0, "points": 10**4000}]), ["deal 1", "Ann", "digits"]),
    ("ended not a boolean", game(ended="yes"), ["ended"]),
    ("ended with an unfinished deal", game(ended=True), ["deal 2"]),
    ("spades double without a trump",
     game(rules={"spades_double": True, "max_cards": 7},
          deals=[{"bids": [2, 1, 0, 3], "tricks": [2, 2, 0, 3]}]), ["deal 1", "trump"]),
    ("custom formula that is unsafe",
     game(rules={"scoring": "custom", "made": "__import__('os')", "missed": "0"}),
     ["made formula"]),
    ("M too large", game(rules={"max_cards": 14}),
     ["top hand", "largest possible is 13", "second pack"]),
    ("simultaneous with the hook", game(rules={"simultaneous": True}), ["imultaneous"]),
    ("title too long", game(title="t" * 101), ["title"]),
    ("deals not a list", game(deals={"1": {}}), ["deals"]),
    ("target infinite", game(rules={"target": float("inf")}), ["Game to", "1 to 100,000"]),
    ("target not a number", game(rules={"target": float("nan")}), ["Game to", "1 to 100,000"]),
    ("target a fraction", game(rules={"target": 100.5}), ["Game to", "1 to 100,000"]),
    ("target too high", game(rules={"target": 10**4000}), ["Game to", "1 to 100,000", "digits"]),
    ("count as a float", game(rules={"max_cards": 5.0}), ["Top hand", "5.0"]),
    ("deals over 200", game(rules={"deal": "fixed", "deals": 201}),
     ["Number of deals", "1 to 200"]),
    ("a sequence of 101 deals", game(rules={"deal": "custom", "sequence": "-".join(["1"] * 101)}),
     ["custom sequence", "100"]),
    ("a sequence of 5000 digits", game(rules={"deal": "custom", "sequence": "9" * 5000}),
     ["custom sequence", "not a number of cards"]),
    ("a zero-width name", game(players=["Ann", "\u200b\u200b", "Cy", "Dee"]),
     ["Player 2", "zero width"]),
    ("a bidirectional override", game(players=["Ann", "Bob\u202e", "Cy", "Dee"]),
     ["Player 2", "invisible"]),
    ("a name of combining marks only", game(players=["Ann", "\u0301\u0301", "Cy", "Dee"]),
     ["Player 2", "seen"]),
    ("a name of a Hangul filler", game(players=["Ann", "\u3164", "Cy", "Dee"]),
     ["Player 2", "hangul filler"]),
    ("a blank braille pattern", game(players=["Ann", "\u2800\u2800", "Cy", "Dee"]),
     ["Player 2", "braille"]),
    ("a name disguised by a filler", game(players=["Ann", "Bob", "Bob\uffa0", "Dee"]),
     ["Player 3", "filler"]),
    ("a name disguised by a grapheme joiner", game(players=["Ann", "Bob", "Bob\u034f", "Dee"]),
     ["Player 3", "grapheme joiner"]),
    ("an escape in a reason",
     game(adjustments=[{"deal": 1, "player": 0, "points": 5, "reason": "x\x1b[2J"}]),
     ["reason", "escape"]),
    ("adjustment points a fraction", game(adjustments=[{"deal": 1, "player": 0, "points": 2.5}]),
     ["deal 1", "Ann", "-10,000 to 10,000"]),
    ("adjustment points too many", game(adjustments=[{"deal": 1, "player": 0, "points": 10001}]),
     ["deal 1", "Ann", "-10,000 to 10,000"]),
    ("101 adjustments", game(adjustments=[{"deal": 1, "player": 0, "points": 1}] * 101),
     ["adjustments", "100"]),
    ("301 deals", game(rules={"deal": "fixed", "max_cards": 1, "bidding": "free"},
                       deals=[{"bids": [1, 0, 0, 0], "tricks": [1, 0, 0, 0]}] * 301),
     ["deals", "300"]),
    ("per point of 1e-99999999", game(stakes={"per_point": "1e-99999999"}),
     ["per point", "0.0001 to 1,000"]),
    ("per point with 5 decimals", game(stakes={"per_point": "0.00001"}),
     ["per point", "4 decimals"]),
    ("ante of a float", game(stakes={"ante": 2.5}), ["ante", "0.01 to 100,000"]),
    ("hard-score bonus over 1000", game(stakes={"per_point": "0.05", "hard_score_bonus": "1001"}),
     ["hard-score bonus", "0 to 1,000"]),
    ("currency of four letters", game(stakes={"per_point": "0.05", "currency": "EURO"}),
     ["currency", "3"]),
]


@pytest.mark.parametrize(("case", "data", "words"), REFUSED, ids=[c[0] for c in REFUSED])
def test_an_invalid_file_is_refused_naming_the_deal_player_and_rule(case: str, data: Any,
                                                                    words: list[str]) -> None:
    """GAME-FILE.md errors: a file that is not valid is refused as a whole with a message that names
    the deal (1-based), the player and the rule."""
    with pytest.raises(GameFileError) as refused:
        parse(data)
    message = str(refused.value)
    for word in words:
        assert word in message, (case, message)
    if words[0].startswith("deal "):
        assert message.startswith(words[0] + ":"), message


def test_the_hook_message_in_a_file_is_the_rules_md_sentence_with_the_deal() -> None:
    """RULES.md §2 / GAME-FILE.md errors: "deal 1: Ann deals and can't bid 2 …(hook)"."""
    with pytest.raises(GameFileError) as refused:
        parse(HOOK_BREAKER)
    assert str(refused.value) == (
        "deal 1: Ann deals and can't bid 2: the bids would add up to the 7 tricks (hook)")


def test_lowercase_trump_is_read_as_the_suit() -> None:
    """GAME-FILE.md trump: S, H, D, C or NT."""
    doc = export(parse(game(deals=[{"trump": "s", "bids": [2, 1, 0, 3], "tricks": [2, 2, 0, 3]}])))
    assert doc["deals"][0]["trump"] == "S"


def test_names_are_trimmed() -> None:
    """GAME-FILE.md players: non-empty names, trimmed, at most 40 characters."""
    doc = export(parse(game(players=["  Ann ", "Bob", "Cy", "D" * 40])))
    assert doc["players"] == ["Ann", "Bob", "Cy", "D" * 40]


def test_hidden_characters_are_exactly_unicodes_control_format_surrogate_private_use_and_blank(
) -> None:
    """RULES.md §8: names are printable, without control (Cc) or format (Cf) characters, nor the
    fillers and the blank braille cell that show nothing."""
    hidden = {chr(c) for c in range(0x110000)
              if unicodedata.category(chr(c)) in ("Cc", "Cf", "Cs", "Co")}
    hidden |= set("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")
    assert {chr(c) for c in range(0x110000) if hidden_character("Ann" + chr(c))} == hidden
