"""Rate limits per client address (Flask-Limiter) on what creates or costs: new games, imports,
groups and printable sheets. Entering scores in a game, its pages and any change to it are never
limited.

Each app gets its own ``Limiter``, which wraps the limited views in ``app.view_functions``: the
limits live in one table here rather than on the views, and two apps in one process (the tests,
two workers' worth of apps) never share a limiter's settings or counts.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping

from flask import Flask, Response, jsonify, make_response, render_template, request
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address

from ..rules import values
from ..rules.words import N_, _, ngettext

#: Per client address, for each kind of request: generous enough for a club night of 30 tables
#: behind one router (every table starting its games, a few phones restoring a backup, every table
#: printing its sheets), and for the director of the largest night starting a round of 100 tables
#: (each counts as a new game), far below what one client can send. ``RATE_LIMITS`` in
#: instance/config.py changes any of them (Flask-Limiter's notation: "60 per minute;600 per hour").
LIMITS = {
    "games": "120 per minute;600 per hour;3000 per day",
    "imports": "20 per minute;100 per hour;300 per day",
    "groups": "20 per minute;100 per hour;300 per day",
    "sheets": "30 per minute;300 per hour;1500 per day",
}


def _starts_no_game() -> bool:
    """Whether a post of the new-game form only previews or rearranges it (only "Start game"
    creates)."""
    return request.form.get("action", "preview") != "start"


#: The views each kind limits: endpoint → (the methods limited, when a request is not counted).
LIMITED: dict[str, dict[str, tuple[list[str], Callable[[], bool] | None]]] = {
    "games": {"games.new": (["POST"], _starts_no_game), "api.create_game": (["POST"], None),
              "events.start": (["POST"], None), "events_api.start_round": (["POST"], None)},
    "imports": {"games.import_game": (["POST"], None)},
    "groups": {"groups.new": (["POST"], None), "api.create_group": (["POST"], None),
               "events_api.create_event": (["POST"], None), "events.new": (["POST"], None)},
    "sheets": {"sheets.blank": (["GET"], None), "sheets.filled": (["GET"], None),
               "events.cards": (["GET"], None), "events.results": (["GET"], None)},
}

#: What a refusal says of each kind (translated where said).
REFUSALS = {
    "games": N_("Too many new games have been started from this network in a short time."),
    "imports": N_("Too many files have been imported from this network in a short time."),
    "groups": N_("Too many groups have been started from this network in a short time."),
    "sheets": N_("Too many printable sheets have been asked for from this network in a short "
                 "time."),
}


def _made(response: Response) -> bool:
    """Whether a request with a cost of its own made what it counts (a refused one made nothing)."""
    return response.status_code in (201, 302)


def init_app(app: Flask, costs: Mapping[str, Callable[[], int]]) -> None:
    """Limit the views of ``LIMITED`` for this app (unless ``RATELIMIT_ENABLED`` is off), counting
    in ``RATELIMIT_STORAGE_URI``; a refusal is a 429 that says when to try again. A view of
    ``costs`` counts as many as its function says (a club night's round: its tables, each a new
    game), and only when it made them."""
    enabled = values.boolean(app.config["RATELIMIT_ENABLED"], "RATELIMIT_ENABLED (the rate limits)")
    app.config["RATELIMIT_ENABLED"] = enabled
    if not enabled:
        return
    # The client's address is REMOTE_ADDR: behind PROXY_HOPS proxies, ProxyFix has put the
    # address the nearest of them saw there; without, a header a client sends is not believed.
    limiter = Limiter(get_remote_address, app=app, key_prefix="scorekeeper")
    limits = {**LIMITS, **app.config.get("RATE_LIMITS", {})}
    for kind, views in LIMITED.items():
        for endpoint, (methods, unless) in views.items():
            cost = costs.get(endpoint)
            limit = limiter.shared_limit(limits[kind], scope=kind, methods=methods,
                                         exempt_when=unless, cost=cost or 1,
                                         deduct_when=_made if cost else None)
            app.view_functions[endpoint] = limit(app.view_functions[endpoint])

    def refused(exc: RateLimitExceeded) -> Response:
        found = limiter.current_limit
        wait = max(1, math.ceil(found.window[0] - time.time())) if found is not None else 60
        scope = exc.limit.scope if isinstance(exc.limit.scope, str) else ""
        message = f"{_(REFUSALS.get(scope, REFUSALS['games']))} {_try_again(wait)}"
        if request.path.startswith("/api/"):
            response = jsonify(error=message, retry_after=wait)
            response.status_code = 429
        else:
            going_on = _("Scores can still be entered in the games already started.")
            message = f"{message} {going_on}"
            response = make_response(render_template("error.html", code=429,
                                                     title=N_("Too many at once"),
                                                     message=message), 429)
        response.headers["Retry-After"] = str(wait)
        return response

    app.register_error_handler(RateLimitExceeded, refused)


def _try_again(seconds: int) -> str:
    """When to try again, in seconds, minutes or hours as the wait is long."""
    if seconds < 90:
        return ngettext("Try again in %(num)s second.", "Try again in %(num)s seconds.", seconds)
    minutes = math.ceil(seconds / 60)
    if minutes < 90:
        return ngettext("Try again in %(num)s minute.", "Try again in %(num)s minutes.", minutes)
    hours = math.ceil(minutes / 60)
    return ngettext("Try again in %(num)s hour.", "Try again in %(num)s hours.", hours)
