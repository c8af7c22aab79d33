"""Sealed bids (SEATS.md, "Sealed bids"): where the bids are made at once and sealed
(``Rules.sealed``), each player's phone enters its own bid in secret. Those bids are kept beside the
game file, never in it (the game's ``seats`` column: ``{"deal": n, "bids": [null or {"bid": k,
"phone": "<the id of the phone that entered it>"}, ...]}``, in seat order) until the last one is
in; then all of them go into the game file at once, in the same change (the reveal).

This reads them (``sealed``), checks a bid entered (``verify``), says when a change would lose them
(``lost``) and hides them in an export (``seal_export``). What it hands out for showing is only who
has bid (``Sealed.bid_in``) and, for one phone, what that phone entered itself (``Sealed.mine``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .bidding import verify_bid
from .errors import BidError
from .gamefile import GameFile
from .turn import screen
from .words import _


@dataclass(frozen=True)
class Sealed:
    """The sealed bids of the deal being played: its number, the players dealt in (in bidding
    order), and by seat each bid entered and the phone that entered it (None: not bid yet)."""

    deal: int
    cards: int
    order: tuple[int, ...]
    bids: tuple[int | None, ...] = field(repr=False)  # never shown but to the phone that entered
    phones: tuple[str | None, ...] = field(repr=False)

    @property
    def bid_in(self) -> tuple[bool, ...]:
        """Whether each player (by seat) has bid: all anyone may know before the reveal."""
        return tuple(bid is not None for bid in self.bids)

    @property
    def started(self) -> bool:
        """Whether some bid is in: the bids are sealed."""
        return any(self.bid_in)

    @property
    def complete(self) -> bool:
        """Whether every player dealt in has bid: the bids are shown."""
        return all(self.bids[seat] is not None for seat in self.order)

    def mine(self, phone: str | None) -> dict[int, int]:
        """The bids this phone entered, by seat: shown to it alone."""
        return {seat: bid for seat, (bid, by) in enumerate(zip(self.bids, self.phones, strict=True))
                if bid is not None and phone is not None and by == phone}

    def elsewhere(self, seat: int, phone: str | None) -> bool:
        """Whether the player at ``seat`` has bid from another phone than ``phone``."""
        return self.bids[seat] is not None and (phone is None or self.phones[seat] != phone)

    def entries(self) -> list[dict[str, Any] | None]:
        """The bids as the ``seats`` column keeps them."""
        return [None if bid is None else {"bid": bid, "phone": by}
                for bid, by in zip(self.bids, self.phones, strict=True)]


def sealed(gamefile: GameFile, entries: Mapping[str, Any]) -> Sealed | None:
    """The sealed bids of the deal being played, when it is at its bids and they are sealed (none
    may be in yet); None otherwise. Entries of another deal, or not one per player, count for
    nothing.

    >>> from .gamefile import parse
    >>> game = parse({"players": ["Ann", "Bob"], "rules": {"preset": "british-oh-hell"}})
    >>> seen = sealed(game, {"deal": 1, "bids": [None, {"bid": 1, "phone": "p1"}]})
    >>> seen, seen.bid_in, seen.mine("p1"), seen.mine("p2")
    (Sealed(deal=1, cards=1, order=(1, 0)), (False, True), {1: 1}, {})
    >>> sealed(game, {"deal": 2, "bids": [{"bid": 0, "phone": "p1"}, None]}).started
    False
    """
    if not gamefile.rules.sealed:
        return None
    step = screen(gamefile)
    if step.kind != "bids" or step.deal is None:
        return None
    deal, players = step.deal, len(gamefile.players)
    order = tuple(deal.bidding_order(players))
    given = entries.get("bids") if entries.get("deal") == deal.number else None
    if not isinstance(given, list) or len(given) != players:
        given = [None] * players
    bids: list[int | None] = []
    phones: list[str | None] = []
    for seat, entry in enumerate(given):
        bid = entry.get("bid") if isinstance(entry, dict) and seat in order else None
        by = entry.get("phone") if isinstance(entry, dict) else None
        ok = type(bid) is int and isinstance(by, str)
        bids.append(bid if ok else None)
        phones.append(by if ok else None)
    return Sealed(deal.number, deal.cards or 0, order, tuple(bids), tuple(phones))


def verify(gamefile: GameFile, seat: int, bid: int) -> None:
    """Refuse a sealed bid the rules don't allow, as the bids are checked when they are shown: a
    player not dealt in, a bid over the cards (RulesError, naming the deal).

    >>> from .gamefile import parse
    >>> game = parse({"players": ["Ann", "Bob"], "rules": {"preset": "british-oh-hell"}})
    >>> verify(game, 0, 2)
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.BidError: Deal 1: Ann can't bid 2: a bid is a whole number from 0 to 1.
    """
    step = screen(gamefile)
    assert step.deal is not None
    names, deal = gamefile.players, step.deal
    if seat not in deal.bidding_order(len(names)):
        raise BidError(_("That player is not dealt in at deal %(deal)s: this bid was not saved.",
                         deal=deal.number))
    try:
        verify_bid(gamefile.rules.bidding, deal.cards or 0, [], bid, dealer=False,
                   name=names[seat])
    except BidError as exc:
        raise BidError(_("Deal %(deal)s: %(why)s", deal=deal.number, why=str(exc))) from None


def lost(before: Sealed | None, after: GameFile, entries: Mapping[str, Any]) -> str | None:
    """Why a change that leaves the game (``after``, with what the seats entered kept as
    ``entries``) at the same deal may not be made: it would lose the bids sealed ``before`` it, or
    show them, or make them unfit (sealing turned off, the bids made in turn, a player seated
    meanwhile, another number of cards). None when it
    may: nothing was sealed, the bids stay as they were, or the deal is no longer being played (the
    game ended now)."""
    if before is None or not before.started:
        return None
    step = screen(after)
    if step.deal is None or step.deal.number != before.deal:
        return None
    if sealed(after, entries) == before:  # the same bids, players and cards
        return None
    return _("Deal %(deal)s: the bids are sealed until every player has bid, and this change "
             "would lose them. Make it once the bids are shown, or take the bids back first.",
             deal=before.deal)


def seal_export(doc: dict[str, Any], gamefile: GameFile, seen: Sealed | None) -> dict[str, Any]:
    """An export (``gamefile.export``) as every link may read it while a deal's bids are sealed:
    that deal's ``bids`` null, and ``bid_in``, in seat order, whether each player has bid (the
    total and its announce, which the bids make, left out). Unchanged when nothing is sealed."""
    if seen is None or not seen.started:
        return doc
    step = screen(gamefile)
    assert step.deal is not None
    deal, players = step.deal, len(gamefile.players)
    deals: list[dict[str, Any]] = doc["deals"]
    if not deals or deals[-1]["number"] != seen.deal:
        deals.append({"number": deal.number, "cards": deal.cards, "dealer": deal.dealer,
                      "eldest": deal.eldest, "present": list(deal.seats(players)),
                      "trump": None})
    entry = deals[-1]
    for computed in ("bid_total", "announce"):
        entry.pop(computed, None)
    entry.update(bids=None, bid_in=list(seen.bid_in))
    return doc
