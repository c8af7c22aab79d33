"""The director's changes of a club night while it is played (EVENTS.md, "Ending a table early"
and "Coming back"): a table's game ended whatever its state, a withdrawn player back from the
next round, a bye asked for by mistake taken back."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from test_web_events_api import NAMES, events_snapshot, finish, new_event, start_round, token
from test_web_events_pages import post
from webhelpers import message, text

THREE_DEALS = {"preset": "oh-hell", "deal": "fixed", "max_cards": 1, "deals": 3}


def put_deals(client: FlaskClient, table: dict[str, Any], deals: list[dict[str, Any]]) -> Any:
    """Enter ``deals`` at a table through its own edit link."""
    read = client.get(table["links"]["api"])
    game = read.get_json()
    doc = {name: game[name] for name in ("format", "title", "players", "rules", "first_dealer")}
    return client.put(f"/api/games/{token(table['links']['edit'])}", json={**doc, "deals": deals},
                      headers={"If-Match": read.headers["ETag"]})


def seat_wins(n: int, winner: int) -> dict[str, Any]:
    """A deal of one card where ``winner`` bids 1 and takes the trick, the next seat bids 1 and
    misses, and everyone else bids 0 and makes it."""
    return {"bids": [int(seat in (winner, (winner + 1) % n)) for seat in range(n)],
            "tricks": [int(seat == winner) for seat in range(n)]}


def play_out(client: FlaskClient, table: dict[str, Any]) -> None:
    """Play a table's three deals from its own link: its first seat wins each."""
    n = len(table["players"])
    assert put_deals(client, table, [seat_wins(n, 0)] * 3).get_json()["finished"]


def event_of(client: FlaskClient, edit: str) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/api/events/{edit}").get_json()
    return found


def line(event: dict[str, Any], name: str) -> dict[str, Any]:
    return next(found for found in event["standings"] if found["name"] == name)


# Ending a table early


def test_the_director_ends_a_table_with_a_deal_under_way_and_the_deal_is_dropped(
        client: FlaskClient) -> None:
    event = start_round(client, new_event(client, rules=THREE_DEALS))
    edit = token(event["links"]["edit"])
    table = event["played"][0]["tables"][1]
    n = len(table["players"])
    under_way = {"bids": [1, 1] + [0] * (n - 2)}
    assert put_deals(client, table, [seat_wins(n, 2), under_way]).status_code == 200
    ended = post(client, edit, "tables/2/end")
    assert ended.status_code == 302
    game = client.get(table["links"]["api"]).get_json()
    assert game["ended"] and game["finished"] and len(game["deals"]) == 1
    assert "Table 2's game has ended: it counts as it stands." in text(
        client.get(f"/e/{edit}").get_data(as_text=True))
    for other in (event["played"][0]["tables"][0], event["played"][0]["tables"][2]):
        play_out(client, other)
    after = event_of(client, edit)
    assert after["played"][0]["tables"][1]["finished"]
    assert line(after, table["players"][2])["per_round"] == [100.0]
    assert (line(after, table["players"][0])["per_round"] == [50.0]
            == line(after, table["players"][1])["per_round"])


def test_the_director_ends_a_table_with_no_finished_deal_and_its_players_are_tied(
        client: FlaskClient) -> None:
    event = start_round(client, new_event(client, rules=THREE_DEALS))
    edit = token(event["links"]["edit"])
    first, second, third = event["played"][0]["tables"]
    n = len(first["players"])
    assert put_deals(client, first, [{"bids": [0] * n}]).status_code == 200
    assert post(client, edit, "tables/1/end").status_code == 302
    assert post(client, edit, "tables/2/end").status_code == 302  # not started at all
    play_out(client, third)
    after = event_of(client, edit)
    assert all(table["finished"] for table in after["played"][0]["tables"])
    for name in first["players"] + second["players"]:
        assert line(after, name)["per_round"] == [50.0] and line(after, name)["tables_won"] == 0
    assert client.get(first["links"]["api"]).get_json()["deals"] == []
    page = text(client.get(f"/e/{edit}").get_data(as_text=True))
    assert "ended with no finished deal: all tied" in page
    assert start_round(client, after)["played"][1]["round"] == 2


def test_a_table_the_director_ended_takes_no_deal_and_no_resume_from_its_own_link(
        app: Flask, client: FlaskClient) -> None:
    event = start_round(client, new_event(client, rules=THREE_DEALS))
    edit = token(event["links"]["edit"])
    table = event["played"][0]["tables"][0]
    n = len(table["players"])
    assert put_deals(client, table, [seat_wins(n, 0)]).status_code == 200
    assert post(client, edit, "tables/1/end").status_code == 302
    before = events_snapshot(app), client.get(table["links"]["api"]).get_json()
    scorer = app.test_client()  # the table's phone: it never opened the director's page
    game = token(table["links"]["edit"])
    page = scorer.get(f"/g/{game}").get_data(as_text=True)
    assert f"/g/{game}/resume" not in page
    assert "The club night's organiser ended table 1 of round 1" in text(page)
    read = scorer.get(table["links"]["api"])
    doc = {name: read.get_json()[name]
           for name in ("format", "title", "players", "rules", "first_dealer", "deals")}
    for body in ({**doc, "ended": False},
                 {**doc, "deals": [*doc["deals"], seat_wins(n, 1)], "ended": False}):
        refused = scorer.put(f"/api/games/{game}", json=body,
                             headers={"If-Match": read.headers["ETag"]})
        assert (refused.status_code == 403
                and "organiser ended table 1" in refused.get_json()["error"])
    assert (events_snapshot(app), client.get(table["links"]["api"]).get_json()) == before


# Coming back


def test_a_player_withdrawn_by_mistake_comes_back_for_the_next_round(client: FlaskClient) -> None:
    event = new_event(client)
    players = f"/api/events/{token(event['links']['edit'])}/players"
    assert client.post(players, json={"withdraw": "Ann"}).status_code == 200
    again = client.post(players, json={"withdraw": "ann"})
    assert again.status_code == 422 and again.get_json()["error"] == "Ann has withdrawn already"
    back = client.post(players, json={"arrive": "ANN"})
    assert back.status_code == 200, back.get_json()
    assert back.get_json()["changes"] == []
    seated = [name for t in start_round(client, event)["played"][0]["tables"]
              for name in t["players"]]
    assert sorted(seated) == sorted(NAMES)


def test_a_withdrawn_player_comes_back_later_keeping_the_rounds_played(client: FlaskClient) -> None:
    event = start_round(client, new_event(client, rounds=3))
    edit = token(event["links"]["edit"])
    players = f"/api/events/{edit}/players"
    ann = next(t for t in event["played"][0]["tables"] if "Ann" in t["players"])
    for table in event["played"][0]["tables"]:
        finish(client, table, winner=table["players"].index("Ann") if table is ann else 0)
    assert client.post(players, json={"withdraw": "Ann"}).status_code == 200
    event = start_round(client, event_of(client, edit))
    assert "Ann" not in [name for t in event["played"][1]["tables"] for name in t["players"]]
    assert "Ann" not in event["played"][1]["byes"]
    refused = client.post(players, json={"bye": "Ann", "round": 3})
    assert (refused.status_code == 422
            and refused.get_json()["error"] == "Ann has withdrawn: bring Ann back first")
    back = client.post(players, json={"arrive": "Ann"})
    assert back.status_code == 200
    assert back.get_json()["changes"] == [{"name": "Ann", "arrives": 1, "last": None, "away": [2],
                                           "byes": []}]
    page = text(client.get(f"/e/{edit}").get_data(as_text=True))
    assert "Ann · away in round 2" in page
    for table in event["played"][1]["tables"]:
        finish(client, table)
    event = start_round(client, event_of(client, edit))
    assert "Ann" in [name for t in event["played"][2]["tables"] for name in t["players"]]
    for table in event["played"][2]["tables"]:
        finish(client, table)
    ann_line = line(event_of(client, edit), "Ann")
    assert (ann_line["rounds_played"] == 2 and ann_line["per_round"][0] == 100.0
            and ann_line["per_round"][1] == 0.0)


def test_a_bye_asked_for_by_mistake_is_taken_back_before_its_round(app: Flask,
                                                                   client: FlaskClient) -> None:
    event = new_event(client)
    edit = token(event["links"]["edit"])
    players = f"/api/events/{edit}/players"
    assert client.post(players, json={"bye": "Cy", "round": 1}).status_code == 200
    assert client.post(players, json={"bye": "Cy", "round": 2}).status_code == 200
    before = events_snapshot(app)
    for body, said in (({"play": "Cy", "round": 3}, "Cy has no bye in round 3"),
                       ({"play": "Zed", "round": 1}, "Zed is not a player of this event"),
                       ({"play": "Cy"}, "Send one change")):
        refused = client.post(players, json=body)
        assert refused.status_code == 422 and said in refused.get_json()["error"], (
            refused.get_json())
    assert events_snapshot(app) == before
    taken_back = client.post(players, json={"play": "cy", "round": 1})
    assert taken_back.status_code == 200
    assert taken_back.get_json()["changes"] == [{"name": "Cy", "arrives": 1, "last": None,
                                                 "away": [], "byes": [2]}]
    event = start_round(client, event)
    assert "Cy" in [name for t in event["played"][0]["tables"] for name in t["players"]]
    started = client.post(players, json={"play": "Cy", "round": 1})
    assert started.status_code == 422
    assert started.get_json()["error"] == (
        "Round 1 has started already: a bye can be taken back before its round")


def test_the_director_s_page_brings_a_player_back_and_takes_a_bye_back(client: FlaskClient) -> None:
    event = new_event(client)
    edit = token(event["links"]["edit"])
    assert post(client, edit, "players", action="withdraw", name="Bob").status_code == 302
    assert post(client, edit, "players", action="bye", name="Cy", round="2").status_code == 302
    page = client.get(f"/e/{edit}").get_data(as_text=True)
    assert "Someone comes back" in text(page) and "Take back a bye" in text(page)
    came = post(client, edit, "players", action="arrive", name="Bob")
    assert came.status_code == 302
    assert "Bob plays again from the next round." in text(
        client.get(f"/e/{edit}").get_data(as_text=True))
    taken = post(client, edit, "players", action="play", name="Cy", round="2")
    assert taken.status_code == 302
    assert "Cy plays round 2 after all." in text(client.get(f"/e/{edit}").get_data(as_text=True))
    assert event_of(client, edit)["changes"] == []
    refused = post(client, edit, "players", action="play", name="Cy", round="2")
    assert refused.status_code == 422 and message(refused) == "Cy has no bye in round 2"


# Provisional standings


def test_while_a_round_is_played_the_standings_count_it_as_it_stands(client: FlaskClient) -> None:
    """Issue 30, item 6: the standings stayed at zero until every table finished."""
    event = start_round(client, new_event(client, rules=THREE_DEALS))
    edit, view = token(event["links"]["edit"]), token(event["links"]["view"])
    first = event["played"][0]["tables"][0]
    assert put_deals(client, first, [seat_wins(len(first["players"]), 0)]).status_code == 200
    for link in (edit, view):
        page = text(client.get(f"/e/{link}").get_data(as_text=True))
        assert "Provisional standings: round 1 as it stands" in page and "R1 so far" in page
        standings = page.split("Provisional standings: round 1 as it stands")[1]
        assert standings.split()[:9] == ["#", "Player", "Score", "R1", "so", "far", "Tables", "won",
                                         "Bids"]
        # the only one ahead
        assert standings.split()[10:14] == ["1", first["players"][0], "100", "100"]
    # the final ones wait
    assert client.get(f"/api/events/{view}").get_json()["standings"][0]["score"] == 0.0
    assert put_deals(client, first,
                     [seat_wins(len(first["players"]), 0)] * 3).get_json()["finished"]
    for table in event["played"][0]["tables"][1:]:
        play_out(client, table)
    page = text(client.get(f"/e/{view}").get_data(as_text=True))
    assert "Provisional" not in page and "Standings after 1 round" in page


# Words


def test_the_tables_still_playing_are_listed_as_the_language_lists_them(
        client: FlaskClient) -> None:
    """Issue 30, item 7: "table 1, 2 is still playing"; and "Every planned round has been played"
    while the last round was still being played."""
    event = start_round(client, new_event(client, rounds=1))
    rounds = f"/api/events/{token(event['links']['edit'])}/rounds"
    said = client.post(rounds, json={}).get_json()["error"]
    assert said == ("Round 1 is the last planned round, and it is being played: plan more rounds "
                    "under \u201cRounds to come\u201d to play another")
    event = start_round(client, new_event(client, rounds=2))
    rounds = f"/api/events/{token(event['links']['edit'])}/rounds"
    assert client.post(rounds, json={}).get_json()["error"] == \
        "Round 1 is not finished: tables 1, 2, and 3 are still playing"
    for table in event["played"][0]["tables"][:2]:
        finish(client, table)
    assert client.post(rounds, json={}).get_json()["error"] == (
        "Round 1 is not finished: table 3 is still playing")
    event = start_round(client, new_event(client, rounds=3))
    finish(client, event["played"][0]["tables"][0])
    dutch = client.post(f"/api/events/{token(event['links']['edit'])}/rounds?lang=nl",
                        json={}).get_json()["error"]
    assert dutch == "Spelronde 1 is niet klaar: tafels 2 en 3 spelen nog"
