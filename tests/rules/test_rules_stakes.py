"""Stakes and settlement (RULES.md §6)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.stakes import Stakes, parse_stakes, payments, round_nets, settle


def F(*values: float) -> list[Fraction]:
    return [Fraction(v) for v in values]


def D(*values: str) -> tuple[Decimal, ...]:
    return tuple(Decimal(v) for v in values)


def pairwise(rate: str, scores: list[Fraction]) -> list[Fraction]:
    """RULES.md §6: net_i = r · Σ_j (s_i − s_j)."""
    r = Fraction(Decimal(rate))
    return [r * sum(s_i - s_j for s_j in scores) for s_i in scores]


def balance(pays: list, players: int) -> list[Decimal]:  # type: ignore[type-arg]
    got = [Decimal(0)] * players
    for p in pays:
        assert p.amount > 0
        got[p.payer] -= p.amount
        got[p.payee] += p.amount
    return got


def check_settlement(net: tuple[Decimal, ...], pays: tuple) -> None:  # type: ignore[type-arg]
    """RULES.md §6: nets to the cent adding to exactly 0.00; at most P − 1
    payments that settle them."""
    assert sum(net) == 0
    assert all(x == x.quantize(Decimal("0.01")) for x in net)
    assert len(pays) <= len(net) - 1
    assert balance(list(pays), len(net)) == list(net)


@pytest.mark.parametrize(("rate", "totals", "expected"), [
    ("0.10", [30, 20, 10], ("3.00", "0.00", "-3.00")),
    ("0.05", [42, 35, 34, 10], ("2.35", "0.95", "0.75", "-4.05")),
    ("1", [13, 13], ("0.00", "0.00")),
    ("0.25", [-12, 5, 40, 0, 7], None),
])
def test_pairwise_net_is_rate_times_the_sum_of_differences(
        rate: str, totals: list[int], expected: tuple[str, ...] | None) -> None:
    """RULES.md §6 per_point pairwise (default): player i's net is r · Σ_j (s_i − s_j)."""
    leader = max(range(len(totals)), key=lambda i: totals[i])
    result = settle(Stakes(per_point=Decimal(rate)), F(*totals), [leader], "highest")
    exact = pairwise(rate, F(*totals))
    if expected is not None:
        assert result.net == D(*expected)
    assert [Fraction(x) for x in result.net] == exact  # these all come out in whole cents
    check_settlement(result.net, result.payments)


def test_pairwise_is_the_default_settlement() -> None:
    """RULES.md §6: pairwise is the default; GAME-FILE.md: settlement pairwise | to-winner."""
    assert parse_stakes({"per_point": "0.05"}).settlement == "pairwise"


def test_to_winner_each_other_player_pays_the_winner_once() -> None:
    """RULES.md §6 to-winner: each other player pays r · (s_winner − s_i) once."""
    result = settle(Stakes(per_point=Decimal("0.10"), settlement="to-winner"), F(30, 20, 10), [0],
                    "highest")
    assert result.net == D("3.00", "-1.00", "-2.00")
    check_settlement(result.net, result.payments)
    assert {(p.payer, p.payee, p.amount) for p in result.payments} == {
        (1, 0, Decimal("1.00")), (2, 0, Decimal("2.00"))}


def test_to_winner_tied_winners_share_each_payment_equally() -> None:
    """RULES.md §6 to-winner: tied winners share each payment equally."""
    result = settle(Stakes(per_point=Decimal("0.10"), settlement="to-winner"), F(30, 30, 10, 20),
                    [0, 1], "highest")
    # Cy pays 2.00, Dee pays 1.00, each split between Ann and Bob
    assert result.net == D("1.50", "1.50", "-2.00", "-1.00")
    check_settlement(result.net, result.payments)


@pytest.mark.parametrize(("settlement", "expected"), [
    ("pairwise", ("1.00", "-1.10", "0.10")),
    ("to-winner", ("1.00", "-0.70", "-0.30")),
])
def test_differences_are_reversed_when_the_lowest_total_wins(settlement: str,
                                                             expected: tuple[str, ...]) -> None:
    """RULES.md §6: for lowest-wins systems the differences are reversed (negative: 0, 7, 3)."""
    result = settle(Stakes(per_point=Decimal("0.10"), settlement=settlement), F(0, 7, 3), [0],
                    "lowest")
    assert result.net == D(*expected)
    check_settlement(result.net, result.payments)


@pytest.mark.parametrize(("settlement", "expected"), [
    ("pairwise", ("0.50", "0.50", "-1.00")),
    ("to-winner", ("0.50", "0.00", "-0.50")),
])
def test_scratch_settles_in_scratches_fewest_best(settlement: str,
                                                  expected: tuple[str, ...]) -> None:
    """RULES.md §6: for scratch the differences are counted in scratches (fewest is best)."""
    result = settle(Stakes(per_point=Decimal("0.50"), settlement=settlement), F(0, 0, 1), [0],
                    "scratch")
    assert result.net == D(*expected)


@pytest.mark.parametrize(("totals", "winners", "wins", "expected"), [
    ([30, 20, 10], [0], "highest", ("5.00", "-1.00", "-4.00")),  # 40, 20, 10
    ([30, 30, 10], [0, 1], "highest", ("3.00", "3.00", "-6.00")),  # tied winners each get it
    ([0, 7, 3], [0], "lowest", ("3.00", "-2.10", "-0.90")),  # subtracted: −10, 7, 3
])
def test_hard_score_bonus_goes_to_the_winners_total_before_the_differences(
        totals: list[int], winners: list[int], wins: str, expected: tuple[str, ...]) -> None:
    """RULES.md §6 hard_score_bonus (Oh Pshaw): added for highest-wins, subtracted for lowest-wins,
    tied winners each get it; then the pairwise differences are taken."""
    result = settle(Stakes(per_point=Decimal("0.10"), hard_score_bonus=Decimal(10)), F(*totals),
                    winners, wins)
    assert result.net == D(*expected)
    check_settlement(result.net, result.payments)


def test_hard_score_bonus_with_to_winner() -> None:
    """RULES.md §6: the bonus counts in the winner's favour with to-winner too."""
    result = settle(Stakes(per_point=Decimal("0.10"), settlement="to-winner",
                           hard_score_bonus=Decimal(10)), F(30, 20, 10), [0], "highest")
    assert result.net == D("5.00", "-2.00", "-3.00")


@pytest.mark.parametrize(("ante", "winners", "expected"), [
    ("2", [0], ("4.00", "-2.00", "-2.00")),
    ("2", [1, 2], ("-2.00", "1.00", "1.00")),
    ("1.50", [0, 1, 2], ("0.00", "0.00", "0.00")),
])
def test_ante_winner_takes_the_pool_and_tied_winners_split_it(ante: str, winners: list[int],
                                                              expected: tuple[str, ...]) -> None:
    """RULES.md §6 ante: each player puts in the ante; the winner takes the pool; ties split it."""
    result = settle(Stakes(ante=Decimal(ante)), F(30, 20, 10), winners, "highest")
    assert result.net == D(*expected)
    check_settlement(result.net, result.payments)


def test_ante_split_three_ways_is_rounded_to_cents_that_add_to_zero() -> None:
    """RULES.md §6: nets rounded to cents still add up to exactly zero (1.00
    pool of 4 split 3 ways)."""
    result = settle(Stakes(ante=Decimal(1)), F(5, 5, 5, 0), [0, 1, 2], "highest")
    assert sorted(result.net) == sorted(D("0.34", "0.33", "0.33", "-1.00"))
    check_settlement(result.net, result.payments)


def test_nets_with_fractions_of_a_cent_are_rounded_and_still_add_to_zero() -> None:
    """RULES.md §6: each net rounded to cents (within a cent of the exact
    amount), summing to 0.00."""
    rate = "0.033"
    totals = F(17, 4, -9, 30, 11, 2, 0)
    result = settle(Stakes(per_point=Decimal(rate)), totals, [3], "highest")
    exact = pairwise(rate, totals)
    for got, want in zip(result.net, exact):
        assert abs(Fraction(got) - want) < Fraction(1, 100)
    check_settlement(result.net, result.payments)


def test_round_nets_and_payments_directly() -> None:
    """RULES.md §6: rounding keeps the sum at zero; payments reproduce the nets in ≤ P − 1 steps."""
    nets = round_nets([Fraction(1, 3), Fraction(1, 3), Fraction(-2, 3)])
    assert sum(nets) == 0 and {abs(x - Decimal("0.3333")) < Decimal("0.01")
                               for x in nets[:2]} == {True}
    amounts = D("5.00", "-3.00", "-2.00", "0.00")
    pays = payments(amounts)
    check_settlement(amounts, tuple(pays))


def test_money_is_exact_decimal() -> None:
    """RULES.md §6: money is exact decimal, never binary floats (0.1 + 0.2 problems can't arise)."""
    result = settle(Stakes(per_point=Decimal("0.1")), F(3, 0), [0], "highest")
    assert result.net == D("0.30", "-0.30")
    assert all(isinstance(x, Decimal) for x in result.net)
    assert all(isinstance(p.amount, Decimal) for p in result.payments)


# ---- the stakes object ----------------------------------------------------------------------

def test_stakes_parse_decimal_strings_currency_settlement_and_bonus() -> None:
    """GAME-FILE.md stakes: per_point and ante as decimal strings, currency, settlement, bonus."""
    stakes = parse_stakes({"per_point": "0.05", "currency": "EUR", "settlement": "to-winner",
                           "hard_score_bonus": "10"})
    assert stakes == Stakes(per_point=Decimal("0.05"), currency="EUR", settlement="to-winner",
                            hard_score_bonus=Decimal(10))
    assert parse_stakes({"ante": "2.50"}).ante == Decimal("2.50")


@pytest.mark.parametrize("stakes", [
    {"per_point": "0.05", "ante": "2"},  # alternatives: both refused
    {"per_point": 0.05},  # a binary float
    {"per_point": "abc"},
    {"per_point": "-1"},
    {"per_point": "NaN"},
    {"per_point": "Infinity"},
    {"ante": "2", "hard_score_bonus": "10"},
    {"per_point": "0.05", "settlement": "winner-takes-all"},
    {"per_point": "0.05", "bet": "1"},
    {"currency": "EUR"},
    {"per_point": "0.05", "currency": 5},
    ["per_point", "0.05"],
    # RULES.md §8
    {"per_point": "1e-99999999"},
    {"per_point": "0.00001"},
    {"per_point": "1000.0001"},
    {"per_point": "0,05"},
    {"per_point": "٠.٥"},
    {"per_point": "1" * 13},
    {"ante": "0.001"},
    {"ante": "100000.01"},
    {"ante": 10**30},
    {"per_point": "0.05", "hard_score_bonus": "1001"},
    {"per_point": "0.05", "hard_score_bonus": "2.5"},
    {"per_point": "0.05", "hard_score_bonus": "1e3"},
    {"per_point": "0.05", "currency": "EURO"},
    {"per_point": "0.05", "currency": "E\u200bU"},
    {"per_point": "0.05", "currency": "E U"},
])
def test_invalid_stakes_are_refused(stakes: object) -> None:
    """RULES.md §6 / GAME-FILE.md: per_point and ante are alternatives (both refused); decimal
    strings; known fields and settlements only; §8: the bounds of each amount."""
    with pytest.raises(RulesError, match="(?i)stake|ante|bonus|currency|settlement"):
        parse_stakes(stakes)


@pytest.mark.parametrize(("stakes", "field", "value"), [
    ({"per_point": "0.0001"}, "per_point", Decimal("0.0001")),
    ({"per_point": "1000"}, "per_point", Decimal(1000)),
    ({"per_point": "0.05000"}, "per_point", Decimal("0.05")),
    ({"ante": "100000"}, "ante", Decimal(100000)),
    ({"ante": 5}, "ante", Decimal(5)),
    ({"ante": ".5"}, "ante", Decimal("0.5")),
    ({"per_point": "1", "hard_score_bonus": 1000}, "hard_score_bonus", Decimal(1000)),
])
def test_stakes_at_their_bounds_are_accepted(stakes: dict[str, object], field: str,
                                             value: Decimal) -> None:
    """RULES.md §8: per_point 0.0001–1000 (4 decimals), ante 0.01–100000 (2), bonus 0–1000."""
    assert getattr(parse_stakes(stakes), field) == value


@pytest.mark.parametrize(("stakes", "field"), [
    ({"per_point": "lots"}, "per_point"), ({"ante": "-1"}, "ante"), ({}, "per_point"),
    ({"per_point": "1", "ante": "1"}, "per_point"),
    ({"ante": "1", "hard_score_bonus": 5}, "hard_score_bonus"),
    ({"per_point": "1", "currency": "E U"}, "currency"),
    ({"per_point": "1", "settlement": "x"}, "settlement"),
    ({"per_point": "1", "hard_score_bonus": -1}, "hard_score_bonus"),
])
def test_a_refused_stake_names_the_field_to_change(stakes: dict[str, object], field: str) -> None:
    with pytest.raises(RulesError) as refused:
        parse_stakes(stakes)
    assert refused.value.field == field, str(refused.value)
