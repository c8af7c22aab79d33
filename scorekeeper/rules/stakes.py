"""Stakes (RULES.md §6): exact decimal settlement, nets to the cent, and the fewest payments."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from .errors import GameError

SETTLEMENTS = ("pairwise", "to-winner")
STAKE_FIELDS = ("per_point", "ante", "currency", "settlement", "hard_score_bonus")
CENT = Fraction(1, 100)


@dataclass(frozen=True)
class Stakes:
    """What the table plays for: a rate per point or an ante, and how it is settled."""

    per_point: Decimal | None = None
    ante: Decimal | None = None
    currency: str = ""
    settlement: str = "pairwise"
    hard_score_bonus: Decimal | None = None


@dataclass(frozen=True)
class Payment:
    """One transfer that settles the game: ``payer`` pays ``payee`` ``amount``."""

    payer: int
    payee: int
    amount: Decimal


@dataclass(frozen=True)
class Settlement:
    """Each player's net amount (adding up to exactly zero) and the payments that realise it."""

    currency: str
    net: tuple[Decimal, ...]
    payments: tuple[Payment, ...]


def _decimal(value: object, name: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise GameError(f"stakes: {name} must be a decimal written as a string such as \"0.05\", not {value!r}")
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation:
        raise GameError(f"stakes: {name} must be a decimal such as \"0.05\", not {value!r}") from None
    if not number.is_finite() or number < 0 or number > 1_000_000:
        raise GameError(f"stakes: {name} must be an amount from 0 to 1000000, not {value!r}")
    return number


def parse_stakes(data: Mapping[str, Any]) -> Stakes:
    """Check a stakes object of the game file; per_point and ante are alternatives.

    >>> parse_stakes({"per_point": "0.05", "currency": "EUR"}).per_point
    Decimal('0.05')
    >>> parse_stakes({"per_point": "0.05", "ante": "2"})
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.GameError: stakes: per_point and ante are alternatives: choose one
    """
    if not isinstance(data, Mapping):
        raise GameError("stakes must be an object such as {\"per_point\": \"0.05\"}")
    unknown = sorted(set(data) - set(STAKE_FIELDS))
    if unknown:
        raise GameError(f"stakes: unknown field {unknown[0]!r}; known: {', '.join(STAKE_FIELDS)}")
    per_point = None if data.get("per_point") is None else _decimal(data["per_point"], "per_point")
    ante = None if data.get("ante") is None else _decimal(data["ante"], "ante")
    if per_point is not None and ante is not None:
        raise GameError("stakes: per_point and ante are alternatives: choose one")
    if per_point is None and ante is None:
        raise GameError("stakes: give per_point (a rate per point) or ante (a pool)")
    bonus = data.get("hard_score_bonus")
    if bonus is not None and ante is not None:
        raise GameError("stakes: hard_score_bonus goes with per_point, not with an ante")
    settlement = data.get("settlement", "pairwise")
    if settlement not in SETTLEMENTS:
        raise GameError(f"stakes: unknown settlement {settlement!r}; use pairwise or to-winner")
    currency = data.get("currency", "")
    if not isinstance(currency, str) or len(currency.strip()) > 12:
        raise GameError("stakes: currency must be a short name such as EUR or $")
    return Stakes(per_point, ante, currency.strip(), settlement,
                  None if bonus is None else _decimal(bonus, "hard_score_bonus"))


def round_nets(exact: Sequence[Fraction]) -> list[Decimal]:
    """Round amounts that add up to zero to cents that still add up to exactly zero.

    Each is rounded down, then the missing cents go to the largest remainders.

    >>> [str(x) for x in round_nets([Fraction(1, 3), Fraction(1, 3), Fraction(-2, 3)])]
    ['0.34', '0.33', '-0.67']
    """
    cents = [int((x / CENT) // 1) for x in exact]
    short = -sum(cents) + int(sum(exact) / CENT)
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] / CENT - cents[i]), i))
    for i in order[:short]:
        cents[i] += 1
    return [Decimal(c).scaleb(-2) for c in cents]


def payments(net: Sequence[Decimal]) -> list[Payment]:
    """A short list of payments that reproduces the nets: at most one fewer than the players.

    >>> [(p.payer, p.payee, str(p.amount)) for p in payments([Decimal("5"), Decimal("-3"), Decimal("-2")])]
    [(1, 0, '3'), (2, 0, '2')]
    """
    owed = {i: -amount for i, amount in enumerate(net) if amount < 0}
    due = {i: amount for i, amount in enumerate(net) if amount > 0}
    result: list[Payment] = []
    while owed and due:
        payer = max(owed, key=lambda i: (owed[i], -i))
        payee = max(due, key=lambda i: (due[i], -i))
        amount = min(owed[payer], due[payee])
        result.append(Payment(payer, payee, amount))
        for book, who in ((owed, payer), (due, payee)):
            book[who] -= amount
            if book[who] == 0:
                del book[who]
    return result


def settle(stakes: Stakes, totals: Sequence[int | Fraction], winners: Sequence[int], wins: str) -> Settlement:
    """Settle a finished game from its final totals (scratches for scratch scoring).

    ``wins`` is "highest", "lowest" or "scratch"; for the last two differences are reversed.

    >>> s = settle(Stakes(per_point=Decimal("0.10")), [Fraction(30), Fraction(20), Fraction(10)], [0], "highest")
    >>> [str(x) for x in s.net]
    ['3.00', '0.00', '-3.00']
    """
    players = len(totals)
    sign = 1 if wins == "highest" else -1
    scores = [sign * Fraction(t) for t in totals]
    if stakes.ante is not None:
        pool = Fraction(stakes.ante) * players
        exact = [pool / len(winners) * (i in winners) - Fraction(stakes.ante) for i in range(players)]
    else:
        rate = Fraction(stakes.per_point or 0)
        if stakes.hard_score_bonus is not None:
            for w in winners:
                scores[w] += Fraction(stakes.hard_score_bonus)
        if stakes.settlement == "pairwise":
            exact = [rate * sum(scores[i] - scores[j] for j in range(players)) for i in range(players)]
        else:
            exact = [Fraction(0)] * players
            for i in range(players):
                if i in winners:
                    continue
                for w in winners:
                    share = rate * (scores[w] - scores[i]) / len(winners)
                    exact[i] -= share
                    exact[w] += share
    net = round_nets(exact)
    return Settlement(stakes.currency, tuple(net), tuple(payments(net)))
