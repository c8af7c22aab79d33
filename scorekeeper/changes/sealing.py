"""Entering sealed bids (SEATS.md, "Sealed bids"; ``rules.sealed`` reads them): a player's own phone
enters their bid, the scorer's phone the bids of players without a phone of their own (or
everyone's at once). Each is kept beside the game file with the id of the phone that entered it,
written with the game's next version by the one writer (``changes.apply``, ``seats=``); the bid
that completes them moves them all into the game file in that same change (the reveal), and they
are let go from beside it.

A bid entered from one phone is changed from that phone alone until the reveal: another phone's
is refused naming the deal, and never says the bid. The scorer may take all of them back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..rules.errors import RulesError
from ..rules.gamefile import GameFile
from ..rules.sealed import Sealed, sealed, verify
from ..rules.words import _
from ..store.games import StoredGame
from . import AlreadyApplied, Outcome, Stale, apply, edits, stale
from .edits import Document, EditError
from .taps import Target

#: How many times sealed bids are judged again when another phone's write came first.
TRIES = 3


def enter(game: StoredGame, bids: Mapping[int, int], *, phone: str, tap: str | None,
          deal: int | None, version: int | None = None, refused: str | None = None,
          refusals: Sequence[str] = ()) -> Outcome:
    """Enter sealed bids (by seat) of deal ``deal`` from ``phone``, as the changes layer applies a
    tap: once, on its own deal (over ``version``, when given); refused (naming the deal) for a
    player who has bid from another phone. Shown to every phone at once when they complete the
    deal's bids. Without ``version`` they land by their deal and their players, not by the version
    their screen showed (each seat may bid at any moment): when another phone's write came first
    meanwhile, they are judged again on the game as that write left it."""
    for _attempt in range(TRIES):
        outcome = _enter(game, bids, phone=phone, tap=tap, deal=deal, version=version,
                         refused=refused, refusals=refusals)
        if not (version is None and isinstance(outcome, Stale) and outcome.game is not None
                and outcome.reason == stale(deal)):
            return outcome
        game = outcome.game
    return outcome  # other phones wrote meanwhile, again and again: the phone taps again


def _enter(game: StoredGame, bids: Mapping[int, int], *, phone: str, tap: str | None,
           deal: int | None, version: int | None, refused: str | None,
           refusals: Sequence[str]) -> Outcome:
    """``enter``, once, on the game as read."""
    if tap is not None and game.applied(tap):  # answered as stored, whoever bid since
        return AlreadyApplied(game)
    seen = sealed(game.load(), game.entries)
    if refused is None and seen is not None and seen.deal == deal:
        taken = [seat for seat in sorted(bids) if 0 <= seat < len(seen.bids)
                 and seen.elsewhere(seat, phone)]
        if taken:
            return Stale(_("%(player)s has bid in deal %(deal)s already, from another phone: "
                           "only that phone can change the bid until every bid is in. "
                           "Nothing was saved.", player=game.load().players[taken[0]], deal=deal),
                         game, deal)

    def put(document: Document, entries: Document) -> None:
        gamefile = game.load()
        now = sealed(gamefile, entries)
        if now is None:  # the target said the deal is at its bids: sealing was turned off
            raise EditError(_("Deal %(deal)s: the bids are not sealed any more: enter them again.",
                              deal=deal))
        kept = now.entries()
        for seat, bid in bids.items():
            verify(gamefile, seat, bid)
            kept[seat] = {"bid": bid, "phone": phone}
        if all(kept[seat] is not None for seat in now.order):  # the last is in: all shown
            _fit(gamefile, now, bids)
            edits.set_bids(document, [None if entry is None else entry["bid"] for entry in kept])
            entries.pop("bids", None)
        else:
            if entries.get("deal") != now.deal:  # another deal's entries count for nothing
                entries.clear()
            entries.update(deal=now.deal, bids=kept)
        if set(entries) <= {"deal"}:
            entries.clear()

    return apply(game, _unchanged, version=game.version if version is None else version,
                 refusals=refusals, tap=tap,
                 target=Target("bids", deal), refused=refused, seats=put)


def take_back(game: StoredGame, *, version: int | None, tap: str | None, deal: int | None,
              refused: str | None = None) -> Outcome:
    """Take back every sealed bid of the deal being played (the scorer's undo): the players bid
    again."""
    def put(document: Document, entries: Document) -> None:
        entries.pop("bids", None)
        if set(entries) <= {"deal"}:
            entries.clear()

    return apply(game, _unchanged, version=version, tap=tap, target=Target("bids", deal),
                 refused=refused, seats=put)


def _fit(gamefile: GameFile, now: Sealed, entered: Mapping[int, int]) -> None:
    """Refuse the reveal if a bid sealed before no longer fits the deal, without saying the bid
    (``rules.sealed.lost`` keeps the deal's cards and players from changing under sealed bids: a
    safeguard)."""
    for seat in now.order:
        bid = now.bids[seat]
        if seat in entered or bid is None:
            continue
        try:
            verify(gamefile, seat, bid)
        except RulesError:
            raise EditError(_("Deal %(deal)s: %(player)s's sealed bid no longer fits the deal: "
                              "take the bids back, and bid again.", deal=now.deal,
                              player=gamefile.players[seat])) from None


def _unchanged(document: Document) -> None:
    """The game file as it is: a sealed bid is kept beside it."""
