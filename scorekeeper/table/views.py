"""Changes at the table (RULES.md §7): someone arrives, leaves, comes back or sits the next deal
out.

Each is a change of the game file (``changes.edits``) written as every other one is
(``changes.apply``): replayed, stored only when the rules accept it, refused with the reason and
nothing stored.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import count
from typing import Any

from flask import Blueprint, flash, make_response, render_template, request
from werkzeug.wrappers import Response

from ..changes import Refused, Saved, edits
from ..play import board
from ..play.answer import answered, apply_posted
from ..play.wording import listed, points
from ..rules import values
from ..rules.errors import RulesError
from ..rules.game import undealable
from ..rules.gamefile import MAX_PLAYERS, GameFile, parse
from ..rules.words import _, ngettext
from ..store.games import StoredGame
from ..web.site import endpoint_url, game_or_404, no_store
from .forms import ArriveForm, PlayerForm, SitOutForm

bp = Blueprint("table", __name__)

Change = Callable[[edits.Document], None]


class Dealable:
    """After any change of who plays, a new plan or new rules: every deal still to come can be
    dealt to the players it has (RULES.md §7). A refusal says so with the way out, which the refused
    page offers as links."""

    def __init__(self, token: str) -> None:
        self.token = token
        self.links: dict[str, str] = {}

    def __call__(self, gamefile: GameFile) -> None:
        """Refuse (EditError) a game with a deal still to come too big for its players."""
        found = undealable(gamefile.game)
        if found is None:
            return
        deal, why = found
        ways = {_("Change the plan"): "plan.plan"}
        if gamefile.game.rules.deck_size < 104:  # two packs already: the plan is the one way out
            ways[_("Add a pack")] = "plan.rules"
        self.links = {label: url for label, endpoint in ways.items()
                      if (url := endpoint_url(endpoint, token=self.token))}
        raise edits.EditError(_("at deal %(deal)s, %(problem)s.", deal=deal.number, problem=why))


def _closed(gamefile: GameFile) -> str:
    """Why nobody can join, leave or sit out any more (the game is over); empty while it goes on."""
    state = gamefile.game
    if state.ended_by_table:
        return _("The game was ended: resume it first to change who plays.")
    if state.finished:
        return _("The game is over: nobody joins, leaves or sits out any more.")
    return ""


def _playing(gamefile: GameFile, change: Change) -> Change:
    """The change, refused (EditError) when the game is over."""

    def checked(doc: edits.Document) -> None:
        closed = _closed(gamefile)
        if closed:
            raise edits.EditError(closed)
        change(doc)

    return checked


def _deal_to_come(gamefile: GameFile, check: Dealable, token: str,
                  refusal: Callable[[int], str]) -> None:
    """Refused (EditError, with the way out) while the last deal is being played: a change at the
    table takes effect from the next deal, and there is none; ``refusal`` says so, given the number
    of the last deal."""
    number, planned = len(gamefile.game.deals) + 1, board.deals_planned(gamefile)
    if planned is not None and number > planned:
        url = endpoint_url("plan.plan", token=token)
        check.links = {_("Change the plan"): url} if url else {}
        raise edits.EditError(refusal(number - 1))


def _page(template: str, game: StoredGame, error: str = "", status: int = 200,
          **shown: Any) -> Response:
    gamefile = game.load()
    names = gamefile.players
    page = render_template(template, game=game, file=gamefile, names=names, error=error,
                           number=len(gamefile.game.deals) + 1, current=gamefile.game.current,
                           closed=_closed(gamefile), **shown)
    return no_store(make_response(page, status))


def _arrival_warning(game: StoredGame, gamefile: GameFile) -> tuple[str, dict[str, str]]:
    """Before a name is typed: whether one more player would make a deal still to come too big
    (the same check as the arrival's own), and the way out."""
    document, taken = game.document, {name.casefold() for name in gamefile.players}
    stand_in = next(name for k in count(len(taken) + 1)
                    if (name := f"Player {k}").casefold() not in taken)
    edits.arrive(document, stand_in, len(gamefile.players))
    check = Dealable(game.token)
    try:
        check(parse(document))
    except edits.EditError as exc:
        return _("With one more player, %(problem)s", problem=exc), check.links
    except RulesError:  # the arrival is refused for another reason, said when it is sent
        pass
    return "", {}


def _arrive_page(game: StoredGame, form: ArriveForm, error: str = "", status: int = 200,
                 way_out: dict[str, str] | None = None) -> Response:
    gamefile = game.load()
    full = len(gamefile.players) >= MAX_PLAYERS
    warning, links = (("", {}) if error or full or _closed(gamefile)
                      else _arrival_warning(game, gamefile))
    return _page("table/arrive.html", game, error, status, form=form, full=full, warning=warning,
                 way_out=way_out or links, offered=edits.starting_scores(gamefile))


@bp.route("/g/<token>/arrive", methods=("GET", "POST"))
def arrive(token: str) -> Response:
    """Someone arrives: their name, where they sit, what they start with; dealt in from the next
    deal."""
    found = game_or_404(token, edit=True)
    form = ArriveForm()  # reads the post only on POST: HEAD and OPTIONS change nothing
    if request.method != "POST":
        return _arrive_page(found, form)
    gamefile = found.load()
    offered, number = edits.starting_scores(gamefile), len(gamefile.game.deals) + 1

    def change(doc: edits.Document) -> None:
        # Read once the form is checked: a number typed is its choice
        start = form.starting(offered)
        if len(doc["players"]) >= MAX_PLAYERS:
            raise edits.EditError(ngettext("This game has %(num)s player already, "
                                           "as many as a game can have.",
                                           "This game has %(num)s players already, "
                                           "as many as a game can have.", MAX_PLAYERS))
        name = form.name.data or ""
        same = [player for player in doc["players"]
                if values.name_key(player) == values.name_key(name)]
        if same:
            raise edits.EditError(_("%(player)s is in this game already: "
                                    "every player needs a different name, "
                                    "so add an initial or choose a nickname", player=same[0]))
        if start and number == 1:
            raise edits.EditError(_("No deal has been played yet: "
                                    "the new player starts at 0 like everyone"))
        if start and gamefile.rules.cooperative:
            raise edits.EditError(_("A cooperative game keeps no points: "
                                    "the new player starts with none"))
        if gamefile.game.tiebreak:
            raise edits.EditError(_("The game is over but for its tie-break: "
                                    "there is no deal to deal %(player)s in. "
                                    "Play again to start a new game with them", player=name))
        _deal_to_come(gamefile, check, token,
                      lambda last: _("Deal %(deal)s is the last deal: "
                                     "there is no deal to deal %(player)s in. "
                                     "Change the plan first to play on", deal=last, player=name))
        edits.arrive(doc, name, form.seat.data or 0, start)

    def done() -> str:
        scored = number > 1 and not gamefile.rules.cooperative
        start = points(form.starting(offered)) if scored else ""
        if scored:
            return _("%(player)s joins at deal %(deal)s with %(points)s.", player=form.name.data,
                     deal=number, points=start)
        return _("%(player)s joins at deal %(deal)s.", player=form.name.data, deal=number)

    check = Dealable(token)
    outcome = apply_posted(found, form, _playing(gamefile, change), check=check)
    if isinstance(outcome, Refused):
        return _arrive_page(found, form, outcome.reason, outcome.status, check.links)
    if isinstance(outcome, Saved):
        flash(done(), "done")
    return answered(found, outcome)


def _seats_page(game: StoredGame, error: str = "", status: int = 200,
                way_out: dict[str, str] | None = None, **kept: Any) -> Response:
    """Who leaves, sits out or comes back (one page, three small forms)."""
    gamefile = game.load()
    number = len(gamefile.game.deals) + 1
    gone = board.gone(gamefile)
    out = board.sitting_out(gamefile, number)
    return _page("table/leave.html", game, error, status, at=edits.at_the_table(gamefile),
                 gone=gone, out=out, back=sorted([*gone, *out]), notes=board.seat_notes(gamefile),
                 way_out=way_out or {}, kept=kept)


@bp.route("/g/<token>/leave", methods=("GET", "POST"))
def leave(token: str) -> Response:
    """Someone leaves: not dealt in from the next deal on (the page also offers sitting out and
    coming back)."""
    found = game_or_404(token, edit=True)
    if request.method != "POST":
        return _seats_page(found)
    form, gamefile = PlayerForm(), found.load()
    seat, number = form.player.data, len(gamefile.game.deals) + 1

    def done() -> str:
        name = gamefile.players[seat or 0]
        if number > 1:
            return _("%(player)s leaves after deal %(deal)s.", player=name, deal=number - 1)
        return _("%(player)s leaves before the first deal.", player=name)

    check = Dealable(token)  # who is at deal 1 sizes the pattern for the deals after it
    outcome = apply_posted(found, form, _playing(gamefile, lambda doc: edits.leave(doc, seat or 0)),
                           check=check)
    if isinstance(outcome, Refused):
        return _seats_page(found, outcome.reason, outcome.status, check.links, leaving=seat)
    if isinstance(outcome, Saved):
        flash(done(), "done")
    return answered(found, outcome)


@bp.post("/g/<token>/sit-out")
def sit_out(token: str) -> Response:
    """One player or several sit the next deal out."""
    found, form = game_or_404(token, edit=True), SitOutForm()
    gamefile, seats = found.load(), form.player.data or []
    number = len(gamefile.game.deals) + 1

    def done() -> str:
        names = listed([gamefile.players[seat] for seat in sorted(seats)])
        return ngettext("%(players)s sits out deal %(deal)s.", "%(players)s sit out deal %(deal)s.",
                        len(seats), players=names, deal=number)

    def change(doc: edits.Document) -> None:
        _deal_to_come(gamefile, check, token,
                      lambda last: _("Deal %(deal)s is the last deal: "
                                     "there is no deal after it to sit out. "
                                     "Change the plan first to play on", deal=last))
        edits.sit_out(doc, seats)

    # A sit-out of deal 1 sizes the pattern for fewer players than the deals after it
    check = Dealable(token)
    outcome = apply_posted(found, form, _playing(gamefile, change), check=check)
    if isinstance(outcome, Refused):
        return _seats_page(found, outcome.reason, outcome.status, check.links, sitting=seats)
    if isinstance(outcome, Saved):
        flash(done(), "done")
    return answered(found, outcome)


@bp.post("/g/<token>/come-back")
def come_back(token: str) -> Response:
    """A player who left comes back, or one who was to sit the next deal out plays it after all."""
    found, form = game_or_404(token, edit=True), PlayerForm()
    gamefile, seat = found.load(), form.player.data or 0
    number, left = len(gamefile.game.deals) + 1, seat in board.gone(gamefile)

    def done() -> str:
        name = gamefile.players[seat]
        if left:
            return _("%(player)s comes back at deal %(deal)s.", player=name, deal=number)
        return _("%(player)s plays deal %(deal)s after all.", player=name, deal=number)

    def change(doc: edits.Document) -> None:
        if left:  # who was to sit the next deal out may play the last one after all
            _deal_to_come(gamefile, check, token,
                          lambda last: _("Deal %(deal)s is the last deal: "
                                         "there is no deal after it for %(player)s to come back "
                                         "at. Change the plan first to play on", deal=last,
                                         player=gamefile.players[seat]))
        edits.come_back(doc, seat)

    check = Dealable(token)
    outcome = apply_posted(found, form, _playing(gamefile, change), check=check)
    if isinstance(outcome, Refused):
        return _seats_page(found, outcome.reason, outcome.status, way_out=check.links)
    if isinstance(outcome, Saved):
        flash(done(), "done")
    return answered(found, outcome)
