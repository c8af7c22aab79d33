"""Every route of the app, with every kind of link a club night hands out, and every method
(EVENTS.md, "Who may do what"): the director's link (on the phone that opened the director's
page), the room screen's, a table's edit link of the current round and of a finished one, a
table's read-only link, the group's read-only link, a game outside the night, and a link that
leads nowhere. Each answer is checked against the table of who may do what:

- no answer (page, JSON, PDF, redirect, QR code) holds a link of more authority than the one
  used: a table's join and seat links are shown to its own edit link and join link alone, never
  to the room screen's link nor to a table's read-only link; a seat's link shows no other seat's
  link but, once a later round has started, the same player's seat in it (SEATS.md, "Club
  nights": the phone follows its player through the night);
- only the director's link, and a current table's own link for its own deals, change the night
  (its event, its games, its group); a current table's seat link, with its own taps, only its own
  player's trick count (the round's tables are at the tricks), and a finished table's seat link
  nothing; any other request leaves it exactly as it was;
- nothing answers with a server error.
"""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader
from test_web_events_access import night  # noqa: F401 (the fixture)
from test_web_events_api import token
from webhelpers import csrf_from, fill, scanned, svg_picture, url_rules

from scorekeeper.store.db import db
from scorekeeper.store.games import Game

pytestmark = pytest.mark.rendering  # the night's sheets: on SQLite only, like every sheet test

#: The values of a route's other parts (a deal's number, an adjustment's index, a language, a file).
OTHERS = {"number": "1", "index": "0", "name": "Ann", "code": "en", "filename": "css/app.css"}
#: The parts of a route that take a link.
LINKS = {"token", "event", "group"}
#: What a current table's own link may change in the night: its deals and its changes at the table.
PLAYS = {"play.adjust", "play.unadjust", "play.bid", "play.bids", "play.cards", "play.correct",
         "play.undo_deal", "play.end", "play.resume", "play.stakes", "play.tricks", "play.trump",
         "play.undo", "table.arrive", "table.come_back", "table.leave", "table.sit_out",
         "plan.plan", "api.replace_game"}


def the_night(app: Flask, ids: list[int]) -> list[tuple[Any, ...]]:
    """The night as stored: its event, its table games, its group and the group's games."""
    with app.app_context():
        rows = []
        # a version grows at every write
        for query in ("SELECT id, version FROM events ORDER BY id",
                      (f"SELECT id, version FROM games WHERE id IN ({', '.join(map(str, ids))})"
                       " ORDER BY id"),
                      "SELECT id, version FROM groups ORDER BY id",
                      ("SELECT game_id, group_id, position, active FROM group_games"
                       " ORDER BY game_id")):
            rows.extend(tuple(row) for row in db.session.execute(db.text(query)))
        return rows


def readable(answer: Any) -> bytes:
    """An answer as a reader sees it: the body (a PDF's text and link targets), what a phone scans
    in its QR codes (a page's inline ones, a PDF's pictures), and where it leads."""
    body = answer.get_data()
    scans: list[str] = []
    if body.startswith(b"%PDF"):
        reader = PdfReader(io.BytesIO(body))
        parts = [page.extract_text() for page in reader.pages]
        for page in reader.pages:
            for annotation in page.get("/Annots") or []:
                action = annotation.get_object().get("/A") or {}
                parts.append(str(action.get("/URI", "")))
            scans.extend(code for image in page.images for code in scanned(image.image))
        body = "\n".join(parts).encode()
    else:
        for svg in re.findall(rb"<svg [^>]*class=\"qr-code\".*?</svg>", body, re.DOTALL):
            scans.extend(scanned(svg_picture(svg.decode())))
    return b"\n".join([body, *(code.encode() for code in scans),
                       answer.headers.get("Location", "").encode()])


#: A seat's taps, sent as its page and its app send them (deal 1 of a round's table games).
SEAT_TAP = {"deal": 1, "bid": 0, "tricks": 0}
SEAT_API_TAP = {"deal": 1, "step": "tricks", "value": 0}
#: The routes of a seat's taps.
SEAT_TAPS = {"seat.bid", "seat.tricks", "api.taps"}
#: The walk's seat links: the current round's table's, and a finished round's.
SEATED = ("table seat", "finished table seat")


def request(client: FlaskClient, method: str, url: str, csrf: str, seat: bool, tap: str) -> Any:
    """The request of a walk's step; a seat's link sends its taps as they are sent, each with an id
    of its own."""
    if url.startswith("/api/"):
        return client.open(url, method=method, json={**SEAT_API_TAP, "tap": tap} if seat else {})
    fields = {"csrf_token": csrf, **({**SEAT_TAP, "tap": tap} if seat else {})}
    return client.open(url, method=method, data=fields if method == "POST" else None)


def at_the_tricks(client: FlaskClient, table: dict[str, Any]) -> None:
    """Every bid of a table's one deal in (through PUT /api/games/<edit>), its tricks to come."""
    read = client.get(table["links"]["api"])
    game = read.get_json()
    doc = {name: game[name] for name in ("format", "title", "players", "rules", "first_dealer")}
    doc["deals"] = [{"bids": [1] * len(game["players"])}]
    put = client.put(f"/api/games/{token(table['links']['edit'])}", json=doc,
                     headers={"If-Match": read.headers["ETag"]})
    assert put.status_code == 200, put.get_json()


def stored(app: Flask, edit: str) -> tuple[int, str, str]:
    """A game as stored: its id, its game file and what the seats entered."""
    with app.app_context():
        row = db.session.execute(db.select(Game.id, Game.data, Game.seats)
                                 .where(Game.token == edit)).one()
    return row[0], row[1], row[2]


def own_count_only(app: Flask, ids: list[int], edit: str, seat: int,
                   was: list[tuple[Any, ...]], game: tuple[int, str, str]) -> bool:
    """Whether the night is as it was (``was``, ``game`` as stored before) but for the seat's own
    trick count among what the seats entered of its table game, with the game's next version."""
    number, data, seats = game
    now = stored(app, edit)
    if now[1] != data:
        return False
    old, new = (json.loads(text) if text else {} for text in (seats, now[2]))
    counts = new.get("tricks") or []
    if not 0 <= seat < len(counts) or counts[seat] != 0:
        return False
    counts[seat] = (old.get("tricks") or [None] * len(counts))[seat]
    rows = the_night(app, ids)
    changed = [(then, now) for then, now in zip(was, rows, strict=True) if then != now]
    return (new == {"deal": 1, "tricks": old.get("tricks", [None] * len(counts))}
            and len(changed) == 1 and changed[0][0][0] == number
            and changed[0][1] == (number, changed[0][0][1] + 1))


def test_every_route_with_every_link_gives_no_more_authority_and_changes_the_night_only_as_allowed(
        app: Flask, night: dict[str, Any]) -> None:  # noqa: F811 (the fixture)
    event, group = night["event"], night["group"]
    director_link, group_link = token(event["links"]["edit"]), token(group["links"]["edit"])
    current, past = night["second"][0], night["first"][0]
    tables = [t for r in ("first", "second") for t in night[r]]
    table_edits = {token(t["links"]["edit"]) for t in tables}
    # each table's join link and seats, as its own edit link's answer lists them
    table_links = {token(t["links"]["edit"]): app.test_client().get(
        f"/api/games/{token(t['links']['edit'])}").get_json()["links"] for t in tables}
    seats_of = {edit: {edit, *(token(link) for link in [*links["seats"], links["join"]])}
                for edit, links in table_links.items()}
    table_seats = {seat for seats in seats_of.values() for seat in seats} - table_edits
    current_links = table_links[token(current["links"]["edit"])]
    # a player of the finished round, and their seat in the round started after it
    player = past["players"][0]
    later = next(t for t in night["second"] if player in t["players"])
    past_seat = token(table_links[token(past["links"]["edit"])]["seats"][0])
    next_seat = token(table_links[token(later["links"]["edit"])]["seats"][
        later["players"].index(player)])
    #: The seat links each seat's link may show: its own, and its player's next one.
    follows = {past_seat: {past_seat, next_seat}}
    at_the_tricks(app.test_client(), current)
    ordinary = app.test_client().post("/api/games",
                                      json={"players": ["Ann", "Bob", "Cy"]}).get_json()
    ids = []
    with app.app_context():
        ids = [row[0] for row in db.session.execute(db.text("SELECT game_id FROM event_games"))]
    director = app.test_client()
    # the phone that opened the director's page
    assert director.get(f"/e/{director_link}").status_code == 200
    kinds: dict[str, tuple[str, FlaskClient]] = {
        "director": (director_link, director),
        "room screen": (token(event["links"]["view"]), app.test_client()),
        "current table": (token(current["links"]["edit"]), app.test_client()),
        "finished table": (token(past["links"]["edit"]), app.test_client()),
        "table read-only": (token(current["links"]["view"]), app.test_client()),
        "table seat": (token(current_links["seats"][0]), app.test_client()),
        "finished table seat": (past_seat, app.test_client()),
        "table join": (token(current_links["join"]), app.test_client()),
        "group read-only": (token(group["links"]["view"]), app.test_client()),
        "another game": (token(ordinary["links"]["edit"]), app.test_client()),
        "no such link": ("no-such-link-AAAAAAAAAAAAAAAAAAAAAAAAA", app.test_client()),
    }
    tokens = {kind: csrf_from(client.get("/new").get_data(as_text=True))
              for kind, (_link, client) in kinds.items()}
    walked, counted = 0, set()
    for rule in url_rules():
        linked = bool(LINKS & set(rule.arguments))
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            for kind, (link, client) in kinds.items():
                if not linked and kind not in ("current table", "director"):
                    continue  # a route that takes no link: what the phone holds is all it may show
                if rule.endpoint == "events.end_table" and kind == "director":
                    # the director may end a table: tested on its own, and it would close the round
                    continue
                url = fill(rule, **OTHERS, **dict.fromkeys(LINKS, link))
                before, game = the_night(app, ids), stored(app, token(current["links"]["edit"]))
                answer = request(client, method, url, tokens[kind], kind in SEATED,
                                 f"walk-{walked:05d}")
                walked += 1
                what = f"{method} {rule.rule} with the {kind}'s link"
                assert answer.status_code < 500, what
                shown = readable(answer)
                if kind != "director":
                    mine = {link} if link in table_edits else set()
                    # a table's seats and join link are below its edit link: only its own edit
                    # link, and its join link (taking a seat is what it is for), show them
                    own = next((seats for seats in seats_of.values() if link in seats), set())
                    if kind.endswith("table seat"):
                        own = follows.get(link, {link})
                    for secret in {director_link, group_link} | (table_edits - mine) | (
                            table_seats - own):
                        assert secret.encode() not in shown, (
                            f"{what} shows a link of more authority")
                    if kind == "table seat" and rule.endpoint in SEAT_TAPS \
                            and the_night(app, ids) != before:
                        assert own_count_only(app, ids, token(current["links"]["edit"]), 0,
                                              before, game), f"{what} changed more than its count"
                        counted.add(rule.endpoint)
                    elif not (kind == "current table" and rule.endpoint in PLAYS):
                        assert the_night(app, ids) == before, f"{what} changed the night"
                if rule.endpoint == "events.cards" and kind != "director":
                    assert answer.status_code in (403, 404), (
                        f"{what}: the cards hold every table's edit link")
    assert walked > 8 * 60
    assert counted == {"seat.tricks", "api.taps"}, "the current table's seat entered its count"
    # the walk went through the offer: the finished round's seat shows its player's next seat
    follower = kinds["finished table seat"][1]
    assert f"/s/{next_seat}" in follower.get(f"/s/{past_seat}").get_data(as_text=True)
