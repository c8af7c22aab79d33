"""The club nights' JSON API (EVENTS.md, "API"): a night of 13 players at three tables for three
rounds, played through the table games' own API; every refusal names what is wrong and stores
nothing; a read-only link sees no edit link and changes nothing."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webhelpers import fill, json_values, url_rules, within_cpu

from scorekeeper.rules.event import Entrant, table_sizes
from scorekeeper.rules.event import Event as CoreEvent
from scorekeeper.rules.seating import plan
from scorekeeper.store.db import db
from scorekeeper.store.events import Event

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou", "Max"]
#: One deal of one card: a table game is played in one request.
QUICK_RULES = {"preset": "oh-hell", "deal": "fixed", "max_cards": 1, "deals": 1}


def new_event(client: FlaskClient, **fields: Any) -> dict[str, Any]:
    body = {"name": "Club night", "date": "2026-12-04", "players": NAMES, "rounds": 3,
            "rules": QUICK_RULES, "seed": 7, **fields}
    response = client.post("/api/events", json=body)
    assert response.status_code == 201, response.get_json()
    found: dict[str, Any] = response.get_json()
    return found


def token(link: str) -> str:
    return link.rstrip("/").rsplit("/", 1)[1]


def finish(client: FlaskClient, table: dict[str, Any], winner: int = 0, missing: int = 1) -> None:
    """Play a table's one deal through PUT /api/games/<edit>: seat ``winner`` bids 1 and takes the
    trick, the ``missing`` next seats bid 1 and miss, the others bid 0 and make it."""
    read = client.get(table["links"]["api"])
    game = read.get_json()
    players = len(game["players"])
    doc = {name: game[name] for name in ("format", "title", "players", "rules", "first_dealer")}
    bids = [int((seat - winner) % players <= missing) for seat in range(players)]
    doc["deals"] = [{"bids": bids, "tricks": [int(seat == winner) for seat in range(players)]}]
    put = client.put(f"/api/games/{token(table['links']['edit'])}", json=doc,
                     headers={"If-Match": read.headers["ETag"]})
    assert put.status_code == 200, put.get_json()
    assert put.get_json()["finished"]


def start_round(client: FlaskClient, event: dict[str, Any], **body: Any) -> dict[str, Any]:
    response = client.post(f"/api/events/{token(event['links']['api'])}/rounds", json=body)
    assert response.status_code == 201, response.get_json()
    found: dict[str, Any] = response.get_json()
    return found


def events_snapshot(app: Flask) -> list[tuple[str, int]]:
    with app.app_context():
        return [tuple(row) for row in db.session.execute(
            db.select(Event.data, Event.version).order_by(Event.id))]


def test_a_night_of_13_at_three_tables_for_three_rounds(client: FlaskClient) -> None:
    event = new_event(client)
    assert event["played"] == [] and event["standings"][0]["score"] == 0
    for number in (1, 2, 3):
        event = start_round(client, event)
        started = event["played"][-1]
        assert started["round"] == number and not started["finished"]
        assert [len(t["players"]) for t in started["tables"]] == [5, 4, 4]
        assert sorted(name for t in started["tables"] for name in t["players"]) == sorted(NAMES)
        for table in started["tables"]:
            game = client.get(table["links"]["api"]).get_json()
            assert game["title"] == f"Club night · round {number} · table {table['table']}"
            assert game["players"] == table["players"] and game["first_dealer"] == 0
            assert game["rules"]["deals"] == 1
        for table in started["tables"]:
            finish(client, table)
        event = client.get(event["links"]["api"]).get_json()
        assert event["played"][-1]["finished"]
        assert all(t["winners"] == [t["players"][0]] for t in event["played"][-1]["tables"])
    # Nobody arrived or left: the rounds are the rules core's plan of the night, seat by seat
    planned = plan(CoreEvent(tuple(Entrant(name) for name in NAMES), 3, table_sizes(4), 7))
    assert [[t["players"] for t in r["tables"]] for r in event["played"]] == [
        [list(t) for t in r.tables] for r in planned]
    lines = event["standings"]
    assert len(lines) == 13 and all(line["rounds_played"] == 3 for line in lines)
    # At a table of n: the first seat wins (100), the second misses (0), the others share a place
    # above one player and level with n - 4 others: 100 × (1 + (n - 3) / 2) / (n - 1).
    expected = {name: [0.0, 0.0, 0.0] for name in NAMES}
    for played in event["played"]:
        for table in played["tables"]:
            n = len(table["players"])
            for seat, name in enumerate(table["players"]):
                share = (100.0 if seat == 0 else 0.0 if seat == 1
                         else 100 * (1 + (n - 3) / 2) / (n - 1))
                expected[name][played["round"] - 1] = round(share, 2)
    by_name = {line["name"]: line for line in lines}
    for name in NAMES:
        assert by_name[name]["per_round"] == expected[name]
        assert by_name[name]["score"] == pytest.approx(sum(expected[name]), abs=0.01)
        assert by_name[name]["tables_won"] == sum(t["players"][0] == name
                                                  for r in event["played"] for t in r["tables"])
    scores = [line["score"] for line in lines]
    assert scores == sorted(scores, reverse=True) and lines[0]["rank"] == 1
    refused = client.post(f"/api/events/{token(event['links']['api'])}/rounds", json={})
    assert (refused.status_code == 409
            and "Every planned round has been played" in refused.get_json()["error"])


BASE: dict[str, Any] = {"name": "Club night", "players": NAMES[:8], "rounds": 2,
                        "rules": QUICK_RULES}


@pytest.mark.parametrize(("change", "said"), [
    ({"name": " "}, "The event's name is missing: give the event a name"),
    ({"name": "x" * 61}, "The event's name is longer than 60 characters"),
    ({"name": "Night\u202e"}, "The event's name contains an invisible character"),
    ({"date": "2026-02-30"},
     "The event's date must be a date such as 2026-12-04, not '2026-02-30'"),
    ({"players": ["Ann", "Bob", "ann ", "Cy"]},
     "Ann and ann are the same name: give every player a different one"),
    ({"players": ["Ann", "Bob", "Cy"]}, "The players must be a list of 4 to 400 names"),
    ({"players": ["Ann", "Bob", "", "Cy"]}, "A player's name is missing"),
    ({"rounds": 0}, "The number of rounds must be a whole number from 1 to 20, not 0"),
    ({"rounds": 3.0}, "The number of rounds must be a whole number from 1 to 20, not 3.0"),
    ({"rounds": 21}, "The number of rounds must be a whole number from 1 to 20"),
    ({"tables": {"size": 9}}, "The preferred table size must be a whole number from 3 to 8"),
    ({"tables": {"size": 4, "sizes": [5, 6]}},
     "The allowed table sizes must include the preferred size, 4"),
    ({"tables": {"size": 4, "seats": 4}}, "The tables: unknown field 'seats'"),
    ({"tables": [4]}, "The tables must be an object such as"),
    ({"seating": "random"}, "The seating must be one of mixed, ranked, manual, not 'random'"),
    ({"ranking": "elo"}, "The ranking must be one of percent, totals, not 'elo'"),
    ({"seed": -1}, "The seed must be a whole number from 0 to"),
    ({"seed": 2**32}, "The seed must be a whole number from 0 to"),
    ({"group": "no-such-group"}, "No group has this link: give the group's edit link"),
    ({"colour": "red"}, "The event: unknown field 'colour'"),
    ({"rules": "oh-hell"}, "The rules must be an object such as"),
    ({"rules": {"preset": "no-such-game"}},
     "These rules can't be played: Unknown preset 'no-such-game'"),
    ({"rules": {"preset": "nomination-whist"}, "tables": {"size": 4, "sizes": [4, 8]}},
     "A table of 8 can't play these rules"),
    ({"players": [f"P{i}" for i in range(400)], "tables": {"size": 3}},
     "400 players would sit at more than 100 tables: allow larger tables"),
    # 133 tables and a bye
    ({"players": [f"P{i}" for i in range(400)], "tables": {"size": 3, "sizes": [3]}},
     "400 players would sit at more than 100 tables: allow larger tables"),
    ({"players": ["Ann", "Bob", 5, "Cy"]},
     "A player's name must be a text of at most 40 characters, not 5"),
    ({"name": "Club\nnight"},
     "The event's name runs over more than one line (or holds a tab): write it on one line"),
    ({"players": [f"P{i}" for i in range(401)]}, "The players must be a list of 4 to 400 names"),
])
def test_a_new_event_is_refused_naming_what_is_wrong(app: Flask, client: FlaskClient,
                                                     change: dict[str, Any], said: str) -> None:
    response = client.post("/api/events", json={**BASE, **change})
    assert response.status_code == 422
    assert said in response.get_json()["error"]
    assert events_snapshot(app) == []


def test_a_read_only_group_link_is_refused_and_a_group_gets_every_table_game(
        app: Flask, client: FlaskClient) -> None:
    group = client.post("/api/groups", json={"name": "Friday club"}).get_json()
    refused = client.post("/api/events", json={**BASE, "group": group["links"]["view"]})
    assert refused.status_code == 422 and "read-only link" in refused.get_json()["error"]
    event = new_event(client, players=NAMES[:8], group=group["links"]["edit"])
    event = start_round(client, event)
    games = client.get(group["links"]["api"]).get_json()["games"]
    assert sorted(g["title"] for g in games) == ["Club night · round 1 · table 1",
                                                  "Club night · round 1 · table 2"]


def test_the_next_round_waits_for_every_table_and_names_the_tables_still_playing(
        app: Flask, client: FlaskClient) -> None:
    event = start_round(client, new_event(client))
    finish(client, event["played"][0]["tables"][0])
    before = events_snapshot(app)
    response = client.post(f"/api/events/{token(event['links']['api'])}/rounds", json={})
    assert response.status_code == 409
    assert response.get_json()["error"] == (
        "Round 1 is not finished: tables 2 and 3 are still playing")
    assert events_snapshot(app) == before


def test_a_table_ended_early_counts_as_finished(client: FlaskClient) -> None:
    event = start_round(client, new_event(client, rules={"preset": "oh-hell", "deal": "fixed",
                                                          "max_cards": 1, "deals": 3}))
    for table in event["played"][0]["tables"]:
        read = client.get(table["links"]["api"])
        game = read.get_json()
        n = len(game["players"])
        doc = {name: game[name] for name in ("format", "title", "players", "rules", "first_dealer")}
        doc["deals"] = [{"bids": [0] * n, "tricks": [1] + [0] * (n - 1)}]
        doc["ended"] = True
        put = client.put(table["links"]["api"].replace(token(table["links"]["api"]),
                                                       token(table["links"]["edit"])),
                         json=doc, headers={"If-Match": read.headers["ETag"]})
        assert put.status_code == 200, put.get_json()
    assert start_round(client, event)["played"][1]["round"] == 2


@pytest.mark.parametrize(("tables", "said"), [
    ([NAMES[:5], NAMES[5:9], NAMES[9:12] + ["Zed"]], "Zed is not a player of this event"),
    ([NAMES[:5], NAMES[5:9], NAMES[9:12] + ["ann"]],
     "Ann is at table 1 and at table 3: seat each player once"),
    ([NAMES[:5], NAMES[5:9], NAMES[9:12]],
     "Max is not at any table: seat every player of this round"),
    ([NAMES[:7], NAMES[7:13]], "Table 1 has 7 players: the tables may have 3, 4, 5 players"),
    ("Ann, Bob", "The tables must be a list of tables"),
])
def test_a_manual_seating_is_refused_naming_what_is_wrong(app: Flask, client: FlaskClient,
                                                          tables: Any, said: str) -> None:
    event = new_event(client, seating="manual")
    before = events_snapshot(app)
    response = client.post(f"/api/events/{token(event['links']['api'])}/rounds",
                           json={"tables": tables})
    assert response.status_code == 422 and said in response.get_json()["error"]
    assert events_snapshot(app) == before
    with app.app_context():
        assert db.session.execute(db.text("SELECT count(*) FROM games")).scalar() == 0


def test_a_manual_seating_is_played_as_entered(client: FlaskClient) -> None:
    tables = [NAMES[8:13], NAMES[4:8], NAMES[:4]]
    event = start_round(client, new_event(client, seating="manual"), tables=tables)
    assert [t["players"] for t in event["played"][0]["tables"]] == tables


def test_arrivals_withdrawals_and_byes_change_the_rounds_to_come(app: Flask,
                                                                 client: FlaskClient) -> None:
    event = new_event(client)
    players = f"/api/events/{token(event['links']['api'])}/players"
    assert client.post(players, json={"arrive": "Eve "}).get_json()["error"] == \
        "Eve is a player of this event already"
    assert client.post(players, json={"withdraw": "Zed"}).get_json()["error"] == \
        "Zed is not a player of this event"
    assert "Send one change" in client.post(players, json={"bye": "Cy"}).get_json()["error"]
    assert "Send one change" in client.post(
        players, json={"arrive": "Ned", "withdraw": "Cy"}).get_json()["error"]
    assert "The round must be a whole number from 1 to 3" in client.post(
        players, json={"bye": "Cy", "round": 4}).get_json()["error"]
    event = start_round(client, event)
    assert "Round 1 has started already" in client.post(
        players, json={"bye": "Cy", "round": 1}).get_json()["error"]
    assert client.post(players, json={"arrive": "Ned"}).status_code == 200
    assert client.post(players, json={"withdraw": "bob"}).status_code == 200
    assert client.post(players, json={"bye": "Cy", "round": 2}).status_code == 200
    assert "has a bye in round 2 already" in client.post(
        players, json={"bye": "Cy", "round": 2}).get_json()["error"]
    assert "Bob has withdrawn" in client.post(players, json={"withdraw": "Bob"}).get_json()["error"]
    for table in event["played"][0]["tables"]:
        finish(client, table)
    event = start_round(client, event)
    second = event["played"][1]
    seated = [name for t in second["tables"] for name in t["players"]]
    assert ("Ned" in seated and "Bob" not in seated and "Cy" not in seated
            and second["byes"] == ["Cy"])
    assert sorted(seated) == sorted(set(NAMES + ["Ned"]) - {"Bob", "Cy"})
    bob = next(line for line in event["standings"] if line["name"] == "Bob")
    assert bob["rounds_played"] == 1


def test_a_read_only_link_never_shows_an_edit_link_and_changes_nothing(app: Flask,
                                                                       client: FlaskClient) -> None:
    event = start_round(client, new_event(client))
    edit_tokens = [token(t["links"]["edit"]) for t in event["played"][0]["tables"]] + [
        token(event["links"]["api"])]
    assert client.get("/api/events/no-such-event").status_code == 404
    before = events_snapshot(app)
    with app.app_context():
        view_event = db.session.execute(db.select(Event.view_token)).scalar_one()
    seen = client.get(f"/api/events/{view_event}")
    assert seen.status_code == 200
    assert not any(t in seen.get_data(as_text=True) for t in edit_tokens)
    assert all("edit" not in t["links"] for r in seen.get_json()["played"] for t in r["tables"])
    for path, body in (("rounds", {}), ("players", {"arrive": "Ned"})):
        response = client.post(f"/api/events/{view_event}/{path}", json=body)
        assert (response.status_code == 403
                and "read-only link of an event" in response.get_json()["error"])
    assert events_snapshot(app) == before


def test_put_replaces_a_game_only_over_the_version_its_if_match_names(app: Flask,
                                                                      client: FlaskClient) -> None:
    made = client.post("/api/games", json={"players": ["Ann", "Bob", "Cy"],
                                           "rules": {"max_cards": 3}}).get_json()
    api, edit = made["links"]["api"], token(made["links"]["edit"])
    read = client.get(api)
    assert read.headers["ETag"] == '"1"'
    doc = {"players": ["Ann", "Bob", "Cy"], "rules": {"max_cards": 3},
           "deals": [{"bids": [1, 1, 0], "tricks": [1, 2, 0]}]}
    missing = client.put(f"/api/games/{edit}", json=doc)
    assert missing.status_code == 428 and "If-Match" in missing.get_json()["error"]
    stale = client.put(f"/api/games/{edit}", json=doc, headers={"If-Match": '"7"'})
    assert stale.status_code == 412 and "has changed since you read it" in stale.get_json()["error"]
    bad = client.put(f"/api/games/{edit}", json={**doc, "deals": [{"bids": [0, 1, 2]}]},
                     headers={"If-Match": '"1"'})
    assert bad.status_code == 422 and "can't bid" in bad.get_json()["error"]
    view = client.put(f"/api/games/{token(made['links']['view'])}", json=doc,
                      headers={"If-Match": '"1"'})
    assert view.status_code == 403
    assert client.get(api).get_json()["deals"] == []
    done = client.put(f"/api/games/{edit}", json=doc, headers={"If-Match": '"1"'})
    assert done.status_code == 200 and done.headers["ETag"] == '"2"'
    assert [s["total"] for s in client.get(api).get_json()["standings"]] == [11, 10, 2]
    again = client.put(f"/api/games/{edit}", json=doc, headers={"If-Match": '"1"'})
    assert again.status_code == 412


EVENT_ROUTES = [r for r in url_rules() if "event" in r.arguments]


def test_the_event_routes_are_walked() -> None:
    assert {r.endpoint for r in EVENT_ROUTES} >= {"events_api.get_event", "events_api.start_round",
                                                  "events_api.change_players"}


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_no_event_route_writes_with_a_read_only_link(app: Flask, client: FlaskClient,
                                                     method: str) -> None:
    event = start_round(client, new_event(client))
    with app.app_context():
        view = db.session.execute(db.select(Event.view_token)).scalar_one()
    before = events_snapshot(app)
    for rule in EVENT_ROUTES:
        response = getattr(client, method)(fill(rule, event=view, number=1), json={"arrive": "Ned"},
                                           headers={"Accept": "application/json"})
        # a page's form without its form token is refused before the link is looked at (400)
        refusals = (403, 405) if rule.rule.startswith("/api/") else (400, 403, 405)
        assert response.status_code in refusals, (rule, response.status_code)
    assert events_snapshot(app) == before
    assert event["played"]


def test_no_event_route_shows_an_edit_link_to_a_read_only_link(app: Flask,
                                                               client: FlaskClient) -> None:
    event = start_round(client, new_event(client))
    edits = [token(t["links"]["edit"]) for t in event["played"][0]["tables"]] + [
        token(event["links"]["api"])]
    with app.app_context():
        view = db.session.execute(db.select(Event.view_token)).scalar_one()
    for rule in (r for r in EVENT_ROUTES if "GET" in (r.methods or ())):
        page = client.get(fill(rule, event=view, number=1))
        # the table cards carry the tables' edit links in their QR codes: the edit link only
        assert page.status_code == (403 if rule.endpoint == "events.cards" else 200)
        assert not any(edit.encode() in page.data for edit in edits)


#: Every field of a new event, with a valid value; Hypothesis replaces one by anything.
VALID_EVENT: dict[str, Any] = {"format": "oh-hell-scorekeeper/event-1", "name": "Club night",
                               "date": "2026-12-04", "players": NAMES[:9], "rules": QUICK_RULES,
                               "rounds": 2, "tables": {"size": 4, "sizes": [3, 4, 5]},
                               "seating": "mixed", "ranking": "totals", "seed": 3, "group": None}
EVENT_PATHS = [(name,) for name in VALID_EVENT] + [("tables", "size"), ("tables", "sizes"),
                                                    ("players", 0), ("rules", "preset"),
                                                    ("tables", "sizes", 1)]


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(EVENT_PATHS), value=json_values)
def test_any_field_of_a_new_event_replaced_by_any_value_gets_a_message_not_a_500(
        app: Flask, path: tuple[Any, ...], value: Any) -> None:
    doc = copy.deepcopy(VALID_EVENT)
    target: Any = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    before = len(events_snapshot(app))
    with within_cpu():
        response = app.test_client().post("/api/events", json=doc)
    assert response.status_code in (201, 422), response.data
    if response.status_code == 201:
        assert len(events_snapshot(app)) == before + 1
    else:
        assert response.get_json()["error"]
        assert len(events_snapshot(app)) == before


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.dictionaries(st.sampled_from(["arrive", "withdraw", "bye", "round", "tables"])
                            | st.text(max_size=6), json_values, max_size=3),
       path=st.sampled_from(["players", "rounds"]))
def test_any_change_or_round_of_any_values_gets_a_message_not_a_500(
        app: Flask, body: dict[str, Any], path: str) -> None:
    client = app.test_client()
    with app.app_context():
        edit = db.session.execute(db.select(Event.token)).scalars().first()
    if edit is None:
        edit = token(new_event(client, players=NAMES[:9], rounds=2)["links"]["api"])
    before = events_snapshot(app)
    with within_cpu():
        response = client.post(f"/api/events/{edit}/{path}", json=body)
    assert response.status_code in (200, 201, 409, 422), response.data
    if response.status_code >= 400:
        assert response.get_json()["error"]
        assert events_snapshot(app) == before


def _renamed(players: list[str]) -> dict[str, Any]:
    return {"players": ["Zed", *players[1:]]}


def _reordered(players: list[str]) -> dict[str, Any]:
    return {"players": [players[1], players[0], *players[2:]]}


def _joined(players: list[str]) -> dict[str, Any]:
    return {"players": [*players, "Zed"]}


def _dropped(players: list[str]) -> dict[str, Any]:
    return {"players": players[:-1]}


STAYS = (" was seated at this table by the club night and stays among its players (someone who"
         " leaves is marked absent from then on)")


@pytest.mark.parametrize(("change", "why"), [
    (_renamed, "{0}" + STAYS),
    (_dropped, "{last}" + STAYS),
    (_reordered, "the players seated at this table by the club night keep their seat order: {all}"),
    (_joined, ("Zed was not seated at this table by the club night: someone who joins the table "
               "arrives late (absent from deal 1)")),
])
def test_put_of_a_table_game_keeps_the_players_its_round_seated(client: FlaskClient, change: Any,
                                                                why: str) -> None:
    edit = token(new_event(client)["links"]["edit"])
    table = client.post(f"/api/events/{edit}/rounds", json={}).get_json()["played"][0]["tables"][0]
    read = client.get(table["links"]["api"])
    game, seated = read.get_json(), table["players"]
    doc = {name: game[name] for name in ("format", "title", "players", "rules", "first_dealer")}
    refused = client.put(f"/api/games/{token(table['links']['edit'])}",
                         json={**doc, **change(seated)},
                         headers={"If-Match": read.headers["ETag"]})
    assert refused.status_code == 422
    assert refused.get_json()["error"] == why.format(seated[0], last=seated[-1],
                                                     all=", ".join(seated))
    after = client.get(table["links"]["api"])
    assert after.headers["ETag"] == read.headers["ETag"] and after.get_json()["players"] == seated


def test_put_of_a_table_game_lets_a_late_arrival_join_as_rules_7_allows(
        client: FlaskClient) -> None:
    edit = token(new_event(client)["links"]["edit"])
    table = client.post(f"/api/events/{edit}/rounds", json={}).get_json()["played"][0]["tables"][1]
    read = client.get(table["links"]["api"])
    game, seated = read.get_json(), table["players"]
    doc = {name: game[name] for name in ("format", "title", "rules", "first_dealer")}
    late = {**doc, "players": [*seated, "Zed"],
            "absent": [{"player": len(seated), "from": 1, "to": 1}]}
    done = client.put(f"/api/games/{token(table['links']['edit'])}", json=late,
                      headers={"If-Match": read.headers["ETag"]})
    assert done.status_code == 200, done.get_json()
    assert client.get(table["links"]["api"]).get_json()["players"] == [*seated, "Zed"]


@pytest.mark.parametrize(("body", "why"), [
    ({}, 'Send what changes: {"rounds": 5}, {"seating": "ranked"}'),
    ({"rounds": 21}, "The number of rounds must be a whole number from 1 to 20, not 21"),
    ({"rounds": "4"}, "The number of rounds must be a whole number from 1 to 20, not '4'"),
    ({"rounds": 1}, "2 rounds have started already: plan at least 2"),
    ({"seating": "random"}, "The seating must be"),
    ({"rounds": 3, "tables": 4}, "tables"),
])
def test_a_change_of_plan_is_refused_naming_what_is_wrong(client: FlaskClient, body: dict[str, Any],
                                                          why: str) -> None:
    event = start_round(client, new_event(client))
    for table in event["played"][0]["tables"]:
        finish(client, table)
    event = start_round(client, event)
    plan = f"/api/events/{token(event['links']['api'])}/plan"
    refused = client.post(plan, json=body)
    assert refused.status_code == 422 and why in refused.get_json()["error"]
    after = client.get(event["links"]["api"]).get_json()
    assert (after["rounds"], after["seating"]) == (3, "mixed")


def test_rounds_to_come_can_be_added_dropped_and_seated_another_way(client: FlaskClient) -> None:
    event = new_event(client)
    plan, players = (f"/api/events/{token(event['links']['api'])}/{path}"
                     for path in ("plan", "players"))
    assert client.post(players, json={"bye": "Cy", "round": 3}).status_code == 200
    event = start_round(client, event)
    changed = client.post(plan, json={"rounds": 2})
    assert changed.status_code == 200 and changed.get_json()["rounds"] == 2
    assert changed.get_json()["changes"] == []  # the bye of a dropped round goes with it
    changed = client.post(plan, json={"rounds": 6, "seating": "ranked"})
    assert (changed.get_json()["rounds"], changed.get_json()["seating"]) == (6, "ranked")
    for number, table in enumerate(event["played"][0]["tables"]):
        finish(client, table, winner=number % 2)
    event = start_round(client, event)
    best = [line["name"] for line in event["standings"]][
        :len(event["played"][1]["tables"][0]["players"])]
    assert event["played"][1]["tables"][0]["players"] == best
    for table in event["played"][1]["tables"]:
        finish(client, table)
    assert client.post(plan, json={"rounds": 2}).status_code == 200
    done = client.post(f"/api/events/{token(event['links']['api'])}/rounds", json={})
    assert (done.status_code == 409
            and done.get_json()["error"] == "Every planned round has been played")
    assert client.post(plan, json={"seating": "mixed"}).get_json()["error"] == \
        "Every planned round has been played"
