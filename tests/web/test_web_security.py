"""Security rules, each checked on every route of the app's URL map, so a route added later is
covered.

Hostile names in the PDF sheets: test_web_sheets.py; the PDF fetcher alone:
tests/sheets/test_sheet_fetcher.py.
"""

from __future__ import annotations

import io
import json
import re
import secrets
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader
from webhelpers import Scorer, csrf_from, fill, message, snapshot, url_rules
from werkzeug.routing import Rule
from werkzeug.test import TestResponse

import scorekeeper.sheets.pdf
from scorekeeper.store.db import db
from scorekeeper.store.games import Game

#: What a page, a sheet or a header says, the same on any database: `make test` runs it on SQLite
#: only.
pytestmark = pytest.mark.rendering

Start = Callable[..., Scorer]
DEALS = [{"bids": [0, 1, 1, 0], "tricks": [1, 1, 1, 0]}, {"bids": [None, None, 1, None]}]
GAME = {"players": ["Ann", "Bob", "Cy"], "rules": {"max_cards": 3}}

#: What each write route takes from its page, valid for the game ``playing`` makes; a new route gets
#: all.
FORMS: dict[str, dict[str, Any]] = {
    "play.bid": {"seat": 3, "bid": 0},
    "play.bids": {f"bids-{seat}": bid for seat, bid in enumerate([0, 0, 1, 0])},
    "play.trump": {"trump": "S"},
    "play.undo": {"seat": 2},
    "play.cards": {"cards": 2},
    "play.tricks": {f"tricks-{seat}": took for seat, took in enumerate([1, 1, 0, 0])},
    "play.correct": {**{f"bids-{s}": b for s, b in enumerate([0, 1, 0, 0])},
                     **{f"tricks-{s}": t for s, t in enumerate([1, 1, 1, 0])}, "trump": "H"},
    "play.adjust": {"player": 0, "deal": 1, "points": "5", "reason": "revoke"},
    "games.new": {"players-0": "Ann", "players-1": "Bob", "action": "start"},
    "plan.plan": {"cards-0": "1", "action": "save"},
    "plan.rules": {"preset": "oh-hell", "rules-max_cards": "3", "rules-scoring": "exact",
                   "action": "save"},
    "plan.again": {},
    "games.import_game": {"text": json.dumps(GAME)},
}
ANY_FORM = {name: value for form in FORMS.values() for name, value in form.items()}
#: The only write routes that take no game link: each creates a new game.
CREATE = {"games.new", "games.import_game", "api.create_game"}
#: Query strings that make a GET route do its real work.
QUERIES = {"sheets.blank": {"players": "Ann,Bob,Cy"}, "play.state": {"v": "0"},
           "games.example": {"players-0": "Ann", "players-1": "Bob", "rules-scoring": "exact"}}
GAME_ROUTES = [r for r in url_rules("POST")
               if "token" in r.arguments and not r.rule.startswith(("/api/", "/s/"))]


@pytest.fixture
def playing(start: Start) -> Scorer:
    """A game in its second deal, with an adjustment: every write route has something to change."""
    return start(rules={"max_cards": 3}, deals=DEALS,
                 adjustments=[{"deal": 1, "player": 2, "points": -10, "reason": "revoke"}])


def version(app: Flask, token: str) -> int:
    with app.app_context():
        found = db.session.execute(db.select(Game.version).where(Game.token == token)).scalar_one()
    return int(found)


def url(rule: Rule, token: str) -> str:
    return fill(rule, token=token, number=1, index=0, filename="css/app.css")


@pytest.mark.parametrize("rule", GAME_ROUTES, ids=str)
def test_the_read_only_link_is_refused_on_every_write_route_and_changes_nothing(
        app: Flask, playing: Scorer, rule: Rule) -> None:
    viewer = app.test_client()
    viewer.get(f"/v/{playing.view_token}")
    form = {**FORMS.get(rule.endpoint, ANY_FORM), "version": version(app, playing.token),
            "csrf_token": csrf_from(viewer.get("/new").get_data(as_text=True))}
    before = snapshot(app)
    response = viewer.post(url(rule, playing.view_token), data=form)
    assert response.status_code == 403
    assert ("This is the read-only link of a game: it can show the game but not change it."
            in message(response))
    assert snapshot(app) == before
    mine = playing.client.post(url(rule, playing.token),
                               data={**form, "csrf_token": csrf_from(playing.page())})
    assert mine.status_code in (302, 422), (
        "with the edit link, the same form is not refused as a write")


def test_every_write_route_without_a_game_link_only_makes_a_new_game_group_or_event_or_changes_one(
) -> None:
    assert {r.endpoint for r in url_rules("POST")
            if not {"token", "group", "event"} & set(r.arguments)} \
        == CREATE | {"groups.new", "api.create_group", "events_api.create_event", "events.new"}


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_the_json_api_has_no_write_reachable_with_a_read_only_link(
        app: Flask, playing: Scorer, method: str) -> None:
    before, client = snapshot(app), app.test_client()
    document = playing.export()
    for rule in (r for r in url_rules() if r.rule.startswith("/api/") and "token" in r.arguments):
        response = getattr(client, method)(url(rule, playing.view_token), json=document)
        assert response.status_code in (403, 405) and response.get_json()["error"]
    assert snapshot(app) == before


@pytest.mark.parametrize("rule", url_rules("GET"), ids=str)
def test_no_get_route_changes_a_game_or_anything_but_the_device_list_nor_shows_the_edit_link(
        app: Flask, playing: Scorer, rule: Rule) -> None:
    viewer = app.test_client()
    viewer.get(f"/v/{playing.view_token}")
    viewer.get("/new")  # its CSRF token: made once per session, by the first page with a form
    for client, token, allowed in ((playing.client, playing.token,
                                    {playing.token, playing.view_token}),
                                   (viewer, playing.view_token, {playing.view_token})):
        before = snapshot(app)
        with client.session_transaction() as session:
            kept = dict(session)
        with client.get(url(rule, token), query_string=QUERIES.get(rule.endpoint, {})) as response:
            assert response.status_code < 500
            assert token != playing.view_token or playing.token.encode() not in response.data
        assert snapshot(app) == before
        with client.session_transaction() as session:
            changed = {key for key in {*kept, *session} if kept.get(key) != session.get(key)}
            assert changed <= {"edit", "view"}
            assert {*session.get("edit", []), *session.get("view", [])} <= allowed


def _check_headers(response: TestResponse) -> None:
    policy = response.headers["Content-Security-Policy"]
    assert "'unsafe-inline'" not in policy and "frame-ancestors 'self'" in policy
    assert "script-src 'self'" in policy and "default-src 'self'" in policy
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"


RESPONSES: dict[str, Callable[[FlaskClient, Scorer], TestResponse]] = {
    "404 page": lambda c, g: c.get("/no-such-page"),
    "405 page": lambda c, g: c.put("/new"),
    "403 page": lambda c, g: c.get(f"/g/{g.view_token}/share"),
    "400 CSRF page": lambda c, g: c.post(g.url + "/bid", data={"seat": 3, "bid": 0}),
    "413 page": lambda c, g: c.post("/import", data={"text": "x" * (1024 * 1024 + 10)}),
    "422 page": lambda c, g: g.post("/bid", seat=3, bid=9),
    "409 page": lambda c, g: c.post(g.url + "/undo",
                                    data={"csrf_token": csrf_from(g.page()), "version": 0}),
    "302 redirect": lambda c, g: g.post("/bid", seat=3, bid=0),
    "JSON 201": lambda c, g: c.post("/api/games", json=GAME),
    "JSON 404": lambda c, g: c.get("/api/games/nothing-here"),
    "JSON 415": lambda c, g: c.post("/api/games", data="players=Ann"),
    "JSON 405": lambda c, g: c.delete(f"/api/games/{g.token}"),
    "static 404": lambda c, g: c.get("/static/no-such-file.css"),
    "HEAD": lambda c, g: c.head("/"),
    "OPTIONS": lambda c, g: c.options("/new"),
    "import result page": lambda c, g: c.post("/import", data={
        "csrf_token": csrf_from(g.page()),
        "text": json.dumps({"format": "oh-hell-scorekeeper/backup-1", "games": []})}),
}


@pytest.mark.parametrize("name", RESPONSES)
def test_every_kind_of_response_carries_the_security_headers(playing: Scorer, name: str) -> None:
    _check_headers(RESPONSES[name](playing.client, playing))


@pytest.mark.parametrize("rule", url_rules("GET"), ids=str)
def test_every_get_route_carries_the_security_headers(playing: Scorer, rule: Rule) -> None:
    for token in (playing.token, playing.view_token):
        with playing.client.get(url(rule, token),
                                query_string=QUERIES.get(rule.endpoint, {})) as response:
            _check_headers(response)


@pytest.mark.parametrize("path", ["/", "/api/games/x"])
def test_a_crash_is_a_500_with_a_message_and_the_security_headers(
        app: Flask, monkeypatch: pytest.MonkeyPatch, path: str) -> None:
    def crash(*args: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr("scorekeeper.phone.device.games", crash)
    monkeypatch.setattr("scorekeeper.api.views.find_game", crash)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    response = app.test_client().get(path)
    assert response.status_code == 500 and message(response)
    _check_headers(response)


@pytest.mark.parametrize("csrf", ["missing", "another phone's", "made up"])
@pytest.mark.parametrize("rule", url_rules("POST"), ids=str)
def test_a_form_without_its_own_csrf_token_is_refused_on_every_post_route(
        app: Flask, playing: Scorer, rule: Rule, csrf: str) -> None:
    other = csrf_from(app.test_client().get("/new").get_data(as_text=True))
    form = {**FORMS.get(rule.endpoint, ANY_FORM), "version": version(app, playing.token)}
    if csrf != "missing":
        form["csrf_token"] = other if csrf == "another phone's" else secrets.token_urlsafe(16)
    before = snapshot(app)
    response = playing.client.post(url(rule, playing.token), data=form)
    if rule.rule.startswith("/api/"):  # JSON only, so a form from another site can't reach it
        assert response.status_code == 415 and "application/json" in message(response)
        sent = playing.client.post(url(rule, playing.token), data=json.dumps(GAME),
                                   content_type="text/plain")
        assert sent.status_code == 415
    else:
        assert response.status_code == 400
        assert message(response) == ("The form expired or was sent from elsewhere; nothing was "
                                     "changed — reload and try again.")
    assert snapshot(app) == before


def test_tokens_come_from_secrets_with_at_least_128_bits_and_are_never_shared(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []

    def token_urlsafe(nbytes: int) -> str:
        assert nbytes >= 16
        made.append(real(nbytes))
        return made[-1]

    real = secrets.token_urlsafe
    monkeypatch.setattr(secrets, "token_urlsafe", token_urlsafe)
    for _ in range(200):
        assert client.post("/api/games", json=GAME).status_code == 201
    with app.app_context():
        tokens = [t for row in db.session.execute(db.select(Game.token, Game.view_token))
                  for t in row]
    assert len(tokens) == 400 and len(set(tokens)) == 400 and set(tokens) <= set(made)
    # 22 × 6 bits ≥ 128
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{22,64}", token) for token in tokens)


HOSTILE_SHEET = {
    "title": '<link rel=stylesheet href="http://127.0.0.1:1/x.css"> url(file:///etc/passwd)',
    "players": ['<img src="file:///etc/passwd">', "url(file:///etc/passwd)",
                '<style>@import "file:///etc/passwd"', "<link href=//127.0.0.1:1/x rel=icon>"],
}


def test_the_pdf_renderer_fetches_nothing_but_static_files_whatever_the_names(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    static_file = scorekeeper.sheets.pdf.static_file

    def spy(url: str, *args: Any) -> Any:
        asked.append(url)
        return static_file(url, *args)

    monkeypatch.setattr(scorekeeper.sheets.pdf, "static_file", spy)
    body = client.post("/api/games", json={**HOSTILE_SHEET, "rules": {"max_cards": 2}}).get_json()
    blank = {"players": ",".join(HOSTILE_SHEET["players"]), "title": HOSTILE_SHEET["title"]}
    for response in (client.get(body["links"]["sheet"]),
                     client.get("/sheets/blank.pdf", query_string=blank)):
        assert response.status_code == 200 and response.mimetype == "application/pdf"
        content = "".join("".join(page.extract_text()
                                  for page in PdfReader(io.BytesIO(response.data)).pages).split())
        assert "root:x:0:0" not in content
        for name in [HOSTILE_SHEET["title"], *HOSTILE_SHEET["players"]]:
            assert "".join(name.split()) in content
    assert asked and all(url.startswith(scorekeeper.sheets.pdf.BASE_URL + "static/")
                         for url in asked)


def _other_bids_unchanged(before: list[tuple[str, str, int, str]],
                          after: list[tuple[str, str, int, str]], seat: int) -> bool:
    """Whether the only change between two snapshots is the bid of the player at ``seat``, in the
    deal being played."""
    if len(before) != len(after):
        return False
    for (token, data, _version, _seats), (other, changed, _next, _kept) in zip(before, after,
                                                                               strict=True):
        if data == changed:
            continue
        old, new = json.loads(data), json.loads(changed)
        old_bids, new_bids = old["deals"][-1]["bids"], new["deals"][-1]["bids"]
        if token != other or old_bids[seat] is not None or new_bids[seat] is None:
            return False
        new["deals"][-1]["bids"][seat] = None
        if new != old:
            return False
    return True


def test_a_seat_or_join_link_does_its_own_players_bid_and_nothing_else_by_any_route(
        app: Flask, playing: Scorer) -> None:
    """SEATS.md: every route, every method, with each seat link (one whose player bids now, one
    whose turn it is not), the join link and the read-only link: no answer holds a link of more
    authority, and only the seat in turn changes the game, by its own bid."""
    links = playing.export()["links"]
    seats = [s.rsplit("/", 1)[1] for s in links["seats"]]
    join = links["join"].rsplit("/", 1)[1]
    # deal 2: Bob deals, Cy bid 1, Dee (seat 3) bids now, then Ann, then Bob
    order = [2, 3, 0, 1]
    kinds = {"Dee's seat": (seats[3], 3), "Ann's seat": (seats[0], 0),
             "join": (join, None), "read-only": (playing.view_token, None)}
    higher = {"Dee's seat": {playing.token, join, *seats} - {seats[3]},
              "Ann's seat": {playing.token, join, *seats} - {seats[0]},
              "join": {playing.token}, "read-only": {playing.token, join, *seats}}
    bid_by = {rule.endpoint: None for rule in url_rules()}
    changes = []
    for rule in url_rules():
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            for kind, (link, seat) in kinds.items():
                client = app.test_client()
                client.get(f"/s/{link}" if seat is not None else f"/j/{link}")
                csrf = csrf_from(client.get("/new").get_data(as_text=True))
                path = fill(rule, token=link, group=link, event=link, number=2, index=0,
                            filename="css/app.css", code="en")
                tap = f"walk-{len(changes)}-{secrets.token_hex(6)}"
                before = snapshot(app)
                if path.startswith("/api/"):
                    answer = client.open(path, method=method, json={
                        "tap": tap, "deal": 2, "step": "bid", "value": 0})
                else:
                    answer = client.open(path, method=method, data={
                        **ANY_FORM, "csrf_token": csrf, "deal": 2, "tap": tap, "bid": 0,
                        "version": version(app, playing.token)} if method == "POST" else None,
                        query_string=QUERIES.get(rule.endpoint, {}))
                what = f"{method} {rule.rule} with the {kind} link"
                assert answer.status_code < 500, what
                shown = answer.get_data() + answer.headers.get("Location", "").encode()
                assert not [s for s in higher[kind] if s.encode() in shown], (
                    f"{what} shows a link of more authority")
                # what exists already (a route that takes no link may make a new game)
                after = [row for row in snapshot(app) if row[0] in {row[0] for row in before}]
                if after != before:
                    assert seat is not None, f"{what} changed a game"
                    bids = json.loads(before[0][1])["deals"][-1]["bids"]
                    turn = next(s for s in order if bids[s] is None)
                    assert seat == turn, f"{what}: a bid out of turn"
                    assert _other_bids_unchanged(before, after, seat), f"{what} changed more"
                    changes.append(what)
                    bid_by[rule.endpoint] = kind
    assert len(changes) == 2 and {e for e, k in bid_by.items() if k} <= {"seat.bid", "api.taps"}
    assert playing.export()["deals"][1]["bids"] == [0, None, 1, 0]
