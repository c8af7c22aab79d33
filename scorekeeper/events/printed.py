"""A club night's PDFs: the current round's table cards (the director's) and the results sheet (by
either link). The server keeps the ones it drew (web/lanes.py, ``drawn``) by the event, the link's
kind, the state of the night and its games, the paper, the round and the language (and the cards
by the address their QR codes lead to).

A results sheet prints the standings and the latest finished rounds' tables, as many rounds as
``ROUND_NAMES`` names allow (every round of a club's usual night); a round left out is printed on a
sheet of its own (``?round=N``), so that no sheet of the largest night takes more than its share of
a request's time (EVENTS.md, "Limits").
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Response, abort, current_app, render_template, request

from ..play.wording import score
from ..rules import values
from ..rules.errors import RulesError
from ..rules.words import _
from ..sheets import listing, pdf
from ..sheets.layout import PAPERS
from ..web import lanes, language, qr
from ..web.site import event_or_404, game_links, join_link, no_store
from . import rounds
from .views import bp, event_page

#: The most names of the rounds' tables one results sheet prints: 300 tables of 4, every round of a
#: night of 60 players and 20 rounds, or of 400 players and 3 rounds. A PDF draws each line and each
#: character of its text one at a time: the 20 rounds of 400 players, 8,000 names, took 4 s and
#: more.
ROUND_NAMES = 1200


@bp.get("/e/<event>/cards.pdf")
def cards(event: str) -> Response:
    """The current round's table cards (edit link only): each card carries two QR codes, its
    table's join link (each player takes their seat, to bid on their own phone) and its edit link
    (the scorer's, to score the table's game): four cards to a page, of A4 paper or of Letter
    (``?paper=letter``)."""
    stored, _editable = event_or_404(event, edit=True)
    try:
        paper = values.choice(request.args.get("paper", "").strip().lower() or "a4", _("The paper"),
                              PAPERS)
    except RulesError as exc:
        return event_page(stored, True, str(exc), 422)
    state = rounds.mark(stored)
    loaded = rounds.load(stored, True, state)
    current = loaded.current
    if current is None:
        abort(404, _("No round has started yet: the table cards are made when a round starts."))

    def printed() -> Callable[[], bytes]:
        drawn = {}
        for t in current.tables:
            if t.game:
                drawn[f"qr-{t.number}.png"] = qr.png(game_links(t.game)["edit"])
                drawn[f"join-{t.number}.png"] = qr.png(join_link(t.game))
        page = render_template("events/cards.html", doc=loaded.doc, current=current, paper=paper,
                               static=current_app.static_url_path)
        pdf.ready()
        return lambda: pdf.page_pdf(page, drawn)[0]

    key = ("cards", stored.id, stored.token, state, paper, language.current(), request.host_url)
    return _pdf(lanes.drawn(key, printed), f"round-{current.number}-tables.pdf")


def printed_rounds(finished: tuple[rounds.Round, ...]) -> tuple[rounds.Round, ...]:
    """The finished rounds a results sheet prints: the latest ones whose tables hold at most
    ``ROUND_NAMES`` names together (the last one always)."""
    kept: list[rounds.Round] = []
    names = 0
    for played in reversed(finished):
        names += sum(len(table.players) for table in played.tables)
        if kept and names > ROUND_NAMES:
            break
        kept.append(played)
    return tuple(reversed(kept))


@bp.get("/e/<event>/results.pdf")
def results(event: str) -> Response:
    """The results sheet, by either link (it holds no link): the standings after the finished rounds
    (100 players to a page), then the latest finished rounds' tables with their places and final
    totals (``printed_rounds``), naming the rounds left out; ``?round=N``: the tables of finished
    round N alone."""
    stored, editable = event_or_404(event, edit=False)
    state = rounds.mark(stored)
    loaded = rounds.load(stored, editable, state)
    finished = loaded.finished_rounds
    asked = request.args.get("round", "").strip()
    if asked:
        numbers = {played.number: played for played in finished}
        if not asked.isascii() or not asked.isdigit() or int(asked) not in numbers:
            abort(404, _("Round %(round)s has no results yet: "
                         "a round's tables are printed once every table has finished.",
                         round=asked[:12]))
        shown: tuple[rounds.Round, ...] = (numbers[int(asked)],)
    else:
        shown = printed_rounds(finished)
    left_out = 0 if asked else len(finished) - len(shown)  # rounds 1 to left_out

    def printed() -> Callable[[], bytes]:
        tables = [(r.number,
                   listing.round_tables([_("Table %(table)s", table=t.number) for t in r.tables],
                                        [(t.result, t.players) for t in r.tables], score),
                   r.byes)
                  for r in shown]
        header = ["#", _("Player"), _("Score"), _("Tables won"), _("Bids made"), _("Points")]
        page = render_template(
            "events/results.html", doc=loaded.doc, rounds=tables, played=len(finished),
            round_size=listing.ROUNDS,
            standings=None if asked else listing.standings(header, loaded.lines, score),
            left_out=left_out, static=current_app.static_url_path)
        pdf.ready()
        return lambda: pdf.page_pdf(page)[0]

    key = ("results", stored.id, stored.token, editable, state, asked, language.current())
    return _pdf(lanes.drawn(key, printed),
                f"round-{asked}-results.pdf" if asked else "results.pdf")


def _pdf(data: bytes, name: str) -> Response:
    response = Response(data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{name}"'
    return no_store(response)
