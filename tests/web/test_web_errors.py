"""Error pages: every refusal is a page with a sentence (JSON under /api/), never a 500."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask.testing import FlaskClient
from webhelpers import Scorer, csrf_from, text

Start = Callable[..., Scorer]


@pytest.mark.parametrize(("method", "url", "status", "message"), [
    ("get", "/no-such-page", 404, "Not found"),
    ("get", "/g/not-a-game", 404, "No game has this link"),
    ("get", "/v/not-a-game", 404, "No game has this link"),
    ("get", "/g/" + "x" * 300, 404, "No game has this link"),
    # PostgreSQL text can't hold NUL: never sent to it
    ("get", "/g/%00", 404, "No game has this link"),
    ("get", "/v/ab%00cd/state", 404, "No game has this link"),
    ("get", "/g/%F0%9F%82%A1/sheet.pdf", 404, "No game has this link"),
    ("put", "/new", 405, "Not like that"),
    ("get", "/g/not-a-game/bid", 405, "Not like that"),
])
def test_error_pages_are_html_with_a_message(client: FlaskClient, method: str, url: str,
                                             status: int, message: str) -> None:
    response = getattr(client, method)(url)
    assert response.status_code == status
    assert response.mimetype == "text/html"
    assert message in text(response.get_data(as_text=True))


def test_a_missing_csrf_token_is_a_400_page_that_says_nothing_changed(start: Start) -> None:
    game = start()
    response = game.client.post(game.url + "/bid",
                                data={"version": game.version(), "seat": 1, "bid": 1})
    assert response.status_code == 400
    assert ("The form expired or was sent from elsewhere; nothing was changed — reload and try "
            "again.") in text(response.get_data(as_text=True))
    assert game.export()["deals"] == []


def test_a_wrong_game_token_with_a_good_form_is_a_404(start: Start) -> None:
    game = start()
    csrf = csrf_from(game.page())
    response = game.client.post("/g/not-a-game/bid",
                                data={"csrf_token": csrf, "version": 1, "seat": 1, "bid": 1})
    assert response.status_code == 404
    assert "No game has this link" in text(response.get_data(as_text=True))


def test_too_large_an_upload_is_a_413_page(client: FlaskClient) -> None:
    response = client.post("/import", data={"text": "x" * (1024 * 1024 + 10)})
    assert response.status_code == 413
    assert "larger than 1 MB; nothing was changed" in text(response.get_data(as_text=True))


def test_api_errors_stay_json(client: FlaskClient) -> None:
    response = client.get("/api/games/not-a-game")
    assert response.status_code == 404 and response.get_json() == {"error": "no game has this link"}
    assert client.get("/api/nothing-here").get_json()["error"]
