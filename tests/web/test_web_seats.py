"""Forms with a field per seat (bids, tricks, a correction, the new game's names): whatever seats a
post leaves out, repeats, adds or writes oddly, exactly the posted seats are stored, each for its
own player, or the post is refused and nothing is stored."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webhelpers import FOUR, Scorer, csrf_from, snapshot
from werkzeug.datastructures import MultiDict

Start = Callable[..., Scorer]
SEATS = settings(max_examples=80, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
#: Seat indexes no form of four players posts: out of range, or not written as a seat.
ODD = ["4", "9", "10", "01", "00", "²", "١", "-1", "1 ", " 1", "1e0", "", "x"]


@st.composite
def posts(draw: st.DrawFn, prefix: str, values: st.SearchStrategy[str]) -> list[tuple[str, str]]:
    """A post of one field per seat, as a form would send it or not: seats left out, sent twice,
    extra seats, odd indexes; in any order."""
    fields: list[tuple[str, str]] = []
    for seat in range(4):
        for _ in range(draw(st.sampled_from([1, 1, 1, 1, 0, 2]))):
            fields.append((f"{prefix}-{seat}", draw(values)))
    for index in draw(st.lists(st.sampled_from(ODD), max_size=2)):
        fields.append((f"{prefix}-{index}", draw(values)))
    return draw(st.permutations(fields))


def _exactly(fields: list[tuple[str, str]], prefix: str) -> list[str] | None:
    """The value posted for each of the four seats, when each was posted exactly once and nothing
    else."""
    posted = [name for name, _ in fields]
    wanted = [f"{prefix}-{seat}" for seat in range(4)]
    if sorted(posted) != sorted(wanted):
        return None
    return [dict(fields)[name] for name in wanted]


def _send(game: Scorer, path: str, fields: list[tuple[str, str]]) -> Any:
    form = MultiDict([("csrf_token", csrf_from(game.page())),
                      ("version", str(game.version())), *fields])
    return game.client.post(game.url + path, data=form)


@SEATS
@given(fields=posts("bids", st.sampled_from(["0", "1", "2", "3"])))
def test_simultaneous_bids_are_stored_seat_by_seat_or_not_at_all(
        app: Flask, start: Start, fields: list[tuple[str, str]]) -> None:
    game = start(rules={"preset": "british-oh-hell", "deal": "down", "max_cards": 3})
    before = snapshot(app)
    response = _send(game, "/bids", fields)
    posted = _exactly(fields, "bids")
    if response.status_code == 302:
        assert posted is not None
        assert game.export()["deals"][0]["bids"] == [int(value) for value in posted]
    else:
        assert response.status_code == 422 and snapshot(app) == before


@SEATS
@given(fields=posts("tricks", st.sampled_from(["0", "1", "1", "2", "3"])))
def test_tricks_are_stored_seat_by_seat_or_not_at_all(app: Flask, start: Start,
                                                       fields: list[tuple[str, str]]) -> None:
    game = start(rules={"max_cards": 3, "bidding": "free"}, deals=[{"bids": [1, 1, 1, 0]}])
    before = snapshot(app)
    response = _send(game, "/tricks", fields)
    posted = _exactly(fields, "tricks")
    if response.status_code == 302:
        assert posted is not None
        assert game.export()["deals"][0]["tricks"] == [int(value) for value in posted]
    else:
        assert response.status_code == 422 and snapshot(app) == before


@SEATS
@given(bids=posts("bids", st.sampled_from(["0", "1", "2"])),
       tricks=posts("tricks", st.sampled_from(["0", "1"])))
def test_a_correction_is_stored_seat_by_seat_or_not_at_all(app: Flask, start: Start,
                                                           bids: list[tuple[str, str]],
                                                           tricks: list[tuple[str, str]]) -> None:
    game = start(rules={"max_cards": 2, "bidding": "free"},
                 deals=[{"bids": [1, 0, 0, 0], "tricks": [1, 1, 0, 0]}])
    before = snapshot(app)
    response = _send(game, "/deal/1", [*bids, *tricks])
    posted_bids, posted_tricks = _exactly(bids, "bids"), _exactly(tricks, "tricks")
    if response.status_code == 302:
        assert posted_bids is not None and posted_tricks is not None
        deal = game.export()["deals"][0]
        assert (deal["bids"] == [int(v) for v in posted_bids]
                and deal["tricks"] == [int(v) for v in posted_tricks])
    else:
        assert response.status_code == 422 and snapshot(app) == before


@SEATS
@given(rows=st.lists(st.tuples(st.sampled_from([*map(str, range(12)), *ODD]),
                               st.sampled_from([*FOUR, "", "Eve", "Fay"])), max_size=12))
def test_a_new_game_has_exactly_the_names_in_their_rows_or_is_refused(
        app: Flask, rows: list[tuple[str, str]]) -> None:
    client = app.test_client()
    form = MultiDict([("csrf_token", csrf_from(client.get("/new").get_data(as_text=True))),
                      ("action", "start"), *((f"players-{row}", name) for row, name in rows)])
    response = client.post("/new", data=form)
    stored = snapshot(app)
    if response.status_code == 302:
        indexes = [row for row, _ in rows]
        assert len(set(indexes)) == len(indexes)  # no row posted twice
        # every row one of the ten, written as such
        assert set(indexes) <= {str(row) for row in range(10)}
        by_row = {int(row): name for row, name in rows}
        names = [by_row.get(row, "") for row in range(max(by_row) + 1)]
        while not names[-1]:
            names.pop()
        assert json.loads(stored[-1][1])["players"] == names
    else:
        assert response.status_code == 422 and stored == []
