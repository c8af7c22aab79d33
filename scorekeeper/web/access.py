"""Who may do what with a game's link (EVENTS.md, "Who may do what"), in one place: every link is a
role, every change to a game names what it does, and ``refusal`` alone decides. No view decides for
itself: each asks here, and says the sentence it is given.

| role | its link | may, on its game |
|---|---|---|
| editor | the edit link of a game outside any club night | everything |
| scorer | a club night's table game's edit link | play and correct it while its round is the current one; take back "End the game now" while its round is not finished |
| director | the same link, on a phone that opened the night's director's page | play and correct it, reopen it, whatever its round |
| viewer | a game's read-only link | nothing |

A table game's rules and title are the club night's, and the night's standings count it: its own
link can't change them, delete it, or put it in a group (it is in the night's group), and it never
shows the night's director link or its group's edit link: it leads to the room screen and to the
group's read-only page.
"""

from __future__ import annotations

from enum import StrEnum

from flask import session

from ..rules.words import _
from ..store.events import Place, place_of
from ..store.games import StoredGame


class Role(StrEnum):
    """What a game's link is."""

    EDITOR = "editor"
    SCORER = "scorer"
    DIRECTOR = "director"
    VIEWER = "viewer"


class Act(StrEnum):
    """What a change to a game does."""

    #: Enter or correct its deals, adjustments, stakes; end it now; §7's changes at the table.
    PLAY = "play"
    #: Take back "End the game now".
    RESUME = "resume"
    #: Change its rules or its title (a whole new game file included).
    RULES = "rules"
    #: Delete it.
    DELETE = "delete"
    #: Put it in a group, or reach its group's edit link.
    GROUP = "group"


#: The acts each role may do; a scorer's, while its round is the current one (see ``refusal``).
MAY: dict[Role, frozenset[Act]] = {
    Role.EDITOR: frozenset(Act),
    Role.SCORER: frozenset({Act.PLAY, Act.RESUME}),
    Role.DIRECTOR: frozenset({Act.PLAY, Act.RESUME}),
    Role.VIEWER: frozenset(),
}
#: Where a phone's session keeps the club nights whose director's page it opened (their keys).
DIRECTS = "directs"
#: How many it keeps.
KEEP_DIRECTED = 20


def directing(event_id: int) -> None:
    """This phone opened a club night's director's page: it holds the director's link, and the night's
    table games' links carry the director's authority on it (EVENTS.md: "the director's page opens any
    table game with the director's authority")."""
    kept = [event_id, *(other for other in session.get(DIRECTS, []) if other != event_id)][:KEEP_DIRECTED]
    if session.get(DIRECTS) != kept:
        session[DIRECTS] = kept


def role_of(game: StoredGame, editable: bool) -> tuple[Role, Place | None]:
    """The role of a game's link, and the game's place in its club night (one SELECT by its key). A
    club night titles its table games "<night> · round r · table t", and nobody can change a table
    game's title (``Act.RULES``): a game without " · " in its title is asked nothing of the database,
    so a tap on any other game still reads the database once."""
    if not editable:
        return Role.VIEWER, None
    place = place_of(game.id) if " · " in game.title else None
    if place is None:
        return Role.EDITOR, None
    return (Role.DIRECTOR if place.event_id in session.get(DIRECTS, ()) else Role.SCORER), place


def refusal(game: StoredGame, editable: bool, act: Act) -> str | None:
    """Why this link may not do ``act`` to its game, in a player's words; None when it may."""
    role, place = role_of(game, editable)
    if role is Role.VIEWER:
        return _("This is the read-only link of a game: it can show the game but not change it.")
    if place is None:
        return None
    if act not in MAY[role]:
        return {
            Act.RULES: _("This game is a table of %(event)s: its rules and its title are the club night's, and "
                         "stay as they are.", event=place.event),
            Act.DELETE: _("This game is a table of %(event)s: the club night counts it, so it can't be deleted.",
                          event=place.event),
            Act.GROUP: _("This game is a table of %(event)s: it is in the club night's group already.",
                         event=place.event),
        }[act]
    if role is Role.DIRECTOR:
        return None
    if not place.current:
        return _("Round %(round)s of %(event)s is over: only the club night's organiser can change its games now.",
                 round=place.round, event=place.event)
    if act is Act.RESUME and place.finished():
        return _("Round %(round)s of %(event)s is finished: only the club night's organiser can reopen its games.",
                 round=place.round, event=place.event)
    return None


def group_token(game: StoredGame, edit_token: str, view_token: str) -> str:
    """The link to a game's group its edit link may show: the group's edit link, or its read-only one
    for a club night's table game."""
    return edit_token if refusal(game, True, Act.GROUP) is None else view_token
