"""Putting a game in a group by its link: what a link may add, and what a refusal says."""

from __future__ import annotations

from ..rules import values
from ..rules.words import N_, _, number
from ..store.games import StoredGame
from ..store.groups import StoredGroup

#: What a refused addition says (translated where said), and its status.
ADD_REFUSALS = {
    "view": N_("This is the read-only link of a game: only its edit link can put it in a group."),
    "none": N_("No game has this link: check that the whole link was pasted."),
    "other": N_("This game is in another group: it can be in one group only."),
    "here": N_("This game is already in the group."),
    "full": N_("This group holds %(num)s games, the most a group can hold: "
               "start a new group for the next games."),
    "night": N_("This game is a table of a club night: it can be in the club night's group only."),
}
STATUS = {"view": 403, "none": 404, "other": 409, "here": 200, "full": 409, "night": 403}


def refusal(outcome: str) -> str:
    """Why a game was not put in a group, in the page's language."""
    return _(ADD_REFUSALS[outcome], num=number(values.MAX_GROUP_GAMES))


def add_game(group: StoredGroup, game: StoredGame | None, *, editable: bool, may: bool) -> str:
    """Put the game a link found in the group: "added", or why not ("view": the link is read-only,
    "none": it finds no game, "night": the link may not put its game in a group (web/access.py
    says, the page passes ``may``), "other", "here", "full"); the caller commits."""
    if game is None:
        return "none"
    if not editable:
        return "view"
    if not may:
        return "night"
    return group.add(game)
