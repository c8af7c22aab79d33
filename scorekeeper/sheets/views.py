"""Printable score sheets as PDF: a blank one for any rules and table, or a played game's."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from flask import Blueprint, Flask, Response, abort, render_template, request

from ..rules import values
from ..rules.bidding import BIDDING_RULES
from ..rules.errors import RulesError
from ..rules.gamefile import MAX_PLAYERS, parse
from ..rules.presets import RULE_FIELDS, rules_from_text
from ..rules.scoring import SYSTEMS
from ..rules.stakes import STAKE_FIELDS
from ..rules.variants import PRESETS
from ..rules.words import _
from ..web import lanes, language
from ..web.fields import choice_word, sentence
from ..web.site import game_or_404
from . import pdf
from .layout import ORIENTATIONS, PAPERS, SheetError
from .model import Sheet, blank_sheet, filled_sheet

bp = Blueprint("sheets", __name__)

#: A query value that is meant as a number (checked then by ``values.whole``), not a name.
WHOLE_TEXT = re.compile(r"\s*[-−]?[0-9]+\s*")

SHEET_FIELDS = ("players", "paper", "orientation", "title", "first_dealer")
#: The house rules the form offers; any other rule field can still be given in the URL.
FORM_RULES = {"bidding": BIDDING_RULES, "scoring": tuple(SYSTEMS)}


def rule_overrides(args: Mapping[str, str]) -> dict[str, Any]:
    """The rule fields of a query string, typed as the game file types them; empty ones are left
    out.

    >>> rule_overrides({"preset": "oh-hell", "max_cards": "7", "spades_double": "yes",
    ...                 "zero_bid": "5"})
    {'preset': 'oh-hell', 'max_cards': 7, 'zero_bid': 5, 'spades_double': True}
    """
    return rules_from_text(args)


def _players(text: str) -> tuple[list[str], bool]:
    """The players of a query: names separated by commas, or a number of unnamed seats."""
    text = text.strip()
    if not text:
        raise SheetError(_("Give the players: their names separated by commas, "
                           "or how many there are."))
    if WHOLE_TEXT.fullmatch(text):  # seats "1", "2" …
        return ([str(seat + 1)
                 for seat in range(values.whole(text, _("The number of players"), 2, MAX_PLAYERS))],
                False)
    return text.split(",", MAX_PLAYERS), True


def _seat(text: str, players: list[str]) -> int:
    """The first dealer: a player's name, or a seat number counted from 1."""
    text = text.strip()
    if not text:
        return 0
    if WHOLE_TEXT.fullmatch(text):
        return values.whole(text, _("The first dealer's seat"), 1, len(players)) - 1
    for seat, name in enumerate(players):
        if name.strip().casefold() == text.casefold():
            return seat
    raise SheetError(_("The first dealer %(dealer)s is neither a player's name nor a seat from 1 "
                       "to %(seats)s.", dealer=values.shown(text), seats=len(players)))


def _paper(args: Mapping[str, str]) -> dict[str, Any]:
    """The paper and orientation asked for."""
    orientation = args.get("orientation", "").strip().lower()
    return {"paper": values.choice(args.get("paper", "").strip().lower() or "a4", _("The paper"),
                                   PAPERS),
            "orientation": (values.choice(orientation, _("The orientation"), ORIENTATIONS)
                            if orientation else None)}


def _refuse_unknown(args: Mapping[str, str], known: set[str]) -> None:
    # The sheet's language, read before the request (scorekeeper/web/language.py)
    known = {*known, "lang"}
    unknown = sorted(set(args) - known)
    if unknown:
        raise SheetError(_("Unknown parameter %(parameter)s; known: %(known)s.",
                           parameter=values.shown(unknown[0]), known=", ".join(sorted(known))))


def _pdf(data: bytes, filename: str) -> Response:
    response = Response(data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    response.headers["Cache-Control"] = "no-cache"
    return response


def _form(error: str = "", status: int = 200) -> tuple[str, int]:
    return render_template("sheets/blank_form.html", presets=PRESETS, papers=PAPERS,
                           rules=FORM_RULES, args=request.args, error=error,
                           choice_word=choice_word), status


@bp.get("/sheets/blank")
def blank_form() -> tuple[str, int]:
    """The form that asks which blank sheet to print."""
    return _form()


def blank_pdf_sheet(args: Mapping[str, str]) -> Sheet:
    """The blank sheet a query string asks for; SheetError or RulesError says what is wrong.

    The players, rules, stakes and title are checked as a game file with no deals would be,
    by the rules core, so a sheet is refused exactly where a game would be.
    """
    _refuse_unknown(args, {*SHEET_FIELDS, *RULE_FIELDS, *STAKE_FIELDS})
    players, named = _players(args.get("players", ""))
    doc: dict[str, Any] = {
        "players": players,
        "rules": rule_overrides(args),
        "first_dealer": _seat(args.get("first_dealer", ""), players),
        "title": args.get("title", ""),
    }
    stakes = {name: args[name].strip() for name in STAKE_FIELDS if args.get(name, "").strip()}
    if stakes:
        doc["stakes"] = stakes
    game = parse(doc)
    return blank_sheet(game.rules, game.players if named else None, first_dealer=game.first_dealer,
                       title=game.title, stakes=game.stakes, **_paper(args))


@bp.get("/sheets/blank.pdf")
def blank() -> Response | tuple[str, int]:
    """A blank sheet: the schedule printed, the scores to write in."""
    def printed() -> Callable[[], bytes]:
        sheet = blank_pdf_sheet(request.args)
        pdf.ready()
        return lambda: pdf.render_pdf(sheet)

    try:
        found = lanes.drawn(("blank", tuple(request.args.items(multi=True)), language.current()),
                            printed)
    except (SheetError, RulesError) as exc:
        return _form(sentence(str(exc)), 400)
    return _pdf(found, "oh-hell-blank-sheet.pdf")


@bp.get("/g/<token>/sheet.pdf")
def filled(token: str) -> Response:
    """A game's filled sheet, by its edit or read-only token."""
    game = game_or_404(token, edit=False)
    try:
        _refuse_unknown(request.args, {"paper", "orientation"})
        paper = _paper(request.args)
    except (SheetError, RulesError) as exc:
        abort(400, sentence(str(exc)))
    def printed() -> Callable[[], bytes]:
        sheet = filled_sheet(game.load(), played_on=game.created_at.date(), **paper)
        pdf.ready()
        return lambda: pdf.render_pdf(sheet)

    key = ("filled", game.key, tuple(paper.values()), language.current())
    return _pdf(lanes.drawn(key, printed), "oh-hell-sheet.pdf")


def init_app(app: Flask) -> None:
    """The template helper of the printed sheets: a text as a CSS string."""
    app.jinja_env.filters.update(css_string=pdf.css_string)
