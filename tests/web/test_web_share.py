"""Sharing: the edit and read-only links as QR codes, the read-only page and its live state."""

from __future__ import annotations

import re
from collections.abc import Callable

from flask.testing import FlaskClient
from webhelpers import Scorer, text

Start = Callable[..., Scorer]


def test_the_share_page_shows_both_links_as_inline_qr_codes(start: Start) -> None:
    game = start()
    page = game.client.get(game.url + "/share").get_data(as_text=True)
    assert page.count('<svg viewBox="0 0 ') == 2
    assert f"http://localhost/v/{game.view_token}" in page and f"http://localhost/g/{game.token}" in page


def test_the_read_only_page_shows_the_game_and_no_form(start: Start) -> None:
    game = start(rules={"max_cards": 3})
    game.bid(1, 1)
    page = game.client.get(f"/v/{game.view_token}").get_data(as_text=True)
    assert "Read-only" in page and "Deal 1 of 5" in text(page)
    assert "<form" not in page and game.token not in page
    assert f'data-state="/v/{game.view_token}/state"' in page and "js/view.js" in page


def test_the_state_endpoint_sends_the_board_only_when_the_game_changed(start: Start) -> None:
    game = start(rules={"max_cards": 3})
    url = f"/v/{game.view_token}/state"
    first = game.client.get(url).get_json()
    assert "Deal 1 of 5" in text(first["html"]) and game.token not in first["html"]
    assert game.client.get(url, query_string={"v": first["version"]}).get_json() == {"version": first["version"]}
    game.bid(2)
    changed = game.client.get(url, query_string={"v": first["version"]}).get_json()
    assert changed["version"] == first["version"] + 1 and "Bids 2 for 3 tricks" in text(changed["html"])


def test_the_edit_page_of_a_read_only_link_redirects_to_the_read_only_page(start: Start) -> None:
    game = start()
    response = game.client.get(f"/g/{game.view_token}")
    assert response.status_code == 302 and response.location.endswith(f"/v/{game.view_token}")
    assert game.client.get(f"/g/{game.view_token}/share").status_code == 403
    assert game.client.get(f"/g/{game.view_token}/export.json").status_code == 403


def test_every_page_keeps_to_the_content_security_policy(start: Start, client: FlaskClient) -> None:
    game = start(players=["Ann", "Bob", "Cy"], rules={"max_cards": 2}, stakes={"per_point": "1"})
    game.bid(1, 0, 0)
    game.tricks(0, 1, 1)
    pages = ["/", "/new", "/import", game.url, game.url + "/share", game.url + "/end", game.url + "/deal/1",
             game.url + "/delete", f"/v/{game.view_token}", "/no-such-page"]
    for url in pages:
        response = client.get(url)
        page = response.get_data(as_text=True)
        assert "script-src 'self'" in response.headers["Content-Security-Policy"]
        assert not re.search(r"\sstyle=", page), url
        assert not re.search(r"<script(?![^>]*\ssrc=)", page), url
        assert not re.search(r"\son[a-z]+=", page), url
        assert "<style" not in page, url
