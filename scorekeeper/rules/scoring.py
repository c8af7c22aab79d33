"""Scoring systems (RULES.md §3): points for one player in one deal, with the modifiers."""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .errors import RulesConfigError, UnknownVariantError

#: Points are whole numbers, or exact fractions (trick scoring's ½, house formulas).
Points = int | Fraction
#: A score formula over (bid, tricks, cards, players).
Formula = Callable[[int, int, int, int], Points]


def whole(value: Fraction) -> Points:
    """A fraction as an int when it is whole: ints keep the arithmetic of a game fast.

    >>> whole(Fraction(4, 2)), whole(Fraction(1, 2))
    (2, Fraction(1, 2))
    """
    return value.numerator if value.denominator == 1 else value


@dataclass(frozen=True)
class System:
    """A scoring system: what a made and a missed bid score, and who wins."""

    id: str
    made: Formula
    missed: Formula
    wins: str  # "highest", "lowest" or "scratch" (fewest scratches)
    words: str

    @property
    def has_made_score(self) -> bool:
        """Whether modifiers (zero_bid, spades_double) make sense: a made bid scores something."""
        return self.wins == "highest" or self.id == "custom"


def _d(b: int, t: int) -> int:
    return abs(t - b)


SYSTEMS: dict[str, System] = {
    s.id: s
    for s in (
        System("common", (lambda b, t, n, p: t + 10), (lambda b, t, n, p: t), "highest",
               "made: 10 + tricks; missed: 1 per trick"),
        System("exact", (lambda b, t, n, p: 10 + t), (lambda b, t, n, p: 0), "highest",
               "made: 10 + tricks; missed: 0"),
        System("binary", (lambda b, t, n, p: 10), (lambda b, t, n, p: 0), "highest",
               "made: 10; missed: 0"),
        System("exact-penalty", (lambda b, t, n, p: 10 + b), (lambda b, t, n, p: -b), "highest",
               "made: 10 + bid; missed: minus the bid"),
        System("cypriot", (lambda b, t, n, p: 10 + 5 * b),
               (lambda b, t, n, p: -10 if b == 0 else -5 * b), "highest",
               "made: 10 + 5 × bid; missed: −5 × bid, a missed zero bid −10"),
        System("set-penalty", (lambda b, t, n, p: 10 + b),
               (lambda b, t, n, p: t if t > b else -10), "highest",
               "made: 10 + bid; over: 1 per trick; under: −10"),
        System("progressive-penalty", (lambda b, t, n, p: 10 + b),
               (lambda b, t, n, p: -(b + 10 * _d(b, t))), "highest",
               "made: 10 + bid; missed: −(bid + 10 per trick off)"),
        System("progressive", (lambda b, t, n, p: 10 + b * b), (lambda b, t, n, p: t), "highest",
               "made: 10 + bid²; missed: 1 per trick"),
        System("montreal", (lambda b, t, n, p: 10 + 2 * t), (lambda b, t, n, p: 0), "highest",
               "made: 10 + 2 per trick; missed: 0"),
        System("adjusted-exact", (lambda b, t, n, p: b + n), (lambda b, t, n, p: 0), "highest",
               "made: bid + cards dealt; missed: 0"),
        System("get-fred", (lambda b, t, n, p: 10 + b), (lambda b, t, n, p: -_d(b, t)), "highest",
               "made: 10 + bid; missed: −1 per trick off"),
        System("oy-vey", (lambda b, t, n, p: 10 + b * b), (lambda b, t, n, p: -_d(b, t)), "highest",
               "made: 10 + bid²; missed: −1 per trick off"),
        System("trick", lambda b, t, n, p: Fraction(1, 2) if b == 0 else b,
               (lambda b, t, n, p: -_d(b, t)), "highest",
               "made: the bid, a made zero bid ½; missed: −1 per trick off"),
        System("binary-nil", (lambda b, t, n, p: 20 if b == 0 and n > p else 10),
               (lambda b, t, n, p: -10 if b == 0 and n > p else 0), "highest",
               "made: 10; with more cards than players a zero bid scores 20 made, −10 missed"),
        System("ten-per-trick", (lambda b, t, n, p: 10 if b == 0 else 10 * b),
               (lambda b, t, n, p: -10 * _d(b, t)), "highest",
               "made: 10 per trick bid, a made zero bid 10; missed: −10 per trick off"),
        System("oh-sh", (lambda b, t, n, p: 10 + 3 * b),
               (lambda b, t, n, p: -5 if b == 0 else -3 * b), "highest",
               "made: 10 + 3 × bid; missed: −3 × bid, a missed zero bid −5"),
        System("high-incentive", (lambda b, t, n, p: 10 * (b + 1) + b),
               (lambda b, t, n, p: -_d(b, t)), "highest",
               "made: 10 × (bid + 1) + bid; missed: −1 per trick off"),
        System("vlaams", (lambda b, t, n, p: 10 + 3 * t), (lambda b, t, n, p: 0), "highest",
               "made: 10 + 3 per trick; missed: 0"),
        System("nederlands", (lambda b, t, n, p: 10 + 3 * t),
               (lambda b, t, n, p: -3 * _d(b, t)), "highest",
               "made: 10 + 3 per trick; missed: −3 per trick off"),
        System("negative", (lambda b, t, n, p: 0),
               (lambda b, t, n, p: _d(b, t) * (_d(b, t) + 1) // 2), "lowest",
               "made: 0; missed: 1 + 2 + … per trick off; lowest total wins"),
        System("negative-squared", (lambda b, t, n, p: 0), (lambda b, t, n, p: _d(b, t) ** 2),
               "lowest", "made: 0; missed: (tricks off)²; lowest total wins"),
        System("scratch", (lambda b, t, n, p: 0), (lambda b, t, n, p: 1), "scratch",
               "a missed bid is a scratch; fewest scratches wins, a tie goes to the higher sum of made bids"),
    )
}

WINS = ("highest", "lowest")
#: The most points a formula may give for one deal (as for an adjustment in a game file).
MAX_FORMULA_POINTS = 10**9
_OPS = {"×": "*", "÷": "/", "−": "-", "²": "**2"}
_FUNCTIONS: dict[str, Callable[..., object]] = {"abs": abs, "min": min, "max": max}
_NAMES = ("bid", "tricks", "cards", "players")


def find_system(name: str) -> System:
    """The scoring system called ``name``; a ValueError names an unknown one.

    >>> find_system("common").made(3, 3, 7, 4)
    13
    >>> find_system("golf")
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.UnknownVariantError: Unknown scoring system 'golf'; ...
    """
    try:
        return SYSTEMS[name]
    except (KeyError, TypeError):  # TypeError: a list or an object is no name
        known = ", ".join([*SYSTEMS, "custom"])
        raise UnknownVariantError(f"Unknown scoring system {name!r}; known: {known}.") from None


def _power(base: Any, exponent: Any) -> Any:
    """``**`` for formulas: simpleeval allows exponents up to four million, i.e. numbers of
    millions of digits and seconds of work per score, so powers are kept to score-sized ones."""
    if abs(exponent) > 100 or abs(base) > MAX_FORMULA_POINTS:
        raise ValueError("that power is far too large to be a score")
    return base**exponent


def _to_fraction(value: object, formula: str) -> Fraction:
    if isinstance(value, bool):
        result = Fraction(int(value))
    elif isinstance(value, int):
        result = Fraction(value)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise RulesConfigError(f"The formula {formula!r} does not give a finite number.")
        result = Fraction(value).limit_denominator(1000)
    else:
        raise RulesConfigError(f"The formula {formula!r} must give a number, not {type(value).__name__}.")
    if abs(result) > MAX_FORMULA_POINTS:
        raise RulesConfigError(
            f"The formula {formula!r} gives more than {MAX_FORMULA_POINTS} points, too many for a deal."
        )
    return result


def compile_formula(text: str, label: str) -> Formula:
    """Check a house formula over bid, tricks, cards, players and return it as a function.

    It is evaluated by simpleeval (never Python's eval), allowing + − × ÷, powers,
    comparisons, ``abs``, ``min`` and ``max``; it is tried on small deals at once, so
    a formula that divides by zero or names something unknown is refused here.

    >>> compile_formula("10 + bid * 2", "made")(3, 3, 5, 4)
    16
    >>> compile_formula("__import__('os')", "made")
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.RulesConfigError: The made formula "__import__('os')" can't be used: ...
    """
    from simpleeval import DEFAULT_OPERATORS, SimpleEval

    source = str(text).strip()
    for sign, op in _OPS.items():
        source = source.replace(sign, op)
    if not source or len(source) > 200:
        raise RulesConfigError(f"The {label} formula must be 1 to 200 characters long.")
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError:
        tree = None
    # Attributes (bid.real, cards.to_bytes(...)) are no part of a formula, and methods of
    # numbers can allocate without bound.
    if tree is None or any(isinstance(node, ast.Attribute) for node in ast.walk(tree)):
        raise RulesConfigError(
            f"The {label} formula {text!r} is not a formula: use bid, tricks, cards, players, "
            "numbers, + - * / ** ( ), comparisons, abs, min, max."
        )
    operators = {**DEFAULT_OPERATORS, ast.Pow: _power}

    def formula(b: int, t: int, n: int, p: int) -> Points:
        evaluator = SimpleEval(operators=operators, names=dict(zip(_NAMES, (b, t, n, p))),
                               functions=_FUNCTIONS)
        try:
            return whole(_to_fraction(evaluator.eval(source), text))
        except RulesConfigError:
            raise
        except ZeroDivisionError:
            raise RulesConfigError(
                f"The {label} formula {text!r} divides by zero for bid {b}, tricks {t}, cards {n}."
            ) from None
        except Exception as exc:  # noqa: BLE001 - simpleeval raises many kinds; each means "not allowed"
            raise RulesConfigError(f"The {label} formula {text!r} can't be used: {exc}.") from None

    for n in (1, 2, 3):
        for b in range(n + 1):
            for t in range(n + 1):
                formula(b, t, n, 4)
    return formula


def custom_system(made: str, missed: str, wins: str = "highest") -> System:
    """A house scoring system from two formulas; refused when either is invalid or unsafe."""
    if wins not in WINS:
        raise UnknownVariantError(f"Unknown winning direction {wins!r}; use highest or lowest.")
    return System(
        "custom", compile_formula(made, "made"), compile_formula(missed, "missed"), wins,
        f"made: {made}; missed: {missed}; {wins} total wins",
    )


def zero_bid_value(value: str | float, cards: int) -> Points:
    """What a made zero bid scores under the ``zero_bid`` modifier: a number or ``5+n``.

    >>> zero_bid_value("5+n", 7), zero_bid_value(5, 7)
    (12, 5)
    """
    if isinstance(value, str):
        text = value.replace(" ", "").lower()
        if text.endswith("+n"):
            return whole(Fraction(text[:-2]) + cards)
        return whole(Fraction(text))
    return whole(Fraction(value).limit_denominator(1000))


def check_zero_bid(value: object) -> None:
    """Refuse a zero_bid that is neither a number nor ``<number>+n``."""
    refused = RulesConfigError(f"zero_bid must be a number such as 5 or 10, or 5+n; {value!r} is neither.")
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise refused
    try:
        zero_bid_value(value, 1)
    except (ValueError, ZeroDivisionError, OverflowError):
        raise refused from None


def deal_points(
    system: System | None,
    bids: Sequence[int],
    tricks: Sequence[int],
    cards: int,
    *,
    zero_bid: str | float | None = None,
    doubled: bool = False,
) -> list[Points]:
    """Points of every player for one finished deal (all zeros when nothing is scored).

    >>> [str(x) for x in deal_points(find_system("common"), [3, 1], [3, 0], 3)]
    ['13', '0']
    >>> [str(x) for x in deal_points(find_system("common"), [0, 2], [0, 3], 3, zero_bid=5, doubled=True)]
    ['10', '6']
    """
    if system is None:
        return [0] * len(bids)
    players = len(bids)
    if zero_bid is None and not doubled:
        made, missed = system.made, system.missed
        return [made(b, t, cards, players) if b == t else missed(b, t, cards, players) for b, t in zip(bids, tricks)]
    points: list[Points] = []
    for b, t in zip(bids, tricks):
        if b == t and b == 0 and zero_bid is not None:
            value = zero_bid_value(zero_bid, cards)
        elif b == t:
            value = system.made(b, t, cards, players)
        else:
            value = system.missed(b, t, cards, players)
        points.append(value * 2 if doubled else value)
    return points
