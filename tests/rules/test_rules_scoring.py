"""Scoring systems and modifiers (RULES.md §3).

Expected points come from the RULES.md §3 table, written out again below
(``SPEC``), and from the worked examples of RULES.md and the reference texts as
literal numbers; the code under test is never asked for an expectation.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from scorekeeper.rules.errors import RulesConfigError, RulesError, UnknownVariantError, ValueRefused
from scorekeeper.rules.formulas import formula as compile_formula
from scorekeeper.rules.game import replay
from scorekeeper.rules.presets import make_rules
from scorekeeper.rules.scoring import (
    SYSTEMS,
    custom_system,
    deal_points,
    find_system,
    read_zero_bid,
)
from scorekeeper.rules.state import DealInput, DealRefused

HALF = Fraction(1, 2)


def _d(b: int, t: int) -> int:
    return abs(t - b)


# RULES.md §3: (made, missed) for every system, over bid b, tricks t, cards n, players p.
SPEC = {
    "common": (lambda b, t, n, p: t + 10, lambda b, t, n, p: t),
    "exact": (lambda b, t, n, p: 10 + t, lambda b, t, n, p: 0),
    "binary": (lambda b, t, n, p: 10, lambda b, t, n, p: 0),
    "exact-penalty": (lambda b, t, n, p: 10 + b, lambda b, t, n, p: -b),
    "cypriot": (lambda b, t, n, p: 10 + 5 * b, lambda b, t, n, p: -10 if b == 0 else -5 * b),
    "set-penalty": (lambda b, t, n, p: 10 + b, lambda b, t, n, p: t if t > b else -10),
    "progressive-penalty": (lambda b, t, n, p: 10 + b, lambda b, t, n, p: -(b + 10 * _d(b, t))),
    "progressive": (lambda b, t, n, p: 10 + b**2, lambda b, t, n, p: t),
    "montreal": (lambda b, t, n, p: 10 + 2 * t, lambda b, t, n, p: 0),
    "adjusted-exact": (lambda b, t, n, p: b + n, lambda b, t, n, p: 0),
    "get-fred": (lambda b, t, n, p: 10 + b, lambda b, t, n, p: -_d(b, t)),
    "oy-vey": (lambda b, t, n, p: 10 + b**2, lambda b, t, n, p: -_d(b, t)),
    "trick": (lambda b, t, n, p: HALF if b == 0 else b, lambda b, t, n, p: -_d(b, t)),
    "binary-nil": (
        lambda b, t, n, p: 20 if (b == 0 and n > p) else 10,
        lambda b, t, n, p: -10 if (b == 0 and n > p) else 0,
    ),
    "ten-per-trick": (lambda b, t, n, p: 10 if b == 0 else 10 * b,
                      lambda b, t, n, p: -10 * _d(b, t)),
    "oh-sh": (lambda b, t, n, p: 10 + 3 * b, lambda b, t, n, p: -5 if b == 0 else -3 * b),
    "high-incentive": (lambda b, t, n, p: 10 * (b + 1) + b, lambda b, t, n, p: -_d(b, t)),
    "vlaams": (lambda b, t, n, p: 10 + 3 * t, lambda b, t, n, p: 0),
    "nederlands": (lambda b, t, n, p: 10 + 3 * t, lambda b, t, n, p: -3 * _d(b, t)),
    "negative": (lambda b, t, n, p: 0, lambda b, t, n, p: sum(range(1, _d(b, t) + 1))),
    "negative-squared": (lambda b, t, n, p: 0, lambda b, t, n, p: _d(b, t) ** 2),
    "scratch": (lambda b, t, n, p: 0, lambda b, t, n, p: 1),
}
SPEC_WINS = {name: "highest" for name in SPEC}
SPEC_WINS.update({"negative": "lowest", "negative-squared": "lowest", "scratch": "scratch"})


def points(system: str, bid: int, tricks: int, cards: int, players: int = 4,
           **mods: object) -> Fraction:
    """One player's points in a deal of ``players`` (the others bid and take 0 here)."""
    bids = [bid] + [0] * (players - 1)
    taken = [tricks] + [0] * (players - 1)
    return deal_points(find_system(system), bids, taken, cards, **mods)[0]  # type: ignore[arg-type]


def test_registry_lists_exactly_the_22_systems_of_rules_md_section_3() -> None:
    """RULES.md §3 scoring systems: all 22 named systems (custom is built from formulas)."""
    assert set(SYSTEMS) == set(SPEC)
    assert len(SPEC) == 22


@pytest.mark.parametrize("system", sorted(SPEC))
def test_each_system_declares_who_wins(system: str) -> None:
    """RULES.md §3 "wins" column: lowest for negative(-squared), fewest scratches for scratch."""
    assert find_system(system).wins == SPEC_WINS[system]


# Made and missed, for every system, on a spread of deals (b, t, n, p).
MADE_CASES = [(0, 0, 1, 4), (0, 0, 7, 4), (1, 1, 1, 4), (3, 3, 7, 4), (5, 5, 10, 3), (4, 4, 8, 6)]
MISSED_CASES = [(0, 1, 1, 4), (0, 2, 7, 4), (1, 0, 1, 4), (3, 2, 7, 4), (3, 5, 7, 4), (5, 3, 10, 3),
                (2, 6, 8, 6), (4, 0, 5, 3)]


@pytest.mark.parametrize("system", sorted(SPEC))
@pytest.mark.parametrize(("column", "bid", "tricks", "cards", "players"),
                         [("made", *case) for case in MADE_CASES]
                         + [("missed", *case) for case in MISSED_CASES])
def test_a_bid_scores_the_systems_made_or_missed_column(system: str, column: str, bid: int,
                                                         tricks: int, cards: int,
                                                         players: int) -> None:
    """RULES.md §3 table, "made" and "missed" columns, for every system."""
    expected = Fraction(SPEC[system][column == "missed"](bid, tricks, cards, players))
    assert points(system, bid, tricks, cards, players) == expected


@pytest.mark.parametrize("system", sorted(SPEC))
def test_every_bid_and_trick_count_of_a_deal_scores_by_the_table(system: str) -> None:
    """RULES.md §3 table: every (b, t) of 5- and 6-card deals with 4 players, made and missed."""
    for cards in (5, 6):
        for b in range(cards + 1):
            for t in range(cards + 1):
                made, missed = SPEC[system]
                expected = Fraction((made if b == t else missed)(b, t, cards, 4))
                assert points(system, b, t, cards, 4) == expected, (system, b, t, cards)


# RULES.md §3 worked examples and the examples of the reference texts: literal numbers.
WORKED_EXAMPLES = [
    # RULES.md §3 worked examples
    ("common", 3, 3, 7, 4, 13),
    ("common", 3, 2, 7, 4, 2),
    ("common", 0, 0, 7, 4, 10),
    ("ten-per-trick", 5, 3, 10, 4, -20),
    ("progressive-penalty", 4, 2, 7, 4, -24),
    ("oh-sh", 3, 3, 7, 4, 19),
    ("oh-sh", 4, 3, 7, 4, -12),
    ("negative", 1, 4, 7, 4, 6),
    ("binary-nil", 0, 1, 7, 4, -10),
    # Trickster (001_…): bid 2 take 2 → 12, take 3 → 3
    ("common", 2, 2, 10, 4, 12),
    ("common", 2, 3, 10, 4, 3),
    # CardGames.io (003_…): bid 3 take 3 → 13
    ("common", 3, 3, 10, 4, 13),
    # Denexa (000_…): bid five, collected three → −20; ten per trick bid; made zero 10
    ("ten-per-trick", 5, 5, 10, 4, 50),
    ("ten-per-trick", 0, 0, 10, 4, 10),
    # Wikipedia #3 exact-penalty: missing a 3 bid −3, missing a zero bid 0
    ("exact-penalty", 3, 2, 7, 4, -3),
    ("exact-penalty", 0, 1, 7, 4, 0),
    # Wikipedia #4 cypriot: missing a 3 bid −15, missing a zero bid −10, making a 5 scores 35
    ("cypriot", 3, 1, 7, 4, -15),
    ("cypriot", 0, 2, 7, 4, -10),
    ("cypriot", 5, 5, 7, 4, 35),
    # Wikipedia #5 set-penalty, bid 4: took 4 → 14, took 5 → 5, took 3 → −10
    ("set-penalty", 4, 4, 7, 4, 14),
    ("set-penalty", 4, 5, 7, 4, 5),
    ("set-penalty", 4, 3, 7, 4, -10),
    # Wikipedia #6 progressive-penalty, bid 4: 4 → 14, 3 or 5 → −14, 2 or 6 → −24
    ("progressive-penalty", 4, 4, 7, 4, 14),
    ("progressive-penalty", 4, 3, 7, 4, -14),
    ("progressive-penalty", 4, 5, 7, 4, -14),
    ("progressive-penalty", 4, 6, 7, 4, -24),
    # Wikipedia #9 progressive: bidding and making four → 26
    ("progressive", 4, 4, 7, 4, 26),
    # Wikipedia #11 negative: three overtricks → 6
    ("negative", 2, 5, 7, 4, 6),
    # Wikipedia #14 trick: bid 3 won 2 loses 1; bid 2 won 3 loses 1; made zero ½
    ("trick", 3, 2, 7, 4, -1),
    ("trick", 2, 3, 7, 4, -1),
    ("trick", 0, 0, 7, 4, HALF),
    # Wikipedia #16 binary-nil: more tricks than players, nil made 20, missed −10
    ("binary-nil", 0, 0, 7, 4, 20),
    ("binary-nil", 0, 0, 4, 4, 10),
    ("binary-nil", 0, 1, 4, 4, 0),
    # Wikipedia #19 get-fred: bid three, took two or four → −1
    ("get-fred", 3, 2, 7, 4, -1),
    ("get-fred", 3, 4, 7, 4, -1),
    # 64-card Oh Sh--: A bids 3 makes → 19; B bids 1 misses → −3; C bids 4 gets 3 → −12;
    # bid 0 and get 0 → 10; a missed 0 → −5
    ("oh-sh", 1, 0, 7, 6, -3),
    ("oh-sh", 1, 2, 7, 6, -3),
    ("oh-sh", 0, 0, 7, 6, 10),
    ("oh-sh", 0, 1, 7, 6, -5),
]


@pytest.mark.parametrize(("system", "bid", "tricks", "cards", "players", "expected"),
                         WORKED_EXAMPLES)
def test_worked_examples_of_rules_md_and_the_reference_texts(system: str, bid: int, tricks: int,
                                                             cards: int, players: int,
                                                             expected: object) -> None:
    """RULES.md §3 worked examples; Wikipedia #3–#19, Trickster, Denexa,
    64-card Oh Sh-- examples."""
    assert points(system, bid, tricks, cards, players) == Fraction(expected)  # type: ignore[arg-type]


def test_unknown_scoring_system_is_refused_naming_it() -> None:
    """RULES.md §3: only the listed systems exist."""
    with pytest.raises(UnknownVariantError, match="golf"):
        find_system("golf")
    with pytest.raises(UnknownVariantError, match="golf"):
        make_rules({"scoring": "golf"}, 4)


# ---- zero_bid --------------------------------------------------------------------------------

ZERO_BID_CASES = [
    # (system, zero_bid, cards, expected for a made zero bid) — RULES.md §3 zero_bid
    ("common", 5, 7, 5),  # Wikipedia #7 reduced 0 bid
    ("exact", 5, 7, 5),
    ("common", 10, 7, 10),
    ("exact", 10, 3, 10),
    ("common", "5+n", 1, 6),  # Wikipedia #8: in the first (1-card) round a zero bid is worth 6
    ("common", "5+n", 7, 12),
    ("binary-nil", 5, 7, 5),  # replaces binary-nil's 20
    ("binary-nil", 5, 2, 5),  # ... and its 10 when n <= P
    ("trick", 5, 3, 5),  # replaces trick's ½
    ("ten-per-trick", "5+n", 10, 15),
    ("cypriot", 5, 4, 5),
]


@pytest.mark.parametrize(("system", "zero_bid", "cards", "expected"), ZERO_BID_CASES)
def test_zero_bid_replaces_the_whole_made_zero_score(system: str, zero_bid: object, cards: int,
                                                     expected: int) -> None:
    """RULES.md §3 zero_bid: a made zero bid scores the number (or 5+n) instead."""
    assert points(system, 0, 0, cards, 4, zero_bid=zero_bid) == expected


@pytest.mark.parametrize("zero_bid", [5, 10, "5+n"])
def test_zero_bid_leaves_other_bids_and_missed_zero_bids_alone(zero_bid: object) -> None:
    """RULES.md §3 zero_bid: only a *made* zero bid changes; Wikipedia #8
    one bid in round 1 → 11."""
    assert points("common", 1, 1, 1, 4, zero_bid=zero_bid) == 11
    assert points("common", 0, 2, 7, 4, zero_bid=zero_bid) == 2
    assert points("cypriot", 0, 1, 7, 4, zero_bid=zero_bid) == -10


@pytest.mark.parametrize("zero_bid", ["n", "abc", "5+m", True, None, [5], "1/0", float("nan"),
                                      float("inf"), 2.5, 5.0, "1e100000000", "1e20", 10**30,
                                      "1001+n", 1001, -1001, "²", "١٢", "１２", "1_000", "0x10",
                                      "5 +", "+n"])
def test_zero_bid_that_is_not_a_whole_number_or_5_plus_n_in_bounds_is_refused(
        zero_bid: object) -> None:
    """RULES.md §3 zero_bid, §8: a whole number from −1000 to 1000 or ``5+n``; anything else is
    refused with a message naming it."""
    with pytest.raises(ValueRefused, match="zero bid"):
        read_zero_bid(zero_bid)
    if zero_bid is not None:  # a JSON null means "not given"
        with pytest.raises(ValueRefused, match="zero bid"):
            make_rules({"zero_bid": zero_bid}, 4)


@pytest.mark.parametrize(("written", "read"), [(5, 5), ("10", 10), (" 5 + n", "5+n"), ("−3", -3),
                                                (1000, 1000), ("-1000+N", "-1000+n")])
def test_zero_bid_is_read_as_a_whole_number_or_k_plus_n(written: object, read: object) -> None:
    assert read_zero_bid(written) == read


@pytest.mark.parametrize("system", ["negative", "negative-squared", "scratch"])
@pytest.mark.parametrize("modifier",
                         [{"zero_bid": 5}, {"zero_bid": "5+n"}, {"spades_double": True}])
def test_modifiers_are_refused_with_systems_without_a_made_score(
        system: str, modifier: dict[str, object]) -> None:
    """RULES.md §3 modifiers: with negative, negative-squared and scratch both are refused."""
    with pytest.raises(RulesConfigError, match=system):
        make_rules({"scoring": system, **modifier}, 4)


# ---- spades_double, through whole deals -----------------------------------------------------

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def _one_deal(rules: dict[str, object], bids: list[int], tricks: list[int], trump: str | None
              ) -> list[Fraction]:
    state = replay(make_rules(rules, 4), PLAYERS, [DealInput(tuple(bids), tuple(tricks), trump)])
    result = state.deals[0]
    assert result.points is not None
    return list(result.points)


# Deal 1 of a 3-card down-up game, dealer Ann (seat 0): bidding order Bob, Cy, Dee, Ann.
BIDS = [2, 0, 1, 1]  # Bob 0, Cy 1, Dee 1, Ann 2: total 4 against 3 (no hook trouble)
TRICKS = [2, 0, 0, 1]


@pytest.mark.parametrize("system", sorted(s for s, w in SPEC_WINS.items() if w == "highest"))
def test_spades_double_doubles_gains_and_losses_of_every_player(system: str) -> None:
    """RULES.md §3 spades_double: a spades deal counts double, for every
    player, gains and losses."""
    base = [Fraction(SPEC[system][0 if b == t else 1](b, t, 3, 4)) for b, t in zip(BIDS, TRICKS)]
    rules = {"scoring": system, "max_cards": 3, "spades_double": True}
    assert _one_deal(rules, BIDS, TRICKS, "S") == [2 * p for p in base]
    assert _one_deal(rules, BIDS, TRICKS, "H") == base


def test_spades_double_applies_after_zero_bid() -> None:
    """RULES.md §3: spades_double doubles *after* zero_bid replaced the made-zero score."""
    rules = {"scoring": "common", "max_cards": 3, "spades_double": True, "zero_bid": 5}
    # Bob bid 0 took 0: zero_bid 5, doubled 10; Ann 2/2: 12 → 24; Cy 1/0: 0; Dee 1/1: 11 → 22
    assert _one_deal(rules, [2, 0, 1, 1], [2, 0, 0, 1], "S") == [24, 10, 0, 22]
    rules["zero_bid"] = "5+n"
    assert _one_deal(rules, [2, 0, 1, 1], [2, 0, 0, 1], "S") == [24, 16, 0, 22]


def test_spades_double_never_doubles_adjustments() -> None:
    """RULES.md §3 spades_double: adjustments are never doubled (§5 adjustments)."""
    from scorekeeper.rules.state import Adjustment

    rules = make_rules({"scoring": "common", "max_cards": 3, "spades_double": True}, 4)
    state = replay(rules, PLAYERS, [DealInput((2, 0, 1, 1), (2, 0, 0, 1), "S")],
                   adjustments=[Adjustment(1, 2, Fraction(-10), "revoke")])
    assert list(state.totals) == [24, 20, -10, 22]


def test_spades_double_refuses_a_finished_deal_without_a_recorded_trump() -> None:
    """RULES.md §1/§3: with spades_double the trump of a finished deal must be recorded."""
    rules = make_rules({"scoring": "common", "max_cards": 3, "spades_double": True}, 4)
    with pytest.raises(DealRefused, match=r"^deal 1: .*trump"):
        replay(rules, PLAYERS, [DealInput((2, 0, 1, 1), (2, 0, 0, 1), None)])
    # bids alone (deal being played) need no trump yet
    state = replay(rules, PLAYERS, [DealInput((2, 0, 1, 1))])
    assert state.current is not None


def test_spades_double_needs_no_recording_where_a_rotation_fixes_spades() -> None:
    """RULES.md §1 trump rotation fixes the trump; deal 1 of S-D-C-H-NT is spades, so it doubles."""
    rules = make_rules({"preset": "kachuful", "max_cards": 3, "spades_double": True}, 4)
    state = replay(rules, PLAYERS, [DealInput((2, 0, 1, 1), (2, 0, 0, 1))])
    # exact scoring: made 10 + t, missed 0 → [12, 10, 0, 11] doubled
    assert list(state.deals[0].points or ()) == [24, 20, 0, 22]


# ---- custom formulas ------------------------------------------------------------------------

CUSTOM_OK = [
    # (made, missed, (b, t, n, p), made value, missed value)
    ("10 + bid * 2", "-abs(bid - tricks)", (3, 3, 7, 4), 16, 0),
    ("10 + bid²", "tricks", (4, 4, 7, 4), 26, 4),
    ("10 × bid", "−5 × bid", (2, 2, 5, 4), 20, -10),
    ("max(bid, 1) * 10", "min(tricks, bid) - cards", (0, 0, 5, 4), 10, -5),
    ("bid + cards", "0", (2, 2, 7, 4), 9, 0),
    ("players * 2 + (bid > 2)", "-(tricks != bid) * 5 - cards", (3, 3, 7, 5), 11, -7),
    ("(bid + 1) ÷ 2", "-1", (2, 2, 3, 4), Fraction(3, 2), -1),
    ("bid ** 2 + 10", "-(bid - tricks) ** 2", (3, 3, 5, 4), 19, 0),
]


@pytest.mark.parametrize(("made", "missed", "deal", "made_value", "missed_value"), CUSTOM_OK)
def test_custom_formulas_score_by_the_users_expressions(made: str, missed: str,
                                                        deal: tuple[int, int, int, int],
                                                        made_value: object,
                                                        missed_value: object) -> None:
    """RULES.md §3 custom: expressions over bid, tricks, cards, players with + − × ÷, abs, min, max,
    powers and comparisons."""
    system = custom_system(made, missed)
    b, t, n, p = deal
    assert system.made(b, t, n, p) == Fraction(made_value)  # type: ignore[arg-type]
    assert system.missed(b, t, n, p) == Fraction(missed_value)  # type: ignore[arg-type]


def test_custom_missed_formula_scores_a_missed_bid_in_a_game() -> None:
    """RULES.md §3 custom: made/missed formulas chosen through the rules,
    winner direction chosen."""
    rules = make_rules({"scoring": "custom", "made": "100 + bid", "missed": "-abs(bid - tricks)",
                        "wins": "lowest", "max_cards": 3}, 4)
    state = replay(rules, PLAYERS, [DealInput((2, 0, 1, 1), (2, 0, 0, 1))])
    assert list(state.totals) == [102, 100, -1, 101]
    assert rules.wins == "lowest"


CUSTOM_REFUSED = [
    "__import__('os')",
    "open('x')",
    "bid.__class__",
    "bid.real",
    "bid.bit_length()",
    "cards.to_bytes(100000000, 'big') and 1",  # a method of a number that allocates without bound
    "(lambda: 1)()",
    "10 +",
    "bid +* 2",
    "x + 1",
    "exec('1')",
    "eval('1')",
    "globals()",
    "'a' * 5",
    "[1, 2]",
    "bid / tricks",  # divides by zero on a made zero bid
    "10 // (cards - 1)",  # divides by zero on a one-card deal
    "10 ** 5000",  # a huge power
    "9 ** 9 ** 9",
    "bid ** 3999999",
    "2 ** 4000000",
    "1e308 * 10",
    "(10 ** 9) ** 100",  # score-sized base and exponent, but far too many points
    # a tiny base: a fraction of 9 million digits, seconds and gigabytes to work out
    "((1 / 999999999 ** 100) ** 100) ** 100",
    # fractions of 900 digits each, added up: seconds to check for every bid and trick count
    "+".join(f"1/(bid+99999990{k})**100" for k in range(8)),
    "10.0 ** 400",
    "",
    "1" * 201,
    # text of any kind: %-formatting builds gigabytes, and a string compared is no score
    "max('%0999999999d'%1, '%0999999999d'%1, '%0999999999d'%1)",
    "('%0999999999d'%1)<'2'",
    "f'{bid}' < 'x'",
    "len('abc')",
    "True + bid",
    "None",
    "1e5",  # no exponents, as in any number written (RULES.md §8)
    "1_000 + bid",
    "0x10 + bid",
    "bid if bid else 1",
    "[bid][0]",
    "{'a': 1}['a']",
    "max(bid)",
    "abs(bid, tricks)",
    "max(*[1, 2])",
    "bid and 10",
    "(bid := 5)",
    "1000001",  # more than a million points for a deal
    "bid * 1000000 + 10",  # a million and more once the bid is 2
]


@pytest.mark.parametrize("formula", CUSTOM_REFUSED)
@pytest.mark.parametrize("which", ["made", "missed"])
def test_invalid_or_unsafe_custom_formulas_are_refused_when_saved(formula: str, which: str) -> None:
    """RULES.md §3 custom: evaluated safely, checked when the rules are saved,
    refused when invalid."""
    fields = {"scoring": "custom", "made": "10 + bid", "missed": "0", which: formula}
    with pytest.raises(RulesError):
        make_rules(fields, 4)


@pytest.mark.parametrize("formula", [f for f in CUSTOM_REFUSED
                                     if "bid" not in f and "cards" not in f
                                     and f not in ("1000001",)])
def test_formulas_that_are_not_arithmetic_are_refused_before_they_are_worked_out(
        formula: str) -> None:
    """RULES.md §8: over numbers and bid, tricks, cards, players only (no strings at all)."""
    with pytest.raises(RulesError):
        compile_formula(formula, "The made formula")(1, 1, 1, 4)


@pytest.mark.parametrize(("made", "points"), [
    ("bid / 3", Fraction(1)),
    ("(bid + 1) / 7", Fraction(4, 7)),
    ("1 / 1001", Fraction(1, 1000)),
    ("1 / 3001", Fraction(0)),
    ("1 / 999999937 ** 13", Fraction(0)),
    ("10 + 1 / 999999937 ** 13", Fraction(10)),
    ("2 ** 0.5", Fraction(1414, 1000)),
    ("-1 / 1999", Fraction(-1, 1000)),
])
def test_a_formula_gives_fractions_to_thousandths(made: str, points: Fraction) -> None:
    """A fraction of a point with a denominator of at most 1000 is kept exactly; a finer one, or a
    power's inexact result, is rounded to thousandths. Totals of a 300-deal game then stay numbers
    of a few digits: ``1 / 999999937 ** 13`` kept exactly would make them fractions of tens of
    thousands of digits, seconds to add up and print."""
    assert compile_formula(made, "The made formula")(3, 3, 5, 4) == points


def test_a_long_game_of_fine_fractions_has_totals_to_thousandths() -> None:
    made, missed = ("1 / (bid * 1000 + tricks * 7 + 999000001) ** 13",
                    "1 / (tricks + 999000003) ** 13")
    rules = make_rules({"deal": "fixed", "max_cards": 20, "bidding": "free", "scoring": "custom",
                        "made": made, "missed": missed}, 2)
    deals = [DealInput((k % 21, (k * 7) % 21), (k % 21, 20 - k % 21)) for k in range(300)]
    state = replay(rules, ["Ann", "Bob"], deals)
    assert all(Fraction(total).denominator <= 1000 for total in state.totals)


@pytest.mark.parametrize(("made", "stuck", "fine"), [
    # 10 down to 1: the 5-card deal divides by zero; 4 down to 1 never deals 5 cards
    ("10 / (cards - 5)", {}, {"max_cards": 4}),
    ("10 / (cards - 5)", {"deal": "up", "max_cards": 7}, {"deal": "custom", "sequence": "7-6-4"}),
    # over a million points from 11 cards on
    ("100000 * cards", {"max_cards": 12}, {"max_cards": 10}),
    # a tie is broken by one-card deals, so 1 card is checked too
    ("10 / (cards - 1)", {"deal": "custom", "sequence": "3-2-3", "tie": "one-card-hand"},
     {"deal": "custom", "sequence": "3-2-3"}),
])
def test_a_formula_is_checked_for_every_hand_size_of_the_game_when_the_rules_are_set(
        made: str, stuck: dict[str, object], fine: dict[str, object]) -> None:
    """RULES.md §8: every hand size of the schedule (and a tie-break's one card), every bid and
    trick count, so that a game can never get stuck on a formula at a later deal."""
    fields = {"scoring": "custom", "made": made, "missed": "0"}
    with pytest.raises(RulesError, match="made formula"):
        make_rules({**fields, **stuck}, 4)
    assert make_rules({**fields, **fine}, 4).scoring is not None


def test_a_manual_game_checks_a_formula_for_each_hand_size_as_it_is_entered() -> None:
    """RULES.md §8: manual hand sizes are checked as they are entered; the deal
    is refused, not stuck."""
    rules = make_rules({"deal": "manual", "scoring": "custom", "made": "10 / (cards - 5)",
                        "missed": "0"}, 4)
    state = replay(rules, PLAYERS, [DealInput((1, 0, 1, 0), (1, 1, 1, 0), cards=3)])
    assert state.finished is False
    with pytest.raises(DealRefused, match="deal 2: The made formula .* cards 5"):
        replay(rules, PLAYERS, [DealInput((1, 0, 1, 0), (1, 1, 1, 0), cards=3),
                                DealInput((None,) * 4, cards=5)])


def test_custom_scoring_needs_both_formulas_and_formulas_need_custom() -> None:
    """RULES.md §3 custom: two expressions, made and missed; GAME-FILE:
    made/missed/wins go with custom."""
    with pytest.raises(RulesConfigError):
        make_rules({"scoring": "custom", "made": "10"}, 4)
    with pytest.raises(RulesConfigError):
        make_rules({"scoring": "common", "made": "10"}, 4)
    with pytest.raises(RulesError):
        make_rules({"scoring": "custom", "made": "10", "missed": "0", "wins": "sideways"}, 4)


def test_custom_formula_never_uses_python_eval(monkeypatch: pytest.MonkeyPatch) -> None:
    """RULES.md §3 custom: "evaluated safely (never with Python's eval)"."""
    import builtins

    def forbidden(*args: object, **kwargs: object) -> object:
        raise AssertionError("Python's eval was called")

    monkeypatch.setattr(builtins, "eval", forbidden)
    monkeypatch.setattr(builtins, "exec", forbidden)
    system = custom_system("10 + bid * 3", "-abs(bid - tricks)")
    assert system.made(2, 2, 5, 4) == 16
    assert system.missed(2, 4, 5, 4) == -2
