"""Bidding rules (RULES.md §2): verify_bid raises, can_bid answers, allowed_bids lists."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .errors import BidError, RulesConfigError, TricksError, UnknownVariantError
from .values import shown

BIDDING_RULES = ("free", "hook", "dealer-must-exceed", "must-equal")
RULE_NAMES = {
    "free": "free bidding",
    "hook": "hook",
    "dealer-must-exceed": "dealer must exceed",
    "must-equal": "must equal",
}


@dataclass(frozen=True)
class Bidding:
    """The bidding rule in force: its name, and from how many cards the hook applies."""

    rule: str = "hook"
    hook_from: int | None = None
    simultaneous: bool = False

    def __post_init__(self) -> None:
        if self.rule not in BIDDING_RULES:
            raise UnknownVariantError(
                f"Unknown bidding rule {self.rule!r}; known: {', '.join(BIDDING_RULES)}."
            )
        if self.simultaneous and self.rule != "free":
            raise RulesConfigError(
                f"Simultaneous bidding works only with free bidding, not with {self.rule}: "
                "the last bid can't be restricted when everyone bids at once."
            )
        if self.hook_from is not None and self.rule != "hook":
            raise RulesConfigError(f"\"Hook from\" only changes the hook, not {RULE_NAMES[self.rule]}.")

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


def _check(bidding: Bidding, cards: int, earlier: Sequence[int], dealer: bool, name: str) -> BidCheck:
    return _check_after(bidding, cards, sum(earlier), dealer, name)


@lru_cache(maxsize=4096)
def _check_after(bidding: Bidding, cards: int, so_far: int, dealer: bool, name: str) -> BidCheck:
    """The check of a bid after earlier bids adding up to ``so_far``: it depends on nothing else,
    so a replay asks for the same few again and again."""
    everything = tuple(range(cards + 1))
    if bidding.simultaneous:
        return BidCheck(everything, "")
    rule = bidding.rule_for(cards)
    who = f"{name} deals and" if dealer else name
    if rule == "must-equal":
        if dealer:
            need = cards - so_far
            return BidCheck(
                (need,) if 0 <= need <= cards else (),
                f"{who} must bid {need}: the bids must add up to the {cards} tricks (must equal)",
            )
        room = cards - so_far
        return BidCheck(
            tuple(range(max(room, -1) + 1)),
            f"{name} can bid at most {room}: the bids can't add up to more than the {cards} tricks (must equal)",
        )
    if not dealer or rule == "free":
        return BidCheck(everything, "")
    if rule == "dealer-must-exceed" and so_far > 0:
        least = max(0, cards + 1 - so_far)
        return BidCheck(
            tuple(range(least, cards + 1)),
            f"{who} must bid at least {least}: the bids must add up to more than the {cards} tricks "
            "(dealer must exceed)" if least else "",
        )
    hooked = cards - so_far
    if not 0 <= hooked <= cards:
        return BidCheck(everything, "")
    fallback = " — everyone else bid 0, so the hook applies (dealer must exceed)" if rule != "hook" else ""
    return BidCheck(
        tuple(b for b in everything if b != hooked),
        f"{who} can't bid {hooked}: the bids would add up to the {cards} tricks"
        + (fallback or " (hook)"),
    )


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
    check = _check_after(bidding, cards, total - bid, True, name)
    return None if bid in check.allowed else check.reason


def bid_check(
    bidding: Bidding, cards: int, earlier: Sequence[int], *, dealer: bool, name: str = "The dealer"
) -> BidCheck:
    """The allowed bids for the player bidding after ``earlier`` bids, and the reason for the rest.

    >>> bid_check(Bidding("hook"), 7, [2, 1, 1], dealer=True, name="Dee").reason
    "Dee deals and can't bid 3: the bids would add up to the 7 tricks (hook)"
    """
    return _check(bidding, cards, earlier, dealer, name)


def allowed_bids(bidding: Bidding, cards: int, earlier: Sequence[int], *, dealer: bool) -> list[int]:
    """The bids 0..cards the next bidder may make; the UI strikes out the others.

    >>> allowed_bids(Bidding("hook"), 3, [1, 1, 0], dealer=True)
    [0, 2, 3]
    >>> allowed_bids(Bidding("dealer-must-exceed"), 3, [1, 0, 0], dealer=True)
    [3]
    >>> allowed_bids(Bidding("dealer-must-exceed"), 3, [0, 0, 0], dealer=True)
    [0, 1, 2]
    """
    return list(_check(bidding, cards, earlier, dealer, "").allowed)


def verify_bid(
    bidding: Bidding, cards: int, earlier: Sequence[int], bid: int, *, dealer: bool, name: str
) -> None:
    """Raise BidError, naming the player, the rule and the bid, when ``bid`` is not allowed.

    >>> verify_bid(Bidding("hook"), 7, [2, 1, 1], 3, dealer=True, name="Dee")
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.BidError: Dee deals and can't bid 3: the bids would add up to the 7 tricks (hook)
    """
    if isinstance(bid, bool) or not isinstance(bid, int) or not 0 <= bid <= cards:
        raise BidError(f"{name} can't bid {shown(bid)}: a bid is a whole number from 0 to {cards}.")
    check = _check(bidding, cards, earlier, dealer, name)
    if bid not in check.allowed:
        raise BidError(check.reason)


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


def announce(bids: Sequence[int], cards: int) -> str:
    """The bids announced against the cards: "over by k", "under by k" or "even".

    >>> announce([2, 1, 0, 3], 7), announce([3, 3], 4), announce([1, 1], 2)
    ('under by 1', 'over by 2', 'even')
    """
    total = sum(bids)
    if total > cards:
        return f"over by {total - cards}"
    if total < cards:
        return f"under by {cards - total}"
    return "even"


#: The type of a bid or a trick count, exactly: a bool is neither.
WHOLE = frozenset({int})


def verify_tricks(tricks: Sequence[int], cards: int, names: Sequence[str]) -> None:
    """Raise TricksError unless each count is 0..cards and they add up to exactly ``cards``.

    >>> verify_tricks([2, 2], 5, ["Ann", "Bob"])
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.TricksError: The tricks add up to 4, but 5 were played: check the counts.
    """
    if WHOLE.issuperset(map(type, tricks)) and sum(tricks) == cards and min(tricks, default=0) >= 0:
        return  # whole numbers adding up to the cards: none negative, so none above the cards
    for count, name in zip(tricks, names):
        if type(count) is not int or not 0 <= count <= cards:  # a bool is not a count
            raise TricksError(f"{name} can't have taken {shown(count)} tricks: it must be 0 to {cards}.")
    if sum(tricks) != cards:
        raise TricksError(
            f"The tricks add up to {sum(tricks)}, but {cards} were played: check the counts."
        )
