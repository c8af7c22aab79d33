"""Where a tap lands: a tap names its deal and step (and a seat), and is applied there only, or
refused with a sentence that names the deal. The page reads the target from the posted form
(``play.taps.target``); ``changes.apply`` asks ``misplaced`` before anything is written. Whether a
player may bid now is the rules core's to say (``rules.turn.bid_refusal``): asked, not judged
here."""

from __future__ import annotations

from typing import NamedTuple

from ..rules.gamefile import GameFile
from ..rules.turn import bid_refusal, screen
from ..rules.words import _


class Target(NamedTuple):
    """What a tap is for: its step (bid, bids, tricks, undo, trump, cards), the deal it was made on
    (None: it names none, and is refused), and the seat it names (a bid; an undo of bids in
    turn)."""

    step: str
    deal: int | None
    seat: int | None = None


def misplaced(gamefile: GameFile, aim: Target) -> str | None:
    """Why a tap doesn't fit the game as it is now, naming its deal; None when it does. A tap is
    applied only to the deal and step it was made for: never to another deal, whatever its
    version."""
    step, number = screen(gamefile), aim.deal
    names = gamefile.players
    if step.kind == "over" or step.deal is None:
        return _("The game is over: this entry for deal %(deal)s was not saved.", deal=number)
    at = step.deal.number
    if number != at:
        if number is not None and number < at and aim.step == "tricks" \
                and aim.seat is not None and 0 <= aim.seat < len(names):  # a player's own count
            return _("Deal %(deal)s is stored already: %(player)s's count was not saved. "
                     "The scorer can correct the deal.", deal=number, player=names[aim.seat])
        if number is not None and number < at:
            return _("Deal %(deal)s is finished: this entry for it was not saved. "
                     "To change the deal, correct it from the board.", deal=number)
        return _("This entry is for deal %(deal)s, but the game is at deal %(at)s: "
                 "it was not saved.", deal=number, at=at)
    order = step.deal.bidding_order(len(names))
    bids = step.result.bids if step.result else (None,) * len(names)
    entered = [seat for seat in order if bids[seat] is not None]
    if aim.step in ("bid", "bids") and step.kind == "tricks":
        if aim.step == "bid" and aim.seat is not None and 0 <= aim.seat < len(bids) \
                and bids[aim.seat] is not None:  # what was stored (the last bid, from two phones)
            return _("%(player)s has bid %(bid)s in deal %(deal)s already: "
                     "this bid was not saved.", player=names[aim.seat], bid=bids[aim.seat],
                     deal=number)
        return _("The bids of deal %(deal)s are all in: this was not saved.", deal=number)
    if aim.step == "tricks" and step.kind != "tricks":
        return _("Deal %(deal)s is still at the bids: these tricks were not saved.", deal=number)
    if aim.step == "cards" and step.kind != "cards" or aim.step != "cards" and step.kind == "cards":
        return _("Deal %(deal)s needs its number of cards first: this was not saved.", deal=number)
    if aim.step == "bid" and aim.seat is not None:
        return bid_refusal(gamefile, aim.seat)  # the rules core's judgement, asked, never made here
    if aim.step == "undo":
        if not entered and step.result is None:  # (a manual deal's cards alone are taken back)
            return _("Deal %(deal)s has no bid to take back: nothing was taken back.", deal=number)
        if (entered and not gamefile.rules.bidding.simultaneous and aim.seat is not None
                and aim.seat != entered[-1]):
            return _("The last bid of deal %(deal)s is %(player)s's now: nothing was taken back.",
                     deal=number, player=names[entered[-1]])
    return None
