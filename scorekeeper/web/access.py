"""Who may do what with a game's edit link (EVENTS.md, "Who may do what"), in one place: every
change to a game names what it does, and ``refusal`` alone decides; the pages offer what
``offers`` says. No view or template decides for itself. (A read-only link changes nothing: it is
refused before, by ``web.site.game_or_404``.)

The roles (by the link used) and what each may do on its game:

- editor (the edit link of a game outside any club night): everything;
- scorer (a club night's table game's edit link): play and correct it while its round is the
  current one and the director has not ended it; take back "End the game now" while its round is
  not finished;
- director (the same link, on a phone that opened the night's director's page): play and correct
  it, reopen it, whatever its round;
- seat (a player's seat link, SEATS.md): enter that player's own bid, in turn when the bids are
  made in turn, sealed when they are made at once and sealed, and that player's own trick count;
  nothing else (and at a club night, only while the scorer may play); a seat whose player is not
  dealt in the deal being played (RULES.md §7: they left, or sit it out), nothing at all.

A table game's rules and title are the club night's, and the night's standings count it: its own
link can't change them, delete it, or put it in a group (it is in the night's group), and it never
shows the night's director link or its group's edit link: it leads to the room screen and to the
group's read-only page.
"""

from __future__ import annotations

from enum import StrEnum

from flask import session

from ..changes.groups import add_game
from ..rules.turn import screen
from ..rules.words import _
from ..store.events import Place, table_of
from ..store.games import StoredGame, find_game
from ..store.groups import StoredGroup


class Role(StrEnum):
    """What a game's link is."""

    EDITOR = "editor"
    SCORER = "scorer"
    DIRECTOR = "director"
    SEAT = "seat"


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
    #: Enter one player's own bid, in turn (a seat's act; the edit link's is PLAY).
    BID = "bid"
    #: Enter or change one player's own trick count (a seat's act; the edit link's is PLAY).
    TRICKS = "tricks"


#: The acts each role may do; a scorer's, while its round is the current one (see ``refusal``).
MAY: dict[Role, frozenset[Act]] = {
    Role.EDITOR: frozenset(Act),
    Role.SCORER: frozenset({Act.PLAY, Act.RESUME, Act.BID, Act.TRICKS}),
    Role.DIRECTOR: frozenset({Act.PLAY, Act.RESUME, Act.BID, Act.TRICKS}),
    Role.SEAT: frozenset({Act.BID, Act.TRICKS}),
}
#: Where a phone's session keeps the club nights whose director's page it opened (their keys).
DIRECTS = "directs"
#: How many it keeps.
KEEP_DIRECTED = 20


def directing(event_id: int) -> None:
    """This phone opened a club night's director's page: it holds the director's link, and the
    night's table games' links carry the director's authority on it (EVENTS.md: "the director's page
    opens any table game with the director's authority")."""
    kept = [event_id,
            *(other for other in session.get(DIRECTS, []) if other != event_id)][:KEEP_DIRECTED]
    if session.get(DIRECTS) != kept:
        session[DIRECTS] = kept


def role_of(game: StoredGame) -> tuple[Role, Place | None]:
    """The role of a game's edit link on this phone, and the game's place in its club night."""
    place = table_of(game)
    if place is None:
        return Role.EDITOR, None
    return (Role.DIRECTOR if place.event_id in session.get(DIRECTS, ()) else Role.SCORER), place


def refusal(game: StoredGame, act: Act) -> str | None:
    """Why a game's edit link may not do ``act`` to it, in a player's words; None when it may."""
    role, place = role_of(game)
    if place is None:
        return None
    if act not in MAY[role]:
        return {
            Act.RULES: _("This game is a table of %(event)s: "
                         "its rules and its title are the club night's, and stay as they are.",
                         event=place.event),
            Act.DELETE: _("This game is a table of %(event)s: the club night counts it, "
                          "so it can't be deleted.", event=place.event),
            Act.GROUP: _("This game is a table of %(event)s: "
                         "it is in the club night's group already.", event=place.event),
        }[act]
    if role is Role.DIRECTOR:
        return None
    return _round_refusal(place, act)


def _round_refusal(place: Place, act: Act) -> str | None:
    """Why a table game's link other than the director's may not do ``act`` in its round now."""
    if not place.current:
        return _("Round %(round)s of %(event)s is over: "
                 "only the club night's organiser can change its games now.", round=place.round,
                 event=place.event)
    if place.closed:
        return _("The club night's organiser ended table %(table)s of round %(round)s: "
                 "only the organiser can change its game now.", table=place.table,
                 round=place.round)
    if act is Act.RESUME and place.finished():
        return _("Round %(round)s of %(event)s is finished: "
                 "only the club night's organiser can reopen its games.", round=place.round,
                 event=place.event)
    return None


def offers(game: StoredGame) -> frozenset[Act]:
    """What the pages of a game's edit link offer: what its role may do, but for what its round's
    place refuses already (over, or ended by the director). What only a replay of the round's games
    can refuse (reopening a game of a finished round) is offered, and says why when refused."""
    role, place = role_of(game)
    if role is Role.SCORER and place is not None and (not place.current or place.closed):
        return frozenset()
    return MAY[role]


def group_token(game: StoredGame, edit_token: str, view_token: str) -> str:
    """The link to a game's group its edit link may show: the group's edit link, or its read-only
    one for a club night's table game."""
    return edit_token if Act.GROUP in offers(game) else view_token


def add_to_group(group: StoredGroup, token: str) -> str:
    """Put the game of a link in a group (``changes.groups.add_game``), as far as the link may:
    a club night's table game is in its night's group only ("night")."""
    game, editable = find_game(token)
    return add_game(group, game, editable=editable,
                    may=game is not None and Act.GROUP in offers(game))


def seat_refusal(game: StoredGame, act: Act, seat: int, player: int | None, *,
                 at_once: bool) -> str | None:
    """Why the seat link of the player at ``seat`` may not do ``act`` for the player at ``player``
    (None: the act names no player), in a player's words; None when it may. ``at_once``: the
    game's bids are made at once and said aloud, not sealed (the scorer enters them)."""
    if act not in MAY[Role.SEAT] or player != seat:
        return _("A seat's link enters its own player's bid and trick count, and nothing else: "
                 "ask the scorer.")
    away = _not_dealt_in(game, seat)
    if away is not None:
        return away
    if at_once:
        return _("This game's bids are made at once: the scorer enters them.")
    place = table_of(game)
    return None if place is None else _round_refusal(place, act)


def _not_dealt_in(game: StoredGame, seat: int) -> str | None:
    """Why the seat of a player not dealt in the deal being played (RULES.md §7: they left, or sit
    it out) may do nothing now, naming the deal; None when they are dealt in (or no deal is)."""
    gamefile = game.load()
    deal = screen(gamefile).deal
    if deal is None or seat in deal.seats(len(gamefile.players)):
        return None
    return _("%(player)s is not dealt in at deal %(deal)s: their seat enters nothing until they "
             "are back at the table.", player=gamefile.players[seat], deal=deal.number)
