"""Deal patterns: which hand sizes a game deals, who deals each deal and what is trump
(RULES.md §1)."""

from __future__ import annotations

from typing import NamedTuple

from . import values
from .errors import RulesConfigError, UnknownVariantError, ValueRefused
from .words import N_, _, ngettext

SUITS = ("S", "H", "D", "C")
TRUMPS = SUITS + ("NT",)
#: Each trump in a player's words (translated with ``_`` where shown).
SUIT_NAMES = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs"),
              "NT": N_("no trump")}

PATTERNS = (
    "down-up",
    "up-down",
    "down-up-twice-one",
    "up-nt-down",
    "down",
    "up",
    "fixed",
    "custom",
    "manual",
)
#: Each pattern as a message names it, by its id (translated with ``_`` where said).
PATTERN_NAMES = {
    "down-up": N_("down-up"),
    "up-down": N_("up-down"),
    "down-up-twice-one": N_("down-up-twice-one"),
    "up-nt-down": N_("up-nt-down"),
    "down": N_("down"),
    "up": N_("up"),
    "fixed": N_("fixed"),
    "custom": N_("custom"),
    "manual": N_("manual"),
}
#: Patterns whose length is not known in advance: they end by a deal count, a target or the table.
OPEN_PATTERNS = frozenset({"fixed", "manual"})
TRUMP_RULES = ("turn-up", "dealer-last-card", "rotation")

#: One entry of a pattern: cards dealt to each player, and whether the pattern makes it no-trump.
HandSize = tuple[int, bool]


def largest_hand(deck: int, players: int, *, turn_up: bool = True) -> int:
    """The most cards each player can get: one card is kept back for a turn-up trump.

    >>> largest_hand(52, 4), largest_hand(52, 4, turn_up=False)
    (12, 13)
    """
    return (deck - 1) // players if turn_up else deck // players


def default_max_cards(deck: int, players: int) -> int:
    """RULES.md §1 default top hand size: min(10, floor((N - 1) / P)).

    >>> [default_max_cards(52, p) for p in (3, 4, 5, 6, 7)]
    [10, 10, 10, 8, 7]
    """
    return min(10, largest_hand(deck, players))


#: The most deals a custom sequence may list, and the most entries of a trump rotation.
MAX_SEQUENCE = 100


def check_hand_fits(cards: int, deck: int, players: int, what: values.What | None = None) -> None:
    """Refuse a hand size the deck cannot deal, naming the largest one and the second pack. ``what``
    is the hand, translated by the caller, or a function that says it ("hand" by default).

    >>> check_hand_fits(14, 52, 4, "top hand")
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.RulesConfigError: A top hand of 14 cards can't be dealt to 4 players
    from 52 cards: the largest possible is 13; choose at most 13 or play with a second pack.
    """
    if cards >= 1 and cards * players <= deck:
        return
    hand = values.said(what) if what else _("hand")
    if cards < 1:
        raise RulesConfigError(ngettext("A %(hand)s of %(num)s card can't be dealt: "
                                        "at least 1 card is needed.",
                                        "A %(hand)s of %(num)s cards can't be dealt: "
                                        "at least 1 card is needed.", cards, hand=hand))
    if cards * players > deck:
        most = deck // players
        if deck < 104:
            raise RulesConfigError(_(
                "A %(hand)s of %(cards)s cards can't be dealt to %(players)s players from %(deck)s "
                "cards: the largest possible is %(most)s; "
                "choose at most %(most)s or play with a second pack.", hand=hand, cards=cards,
                players=players, deck=deck, most=most))
        raise RulesConfigError(_(
            "A %(hand)s of %(cards)s cards can't be dealt to %(players)s players from %(deck)s "
            "cards: the largest possible is %(most)s; choose at most %(most)s.",
            hand=hand, cards=cards, players=players, deck=deck, most=most))


def parse_sequence(text: object) -> tuple[HandSize, ...]:
    """Read a custom pattern such as ``1-2-3-7NT-3-2-1`` (NT marks a no-trump deal), at most 100
    deals.

    >>> parse_sequence("1-2-2NT-1")
    ((1, False), (2, False), (2, True), (1, False))
    >>> parse_sequence("1-²-3")
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.ValueRefused: The custom sequence '1-²-3' is not a list of hand sizes
    like 1-2-3-7NT-3-2-1: '²' is not a number of cards
    """
    def what() -> str:
        return _("The custom sequence")

    sizes: list[HandSize] = []
    written = text.replace(" ", "") if isinstance(text, str) else text
    for part in values.sequence_of(written, what, MAX_SEQUENCE, "-,"):
        item = part.upper()
        no_trump = item.endswith("NT")
        digits = item[:-2] if no_trump else item
        try:
            cards = values.whole(digits, "a hand", 1, 104)  # refused below, in other words
        except ValueRefused:
            cards = 0
        if not cards:
            raise ValueRefused(_("%(what)s %(sequence)s is not a list of hand sizes like "
                                 "1-2-3-7NT-3-2-1: %(part)s is not a number of cards",
                                 what=what(), sequence=values.shown(text, 40),
                                 part=values.shown(part)))
        sizes.append((cards, no_trump))
    return tuple(sizes)


def parse_cycle(text: object) -> tuple[str, ...]:
    """Read a trump rotation such as ``S-D-C-H-NT``.

    >>> parse_cycle("s-d-c-h-nt")
    ('S', 'D', 'C', 'H', 'NT')
    """
    def what() -> str:
        return _("The trump cycle")

    cycle = tuple(part.upper() for part in values.sequence_of(text, what, MAX_SEQUENCE))
    bad = [part for part in cycle if part not in TRUMPS]
    if bad:
        raise ValueRefused(_(
            "%(what)s %(cycle)s must list suits S, H, D, C or NT joined by '-', like S-D-C-H-NT; "
            "%(part)s is not one.", what=what(), cycle=values.shown(text, 40),
            part=values.shown(bad[0])
        ))
    return cycle


def hand_sizes(
    pattern: str,
    top: int,
    sequence: tuple[HandSize, ...] = (),
    only: str | None = None,
) -> list[HandSize]:
    """The hand sizes of a pattern that has a set length, in play order.

    >>> [n for n, _ in hand_sizes("down-up", 3)]
    [3, 2, 1, 2, 3]
    >>> [n for n, _ in hand_sizes("down-up-twice-one", 3)]
    [3, 2, 1, 1, 2, 3]
    >>> hand_sizes("up-nt-down", 2)
    [(1, False), (2, False), (2, True), (2, True), (2, False), (1, False)]
    >>> [n for n, _ in hand_sizes("down-up", 9, only="odd")]
    [9, 7, 5, 3, 1, 3, 5, 7, 9]
    """
    up = list(range(1, top + 1))
    down = up[::-1]
    shapes: dict[str, list[HandSize]] = {
        "down-up": [(n, False) for n in down + up[1:]],
        "up-down": [(n, False) for n in up + down[1:]],
        "down-up-twice-one": [(n, False) for n in down + up],
        "up-nt-down": ([(n, False) for n in up] + [(top, True), (top, True)]
                       + [(n, False) for n in down]),
        "down": [(n, False) for n in down],
        "up": [(n, False) for n in up],
        "custom": list(sequence),
    }
    if pattern not in shapes:
        if pattern in PATTERNS:
            raise RulesConfigError(_("The %(pattern)s pattern has no set list of hand sizes.",
                                     pattern=_(PATTERN_NAMES[pattern])))
        raise UnknownVariantError(_("Unknown deal pattern %(pattern)s; known: %(known)s.",
                                    pattern=repr(pattern), known=", ".join(PATTERNS)))
    sizes = shapes[pattern]
    if only is not None:
        parity = {"odd": 1, "even": 0}[only]
        sizes = [size for size in sizes if size[0] % 2 == parity]
        if not sizes:
            raise RulesConfigError(no_sizes_left(pattern, top, only))
    return sizes


def no_sizes_left(pattern: str, top: int, only: str) -> str:
    """Why a pattern up to ``top`` cards keeps no hand size when only odd or only even ones are
    played.

    >>> no_sizes_left("fixed", 4, "odd")
    'The fixed pattern of 4 cards has no odd hand sizes left.'
    """
    name = _(PATTERN_NAMES[pattern])
    if pattern == "fixed":
        if only == "odd":
            return ngettext("The %(pattern)s pattern of %(num)s card has no odd hand sizes left.",
                            "The %(pattern)s pattern of %(num)s cards has no odd hand sizes left.",
                            top, pattern=name)
        return ngettext("The %(pattern)s pattern of %(num)s card has no even hand sizes left.",
                        "The %(pattern)s pattern of %(num)s cards has no even hand sizes left.",
                        top, pattern=name)
    if only == "odd":
        return ngettext("The %(pattern)s pattern up to %(num)s card has no odd hand sizes left.",
                        "The %(pattern)s pattern up to %(num)s cards has no odd hand sizes left.",
                        top, pattern=name)
    return ngettext("The %(pattern)s pattern up to %(num)s card has no even hand sizes left.",
                    "The %(pattern)s pattern up to %(num)s cards has no even hand sizes left.", top,
                    pattern=name)


class Deal(NamedTuple):
    """One deal of a game as known before it is played.

    ``trump`` is the trump the rules fix for the deal: ``"NT"`` for a no-trump deal, a suit
    from a rotation, or ``None`` when a card decides it (turned up, or the dealer's last).
    ``cards`` is ``None`` for a ``manual`` deal whose size the scorer has not entered yet.
    ``present`` lists the seats dealt in, ascending, when somebody is not (RULES.md §7); it is
    empty when everybody is.
    """

    number: int
    cards: int | None
    dealer: int
    eldest: int
    trump: str | None
    present: tuple[int, ...] = ()

    @property
    def has_trump(self) -> bool:
        """Whether the deal is played with a trump suit."""
        return self.trump != "NT"

    def seats(self, players: int) -> tuple[int, ...]:
        """The seats dealt in, ascending: every seat unless somebody sits this deal out.

        >>> Deal(1, 3, 0, 2, None, present=(0, 2, 3)).seats(4), Deal(1, 3, 0, 1, None).seats(3)
        ((0, 2, 3), (0, 1, 2))
        """
        return self.present or tuple(range(players))

    def bidding_order(self, players: int) -> list[int]:
        """Seat indexes in bidding order: eldest hand first, clockwise among the players dealt in,
        the dealer last.

        >>> Deal(1, 3, dealer=1, eldest=2, trump=None).bidding_order(4)
        [2, 3, 0, 1]
        >>> Deal(5, 3, dealer=2, eldest=3, trump=None, present=(0, 2, 3)).bidding_order(4)
        [3, 0, 2]
        """
        if not self.present:
            return [(self.eldest + i) % players for i in range(players)]
        start = self.present.index(self.eldest)
        return [*self.present[start:], *self.present[:start]]


def fixed_trump(
    index: int,
    cards: int | None,
    no_trump: bool,
    *,
    rule: str,
    cycle: tuple[str, ...],
    deck: int,
    players: int,
) -> str | None:
    """The trump the rules fix for the deal played at 0-based position ``index``, if any.

    >>> fixed_trump(7, 5, False, rule="rotation", cycle=("S", "D", "C", "H", "NT"), deck=52,
    ...             players=4)
    'C'
    >>> fixed_trump(0, 13, False, rule="turn-up", cycle=(), deck=52, players=4)
    'NT'
    """
    if no_trump:
        return "NT"
    if rule == "rotation":
        return cycle[index % len(cycle)]
    if rule == "turn-up" and cards is not None and cards * players == deck:
        return "NT"
    return None


def seat_after(seat: int, players: int, steps: int = 1) -> int:
    """The seat ``steps`` places clockwise (to the left) of ``seat``.

    >>> seat_after(3, 4)
    0
    """
    return (seat + steps) % players
