"""Bidding rules (RULES.md §2): verify_bid raises, can_bid answers, allowed_bids lists."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .errors import BidError, RulesConfigError, TricksError, UnknownVariantError
from .values import shown
from .words import N_, _, ngettext, pgettext

BIDDING_RULES = ("free", "hook", "dealer-must-exceed", "must-equal")
#: Each bidding rule in a player's words (translated with ``_`` where shown).
RULE_NAMES = {
    "free": N_("free bidding"),
    "hook": N_("hook"),
    "dealer-must-exceed": N_("dealer must exceed"),
    "must-equal": N_("must equal"),
}
#: Each bidding rule as a refusal names it, by its id (translated with ``_`` where said).
_RULE_IDS = {
    "free": N_("free"),
    "hook": N_("hook"),
    "dealer-must-exceed": N_("dealer-must-exceed"),
    "must-equal": N_("must-equal"),
}


@dataclass(frozen=True)
class Bidding:
    """The bidding rule in force: its name, and from how many cards the hook applies."""

    rule: str = "hook"
    hook_from: int | None = None
    simultaneous: bool = False

    def __post_init__(self) -> None:
        if self.rule not in BIDDING_RULES:
            raise UnknownVariantError(_("Unknown bidding rule %(rule)s; known: %(known)s.",
                                        rule=repr(self.rule), known=", ".join(BIDDING_RULES)))
        if self.simultaneous and self.rule != "free":
            raise RulesConfigError(_(
                "Simultaneous bidding works only with free bidding, not with %(rule)s: "
                "the last bid can't be restricted when everyone bids at once.",
                rule=_(_RULE_IDS[self.rule])
            ))
        if self.hook_from is not None and self.rule != "hook":
            raise RulesConfigError(_("\"Hook from\" only changes the hook, not %(rule)s.",
                                     rule=_(RULE_NAMES[self.rule])))

    def rule_for(self, cards: int) -> str:
        """The rule that applies to a deal of ``cards`` (hook_from lets small deals go free).

        >>> Bidding("hook", hook_from=2).rule_for(1)
        'free'
        """
        if self.rule == "hook" and self.hook_from is not None and cards < self.hook_from:
            return "free"
        return self.rule


@dataclass(frozen=True)
class BidCheck:
    """What a player may bid now, and why the others are struck out."""

    allowed: tuple[int, ...]
    reason: str  # "" when every bid 0..n is allowed


def _check(bidding: Bidding, cards: int, earlier: Sequence[int], dealer: bool,
           name: str) -> BidCheck:
    allowed, why = _rule_check(bidding, cards, sum(earlier), dealer)
    return BidCheck(allowed, _reason(why, name))


#: Why bids are struck out: which sentence (a key of ``_reason``) and its numbers; None: none is.
_Why = tuple[str, int, int] | None


@lru_cache(maxsize=4096)
def _rule_check(bidding: Bidding, cards: int, so_far: int,
                dealer: bool) -> tuple[tuple[int, ...], _Why]:
    """The bids allowed after earlier bids adding up to ``so_far``, and why the others are not: it
    depends on nothing else, so a replay asks for the same few again and again. The reason is said
    by ``_reason``, in the language of whoever asks."""
    everything = tuple(range(cards + 1))
    if bidding.simultaneous:
        return everything, None
    rule = bidding.rule_for(cards)
    if rule == "must-equal":
        if dealer:
            need = cards - so_far
            return (need,) if 0 <= need <= cards else (), ("must-equal-dealer", need, cards)
        room = cards - so_far
        return tuple(range(max(room, -1) + 1)), ("must-equal", room, cards)
    if not dealer or rule == "free":
        return everything, None
    if rule == "dealer-must-exceed" and so_far > 0:
        least = max(0, cards + 1 - so_far)
        return (tuple(range(least, cards + 1)),
                ("dealer-must-exceed", least, cards) if least else None)
    hooked = cards - so_far
    if not 0 <= hooked <= cards:
        return everything, None
    return (tuple(b for b in everything if b != hooked),
            ("hook" if rule == "hook" else "hook-fallback", hooked, cards))


def _reason(why: _Why, name: str) -> str:
    """The sentence that says why bids are struck out ("" when none is)."""
    if why is None:
        return ""
    key, bid, cards = why
    if key == "must-equal-dealer":
        return ngettext("%(player)s deals and must bid %(bid)s: "
                        "the bids must add up to the %(num)s trick (must equal)",
                        "%(player)s deals and must bid %(bid)s: "
                        "the bids must add up to the %(num)s tricks (must equal)", cards,
                        player=name, bid=bid)
    if key == "must-equal":
        return ngettext("%(player)s can bid at most %(bid)s: "
                        "the bids can't add up to more than the %(num)s trick (must equal)",
                        "%(player)s can bid at most %(bid)s: "
                        "the bids can't add up to more than the %(num)s tricks (must equal)", cards,
                        player=name, bid=bid)
    if key == "dealer-must-exceed":
        return ngettext("%(player)s deals and must bid at least %(bid)s: "
                        "the bids must add up to more than the %(num)s trick (dealer must exceed)",
                        "%(player)s deals and must bid at least %(bid)s: "
                        "the bids must add up to more than the %(num)s tricks (dealer must exceed)",
                        cards, player=name, bid=bid)
    if key == "hook":
        return ngettext("%(player)s deals and can't bid %(bid)s: "
                        "the bids would add up to the %(num)s trick (hook)",
                        "%(player)s deals and can't bid %(bid)s: "
                        "the bids would add up to the %(num)s tricks (hook)", cards, player=name,
                        bid=bid)
    return ngettext("%(player)s deals and can't bid %(bid)s: "
                    "the bids would add up to the %(num)s trick — everyone else bid 0, "
                    "so the hook applies (dealer must exceed)",
                    "%(player)s deals and can't bid %(bid)s: "
                    "the bids would add up to the %(num)s tricks — everyone else bid 0, "
                    "so the hook applies (dealer must exceed)", cards, player=name, bid=bid)


def dealer_refusal(bidding: Bidding, cards: int, total: int, bid: int, name: str) -> str | None:
    """Why the dealer's ``bid`` is refused once every bid is in (adding up to ``total``), or None:
    under free bidding nothing is, under the hook only a total equal to the cards.

    >>> dealer_refusal(Bidding("hook"), 7, 7, 3, "Dee")
    "Dee deals and can't bid 3: the bids would add up to the 7 tricks (hook)"
    >>> dealer_refusal(Bidding("hook"), 7, 8, 4, "Dee") is None
    True
    """
    rule = bidding.rule_for(cards)
    if rule == "free" or (rule == "hook" and total != cards):
        return None
    allowed, why = _rule_check(bidding, cards, total - bid, True)
    return None if bid in allowed else _reason(why, name)


def bid_check(
    bidding: Bidding, cards: int, earlier: Sequence[int], *, dealer: bool, name: str | None = None
) -> BidCheck:
    """The allowed bids for the player bidding after ``earlier`` bids, and the reason for the rest
    (naming the player ``name``, by default "The dealer").

    >>> bid_check(Bidding("hook"), 7, [2, 1, 1], dealer=True, name="Dee").reason
    "Dee deals and can't bid 3: the bids would add up to the 7 tricks (hook)"
    """
    return _check(bidding, cards, earlier, dealer, _("The dealer") if name is None else name)


def allowed_bids(bidding: Bidding, cards: int, earlier: Sequence[int], *,
                 dealer: bool) -> list[int]:
    """The bids 0..cards the next bidder may make; the UI strikes out the others.

    >>> allowed_bids(Bidding("hook"), 3, [1, 1, 0], dealer=True)
    [0, 2, 3]
    >>> allowed_bids(Bidding("dealer-must-exceed"), 3, [1, 0, 0], dealer=True)
    [3]
    >>> allowed_bids(Bidding("dealer-must-exceed"), 3, [0, 0, 0], dealer=True)
    [0, 1, 2]
    """
    return list(_rule_check(bidding, cards, sum(earlier), dealer)[0])


def verify_bid(
    bidding: Bidding, cards: int, earlier: Sequence[int], bid: int, *, dealer: bool, name: str
) -> None:
    """Raise BidError, naming the player, the rule and the bid, when ``bid`` is not allowed.

    >>> verify_bid(Bidding("hook"), 7, [2, 1, 1], 3, dealer=True, name="Dee")
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.BidError: Dee deals and can't bid 3:
    the bids would add up to the 7 tricks (hook)
    """
    if isinstance(bid, bool) or not isinstance(bid, int) or not 0 <= bid <= cards:
        raise BidError(_("%(player)s can't bid %(bid)s: "
                         "a bid is a whole number from 0 to %(cards)s.", player=name,
                         bid=shown(bid), cards=cards))
    allowed, why = _rule_check(bidding, cards, sum(earlier), dealer)
    if bid not in allowed:
        raise BidError(_reason(why, name))


def can_bid(
    bidding: Bidding, cards: int, earlier: Sequence[int], bid: int, *, dealer: bool
) -> bool:
    """Whether ``bid`` is allowed for the next bidder.

    >>> can_bid(Bidding("hook", hook_from=2), 1, [0, 0, 0], 1, dealer=True)
    True
    """
    try:
        verify_bid(bidding, cards, earlier, bid, dealer=dealer, name="")
    except BidError:
        return False
    return True


def announce(bids: Sequence[int], cards: int, *, translated: bool = True) -> str:
    """The bids announced against the cards: "over by k", "under by k" or "even", in the current
    language (in English when not ``translated``: the game file says it so, in every language).

    >>> announce([2, 1, 0, 3], 7), announce([3, 3], 4), announce([1, 1], 2)
    ('under by 1', 'over by 2', 'even')
    """
    say = _ if translated else _english
    total = sum(bids)
    if total > cards:
        return say(_OVER, tricks=total - cards)
    if total < cards:
        return say(_UNDER, tricks=cards - total)
    return pgettext("the bids against the cards", "even") if translated else "even"


#: The announce's words, said in the current language or in English (the game file's).
_OVER, _UNDER = N_("over by %(tricks)s"), N_("under by %(tricks)s")


def announce_forms() -> tuple[str, str, str]:
    """The announce's three forms in the current language, under, even and over, with the number of
    tricks left as ``%(tricks)s``: what ``announce`` says of any total, for a phone to fill in.

    >>> announce_forms()
    ('under by %(tricks)s', 'even', 'over by %(tricks)s')
    """
    tricks = "%(tricks)s"
    return (_(_UNDER, tricks=tricks), pgettext("the bids against the cards", "even"),
            _(_OVER, tricks=tricks))


def _english(message: str, /, **values: object) -> str:
    """A message as ``_`` says it with no translation installed: in English."""
    return message % values


#: The type of a bid or a trick count, exactly: a bool is neither.
WHOLE = frozenset({int})


def verify_count(count: int, cards: int, name: str) -> None:
    """Raise TricksError unless ``count`` is one player's possible trick count: 0 to ``cards``.

    >>> verify_count(4, 3, "Ann")
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.TricksError: Ann can't have taken 4 tricks: it must be 0 to 3.
    """
    if type(count) is not int or not 0 <= count <= cards:  # a bool is not a count
        raise TricksError(_("%(player)s can't have taken %(tricks)s tricks: "
                            "it must be 0 to %(cards)s.", player=name, tricks=shown(count),
                            cards=cards))


def verify_tricks(tricks: Sequence[int], cards: int, names: Sequence[str]) -> None:
    """Raise TricksError unless each count is 0..cards and they add up to exactly ``cards``.

    >>> verify_tricks([2, 2], 5, ["Ann", "Bob"])
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.TricksError: The tricks add up to 4, but 5 were played:
    check the counts.
    """
    if WHOLE.issuperset(map(type, tricks)) and sum(tricks) == cards and min(tricks, default=0) >= 0:
        return  # whole numbers adding up to the cards: none negative, so none above the cards
    for count, name in zip(tricks, names):
        verify_count(count, cards, name)
    if sum(tricks) != cards:
        raise TricksError(ngettext("The tricks add up to %(total)s, but %(num)s was played: "
                                   "check the counts.",
                                   "The tricks add up to %(total)s, but %(num)s were played: "
                                   "check the counts.", cards, total=sum(tricks)))
