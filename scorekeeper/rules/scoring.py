"""Scoring systems (RULES.md §3): points for one player in one deal, with the modifiers."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from . import values, words
from .errors import FormulaError, UnknownVariantError, ValueRefused, about
from .formulas import HouseFormula, formula
from .values import refuse, shown
from .words import N_, _

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
    words: str  # in English, marked with N_ (a house system's: its formulas, as they were typed)
    #: A house system's made and missed formulas, as they were typed.
    formulas: tuple[str, str] = ("", "")

    def described(self) -> str:
        """The system in a player's words, in the current language (a house system's formulas as
        typed).

        >>> find_system("exact").described(), custom_system("10 + bid", "0", "lowest").described()
        ('made: 10 + tricks; missed: 0', 'made: 10 + bid; missed: 0; lowest total wins')
        """
        if self.id != "custom":
            return _(self.words)
        made, missed = self.formulas
        if self.wins == "lowest":
            return _("made: %(made)s; missed: %(missed)s; lowest total wins", made=made,
                     missed=missed)
        return _("made: %(made)s; missed: %(missed)s; highest total wins", made=made, missed=missed)

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
               N_("made: 10 + tricks; missed: 1 per trick")),
        System("exact", (lambda b, t, n, p: 10 + t), (lambda b, t, n, p: 0), "highest",
               N_("made: 10 + tricks; missed: 0")),
        System("binary", (lambda b, t, n, p: 10), (lambda b, t, n, p: 0), "highest",
               N_("made: 10; missed: 0")),
        System("exact-penalty", (lambda b, t, n, p: 10 + b), (lambda b, t, n, p: -b), "highest",
               N_("made: 10 + bid; missed: minus the bid")),
        System("cypriot", (lambda b, t, n, p: 10 + 5 * b),
               (lambda b, t, n, p: -10 if b == 0 else -5 * b), "highest",
               N_("made: 10 + 5 × bid; missed: −5 × bid, a missed zero bid −10")),
        System("set-penalty", (lambda b, t, n, p: 10 + b),
               (lambda b, t, n, p: t if t > b else -10), "highest",
               N_("made: 10 + bid; over: 1 per trick; under: −10")),
        System("progressive-penalty", (lambda b, t, n, p: 10 + b),
               (lambda b, t, n, p: -(b + 10 * _d(b, t))), "highest",
               N_("made: 10 + bid; missed: −(bid + 10 per trick off)")),
        System("progressive", (lambda b, t, n, p: 10 + b * b), (lambda b, t, n, p: t), "highest",
               N_("made: 10 + bid²; missed: 1 per trick")),
        System("montreal", (lambda b, t, n, p: 10 + 2 * t), (lambda b, t, n, p: 0), "highest",
               N_("made: 10 + 2 per trick; missed: 0")),
        System("adjusted-exact", (lambda b, t, n, p: b + n), (lambda b, t, n, p: 0), "highest",
               N_("made: bid + cards dealt; missed: 0")),
        System("get-fred", (lambda b, t, n, p: 10 + b), (lambda b, t, n, p: -_d(b, t)), "highest",
               N_("made: 10 + bid; missed: −1 per trick off")),
        System("oy-vey", (lambda b, t, n, p: 10 + b * b), (lambda b, t, n, p: -_d(b, t)), "highest",
               N_("made: 10 + bid²; missed: −1 per trick off")),
        System("trick", lambda b, t, n, p: Fraction(1, 2) if b == 0 else b,
               (lambda b, t, n, p: -_d(b, t)), "highest",
               N_("made: the bid, a made zero bid ½; missed: −1 per trick off")),
        System("binary-nil", (lambda b, t, n, p: 20 if b == 0 and n > p else 10),
               (lambda b, t, n, p: -10 if b == 0 and n > p else 0), "highest",
               N_("made: 10; with more cards than players a zero bid scores 20 made, −10 missed")),
        System("ten-per-trick", (lambda b, t, n, p: 10 if b == 0 else 10 * b),
               (lambda b, t, n, p: -10 * _d(b, t)), "highest",
               N_("made: 10 per trick bid, a made zero bid 10; missed: −10 per trick off")),
        System("oh-sh", (lambda b, t, n, p: 10 + 3 * b),
               (lambda b, t, n, p: -5 if b == 0 else -3 * b), "highest",
               N_("made: 10 + 3 × bid; missed: −3 × bid, a missed zero bid −5")),
        System("high-incentive", (lambda b, t, n, p: 10 * (b + 1) + b),
               (lambda b, t, n, p: -_d(b, t)), "highest",
               N_("made: 10 × (bid + 1) + bid; missed: −1 per trick off")),
        System("vlaams", (lambda b, t, n, p: 10 + 3 * t), (lambda b, t, n, p: 0), "highest",
               N_("made: 10 + 3 per trick; missed: 0")),
        System("nederlands", (lambda b, t, n, p: 10 + 3 * t),
               (lambda b, t, n, p: -3 * _d(b, t)), "highest",
               N_("made: 10 + 3 per trick; missed: −3 per trick off")),
        System("negative", (lambda b, t, n, p: 0),
               (lambda b, t, n, p: _d(b, t) * (_d(b, t) + 1) // 2), "lowest",
               N_("made: 0; missed: 1 + 2 + … per trick off; lowest total wins")),
        System("negative-squared", (lambda b, t, n, p: 0), (lambda b, t, n, p: _d(b, t) ** 2),
               "lowest", N_("made: 0; missed: (tricks off)²; lowest total wins")),
        System("scratch", (lambda b, t, n, p: 0), (lambda b, t, n, p: 1), "scratch",
               N_("a missed bid is a scratch; fewest scratches wins, "
                  "a tie goes to the higher sum of made bids")),
    )
}

WINS = ("highest", "lowest")
#: The least and most a made zero bid may score under the zero_bid modifier.
ZERO_BID_BOUNDS = (-1000, 1000)


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
        raise UnknownVariantError(_("Unknown scoring system %(name)s; known: %(known)s.",
                                    name=shown(name), known=known)) from None


def custom_system(made: object, missed: object, wins: str = "highest") -> System:
    """A house scoring system from two formulas; refused when either is not arithmetic. The same
    formulas give the same System (made once per worker), so each is checked once per hand size.

    >>> custom_system("10 + bid * 2", "-abs(tricks - bid)").made(3, 3, 5, 4)
    16
    >>> custom_system("10 + bid", "0") is custom_system("10 + bid", "0")
    True
    >>> custom_system("__import__('os')", "0")
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.FormulaError: The made formula "__import__('os')" can't be used: ...
    """
    if wins not in WINS:
        raise UnknownVariantError(_("Unknown winning direction %(wins)s; use highest or lowest.",
                                    wins=shown(wins)))
    if isinstance(made, str) and isinstance(missed, str):
        return _custom(made, missed, wins)
    return _custom.__wrapped__(made, missed, wins)


@lru_cache(maxsize=64)
def _custom(made: object, missed: object, wins: str) -> System:
    with about("made"):
        made_formula = formula(made, N_("The made formula"))
    with about("missed"):
        missed_formula = formula(missed, N_("The missed formula"))
    made_text, missed_text = str(made).strip(), str(missed).strip()
    return System("custom", made_formula, missed_formula, wins,
                  f"made: {made_text}; missed: {missed_text}; {wins} total wins",
                  (made_text, missed_text))


#: The most work checking a house system over a game's hand sizes may take, in nanoseconds as
#: ``formulas.STEP_COSTS`` counts them (rounded up): 1.5 s, well under a second measured on one core
#: (docs/benchmarks.md). Hands of up to 52 cards are checked for 51,038 bids and trick counts: two
#: formulas of 200 characters of whole-number arithmetic pass, a missed formula of more than five
#: steps with fractions (three divisions and their sums, say) does not.
MAX_CHECK_COST = 1_500_000_000


def check_cost(system: System, sizes: Iterable[int]) -> int:
    """What checking a house system for these hand sizes costs: one made score per bid, one
    missed score per bid and other trick count, each as costly as its formula.

    >>> check_cost(custom_system("10 + bid", "0"),
    ...            [1, 2])  # made: 2 + 3 scores at 450, missed: 2 + 6 at 150
    3450
    """
    made, missed = system.made, system.missed
    assert isinstance(made, HouseFormula) and isinstance(missed, HouseFormula)
    cards = set(sizes)
    return (made.cost * sum(size + 1 for size in cards)
            + missed.cost * sum((size + 1) * size for size in cards))


#: The most work checking house systems may take in one request that replays many games (a
#: backup's restore): as much as one game's check may take, so that a backup holding one game of
#: the costliest formulas is still restored, and every restore stays within 2 s
#: (docs/benchmarks.md).
MAX_REQUEST_CHECK_COST = MAX_CHECK_COST


class CheckBudgetExceeded(Exception):  # not a RulesError: it refuses a request, not one game
    """The house systems of one request would cost more than its budget to check."""


@dataclass
class _Budget:
    """What one request may still spend checking house systems, and the checks it has paid for:
    each (formulas, hand size, players) once, whether or not this worker remembers its outcome."""

    left: int
    paid: set[tuple[tuple[str, str], int, int]] = field(default_factory=set)

    def charge(self, system: System, cards: tuple[int, ...], players: int) -> None:
        new = [size for size in cards if (system.formulas, size, players) not in self.paid]
        cost = check_cost(system, new)
        if cost > self.left:
            raise CheckBudgetExceeded
        self.left -= cost
        self.paid.update((system.formulas, size, players) for size in new)


_budget: ContextVar[_Budget | None] = ContextVar("check_budget", default=None)


@contextmanager
def check_budget(total: int = MAX_REQUEST_CHECK_COST) -> Iterator[None]:
    """Bound the checks of every house system within: the first check that would take the work
    past ``total`` raises ``CheckBudgetExceeded`` before any of it is worked out.

    >>> with check_budget(5000):
    ...     check_system(custom_system("10 + bid", "0"), [1, 2], 4)  # costs 3450
    ...     check_system(custom_system("10 + bid", "0"), [2, 1], 4)  # paid for already
    ...     check_system(custom_system("10 + bid", "-1"), [1, 2], 4)
    Traceback (most recent call last):
    ...
    scorekeeper.rules.scoring.CheckBudgetExceeded
    """
    token = _budget.set(_Budget(total))
    try:
        yield
    finally:
        _budget.reset(token)


def budgeted() -> bool:
    """Whether the checks made now are bounded by a ``check_budget``."""
    return _budget.get() is not None


def check_system(system: System, sizes: Iterable[int], players: int) -> None:
    """Work out a house system for every hand size of a game, every bid and every trick count,
    so that a formula that can't score some deal (dividing by zero at 5 cards, say) is refused
    when the rules are set, not found at that deal with the game stuck (RULES.md §8). A system
    whose check would cost more than ``MAX_CHECK_COST`` is refused before any of it is worked out;
    the outcome is remembered by formulas, hand sizes and players, a refusal too.

    >>> check_system(custom_system("10 / (cards - 5)", "0"), [7, 6, 5], 4)
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.FormulaError: The made formula '10 / (cards - 5)' divides by zero
    for bid 0, tricks 0, cards 5
    >>> check_system(custom_system("0", "bid / 3 + tricks / 7 + cards / 11 + players / 13"),
    ...              range(1, 53), 2)
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.FormulaError: The house formulas are too much work to check
    for every bid ...
    """
    if system.id != "custom":
        return
    cards = tuple(sorted(set(sizes)))
    budget = _budget.get()
    if (budget is not None
            and check_cost(system, cards) <= MAX_CHECK_COST):  # else refused at no cost
        budget.charge(system, cards, players)
    refused = _outcome((*system.formulas, cards, players))
    if isinstance(refused, str):
        raise FormulaError(_("The house formulas are too much work to check for every bid and "
                             "trick count of hands of up to %(cards)s cards: "
                             "use fewer divisions (/) and powers (**), or smaller hands.",
                             cards=max(cards)))
    if refused is not None:  # worked out again, to say what is wrong in this request's language
        which, bid, tricks, size = refused
        with about(which):
            (system.made if which == "made" else system.missed)(bid, tricks, size, players)


#: A check: the made and missed formulas, the hand sizes and the players; and what it finds.
CheckKey = tuple[str, str, tuple[int, ...], int]
Outcome = str | tuple[str, int, int, int] | None
#: Outcomes worked out by another process of the server (``remember``), the newest 256.
_told: dict[CheckKey, Outcome] = {}
_recording: ContextVar[dict[CheckKey, Outcome] | None] = ContextVar("checks", default=None)


@contextmanager
def recorded() -> Iterator[dict[CheckKey, Outcome]]:
    """The outcome of every check of a house system made within, by what it checked: for another
    process to ``remember``."""
    outcomes: dict[CheckKey, Outcome] = {}
    token = _recording.set(outcomes)
    try:
        yield outcomes
    finally:
        _recording.reset(token)


def remember(outcomes: Iterable[tuple[CheckKey, Outcome]]) -> None:
    """Outcomes of checks worked out elsewhere (``recorded``), taken as if worked out here."""
    for key, outcome in outcomes:
        _told.pop(key, None)
        _told[key] = outcome
    for old in list(_told)[:-256]:
        _told.pop(old, None)


def _outcome(key: CheckKey) -> Outcome:
    outcome = _told[key] if key in _told else _check(*key)
    if (recording := _recording.get()) is not None:
        recording[key] = outcome
    return outcome


@lru_cache(maxsize=256)
def _check(made: str, missed: str, sizes: tuple[int, ...],
           players: int) -> str | tuple[str, int, int, int] | None:
    """What checking the house system of these formulas for these hand sizes finds: None when every
    score can be worked out, "cost" when that would take too long, else the first score that
    can't be (made or missed, bid, tricks, cards)."""
    system = custom_system(made, missed)
    if check_cost(system, sizes) > MAX_CHECK_COST:
        return "cost"
    made_score, missed_score = system.made, system.missed
    assert isinstance(made_score, HouseFormula) and isinstance(missed_score, HouseFormula)
    score_made, score_missed = made_score.worked_out, missed_score.worked_out
    for cards in sizes:
        for bid in range(cards + 1):
            try:
                score_made(bid, bid, cards, players)
            except FormulaError:
                return "made", bid, bid, cards
            for tricks in range(cards + 1):
                if tricks != bid:
                    try:
                        score_missed(bid, tricks, cards, players)
                    except FormulaError:
                        return "missed", bid, tricks, cards
    return None


ZeroBid = int | str


def _zero_bid_name() -> str:
    return _("A made zero bid scores")


def read_zero_bid(value: object) -> ZeroBid:
    """What a made zero bid scores: a whole number from −1000 to 1000, or ``k+n`` (k plus the
    cards).

    >>> read_zero_bid(5), read_zero_bid(" 5 + N "), read_zero_bid("10")
    (5, '5+n', 10)
    >>> read_zero_bid("1e100000000")
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.ValueRefused: A made zero bid scores must be a whole number
    from -1,000 to 1,000, or 5+n, not '1e100000000'
    """
    low, high = ZERO_BID_BOUNDS
    try:
        if isinstance(value, str) and value.replace(" ", "").lower().endswith("+n"):
            base = value.replace(" ", "").lower()[:-2]
            return f"{values.whole(base, _zero_bid_name, low, high)}+n"
        return values.whole(value, _zero_bid_name, low, high)
    except ValueRefused:
        refuse(_zero_bid_name(), _("a whole number from %(low)s to %(high)s, or 5+n",
                                   low=words.number(low), high=words.number(high)), value)


def zero_bid_value(value: ZeroBid, cards: int) -> int:
    """What a made zero bid scores under the ``zero_bid`` modifier (as ``read_zero_bid`` read it).

    >>> zero_bid_value("5+n", 7), zero_bid_value(5, 7)
    (12, 5)
    """
    if isinstance(value, str):
        return values.whole(value.removesuffix("+n"), _zero_bid_name, *ZERO_BID_BOUNDS) + cards
    return value


def deal_points(
    system: System | None,
    bids: Sequence[int],
    tricks: Sequence[int],
    cards: int,
    *,
    zero_bid: ZeroBid | None = None,
    doubled: bool = False,
) -> list[Points]:
    """Points of every player for one finished deal (all zeros when nothing is scored).

    >>> [str(x) for x in deal_points(find_system("common"), [3, 1], [3, 0], 3)]
    ['13', '0']
    >>> [str(x) for x in deal_points(find_system("common"), [0, 2], [0, 3], 3, zero_bid=5,
    ...                              doubled=True)]
    ['10', '6']
    """
    if system is None:
        return [0] * len(bids)
    players = len(bids)
    if zero_bid is None and not doubled:
        made, missed = system.made, system.missed
        return [made(b, t, cards, players) if b == t else missed(b, t, cards, players)
                for b, t in zip(bids, tricks)]
    points: list[Points] = []
    for b, t in zip(bids, tricks):
        value: Points
        if b == t and b == 0 and zero_bid is not None:
            value = zero_bid_value(zero_bid, cards)
        elif b == t:
            value = system.made(b, t, cards, players)
        else:
            value = system.missed(b, t, cards, players)
        points.append(value * 2 if doubled else value)
    return points
