"""The JSON API (GAME-FILE.md): a game file in, the export out; a refused file stores nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules.bidding import allowed_bids
from scorekeeper.rules.presets import make_rules
from scorekeeper.rules.scoring import SYSTEMS
from scorekeeper.rules.variants import PRESETS
from scorekeeper.store.db import db
from scorekeeper.store.games import Game

FOUR = ["Ann", "Bob", "Cy", "Dee"]


def game_file(**fields: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {"format": "oh-hell-scorekeeper/1", "players": FOUR,
                           "rules": {"max_cards": 3}}
    doc.update(fields)
    return doc


def stored_games(app: Flask) -> int:
    with app.app_context():
        return len(db.session.execute(db.select(Game)).scalars().all())


def test_post_game_returns_201_with_export_and_links(client: FlaskClient) -> None:
    doc = game_file(deals=[{"bids": [1, 0, 1, 0], "tricks": [1, 1, 1, 0]}])
    response = client.post("/api/games", json=doc)
    assert response.status_code == 201
    body = response.get_json()
    # common scoring (oh-hell): made → 10 + t, missed → t; Bob bid 0 took 1.
    assert body["deals"][0]["points"] == [11, 1, 11, 10]
    assert body["deals"][0]["announce"] == "under by 1"
    assert response.headers["Location"] == body["links"]["api"]
    assert client.get(body["links"]["api"]).get_json()["deals"] == body["deals"]


def test_game_token_is_unguessable(client: FlaskClient) -> None:
    links = client.post("/api/games", json=game_file()).get_json()["links"]
    token = links["api"].rsplit("/", 1)[1]
    assert len(token) >= 22  # ≥ 128 bits in URL-safe base64


def test_view_token_export_hides_the_edit_link(app: Flask, client: FlaskClient) -> None:
    client.post("/api/games", json=game_file())
    with app.app_context():
        game = db.session.execute(db.select(Game)).scalar_one()
        view_token, edit_token = game.view_token, game.token
    body = client.get(f"/api/games/{view_token}").get_json()
    assert edit_token not in str(body)
    assert "edit" not in body["links"]


ADDRESSES = ["http://localhost", "https://club.example:8443", "http://localhost/ohhell"]


def test_links_are_the_pages_of_the_game_at_the_address_it_was_reached_at(
        app: Flask, client: FlaskClient) -> None:
    # The links are built once per address and then reused: each address keeps its own.
    for base in ADDRESSES + ADDRESSES:
        response = client.post("/api/games", json=game_file(), base_url=base)
        links = response.get_json()["links"]
        token = links["edit"].rsplit("/", 1)[1]
        with app.app_context():
            view = db.session.execute(
                db.select(Game.view_token).where(Game.token == token)).scalar_one()
        join, seats = links.pop("join"), links.pop("seats")
        assert links == {"api": f"{base}/api/games/{token}", "edit": f"{base}/g/{token}",
                         "view": f"{base}/v/{view}", "sheet": f"{base}/g/{token}/sheet.pdf"}
        # the join link and each player's seat link, on the same address (SEATS.md)
        assert join.startswith(f"{base}/j/{view}") and len(seats) == len(game_file()["players"])
        assert all(seat.startswith(f"{base}/s/{view}") for seat in seats)
        assert response.headers["Location"] == links["api"]
        assert client.get(f"/api/games/{view}", base_url=base).get_json()["links"] == {
            "api": f"{base}/api/games/{view}", "view": f"{base}/v/{view}",
            "sheet": f"{base}/g/{view}/sheet.pdf"}


@pytest.mark.parametrize(
    ("doc", "status", "message"),
    [
        (game_file(rules={"preset": "no-such"}), 422, "Unknown preset 'no-such'"),
        (game_file(deals=[{"bids": [1, 1, 0, 1]}]), 422, "deal 1: Ann deals and can't bid 1"),
        (game_file(deals=[{"bids": [1, 0, 1, 0], "tricks": [1, 1, 1, 1]}]), 422,
         "deal 1: The tricks add up to 4"),
        (game_file(players=["Ann"]), 422, "2 to 10 players"),
        (game_file(surprise=1), 422, "unknown field 'surprise'"),
        ([1, 2, 3], 422, "JSON object"),
    ],
)
def test_invalid_file_is_refused_and_nothing_stored(
    app: Flask, client: FlaskClient, doc: Any, status: int, message: str
) -> None:
    response = client.post("/api/games", json=doc)
    assert response.status_code == status
    assert message in response.get_json()["error"]
    assert stored_games(app) == 0


def test_api_needs_json(client: FlaskClient) -> None:
    response = client.post("/api/games", data="players=Ann",
                           content_type="application/x-www-form-urlencoded")
    assert response.status_code == 415
    assert "application/json" in response.get_json()["error"]


def test_broken_json_is_a_clear_400(client: FlaskClient) -> None:
    response = client.post("/api/games", data="{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.get_json() == {
        "error": "the body is not valid JSON: Expecting property name enclosed in double quotes "
                 "(line 1)"}


def test_unknown_token_is_404_json(client: FlaskClient) -> None:
    response = client.get("/api/games/nothing-here")
    assert response.status_code == 404
    assert "error" in response.get_json()


def test_api_responses_carry_security_headers(client: FlaskClient) -> None:
    response = client.post("/api/games", json=game_file())
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert "frame-ancestors 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["Referrer-Policy"] == "same-origin"


def _random_game(rng: random.Random, preset: str, scoring: str | None) -> dict[str, Any] | None:
    """A random valid game file: bids drawn from the rules core's allowed bids."""
    players = rng.randint(3, 6)
    rules: dict[str, Any] = {"preset": preset}
    if scoring:
        rules["scoring"] = scoring
    try:
        resolved = make_rules(rules, players)
    except ValueError:
        return None
    sizes = resolved.sizes or tuple((resolved.max_cards, False) for _ in range(3))
    deals = []
    for index, (cards, _) in enumerate(sizes[:4]):
        if resolved.deal == "manual":
            cards = rng.randint(1, min(3, resolved.max_cards))
        dealer = index % players
        order = [(dealer + 1 + i) % players for i in range(players)]
        bids = [0] * players
        earlier: list[int] = []
        for seat in order:
            choice = rng.choice(allowed_bids(resolved.bidding, cards, earlier,
                                             dealer=seat == dealer))
            bids[seat] = choice
            earlier.append(choice)
        tricks = [0] * players
        for _ in range(cards):
            tricks[rng.randrange(players)] += 1
        if resolved.cooperative:
            tricks = list(bids)  # every deal made, so the schedule moves on without re-deals
        deal: dict[str, Any] = {"bids": bids, "tricks": tricks}
        if resolved.deal == "manual":
            deal["cards"] = cards
        deals.append(deal)
    return {"players": [f"P{i}" for i in range(players)], "rules": rules, "deals": deals}


def _expected_points(system: str, b: int, t: int, n: int, p: int) -> float:
    """RULES.md §3, written out independently of the code under test."""
    d = abs(t - b)
    made = b == t
    table = {
        "common": (t + 10, t),
        "exact": (10 + t, 0),
        "exact-penalty": (10 + b, -b),
        "progressive-penalty": (10 + b, -(b + 10 * d)),
        "ten-per-trick": (10 if b == 0 else 10 * b, -10 * d),
        "negative": (0, d * (d + 1) // 2),
        "montreal": (10 + 2 * t, 0),
    }
    made_score, missed_score = table[system]
    return made_score if made else missed_score


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_valid_files_of_every_preset_score_as_the_rules_say(client: FlaskClient,
                                                                   preset: str) -> None:
    rng = random.Random(preset)
    checked = 0
    for _ in range(12):
        doc = _random_game(rng, preset, None)
        if doc is None:
            continue
        response = client.post("/api/games", json=doc)
        assert response.status_code == 201, response.get_json()
        body = response.get_json()
        scoring = make_rules(doc["rules"], len(doc["players"])).scoring
        running = [0.0] * len(doc["players"])
        for deal in body["deals"]:
            for seat, (b, t) in enumerate(zip(deal["bids"], deal["tricks"])):
                if scoring is not None and scoring.id in {
                    "common", "exact", "exact-penalty", "progressive-penalty", "ten-per-trick",
                    "negative", "montreal"
                }:
                    assert deal["points"][seat] == _expected_points(scoring.id, b, t, deal["cards"],
                                                                    len(doc["players"]))
                running[seat] += deal["points"][seat]
            assert deal["totals"] == running
        checked += 1
    assert checked


@pytest.mark.parametrize("scoring", sorted(SYSTEMS))
def test_random_valid_files_of_every_system_are_accepted(client: FlaskClient, scoring: str) -> None:
    rng = random.Random(scoring)
    for _ in range(8):
        doc = _random_game(rng, "oh-hell", scoring)
        assert doc is not None
        response = client.post("/api/games", json=doc)
        assert response.status_code == 201, response.get_json()
        if scoring in {"common", "exact", "exact-penalty", "progressive-penalty", "ten-per-trick",
                       "negative", "montreal"}:
            for deal in response.get_json()["deals"]:
                expected = [
                    _expected_points(scoring, b, t, deal["cards"], len(doc["players"]))
                    for b, t in zip(deal["bids"], deal["tricks"])
                ]
                assert deal["points"] == expected


@pytest.mark.parametrize("deal_number", [1, 2, 3])
def test_a_refused_deal_is_named_by_its_number(client: FlaskClient, deal_number: int) -> None:
    deals: list[dict[str, Any]] = [{"bids": [1, 0, 1, 0], "tricks": [1, 1, 1, 0]}] * 3
    bad = list(deals)
    bad[deal_number - 1] = {"bids": [1, 0, 1, 0], "tricks": [3, 1, 0, 0]}
    response = client.post("/api/games", json=game_file(rules={"max_cards": 3, "deal": "fixed",
                                                               "bidding": "free"}, deals=bad))
    assert response.status_code == 422
    assert response.get_json()["error"].startswith(f"deal {deal_number}:")
