"""Security of the group routes, each found in the app's URL map (a group route added later is
covered): the read-only link of a group changes nothing and never shows an edit link, every
answer carries the security headers, only POST writes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webhelpers import Scorer, csrf_from, fill, groups_snapshot, message, snapshot, url_rules
from werkzeug.routing import Rule

Start = Callable[..., Scorer]
GROUP_ROUTES = [r for r in url_rules() if "group" in r.arguments]
GROUP_WRITES = [r for r in GROUP_ROUTES if "POST" in (r.methods or ())]
#: What each write route of a group takes, valid with the group's edit link.
FORMS: dict[str, dict[str, Any]] = {"groups.add": {"link": ""}, "groups.remove": {"game": ""}}


@pytest.fixture
def grouped(client: FlaskClient, start: Start) -> dict[str, Any]:
    """A group holding a finished game and a game being played, and a game in no group."""
    group = client.post("/api/groups", json={"name": "Friday club"}).get_json()
    edit, view = (group["links"][k].rsplit("/", 1)[1] for k in ("edit", "view"))
    games = [start(players=["Ann", "Bob", "Cy"],
                   rules={"deal": "fixed", "max_cards": 1, "deals": 1},
                   deals=[{"bids": [1, 1, 0], "tricks": [1, 0, 0]}]),
             start(players=["Ann", "Bob", "Cy"], rules={"max_cards": 3})]
    for game in games:
        assert client.post(f"/api/groups/{edit}/games",
                           json={"game": game.token}).status_code == 200
    loose = start(players=["Dee", "Eve"])
    return {"edit": edit, "view": view, "games": games, "loose": loose}


def _url(rule: Rule, group: str, token: str) -> str:
    return fill(rule, group=group, token=token, name="Ann")


def _form(rule: Rule, grouped: dict[str, Any]) -> dict[str, Any]:
    form = dict(FORMS.get(rule.endpoint, {}))
    if "link" in form:
        form["link"] = grouped["loose"].token
    if "game" in form:
        form["game"] = grouped["games"][0].view_token
    return form


@pytest.mark.parametrize("rule", [r for r in GROUP_WRITES if not r.rule.startswith("/api/")],
                         ids=str)
def test_the_read_only_link_of_a_group_is_refused_on_every_write_route_and_changes_nothing(
        app: Flask, client: FlaskClient, grouped: dict[str, Any], rule: Rule) -> None:
    csrf = csrf_from(client.get("/new").get_data(as_text=True))
    before, games = groups_snapshot(app), snapshot(app)
    response = client.post(_url(rule, grouped["view"], grouped["games"][0].token),
                           data={"csrf_token": csrf, **_form(rule, grouped)})
    assert response.status_code == 403
    assert message(response) == ("This is the read-only link of a group: it can show the group but "
                                 "not change it.")
    assert groups_snapshot(app) == before and snapshot(app) == games
    mine = client.post(_url(rule, grouped["edit"], grouped["games"][0].token),
                       data={"csrf_token": csrf, **_form(rule, grouped)})
    assert mine.status_code == 302, "with the edit link, the same form is a write"


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_the_group_api_has_no_write_reachable_with_a_read_only_link(
        app: Flask, client: FlaskClient, grouped: dict[str, Any], method: str) -> None:
    before = groups_snapshot(app)
    for rule in (r for r in GROUP_ROUTES if r.rule.startswith("/api/")):
        response = getattr(client, method)(_url(rule, grouped["view"], ""),
                                           json={"game": grouped["loose"].token})
        assert response.status_code in (403, 405) and response.get_json()["error"]
    assert groups_snapshot(app) == before


@pytest.mark.parametrize("rule", [r for r in GROUP_ROUTES if "GET" in (r.methods or ())], ids=str)
def test_no_get_route_of_a_group_changes_anything_nor_shows_an_edit_link_to_a_read_only_link(
        app: Flask, client: FlaskClient, grouped: dict[str, Any], rule: Rule) -> None:
    stranger = app.test_client()
    secrets = [grouped["edit"].encode(), *(game.token.encode() for game in grouped["games"])]
    before, games = groups_snapshot(app), snapshot(app)
    for who, group in ((client, grouped["edit"]), (stranger, grouped["view"])):
        for method in ("get", "head", "options"):
            with getattr(who, method)(_url(rule, group, grouped["games"][0].token)) as response:
                assert response.status_code < 500
                assert "'unsafe-inline'" not in response.headers["Content-Security-Policy"]
                assert response.headers["X-Content-Type-Options"] == "nosniff"
                if group == grouped["view"]:
                    assert not any(secret in response.data for secret in secrets), rule.rule
    assert groups_snapshot(app) == before and snapshot(app) == games


@pytest.mark.parametrize("rule", GROUP_WRITES, ids=str)
def test_head_options_and_get_on_a_group_write_route_store_nothing(
        app: Flask, client: FlaskClient, grouped: dict[str, Any], rule: Rule) -> None:
    before = groups_snapshot(app)
    for method in ("head", "options", "get"):
        with getattr(client, method)(_url(rule, grouped["edit"], grouped["loose"].token),
                                     query_string={"link": grouped["loose"].token,
                                                   "name": "X"}) as response:
            assert response.status_code < 500
    assert groups_snapshot(app) == before


def test_adding_a_game_needs_the_game_s_edit_link(app: Flask, client: FlaskClient,
                                                  grouped: dict[str, Any]) -> None:
    loose = grouped["loose"]
    before = groups_snapshot(app)
    refused = client.post(f"/api/groups/{grouped['edit']}/games", json={"game": f"https://x/v/{loose.view_token}"})
    assert refused.status_code == 403 and groups_snapshot(app) == before
    page = client.get(f"/gr/{grouped['edit']}").get_data(as_text=True)
    form = client.post(f"/gr/{grouped['edit']}/games", data={"csrf_token": csrf_from(page),
                                                             "link": loose.view_token})
    assert form.status_code == 403 and groups_snapshot(app) == before
    attach = client.post(f"/g/{loose.view_token}/group", data={"csrf_token": csrf_from(page),
                                                               "link": grouped["edit"]})
    assert attach.status_code == 403 and groups_snapshot(app) == before
