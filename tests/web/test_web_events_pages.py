"""A club night's pages: the director's page (the edit link) seats, swaps, starts rounds, takes
arrivals, withdrawals and byes and ends a table's game early; the room screen (the read-only link)
shows the tables and standings, follows them, and tells a player where to sit."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_web_events_api import (
    NAMES,
    QUICK_RULES,
    events_snapshot,
    finish,
    new_event,
    start_round,
    token,
)
from webhelpers import csrf_from, hostile_text, message, text, within_cpu


@pytest.fixture
def night(client: FlaskClient) -> dict[str, Any]:
    """A night of 13 at three tables, nothing started yet, with its two links."""
    event = new_event(client)
    return {"edit": token(event["links"]["edit"]), "view": token(event["links"]["view"]),
            "event": event}


def post(client: FlaskClient, edit: str, path: str, **form: str) -> Any:
    page = client.get(f"/e/{edit}").get_data(as_text=True)
    return client.post(f"/e/{edit}/{path}", data={**form, "csrf_token": csrf_from(page)})


def test_the_director_starts_a_round_as_proposed_and_follows_its_tables(
        client: FlaskClient, night: dict[str, Any]) -> None:
    page = text(client.get(f"/e/{night['edit']}").get_data(as_text=True))
    assert "Round 1: proposed seating" in page and "Start round 1" in page
    assert "Bids made" not in page  # no standings before the first round: nobody has a score yet
    response = post(client, night["edit"], "start")
    assert response.status_code == 302
    page = client.get(f"/e/{night['edit']}")
    shown = text(page.get_data(as_text=True))
    assert "Round 1 has started: every table's game is ready." in shown
    assert "Round 1 of 3" in shown and "not started" in shown and "Table 3" in shown
    event = client.get(f"/api/events/{night['edit']}").get_json()
    for table in event["played"][0]["tables"]:
        assert f"/g/{token(table['links']['edit'])}" in page.get_data(as_text=True)
    assert "Round 1 is not finished: tables 1, 2, and 3 are still playing" in shown
    finish(client, event["played"][0]["tables"][0])
    shown = text(client.get(f"/e/{night['edit']}").get_data(as_text=True))
    assert "finished: " + event["played"][0]["tables"][0]["players"][0] in shown
    refused = post(client, night["edit"], "start")
    assert refused.status_code == 409 and message(refused) == (
        "Round 1 is not finished: tables 2 and 3 are still playing")


def test_a_swap_changes_the_proposed_seating_and_the_round_starts_with_it(
        client: FlaskClient, night: dict[str, Any]) -> None:
    before = client.get(f"/api/events/{night['edit']}").get_json()
    assert before["played"] == []
    response = post(client, night["edit"], "swap", one="Ann", other="Bob")
    assert response.status_code == 302
    refused = post(client, night["edit"], "swap", one="Ann", other="Zed")
    assert refused.status_code == 422 and message(refused) == "Zed is not at a table of this round"
    same = post(client, night["edit"], "swap", one="Ann", other="ann")
    assert same.status_code == 422 and message(same) == "Choose two different players to swap"
    page = client.get(f"/e/{night['edit']}").get_data(as_text=True)
    proposed = [t.split("</ol>")[0]
                for t in page.split('id="ev-next"')[1].split('class="ev-seats">')[1:]]
    assert post(client, night["edit"], "start").status_code == 302
    played = client.get(f"/api/events/{night['edit']}").get_json()["played"][0]["tables"]
    assert ["".join(f"<li>{n}</li>" for n in t["players"]) for t in played] == proposed


def test_arrivals_withdrawals_and_byes_from_the_director_s_page(app: Flask, client: FlaskClient,
                                                                night: dict[str, Any]) -> None:
    assert post(client, night["edit"], "players", action="arrive", name="Ned").status_code == 302
    assert post(client, night["edit"], "players", action="withdraw", name="Bob").status_code == 302
    assert post(client, night["edit"], "players", action="bye", name="Cy",
                round="2").status_code == 302
    before = events_snapshot(app)
    for form, said in (({"action": "arrive", "name": "ann"},
                        "Ann is a player of this event already"),
                       ({"action": "bye", "name": "Cy", "round": "9"},
                        "The round must be a whole number from 1 to 3"),
                       ({"action": "bye", "name": "Cy", "round": "2"},
                        "Cy has a bye in round 2 already"),
                       ({"action": "leave", "name": "Cy"}, "Choose what changes")):
        refused = post(client, night["edit"], "players", **form)
        assert refused.status_code == 422 and said in message(refused)
    assert events_snapshot(app) == before
    shown = text(client.get(f"/e/{night['edit']}").get_data(as_text=True))
    assert "Ned · from round 1" not in shown and "Bob · withdrew after round 0" in shown
    assert "Cy · bye in round 2" in shown


def test_a_table_s_game_is_ended_early_from_the_director_s_page(client: FlaskClient) -> None:
    event = new_event(client, rules={**QUICK_RULES, "deals": 3})
    edit = token(event["links"]["edit"])
    post(client, edit, "start")
    table = client.get(f"/api/events/{edit}").get_json()["played"][0]["tables"][1]
    read = client.get(table["links"]["api"])
    game = read.get_json()
    n = len(game["players"])
    doc = {name: game[name] for name in ("format", "title", "players", "rules", "first_dealer")}
    doc["deals"] = [{"bids": [0] * n, "tricks": [1] + [0] * (n - 1)}]
    client.put(f"/api/games/{token(table['links']['edit'])}", json=doc,
               headers={"If-Match": read.headers["ETag"]})
    assert "deal 2 of 3" in text(client.get(f"/e/{edit}").get_data(as_text=True))
    ended = post(client, edit, "tables/2/end")
    assert ended.status_code == 302
    assert "Table 2's game has ended: it counts as it stands." in text(
        client.get(f"/e/{edit}").get_data(as_text=True))
    after = client.get(f"/api/events/{edit}").get_json()["played"][0]["tables"][1]
    assert after["finished"] and client.get(table["links"]["api"]).get_json()["ended"]
    again = post(client, edit, "tables/2/end")
    assert again.status_code == 409 and message(again) == "Table 2 has finished already."
    assert post(client, edit, "tables/9/end").status_code == 404


def test_the_room_screen_shows_the_tables_and_standings_but_no_edit_link(
        client: FlaskClient, night: dict[str, Any]) -> None:
    post(client, night["edit"], "start")
    event = client.get(f"/api/events/{night['edit']}").get_json()
    room = client.get(f"/e/{night['view']}")
    html = room.get_data(as_text=True)
    assert (room.status_code == 200 and "Round 1 of 3" in text(html)
            and "Provisional standings: round 1 as it stands" in text(html))
    assert night["edit"] not in html
    assert not any(token(t["links"]["edit"]) in html for t in event["played"][0]["tables"])
    assert all(f"/v/{token(t['links']['view'])}" in html for t in event["played"][0]["tables"])
    assert "csrf_token" not in html
    first = event["played"][0]["tables"][2]
    name = first["players"][1]
    answer = text(client.get(f"/e/{night['view']}",
                             query_string={"name": name.upper()}).get_data(as_text=True))
    assert f"{name}: round 1, table 3, seat 2." in answer
    assert "Zed is not a player of this event" in text(
        client.get(f"/e/{night['view']}?name=Zed").get_data(as_text=True))


def test_the_night_s_winners_are_named_once_it_is_over_as_the_page_s_language_lists_them(
        client: FlaskClient) -> None:
    """Issue 30, item 5: the room screen ends on a headline with the winners; two tables whose
    first seats win alike tie the night."""
    event = start_round(client, new_event(client, players=NAMES[:8], rounds=1, tables={"size": 4}))
    view = token(event["links"]["view"])
    assert "ev-winners" not in client.get(f"/e/{view}").get_data(as_text=True)
    assert client.get(f"/e/{view}/state").get_json()["moment"] == "play"
    for table in event["played"][0]["tables"]:
        finish(client, table)
    winners = [line["name"] for line in client.get(event["links"]["api"]).get_json()["standings"]
               if line["rank"] == 1]
    assert len(winners) == 2
    for link in (view, token(event["links"]["edit"])):
        assert f"{winners[0]} and {winners[1]} win" in text(
            client.get(f"/e/{link}").get_data(as_text=True))
    assert f"{winners[0]} en {winners[1]} winnen" in text(
        client.get(f"/e/{view}?lang=nl").get_data(as_text=True))
    assert client.get(f"/e/{view}/state").get_json()["moment"] == "end"


def test_the_room_screen_follows_the_tables_as_they_enter_deals(client: FlaskClient,
                                                                night: dict[str, Any]) -> None:
    post(client, night["edit"], "start")
    state = client.get(f"/e/{night['view']}/state").get_json()
    assert "Round 1 of 3" in text(state["html"])
    unchanged = client.get(f"/e/{night['view']}/state",
                           query_string={"v": state["version"]}).get_json()
    assert unchanged == {"version": state["version"]}
    finish(client, client.get(f"/api/events/{night['edit']}").get_json()["played"][0]["tables"][0])
    changed = client.get(f"/e/{night['view']}/state",
                         query_string={"v": state["version"]}).get_json()
    assert changed["version"] != state["version"] and "finished" in text(changed["html"])


def test_a_read_only_link_can_t_post_to_the_director_s_forms(app: Flask, client: FlaskClient,
                                                             night: dict[str, Any]) -> None:
    csrf = csrf_from(client.get(f"/e/{night['edit']}").get_data(as_text=True))
    before = events_snapshot(app)
    for path in ("start", "swap", "players", "tables/1/end"):
        response = client.post(f"/e/{night['view']}/{path}",
                               data={"csrf_token": csrf, "action": "arrive", "name": "Ned",
                                     "one": "Ann", "other": "Bob"})
        assert response.status_code == 403
    assert events_snapshot(app) == before


def test_the_sql_statements_of_each_page_do_not_grow_with_tables_or_rounds(
        app: Flask, client: FlaskClient) -> None:
    from sqlalchemy import event as sql_event

    from scorekeeper.store.db import db

    statements: list[str] = []
    with app.app_context():
        sql_event.listen(db.engine, "before_cursor_execute",
                         lambda *args: statements.append(args[2]))
    counts: list[dict[str, int]] = []
    for players, rounds in ((8, 1), (24, 3)):
        made = new_event(client, players=[f"P{i}" for i in range(players)], rounds=rounds)
        edit, view = token(made["links"]["edit"]), token(made["links"]["view"])
        for number in range(rounds):
            started = client.post(f"/api/events/{edit}/rounds", json={}).get_json()
            if number < rounds - 1:
                for table in started["played"][-1]["tables"]:
                    finish(client, table)
        state = client.get(f"/e/{view}/state").get_json()["version"]
        found = {}
        for path in (f"/e/{edit}", f"/e/{view}", f"/e/{view}/state?v={state}",
                     f"/api/events/{view}"):
            client.get(path)
            statements.clear()
            assert client.get(path).status_code == 200
            found[path.replace(edit, "edit").replace(view, "view").replace(state, "v")] = \
                len(statements)
        counts.append(found)
    assert counts[0] == counts[1]
    assert max(counts[0].values()) <= 3


def test_the_table_cards_show_each_table_s_round_players_first_dealer_and_a_qr_code(
        client: FlaskClient, night: dict[str, Any]) -> None:
    from io import BytesIO

    from pypdf import PdfReader

    assert client.get(f"/e/{night['edit']}/cards.pdf").status_code == 404
    post(client, night["edit"], "start")
    assert "Table cards of round 1 (PDF)" in text(
        client.get(f"/e/{night['edit']}").get_data(as_text=True))
    response = client.get(f"/e/{night['edit']}/cards.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    reader = PdfReader(BytesIO(response.data))
    assert len(reader.pages) == 1  # three cards: one A4 page
    words = " ".join(reader.pages[0].extract_text().split())
    tables = client.get(f"/api/events/{night['edit']}").get_json()["played"][0]["tables"]
    for table in tables:
        assert f"Round 1 · Table {table['table']}" in words
        assert f"{table['players'][0]} deals first." in words
    assert words.count("Scan to score this table's game on your phone.") == 3
    assert client.get(f"/e/{night['view']}/cards.pdf").status_code == 403


def test_the_results_sheet_holds_the_standings_and_each_round_s_tables(
        client: FlaskClient, night: dict[str, Any]) -> None:
    from io import BytesIO

    from pypdf import PdfReader

    post(client, night["edit"], "start")
    event = client.get(f"/api/events/{night['edit']}").get_json()
    for table in event["played"][0]["tables"]:
        finish(client, table)
    event = client.get(f"/api/events/{night['edit']}").get_json()
    response = client.get(f"/e/{night['view']}/results.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    reader = PdfReader(BytesIO(response.data))
    assert len(reader.pages) == 1
    words = " ".join(reader.pages[0].extract_text().split())
    assert "Club night" in words and "STANDINGS" in words and "ROUND 1" in words
    for line in event["standings"]:
        assert f"{line['rank']} {line['name']} {line['score']:g}" in words
    for table in event["played"][0]["tables"]:
        # the winner first, with 11 points
        assert f"Table {table['table']} 1 {table['players'][0]} 11" in words
    assert night["edit"].encode() not in response.data


def _dutch(score: float) -> str:
    """A score as Dutch writes it: a decimal comma (no score of a night reaches a thousand)."""
    return str(int(score)) if score == int(score) else f"{score:.2f}".replace(".", ",")


def test_a_dutch_night_writes_its_scores_with_a_decimal_comma(client: FlaskClient,
                                                              night: dict[str, Any]) -> None:
    """"66,67", not "66.67": in Dutch, the standings of the director's page, the room screen and the
    results sheet write every score with a decimal comma; the API gives the same scores as
    numbers."""
    from io import BytesIO

    from pypdf import PdfReader

    post(client, night["edit"], "start")
    for table in client.get(f"/api/events/{night['edit']}").get_json()["played"][0]["tables"]:
        # 11, 0, 0 and 10 points: shares of the players beaten in eighths
        finish(client, table, missing=2)
    client.set_cookie("lang", "nl")
    event = client.get(f"/api/events/{night['edit']}").get_json()
    assert any(line["score"] != int(line["score"]) for line in event["standings"])
    for link in (night["edit"], night["view"]):
        shown = text(client.get(f"/e/{link}").get_data(as_text=True))
        for line in event["standings"]:
            assert f"{line['name']} {_dutch(line['score'])} {_dutch(line['per_round'][0])}" in shown
        assert not re.search(r"[0-9]\.[0-9]", shown)
    sheet = PdfReader(BytesIO(client.get(f"/e/{night['view']}/results.pdf").data))
    words = " ".join(sheet.pages[0].extract_text().split())
    for line in event["standings"]:
        assert f"{line['rank']} {line['name']} {_dutch(line['score'])}" in words
    assert not re.search(r"[0-9]\.[0-9]", words)


FORM_VALUES = hostile_text | st.sampled_from(["Ann", "ann ", "Bob", "Zed", "1", "2", "3", "0", "-1",
                                              "arrive", "withdraw", "bye", "", "x" * 300])


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(["players", "swap", "start", "tables/1/end"]),
       form=st.fixed_dictionaries({}, optional={"action": FORM_VALUES, "name": FORM_VALUES,
                                                "round": FORM_VALUES, "one": FORM_VALUES,
                                                "other": FORM_VALUES}))
def test_any_value_in_any_director_form_gets_an_answer_and_a_refusal_stores_nothing(
        app: Flask, path: str, form: dict[str, str]) -> None:
    client = app.test_client()
    edit = token(new_event(client, rules=QUICK_RULES)["links"]["edit"])
    before = events_snapshot(app)
    with within_cpu():
        response = post(client, edit, path, **form)
    assert response.status_code in (302, 404, 409, 422), response.status_code
    if response.status_code != 302:
        assert message(response)
        assert events_snapshot(app) == before


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(match=hostile_text | st.sampled_from(['"1"', "*", 'W/"1"', '"2"', " \"1\" ", '"2", "1"',
                                             '"1",*', '"12"']))
def test_any_if_match_gets_an_answer_and_only_the_game_s_etag_replaces_it(app: Flask,
                                                                          match: str) -> None:
    client = app.test_client()
    made = client.post("/api/games", json={"players": ["Ann", "Bob", "Cy"],
                                           "rules": {"max_cards": 3}}).get_json()
    doc = {"players": ["Ann", "Bob", "Cy"], "rules": {"max_cards": 3},
           "deals": [{"bids": [1, 1, 0]}]}
    try:
        response = client.put(f"/api/games/{token(made['links']['edit'])}", json=doc,
                              headers={"If-Match": match})
    except ValueError:
        # a header no HTTP client can send (a line break): the test client refuses it
        return
    assert response.status_code in (200, 412), response.get_json()
    # Any of the ETags it lists (RFC 9110); "*" alone would skip the lost-update check: refused.
    assert (response.status_code == 200) == ('"1"' in (tag.strip() for tag in match.split(",")))


def test_a_club_night_is_created_on_its_form_and_opens_the_director_s_page(
        app: Flask, client: FlaskClient) -> None:
    home = client.get("/").get_data(as_text=True)
    assert "Run a club night: several tables, one ranking" in text(home)
    form = client.get("/events/new").get_data(as_text=True)
    fields = {"name": "Friday club night", "date": "", "players": "Ann\nBob\nCy\nDee\n \nEve",
              "rounds": "2", "size": "5", "seating": "ranked", "ranking": "totals",
              "preset": "oh-hell", "group": "", "csrf_token": csrf_from(form)}
    for change, said in (({"players": "Ann\nBob\nann"},
                          "The players must be a list of 4 to 400 names"),
                         ({"rounds": "2.5"},
                          "The number of rounds must be a whole number from 1 to 20"),
                         ({"size": "9"},
                          "The preferred table size must be a whole number from 3 to 8"),
                         ({"seating": "random"},
                          "The seating must be one of mixed, ranked, manual"),
                         ({"group": "https://cards.example/gr/nothing"},
                          "No group has this link"),
                         ({"date": "tomorrow"},
                          "The event's date must be a date such as 2026-12-04")):
        refused = client.post("/events/new", data={**fields, **change})
        assert refused.status_code == 422 and said in message(refused)
        assert events_snapshot(app) == []
    for method in ("HEAD", "OPTIONS"):  # only a POST makes a club night
        answered = client.open("/events/new", method=method, data=fields)
        assert answered.status_code == 200 and events_snapshot(app) == []
    made = client.post("/events/new", data=fields)
    assert made.status_code == 302
    page = text(client.get(made.headers["Location"]).get_data(as_text=True))
    assert "The club night is ready" in page and "Round 1: proposed seating" in page
    event = client.get(f"/api/events/{made.headers['Location'].rsplit('/', 1)[1]}").get_json()
    assert event["players"] == ["Ann", "Bob", "Cy", "Dee", "Eve"] and event["rounds"] == 2
    assert event["tables"] == {"size": 5, "sizes": [4, 5, 6]} and event["seating"] == "ranked"


def _titles(client: FlaskClient, played: dict[str, Any]) -> list[str]:
    return [client.get(table["links"]["api"]).get_json()["title"] for table in played["tables"]]


def test_a_night_made_on_a_dutch_page_gives_its_table_games_dutch_titles(
        client: FlaskClient) -> None:
    """A club night made on a Dutch page is a Dutch night: its table games are titled in Dutch
    ("Vrijdag · spelronde 1 · tafel 2"), even when a director's phone in English starts the
    round."""
    client.set_cookie("lang", "nl")
    form = client.get("/events/new").get_data(as_text=True)
    made = client.post("/events/new", data={"name": "Vrijdag", "players": "\n".join(NAMES),
                                            "rounds": "3", "size": "4", "seating": "mixed",
                                            "ranking": "percent", "preset": "oh-hell",
                                            "csrf_token": csrf_from(form)})
    assert made.status_code == 302
    edit = made.headers["Location"].rsplit("/", 1)[1]
    client.set_cookie("lang", "en")
    assert post(client, edit, "start").status_code == 302
    event = client.get(f"/api/events/{edit}").get_json()
    assert _titles(client, event["played"][0]) == [f"Vrijdag · spelronde 1 · tafel {t}"
                                                   for t in (1, 2, 3)]
    assert event["language"] == "nl"
    # The director's page says so, in any language.
    for code in ("en", "nl"):
        client.set_cookie("lang", code)
        assert "Vrijdag · spelronde 1 · tafel 1" in text(
            client.get(f"/e/{edit}").get_data(as_text=True))


def test_a_night_keeps_its_language_for_every_round_whoever_starts_it(client: FlaskClient) -> None:
    """The API makes a night in the language it is asked in, or the one it names; every round's
    table games are titled in it, started by the API in English or from a director's page in
    Dutch."""
    client.set_cookie("lang", "nl")
    event = new_event(client)
    client.delete_cookie("lang")
    assert event["language"] == "nl"
    event = start_round(client, event)  # the API, asked in English
    for table in event["played"][0]["tables"]:
        finish(client, table)
    client.set_cookie("lang", "de")
    assert post(client, token(event["links"]["edit"]), "start").status_code == 302  # a German phone
    client.delete_cookie("lang")
    event = client.get(event["links"]["api"]).get_json()
    for number, played in enumerate(event["played"], start=1):
        assert _titles(client, played) == [f"Club night · spelronde {number} · tafel {t}"
                                           for t in (1, 2, 3)]
    english = start_round(client, new_event(client))
    assert (english["language"] == "en"
            and _titles(client, english["played"][0])[0] == "Club night · round 1 · table 1")
    italian = start_round(client, new_event(client, language="it"))
    assert _titles(client, italian["played"][0])[0] == "Club night · turno 1 · tavolo 1"
    refused = client.post("/api/events", json={"name": "x", "players": NAMES, "rounds": 1,
                                                "language": "xx"})
    assert (refused.status_code == 422
            and "The language must be one of en, nl" in refused.get_json()["error"])


def test_the_director_sets_a_round_clock_that_the_room_screen_shows(app: Flask, client: FlaskClient,
                                                                    night: dict[str, Any]) -> None:
    before = events_snapshot(app)
    early = post(client, night["edit"], "clock", minutes="30")
    assert early.status_code == 409 and "No round is being played" in message(early)
    assert events_snapshot(app) == before
    post(client, night["edit"], "start")
    refused = post(client, night["edit"], "clock", minutes="999")
    assert refused.status_code == 422
    assert "The round clock's minutes must be a whole number from 0 to 240" in message(refused)
    assert post(client, night["edit"], "clock", minutes="30").status_code == 302
    room = client.get(f"/e/{night['view']}").get_data(as_text=True)
    assert ("Round clock: ends at" in text(room) and "data-left-of=" in room
            and "js/clock.js" in room)
    assert post(client, night["edit"], "clock", minutes="0").status_code == 302
    assert "Round clock" not in text(client.get(f"/e/{night['view']}").get_data(as_text=True))


def test_a_table_game_links_back_to_its_event_from_its_edit_and_read_only_pages(
        app: Flask, client: FlaskClient, night: dict[str, Any]) -> None:
    from sqlalchemy import event as sql_event

    from scorekeeper.store.db import db

    post(client, night["edit"], "start")
    table = client.get(f"/api/events/{night['edit']}").get_json()["played"][0]["tables"][1]
    statements: list[str] = []
    with app.app_context():
        sql_event.listen(db.engine, "before_cursor_execute",
                         lambda *args: statements.append(args[2]))
    # the room screen: never the director's page
    for link in (table["links"]["edit"], table["links"]["view"]):
        statements.clear()
        page = client.get(link).get_data(as_text=True)
        assert (f'<p class="game-event"><a href="/e/{night["view"]}">'
                "Round 1 · table 2 of Club night</a></p>") in page
        assert night["edit"] not in page
        assert len(statements) == 2  # the game, then its place in the event
        assert client.get(f"/e/{night['view']}").status_code == 200


def test_a_game_outside_an_event_shows_no_event_even_with_an_event_like_title(
        client: FlaskClient) -> None:
    made = client.post("/api/games", json={"players": ["Ann", "Bob", "Cy"],
                                           "title": "Club night · round 1 · table 2",
                                           "rules": QUICK_RULES}).get_json()
    for link in (made["links"]["edit"], made["links"]["view"]):
        assert 'class="game-event"' not in client.get(link).get_data(as_text=True)


def test_the_director_changes_the_rounds_planned_and_the_seating_of_the_rounds_to_come(
        client: FlaskClient, night: dict[str, Any]) -> None:
    refused = post(client, night["edit"], "plan", rounds="21", seating="mixed")
    assert refused.status_code == 422 and message(refused) == (
        "The number of rounds must be a whole number from 1 to 20, not '21'")
    done = post(client, night["edit"], "plan", rounds="5", seating="manual")
    assert done.status_code == 302
    shown = text(client.get(f"/e/{night['edit']}").get_data(as_text=True))
    assert "The rounds to come are planned again." in shown and "0 of 5 rounds started" in shown
    event = client.get(f"/api/events/{night['edit']}").get_json()
    assert (event["rounds"], event["seating"]) == (5, "manual")


@pytest.mark.parametrize(("paper", "points"), [("", (595, 842)), ("a4", (595, 842)),
                                               ("letter", (612, 792))])
def test_the_table_cards_print_on_a4_or_letter_paper(client: FlaskClient, night: dict[str, Any],
                                                     paper: str, points: tuple[int, int]) -> None:
    from io import BytesIO

    from pypdf import PdfReader

    post(client, night["edit"], "start")
    assert f'href="/e/{night["edit"]}/cards.pdf?paper=letter"' in client.get(
        f"/e/{night['edit']}").get_data(as_text=True)
    response = client.get(f"/e/{night['edit']}/cards.pdf" + (f"?paper={paper}" if paper else ""))
    assert response.status_code == 200
    reader = PdfReader(BytesIO(response.data))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == points


def test_table_cards_on_an_unknown_paper_are_refused_naming_the_papers(
        client: FlaskClient, night: dict[str, Any]) -> None:
    post(client, night["edit"], "start")
    refused = client.get(f"/e/{night['edit']}/cards.pdf?paper=a5")
    assert refused.status_code == 422 and message(refused) == (
        "The paper must be one of a4, letter, not 'a5'")


def _nights_on_the_home_page(client: FlaskClient) -> str:
    page = client.get("/").get_data(as_text=True)
    return (page.split("Your club nights", 1)[1].split("</ul>", 1)[0]
            if "Your club nights" in page else "")


def test_a_director_who_closed_the_tab_finds_the_night_on_the_home_page(app: Flask) -> None:
    """Issue 30, item 1: the home page lists this phone's club nights, with the director's page and
    the room screen's link, the most recently changed first."""
    director = app.test_client()
    assert _nights_on_the_home_page(director) == ""
    for name in ("Tuesday club night", "Friday club night"):
        made = director.post("/events/new", data={
            "name": name, "players": "\n".join(f"P{n}" for n in range(9)),
            "rounds": "2", "size": "3",
            "csrf_token": csrf_from(director.get("/events/new").get_data(as_text=True))})
        assert made.status_code == 302
    edit = token(made.headers["Location"])
    view = token(director.get(f"/api/events/{edit}").get_json()["links"]["view"])
    listed = _nights_on_the_home_page(director)
    assert text(listed).startswith("Friday club night")
    assert "Tuesday club night" in text(listed)
    assert f'href="/e/{edit}"' in listed and f'href="/e/{view}"' in listed
    assert "9 players · 0 of 2 rounds started" in text(listed)
    assert post(director, edit, "start").status_code == 302
    assert "1 of 2 rounds started" in text(_nights_on_the_home_page(director))


def test_a_phone_that_opened_the_room_screen_lists_the_night_read_only(
        app: Flask, client: FlaskClient, night: dict[str, Any]) -> None:
    """The room's link lists the night with the room screen only; opened later by the director's
    link, the night stays the director's on that phone."""
    assert _nights_on_the_home_page(client) == ""  # made through the API: not opened on this phone
    player = app.test_client()
    player.get(f"/e/{night['view']}")
    listed = player.get("/").get_data(as_text=True)
    assert f'href="/e/{night["view"]}"' in listed and "Room screen · read-only" in text(listed)
    assert night["edit"] not in listed
    client.get(f"/e/{night['edit']}")
    client.get(f"/e/{night['view']}")
    assert f'href="/e/{night["edit"]}"' in _nights_on_the_home_page(client)


def test_a_tables_link_never_lists_its_night_on_the_home_page(app: Flask, client: FlaskClient,
                                                              night: dict[str, Any]) -> None:
    """A table's card opens its game, and the home page of that phone holds no link to the night:
    not the director's, and no room screen a table's link didn't show."""
    assert post(client, night["edit"], "start").status_code == 302
    table = client.get(f"/api/events/{night['edit']}").get_json()["played"][0]["tables"][0]
    scorer = app.test_client()
    assert scorer.get(f"/g/{token(table['links']['edit'])}").status_code == 200
    home = scorer.get("/").get_data(as_text=True)
    assert night["edit"] not in home and "Your club nights" not in home
