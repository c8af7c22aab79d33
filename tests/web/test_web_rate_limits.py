"""Rate limits per client address on what creates or costs (new games, imports, groups, sheets);
entering scores in a game, and its pages, are never limited. The rest of the suite runs without
limits (tests/conftest.py); here they are on, made small."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale
from webhelpers import FOUR, Scorer, closed, csrf_from, message, snapshot, text
from werkzeug.test import TestResponse

from scorekeeper import create_app
from scorekeeper.rules.errors import ValueRefused
from scorekeeper.rules.words import _
from scorekeeper.web import ratelimits

GAME = {"players": ["Ann", "Bob", "Cy"], "rules": {"max_cards": 3}}


AppMaker = Callable[..., Flask]


@pytest.fixture
def limited_app(database_url: str) -> Iterator[AppMaker]:
    """Make the app with every kind limited to ``limit`` per client address (closed after the
    test)."""
    made: list[Flask] = []

    def make(limit: str = "2 per minute", **config: object) -> Flask:
        made.append(create_app({"TESTING": True, "SECRET_KEY": "test",
                                "SQLALCHEMY_DATABASE_URI": database_url,
                                "RATE_LIMITS": dict.fromkeys(ratelimits.LIMITS, limit), **config}))
        return made[-1]

    yield make
    for app in made:
        closed(app)


@pytest.fixture
def limited(limited_app: AppMaker) -> Flask:
    return limited_app()


def new_game_form(client: FlaskClient, action: str = "start") -> TestResponse:
    csrf = csrf_from(client.get("/new").get_data(as_text=True))
    return client.post("/new", data={"csrf_token": csrf, "players-0": "Ann", "players-1": "Bob",
                                     "players-2": "Cy", "first_dealer": "0", "preset": "oh-hell",
                                     "action": action})


def upload(client: FlaskClient) -> TestResponse:
    csrf = csrf_from(client.get("/import").get_data(as_text=True))
    file = (io.BytesIO(json.dumps(GAME).encode()), "game.json")
    return client.post("/import", data={"csrf_token": csrf, "file": file},
                       content_type="multipart/form-data")


def new_group(client: FlaskClient) -> TestResponse:
    csrf = csrf_from(client.get("/groups/new").get_data(as_text=True))
    return client.post("/groups/new", data={"csrf_token": csrf, "name": "Friday club"})


#: Each limited request, as a phone or a script sends it, and the kind it counts as.
REQUESTS: dict[str, tuple[str, Callable[[FlaskClient], TestResponse]]] = {
    "a new game through the API": ("games", lambda c: c.post("/api/games", json=GAME)),
    "a new game from the form": ("games", new_game_form),
    "an import": ("imports", upload),
    "a new group through the API": ("groups",
                                    lambda c: c.post("/api/groups", json={"name": "Friday club"})),
    "a new group from the form": ("groups", new_group),
    "a blank sheet": ("sheets", lambda c: c.get("/sheets/blank.pdf?players=4")),
}


@pytest.mark.parametrize("asked", REQUESTS)
def test_a_limit_refuses_past_its_count_and_says_when_to_try_again(
        limited: Flask, asked: str) -> None:
    kind, send = REQUESTS[asked]
    client = limited.test_client()
    assert [send(client).status_code < 400 for _ in range(2)] == [True, True]
    before = snapshot(limited)
    refused = send(client)
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    said = message(refused)
    with limited.test_request_context():
        assert said.startswith(_(ratelimits.REFUSALS[kind]))
    assert "Try again in" in said and ("second" in said or "minute" in said)
    if refused.is_json:
        assert 1 <= refused.get_json()["retry_after"] <= 60
    else:
        assert "Scores can still be entered in the games already started." in said
        assert "Too many at once" in text(refused.get_data(as_text=True))
    assert snapshot(limited) == before  # a refused request stores nothing


def test_the_form_and_the_api_count_new_games_together(limited: Flask) -> None:
    client = limited.test_client()
    assert client.post("/api/games", json=GAME).status_code == 201
    assert new_game_form(client).status_code == 302
    assert client.post("/api/games", json=GAME).status_code == 429
    assert new_game_form(client).status_code == 429


def test_previewing_and_arranging_a_new_game_count_nothing(limited: Flask) -> None:
    client = limited.test_client()
    for action in ("preview", "add", "preview", "remove-2", "preview"):
        assert new_game_form(client, action).status_code == 200
    assert [new_game_form(client).status_code for _ in range(3)] == [302, 302, 429]


def test_a_game_s_sheet_is_limited_as_sheets(limited_app: AppMaker) -> None:
    app = limited_app(RATE_LIMITS={"sheets": "1 per minute"})
    client = app.test_client()
    sheet = client.post("/api/games", json=GAME).get_json()["links"]["sheet"]
    assert client.get(sheet).status_code == 200
    assert client.get("/sheets/blank.pdf?players=4").status_code == 429
    assert client.get(sheet).status_code == 429


def test_entering_scores_and_opening_a_game_are_never_limited(limited_app: AppMaker) -> None:
    app = limited_app("1 per hour")
    client = app.test_client()
    links = client.post("/api/games",
                        json={"players": FOUR, "rules": {"max_cards": 3}}).get_json()["links"]
    game = Scorer(client, links["edit"].rsplit("/", 1)[1], links["view"].rsplit("/", 1)[1])
    # 3 cards, then 2
    for bids, tricks in (((1, 1, 0, 0), (1, 1, 1, 0)), ((1, 0, 0, 0), (0, 0, 1, 1))):
        game.bid(*bids)
        assert game.tricks(*tricks).status_code == 302
    for url in (game.url, f"/v/{game.view_token}", f"/api/games/{game.token}",
                f"/g/{game.token}/plan", "/"):
        assert all(client.get(url).status_code == 200 for _ in range(5)), url
    assert len(game.export()["deals"]) == 2
    assert client.post("/api/games", json=GAME).status_code == 429  # while new games are refused


@pytest.mark.parametrize("code", ["de", "fr", "nl"])
def test_the_refusal_is_in_the_phone_s_language(limited: Flask, code: str) -> None:
    client = limited.test_client()
    for _made in range(2):
        client.post("/api/games", json=GAME)
    page = client.post(f"/api/games?lang={code}", json=GAME)
    with limited.test_request_context(), force_locale(code):
        translated = _(ratelimits.REFUSALS["games"])
    assert translated != ratelimits.REFUSALS["games"]
    assert page.status_code == 429 and message(page).startswith(translated)
    client.set_cookie("lang", code)
    form = new_game_form(client)
    assert form.status_code == 429 and translated in message(form)
    assert "Try again" not in message(form)


FORWARDED = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "cards.example.org"}


def test_behind_a_proxy_each_client_address_has_its_own_count(limited_app: AppMaker) -> None:
    client = limited_app(PROXY_HOPS="1").test_client()
    first, second = ({**FORWARDED, "X-Forwarded-For": address}
                     for address in ("10.0.0.7", "10.0.0.8"))
    assert [client.post("/api/groups", json={"name": "A"}, headers=first).status_code
            for _ in range(3)] == [201, 201, 429]
    assert client.post("/api/groups", json={"name": "B"}, headers=second).status_code == 201


def test_without_a_proxy_a_forwarded_address_does_not_escape_the_limit(
        limited_app: AppMaker) -> None:
    client = limited_app().test_client()
    codes = [client.post("/api/groups", json={"name": "A"},
                         headers={"X-Forwarded-For": f"10.0.0.{n}"}).status_code
             for n in range(3)]
    assert codes == [201, 201, 429]


def test_the_limits_can_be_turned_off(limited_app: AppMaker) -> None:
    client = limited_app(RATELIMIT_ENABLED="no").test_client()
    assert all(client.post("/api/groups", json={"name": "A"}).status_code == 201 for _ in range(5))


@pytest.mark.parametrize("setting", ["maybe", "2", ""])
def test_a_limits_switch_that_is_no_yes_or_no_stops_the_app_with_its_name(
        limited_app: AppMaker, setting: str) -> None:
    with pytest.raises(ValueRefused, match="RATELIMIT_ENABLED"):
        limited_app(RATELIMIT_ENABLED=setting)


@pytest.mark.parametrize(("uri", "storage"), [("memory://", "MemoryStorage"),
                                              ("redis://localhost:6379", "RedisStorage"),
                                              ("memcached://localhost:11211", "MemcachedStorage")])
def test_the_counts_are_kept_where_the_storage_setting_says(limited_app: AppMaker, uri: str,
                                                            storage: str) -> None:
    app = limited_app(RATELIMIT_STORAGE_URI=uri)
    [limiter] = app.extensions["limiter"]
    assert type(limiter.storage).__name__ == storage


def start_request(client: FlaskClient, edit: str, how: str) -> TestResponse:
    """Start an event's next round from the director's page or through the API."""
    if how == "page":
        csrf = csrf_from(client.get(f"/e/{edit}").get_data(as_text=True))
        return client.post(f"/e/{edit}/start", data={"csrf_token": csrf})
    return client.post(f"/api/events/{edit}/rounds", json={})


@pytest.mark.parametrize("how", ["page", "api"])
def test_starting_a_round_counts_each_of_its_tables_as_a_new_game(
        limited_app: AppMaker, how: str) -> None:
    """Finding 7 of the club nights' review: three 400-player nights and their first rounds made 300
    games from one address in 0.6 s, and a new game right after was still welcome."""
    app = limited_app("10 per minute")
    client = app.test_client()
    names = [f"P{n}" for n in range(13)]  # three tables
    event = client.post("/api/events",
                        json={"name": "Club night", "players": names, "rounds": 3, "seed": 1})
    assert event.status_code == 201
    edit = event.get_json()["links"]["edit"].rsplit("/", 1)[1]
    assert [client.post("/api/games", json=GAME).status_code for _game in range(8)] == [201] * 8
    before = snapshot(app)
    refused = start_request(client, edit, how)
    assert refused.status_code == 429 and refused.headers["Retry-After"]
    said = refused.get_json()["error"] if how == "api" else message(refused)
    assert said.startswith(
        "Too many new games have been started from this network in a short time.")
    assert snapshot(app) == before  # no game, no round

    fresh = limited_app("10 per minute").test_client()
    other = fresh.post("/api/events",
                       json={"name": "Club night", "players": names, "rounds": 3, "seed": 1})
    edit = other.get_json()["links"]["edit"].rsplit("/", 1)[1]
    assert start_request(fresh, edit, how).status_code in (201, 302)
    assert ([fresh.post("/api/games", json=GAME).status_code for _game in range(8)]
            == [201] * 7 + [429])


def test_a_refused_start_counts_no_game(limited_app: AppMaker) -> None:
    app = limited_app("10 per minute")
    client = app.test_client()
    event = client.post("/api/events",
                        json={"name": "Club night", "players": [f"P{n}" for n in range(13)],
                              "rounds": 1, "seed": 1}).get_json()
    edit = event["links"]["edit"].rsplit("/", 1)[1]
    assert client.post(f"/api/events/{edit}/rounds", json={"tables": [["P1"]]}).status_code == 422
    assert client.post(f"/api/events/{edit}/rounds", json={}).status_code == 201
    assert client.post(f"/api/events/{edit}/rounds", json={}).status_code == 409
    assert ([client.post("/api/games", json=GAME).status_code for _game in range(8)]
            == [201] * 7 + [429])


def test_the_largest_nights_round_starts_within_the_default_limits(database_url: str) -> None:
    """100 tables at once: one round of the largest night (EVENTS.md, "Limits") fits the limit on
    new games a minute, which counts them."""
    limited = create_app({"TESTING": True, "SECRET_KEY": "test",
                          "SQLALCHEMY_DATABASE_URI": database_url})
    client = limited.test_client()
    event = client.post("/api/events",
                        json={"name": "Big night", "players": [f"Player {n}" for n in range(400)],
                              "rounds": 2, "seed": 1}).get_json()
    edit = event["links"]["edit"].rsplit("/", 1)[1]
    started = client.post(f"/api/events/{edit}/rounds", json={})
    assert started.status_code == 201 and len(started.get_json()["played"][0]["tables"]) == 100
    closed(limited)


def test_a_club_night_s_pdfs_count_against_the_limit_on_sheets(limited_app: AppMaker) -> None:
    """Issue 29, finding 2: 33 requests each of a night's table cards and its results sheet were all
    answered from one address, while a game's sheet was refused from the 31st on. With the default
    limit on sheets (30 a minute), cards and results count together, the game's sheets with them."""
    app = limited_app(ratelimits.LIMITS["sheets"])
    client = app.test_client()
    event = client.post("/api/events",
                        json={"name": "Club night", "players": [f"P{n}" for n in range(13)],
                              "rounds": 2, "seed": 1}).get_json()
    edit, view = (event["links"][kind].rsplit("/", 1)[1] for kind in ("edit", "view"))
    assert client.post(f"/api/events/{edit}/rounds", json={}).status_code == 201
    pdfs = [f"/e/{edit}/cards.pdf", f"/e/{view}/results.pdf", f"/e/{edit}/results.pdf",
            f"/e/{edit}/cards.pdf?paper=letter"]
    answered = [client.get(pdfs[n % len(pdfs)]).status_code for n in range(30)]
    assert answered == [200] * 30
    for path in pdfs:
        refused = client.get(path)
        assert refused.status_code == 429 and refused.headers["Retry-After"]
        assert message(refused).startswith(
            "Too many printable sheets have been asked for from this network")
    assert client.get("/sheets/blank.pdf?players=4").status_code == 429
    assert client.get(f"/e/{view}").status_code == 200  # the night's pages are never limited
