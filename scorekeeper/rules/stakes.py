"""Stakes (RULES.md §6): exact decimal settlement, nets to the cent, and the fewest payments."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from . import values
from .errors import GameError, about
from .words import N_, _

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


#: What each amount of the stakes may be (RULES.md §8): (least, most, decimals).
AMOUNTS = {"per_point": (Decimal("0.0001"), Decimal(1000), 4),
           "ante": (Decimal("0.01"), Decimal(100_000), 2)}
MAX_BONUS = 1000
#: Each field of the stakes in a player's words (translated with ``_`` where shown).
LABELS = {"per_point": N_("The stake per point"), "ante": N_("The ante"),
          "hard_score_bonus": N_("The hard-score bonus"), "currency": N_("The currency"),
          "settlement": N_("The settlement")}


def _label(name: str) -> Callable[[], str]:
    """A field's label as a message says it, in the language of the moment it is said."""
    return lambda: _(LABELS[name])


def parse_stakes(data: object) -> Stakes:
    """Check a stakes object of the game file; per_point and ante are alternatives.

    >>> parse_stakes({"per_point": "0.05", "currency": "EUR"}).per_point
    Decimal('0.05')
    >>> parse_stakes({"per_point": "0.05", "ante": "2"})
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.GameError: Stakes: a stake per point and an ante are alternatives:
    choose one
    """
    if not isinstance(data, Mapping):
        raise GameError(_("stakes must be an object such as {\"per_point\": \"0.05\"}"))
    values.fields(data, STAKE_FIELDS, "stakes")
    amounts = {}
    for name, bounds in AMOUNTS.items():
        if data.get(name) is not None:
            with about(name):
                amounts[name] = values.decimal(data[name], _label(name), *bounds)
    per_point, ante = amounts.get("per_point"), amounts.get("ante")
    with about("per_point"):
        if per_point is not None and ante is not None:
            raise GameError(_("Stakes: a stake per point and an ante are alternatives: choose one"))
        if per_point is None and ante is None:
            raise GameError(_("Stakes: give a stake per point or an ante (a pool)"))
    bonus = data.get("hard_score_bonus")
    with about("hard_score_bonus"):
        if bonus is not None and ante is not None:
            raise GameError(_("Stakes: the hard-score bonus goes with a stake per point, "
                              "not with an ante"))
    with about("settlement"):
        settlement = values.choice(data.get("settlement", "pairwise"), _label("settlement"),
                                   SETTLEMENTS)
    with about("currency"):
        sign = currency(data.get("currency", ""))
    with about("hard_score_bonus"):
        hard = (None if bonus is None
                else Decimal(values.whole(bonus, _label("hard_score_bonus"), 0, MAX_BONUS)))
    return Stakes(per_point, ante, sign, settlement, hard)


def currency(value: object) -> str:
    """A currency: an ISO 4217 code such as EUR, or a sign of at most 3 characters such as € or kr.

    >>> currency(" EUR "), currency("€"), currency("")
    ('EUR', '€', '')
    """
    text = values.text(value, _label("currency"), 3)
    if any(char.isspace() for char in text):
        raise GameError(_("%(what)s must be a code such as EUR or a sign such as €, without spaces",
                          what=_(LABELS["currency"])))
    return text


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

    >>> [(p.payer, p.payee, str(p.amount))
    ...  for p in payments([Decimal("5"), Decimal("-3"), Decimal("-2")])]
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


def settle(stakes: Stakes, totals: Sequence[int | Fraction], winners: Sequence[int],
           wins: str) -> Settlement:
    """Settle a finished game from its final totals (scratches for scratch scoring).

    ``wins`` is "highest", "lowest" or "scratch"; for the last two differences are reversed.

    >>> s = settle(Stakes(per_point=Decimal("0.10")), [Fraction(30), Fraction(20), Fraction(10)],
    ...            [0], "highest")
    >>> [str(x) for x in s.net]
    ['3.00', '0.00', '-3.00']
    """
    players = len(totals)
    sign = 1 if wins == "highest" else -1
    scores = [sign * Fraction(t) for t in totals]
    if stakes.ante is not None:
        pool = Fraction(stakes.ante) * players
        exact = [pool / len(winners) * (i in winners) - Fraction(stakes.ante)
                 for i in range(players)]
    else:
        rate = Fraction(stakes.per_point or 0)
        if stakes.hard_score_bonus is not None:
            for w in winners:
                scores[w] += Fraction(stakes.hard_score_bonus)
        if stakes.settlement == "pairwise":
            exact = [rate * sum(scores[i] - scores[j] for j in range(players))
                     for i in range(players)]
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
