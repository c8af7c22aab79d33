"""The games of this device: the list, a new game, importing a game file, deleting a game."""

from __future__ import annotations

import hashlib
import json
import secrets
from collections import Counter
from datetime import UTC, datetime
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.wrappers import Response as BaseResponse
from wtforms.validators import ValidationError

from ..groups.loaded import for_new_game
from ..phone import device
from ..play import board, pages
from ..play.answer import open_new
from ..play.summary import rules_summary
from ..play.wording import played, points
from ..rules import values
from ..rules.errors import RulesError
from ..rules.gamefile import MAX_PLAYERS, parse
from ..rules.presets import Rules, make_rules
from ..rules.scoring import SYSTEMS, deal_points
from ..rules.variants import PRESETS
from ..rules.words import _
from ..store.db import commit
from ..store.groups import StoredGroup
from ..store.links import seat_token
from ..web import access, lanes
from ..web.access import Act
from ..web.fields import beside, indexed, problems, sentence
from ..web.site import endpoint_url, game_or_404, no_store
from . import backup
from .forms import HouseRulesForm, ImportForm, NewGameForm

bp = Blueprint("games", __name__)

#: (bid, tricks) pairs the scoring example shows, on a 3-card deal.
EXAMPLES = ((0, 0), (1, 1), (3, 3), (0, 1), (2, 1), (1, 3))


@bp.get("/")
def index() -> str:
    """The games this device has opened, the most recently played first."""
    entries, now = [], datetime.now().astimezone()
    for game, editable in device.games():
        try:
            checked = game.load()
        except RulesError as exc:  # stored before a limit it breaks: listed, to download or delete
            entries.append({"game": game, "editable": editable, "refusal": sentence(str(exc)),
                            "name": game.title or ", ".join(game.document["players"])})
            continue
        # a game this phone took a seat of: its entry leads to the seat
        seat = None if editable else device.seat_of(game)
        if seat is not None and seat < len(checked.players):
            seat_link = (seat, url_for("seat.page", token=seat_token(game, seat)))
        else:
            seat_link = None
        entries.append({"game": game, "file": checked, "editable": editable, "seat": seat_link,
                        "progress": board.progress(checked), "leaders": board.leaders(checked),
                        "variant": board.variant(checked.rules),
                        "played": played(_local(game.created_at), _local(game.updated_at), now)})
    nights = [(night, night.document, editable) for night, editable in device.events()]
    return render_template("games/index.html", entries=entries, groups=device.groups(),
                           nights=nights, blank_sheet=endpoint_url("sheets.blank_form"))


def _local(moment: datetime) -> datetime:
    """A stored time in this server's time zone (SQLite gives it back without one: it is UTC)."""
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone()


def _rearrange(form: NewGameForm, action: str) -> None:
    """Add, remove or move a player row (the buttons that work without JavaScript)."""
    names = list(form.rows)
    dealer = form.first_dealer.data or "0"
    seat = _row(dealer, len(names))  # None: a random draw (or no row)
    verb, where = action.partition("-")[::2]
    row = _row(where, len(names))
    if verb == "add" and len(names) < MAX_PLAYERS:
        names.append("")
    elif verb == "remove" and row is not None and len(names) > 2:
        names.pop(row)
        if seat is not None and seat >= row:
            seat = max(seat - 1, 0) if seat > row else 0
    elif verb in ("up", "down") and row is not None:
        other = row - 1 if verb == "up" else row + 1
        if 0 <= other < len(names):
            names[row], names[other] = names[other], names[row]
            seat = {row: other, other: row}.get(seat, seat) if seat is not None else None
    form.rows = names
    form.first_dealer.data = "random" if seat is None else str(seat)


def _row(text: str, rows: int) -> int | None:
    """A row of the players' list a button or a radio names; None when it names none."""
    try:
        return values.whole(text, "Row", 0, rows - 1)
    except RulesError:
        return None


def examples(rules: Rules) -> list[dict[str, Any]]:
    """What the scoring gives on a 3-card deal, for the rules being chosen (none when
    cooperative)."""
    rows: list[dict[str, Any]] = []
    if rules.scoring is None:
        return rows
    for bid, took in EXAMPLES:
        score = deal_points(rules.scoring, [bid] * rules.players, [took] * rules.players, 3,
                            zero_bid=rules.zero_bid)[0]
        rows.append({"bid": bid, "took": took, "points": points(score)})
    return rows


@bp.route("/new", methods=("GET", "POST"))
def new() -> str | BaseResponse | tuple[str, int]:
    """Set up a game; "Preview" shows the whole schedule, "Start game" creates it."""
    form = NewGameForm()
    action = request.form.get("action", "preview")
    group, roster, refusal = for_new_game(str(request.values.get("group", "")))
    if request.method != "POST" or action == "edit":  # HEAD and OPTIONS change nothing either
        return _form(form, refusal, group=group, roster=roster)
    if action.startswith("chip-"):
        _seat(form, roster, action)
        return _form(form, group=group, roster=roster)
    if action not in ("preview", "start"):
        _rearrange(form, action)
        # The row just added opens with the focus: a name typed next goes into it.
        return _form(form, group=group, roster=roster,
                     focus=len(form.rows) - 1 if action == "add" else None)
    if refusal:
        return _form(form, refusal, group=group, roster=roster), 422
    if not form.validate():
        return _form(form, " ".join(form.row_errors), group=group, roster=roster), 422
    dealer = form.dealer()
    drawn = dealer is None
    first = secrets.randbelow(len(form.names())) if dealer is None else dealer
    try:
        checked = parse(form.document(first))
    except RulesError as exc:
        return _form(form, "" if form.refused(exc) else sentence(str(exc)), group=group,
                     roster=roster), 422
    if action == "start":
        return open_new(checked, group=group)
    keep = [(k, v) for k, v in request.form.items(multi=True)
            if k not in ("csrf_token", "action", "first_dealer") and not k.startswith("players-")]
    return render_template("games/preview.html", form=form, file=checked, drawn=drawn, keep=keep,
                           group=group, rows=board.board(checked), examples=examples(checked.rules),
                           description=_(PRESETS[checked.rules.preset].description),
                           summary=rules_summary(checked.rules, checked.stakes))


def _form(form: NewGameForm, error: str = "", group: StoredGroup | None = None,
          roster: list[str] | None = None, focus: int | None = None) -> str:
    """The new-game form; a refused field says why beside it, in its panel opened."""
    beside(form)
    return render_template("games/new.html", form=form, error=error, presets=PRESETS,
                           systems=SYSTEMS, group=group, chips=_chips(form, roster or []),
                           focus=focus)


def _chips(form: NewGameForm, roster: list[str]) -> list[tuple[str, bool]]:
    """The group's players, each with whether they are seated already."""
    seated = {values.name_key(" ".join(typed.split())) for typed in form.rows}
    return [(name, values.name_key(name) in seated) for name in roster]


def _seat(form: NewGameForm, roster: list[str], action: str) -> None:
    """A chip of the group's roster tapped: the player takes the first empty row (a row is added
    when none is empty), or leaves the table when already seated."""
    chip = _row(action.removeprefix("chip-"), len(roster))
    if chip is None:
        return
    name, names = roster[chip], list(form.rows)
    seated = [row for row, typed in enumerate(names)
              if values.name_key(typed.strip()) == values.name_key(name)]
    if seated:
        names[seated[0]] = ""
        while len(names) > 2 and not names[-1]:
            names.pop()
    elif "" in [typed.strip() for typed in names]:
        names[[typed.strip() for typed in names].index("")] = name
    elif len(names) < MAX_PLAYERS:
        names.append(name)
    form.rows = names


@bp.get("/new/example")
def example() -> Response:
    """The scoring example of the rules being chosen on the new-game page, as JSON: worked out once
    per worker for the same query and language (a house system is checked over its whole schedule),
    as a page is kept."""
    body = pages.cached(("example", tuple(request.args.items(multi=True))), _example)
    return current_app.response_class(body, mimetype="application/json")


def _example() -> str:
    form = HouseRulesForm(request.args, prefix="rules")
    preset = request.args.get("preset", "oh-hell")
    named = indexed(request.args, "players", MAX_PLAYERS, "name")[0]
    players = max(2, sum(1 for name in named if name and name.strip()))
    try:
        if not form.validate():
            raise RulesError(" ".join(problems(form)))
        rules = make_rules({"preset": preset, **form.overrides()}, players)
    except RulesError as exc:
        return current_app.json.dumps({"error": sentence(str(exc)), "rows": []})
    scoring = rules.scoring
    if scoring is None:
        words = _("cooperative: deals score nothing")
    else:  # a house system's words hold its formulas, as typed: never looked up as a message
        words = scoring.described()
    return current_app.json.dumps({"error": None, "words": words, "rows": examples(rules),
                                   "doubled": rules.spades_double,
                                   "description": _(PRESETS[rules.preset].description)})


@bp.get("/backup.json")
def backup_file() -> Response:
    """Every game this device holds, in one file to download (a backup)."""
    document = backup.backup()
    response = jsonify(document)
    response.headers["Content-Disposition"] = (
        f'attachment; filename="oh-hell-backup-{document["exported"][:10]}.json"')
    return no_store(response)  # it holds the games' edit links


def _restored(results: list[backup.Restored]) -> tuple[str, int]:
    """The page that says what became of each game of a restored backup."""
    counts = Counter(r.outcome for r in results)
    status = 422 if counts["refused"] and not counts["imported"] + counts["here"] else 200
    page = render_template("games/restored.html", results=results, counts=counts)
    commit()  # the answer is made before anything is stored: a failure stores nothing
    return page, status


@bp.route("/import", methods=("GET", "POST"))
def import_game() -> str | BaseResponse | tuple[str, int]:
    """Restore a game file, or every game of a backup, uploaded or pasted."""
    form = ImportForm()
    error = ""
    if form.validate_on_submit():
        try:
            document = form.document()
            # Checking house formulas takes seconds: worked out in the lane within the request's
            # time, or kept for the file sent again (web/lanes.py); then the restore itself
            digest = hashlib.sha256(json.dumps(document, sort_keys=True).encode())
            backup.remembered(lanes.drawn(("checks", digest.hexdigest()),
                                          lambda: lambda: backup.check(document),
                                          lanes.StillChecking))
            with lanes.costly():
                if backup.is_backup(document):
                    return _restored(backup.restore(document))
                return open_new(parse(document))
        except (ValidationError, backup.BackupError) as exc:
            error = str(exc)
        except RulesError as exc:
            error = _("This game file can't be used: %(problem)s", problem=exc)
    elif request.method == "POST":
        error = " ".join(problems(form))
    status = 422 if error else 200
    return render_template("games/import.html", form=form, error=error), status


@bp.route("/g/<token>/delete", methods=("GET", "POST"))
def delete(token: str) -> str | BaseResponse:
    """Delete a game for good, after a confirmation page: only a POST (with its form token) deletes;
    a GET, a HEAD (a link checker, a prefetch) or an OPTIONS shows or answers, and changes
    nothing."""
    game = game_or_404(token, edit=True)
    refused = access.refusal(game, Act.DELETE)
    if refused is not None:
        abort(403, refused)
    # Also for a game the rules no longer replay
    name = game.title or ", ".join(game.document["players"])
    if request.method != "POST":
        return no_store(make_response(render_template("games/delete.html", game=game, name=name)))
    device.forget(game)
    game.delete()
    flash(_("The game “%(game)s” is deleted.", game=name), "done")
    return redirect(url_for("games.index"))
