"""Presets (RULES.md §4) and the resolution of a table's rules: preset defaults plus overrides."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from . import scoring as checks
from . import values
from .bidding import Bidding
from .errors import RulesConfigError, about
from .schedule import (
    OPEN_PATTERNS,
    PATTERNS,
    TRUMP_RULES,
    HandSize,
    check_hand_fits,
    default_max_cards,
    hand_sizes,
    largest_hand,
    no_sizes_left,
    parse_cycle,
    parse_sequence,
)
from .scoring import WINS, System, ZeroBid, check_system, custom_system, find_system, read_zero_bid
from .variants import find_preset
from .words import N_, _

RULE_FIELDS = (
    "preset", "decks", "deck_size", "deal", "max_cards", "sequence", "deals", "target", "only",
    "trump", "trump_cycle", "bidding", "hook_from", "simultaneous", "sealed", "scoring",
    "zero_bid", "spades_double", "tie", "made", "missed", "wins",
)
TIES = ("share", "one-card-hand")
DECK_SIZES = (52, 63, 64, 104)


@dataclass(frozen=True)
class Rules:
    """Every rule a game is played by, resolved from a preset and the table's overrides."""

    preset: str
    players: int
    decks: int
    deck_size: int
    deal: str
    max_cards: int
    bidding: Bidding
    scoring: System | None
    sequence: tuple[HandSize, ...] = ()
    deals: int | None = None
    target: int | None = None
    only: str | None = None
    trump: str = "turn-up"
    trump_cycle: tuple[str, ...] = ()
    zero_bid: ZeroBid | None = None
    spades_double: bool = False
    tie: str = "share"
    #: Bids made at once are sealed until the last one is in (SEATS.md): each player's phone enters
    #: its own in secret. False when the bids are said in turn, or aloud at once. How the bids are
    #: entered, not a rule of play: no house rule.
    sealed: bool = field(default=False, compare=False)
    # The preset's note, in English (marked with N_): translate it with _ where shown
    note: str = ""
    sizes: tuple[HandSize, ...] | None = field(default=None, compare=False)

    @property
    def cooperative(self) -> bool:
        """Whether the table plays together (must-equal): nothing is scored, missed deals are
        re-dealt."""
        return self.bidding.rule == "must-equal"

    @property
    def wins(self) -> str:
        """Who wins: "highest", "lowest", "scratch" (fewest scratches) or "together"."""
        return "together" if self.scoring is None else self.scoring.wins

    @property
    def open_ended(self) -> bool:
        """Whether the pattern has no set list of hand sizes (fixed, manual)."""
        return self.deal in OPEN_PATTERNS

    def largest(self) -> int:
        """The most cards a player can be dealt from this deck."""
        return largest_hand(self.deck_size, self.players, turn_up=False)


#: Each rule field in a player's words: the house-rules form's labels, and how messages name them
#: (in English, marked with N_: translate them with _ where shown).
RULE_LABELS = {
    "preset": N_("Rules"), "decks": N_("Packs"), "deck_size": N_("Deck size"),
    "deal": N_("Deal pattern"), "max_cards": N_("Top hand (cards)"),
    "sequence": N_("Custom sequence"), "deals": N_("Number of deals"),
    "target": N_("Game to (points)"), "only": N_("Hand sizes"), "trump": N_("Trump"),
    "trump_cycle": N_("Trump cycle"), "bidding": N_("Bidding"),
    "hook_from": N_("Hook from (cards)"), "simultaneous": N_("Bids shown at once"),
    "sealed": N_("Sealed bids"),
    "scoring": N_("Scoring"), "zero_bid": N_("A made zero bid scores"),
    "spades_double": N_("Spades double"), "tie": N_("Ties"), "made": N_("Made formula"),
    "missed": N_("Missed formula"), "wins": N_("Winner"),
}
#: What a message says of a formula field given without custom scoring.
_CUSTOM_ONLY = {
    "made": N_("The made formula goes only with custom scoring."),
    "missed": N_("The missed formula goes only with custom scoring."),
    "wins": N_("The winner goes only with custom scoring."),
}
#: The bounds of the whole-number rule fields (RULES.md §8); hand sizes are bounded by the deck too.
RULE_BOUNDS = {"decks": (1, 2), "deck_size": (20, 104), "max_cards": (1, 104), "deals": (1, 200),
               "target": (1, 100_000), "hook_from": (1, 104)}
_BOOLEANS = ("simultaneous", "sealed", "spades_double")


def _label(name: str) -> Callable[[], str]:
    """A rule field's label as a message says it, in the language of the moment it is said."""
    return lambda: _(RULE_LABELS[name])


def rules_from_text(texts: Mapping[str, str]) -> dict[str, Any]:
    """The rule fields of a form or a query string, typed as a game file types them: whole numbers,
    yes/no and the zero bid read from their text; empty fields left out (the preset's rule).

    >>> rules_from_text({"max_cards": " 7", "spades_double": "yes", "zero_bid": "5+n",
    ...                  "deal": "up"})
    {'deal': 'up', 'max_cards': 7, 'zero_bid': '5+n', 'spades_double': True}
    >>> rules_from_text({"max_cards": "1e100000000"})
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.ValueRefused: Top hand (cards) must be a whole number from 1 to 104,
    not '1e100000000'
    """
    typed: dict[str, Any] = {}
    for name in RULE_FIELDS:
        text = texts.get(name)
        if text is None or not text.strip():
            continue
        label = _label(name)
        if name in RULE_BOUNDS:
            typed[name] = values.whole(text, label, *RULE_BOUNDS[name])
        elif name in _BOOLEANS:
            typed[name] = values.boolean(text, label)
        elif name == "zero_bid":
            typed[name] = read_zero_bid(text)
        else:
            typed[name] = text.strip()
    return typed


def _count(fields: Mapping[str, Any], name: str, high: int | None = None) -> int | None:
    """A whole-number rule field of a game file, within its bounds (``high`` lowers the top one)."""
    value = fields.get(name)
    if value is None:
        return None
    low, top = RULE_BOUNDS[name]
    return values.count(value, _label(name), low, top if high is None else min(top, high))


def _choice(fields: Mapping[str, Any], name: str, options: tuple[str, ...],
            default: str | None) -> Any:
    value = fields.get(name, default)
    return None if value is None else values.choice(value, _label(name), options)


def _bool(fields: Mapping[str, Any], name: str, default: bool = False) -> bool:
    return values.flag(fields.get(name, default), _label(name))


def make_rules(overrides: Mapping[str, Any], players: int) -> Rules:
    """Resolve the rules of a game: the preset's defaults, then every overriding field.

    >>> make_rules({}, 4).max_cards, len(make_rules({"preset": "elevator"}, 4).sizes or ())
    (10, 23)
    >>> make_rules({"preset": "up-and-down-the-river"}, 6).decks
    2
    >>> make_rules({"preset": "trickster"}, 6)
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.RulesConfigError: A top hand of 10 cards can't be dealt
    to 6 players ...
    """
    values.fields(overrides, RULE_FIELDS, lambda: _("The rules"))
    if type(players) is not int or not 2 <= players <= 10:
        raise RulesConfigError(_("A game has 2 to 10 players, not %(players)s.",
                                 players=values.shown(players)))
    preset = find_preset(overrides.get("preset", "oh-hell"))
    given = {k: v for k, v in overrides.items() if v is not None}
    fields: dict[str, Any] = {**preset.defaults, **given}

    with about("deal"):
        deal = _choice(fields, "deal", PATTERNS, "down-up")
    with about("max_cards"):
        top_given = _count(fields, "max_cards")
    with about("decks"):
        decks = _count(fields, "decks")
    with about("deck_size"):
        deck_size = _count(fields, "deck_size")
    if decks is None:
        decks = 1
        wanted = top_given or (preset.top(52, players) if preset.top else 0)
        if (preset.name == "up-and-down-the-river" and deck_size is None
                and wanted * players + 1 > 52):
            decks = 2
    deck = deck_size or 52 * decks
    if top_given is not None:
        top = top_given
    elif deal == "manual":
        top = largest_hand(deck, players, turn_up=False)
    else:
        top = preset.top(deck, players) if preset.top else default_max_cards(deck, players)

    with about("only"):
        only = _choice(fields, "only", ("odd", "even"), None)
    sequence: tuple[HandSize, ...] = ()
    if deal == "custom":
        with about("sequence"):
            if "sequence" not in fields:
                raise RulesConfigError(_("The custom pattern needs a sequence such as "
                                         "1-2-3-7NT-3-2-1."))
            sequence = parse_sequence(fields["sequence"])
            for size, _no_trump in sequence:
                check_hand_fits(size, deck, players, lambda: _("hand in the sequence"))
        top = max(size for size, _no_trump in sequence)
    elif "sequence" in fields:
        with about("deal"):
            raise RulesConfigError(_("A custom sequence goes only with the custom deal pattern."))
    else:
        with about("max_cards"):
            check_hand_fits(top, deck, players, lambda: _("top hand"))
    sizes: tuple[HandSize, ...] | None = None
    with about("only"):
        if deal not in OPEN_PATTERNS:
            sizes = tuple(hand_sizes(deal, top, sequence, only))
        elif only and deal == "fixed" and top % 2 != {"odd": 1, "even": 0}[only]:
            raise RulesConfigError(no_sizes_left(deal, top, only))

    with about("trump"):
        trump = _choice(fields, "trump", TRUMP_RULES, "turn-up")
    cycle: tuple[str, ...] = ()
    with about("trump_cycle"):
        if trump == "rotation":
            cycle = parse_cycle(fields.get("trump_cycle", "S-D-C-H-NT"))
        elif "trump_cycle" in given:
            raise RulesConfigError(_("A trump cycle goes only with trumps by rotation."))

    with about("bidding"):
        rule = _choice(fields, "bidding", ("free", "hook", "dealer-must-exceed", "must-equal"),
                       "hook")
    with about("hook_from"):
        hook_from = _count(fields, "hook_from", largest_hand(deck, players, turn_up=False))
    with about("simultaneous"):
        simultaneous = _bool(fields, "simultaneous")
    with about("simultaneous" if simultaneous and rule != "free" else "hook_from"):
        bidding = Bidding(rule, hook_from, simultaneous)
    with about("sealed"):  # said of bids at once only; sealed unless the table says them aloud
        sealed = _bool(fields, "sealed", True) and simultaneous
    with about("tie"):
        tie = _choice(fields, "tie", TIES, "share")
    with about("scoring"):
        scoring = _scoring(fields, given, bidding)
    with about("zero_bid"):
        zero_bid = read_zero_bid(fields["zero_bid"]) if "zero_bid" in fields else None
    with about("spades_double"):
        spades = _bool(fields, "spades_double")
    if (zero_bid is not None or spades) and (scoring is None or not scoring.has_made_score):
        what = scoring.id if scoring else _("cooperative play")
        with about("zero_bid" if zero_bid is not None else "spades_double"):
            raise RulesConfigError(_(
                "A made zero bid's score and spades double can't be used with %(scoring)s: "
                "it has no made score to replace or double.", scoring=what))
    if scoring is not None:
        played = {size for size, _no_trump in sizes} if sizes is not None else set()
        if deal == "fixed":
            played.add(top)
        if tie == "one-card-hand":
            played.add(1)
        with about("made" if scoring.id == "custom" else "scoring"):
            check_system(scoring, played, players)
    with about("deals"):
        deals = _count(fields, "deals")
    with about("target"):
        target = _count(fields, "target")
    return Rules(
        preset=preset.name, players=players, decks=decks, deck_size=deck, deal=deal, max_cards=top,
        bidding=bidding, scoring=scoring, sequence=sequence, deals=deals,
        target=target, only=only, trump=trump,
        trump_cycle=cycle, zero_bid=zero_bid, spades_double=spades,
        tie=tie, sealed=sealed, note=preset.note, sizes=sizes,
    )


def rules_for(overrides: Mapping[str, Any], players: int) -> Rules:
    """``make_rules``, remembered for the rule sets used most recently: a game's rules are made
    once, not at every entry (under a ``check_budget``, made again: their house formulas are charged
    whatever this worker holds). The same overrides (the same values, types) give the same Rules.

    >>> rules_for({"preset": "blackout"}, 4) is rules_for({"preset": "blackout"}, 4)
    True
    >>> rules_for({"simultaneous": 1}, 4)
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.ValueRefused: Bids shown at once must be true or false, not 1
    """
    try:
        key = tuple(sorted((name, type(value), value) for name, value in overrides.items()))
        hash(key)
    except TypeError:  # a list or an object among the values: made every time (most are refused)
        return make_rules(overrides, players)
    return make_rules(overrides, players) if checks.budgeted() else _remembered(key, players)


@lru_cache(maxsize=64, typed=True)
def _remembered(key: tuple[tuple[str, type, Any], ...], players: int) -> Rules:
    return make_rules({name: value for name, _, value in key}, players)


def _scoring(fields: Mapping[str, Any], given: Mapping[str, Any],
             bidding: Bidding) -> System | None:
    if bidding.rule == "must-equal":
        if "scoring" in given:
            raise RulesConfigError(_(
                "Must-equal bidding makes the game cooperative: deals score nothing, "
                "so leave the scoring as the preset has it."))
        return None
    name = fields.get("scoring")
    if name is None:
        raise RulesConfigError(_("A scoring system is needed (common, exact, …)."))
    formula_fields = [f for f in ("made", "missed", "wins") if f in given]
    if name != "custom":
        if formula_fields:
            with about(formula_fields[0]):
                raise RulesConfigError(_(_CUSTOM_ONLY[formula_fields[0]]))
        return find_system(name)
    if "made" not in fields or "missed" not in fields:
        with about("made" if "made" not in fields else "missed"):
            raise RulesConfigError(_("Custom scoring needs a made formula and a missed formula."))
    with about("wins"):
        wins = _choice(fields, "wins", WINS, "highest")
    return custom_system(fields["made"], fields["missed"], wins)
