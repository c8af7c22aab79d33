"""Groups through the pages and the JSON API (GROUPS.md): starting one, putting games in it and
taking them out, the leaderboard, a player's page, the roster on the new-game form, the CSV files
and the season sheet."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pypdf import PdfReader
from sqlalchemy import event
from webhelpers import Scorer, csrf_from, groups_snapshot, message, snapshot, text

from scorekeeper.store.db import db

Start = Callable[..., Scorer]
#: A finished 3-player game of one 1-card deal; Ann (seat 0) deals, and makes her bid.
ONE_DEAL = {"rules": {"deal": "fixed", "max_cards": 1, "deals": 1}}


def finished(start: Start, players: list[str], bids: list[int], tricks: list[int],
             **more: Any) -> Scorer:
    return start(players=players, deals=[{"bids": bids, "tricks": tricks}], **ONE_DEAL, **more)


def new_group(client: FlaskClient, name: str = "Friday club") -> dict[str, Any]:
    response = client.post("/api/groups", json={"name": name})
    assert response.status_code == 201, response.get_json()
    document: dict[str, Any] = response.get_json()
    return document


def token(link: str) -> str:
    return link.rstrip("/").rsplit("/", 1)[1]


def add(client: FlaskClient, group: dict[str, Any], game: Scorer | str) -> Any:
    link = game if isinstance(game, str) else f"http://localhost/g/{game.token}"
    return client.post(f"/api/groups/{token(group['links']['edit'])}/games", json={"game": link})


def test_a_group_is_started_from_the_home_page_with_a_name(client: FlaskClient) -> None:
    home = client.get("/").get_data(as_text=True)
    assert 'href="/groups/new"' in home
    page = client.get("/groups/new").get_data(as_text=True)
    response = client.post("/groups/new", data={"csrf_token": csrf_from(page),
                                                 "name": "  Friday   club "})
    assert response.status_code == 302
    shown = client.get(response.headers["Location"])
    assert shown.status_code == 200 and "<h1>Friday club</h1>" in shown.get_data(as_text=True)


@pytest.mark.parametrize(("name", "said"), [
    ("", "The group's name is missing: give the group a name."),
    ("x" * 61, "The group's name is longer than 60 characters: shorten it."),
    ("Friday\u200bclub", ("The group's name contains an invisible character (zero width space): "
                          "type it again without it.")),
    ("\u2800", "The group's name contains an invisible character"),
])
def test_a_group_name_is_refused_in_words_and_nothing_is_stored(app: Flask, client: FlaskClient,
                                                                name: str, said: str) -> None:
    page = client.get("/groups/new").get_data(as_text=True)
    response = client.post("/groups/new", data={"csrf_token": csrf_from(page), "name": name})
    assert response.status_code == 422 and message(response).startswith(said)
    api = client.post("/api/groups", json={"name": name})
    assert api.status_code == 422 and api.get_json()["error"].startswith(said.rstrip("."))
    assert groups_snapshot(app) == []


def test_the_api_adds_a_game_once_and_refuses_read_only_unknown_and_taken_games(
        app: Flask, client: FlaskClient, start: Start) -> None:
    group, other = new_group(client), new_group(client, "Other table")
    game = finished(start, ["Ann", "Bob", "Cy"], [1, 1, 0], [1, 0, 0])
    first = add(client, group, game)
    assert first.status_code == 200 and [g["winners"] for g in first.get_json()["games"]] == [
        ["Ann"]]
    before = groups_snapshot(app)
    # again: no change
    assert add(client, group, game.token).status_code == 200 and groups_snapshot(app) == before
    refusals = [(add(client, group, f"http://localhost/v/{game.view_token}"), 403),
                (add(client, group, "http://localhost/g/no-such-game"), 404),
                (add(client, other, game), 409),
                (client.post(f"/api/groups/{token(group['links']['view'])}/games",
                             json={"game": game.token}), 403),
                (client.post(f"/api/groups/{token(group['links']['edit'])}/games",
                             json={"game": 7}), 422),
                (client.post(f"/api/groups/{token(group['links']['edit'])}/games",
                             json={"game": game.token, "x": 1}), 422),
                (client.post(f"/api/groups/{token(group['links']['edit'])}/games",
                             data="game=1"), 415)]
    for response, status in refusals:
        assert response.status_code == status and response.get_json()["error"]
    assert groups_snapshot(app) == before


def test_a_read_only_group_link_never_shows_a_game_s_edit_link(client: FlaskClient,
                                                               start: Start) -> None:
    group = new_group(client)
    game = finished(start, ["Ann", "Bob", "Cy"], [1, 1, 0], [1, 0, 0])
    add(client, group, game)
    view = token(group["links"]["view"])
    document = client.get(f"/api/groups/{view}").get_json()
    assert "edit" not in document["links"] and "edit" not in document["games"][0]["links"]
    stranger = client.application.test_client()
    for path in (f"/api/groups/{view}", f"/gr/{view}", f"/gr/{view}/players/Ann",
                 f"/gr/{view}/games.csv", f"/gr/{view}/deals.csv", f"/gr/{view}/players.csv",
                 f"/gr/{view}/share"):
        body = stranger.get(path).get_data()
        assert (game.token.encode() not in body
                and token(group["links"]["edit"]).encode() not in body), path
    edit = client.get(f"/api/groups/{token(group['links']['edit'])}").get_json()
    assert token(edit["games"][0]["links"]["edit"]) == game.token


def test_the_group_page_lists_the_leaderboard_and_the_games_newest_first(client: FlaskClient,
                                                                         start: Start) -> None:
    group = new_group(client)
    one = finished(start, ["Ann", "Bob", "Cy"], [1, 1, 0], [1, 0, 0], title="First night")
    two = finished(start, ["bob", "ann", "Cy"], [1, 1, 0], [1, 0, 0], title="Second night")
    add(client, group, one)
    add(client, group, two)
    page = text(client.get(f"/gr/{token(group['links']['view'])}").get_data(as_text=True))
    assert page.index("Second night") < page.index("First night")
    board = page[page.index("Leaderboard"):page.index("Ratings over the games")]
    # Ann and bob won one game each and made 1 of 2 bids; Cy made both zero bids and won none.
    assert len(re.findall(r"\d (ann|bob) [\d.−]+ 2 1 50% 0/0 \+0\.50", board)) == 2, board
    assert re.search(r"Cy [\d.−]+ 2 0 100% 2/2 \+0\.00", board), board
    assert "<svg" in client.get(f"/gr/{token(group['links']['view'])}").get_data(as_text=True)


def test_removing_a_game_and_adding_it_back_gives_the_same_figures(app: Flask, client: FlaskClient,
                                                                   start: Start) -> None:
    group = new_group(client)
    games = [finished(start, ["Ann", "Bob", "Cy"], [1, 1, 0], [1, 0, 0]),
             finished(start, ["Bob", "Cy", "Ann"], [1, 1, 0], [1, 0, 0]),
             finished(start, ["Cy", "Dee"], [1, 1], [1, 0])]
    for game in games:
        add(client, group, game)
    edit = token(group["links"]["edit"])
    before = client.get(f"/api/groups/{edit}").get_json()
    page = client.get(f"/gr/{edit}").get_data(as_text=True)
    response = client.post(f"/gr/{edit}/remove", data={"csrf_token": csrf_from(page),
                                                       "game": games[0].view_token})
    assert response.status_code == 302
    without = client.get(f"/api/groups/{edit}").get_json()
    assert len(without["games"]) == 2 and without["players"] != before["players"]
    assert add(client, group, games[0]).status_code == 200
    assert client.get(f"/api/groups/{edit}").get_json() == before


def test_a_read_only_group_link_can_t_add_or_remove_games(app: Flask, client: FlaskClient,
                                                          start: Start) -> None:
    group = new_group(client)
    game = finished(start, ["Ann", "Bob", "Cy"], [1, 1, 0], [1, 0, 0])
    add(client, group, game)
    view = token(group["links"]["view"])
    csrf = csrf_from(client.get("/new").get_data(as_text=True))
    before = groups_snapshot(app)
    page = client.get(f"/gr/{view}").get_data(as_text=True)
    assert "<form" not in page
    for path, form in ((f"/gr/{view}/games", {"link": game.token}),
                       (f"/gr/{view}/remove", {"game": game.view_token})):
        response = client.post(path, data={"csrf_token": csrf, **form})
        assert response.status_code == 403
        assert message(response) == ("This is the read-only link of a group: it can show the group "
                                     "but not change it.")
    assert groups_snapshot(app) == before


def test_adding_a_game_on_the_group_page_needs_its_edit_link_and_keeps_what_was_typed(
        app: Flask, client: FlaskClient, start: Start) -> None:
    group = new_group(client)
    game = finished(start, ["Ann", "Bob", "Cy"], [1, 1, 0], [1, 0, 0])
    edit = token(group["links"]["edit"])
    csrf = csrf_from(client.get(f"/gr/{edit}").get_data(as_text=True))
    typed = f"http://localhost/v/{game.view_token}"
    refused = client.post(f"/gr/{edit}/games", data={"csrf_token": csrf, "link": typed})
    assert refused.status_code == 403
    assert message(refused) == ("This is the read-only link of a game: only its edit link can put "
                                "it in a group.")
    assert f'value="{typed}"' in refused.get_data(as_text=True)
    assert client.post(f"/gr/{edit}/games",
                       data={"csrf_token": csrf, "link": "https://x/"}).status_code == 422
    done = client.post(f"/gr/{edit}/games",
                       data={"csrf_token": csrf, "link": f"https://x/g/{game.token}/share"})
    assert (done.status_code == 302
            and len(client.get(f"/api/groups/{edit}").get_json()["games"]) == 1)


def test_a_game_is_put_in_a_group_from_its_own_page(client: FlaskClient, start: Start) -> None:
    group = new_group(client)
    game = finished(start, ["Ann", "Bob", "Cy"], [1, 1, 0], [1, 0, 0])
    assert f"/g/{game.token}/group" in game.page()
    page = client.get(f"/g/{game.token}/group").get_data(as_text=True)
    view = client.post(f"/g/{game.token}/group", data={"csrf_token": csrf_from(page),
                                                       "link": group["links"]["view"]})
    assert view.status_code == 403
    done = client.post(f"/g/{game.token}/group", data={"csrf_token": csrf_from(page),
                                                       "link": group["links"]["edit"]})
    assert done.status_code == 302
    assert (client.get(f"/api/groups/{token(group['links']['edit'])}").get_json()
            ["games"][0]["players"] == ["Ann", "Bob", "Cy"])
    # Or a new group, with the game in it from the start.
    other = finished(start, ["Dee", "Eve"], [1, 1], [1, 0])
    form = client.get(f"/groups/new?game={other.token}").get_data(as_text=True)
    made = client.post("/groups/new", data={"csrf_token": csrf_from(form), "name": "Dee's",
                                            "game": other.token})
    assert made.status_code == 302
    listed = client.get(made.headers["Location"]).get_data(as_text=True)
    assert "Dee, Eve" in listed


def test_the_new_game_form_of_a_group_seats_its_players_in_a_few_taps(client: FlaskClient,
                                                                      start: Start) -> None:
    group = new_group(client)
    add(client, group, finished(start, ["Ann", "Bob", "Cy"], [1, 1, 0], [1, 0, 0]))
    add(client, group, finished(start, ["Dee", "bob", "ann", "Cy"], [0, 0, 0, 0], [0, 0, 1, 0]))
    edit = token(group["links"]["edit"])
    page = client.get(f"/new?group={edit}").get_data(as_text=True)
    chips = re.findall(r'value="chip-(\d+)"[^>]*>([^<]+)<', page)
    assert [name for _, name in chips] == ["Dee", "bob", "ann", "Cy"]  # the latest game's seats
    form = {"csrf_token": csrf_from(page), "group": edit, "first_dealer": "0", "preset": "oh-hell"}
    for chip in ("2", "0", "1"):  # ann, Dee, bob
        page = client.post("/new", data={**form,
                                         **{f"players-{i}": n for i, n in enumerate(_rows(page))},
                                         "action": f"chip-{chip}"}).get_data(as_text=True)
    assert _rows(page)[:3] == ["ann", "Dee", "bob"]
    assert 'aria-pressed="true">ann<' in page and 'aria-pressed="false">Cy<' in page
    started = client.post("/new", data={**form,
                                        **{f"players-{i}": n for i, n in enumerate(_rows(page))},
                                        "action": "start"})
    assert started.status_code == 302
    games = client.get(f"/api/groups/{edit}").get_json()["games"]
    assert games[-1]["players"] == ["ann", "Dee", "bob"] and not games[-1]["finished"]


def _rows(page: str) -> list[str]:
    return [value for value in re.findall(r'name="players-\d+" value="([^"]*)"', page) if value]


def test_a_new_game_with_a_read_only_group_link_is_refused_and_nothing_is_stored(
        app: Flask, client: FlaskClient) -> None:
    group = new_group(client)
    view = token(group["links"]["view"])
    page = client.get(f"/new?group={view}").get_data(as_text=True)
    assert "read-only link of a group" in page
    response = client.post("/new", data={"csrf_token": csrf_from(page), "group": view,
                                         "players-0": "Ann", "players-1": "Bob", "action": "start"})
    assert response.status_code == 422 and "read-only link of a group" in message(response)
    assert snapshot(app) == []


HOSTILE_NAMES = ["=HYPERLINK(\"http://x\")", "+1+2", "-3+4", "@SUM(A1)", "\tTab"]


def test_the_csv_files_hold_every_deal_and_no_cell_reads_as_a_formula(client: FlaskClient,
                                                                      start: Start) -> None:
    group = new_group(client, "=cmd|' /C calc'!A0")
    names = ["=HYPERLINK(\"http://x\")", "+1+2", "@SUM(A1)"]
    game = start(players=names, title="-2+3",
                 rules={"deal": "fixed", "max_cards": 1, "deals": 2, "scoring": "negative"},
                 deals=[{"bids": [1, 1, 0], "tricks": [1, 0, 0]},
                        {"bids": [0, 0, 0], "tricks": [0, 1, 0]}])
    add(client, group, game)
    view = token(group["links"]["view"])
    files = {}
    for kind in ("games", "deals", "players"):
        response = client.get(f"/gr/{view}/{kind}.csv")
        assert response.status_code == 200 and response.mimetype == "text/csv"
        assert "attachment" in response.headers["Content-Disposition"]
        files[kind] = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    for rows in files.values():
        for cell in (cell for row in rows for cell in row):
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell
    deals = files["deals"]
    assert deals[0] == ["game", "deal", "cards", "dealer", "player", "bid", "tricks", "made",
                        "points", "total"]
    assert len(deals) == 1 + 2 * 3
    assert deals[1][:8] == ["1", "1", "1", "'=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")",
                            "1", "1", "yes"]
    assert deals[1 + 3 + 1][4:8] == ["'+1+2", "0", "1", "no"]
    assert files["games"][1][2] == "'-2+3"
    assert {row[0] for row in files["players"][1:]} == {"'=HYPERLINK(\"http://x\")", "'+1+2",
                                                         "'@SUM(A1)"}


def test_a_player_page_shows_their_figures_best_games_and_the_hook(client: FlaskClient,
                                                                   start: Start) -> None:
    group = new_group(client)
    add(client, group, finished(start, ["Ann", "Bob", "Cy"], [1, 1, 0], [1, 0, 0],
                                title="Ann deals"))
    add(client, group, finished(start, ["Bob", "Ann", "Cy"], [1, 1, 0], [1, 0, 0],
                                title="Bob deals"))
    view = token(group["links"]["view"])
    page = text(client.get(f"/gr/{view}/players/ann").get_data(as_text=True))
    assert "Games 2, 1 won" in page and "Hit rate 50% (1 of 2 bids made)" in page
    assert ("Dealt 1 deal where the dealer may not make the bids add up to the cards, and made 1 "
            "of them: 100%") in page
    assert page.index("Ann deals") < page.index("Bob deals", page.index("Best games"))
    assert client.get(f"/gr/{view}/players/Nobody").status_code == 404
    assert client.get(f"/gr/{view}/players/%00").status_code == 404


def test_the_season_sheet_is_one_page_with_the_leaderboard(client: FlaskClient,
                                                           start: Start) -> None:
    group = new_group(client, "Friday club")
    for players in (["Ann", "Bob", "Cy"], ["Bob", "Cy", "Ann"], ["Cy", "Ann", "Bob"]):
        add(client, group, finished(start, players, [1, 1, 0], [1, 0, 0]))
    response = client.get(f"/gr/{token(group['links']['view'])}/season.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    reader = PdfReader(io.BytesIO(response.data))
    assert len(reader.pages) == 1
    words = reader.pages[0].extract_text()
    assert "Friday club" in words and "LEADERBOARD" in words and "RATINGS OVER THE GAMES" in words
    assert all(name in words for name in ("Ann", "Bob", "Cy"))


def test_a_deleted_game_leaves_its_group(client: FlaskClient, start: Start) -> None:
    group = new_group(client)
    game = finished(start, ["Ann", "Bob", "Cy"], [1, 1, 0], [1, 0, 0])
    add(client, group, game)
    response = game.client.post(f"/g/{game.token}/delete",
                                data={"csrf_token": csrf_from(game.page())})
    assert response.status_code == 302
    document = client.get(f"/api/groups/{token(group['links']['edit'])}").get_json()
    assert document["games"] == [] and document["players"] == []


def test_sql_statements_per_group_page_do_not_grow_with_its_games(app: Flask, client: FlaskClient,
                                                                  start: Start) -> None:
    group = new_group(client)
    view = token(group["links"]["view"])
    with app.app_context():
        statements: list[str] = []
        event.listen(db.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    counts = []
    for _ in range(2):
        for _ in range(3):
            add(client, group, finished(start, ["Ann", "Bob", "Cy"], [1, 1, 0], [1, 0, 0]))
        client.get(f"/gr/{view}")  # the figures are counted once per version of the group
        statements.clear()
        assert client.get(f"/gr/{view}").status_code == 200
        counts.append(len(statements))
    assert counts[0] == counts[1] <= 3


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_taking_out_any_game_and_putting_it_back_gives_the_same_figures(
        client: FlaskClient, start: Start, data: st.DataObject) -> None:
    group = new_group(client)
    people = ["Ann", "bob", "Cy", "DEE"]
    games = []
    for _ in range(data.draw(st.integers(2, 4), "games")):
        players = data.draw(st.permutations(people), "seats")[
            :data.draw(st.integers(2, 4), "players")]
        tricks = [0] * len(players)
        tricks[data.draw(st.integers(0, len(players) - 1), "taker")] = 1
        bids = [1, 1] + [0] * (len(players) - 2)  # 2 bid on 1 card: the dealer's hook is kept
        games.append(finished(start, players, bids, tricks))
        add(client, group, games[-1])
    edit = token(group["links"]["edit"])
    before = client.get(f"/api/groups/{edit}").get_json()
    out = data.draw(st.sampled_from(games), "taken out")
    csrf = csrf_from(client.get(f"/gr/{edit}").get_data(as_text=True))
    assert client.post(f"/gr/{edit}/remove",
                       data={"csrf_token": csrf, "game": out.view_token}).status_code == 302
    assert len(client.get(f"/api/groups/{edit}").get_json()["games"]) == len(games) - 1
    assert add(client, group, out).status_code == 200
    assert client.get(f"/api/groups/{edit}").get_json() == before


def test_play_again_keeps_the_tables_next_game_in_its_group(client: FlaskClient,
                                                            start: Start) -> None:
    game = finished(start, ["Ann", "Bob", "Cy"], [0, 0, 0], [1, 0, 0])
    group = new_group(client)
    assert add(client, group, game).status_code == 200
    response = game.post("/again")
    assert response.status_code == 302
    again = token(response.headers["Location"])
    games = client.get(f"/api/groups/{token(group['links']['edit'])}").get_json()["games"]
    assert [entry["links"]["edit"].rsplit("/", 1)[1] for entry in games] == [game.token, again]


def test_the_home_page_lists_the_groups_this_phone_opened_to_edit_or_to_follow(client: FlaskClient,
                                                                               app: Flask) -> None:
    friday, family = new_group(client, "Friday club"), new_group(client, "Family")
    # made through the API: not opened
    assert "Your groups" not in client.get("/").get_data(as_text=True)
    client.get(f"/gr/{token(friday['links']['edit'])}")
    client.get(f"/gr/{token(family['links']['view'])}")
    home = client.get("/").get_data(as_text=True)
    listed = re.findall(r'href="/gr/([^"]+)">\s*<strong class="game-title">([^<]+)</strong>', home)
    assert sorted(listed) == sorted([(token(friday["links"]["edit"]), "Friday club"),
                                     (token(family["links"]["view"]), "Family")])
    assert home.count("<em>read-only</em>") == 1
    other = app.test_client()  # another phone holds none of them
    assert "Your groups" not in other.get("/").get_data(as_text=True)
    page = client.get("/groups/new").get_data(as_text=True)
    started = client.post("/groups/new", data={"csrf_token": csrf_from(page), "name": "Club"})
    # listed at once
    assert token(started.headers["Location"]) in client.get("/").get_data(as_text=True)


def test_each_take_out_form_on_the_group_page_carries_this_phones_form_token(client: FlaskClient,
                                                                            start: Start) -> None:
    """The games' part of the page is made once per version of the group, for every phone; each
    phone's form token is put in its forms as a field, never shown as text."""
    group = new_group(client)
    game = finished(start, ["Ann", "Bob", "Cy"], [1, 1, 0], [1, 0, 0])
    add(client, group, game)
    edit = token(group["links"]["edit"])
    for _ in range(2):  # made, then kept
        page = client.get(f"/gr/{edit}").get_data(as_text=True)
        assert "&lt;input" not in page and "\x00" not in page
        forms = re.findall(rf'<form method="post" action="/gr/{edit}/remove"[^>]*>(.*?)</form>',
                           page, re.DOTALL)
        assert len(forms) == 1
        field = re.search(r'<input type="hidden" name="csrf_token" value="([^"]+)">', forms[0])
        assert field is not None
    response = client.post(f"/gr/{edit}/remove", data={"csrf_token": field.group(1),
                                                       "game": game.view_token})
    assert response.status_code == 302
    assert client.get(f"/api/groups/{edit}").get_json()["games"] == []


def test_the_games_csv_is_the_same_in_every_language(client: FlaskClient, start: Start) -> None:
    group = new_group(client)
    add(client, group, start(players=["Ann", "Bob", "Cy"],
                             rules={"preset": "up-and-down-the-river"}))
    add(client, group, finished(start, ["Ann", "Bob", "Cy"], [1, 1, 0], [1, 0, 0]))
    add(client, group, start(players=["Ann", "Bob", "Cy"], rules={"preset": "cooperative"}))
    view = token(group["links"]["view"])
    english = client.get(f"/gr/{view}/games.csv",
                         headers={"Accept-Language": "en"}).get_data(as_text=True)
    variants = [row[3] for row in csv.reader(io.StringIO(english))][1:]
    assert variants == ["Up and Down the River", "Oh Hell, house rules", "Cooperative"]
    for language in ("nl", "de", "fr", "es", "it", "pt"):
        for asked in ({"query_string": {"lang": language}},
                      {"headers": {"Accept-Language": language}}):
            response = client.get(f"/gr/{view}/games.csv", **asked)
            assert response.get_data(as_text=True) == english, (language, asked)


def test_this_phones_groups_are_one_tap_choices_for_a_game_and_at_its_end(client: FlaskClient,
                                                                          start: Start) -> None:
    """No link to paste: the groups this phone may edit are buttons on the game's "Add to a group"
    page and on its game-over screen; a group it only follows is not offered."""
    friday, family = new_group(client, "Friday club"), new_group(client, "Family")
    client.get(f"/gr/{token(friday['links']['edit'])}")
    client.get(f"/gr/{token(family['links']['view'])}")  # read-only: can't take games
    game = finished(start, ["Ann", "Bob", "Cy"], [1, 1, 0], [1, 0, 0])
    for page in (client.get(f"/g/{game.token}/group").get_data(as_text=True), game.page()):
        choices = re.findall(r'<button type="submit" name="link" value="([^"]+)"[^>]*>'
                             r'([^<]+)</button>', page)
        assert choices == [(token(friday["links"]["edit"]), "Friday club")]
    over = game.page()
    assert "Add to a group" in text(over) and f'action="/g/{game.token}/group"' in over
    done = client.post(f"/g/{game.token}/group", data={"csrf_token": csrf_from(over),
                                                       "link": choices[0][0]})
    assert (done.status_code == 302
            and done.headers["Location"] == f"/gr/{token(friday['links']['edit'])}")
    assert (client.get(f"/api/groups/{token(friday['links']['edit'])}").get_json()
            ["games"][0]["players"] == ["Ann", "Bob", "Cy"])
    over = game.page()
    assert (f'This game is in the group <a href="/gr/{token(friday["links"]["edit"])}">'
            "Friday club</a>.") in over
    assert 'name="link"' not in over
    other = client.application.test_client()  # another phone holds no group: nothing offered
    assert 'name="link" value=' not in other.get(f"/g/{game.token}/group").get_data(as_text=True)
