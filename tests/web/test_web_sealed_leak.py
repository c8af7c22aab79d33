"""The sealed-bid leak test (SEATS.md, "Sealed bids": no link shows a sealed bid before every bid of
its deal is in). During a sealed deal it reads every answer any link can get: every GET route of
the URL map with every kind of link (the scorer's edit link on its own phone and on another, the
read-only link, the join link, each seat's link on its own phone and on another; at a club night,
the director's link, the table's link on the director's phone, the room screen and the group's
links), the live updates (``/state``), the API, export.json, the sheets (their text and the QR
codes in them), the QR codes of the pages, and every header, the ETag included.

How it finds a sealed bid, whatever form it takes (a number, a class name, a length): the same
table is played in several games, step for step, the sealed bids only differing. Every answer a
phone gets must then be the same, after this game's links (and random tokens) are written alike,
in every game where the bids it did not enter itself differ: the bids are Ann's (from her phone's
page), Bob's (from his phone, through the API) and Cy's (entered on the scorer's phone, Cy having
none); Dee has not bid. The phone that entered a bid may show it; no other answer may depend on it.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader
from sealedhelpers import PLAYERS, SEALED, Table, token
from webhelpers import fill, scanned, svg_picture, url_rules
from werkzeug.routing import Rule
from werkzeug.test import TestResponse

import scorekeeper.web.live

pytestmark = pytest.mark.rendering  # the sheets: on SQLite only, like every sheet test

#: Deal 1 of three cards is played; deal 2, of 20 (two packs: a club night's table may be of five),
#: is being bid, sealed.
RULES = {**SEALED, "sequence": "3-20"}
#: The sealed bids of deal 2 as (Ann's, Bob's, Cy's), in the game every other is compared with, and
#: in the others: each of those keeps one bid and changes the rest.
BASE = (7, 18, 11)
VARIANTS = {"every bid": (19, 3, 4), "Ann's": (7, 3, 4), "Bob's": (19, 18, 4), "Cy's": (19, 3, 11)}
#: Which bid each phone entered itself (the one it may show): the rest of its answers must be the
#: same in the game that keeps that bid.
KNOWS = {"Ann's phone": "Ann's", "Bob's phone": "Bob's", "the scorer's phone": "Cy's"}
#: Query strings that make a GET route do its real work (the live parts: the whole answer).
QUERIES = {"play.state": {"v": "0"}, "seat.state": {"v": "0"}, "play.scorer_state": {"v": "0"},
           "events.state": {"v": "0"}, "sheets.blank": {"players": "Ann,Bob,Cy"},
           "games.example": {"players-0": "Ann", "players-1": "Bob"}}
#: What fills a route's other parts.
OTHERS = {"index": "0", "name": "Ann", "code": "en", "filename": "css/app.css"}
#: Headers that differ from any answer to the next (the time, the signed cookie), and the length,
#: compared where a QR code of another game's link doesn't make it differ (``readable``).
UNCOMPARED = {"Date", "Set-Cookie", "Content-Length"}


@dataclass
class Played:
    """One game played up to its sealed deal: who looks (``observers``: a phone and the link it
    opens) and how this game's links are written alike in every game (``names``)."""

    observers: dict[str, tuple[FlaskClient, str]]
    names: dict[str, str] = field(default_factory=dict)


def bid_sealed(table: Table, bids: tuple[int, int, int]) -> None:
    """Deal 1 played by the scorer, deal 2's bids sealed: Ann's from her page, Bob's through the
    API, Cy's on the scorer's phone."""
    assert table.scorer_bids({0: 1, 1: 0, 2: 1, 3: 0}).status_code == 302
    assert table.scorer_post("/tricks", deal=1, tap="deal-one-tricks",
                             **{f"tricks-{s}": t for s, t in enumerate([1, 1, 1, 0])}
                             ).status_code == 302
    ann, bob, cy = bids
    assert table.seat_bid(0, ann, deal=2, tap="ann-bids-sealed").status_code == 302
    assert table.api_bid(1, bob, deal=2, tap="bob-bids-sealed").status_code == 200
    assert table.scorer_bids({2: cy}, tap="scorer-bids-for-cy").status_code == 302


def observers(app: Flask, table: Table) -> Played:
    """The phones of a table and the links they open: its own phones, and fresh ones."""
    def fresh(path: str) -> FlaskClient:
        phone = app.test_client()
        phone.get(path)
        return phone

    seen = {"the scorer's phone": (table.scorer, table.token),
            "Ann's phone": (table.phones[0], table.seats[0]),
            "Bob's phone": (table.phones[1], table.seats[1]),
            "the edit link on another phone": (fresh(f"/g/{table.token}"), table.token),
            "the read-only link": (fresh(f"/v/{table.view}"), table.view),
            "the join link": (fresh(f"/j/{table.join}"), table.join)}
    for seat, link in enumerate(table.seats):
        seen[f"{PLAYERS[seat]}'s seat on another phone"] = (fresh(f"/s/{link}"), link)
    names = {table.token: "EDIT", table.view: "VIEW", table.join: "JOIN",
             **{link: f"SEAT{seat}" for seat, link in enumerate(table.seats)}}
    return Played(seen, names)


def a_game(app: Flask, bids: tuple[int, int, int]) -> Played:
    table = Table(app, rules=RULES)
    bid_sealed(table, bids)
    return observers(app, table)


def a_club_night(app: Flask, bids: tuple[int, int, int]) -> Played:
    """The table game of a club night of four, the night in its group; the director's phone
    opened the director's page."""
    director = app.test_client()
    group = director.post("/api/groups", json={"name": "Friday club"}).get_json()
    event = director.post("/api/events", json={
        "name": "Club night", "date": "2026-12-04", "players": PLAYERS, "rounds": 1,
        "rules": RULES, "seating": "manual", "seed": 7, "group": group["links"]["edit"]}).get_json()
    links = {kind: token(link) for kind, link in event["links"].items() if kind in ("edit", "view")}
    assert director.get(f"/e/{links['edit']}").status_code == 200
    started = director.post(f"/api/events/{links['edit']}/rounds",
                            json={"tables": [PLAYERS]}).get_json()
    tables = started["played"][0]["tables"]
    assert len(tables) == 1 and tables[0]["players"] == PLAYERS
    table = Table(app, edit=tables[0]["links"]["edit"])
    bid_sealed(table, bids)
    played = observers(app, table)

    def fresh(path: str) -> FlaskClient:
        phone = app.test_client()
        phone.get(path)
        return phone

    group_links = {kind: token(group["links"][kind]) for kind in ("edit", "view")}
    played.observers.update({
        "the director's phone": (director, links["edit"]),
        "the table's link on the director's phone": (director, table.token),
        "the group on the director's phone": (director, group_links["edit"]),
        "the room screen": (fresh(f"/e/{links['view']}"), links["view"]),
        "the group's read-only link": (fresh(f"/gr/{group_links['view']}"), group_links["view"]),
    })
    played.names.update({links["edit"]: "DIRECTOR", links["view"]: "ROOM",
                         group_links["edit"]: "GROUP", group_links["view"]: "GROUPVIEW"})
    return played


def readable(answer: TestResponse, names: dict[str, str]) -> str:
    """An answer as a reader sees it, written alike (``alike``): its status and headers, its body
    (a PDF's text and link targets), what a phone's camera reads in its QR codes (a page's inline
    ones, a PDF's pictures), and the length of a body that has no QR code (a QR code of another
    game's link is as long as it is)."""
    body = answer.get_data()
    length = ""
    if body.startswith(b"%PDF"):
        reader = PdfReader(io.BytesIO(body))
        parts = [page.extract_text() for page in reader.pages]
        for page in reader.pages:
            for annotation in page.get("/Annots") or []:
                parts.append(str((annotation.get_object().get("/A") or {}).get("/URI", "")))
            parts.extend(code for image in page.images for code in scanned(image.image))
        text = "\n".join(parts)
    else:
        text = body.decode("utf-8", "replace")
        if answer.is_json:  # the HTML of a live part in it, as its page shows it
            text = json.dumps(answer.get_json(), ensure_ascii=False, sort_keys=True, indent=0)
            text = text.replace('\\"', '"').replace("\\n", "\n")
        codes = re.findall(r'<svg [^>]*class="qr-code".*?</svg>', text, re.DOTALL)
        for code in codes:  # each code as a camera reads it
            text = text.replace(code, "QR:" + " ".join(scanned(svg_picture(code))))
        length = "" if codes else f"length {len(clock(body.decode('utf-8', 'replace')))}"
    headers = sorted(f"{name}: {alike(value, names)}" for name, value in answer.headers.items()
                     if name not in UNCOMPARED)
    return "\n".join([f"{answer.status_code}", length, *headers, alike(text, names)])


def alike(answer: str, names: dict[str, str]) -> str:
    """Text with this game's links written as every game's are, and what is random in any answer
    (CSRF tokens, tap ids) and the moment of a backup written alike: never a bid."""
    for secret, name in sorted(names.items(), key=lambda item: -len(item[0])):
        answer = answer.replace(secret, name)
    answer = re.sub(r"[A-Za-z0-9_\-.]{16,}", "RANDOM", answer)
    return clock(re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\+00:00)?", "TIME", answer))


def clock(text: str) -> str:
    """The times of day a list of games shows ("today 20:05–20:06") written alike: one game may be
    played over a minute's turn, the next not."""
    return re.sub(r"\b\d\d:\d\d(?:–\d\d:\d\d)?\b", "HH:MM", text)


def routes() -> Iterator[tuple[Rule, dict[str, str]]]:
    """Every GET route, with each number of deal it takes (the finished deal 1, the sealed deal
    2)."""
    for rule in url_rules("GET"):
        if rule.endpoint == "static":
            continue
        for number in (("1", "2") if "number" in rule.arguments else ("",)):
            yield rule, {"number": number} if number else {}


def answers(played: Played, observer: str,
            which: Callable[[Rule], bool] = lambda rule: True) -> dict[str, str]:
    """Every answer one observer gets, by route, written alike."""
    client, link = played.observers[observer]
    found = {}
    for rule, parts in routes():
        if not which(rule):
            continue
        url = fill(rule, **OTHERS, **parts, token=link, event=link, group=link)
        answer = client.get(url, query_string=QUERIES.get(rule.endpoint, {}))
        assert answer.status_code < 500, f"GET {url} with {observer}"
        found[f"GET {rule.rule} {parts}"] = readable(answer, played.names)
    return found


def leaks(games: dict[str, Played], which: Callable[[Rule], bool] = lambda rule: True
          ) -> list[str]:
    """Where an observer's answers differ between the base game and one whose bids it did not
    enter differ: a sealed bid it may not know shows."""
    found = []
    base = games["base"]
    for observer in base.observers:
        other = games[KNOWS.get(observer, "every bid")]
        mine, theirs = answers(base, observer, which), answers(other, observer, which)
        for route in mine:
            if mine[route] != theirs[route]:
                said = first_difference(mine[route], theirs[route])
                found.append(f"{route} with {observer}:\n{said}")
    return found


def first_difference(one: str, other: str) -> str:
    at = next((i for i, (a, b) in enumerate(zip(one, other)) if a != b), min(len(one), len(other)))
    return f"  {one[max(0, at - 80):at + 80]!r}\n  {other[max(0, at - 80):at + 80]!r}"


def played_games(app: Flask, setup: Callable[[Flask, tuple[int, int, int]], Played]
                 ) -> dict[str, Played]:
    return {"base": setup(app, BASE),
            **{name: setup(app, bids) for name, bids in VARIANTS.items()}}


@pytest.mark.parametrize("setup", [a_game, a_club_night], ids=["a game", "a club night's table"])
def test_no_answer_to_any_link_holds_a_sealed_bid_it_did_not_enter(
        app: Flask, setup: Callable[[Flask, tuple[int, int, int]], Played]) -> None:
    games = played_games(app, setup)
    found = leaks(games)
    assert not found, "a sealed bid shows:\n" + "\n".join(found[:5])


def test_the_leak_test_finds_bids_sent_in_the_live_updates(
        app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """The test above fails on a version that sends the sealed bids in the live updates."""
    state = scorekeeper.web.live.state

    def leaking(found: Any, read_again: Any, changed: Any, **how: Any) -> Any:
        def with_bids(game: Any) -> dict[str, Any]:
            return {**changed(game), "entered": game.entries}
        return state(found, read_again, with_bids, **how)

    games = played_games(app, a_game)
    assert not leaks(games, lambda rule: rule.rule.endswith("/state"))
    monkeypatch.setattr(scorekeeper.web.live, "state", leaking)
    assert leaks(games, lambda rule: rule.rule.endswith("/state"))
