"""The one writer of a game: every change to a game, from every page and the API, goes through here.

The guarantee: **one change, once, on its own deal, in one short transaction.**

- *One change*: ``apply`` takes the game as read, the change (a function on its input document,
  from ``edits``), and what the page read from the request, as plain values: the version the
  change was made on, what the form refused, the tap's client id and target, and why the link may
  not make the change (web/access.py decides; the page passes its sentence in). It answers with an
  outcome, never a page: ``Saved``, ``AlreadyApplied``, ``Stale`` or ``Refused``, which the page
  (or the API) renders.
- *The rules judge it*: the changed document is replayed by the rules core (``StoredGame.replay``),
  which accepts it or says why not in its own sentence, before anything is written.
- *On its own deal*: a tap names its deal and step (and a seat); it is applied there only, or
  refused naming the deal (``taps.misplaced``). The version still guards against another phone's
  change, but never decides where a tap lands.
- *Once*: how a tap is deduplicated, end to end —
  1. the phone (static/js/outbox.js) gives every tap a client id and sends it again with the same
     id until it has an answer (a reload, the network back, a timer); static/js/play.js only shows
     what came of each;
  2. the form carries it (``play.forms.tap_id``), and the page passes it here;
  3. here, a tap whose id is stored already is answered as stored (``AlreadyApplied``), however
     long ago and however many taps came since;
  4. store/games.py keeps the id in the applied taps table (``game_taps``, migration 0004) in the
     same transaction as the change, so two copies racing each other store it once: the copy that
     loses the version-checked UPDATE finds the id the winner stored, and is ``AlreadyApplied`` too.
- *One short transaction*: everything is checked and replayed first; the write is one UPDATE over
  the version read (and the tap's id), committed at once (``StoredGame.save``).

Nothing else writes a game: ``StoredGame.save``, ``create``, ``stage`` and ``stored`` are called
from here and from the store alone (tests/test_layers.py checks it). New games are made by
``games``; a game's change that is committed with a club night's own write, by ``stage``/``keep``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import orjson

from ..rules import sealed
from ..rules.errors import RulesError, sentence
from ..rules.gamefile import GameFile, to_input
from ..rules.words import N_, _
from ..store.games import StoredGame, Written, find_game
from .edits import Document, EditError
from .taps import Target, misplaced

STALE = N_("This screen was out of date: the game had changed since it was shown (on another "
           "phone, or before going back). Nothing was changed — this is the game as it is now.")

#: The same, for a tap: it names its deal.
STALE_TAP = N_("Deal %(deal)s: this entry was made on a screen that was out of date (the game had "
               "changed on another phone). Nothing was changed — this is the game as it is now.")

#: A change: it edits the game's input document in place (``edits``), or raises EditError.
Change = Callable[[Document], None]
#: A change to what the seats entered and the game file doesn't hold yet (SEATS.md: sealed bids,
#: trick counts not all in): it edits the game's input document and those entries
#: (``StoredGame.entries``) in place, or raises EditError.
SeatsChange = Callable[[Document, Document], None]
#: A check of the changed game the rules accept but the table may not (EditError: a deal still to
#: come too big for its players).
Check = Callable[[GameFile], None]


@dataclass(frozen=True)
class Saved:
    """The change is stored: ``game`` is at its new version, ``checked`` its replay."""

    game: StoredGame
    checked: GameFile


@dataclass(frozen=True)
class AlreadyApplied:
    """The tap was stored before (sent again, its answer lost): answered as when it was stored."""

    game: StoredGame


@dataclass(frozen=True)
class Stale:
    """Nothing was changed: the change was made on a screen the game has moved on from, or a tap
    doesn't fit its deal any more. ``reason`` says so (naming ``deal``, for a tap); ``game`` is the
    game as it is now (None: deleted meanwhile)."""

    reason: str
    game: StoredGame | None
    deal: int | None = None


@dataclass(frozen=True)
class Refused:
    """Nothing was changed: the link may not (403), the form or the rules refuse it (422), or it
    would lose the bids sealed in the deal being played (409: ``rules.sealed.lost``)."""

    reason: str
    status: int


Outcome = Saved | AlreadyApplied | Stale | Refused


def stale(deal: int | None = None) -> str:
    """What a change made on an out-of-date screen says (naming the tap's deal, if any)."""
    return _(STALE_TAP, deal=deal) if deal else _(STALE)


def apply(game: StoredGame, change: Change, *, version: int | None, refusals: Sequence[str] = (),
          tap: str | None = None, target: Target | None = None, refused: str | None = None,
          check: Check | None = None, seats: SeatsChange | None = None) -> Outcome:
    """Apply one change to the game as read, if it was made on its current ``version``, fits its
    ``target`` (a tap's deal and step) and the rules accept the result; else say why, changing
    nothing.

    ``refusals``: what the form refused (422). ``tap``: the tap's client id (stored once).
    ``refused``: why this link may not make the change (web/access.py), None when it may (else 403).
    ``check`` may refuse a game the rules accept but the table can't play on. ``seats`` changes
    what the seats entered too (after ``change``); without it, what they entered is kept while the
    deal being played stays as it was, and let go when the change moves it (``kept_entries``).
    """
    if tap is not None and game.applied(tap):  # sent again (its answer was lost): it is stored once
        return AlreadyApplied(game)
    if refused is not None:
        return Refused(refused, 403)
    deal = target.deal if target is not None else None
    if target is not None and deal is not None:
        where = misplaced(game.load(), target)
        if where is not None:
            return Stale(where, game, deal)
    if version != game.version:
        return Stale(stale(deal), game, deal)
    if refusals:
        return Refused(" ".join(refusals), 422)
    document, entries = game.document, game.entries
    try:
        change(document)
        if seats is not None:
            seats(document, entries)
        checked = game.replay(document)
        if check is not None:
            check(checked)
    except (RulesError, EditError) as exc:
        return Refused(sentence(str(exc)), 422)
    kept = entries if seats is not None else kept_entries(game, document)
    if seats is None:  # bids sealed are never lost nor shown by a change that doesn't say
        lost = sealed.lost(sealed.sealed(game.load(), game.entries), checked, kept)
        if lost is not None:
            return Refused(lost, 409)
    if not game.save(checked, tap, seats_column(kept)):
        if tap is not None and game.applied(tap):  # the other copy of this very tap came first
            return AlreadyApplied(game)
        return Stale(stale(deal), find_game(game.token)[0], deal)  # another write came first
    return Saved(game, checked)


def kept_entries(game: StoredGame, document: Document) -> Document:
    """What the seats entered, as a change that doesn't say leaves it: kept while the deal being
    played is as it was (its number and its bids: a correction of an earlier deal, a rename, its
    trump), let go when the change moved it (its bids or tricks entered, taken back, another deal
    begun).

    >>> from types import SimpleNamespace as Game
    >>> game = Game(entries={"deal": 2}, document={"deals": [{"bids": [1, 0], "tricks": [1, 0]}]})
    >>> kept_entries(game, {"deals": [{"bids": [0, 0], "tricks": [1, 0]},
    ...                               {"bids": [None, None], "trump": "S"}]})
    {'deal': 2}
    >>> kept_entries(game, {"deals": [{"bids": [1, 0], "tricks": [1, 0]}, {"bids": [None, 1]}]})
    {}
    >>> kept_entries(game, {"deals": [{"bids": [1, 0], "tricks": [1, 0]},
    ...                               {"bids": [None, None], "trump": "H"}]})
    {'deal': 2}
    """
    entries: Document = game.entries
    if not entries:
        return entries
    return entries if _playing(game.document) == _playing(document) else {}


def _playing(document: Document) -> tuple[int, list[int | None] | None]:
    """The deal being played in a game's input: its number, and its bids (None before any)."""
    deals = document.get("deals", [])
    if deals and "tricks" not in deals[-1]:
        bids = deals[-1].get("bids")
        return len(deals), bids if any(bid is not None for bid in bids or ()) else None
    return len(deals) + 1, None


def seats_column(entries: Document) -> str:
    """What the seats entered, as the ``seats`` column stores it ('' for nothing)."""
    return orjson.dumps(entries).decode() if entries else ""


def replace(game: StoredGame, checked: GameFile) -> Saved | Stale:
    """Store a whole new game file of this game, checked already against the version read (the
    API's PUT, over its If-Match): ``Stale`` when another write came first. What the seats entered
    is kept only while the deal being played is as it was."""
    if not game.save(checked, seats=seats_column(kept_entries(game, to_input(checked)))):
        return Stale(stale(), find_game(game.token)[0])
    return Saved(game, checked)


@dataclass(frozen=True)
class Staged:
    """A change written and not yet committed: the caller commits it with what else it writes (a
    club night's document), then calls ``keep``. ``written`` is None when the change left the game
    as it was (nothing to write)."""

    game: StoredGame
    checked: GameFile
    written: Written | None


def stage(game: StoredGame, change: Change) -> Staged | Stale | Refused:
    """Write one change of the game as read, if the rules accept it, for the caller to commit in the
    same transaction as its own writes (ending a club night's table early writes the game and the
    night at once); ``Stale`` when another write came first, with the transaction rolled back."""
    document = game.document
    try:
        change(document)
        checked = game.replay(document)
    except (RulesError, EditError) as exc:
        return Refused(sentence(str(exc)), 422)
    if document == game.document:
        return Staged(game, checked, None)
    written = game.stage(checked, seats_column(kept_entries(game, document)))
    if written is None:
        return Stale(stale(), game)
    return Staged(game, checked, written)


def keep(staged: Staged) -> None:
    """A staged change was committed: its game is at its next version, and its replay is kept."""
    if staged.written is not None:
        staged.game.stored(staged.checked, staged.written)
