"""Changes at the table to what is still to come (RULES.md §7): the plan of hand sizes (or, for a
game without one, when it ends), the rules of the whole game, and a new game for the same table.

Every change goes through the changes layer (``changes.apply``), as the game page's do: the game
file is changed by a ``changes.edits`` function, replayed, and stored only when the rules accept it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from flask import Blueprint, current_app, flash, make_response, render_template, request
from werkzeug.wrappers import Response

from ..changes import STALE, Refused, Saved, edits
from ..play import board
from ..play.answer import answered, apply_posted, game_page, open_new
from ..play.forms import BID_TAP, Tap, read_tap
from ..play.summary import rules_summary
from ..play.wording import points
from ..rules import values
from ..rules.errors import RulesError
from ..rules.gamefile import MAX_HAND, GameFile, parse
from ..rules.schedule import MAX_SEQUENCE, HandSize, hand_sizes
from ..rules.variants import PRESETS
from ..rules.words import N_, _, ngettext
from ..store.db import derived_tokens
from ..store.games import StoredGame
from ..store.groups import group_of
from ..web import access
from ..web.access import Act
from ..web.fields import indexed, sentence
from ..web.site import game_or_404, no_store
from .forms import EndForm, RulesForm
from .views import Dealable

bp = Blueprint("plan", __name__)

#: What "rebuild the rest" can deal, n being the top hand: pattern → its words (translated where
#: shown).
SHAPES = {"down": N_("down: n, n−1 … 1"), "up": N_("up: 1, 2 … n"),
          "down-up": N_("down and up: n … 1 … n"), "up-down": N_("up and down: 1 … n … 1")}
#: The posted value that keeps the no-trump marks shown while the plan is edited.
MARKS = "nt"


class Draft(NamedTuple):
    """The plan page as posted: each deal still to come (its cards as typed, and whether it is
    played at no trump), the version the page was drawn from, whether the no-trump marks are
    shown, and the rebuild's shape and top hand as typed."""

    cards: list[str]
    no_trump: list[bool]
    version: int | None
    marks: bool
    shape: str = "down"
    top: str = ""

    def rows(self, sizes: list[HandSize]) -> Draft:
        """The same page with these deals to come."""
        return self._replace(cards=[str(cards) for cards, _ in sizes],
                             no_trump=[nt for _, nt in sizes])


def _to_come(gamefile: GameFile) -> list[HandSize]:
    """The hand sizes the game's plan still deals (a number of deals may stop it earlier)."""
    sizes, state = gamefile.rules.sizes or (), gamefile.game
    upcoming = list(sizes[len(edits.played_sizes(gamefile)):])
    if gamefile.rules.deals is not None:  # dropped by a new plan, so the page shows where it stops
        upcoming = upcoming[:max(gamefile.rules.deals - len(state.deals), 0)]
    return upcoming


def _drawn(found: StoredGame, gamefile: GameFile) -> Draft:
    """The plan page as the game stands."""
    upcoming = _to_come(gamefile)
    marks = any(nt for _, nt in (*edits.played_sizes(gamefile), *upcoming))
    return Draft([], [], found.version, marks, top=str(gamefile.rules.max_cards)).rows(upcoming)


def _posted(form: Mapping[str, Any], gamefile: GameFile) -> tuple[Draft, list[str]]:
    """The plan page as posted, every text kept as typed, and a sentence for each row that can't be
    read (a row the page doesn't have, or sent twice)."""
    beyond = _("A deal was sent that the plan can't have; nothing was saved.")
    twice = _("One deal was sent twice; nothing was saved.")
    texts, errors = indexed(form, "cards", MAX_SEQUENCE, "number of cards", beyond, twice)
    marks, refused = indexed(form, "nt", MAX_SEQUENCE, "no-trump mark", beyond, twice)
    last = max((row for row, text in enumerate(texts) if text is not None), default=-1)
    first = len(gamefile.game.deals) + 1
    no_trump = []
    for row, mark in enumerate(marks[:last + 1]):
        try:
            no_trump.append(mark is not None and values.boolean(mark, _("Deal %(deal)s at no trump",
                                                                               deal=first + row)))
        except RulesError as exc:
            no_trump.append(False)
            errors.append(sentence(str(exc)))
    version = read_tap(form, {"version": BID_TAP["version"]}).numbers["version"]
    draft = Draft([text or "" for text in texts[:last + 1]], no_trump, version,
                  form.get("marks") == MARKS, form.get("shape", "down"), form.get("top", ""))
    return draft, [*errors, *(e for e in refused if e not in errors)]


def _number(text: str) -> int | None:
    """A row's cards, when they read as a hand size."""
    try:
        return values.whole(text, "Cards", 1, MAX_HAND)
    except RulesError:
        return None


def _row(text: str, rows: int) -> int | None:
    """The row a button names (``remove-2`` → 2); None when it names none."""
    try:
        return values.whole(text, "Row", 0, rows - 1)
    except RulesError:
        return None


def _sizes(draft: Draft, gamefile: GameFile) -> tuple[list[HandSize], list[str]]:
    """The hand sizes the rows ask for, and a sentence for each that can't be one."""
    sizes, errors = [], []
    first, played = len(gamefile.game.deals) + 1, len(edits.played_sizes(gamefile))
    for row, (text, no_trump) in enumerate(zip(draft.cards, draft.no_trump)):
        if not text.strip():
            errors.append(_("Deal %(deal)s has no number of cards: type one, or remove the deal.",
                            deal=first + row))
            continue
        try:
            sizes.append((values.whole(text, _("Deal %(deal)s's hand", deal=first + row), 1,
                                       MAX_HAND), no_trump))
        except RulesError as exc:
            errors.append(sentence(str(exc)))
    if played + len(draft.cards) > MAX_SEQUENCE:
        errors.append(ngettext("A plan has at most %(most)s deals in all: %(num)s is dealt, "
                               "so at most %(left)s can come.",
                               "A plan has at most %(most)s deals in all: %(num)s are dealt, "
                               "so at most %(left)s can come.", played, most=MAX_SEQUENCE,
                               left=MAX_SEQUENCE - played))
    return sizes, errors


def _rearranged(draft: Draft, action: str, gamefile: GameFile) -> Draft:
    """Add, remove or resize a deal (the buttons that work without JavaScript)."""
    cards, no_trump = list(draft.cards), list(draft.no_trump)
    verb, where = action.partition("-")[::2]
    row = _row(where, len(cards))
    played = edits.played_sizes(gamefile)
    if verb in ("add", "one") and len(played) + len(cards) < MAX_SEQUENCE:
        last = _number(cards[-1]) if cards else (played[-1][0] if played else 1)
        cards.append("1" if verb == "one" else str(last or 1))
        no_trump.append(False)
    elif verb == "remove" and row is not None:
        del cards[row], no_trump[row]
    elif verb in ("less", "more") and row is not None and (size := _number(cards[row])) is not None:
        cards[row] = str(min(max(size + (1 if verb == "more" else -1), 1), MAX_HAND))
    return draft._replace(cards=cards, no_trump=no_trump)


def _this_deal(gamefile: GameFile) -> int | None:
    """The deal the game page is at, which "stop after this deal" keeps; None when there is none
    in the plan (the game is over, or breaking a tie)."""
    state = gamefile.game
    if state.finished or state.tiebreak or (state.current is None and not _to_come(gamefile)):
        return None
    return len(state.deals) + (0 if state.current is not None else 1)


def _stopped(gamefile: GameFile) -> list[HandSize]:
    """The plan after "stop after this deal": nothing more, or only the deal about to be dealt."""
    return [] if gamefile.game.current is not None else _to_come(gamefile)[:1]


def _plan_page(found: StoredGame, gamefile: GameFile, draft: Draft, error: str = "",
               status: int = 200) -> Response:
    state = gamefile.game
    played = edits.played_sizes(gamefile)
    current = state.current if state.current is not None and not state.current.tiebreak else None
    marks = draft.marks or any(nt for _, nt in played) or any(draft.no_trump)
    page = render_template("plan/plan.html", game=found, file=gamefile, draft=draft, error=error,
                           dealt=played[:-1] if current else played, current=current,
                           first=len(state.deals) + 1, room=MAX_SEQUENCE - len(played), marks=marks,
                           this_deal=_this_deal(gamefile),
                           shapes={shape: _(words) for shape, words in SHAPES.items()})
    return no_store(make_response(page, status))


def _planned(gamefile: GameFile) -> str:
    """What a saved plan leaves to come, in words."""
    state = gamefile.game
    if state.finished:
        return _("The plan is changed: the game is over.")
    to_come = len(state.schedule) - len(state.deals)
    if not to_come:
        return _("The plan is changed: this deal is the last.")
    return ngettext("The plan is changed: %(num)s deal to come.",
                    "The plan is changed: %(num)s deals to come.", to_come)


@bp.route("/g/<token>/plan", methods=("GET", "POST"))
def plan(token: str) -> Response:
    """The deals still to come, to change; a game without a plan of hand sizes (fixed, manual)
    changes when it ends instead."""
    found = game_or_404(token, edit=True)
    gamefile = found.load()
    if gamefile.rules.sizes is None:
        return _end(found, gamefile)
    if request.method != "POST":  # HEAD and OPTIONS change nothing either
        return _plan_page(found, gamefile, _drawn(found, gamefile))
    draft, unread = _posted(request.form, gamefile)
    action = request.form.get("action", "save")
    if action == "stop":
        return _plan_page(found, gamefile, draft.rows(_stopped(gamefile)))
    if action == "rebuild":
        return _rebuild(found, gamefile, draft)
    if action == MARKS:
        return _plan_page(found, gamefile, draft._replace(marks=True))
    if action != "save":
        return _plan_page(found, gamefile, _rearranged(draft, action, gamefile))
    sizes, refused = _sizes(draft, gamefile)
    outcome = apply_posted(found, Tap({"version": draft.version}, [*unread, *refused]),
                           lambda doc: edits.set_plan(doc, gamefile, sizes), check=Dealable(token))
    if isinstance(outcome, Refused):
        return _plan_page(found, gamefile, draft, outcome.reason, outcome.status)
    if isinstance(outcome, Saved):
        flash(_planned(outcome.game.load()), "done")
    return answered(found, outcome)


def _rebuild(found: StoredGame, gamefile: GameFile, draft: Draft) -> Response:
    """The rest of the game dealt down, up, down and up or up and down from a top hand."""
    try:
        shape = values.choice(draft.shape, _("The shape"), SHAPES)
        top = values.whole(draft.top, _("The top hand (n)"), 1, MAX_HAND)
    except RulesError as exc:
        return _plan_page(found, gamefile, draft.rows(_to_come(gamefile)), sentence(str(exc)), 422)
    return _plan_page(found, gamefile, draft.rows(hand_sizes(shape, top)))


def _end(found: StoredGame, gamefile: GameFile) -> Response:
    """When a game without a plan of hand sizes ends: its number of deals, its target."""
    if request.method != "POST":
        rules = gamefile.rules
        form = EndForm(formdata=None, data={"deals": rules.deals, "target": rules.target,
                                            "version": found.version})
        return _end_page(found, gamefile, form)
    form = EndForm()
    outcome = apply_posted(found, form,
                           lambda doc: _set_end(doc, gamefile, form.deals.data, form.target.data))
    if isinstance(outcome, Refused):
        return _end_page(found, gamefile, form, outcome.reason, outcome.status)
    if isinstance(outcome, Saved):
        flash(_ends(outcome.game.load()), "done")
    return answered(found, outcome)


def _set_end(doc: edits.Document, gamefile: GameFile, deals: int | None,
             target: int | None) -> None:
    """``edits.set_end``, refused in the table's words when the deals dealt are more than the number
    asked."""
    dealt = len(gamefile.game.deals)
    if deals is not None and deals < dealt:
        raise edits.EditError(ngettext("%(num)s deal has been dealt already: "
                                       "the game can't end after %(deals)s.",
                                       "%(num)s deals have been dealt already: "
                                       "the game can't end after %(deals)s.", dealt, deals=deals))
    edits.set_end(doc, deals, target)


def _end_page(found: StoredGame, gamefile: GameFile, form: EndForm, error: str = "",
              status: int = 200) -> Response:
    page = render_template("plan/end.html", game=found, file=gamefile, form=form, error=error,
                           preset_target=PRESETS[gamefile.rules.preset].defaults.get("target"))
    return no_store(make_response(page, status))


def _ends(gamefile: GameFile) -> str:
    """When the game now ends, in words."""
    rules = gamefile.rules
    if rules.deals is not None and rules.target is not None:
        text = ngettext("The game now ends after %(num)s deal or when a total reaches %(target)s, "
                        "whichever comes first.",
                        "The game now ends after %(num)s deals or when a total reaches %(target)s, "
                        "whichever comes first.", rules.deals, target=points(rules.target))
    elif rules.deals is not None:
        text = ngettext("The game now ends after %(num)s deal.",
                        "The game now ends after %(num)s deals.", rules.deals)
    elif rules.target is not None:
        text = _("The game now ends when a total reaches %(target)s.", target=points(rules.target))
    else:
        text = _("The game now goes on until the table ends it.")
    return _("%(ends)s It is over.", ends=text) if gamefile.game.finished else text


@bp.route("/g/<token>/rules", methods=("GET", "POST"))
def rules(token: str) -> Response:
    """New rules for the whole game, previewed (the points and totals that change) before they are
    saved."""
    found = game_or_404(token, edit=True)
    gamefile = found.load()
    if request.method != "POST":
        form = RulesForm(formdata=None,
                         data={**RulesForm.shown(gamefile.rules_input), "version": found.version})
        return _rules_page(found, gamefile, form)
    form = RulesForm()

    def change(doc: edits.Document) -> None:
        edits.set_rules(doc, gamefile, form.rules_input(), gamefile.rules.players)

    dealable = Dealable(token)  # the plan of the new rules, for the players of each deal to come
    if request.form.get("action") == "save":
        outcome = apply_posted(found, form, change, act=Act.RULES, check=dealable)
        if isinstance(outcome, Refused):
            return _rules_page(found, gamefile, form, outcome.reason, outcome.status)
        if isinstance(outcome, Saved):
            flash(_rules_saved(gamefile, outcome.game.load()), "done")
        return answered(found, outcome)
    version, refusals = form.posted()
    if version != found.version:
        return game_page(found, _(STALE), 409)
    if refusals:
        return _rules_page(found, gamefile, form, " ".join(refusals), 422)
    if request.form.get("action") == "edit":
        return _rules_page(found, gamefile, form)
    document = found.document
    try:
        change(document)
        changed = parse(document)
        dealable(changed)
    except (RulesError, edits.EditError) as exc:
        return _rules_page(found, gamefile, form, sentence(str(exc)), 422)
    page = render_template("plan/preview.html", game=found, file=gamefile, form=form,
                           words=_rules_words(gamefile, changed),
                           change=board.rules_change(gamefile, changed),
                           same=_same(gamefile.rules_input, changed.rules_input))
    return no_store(make_response(page))


def _rules_page(found: StoredGame, gamefile: GameFile, form: RulesForm, error: str = "",
                status: int = 200) -> Response:
    page = render_template("plan/rules.html", game=found, file=gamefile, form=form, error=error,
                           presets=PRESETS, summary=rules_summary(gamefile.rules))
    return no_store(make_response(page, status))


def _same(old: Mapping[str, Any], new: Mapping[str, Any]) -> bool:
    """Whether two games' rules are the same as written (a preset left out is Oh Hell).

    >>> (_same({"max_cards": 5}, {"preset": "oh-hell", "max_cards": 5}),
    ...  _same({}, {"preset": "kachuful"}))
    (True, False)
    """
    return {"preset": "oh-hell", **old} == {"preset": "oh-hell", **new}


def _rules_words(old: GameFile, new: GameFile) -> list[tuple[str, str | None, str | None]]:
    """The lines of the rules in words (as the sheet prints them) that new rules change:
    (label, before, after), None for a line one of them doesn't have."""
    was, now = dict(rules_summary(old.rules)), dict(rules_summary(new.rules))
    labels = [*was, *(label for label in now if label not in was)]
    return [(label, was.get(label), now.get(label)) for label in labels
            if was.get(label) != now.get(label)]


def _rules_saved(old: GameFile, new: GameFile) -> str:
    """The confirmation of new rules: how many deals score differently."""
    count = board.rules_change(old, new).deals
    if not count:
        return _("The rules are changed: no deal scores differently.")
    return ngettext("The rules are changed: %(num)s deal scores differently.",
                    "The rules are changed: %(num)s deals score differently.", count)


@bp.post("/g/<token>/again")
def again(token: str) -> Response:
    """A new game for the same table (RULES.md §7), from a finished one: the players still at the
    table, the same rules and stakes, the deal moving on."""
    found = game_or_404(token, edit=True)
    gamefile = found.load()
    if not gamefile.game.finished:
        return game_page(found, _("Only a finished game can be played again: finish this one, "
                                  "or end it now."), 422)
    try:
        checked = parse(edits.play_again(gamefile))
    except RulesError as exc:
        return game_page(found, sentence(_("The new game can't be set up: %(problem)s",
                                           problem=exc)), 422)
    flash(_("A new game for the same table: %(player)s deals first.",
            player=checked.players[checked.first_dealer]),
          "done")
    # One new game per version of this one, however often it is asked for (a double tap, a resent
    # form). The table's group keeps its next game; a club night's table puts nothing in its group
    # (web/access.py).
    group = group_of(found) if Act.GROUP in access.offers(found) else None
    return open_new(checked, derived_tokens(current_app.secret_key or "", "again", found.token,
                                            found.version), group)
