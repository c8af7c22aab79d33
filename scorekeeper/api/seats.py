"""A seat link in the JSON API (SEATS.md, "In the game file and the API"): the game as the
read-only link answers it, with the seat's index; and the seat's own taps.

``POST /api/games/<seat>/taps`` with
``{"tap": "<id>", "deal": <n>, "step": "bid" | "tricks", "value": <k>}`` enters that seat's bid or
trick count by the same protocol as the pages (``play.seat.enter_bid``,
``play.counts.enter_count``): ``200`` with the game when the tap is applied (or was before),
``409`` with a sentence naming the deal when it doesn't fit the game as it stands, ``403`` for
anything a seat may not do, ``422`` for a value that can't be read.
"""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, request, url_for

from ..changes import AlreadyApplied, Saved, Stale
from ..play.counts import enter_count
from ..play.forms import tap_id
from ..play.sealed import sealed_export
from ..play.seat import enter_bid
from ..rules import values
from ..rules.errors import RulesError
from ..rules.gamefile import MAX_DEALS, MAX_HAND
from ..rules.words import _
from ..store.games import StoredGame, find_game
from ..store.links import find_link, seat_token
from ..web.site import game_links, no_store, read_json

#: The fields of a seat's tap.
TAP_FIELDS = ("tap", "deal", "step", "value")


def _error(message: str, status: int) -> tuple[Response, int]:
    return jsonify(error=message), status


def seat_export(game: StoredGame, seat: int) -> dict[str, Any]:
    """What a seat link's answer holds: the read-only link's export, its own link among the links,
    and ``seat``, its index."""
    links = {**game_links(game, False),
             "seat": url_for("seat.page", token=seat_token(game, seat), _external=True)}
    return {**sealed_export(game, links), "seat": seat}


def get_seat(token: str) -> Response | tuple[Response, int]:
    """``GET /api/games/<token>`` for a token that is no game's edit or read-only token: a seat's
    answer, a join link's refusal, or 404."""
    found = find_link(token)
    if found is None:
        return _error(_("no game has this link"), 404)
    if found.seat is None:
        return _error(_("this is the join link of a game: open it to take a seat"), 403)
    response = jsonify(seat_export(found.game, found.seat))
    response.headers["ETag"] = f'"{found.game.version}"'
    return no_store(response)  # it holds the seat's link, which may bid


def refuse(token: str) -> tuple[Response, int]:
    """A change asked of a link that is no game's edit link nor its read-only one: 403 for a seat's
    or the join link (SEATS.md: a seat enters its own bid and trick count, by its taps, and
    nothing else), else 404."""
    if find_link(token) is None:
        return _error(_("no game has this link"), 404)
    return _error(_("a seat's link enters its own player's bid and trick count, by its taps, "
                    "and nothing else"), 403)


def read_seat_tap(data: object) -> tuple[str, int, str, int]:
    """A seat's tap as sent: its client id, deal, step and value (RulesError says what can't be
    read)."""
    if not isinstance(data, dict):
        raise RulesError(_("send the tap as a JSON object, such as %(example)s",
                           example='{"tap": "k2v9Qx71", "deal": 1, "step": "bid", "value": 0}'))
    values.fields(data, TAP_FIELDS, _("the tap"))
    tap = data.get("tap")
    client = tap_id({"tap": tap}) if isinstance(tap, str) else None
    if client is None:
        raise RulesError(_("the tap's id must be 8 to 40 letters, digits, - or _"))
    step = data.get("step")
    if step not in ("bid", "tricks"):
        raise RulesError(_('the step must be "bid" or "tricks"'))
    deal = values.whole(data.get("deal"), _("The deal"), 1, MAX_DEALS)
    value = values.whole(data.get("value"), _("The value"), 0, MAX_HAND)
    return client, deal, str(step), value


def taps(token: str) -> Response | tuple[Response, int]:
    """A seat's tap: its own bid, or its own trick count."""
    if not request.is_json:  # first: a form from another site can't reach it
        return _error(_("send JSON (Content-Type: %(type)s)", type="application/json"), 415)
    found = find_link(token)
    if found is None:
        if find_game(token)[0] is None:
            return _error(_("no game has this link"), 404)
        return _error(_("these taps are a seat link's: a game's own link can't send them"), 403)
    if found.seat is None:
        return _error(_("this is the join link of a game: open it to take a seat"), 403)
    try:
        data = read_json(request.get_data())
    except ValueError as exc:
        return _error(_("the body is not valid JSON: %(problem)s", problem=exc), 400)
    try:
        client, deal, step, value = read_seat_tap(data)
    except RulesError as exc:
        return _error(str(exc), 422)
    enter = enter_bid if step == "bid" else enter_count
    outcome = enter(found.game, found.seat, value, tap=client, deal=deal)
    if isinstance(outcome, Saved | AlreadyApplied):
        return no_store(jsonify(seat_export(outcome.game, found.seat)))
    if isinstance(outcome, Stale):
        return _error(outcome.reason, 409)
    return _error(outcome.reason, outcome.status)
