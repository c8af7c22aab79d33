"""A table's link can't rewrite the night (EVENTS.md, "Who may do what"; web/access.py): the link on
a table's card never leads to the director's link or the group's edit link, and once its round is
over it changes nothing; its rules, its title and its place in the night are never its own.

Each test follows the steps of the security review's findings, which worked on c8152af."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_web_events_api import NAMES, QUICK_RULES, finish, new_event, start_round, token
from webhelpers import csrf_from, groups_snapshot, message, snapshot, text, url_rules

#: The routes a game's edit link opens with a GET, its token in place of ``<token>``.
GAME_PAGES = [rule for rule in url_rules() if "GET" in rule.methods and rule.arguments == {"token"}]


@pytest.fixture
def night(client: FlaskClient) -> dict[str, Any]:
    """A night of 8 in the club's group, round 1 finished at both tables and round 2 started."""
    group = client.post("/api/groups", json={"name": "Friday club"}).get_json()
    event = new_event(client, players=NAMES[:8], group=group["links"]["edit"], rules=QUICK_RULES)
    first = start_round(client, event)["played"][0]
    for table in first["tables"]:
        finish(client, table)
    second = start_round(client, event)["played"][1]
    return {"event": event, "group": group, "first": first["tables"], "second": second["tables"]}


def secrets_of(night: dict[str, Any]) -> list[str]:
    """The links a table's link must never lead to: the director's and the group's edit tokens."""
    return [token(night["event"]["links"]["edit"]), token(night["group"]["links"]["edit"])]


def standings(client: FlaskClient, night: dict[str, Any]) -> list[Any]:
    """The night's standings, as the room screen's link reads them."""
    return client.get(
        f"/api/events/{token(night['event']['links']['view'])}").get_json()["standings"]


@pytest.mark.parametrize("which", ["first", "second"])
def test_no_page_a_tables_link_opens_holds_the_directors_or_the_groups_edit_link(
        app: Flask, night: dict[str, Any], which: str) -> None:
    """Finding 1: the game page linked to the director's page, and "Add to a group" to the group's
    edit link (whose page lists every game's edit link), from the card of any table."""
    edit = token(night[which][0]["links"]["edit"])
    for rule in GAME_PAGES:
        client = app.test_client()  # a phone that scanned the card: fresh cookies
        answer = client.get(rule.rule.replace("<token>", edit))
        body = answer.get_data() + answer.headers.get("Location", "").encode()
        for secret in secrets_of(night):
            assert secret.encode() not in body, (
                f"GET {rule.rule} from a table's link shows a link of more authority")


def test_the_group_page_a_tables_link_opens_is_the_read_only_one(client: FlaskClient,
                                                                 night: dict[str, Any]) -> None:
    table = night["second"][0]
    page = client.get(f"/g/{token(table['links']['edit'])}/group").get_data(as_text=True)
    assert f'/gr/{token(night["group"]["links"]["view"])}"' in page


def test_a_finished_tables_game_offers_no_group_rules_or_delete(client: FlaskClient,
                                                                night: dict[str, Any]) -> None:
    """What its link can't do is not offered: the game-over card adds it to no group, the tools
    change no rules and delete nothing."""
    page = client.get(f"/g/{token(night['first'][0]['links']['edit'])}").get_data(as_text=True)
    assert "Game over" in page
    for offered in ("/group\"", "/rules\"", "/delete\"", "Add to a group"):
        assert offered not in page, offered


def test_a_finished_round_is_not_reopened_from_a_tables_link(app: Flask, client: FlaskClient,
                                                             night: dict[str, Any]) -> None:
    """Finding 3: resuming a game of round 1 after round 2 started made round 1 vanish from the
    standings."""
    table = night["first"][0]
    edit = token(table["links"]["edit"])
    before, ranked = snapshot(app), standings(client, night)
    page = client.get(f"/g/{edit}").get_data(as_text=True)
    # not offered
    assert f"/g/{edit}/resume" not in page and "Round 1 of Club night is over" in text(page)
    # a form of the same phone: a token
    page = client.get(f"/g/{edit}/deal/1").get_data(as_text=True)
    resumed = client.post(f"/g/{edit}/resume", data={"csrf_token": csrf_from(page),
                                                     "version": table_version(client, table)})
    assert resumed.status_code == 403
    assert message(resumed) == ("Round 1 of Club night is over: only the club night's organiser "
                                "can change its games now.")
    read = client.get(table["links"]["api"])
    put = client.put(f"/api/games/{edit}", json={**file_of(read.get_json()), "ended": False},
                     headers={"If-Match": read.headers["ETag"]})
    assert put.status_code == 403 and "Round 1 of Club night is over" in put.get_json()["error"]
    assert snapshot(app) == before and standings(client, night) == ranked


def test_a_finished_rounds_deals_are_not_corrected_from_a_tables_link(
        app: Flask, client: FlaskClient, night: dict[str, Any]) -> None:
    table = night["first"][1]
    edit = token(table["links"]["edit"])
    before = snapshot(app)
    page = client.get(f"/g/{edit}/deal/1").get_data(as_text=True)
    players = len(table["players"])
    fields = {f"bids-{seat}": "0" for seat in range(players)} | {
        f"tricks-{seat}": str(int(seat == 1)) for seat in range(players)}
    corrected = client.post(f"/g/{edit}/deal/1", data={"csrf_token": csrf_from(page),
                                                       "version": table_version(client, table),
                                                       **fields})
    assert corrected.status_code == 403
    assert snapshot(app) == before


def test_a_table_game_is_not_deleted_from_its_link(app: Flask, client: FlaskClient,
                                                   night: dict[str, Any]) -> None:
    """Finding 3: deleting a table game dropped its four players to 0, and nothing could undo it."""
    table = night["first"][0]
    edit = token(table["links"]["edit"])
    before, ranked = snapshot(app), standings(client, night)
    asked = client.get(f"/g/{edit}/delete")
    assert asked.status_code == 403
    assert message(asked) == ("This game is a table of Club night: the club night counts it, so it "
                              "can't be deleted.")
    page = client.get(f"/g/{edit}/deal/1").get_data(as_text=True)
    deleted = client.post(f"/g/{edit}/delete", data={"csrf_token": csrf_from(page)})
    assert deleted.status_code == 403
    assert snapshot(app) == before and standings(client, night) == ranked


@pytest.mark.parametrize("round_", ["first", "second"])
def test_a_tables_link_never_changes_its_rules_or_title(app: Flask, client: FlaskClient,
                                                        night: dict[str, Any], round_: str) -> None:
    """Finding 3: a one-deal custom scoring of 1,000,000 points put four players a million ahead."""
    table = night[round_][0]
    edit = token(table["links"]["edit"])
    before = snapshot(app)
    for change in ({"rules": {**QUICK_RULES, "scoring": "custom", "made": "1000000",
                              "missed": "1000000"}},
                   {"title": "Our own game"}):
        read = client.get(table["links"]["api"])
        put = client.put(f"/api/games/{edit}", json={**file_of(read.get_json()), **change},
                         headers={"If-Match": read.headers["ETag"]})
        assert put.status_code == 403, put.get_json()
        assert put.get_json()["error"] in (
            ("This game is a table of Club night: its rules and its title are the club night's, "
             "and stay as they are."),
            ("Round 1 of Club night is over: only the club night's organiser can change its games "
             "now."))
    page = client.get(f"/g/{edit}/rules").get_data(as_text=True)
    saved = client.post(f"/g/{edit}/rules", data={"csrf_token": csrf_from(page), "action": "save",
                                                  "version": table_version(client, table),
                                                  "scoring": "exact"})
    assert saved.status_code in (403, 422)
    assert snapshot(app) == before


def test_the_current_rounds_table_still_plays_and_corrects_from_its_link(
        client: FlaskClient, night: dict[str, Any]) -> None:
    table = night["second"][0]
    finish(client, table)  # a whole deal through its own link
    read = client.get(table["links"]["api"])
    game = read.get_json()
    game["deals"][0]["tricks"] = list(reversed(game["deals"][0]["tricks"]))
    put = client.put(f"/api/games/{token(table['links']['edit'])}",
                     json=file_of(game) | {"deals": game["deals"]},
                     headers={"If-Match": read.headers["ETag"]})
    assert put.status_code == 200, put.get_json()


def file_of(game: dict[str, Any]) -> dict[str, Any]:
    """A game file as read from the API, to send back."""
    return {name: game[name]
            for name in ("format", "title", "players", "rules", "first_dealer", "deals", "ended")
            if name in game}


def table_version(client: FlaskClient, table: dict[str, Any]) -> int:
    return int(client.get(table["links"]["api"]).headers["ETag"].strip('"'))


def test_the_directors_phone_corrects_a_finished_rounds_table_and_the_standings_follow(
        client: FlaskClient, night: dict[str, Any]) -> None:
    """The director's page opens any table game with the director's authority: on the phone that
    opened it, a table's link corrects its game after its round, and the standings follow."""
    table = night["first"][0]
    edit = token(table["links"]["edit"])
    ranked = standings(client, night)
    # this phone directs the night
    assert client.get(night["event"]["links"]["edit"]).status_code == 200
    read = client.get(table["links"]["api"])
    game = read.get_json()
    winner = game["deals"][0]["tricks"].index(1)
    game["deals"][0]["tricks"] = [int(seat == (winner + 1) % len(game["players"]))
                                  for seat in range(len(game["players"]))]
    put = client.put(f"/api/games/{edit}", json=file_of(game) | {"deals": game["deals"]},
                     headers={"If-Match": read.headers["ETag"]})
    assert put.status_code == 200, put.get_json()
    assert standings(client, night) != ranked
    read = client.get(table["links"]["api"])
    refused = client.put(f"/api/games/{edit}",
                         json=file_of(read.get_json()) | {"title": "Our own game"},
                         headers={"If-Match": read.headers["ETag"]})
    assert refused.status_code == 403  # the rules and the title stay the night's, whoever asks


@pytest.mark.parametrize(("if_match", "status"), [
    ('"{v}"', 200), ('"98", "{v}"', 200), ('"{v}", "99"', 200), ("*", 412), ('"99"', 412),
    ('W/"{v}"', 412)])
def test_if_match_takes_any_etag_it_lists_and_never_skips_the_check(
        client: FlaskClient, if_match: str, status: int) -> None:
    made = client.post("/api/games",
                       json={"players": ["Ann", "Bob", "Cy"], "rules": QUICK_RULES}).get_json()
    edit = token(made["links"]["edit"])
    read = client.get(f"/api/games/{edit}")
    version = read.headers["ETag"].strip('"')
    put = client.put(f"/api/games/{edit}", json=file_of(read.get_json()) | {"title": "Renamed"},
                     headers={"If-Match": if_match.format(v=version)})
    assert put.status_code == status, put.get_json()


def test_every_answer_that_holds_an_edit_link_is_kept_by_no_cache(client: FlaskClient,
                                                                  night: dict[str, Any]) -> None:
    table = night["second"][0]
    edit = token(table["links"]["edit"])
    made = client.post("/api/games", json={"players": ["Ann", "Bob", "Cy"]})
    read = client.get(table["links"]["api"])
    put = client.put(f"/api/games/{edit}", json=file_of(read.get_json()),
                     headers={"If-Match": read.headers["ETag"]})
    answers = {"a new game": made, "a game's export": read, "a game replaced": put,
               "the event": client.get(night["event"]["links"]["api"]),
               "the game file": client.get(f"/g/{edit}/export.json"),
               "the delete page": client.get(
                   f"/g/{token(made.get_json()['links']['edit'])}/delete"),
               "the group page": client.get(f"/g/{edit}/group")}
    for what, answer in answers.items():
        assert answer.status_code in (200, 201), what
        assert answer.headers.get("Cache-Control") == "no-store", what


def test_a_refused_method_says_which_are_allowed(client: FlaskClient,
                                                 night: dict[str, Any]) -> None:
    answer = client.get(f"/e/{token(night['event']['links']['edit'])}/start")
    assert answer.status_code == 405 and answer.headers["Allow"] == "OPTIONS, POST"
    answer = client.delete(f"/api/games/{token(night['second'][0]['links']['edit'])}")
    assert answer.status_code == 405 and set(answer.headers["Allow"].split(", ")) == {
        "GET", "HEAD", "OPTIONS", "PUT"}


def test_a_game_outside_a_club_night_still_offers_its_group_rules_and_delete(start: Any) -> None:
    page = start(rules={"max_cards": 3}).page()
    for offered in ("/group\"", "/rules\"", "/delete\"", "Add to a group"):
        assert offered in page, offered


def test_a_table_of_a_night_without_a_group_goes_in_no_group_by_any_door(
        app: Flask, client: FlaskClient) -> None:
    """The table's link is refused by the game's "Add to a group" page, by another group's page
    and API, and by a new group started with it; nothing is stored."""
    event = new_event(client, players=NAMES[:8], rules=QUICK_RULES)
    edit = token(start_round(client, event)["played"][0]["tables"][0]["links"]["edit"])
    other = client.post("/api/groups", json={"name": "Another club"}).get_json()
    before = snapshot(app)
    said = "This game is a table of a club night: it can be in the club night's group only."
    page = client.get(f"/g/{edit}/group").get_data(as_text=True)
    assert ("This game is a table of Club night: it is in the club night's group already."
            in text(page))
    assert 'name="link"' not in page and "Start a new group" not in page
    game_page = client.get(f"/g/{edit}").get_data(as_text=True)
    posted = client.post(f"/g/{edit}/group", data={"csrf_token": csrf_from(game_page),
                                                   "link": other["links"]["edit"]})
    assert posted.status_code == 403
    api = client.post(f"/api/groups/{token(other['links']['edit'])}/games", json={"game": edit})
    assert api.status_code == 403 and api.get_json()["error"] == said
    group_page = client.get(f"/gr/{token(other['links']['edit'])}").get_data(as_text=True)
    by_page = client.post(f"/gr/{token(other['links']['edit'])}/games",
                          data={"csrf_token": csrf_from(group_page), "link": edit})
    assert by_page.status_code == 403 and message(by_page) == said
    form = client.get(f"/groups/new?game={edit}").get_data(as_text=True)
    started = client.post("/groups/new", data={"csrf_token": csrf_from(form), "name": "Our own",
                                               "game": edit})
    assert started.status_code == 403
    assert snapshot(app) == before
    assert client.get(f"/api/groups/{token(other['links']['edit'])}").get_json()["games"] == []


def test_play_again_from_a_tables_game_puts_the_new_game_in_no_group(
        app: Flask, client: FlaskClient, night: dict[str, Any]) -> None:
    """Found by the walk of every route (test_web_events_walk.py): "Play again" on a finished
    table's game added the new game to the night's group, a change to the club's group from a
    table's link."""
    edit = token(night["first"][0]["links"]["edit"])
    before = groups_snapshot(app)
    page = client.get(f"/g/{edit}/deal/1").get_data(as_text=True)
    again = client.post(f"/g/{edit}/again", data={"csrf_token": csrf_from(page)})
    assert again.status_code == 302 and "/g/" in again.headers["Location"]
    assert groups_snapshot(app) == before
