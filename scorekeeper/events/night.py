"""The new-club-night form (EVENTS.md, "What an event is"): the night's name, date, players,
rounds, table size, seating, ranking and group, and its rules: a preset and the new game's house
rules, the same fields. Beside them, what a round of those rules takes at the night's tables (its
deals, and about how long), and a shorter round one tap away (docs/events.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from flask import (
    Response,
    flash,
    get_template_attribute,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.wrappers import Response as BaseResponse

from ..games.forms import HouseRulesForm
from ..phone import device
from ..rules import values
from ..rules.errors import RulesError
from ..rules.event import LARGEST, SMALLEST, RoundLength, TableSizes, round_length, table_sizes
from ..rules.presets import rules_for
from ..rules.variants import PRESETS
from ..rules.words import _, ngettext
from ..store.db import commit
from ..store.events import StoredEvent
from ..web import language
from ..web.fields import beside, sentence
from . import document as documents

#: The fields of the new-night form beside its house rules, and what each starts as.
NEW_FIELDS = {"name": "", "date": "", "players": "", "rounds": "3", "size": "4", "seating": "mixed",
              "ranking": "percent", "preset": "oh-hell", "group": ""}
#: The top hands of the shorter rounds offered beside the rules' own: the first two below it.
SHORTER = (7, 5, 3)
#: The deal patterns whose hands a top hand sizes (a sequence, or hands of no set number, are not).
SIZED = ("down-up", "up-down", "down-up-twice-one", "up-nt-down", "down", "up")


@dataclass(frozen=True)
class Choice:
    """A length of round to choose: the top hand it sets ("": the rules' own), what a round then
    takes at each allowed table size, and whether it is the one chosen now."""

    top: str
    lengths: tuple[RoundLength | None, ...]
    chosen: bool


@dataclass(frozen=True)
class Rounds:
    """What a round of the rules being chosen takes at the night's allowed table sizes, and the
    lengths of round one tap away; ``problem``: why these rules can't be played there."""

    sizes: TableSizes
    now: tuple[RoundLength | None, ...] = ()
    choices: tuple[Choice, ...] = ()
    problem: str = ""

    def words(self, lengths: tuple[RoundLength | None, ...]) -> str:
        """A round's length in words, over the table sizes: "13 deals, about 40–50 min"."""
        if not lengths or None in lengths:
            return _("no set number of deals")
        deals = sorted({length.deals for length in lengths if length})
        said = (ngettext("%(num)s deal", "%(num)s deals", deals[0]) if len(deals) == 1
                else _("%(low)s–%(high)s deals", low=deals[0], high=deals[-1]))
        minutes = sorted({length.minutes
                          for length in lengths if length and length.minutes is not None})
        if not minutes:
            return said
        if len(minutes) == 1:
            return _("%(deals)s, about %(num)s min", deals=said, num=minutes[0])
        return _("%(deals)s, about %(low)s–%(high)s min", deals=said, low=minutes[0],
                 high=minutes[-1])

    def line(self) -> str:
        """What a round of the rules as they are takes, or why they can't be played."""
        if self.problem:
            return self.problem
        return _("A round: %(length)s, at tables of %(low)s to %(high)s.",
                 length=self.words(self.now), low=self.sizes.sizes[0], high=self.sizes.sizes[-1])


def _sizes(typed: str) -> TableSizes:
    """The table sizes a preferred size allows; the form's first size while it is not one."""
    try:
        return table_sizes(values.whole(typed, "size", SMALLEST, LARGEST))
    except RulesError:
        return table_sizes(int(NEW_FIELDS["size"]))


def _lengths(rules: Mapping[str, Any], sizes: TableSizes) -> tuple[RoundLength | None, ...]:
    """What a round of ``rules`` takes at each allowed size (RulesError if one can't play them)."""
    return tuple(round_length(rules_for(rules, size)) for size in sizes.sizes)


def rounds(preset: str, form: HouseRulesForm, size: str) -> Rounds:
    """What a round of the rules being chosen takes, and the shorter rounds to choose from: the
    rules' own top hand and the next two of ``SHORTER`` below it, each one every allowed table size
    can play, for a pattern a top hand sizes."""
    sizes = _sizes(size)
    try:
        rules = {"preset": preset, **form.overrides()}
        documents.playable(rules, sizes)
        now = _lengths(rules, sizes)
    except RulesError as exc:
        return Rounds(sizes, problem=sentence(str(exc)))
    own = {name: value for name, value in rules.items() if name != "max_cards"}
    typed = str(rules.get("max_cards", ""))
    try:
        largest = rules_for(own, sizes.sizes[-1])  # the smallest top hand of the rules' own
    except RulesError:
        return Rounds(sizes, now)
    if largest.deal not in SIZED:
        return Rounds(sizes, now)
    choices = [Choice("", _lengths(own, sizes), not typed)]
    for top in [top for top in SHORTER if top < largest.max_cards][:2]:
        try:
            choices.append(Choice(str(top), _lengths({**own, "max_cards": top}, sizes),
                                  typed == str(top)))
        except RulesError:  # a hand of ``top`` cards is too many for the largest table
            continue
    return Rounds(sizes, now, tuple(choices))


def _typed() -> dict[str, str]:
    return {name: str(request.form.get(name, start))[:20_000] for name, start in NEW_FIELDS.items()}


def new() -> str | BaseResponse | tuple[str, int]:
    """A new club night, then the director's page. A length of round tapped without JavaScript
    comes back to the form with its top hand set."""
    typed, form = _typed(), HouseRulesForm(request.form, prefix="rules")
    action = str(request.form.get("action", ""))
    if request.method != "POST":  # HEAD and OPTIONS change nothing either
        return _page(typed, form)
    if action.startswith("top-"):
        form.max_cards.data = action.removeprefix("top-")[:3]
        return _page(typed, form, chosen=True)
    if not form.validate():
        return _page(typed, form), 422
    try:
        doc = documents.new_event({
            "name": typed["name"], "date": typed["date"].strip() or None,
            "players": [line for line in typed["players"].splitlines() if line.strip()],
            "rounds": values.whole(typed["rounds"], lambda: _(documents.LABELS["rounds"]), 1,
                                   documents.MAX_ROUNDS),
            "tables": {"size": values.whole(typed["size"], lambda: _("The preferred table size"),
                                            3, 8)},
            "seating": typed["seating"], "ranking": typed["ranking"],
            "rules": {"preset": typed["preset"], **form.overrides()},
        }, date.today(), language.current())
        if typed["group"].strip():
            doc["group"] = documents.group_id(typed["group"])
    except RulesError as exc:
        return _page(typed, form, "" if form.refused(exc) else str(exc)), 422
    stored = StoredEvent.create(doc)
    device.remember_event(stored, True)
    response = redirect(url_for("events.event", event=stored.token))
    commit()
    flash(_("The club night is ready: seat and start the first round below. "
            "Keep this page's link to yourself; the room screen's link is for everyone."), "done")
    return response


def _page(typed: dict[str, str], form: HouseRulesForm, error: str = "",
          chosen: bool = False) -> str:
    """The form; a refused rule says why beside it, in the house rules opened."""
    refused = beside(form) is not None or bool(error)
    return render_template("events/new.html", typed=typed, rules=form, error=error, presets=PRESETS,
                           rounds=rounds(typed["preset"], form, typed["size"]), refused=refused,
                           chosen=chosen)


def lengths() -> Response:
    """What a round of the rules being chosen on the form takes, as JSON: its line, and the
    choices' buttons as HTML (static/js/night.js shows them as the organiser types)."""
    form = HouseRulesForm(request.args, prefix="rules")
    found = rounds(str(request.args.get("preset", NEW_FIELDS["preset"])), form,
                   str(request.args.get("size", NEW_FIELDS["size"])))
    return jsonify(line=found.line(),
                   choices=str(get_template_attribute("events/_rounds.html", "choices")(found)))
