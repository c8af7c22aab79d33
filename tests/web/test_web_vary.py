"""Shared caches keep one copy per language: every answer whose words follow the language says so
(``Vary: Cookie, Accept-Language``), on every route of the URL map, so a route added later is
covered."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask.testing import FlaskClient
from webhelpers import Scorer, fill, url_rules
from werkzeug.routing import Rule
from werkzeug.test import TestResponse

#: What a page, a sheet or a header says, the same on any database: `make test` runs it on SQLite
#: only.
pytestmark = pytest.mark.rendering

Start = Callable[..., Scorer]
#: A game in its second deal with a finished first one, in a group: every route has something to
#: show.
GAME = {"players": ["Ann", "Bob", "Cy"], "rules": {"max_cards": 3},
        "deals": [{"bids": [0, 1, 1], "tricks": [1, 1, 1]}, {"bids": [None, None, 1]}]}
#: Query strings that make a GET route do its real work.
QUERIES = {"sheets.blank": {"players": "Ann,Bob,Cy"}, "play.state": {"v": "0"},
           "games.example": {"players-0": "Ann", "players-1": "Bob", "rules-scoring": "exact"}}
#: English, German, English again: see follows_the_language.
LANGUAGES = ("en", "de", "en")


def asked(client: FlaskClient, method: str, url: str, query: dict[str, str],
          language: str) -> TestResponse:
    """The answer to one request made in ``language`` (the browser's preference), read whole."""
    response = client.open(url, method=method, query_string=query,
                           json={"x": 1} if method == "POST" else None,
                           headers={"Accept-Language": language})
    response.get_data()
    return response


def alike(one: TestResponse, other: TestResponse) -> bool:
    return (one.get_data(), one.status_code, one.headers.get("Location")) == (
        other.get_data(), other.status_code, other.headers.get("Location"))


def follows_the_language(answers: list[TestResponse]) -> bool:
    """Whether the same request had another answer in German than in English, and the same one in
    English both times: an answer may change by itself between two requests (a backup says the
    second it was made), and that is no language."""
    english, german, again = answers
    return alike(english, again) and not alike(english, german)


ROUTES = [(rule, method) for rule in url_rules()
          for method in sorted((rule.methods or set()) & {"GET", "POST"})]


@pytest.mark.parametrize(("rule", "method"), ROUTES, ids=[f"{m} {r}" for r, m in ROUTES])
def test_every_answer_whose_words_follow_the_language_varies_by_it(
        client: FlaskClient, start: Start, rule: Rule, method: str) -> None:
    scorer = start(**GAME)
    group = client.post("/api/groups",
                        json={"name": "Friday"}).get_json()["links"]["edit"].rsplit("/", 1)[1]
    assert client.post(f"/api/groups/{group}/games", json={"game": scorer.token}).status_code == 200
    for token, group_token in ((scorer.token, group), (scorer.view_token, "no-such-group")):
        url = fill(rule, token=token, group=group_token, number=1, index=0, code="de",
                   filename="css/app.css")
        answers = [asked(client, method, url, QUERIES.get(rule.endpoint, {}), code)
                   for code in LANGUAGES]
        if follows_the_language(answers):
            for answer in answers:
                assert {"Cookie", "Accept-Language"} <= set(answer.vary), (
                    answer.status_code, answer.mimetype)


@pytest.mark.parametrize("url", ["/manifest.webmanifest", "/api/games/no-such-game"])
def test_the_manifest_and_a_json_error_are_in_the_browser_s_language(
        client: FlaskClient, url: str) -> None:
    answers = [asked(client, "GET", url, {}, code) for code in LANGUAGES]
    assert follows_the_language(answers)
