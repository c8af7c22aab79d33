"""Sealed bids on the pages and in the files (SEATS.md, "Sealed bids"): what a phone shows of them
(who has bid, and on the phone that entered a bid, that bid: ``shown``), a seat's and the scorer's
entry of them, the scorer's taking them back, and the export every link reads while they are
sealed (the deal's ``bids`` null, and ``bid_in``). Reading them is ``rules.sealed``'s; writing them,
``changes.sealing``'s.

No page kept for every phone (the read-only page, its live part) holds a phone's own bids: they
are asked for with ``own`` only where the page is drawn for this phone alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import request

from ..changes import Outcome, Refused, sealing
from ..phone import device
from ..rules.gamefile import GameFile, export
from ..rules.sealed import seal_export, sealed
from ..rules.turn import screen
from ..rules.words import _, ngettext
from ..store.games import StoredGame
from ..web import access
from ..web.access import Act
from ..web.fields import VersionForm
from .forms import seats_form, tap_id
from .taps import target


@dataclass(frozen=True)
class Shown:
    """What a phone shows of the sealed bids of the deal being played: who has bid (by seat), and
    the bids this phone entered itself (by seat; none on a page kept for every phone)."""

    deal: int
    order: tuple[int, ...]
    bid_in: tuple[bool, ...]
    mine: Mapping[int, int]

    @property
    def count(self) -> int:
        """How many players have bid."""
        return sum(self.bid_in[seat] for seat in self.order)

    def elsewhere(self, seat: int) -> bool:
        """Whether the player at ``seat`` has bid from another phone."""
        return self.bid_in[seat] and seat not in self.mine


def shown(game: StoredGame, gamefile: GameFile, *, own: bool) -> Shown | None:
    """What this phone shows of the deal's sealed bids (None: the deal's bids are not sealed);
    ``own``: with the bids this phone entered."""
    seen = sealed(gamefile, game.entries)
    if seen is None:
        return None
    return Shown(seen.deal, seen.order, seen.bid_in,
                 seen.mine(device.phone_id()) if own else {})


def step_part(seen: Shown) -> dict[str, list[Any]]:
    """The step data's ``sealed`` (play/step.py): by seat, who has bid, and what this phone
    entered (null for the others)."""
    return {"in": list(seen.bid_in), "mine": [seen.mine.get(seat) for seat in
                                             range(len(seen.bid_in))]}


def news(game: StoredGame, gamefile: GameFile) -> str | None:
    """The status line of a phone following the game while its bids are sealed: how many are in."""
    seen = sealed(gamefile, game.entries)
    if seen is None or not seen.started:
        return None
    given = sum(seen.bid_in)
    return ngettext("Deal %(deal)s: %(num)s of %(players)s has bid · sealed until everyone has",
                    "Deal %(deal)s: %(num)s of %(players)s have bid · sealed until everyone has",
                    given, deal=seen.deal, players=len(seen.order))


def refusal(game: StoredGame, deal: int | None = None) -> str | None:
    """Why the game can't be replaced as a whole now, nor deal ``deal`` corrected: a deal's bids
    are sealed (reading them back, or losing them, is what those would do). None when nothing is,
    or they are another deal's."""
    seen = sealed(game.load(), game.entries)
    if seen is None or not seen.started or deal not in (None, seen.deal):
        return None
    return _("Deal %(deal)s: the bids are sealed until every player has bid. Correct a deal or "
             "replace the game once they are shown.", deal=seen.deal)


def sealed_export(game: StoredGame, links: Mapping[str, str] | None = None) -> dict[str, Any]:
    """A stored game's export as any link may read it: a deal's sealed bids null, with who has bid
    (``rules.sealed.seal_export``)."""
    gamefile = game.load()
    return seal_export(export(gamefile, links), gamefile, sealed(gamefile, game.entries))


def seat_bid(game: StoredGame, seat: int, value: int, *, tap: str | None, deal: int | None,
             refusals: list[str]) -> Outcome:
    """A seat's own sealed bid, from its phone (it may change it until every bid is in)."""
    return sealing.enter(game, {seat: value}, phone=device.phone_id(make=True) or "", tap=tap,
                         deal=deal, refusals=refusals,
                         refused=access.seat_refusal(game, Act.BID, seat, seat, at_once=False))


def scorer_bids(game: StoredGame) -> tuple[Outcome, list[int | None]]:
    """The scorer's bids at once while they are sealed: those it taps (the players without a phone
    of their own, or everyone), sealed on its phone until the last is in; all of them at once shows
    them at once, as ever, over the version its page showed. Once a player has bid on their own
    phone, they land by their deal and players, as a seat's do: a player bidding meanwhile makes
    them no less right. The outcome, and the bids as posted (a refused page keeps them)."""
    gamefile = game.load()
    step = screen(gamefile)
    dealt = step.deal.seats(len(gamefile.players)) if step.deal else []
    posted = [seat for seat in dealt if request.form.get(f"bids-{seat}", "").strip()]
    form = seats_form(request.form, gamefile.players, step.deal.cards or 0 if step.deal else 0,
                      bids=True, tricks=False, seats=posted)
    version, refusals = form.posted()
    aim, unread = target("bids")
    if not posted:
        refusals = [*refusals, _("Tap a player's bid, then save.")]
    phone = device.phone_id(make=True) or ""
    seen = sealed(gamefile, game.entries)
    if seen is not None and any(seen.elsewhere(seat, phone) for seat in seen.order):
        version = None  # the players bid on their phones: it lands by its deal, as theirs do
    return sealing.enter(game, {seat: form.numbers["bids"][seat] or 0 for seat in posted},
                         phone=phone, tap=tap_id(request.form), deal=aim.deal, version=version,
                         refused=access.refusal(game, Act.PLAY),
                         refusals=[*unread, *refusals]), form.numbers["bids"]


def take_back(game: StoredGame) -> Outcome:
    """The scorer's undo while the bids are sealed: every sealed bid taken back, to bid again."""
    version, refusals = VersionForm().posted()
    aim, unread = target("bids")
    if refusals or unread:
        return Refused(" ".join([*unread, *refusals]), 422)
    return sealing.take_back(game, version=version, tap=tap_id(request.form), deal=aim.deal,
                             refused=access.refusal(game, Act.PLAY))
