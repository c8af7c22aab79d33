"""The errors the rules core raises: each a ValueError with a sentence a person can read."""

from collections.abc import Iterator
from contextlib import contextmanager


class RulesError(ValueError):
    """Something a rule of the game does not allow. ``field``: the field of the game file's rules
    or stakes to change (``max_cards``, ``per_point``, …), when one is to blame; a form puts the
    message beside it."""

    field: str | None = None


@contextmanager
def about(field: str) -> Iterator[None]:
    """Refusals raised within are about ``field``, unless one names a field of its own already.

    >>> try:
    ...     with about("deal"), about("sequence"):
    ...         raise RulesError("a hand too large")
    ... except RulesError as exc:
    ...     exc.field
    'sequence'
    """
    try:
        yield
    except RulesError as exc:
        if exc.field is None:
            exc.field = field
        raise


class ValueRefused(RulesError):
    """A value from outside out of its bounds (RULES.md §8); the message names it and the bounds."""


class UnknownVariantError(ValueRefused):
    """A preset, pattern, scoring system or other named variant that does not exist."""


class FormulaError(ValueRefused):
    """A house formula that is not arithmetic on numbers and the four names, or can't score a
    deal."""


class RulesConfigError(RulesError):
    """A combination of rule fields that cannot be played (too many cards, a bad formula, ...)."""


class BidError(RulesError):
    """A bid that the bidding rule in force forbids."""


class TricksError(RulesError):
    """Tricks that cannot have been taken (out of range, or not adding up to the cards dealt)."""


class GameError(RulesError):
    """A deal, trump, adjustment or stake that does not fit the game being played."""


class EventError(RulesError):
    """A club night's tables, seating or players that its rules (EVENTS.md) do not allow."""


def sentence(text: str) -> str:
    """A message as a sentence: a capital first letter and a full stop.

    >>> sentence("a whole number is needed, not 'x'")
    "A whole number is needed, not 'x'."
    """
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text[-1:] in ".!?)" else ".")
