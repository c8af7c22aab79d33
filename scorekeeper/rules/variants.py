"""The named presets (RULES.md §4): each one's rule defaults, its top hand and its note, and
``find_preset``, the registry's lookup."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from . import values
from .errors import UnknownVariantError
from .schedule import largest_hand
from .words import N_, _

#: A top hand size fixed by a preset, from (deck size N, players P).
TopSize = Callable[[int, int], int]


@dataclass(frozen=True)
class Preset:
    """A named rule set: the defaults it fills in and a one-line description. The title, the
    description and the note are in English, marked with ``N_``: translate them with ``_`` where
    shown."""

    name: str
    title: str  # the name a person reads, such as "Up and Down the River"
    description: str
    defaults: Mapping[str, Any]
    top: TopSize | None = None  # None: the default M of RULES.md §1
    note: str = ""


def _all_dealt(cap: int | None = None) -> TopSize:
    def top(deck: int, players: int) -> int:
        size = largest_hand(deck, players, turn_up=False)
        return size if cap is None else min(cap, size)

    return top


def _turn_up(cap: int | None = None) -> TopSize:
    def top(deck: int, players: int) -> int:
        size = largest_hand(deck, players)
        return size if cap is None else min(cap, size)

    return top


def _fixed(size: int) -> TopSize:
    return lambda deck, players: size


PRESETS: dict[str, Preset] = {p.name: p for p in (
    Preset("oh-hell", N_("Oh Hell"), N_("Pagat's Oh Hell: 10 cards down to 1 and back up, hook, "
                                        "10 + tricks for a made bid."),
           {"deal": "down-up", "bidding": "hook", "scoring": "common"}),
    Preset("blackout", N_("Blackout"), N_("Blackout / Blob: down and up with the hook; "
                                          "only a made bid scores (10 + tricks)."),
           {"deal": "down-up", "bidding": "hook", "scoring": "exact"}),
    Preset("cardgames-io", N_("CardGames.io"),
           N_("CardGames.io: 10 down to 1 and up for 4 players, hook, ties shared."),
           {"deal": "down-up", "bidding": "hook", "scoring": "common", "tie": "share"}, _fixed(10)),
    Preset("trickster", N_("Trickster Cards"), N_("Trickster Cards: 10 down to 1 and up, "
                                                  "hook (can be turned off), common scoring."),
           {"deal": "down-up", "bidding": "hook", "scoring": "common"}, _fixed(10)),
    Preset("playohshit", N_("playohshit.com"),
           N_("playohshit.com: 19 deals from 10 cards, hook; the trump Jacks rank highest."),
           {"deal": "down-up", "bidding": "hook", "scoring": "common"}, _fixed(10),
           N_("The Jack of trumps and the other Jack of its colour are the two top trumps.")),
    Preset("denexa", N_("Denexa"), N_("Denexa: the dealer must overbid; 10 per trick bid; "
                                      "a tie plays extra one-card deals."),
           {"deal": "down-up", "bidding": "dealer-must-exceed", "scoring": "ten-per-trick",
            "tie": "one-card-hand"}),
    Preset("up-and-down-the-river", N_("Up and Down the River"),
           N_("Up and Down the River: 10 down and up, hook; two packs from 6 players."),
           {"deal": "down-up", "bidding": "hook", "scoring": "common"}, _fixed(10)),
    Preset("nomination-whist", N_("Nomination Whist"),
           N_("Nomination Whist: 7 cards down to 1 and back up, hook, common scoring."),
           {"deal": "down-up", "bidding": "hook", "scoring": "common"}, _fixed(7)),
    Preset("oh-well", N_("Oh! Well"), N_("Oh! Well (1930): the same hand every deal, "
                                         "the dealer's last card is trump, game to 100."),
           {"deal": "fixed", "bidding": "free", "scoring": "common", "trump": "dealer-last-card",
            "target": 100}, _all_dealt()),
    Preset("oh-pshaw", N_("Oh Pshaw"),
           N_("Oh Pshaw (Bicycle): one card up to all the cards, free bidding, exact scoring."),
           {"deal": "up", "bidding": "free", "scoring": "exact"}, _all_dealt(15)),
    Preset("british-oh-hell", N_("British Oh Hell"),
           N_("British Oh Hell (Parlett): one card up, bids shown at once, 10 for a made bid."),
           {"deal": "up", "bidding": "free", "simultaneous": True, "scoring": "binary"},
           _all_dealt()),
    Preset("elevator", N_("Elevator"),
           N_("Elevator: one card up to the most with a turn-up and back down, hook."),
           {"deal": "up-down", "bidding": "hook", "scoring": "common"}, _turn_up()),
    Preset("get-fred", N_("Get Fred"),
           N_("Get Fred: 9 down to 1, one again, back up to 9; lose 1 per trick off."),
           {"deal": "down-up-twice-one", "bidding": "hook", "scoring": "get-fred"}, _turn_up(9)),
    Preset("oy-vey", N_("Oy Vey"), N_("Oy Vey: like Get Fred, but a made bid scores 10 + bid²."),
           {"deal": "down-up-twice-one", "bidding": "hook", "scoring": "oy-vey"}, _turn_up(9)),
    Preset("hassenpfeffer", N_("Hassenpfeffer"),
           N_("Hassenpfeffer: down and up with the hook; a missed bid loses the bid."),
           {"deal": "down-up", "bidding": "hook", "scoring": "exact-penalty"}),
    Preset("cypriot", N_("Cypriot"),
           N_("Cypriot: down and up with the hook; bids count 5 each, made or missed."),
           {"deal": "down-up", "bidding": "hook", "scoring": "cypriot"}),
    Preset("oh-sh-64", N_("Oh Sh-- (64 cards)"),
           N_("Oh Sh-- (64 cards): up, two no-trump deals at the top, then down; 3 per trick bid."),
           {"deal": "up-nt-down", "bidding": "hook", "scoring": "oh-sh", "deck_size": 64}),
    Preset("kachuful", N_("Kachuful"), N_("Kachuful (India): 7 down and up; "
                                          "trumps rotate spades, diamonds, clubs, hearts, none."),
           {"deal": "down-up", "bidding": "hook", "scoring": "exact", "trump": "rotation",
            "trump_cycle": "S-D-C-H-NT"}, _fixed(7)),
    Preset("boerenbridge", N_("Boerenbridge"),
           N_("Boerenbridge: 10 down and up, hook, 10 + 2 per trick for a made bid."),
           {"deal": "down-up", "bidding": "hook", "scoring": "montreal"}, _fixed(10)),
    Preset("cooperative", N_("Cooperative"),
           N_("Cooperative: bids must add up to the cards; a missed deal is dealt again."),
           {"deal": "down-up", "bidding": "must-equal"}),
)}


def find_preset(name: str) -> Preset:
    """The preset called ``name``; a ValueError names an unknown one.

    >>> find_preset("kachuful").defaults["trump"]
    'rotation'
    """
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise UnknownVariantError(_("Unknown preset %(name)s; known: %(known)s.",
                                    name=values.shown(name), known=", ".join(PRESETS))) from None
