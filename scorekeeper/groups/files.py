"""A group's files: its games, every deal and the statistics as CSV (safe to open in a
spreadsheet), and the season sheet, a one-page PDF made by the score sheets' printer."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable
from datetime import UTC, datetime

import orjson
from flask import Blueprint, Response, current_app, render_template
from flask_babel import force_locale

from ..rules.errors import RulesError
from ..rules.gamefile import export, parse
from ..sheets import pdf
from ..store.groups import game_data
from ..web import lanes, language
from .loaded import Loaded, load, ratings_chart, shown_date, when

bp = Blueprint("group_files", __name__)

#: The most players the season sheet lists (it is one page).
SHEET_PLAYERS = 30
#: What a spreadsheet reads as the start of a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> object:
    """A CSV cell a spreadsheet won't read as a formula: text starting with = + - @ (or a tab or a
    carriage return) gets an apostrophe in front, negative numbers included.

    >>> safe_cell("=1+2"), safe_cell("@SUM(A1)"), safe_cell(-3), safe_cell("Ann"), safe_cell(4)
    ("'=1+2", "'@SUM(A1)", "'-3", 'Ann', 4)
    """
    text = value if isinstance(value, str) else str(value)
    if text.startswith(FORMULA_STARTS):
        return "'" + text
    return value


def csv_response(rows: Iterable[Iterable[object]], filename: str) -> Response:
    """A CSV file (the standard library's ``csv``), every cell made safe for a spreadsheet."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _number(value: float | None, places: int = 3) -> object:
    return "" if value is None else round(value, places)


def _name(loaded: Loaded) -> str:
    return ("".join(c if c.isascii() and c.isalnum() else "-" for c in loaded.group.name)
            .strip("-")[:40] or "group")


@bp.get("/gr/<group>/games.csv")
def games_csv(group: str) -> Response:
    """The group's games, one row each, in the group's order."""
    loaded = load(group)
    rows: list[list[object]] = [["game", "date", "title", "variant", "players", "finished",
                                 "winners", "deals"]]
    # The variant as named in English: the file reads the same in every language
    with force_locale("en"):
        variants = [entry.variant for entry in loaded.figures.entries]
    for number, (member, entry, variant) in enumerate(zip(loaded.members, loaded.figures.entries,
                                                          variants), 1):
        rows.append([number, when(member.created_at), entry.title, variant,
                     "; ".join(entry.players), "yes" if entry.finished else "no",
                     "; ".join(entry.winners), entry.deals])
    return csv_response(rows, f"{_name(loaded)}-games.csv")


@bp.get("/gr/<group>/deals.csv")
def deals_csv(group: str) -> Response:
    """Every deal of the group's games, one row per player dealt in."""
    loaded = load(group)
    stored = game_data([member.id for member in loaded.members])
    rows: list[list[object]] = [["game", "deal", "cards", "dealer", "player", "bid", "tricks",
                                 "made", "points", "total"]]
    for number, member in enumerate(loaded.members, 1):
        if member.id not in stored:
            continue
        try:
            doc = export(parse(orjson.loads(stored[member.id])))
        except RulesError:
            continue
        names = doc["players"]
        for deal in doc["deals"]:
            if "tricks" not in deal:
                continue
            for seat in deal["present"]:
                rows.append([number, deal["number"], deal["cards"], names[deal["dealer"]],
                             names[seat], deal["bids"][seat], deal["tricks"][seat],
                             "yes" if deal["made"][seat] else "no", deal["points"][seat],
                             deal["totals"][seat]])
    return csv_response(rows, f"{_name(loaded)}-deals.csv")


@bp.get("/gr/<group>/players.csv")
def players_csv(group: str) -> Response:
    """The statistics: one row per player, best rating first."""
    loaded = load(group)
    rows: list[list[object]] = [["player", "rating", "mu", "sigma", "games", "wins", "deals",
                                 "made", "hit_rate", "zero_bids", "zero_made", "bids", "tricks",
                                 "over_under", "hook_deals", "hook_made"]]
    for p in loaded.figures.leaderboard():
        t = p.tally
        rows.append([p.name, _number(p.rating.ordinal), _number(p.rating.mu),
                     _number(p.rating.sigma), t.games, t.wins, t.deals, t.made, _number(t.hit_rate),
                     t.zero_bids, t.zero_made, t.bids, t.tricks, _number(t.overbid), t.hook_deals,
                     t.hook_made])
    return csv_response(rows, f"{_name(loaded)}-statistics.csv")


@bp.get("/gr/<group>/season.pdf")
def season(group: str) -> Response:
    """The season sheet: the leaderboard and the ratings chart on one page, to print."""
    loaded = load(group)
    today = shown_date(datetime.now(UTC))

    def printed() -> Callable[[], bytes]:
        page = render_template("groups/season.html", group=loaded.group, fig=loaded.figures,
                               board_rows=loaded.figures.leaderboard()[:SHEET_PLAYERS],
                               more=max(0, len(loaded.figures.players) - SHEET_PLAYERS),
                               chart=ratings_chart(loaded.figures, ink="#000"),
                               static=current_app.static_url_path, today=today)
        pdf.ready()
        return lambda: pdf.page_pdf(page)[0]

    key = ("season", loaded.group.token, loaded.editable, loaded.group.mark(), today,
           language.current())
    data = lanes.drawn(key, printed)
    response = Response(data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = 'inline; filename="season.pdf"'
    response.headers["Cache-Control"] = "no-cache"
    return response
