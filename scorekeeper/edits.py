"""Changes to a game's input document (the game file's input part, a plain dict).

Each function changes the document in place and checks nothing a rule decides: the view then
replays the changed document with ``parse()``, which accepts it or says what is wrong.
"""

from __future__ import annotations

from typing import Any

Document = dict[str, Any]


class EditError(ValueError):
    """A change that doesn't fit where the game is (tricks with no deal being played, …)."""


def _players(doc: Document) -> int:
    return len(doc["players"])


def _unfinished(doc: Document) -> Document | None:
    deals = doc.setdefault("deals", [])
    if deals and "tricks" not in deals[-1]:
        last: Document = deals[-1]
        return last
    return None


def open_deal(doc: Document) -> Document:
    """The deal being played; a new, empty one when the last deal is finished.

    >>> doc = {"players": ["Ann", "Bob"], "deals": [{"bids": [1, 0], "tricks": [1, 0]}]}
    >>> open_deal(doc), len(doc["deals"])
    ({'bids': [None, None]}, 2)
    """
    deal = _unfinished(doc)
    if deal is None:
        deal = {"bids": [None] * _players(doc)}
        doc["deals"].append(deal)
    return deal


def set_bid(doc: Document, seat: int, bid: int) -> None:
    """Enter one player's bid in the deal being played."""
    bids = open_deal(doc)["bids"]
    if not 0 <= seat < len(bids) or bids[seat] is not None:
        raise EditError("That player has bid already: take the bid back (undo) to change it.")
    bids[seat] = bid


def set_bids(doc: Document, bids: list[int]) -> None:
    """Enter every player's bid at once (simultaneous bidding)."""
    open_deal(doc)["bids"] = list(bids)


def set_cards(doc: Document, cards: int) -> None:
    """Say how many cards the next deal has (the manual pattern)."""
    deal = open_deal(doc)
    if any(b is not None for b in deal["bids"]):
        raise EditError("The bids have started: undo them to change the number of cards.")
    deal["cards"] = cards


def set_trump(doc: Document, trump: str) -> None:
    """Record the trump of the deal being played."""
    open_deal(doc)["trump"] = trump


def undo_bid(doc: Document, order: list[int]) -> None:
    """Take back the last bid entered (in bidding order); a deal left empty is removed.

    >>> doc = {"players": ["Ann", "Bob"], "deals": [{"bids": [None, 1]}]}
    >>> undo_bid(doc, [1, 0]); doc["deals"]
    []
    """
    deal = _unfinished(doc)
    if deal is None:
        raise EditError("There is no bid to take back: the deal is finished.")
    entered = [seat for seat in order if deal["bids"][seat] is not None]
    if entered:
        deal["bids"][entered[-1]] = None
    if not entered or all(b is None for b in deal["bids"]):
        doc["deals"].pop()


def set_tricks(doc: Document, tricks: list[int]) -> None:
    """Enter the tricks of the deal being played, once everybody has bid."""
    deal = _unfinished(doc)
    if deal is None or any(b is None for b in deal["bids"]):
        raise EditError("Tricks can be entered only when every player has bid.")
    deal["tricks"] = list(tricks)


def replace_deal(doc: Document, number: int, bids: list[int | None], tricks: list[int] | None,
                 trump: str | None) -> None:
    """Correct an earlier deal (1-based ``number``); the later deals are replayed after it."""
    deals = doc.get("deals", [])
    if not 1 <= number <= len(deals):
        raise EditError(f"There is no deal {number} to correct.")
    deal = {key: value for key, value in deals[number - 1].items() if key == "cards"}
    deal["bids"] = list(bids)
    if tricks is not None:
        deal["tricks"] = list(tricks)
    if trump:
        deal["trump"] = trump
    deals[number - 1] = deal


def add_adjustment(doc: Document, deal: int, player: int, points: float, reason: str) -> None:
    """Give a player one-off points at a deal, with a reason."""
    doc.setdefault("adjustments", []).append(
        {"deal": deal, "player": player, "points": points, "reason": reason}
    )


def remove_adjustment(doc: Document, index: int) -> None:
    """Take an adjustment back."""
    adjustments = doc.get("adjustments", [])
    if not 0 <= index < len(adjustments):
        raise EditError("That adjustment is not in the game any more.")
    adjustments.pop(index)


def set_ended(doc: Document, ended: bool) -> None:
    """End the game now (the totals so far decide), or take that back."""
    doc["ended"] = ended


def set_stakes(doc: Document, stakes: dict[str, Any] | None) -> None:
    """Change what the game is played for (None: no stakes); the settlement follows."""
    if stakes is None:
        doc.pop("stakes", None)
    else:
        doc["stakes"] = stakes
