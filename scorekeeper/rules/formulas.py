"""House formulas (RULES.md §3): arithmetic on numbers and bid, tricks, cards, players, compiled
into a function that works each deal out exactly, with a bound on what working one out may cost.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any, NamedTuple

from . import words
from .errors import FormulaError
from .values import MAX_DENOMINATOR, MAX_FORMULA, MAX_FORMULA_POINTS, NUMBER_CHARS, Points, shown
from .words import _

# ---------------------------------------------------------------------------------------------
# House formulas: arithmetic on numbers and bid, tricks, cards, players, compiled into a function.

#: The names a formula may use, in the order a compiled formula takes them.
FORMULA_NAMES = ("bid", "tricks", "cards", "players")
#: A compiled formula: (bid, tricks, cards, players) → a number.
Formula = Callable[[int, int, int, int], Points]
_Node = Callable[[Sequence[int]], Any]
_NUMBER_LITERAL = re.compile(r"[0-9]+(?:\.[0-9]+)?")
_SIGNS = {"×": "*", "÷": "/", "−": "-", "²": "**2"}
_MAX_EXPONENT = 100
#: The most bits of an exact power's numerator or denominator: about 120 digits.
_MAX_POWER_BITS = 400


def _divide(a: Any, b: Any) -> Any:
    """Exact division: whole numbers give a fraction, not a float."""
    if type(a) is int and type(b) is int:
        quotient = Fraction(a, b)
        return quotient.numerator if quotient.denominator == 1 else quotient
    return a / b


def _power(a: Any, b: Any) -> Any:
    """A power of score size: a huge exponent or base, or an exact result of more than about 120
    digits (a tiny fraction's power too), would take seconds and gigabytes."""
    if abs(b) > _MAX_EXPONENT or abs(a) > MAX_FORMULA_POINTS * 1000:
        raise ArithmeticError(_("that power is far too large to be a score"))
    if type(a) is int and type(b) is int and b >= 0:  # the usual bid ** 2, without making fractions
        if abs(a).bit_length() * b > _MAX_POWER_BITS:
            raise ArithmeticError(_("that power is far too large to be a score"))
        return a**b
    if (isinstance(a, int | Fraction) and isinstance(b, int | Fraction)
            and Fraction(b).denominator == 1):
        base, exponent = Fraction(a), abs(Fraction(b).numerator)
        if max(abs(base.numerator), base.denominator).bit_length() * exponent > _MAX_POWER_BITS:
            raise ArithmeticError(_("that power is far too large to be a score"))
    result = a**b
    if isinstance(result, complex):
        raise ArithmeticError(_("that power is not a real number"))  # noqa: TRY004 - a number, of the wrong kind
    return result


_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: _divide,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: _power,
}
_UNARY: dict[type[ast.unaryop], Callable[[Any], Any]] = {ast.USub: operator.neg,
                                                         ast.UAdd: operator.pos}
_COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], bool]] = {
    ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
    ast.Eq: operator.eq, ast.NotEq: operator.ne,
}
_FUNCTIONS: dict[str, tuple[Callable[..., Any], int, int]] = {
    "abs": (abs, 1, 1), "min": (min, 2, 20), "max": (max, 2, 20),
}
#: What one step of a formula costs to work out, in nanoseconds on one core of the machine of
#: docs/benchmarks.md (measured with bench/worst_cases.py, rounded up): whole-number arithmetic,
#: a number or a name; a call (abs, min, max, a comparison, a whole number's power such as
#: bid ** 2); a step that may give a fraction (exact, with its greatest common divisors); any
#: other power.
STEP_COSTS = {"whole": 150, "call": 3000, "fraction": 6000, "power": 12_000}


class _Compiled(NamedTuple):
    """A formula's node as a function of the four values, what one evaluation of it costs
    (``STEP_COSTS``), and whether its value may be a fraction."""

    function: _Node
    cost: int
    fraction: bool


def _step(kind: str, *parts: _Compiled) -> int:
    return STEP_COSTS[kind] + sum(part.cost for part in parts)


def _compile_node(node: ast.AST, source: str) -> _Compiled:
    """A formula's node as a function of the four values; FormulaError for anything but
    arithmetic."""
    if isinstance(node, ast.Constant):
        literal = ast.get_source_segment(source, node) or ""
        if type(node.value) not in (int, float) or not _NUMBER_LITERAL.fullmatch(literal) \
                or len(literal) > NUMBER_CHARS:
            raise FormulaError(_("%(value)s is not a number such as 10 or 2.5",
                                 value=shown(literal or node.value)))
        number = Fraction(literal)
        value = number.numerator if number.denominator == 1 else number
        return _Compiled(lambda v: value, STEP_COSTS["whole"], number.denominator != 1)
    if isinstance(node, ast.Name) and node.id in FORMULA_NAMES:
        index = FORMULA_NAMES.index(node.id)
        return _Compiled(lambda v: v[index], STEP_COSTS["whole"], False)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        op, left, right = (_BINARY[type(node.op)], _compile_node(node.left, source),
                           _compile_node(node.right, source))
        left_value, right_value = left.function, right.function
        # A whole number to the power of a number written as a whole one (bid ** 2) is whole.
        whole_power = isinstance(node.op, ast.Pow) and isinstance(node.right, ast.Constant) \
            and not left.fraction and not right.fraction
        fraction = (left.fraction or right.fraction
                    or (isinstance(node.op, ast.Div | ast.Pow) and not whole_power))
        kind = "call" if whole_power else "power" if isinstance(node.op, ast.Pow) else \
            "fraction" if fraction else "whole"
        return _Compiled(lambda v: op(left_value(v), right_value(v)), _step(kind, left, right),
                         fraction)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        unary, inner = _UNARY[type(node.op)], _compile_node(node.operand, source)
        inner_value = inner.function
        return _Compiled(lambda v: unary(inner_value(v)),
                         _step("fraction" if inner.fraction else "whole", inner), inner.fraction)
    if isinstance(node, ast.Compare) and all(type(op) in _COMPARE for op in node.ops):
        terms = [_compile_node(term, source) for term in (node.left, *node.comparators)]
        values = [term.function for term in terms]
        tests = [_COMPARE[type(op)] for op in node.ops]

        def compare(v: Sequence[int]) -> int:
            found = [value(v) for value in values]
            return int(all(test(a, b) for test, a, b in zip(tests, found, found[1:])))

        return _Compiled(compare, _step("fraction" if any(t.fraction for t in terms) else "call",
                                        *terms), False)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in _FUNCTIONS
            and not node.keywords and not any(isinstance(arg, ast.Starred) for arg in node.args)):
        function, fewest, most = _FUNCTIONS[node.func.id]
        if not fewest <= len(node.args) <= most:
            raise FormulaError(_("%(function)s() takes %(fewest)s to %(most)s numbers",
                                 function=node.func.id, fewest=fewest, most=most) if fewest != most
                               else _("%(function)s() takes one number", function=node.func.id))
        args = [_compile_node(arg, source) for arg in node.args]
        arg_values = [arg.function for arg in args]
        fraction = any(arg.fraction for arg in args)
        return _Compiled(lambda v: function(*(arg(v) for arg in arg_values)),
                         _step("fraction" if fraction else "call", *args), fraction)
    if isinstance(node, ast.Name):
        raise FormulaError(_("%(name)s is not known: use bid, tricks, cards and players",
                             name=repr(node.id)))
    raise FormulaError(_("only numbers, bid, tricks, cards, players, + - * / ** ( ), comparisons, "
                         "abs, min and max can be used"))


class HouseFormula:
    """A house formula compiled into a function of (bid, tricks, cards, players), with what one
    evaluation of it costs (``STEP_COSTS``): checking it over a schedule is bounded by that.
    ``worked_out`` is the same function without the memory of the values a game asked for."""

    def __init__(self, score: Callable[[int, int, int, int], Points],
                 worked_out: Callable[[int, int, int, int], Points], cost: int) -> None:
        self.score, self.worked_out, self.cost = score, worked_out, cost

    def __call__(self, bid: int, tricks: int, cards: int, players: int) -> Points:
        """The points of one player in one deal."""
        return self.score(bid, tricks, cards, players)


def formula(value: object, what: str) -> HouseFormula:
    """A house formula over bid, tricks, cards and players, compiled into a function of them.

    ``×``, ``÷``, ``−`` and ``²`` may be typed as such. Division is exact; the result is a whole
    number or a fraction with a denominator of at most 1000 (a finer fraction, or a float result,
    is rounded to thousandths). ``what`` is a name marked with ``N_`` (such as "The made formula"),
    translated when a message says it: a compiled formula is kept, and may be refused in any
    language.

    >>> formula("10 + bid × 2", "The made formula")(3, 3, 5, 4)
    16
    >>> formula("tricks / 2", "The made formula")(3, 3, 5, 4)
    Fraction(3, 2)
    >>> formula("('%0999999999d' % 1) < '2'", "The made formula")
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.FormulaError: The made formula "('%0999999999d' % 1) < '2'"
    can't be used: "'%0999999999d'" is not a number such as 10 or 2.5
    """
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > MAX_FORMULA:
        raise FormulaError(_("%(what)s must be a formula of 1 to %(most)s characters, "
                             "such as 10 + bid", what=_(what), most=MAX_FORMULA))
    source = value.strip()
    for sign, written in _SIGNS.items():
        source = source.replace(sign, written)
    try:
        tree = ast.parse(source, mode="eval")
        body = _compile_node(tree.body, source)
        node = body.function
    except FormulaError as exc:
        raise FormulaError(_("%(what)s %(formula)s can't be used: %(why)s", what=_(what),
                             formula=repr(value.strip()), why=exc)) from None
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise FormulaError(_("%(what)s %(formula)s is not a formula: use bid, tricks, cards, "
                             "players, numbers, + - * / ** ( ), comparisons, abs, min, max",
                             what=_(what), formula=repr(value.strip()))) from None
    written = repr(value.strip())

    def label() -> str:
        return _("%(what)s %(formula)s", what=_(what), formula=written)

    def worked_out(bid: int, tricks: int, cards: int, players: int) -> Points:
        try:
            return _score(node((bid, tricks, cards, players)), label)
        except ZeroDivisionError:
            raise FormulaError(_("%(formula)s divides by zero for bid %(bid)s, tricks %(tricks)s, "
                                 "cards %(cards)s", formula=label(), bid=bid, tricks=tricks,
                                 cards=cards)) from None
        except (ArithmeticError, ValueError, TypeError) as exc:
            raise FormulaError(_("%(formula)s can't be worked out for bid %(bid)s, "
                                 "tricks %(tricks)s, cards %(cards)s: %(why)s",
                                 formula=label(), bid=bid, tricks=tricks, cards=cards,
                                 why=exc)) from None

    # A game asks the same few (bid, tricks, cards, players) again and again: each is worked out
    # once.
    return HouseFormula(lru_cache(maxsize=4096)(worked_out), worked_out, body.cost)


def _score(result: Any, label: Callable[[], str]) -> Points:
    """A formula's result as points: a whole number or a fraction of at most a million in size, with
    a denominator of at most 1000 (a finer fraction, or a float, is rounded to thousandths)."""
    if isinstance(result, float):
        if not math.isfinite(result):
            raise FormulaError(_("%(formula)s does not give a finite number", formula=label()))
        result = Fraction(result)
    if isinstance(result, Fraction):
        # Totals of finer ones could grow to huge fractions
        if result.denominator > MAX_DENOMINATOR:
            result = Fraction(round(result * MAX_DENOMINATOR), MAX_DENOMINATOR)
        result = result.numerator if result.denominator == 1 else result
    if abs(result) > MAX_FORMULA_POINTS:
        raise FormulaError(_("%(formula)s gives more than %(most)s points, too many for a deal",
                             formula=label(), most=words.number(MAX_FORMULA_POINTS)))
    points: Points = result
    return points
