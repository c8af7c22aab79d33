"""Trick counts from the seats (SEATS.md, "Tricks"): once the bids of the deal being played are all
in, each player enters their own count from their seat's page or its taps, and the deal is stored
when every count is in and they add up to the cards dealt.

Until then the counts wait with what the seats entered that the game file doesn't hold yet (the
game's ``seats`` column, ``StoredGame.entries``): ``"deal"``, the deal they belong to (entries of
another deal are void), and ``"tricks"``, a list in seat order of null or the count entered. Each
count is written by the one writer of a game (``changes.apply``, with ``seats=``) with the game's
next version, so every phone following the game sees it; the count that completes the deal, when
they add up, stores the deal's tricks in the same write and lets the counts go. A scorer's tricks
(its step, pre-filled with the seats' counts) store the deal as they always did, and the counts go
with the deal being played.

Every page that shows the deal shows the counts the same way (``Counts``, play/_counts.html): who
has entered and who is missing, and when all are in but don't add up, their sum against the cards
and each player's count.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import changes
from ..changes import Outcome, SeatsChange, Stale, edits
from ..changes.edits import Document
from ..changes.taps import Target
from ..rules.bidding import verify_count, verify_tricks
from ..rules.errors import TricksError
from ..rules.gamefile import GameFile
from ..rules.schedule import Deal
from ..rules.turn import screen
from ..rules.words import N_, _, listed, ngettext
from ..store.games import StoredGame
from ..web import access
from ..web.access import Act
from . import board
from .step import tricks_guess

#: How many times a seat's count is judged again when another phone's write came first.
TRIES = 3


@dataclass(frozen=True)
class Counts:
    """The trick counts the seats entered for the deal being played, at its tricks step."""

    deal: int
    cards: int
    names: tuple[str, ...]
    #: The seats dealt in, ascending.
    dealt: tuple[int, ...]
    #: By seat: the count entered, None for none (or a seat not dealt in).
    counts: tuple[int | None, ...]

    @property
    def entered(self) -> list[int]:
        """The seats dealt in whose count is in."""
        return [seat for seat in self.dealt if self.counts[seat] is not None]

    @property
    def missing(self) -> list[int]:
        """The seats dealt in whose count is not in yet."""
        return [seat for seat in self.dealt if self.counts[seat] is None]

    @property
    def total(self) -> int:
        """The counts entered, added up."""
        return sum(self.counts[seat] or 0 for seat in self.dealt)

    @property
    def off(self) -> bool:
        """Every count is in, and they don't add up to the cards dealt."""
        return not self.missing and self.total != self.cards

    def tally(self, seats: list[int]) -> str:
        """These players' counts, as 'Ann 2, Bob 1'."""
        return ", ".join(f"{self.names[seat]} {self.counts[seat]}" for seat in seats)

    def prompt(self) -> str:
        """What the scorer's tricks step says once players entered counts on their phones."""
        return _(COUNTED)

    def after(self, seat: int) -> str:
        """What comes once the count of the player at ``seat`` is in: the players still to enter
        theirs, or, theirs the last, the deal stored if they add up."""
        others = [other for other in self.missing if other != seat]
        if others:
            return _("Waiting for %(players)s.", players=listed([self.names[s] for s in others]))
        return _("Every count is in: the deal is stored if they add up.")

    def said(self) -> str:
        """Who has entered and who is missing ("Tricks entered: Ann 2, Bob 1 · waiting for Cy
        and Dee"), or, all in but not adding up, their sum against the cards and each one ("4 tricks
        entered, 5 played: Ann 2, Bob 1, Cy 1, Dee 0."); '' before the first count."""
        if not self.entered:
            return ""
        if self.missing:
            return _("Tricks entered: %(counts)s · waiting for %(players)s",
                     counts=self.tally(self.entered),
                     players=listed([self.names[seat] for seat in self.missing]))
        return ngettext("%(total)s trick entered, %(num)s played: %(counts)s.",
                        "%(total)s tricks entered, %(num)s played: %(counts)s.", self.total,
                        total=self.total, num=self.cards, counts=self.tally(self.entered))


def stored_counts(entries: Document, number: int, players: int) -> list[int | None]:
    """The counts the entries hold for deal ``number``, by seat: none when they are another deal's
    (void), or hold none.

    >>> stored_counts({"deal": 2, "tricks": [1, None, 0]}, 2, 3)
    [1, None, 0]
    >>> stored_counts({"deal": 1, "tricks": [1, None, 0]}, 2, 3), stored_counts({}, 1, 2)
    ([None, None, None], [None, None])
    """
    held = entries.get("tricks") if entries.get("deal") == number else None
    if not isinstance(held, list) or len(held) != players:
        return [None] * players
    return [count if type(count) is int else None for count in held]


def counts_of(game: StoredGame, gamefile: GameFile) -> Counts | None:
    """The counts the seats entered, when the game is at the tricks step of a deal; else None."""
    step = screen(gamefile)
    deal = step.deal
    if step.kind != "tricks" or deal is None:
        return None
    players = len(gamefile.players)
    return Counts(deal.number, deal.cards or 0, tuple(gamefile.players), deal.seats(players),
                  tuple(stored_counts(game.entries, deal.number, players)))


def record(document: Document, entries: Document, *, deal: Deal, names: list[str], seat: int,
           count: int) -> None:
    """Enter the count of the player at ``seat`` for ``deal`` (the deal being played, at its tricks
    step) among what the seats entered; when every count is in and they add up to the cards, the
    deal's tricks go into the document, and the counts go (the deal moved on). What else the seats
    entered for this deal is kept; entries of another deal are void.

    >>> from ..rules.schedule import Deal
    >>> doc, entries = {"deals": [{"bids": [0, 1]}]}, {"deal": 1, "bids": "kept"}
    >>> record(doc, entries, deal=Deal(1, 1, 0, 1, None), names=["Ann", "Bob"], seat=1, count=1)
    >>> entries, doc["deals"][-1]
    ({'deal': 1, 'bids': 'kept', 'tricks': [None, 1]}, {'bids': [0, 1]})
    >>> record(doc, entries, deal=Deal(1, 1, 0, 1, None), names=["Ann", "Bob"], seat=0, count=0)
    >>> entries, doc["deals"][-1]
    ({}, {'bids': [0, 1], 'tricks': [0, 1]})
    """
    cards = deal.cards or 0
    verify_count(count, cards, names[seat])  # the rules core's judgement of one count
    counts = stored_counts(entries, deal.number, len(names))
    if entries.get("deal") != deal.number:
        entries.clear()
    counts[seat] = count
    dealt = deal.seats(len(names))
    if _adding_up([counts[s] for s in dealt], cards):
        edits.set_tricks(document, [counts[s] if s in dealt else None for s in range(len(names))])
        entries.clear()
        return
    entries.update(deal=deal.number, tricks=counts)


def _adding_up(given: list[int | None], cards: int) -> bool:
    """Whether every count is in and the rules core takes them as the deal's tricks."""
    if None in given:
        return False
    try:
        verify_tricks([count or 0 for count in given], cards, [""] * len(given))
    except TricksError:
        return False
    return True


def enter_count(game: StoredGame, seat: int, count: int, *, tap: str | None, deal: int | None,
                refusals: list[str] | None = None) -> Outcome:
    """Enter (or change) the trick count of the player at ``seat`` from their seat link, if the seat
    may (web/access.py) and the tap fits the game as it is now (its deal, at its tricks step): the
    changes layer's outcome. Like a seat's bid, it lands by its deal and step, not by the version
    its page showed: when another phone's write came first meanwhile (another seat's count), it is
    judged again on the game as that write left it, so two counts sent at once are both kept."""
    for _attempt in range(TRIES):
        outcome = changes.apply(game, lambda document: None, version=game.version,
                                refusals=refusals or [], tap=tap,
                                target=Target("tricks", deal, seat),
                                refused=access.seat_refusal(game, Act.TRICKS, seat, seat,
                                                            at_once=False),
                                seats=_entering(game.load(), seat, count))
        if not (isinstance(outcome, Stale) and outcome.game is not None
                and outcome.reason == changes.stale(deal)):
            return outcome
        game = outcome.game
    return outcome  # other phones wrote meanwhile, again and again: the seat taps again


def _entering(gamefile: GameFile, seat: int, count: int) -> SeatsChange:
    """The change that enters one seat's count in the game as read (``record``)."""
    at, names = screen(gamefile).deal, list(gamefile.players)

    def enter(document: Document, entries: Document) -> None:
        assert at is not None  # changes.apply let the tap in: the deal being played, at its tricks
        record(document, entries, deal=at, names=names, seat=seat, count=count)

    return enter


def prefilled(deal: Deal, bids: tuple[int | None, ...], counted: Counts | None) -> list[int]:
    """Where the scorer's tricks step starts: each player's count as they entered it on their own
    phone, else their bid; the dealer's row, unless the dealer entered theirs, what the others
    leave (``step.tricks_guess``).

    >>> from ..rules.schedule import Deal
    >>> deal = Deal(1, 3, 0, 1, None)
    >>> prefilled(deal, (1, 1, 1), Counts(1, 3, ("A", "B", "C"), (0, 1, 2), (None, 2, None)))
    [0, 2, 1]
    """
    counts = counted.counts if counted is not None else (None,) * len(bids)
    guess = tricks_guess(deal, tuple(c if c is not None else b for b, c in zip(bids, counts)))
    mine = counts[deal.dealer]
    if mine is not None:
        guess[deal.dealer] = mine
    return guess


#: What the scorer's tricks step says once players entered counts on their phones.
COUNTED = N_("Tricks taken. Each row starts at the count its player entered on their phone, or "
             "else at the bid: tap only what is wrong.")


def with_counts(data: dict[str, Any], counted: Counts | None) -> dict[str, Any]:
    """The scorer's step data with the counts the seats entered, once one is (``counts``, by seat),
    for step.js to fill their rows with, and what its step then says (``counted``): a page without
    them carries neither."""
    if counted is None or not counted.entered:
        return data
    return {**data, "counts": list(counted.counts), "counted": counted.prompt()}


def news(gamefile: GameFile, counted: Counts | None) -> str:
    """The game's last step in words for a following page's status line: the counts when some are
    in ('Tricks entered: Ann 2 · waiting for Bob and Cy'), else ``board.news``."""
    return (counted.said() if counted is not None else "") or board.news(gamefile)
