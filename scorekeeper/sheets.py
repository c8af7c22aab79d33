"""Printable score sheets as PDF: a blank one for any rules and table, or a played game's."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, abort, render_template, request

from . import pdf
from .rules.errors import RulesError
from .rules.gamefile import MAX_TITLE, check_players
from .rules.presets import PRESETS, RULE_FIELDS, make_rules
from .rules.scoring import SYSTEMS
from .rules.stakes import STAKE_FIELDS, parse_stakes
from .scoresheet import PAPERS, Sheet, SheetError, blank_sheet, filled_sheet
from .web import game_or_404

bp = Blueprint("sheets", __name__)

INT_FIELDS = ("decks", "deck_size", "max_cards", "deals", "hook_from")
BOOL_FIELDS = ("simultaneous", "spades_double")
BOOLS = {"true": True, "1": True, "yes": True, "on": True, "false": False, "0": False, "no": False,
         "off": False}
SHEET_FIELDS = ("players", "paper", "orientation", "title", "first_dealer")
#: The house rules the form offers; any other rule field can still be given in the URL.
FORM_RULES = {
    "bidding": ("free", "hook", "dealer-must-exceed", "must-equal"),
    "scoring": tuple(SYSTEMS),
}


def _number(name: str, text: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        pass
    if name == "target":
        try:
            value = float(text)
            if math.isfinite(value):
                return value
        except ValueError:
            pass
    raise SheetError(f"{name} must be a whole number, not {text!r}.")


def rule_overrides(args: Mapping[str, str]) -> dict[str, Any]:
    """The rule fields of a query string, typed as the game file types them; empty ones are left out.

    >>> rule_overrides({"preset": "oh-hell", "max_cards": "7", "spades_double": "yes", "zero_bid": "5"})
    {'preset': 'oh-hell', 'max_cards': 7, 'zero_bid': 5, 'spades_double': True}
    """
    overrides: dict[str, Any] = {}
    for name in RULE_FIELDS:
        text = args.get(name, "").strip()
        if not text:
            continue
        if name in INT_FIELDS or name == "target":
            overrides[name] = _number(name, text)
        elif name in BOOL_FIELDS:
            if text.lower() not in BOOLS:
                raise SheetError(f"{name} must be true or false, not {text!r}.")
            overrides[name] = BOOLS[text.lower()]
        elif name == "zero_bid" and text.lstrip("-").isdigit():
            overrides[name] = int(text)
        else:
            overrides[name] = text
    return overrides


def _players(text: str) -> tuple[int, tuple[str, ...] | None]:
    """A number of players, or their names separated by commas."""
    text = text.strip()
    if not text:
        raise SheetError("Give the players: their names separated by commas, or how many there are.")
    if text.isdigit():
        return int(text), None
    names = check_players([part for part in text.split(",")])
    return len(names), names


def _seat(text: str, names: tuple[str, ...] | None, players: int) -> int:
    """The first dealer: a name, or a seat number counted from 1."""
    text = text.strip()
    if not text:
        return 0
    if text.isdigit() and 1 <= int(text) <= players:
        return int(text) - 1
    for seat, name in enumerate(names or ()):
        if name.casefold() == text.casefold():
            return seat
    raise SheetError(f"The first dealer {text!r} is neither a player's name nor a seat from 1 to {players}.")


def _paper(args: Mapping[str, str]) -> dict[str, Any]:
    """The paper and orientation asked for (scoresheet.layout refuses unknown ones)."""
    return {"paper": args.get("paper", "").strip().lower() or "a4",
            "orientation": args.get("orientation", "").strip().lower() or None}


def _refuse_unknown(args: Mapping[str, str], known: set[str]) -> None:
    unknown = sorted(set(args) - known)
    if unknown:
        raise SheetError(f"Unknown parameter {unknown[0]!r}; known: {', '.join(sorted(known))}.")


def _pdf(data: bytes, filename: str) -> Response:
    response = Response(data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    response.headers["Cache-Control"] = "no-cache"
    return response


def _form(error: str = "", status: int = 200) -> tuple[str, int]:
    return render_template("sheets/blank_form.html", presets=PRESETS, papers=PAPERS,
                           rules=FORM_RULES, args=request.args, error=error), status


@bp.get("/sheets/blank")
def blank_form() -> tuple[str, int]:
    """The form that asks which blank sheet to print."""
    return _form()


def blank_pdf_sheet(args: Mapping[str, str]) -> Sheet:
    """The blank sheet a query string asks for; SheetError or RulesError says what is wrong."""
    _refuse_unknown(args, {*SHEET_FIELDS, *RULE_FIELDS, *STAKE_FIELDS})
    players, names = _players(args.get("players", ""))
    overrides = rule_overrides(args)
    rules = make_rules(overrides, players)
    stakes = None
    stake_input = {k: args[k].strip() for k in STAKE_FIELDS if args.get(k, "").strip()}
    if stake_input:
        if rules.cooperative:
            raise SheetError("A cooperative game is won together, so it can't be played for stakes.")
        stakes = parse_stakes(stake_input)
    title = " ".join(args.get("title", "").split())
    if len(title) > MAX_TITLE:
        raise SheetError(f"The title is longer than {MAX_TITLE} characters.")
    return blank_sheet(rules, names, first_dealer=_seat(args.get("first_dealer", ""), names, players),
                       title=title, stakes=stakes, **_paper(args))


@bp.get("/sheets/blank.pdf")
def blank() -> Response | tuple[str, int]:
    """A blank sheet: the schedule printed, the scores to write in."""
    try:
        sheet = blank_pdf_sheet(request.args)
    except (SheetError, RulesError) as exc:
        return _form(str(exc), 400)
    return _pdf(pdf.render_pdf(sheet), "oh-hell-blank-sheet.pdf")


@bp.get("/g/<token>/sheet.pdf")
def filled(token: str) -> Response:
    """A game's filled sheet, by its edit or read-only token."""
    game = game_or_404(token, edit=False)
    try:
        _refuse_unknown(request.args, {"paper", "orientation"})
        sheet = filled_sheet(game.load(), played_on=game.created_at.date(), **_paper(request.args))
    except SheetError as exc:
        abort(400, str(exc))
    return _pdf(pdf.render_pdf(sheet), "oh-hell-sheet.pdf")
