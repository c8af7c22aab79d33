"""Sharing: the edit and read-only links as QR codes, the read-only page and its live state."""

from __future__ import annotations

import re
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Self

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webhelpers import Scorer, scanned, svg_picture, terminal_picture, text

from scorekeeper.web import address, live, qr

Start = Callable[..., Scorer]


def test_the_share_page_shows_both_links_as_inline_qr_codes(start: Start) -> None:
    game = start()
    page = game.client.get(game.url + "/share").get_data(as_text=True)
    codes = re.findall(r'<svg viewBox="0 0 \d+ \d+" class="qr-code"[^>]*>.*?</svg>', page)
    view, edit = f"http://localhost/v/{game.view_token}", f"http://localhost/g/{game.token}"
    # as a phone's camera reads them
    table = game.export()["links"]
    assert [scanned(svg_picture(code)) for code in codes] == [
        [view], [table["join"]], *[[seat] for seat in table["seats"]], [edit]]
    assert view in page and edit in page


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
    assert (game.client.get(url, query_string={"v": first["version"]}).get_json()
            == {"version": first["version"], "again": live.EVERY_MS})
    game.bid(2)
    changed = game.client.get(url, query_string={"v": first["version"]}).get_json()
    assert (changed["version"] == first["version"] + 1
            and "Bids 2 for 3 tricks" in text(changed["html"]))


@pytest.mark.parametrize(("rules", "steps", "news"), [
    ({}, [("bid", 1)], "Deal 1: Bob bid 1 · Cy bids next"),
    ({}, [("bid", 1, 1, 0, 0)], "Deal 1: Ann bid 0 · the tricks next"),
    ({}, [("bid", 1, 1, 0, 0), ("tricks", 1, 1, 1, 0)], "Deal 1 scored"),
    ({"deal": "custom", "sequence": "3NT-2"}, [("trump", "NT")], "Deal 1: no trump"),
    ({"spades_double": True}, [("trump", "H")], "Deal 1: ♥ trump"),
    ({"preset": "british-oh-hell"}, [("bids", 1, 1, 0, 0)],
     "Deal 1: the bids are in · the tricks next"),
    ({"preset": "cooperative"}, [("bid", 1, 1, 0, 1), ("tricks", 0, 2, 1, 0)],
     "Deal 1 missed: it is dealt again"),
    ({"max_cards": 1, "deal": "down"}, [("bid", 0, 0, 0, 0), ("tricks", 1, 0, 0, 0)], "Game over"),
], ids=["bid", "last-bid", "scored", "no-trump", "trump", "at-once", "cooperative", "over"])
def test_the_state_says_the_games_last_step_in_words_for_the_read_only_status_line(
        start: Start, rules: dict[str, object], steps: list[tuple[object, ...]], news: str) -> None:
    game = start(rules={"max_cards": 3, **rules})  # deal 1: Bob bids first, Ann deals
    first = game.client.get(f"/v/{game.view_token}/state").get_json()
    for kind, *values in steps:
        if kind == "trump":
            response = game.post("/trump", trump=values[0])
        elif kind == "bids":
            response = game.post("/bids", {f"bids-{seat}": value
                                           for seat, value in zip((1, 2, 3, 0), values)})
        else:
            response = game.bid(*values) if kind == "bid" else game.tricks(*values)  # type: ignore[arg-type]
        assert response.status_code == 302, kind
    said = game.client.get(f"/v/{game.view_token}/state",
                           query_string={"v": first["version"]}).get_json()
    assert said["news"] == news


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
    pages = ["/", "/new", "/import", game.url, game.url + "/share", game.url + "/end",
             game.url + "/deal/1", game.url + "/delete", f"/v/{game.view_token}", "/no-such-page",
             "/offline"]
    for url in pages:
        response = client.get(url)
        page = response.get_data(as_text=True)
        assert "script-src 'self'" in response.headers["Content-Security-Policy"]
        assert not re.search(r"\sstyle=", page), url
        # Scripts come from files; a JSON script is data the page carries, never run.
        assert not re.search(r'<script(?![^>]*\s(?:src=|type="application/json"))', page), url
        assert not re.search(r"\son[a-z]+=", page), url
        assert "<style" not in page, url


LAN = "192.168.1.20"


@pytest.fixture
def on_the_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """This computer has an address on the table's network."""
    monkeypatch.setattr(address, "lan_address", lambda: LAN)


def share(game: Scorer, host: str = "localhost:5000", bound: str = "0.0.0.0") -> str:
    """The share page opened at ``host``, served by a server listening on ``bound``."""
    response = game.client.get(game.url + "/share", base_url=f"http://{host}",
                               environ_overrides={"SERVER_NAME": bound})
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_a_share_page_opened_as_localhost_links_to_the_network_address(
        start: Start, on_the_network: None) -> None:
    game = start()
    page = share(game)
    view, edit = f"http://{LAN}:5000/v/{game.view_token}", f"http://{LAN}:5000/g/{game.token}"
    assert f'href="{view}"' in page and f'href="{edit}"' in page and "localhost:5000/" not in page
    assert str(qr.svg(view)) in page and str(qr.svg(edit)) in page  # the QR codes say the same
    assert ("This page was opened as localhost, which is this computer itself: the links and QR "
            f"codes below use its address on the network, {LAN}") in text(page).replace(" ,", ",")


@pytest.mark.parametrize("host", ["127.0.0.1:5000", "[::1]:5000"])
def test_every_loopback_address_is_moved(start: Start, on_the_network: None, host: str) -> None:
    game = start()
    assert f'href="http://{LAN}:5000/v/{game.view_token}"' in share(game, host)


def test_without_a_network_address_the_share_page_warns_that_its_links_lead_nowhere(
        start: Start, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(address, "lan_address", lambda: None)
    game = start()
    page = share(game, "127.0.0.1:5000")
    assert f'href="http://127.0.0.1:5000/v/{game.view_token}"' in page
    note = re.search(r'<p class="flash" role="alert" id="address-note">(.*?)</p>', page, re.DOTALL)
    alert = text(note.group(1))  # type: ignore[union-attr]
    assert alert.replace(" ,", ",").startswith(
        "These links lead to 127.0.0.1, which is this computer itself: no other phone can open")


def test_a_server_listening_on_this_computer_only_says_how_to_let_phones_in(
        start: Start, on_the_network: None) -> None:
    game = start()
    page = text(share(game, "localhost:5000", bound="127.0.0.1"))
    assert "no other phone can open them" in page and "flask run --host 0.0.0.0" in page
    assert LAN not in page  # the network address would lead nowhere


def test_a_share_page_opened_at_the_network_address_says_nothing_more(
        start: Start, on_the_network: None) -> None:
    game = start()
    page = share(game, "192.168.1.30:8000")
    assert (f'href="http://192.168.1.30:8000/v/{game.view_token}"' in page
            and 'id="address-note"' not in page)


def test_the_configured_public_url_is_used_for_the_links(start: Start, app: Flask) -> None:
    app.config["PUBLIC_URL"] = "https://cards.example.org"
    game = start()
    page = share(game, "localhost:5000")
    assert (f'href="https://cards.example.org/v/{game.view_token}"' in page
            and 'id="address-note"' not in page)


OFFLINE_NOTE = ("These links are plain http: a phone that opens them keeps the taps made while the "
                "connection drops and sends them once it is back, as long as the page stays open. "
                "It can't save the game to open without a connection, nor install the app: both "
                "need https")


@pytest.mark.parametrize("host", ["192.168.1.30:8000", "localhost:5000"])
def test_links_on_plain_http_of_the_network_say_what_works_without_https(
        start: Start, on_the_network: None, host: str) -> None:
    page = share(start(), host)
    assert OFFLINE_NOTE in re.sub(r" ([:,])", r"\1", text(page))


@pytest.mark.parametrize(("host", "bound", "public"), [
    ("localhost:5000", "127.0.0.1", ""),  # links to this computer itself: a secure context
    ("localhost:5000", "0.0.0.0", "https://cards.example.org"),
    ("192.168.1.30:8000", "0.0.0.0", "https://cards.example.org/"),
])
def test_links_that_can_keep_the_game_offline_need_no_note(
        start: Start, app: Flask, on_the_network: None, host: str, bound: str, public: str) -> None:
    app.config["PUBLIC_URL"] = public
    assert 'id="offline-note"' not in share(start(), host, bound)


def test_a_share_page_opened_over_https_has_no_offline_note(start: Start) -> None:
    game = start()
    response = game.client.get(game.url + "/share", base_url="https://cards.example.org")
    assert (response.status_code == 200
            and 'id="offline-note"' not in response.get_data(as_text=True))


def test_each_link_has_a_copy_button_that_javascript_shows(start: Start) -> None:
    game = start()
    page = share(game)
    for kind, token in (("read-only link", f"/v/{game.view_token}"),
                        ("edit link", f"/g/{game.token}")):
        assert re.search(r'<button type="button" class="button small copy" '
                         rf'data-copy="http://[^"]*{token}" hidden>Copy the {kind}</button>', page)
    assert "js/share.js" in page


def test_the_network_address_is_found_once_without_sending_anything(
        monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[object] = []

    class Probe:
        """A UDP socket that can only be connected and asked its address: sending would fail."""

        def __init__(self, family: int, kind: int) -> None:
            assert (family, kind) == (socket.AF_INET, socket.SOCK_DGRAM)
            made.append(self)

        def __enter__(self) -> Self:
            return self

        def __exit__(self, *exc: object) -> None:
            pass

        def connect(self, where: tuple[str, int]) -> None:
            self.where = where

        def getsockname(self) -> tuple[str, int]:
            return (LAN, 40000)

    monkeypatch.setattr(address.socket, "socket", Probe)
    address.lan_address.cache_clear()
    try:
        assert address.lan_address() == LAN and address.lan_address() == LAN
        assert len(made) == 1  # once per process
        address.lan_address.cache_clear()
        monkeypatch.setattr(Probe, "getsockname", lambda self: ("127.0.0.1", 1))
        assert address.lan_address() is None  # only the loopback: no network
        address.lan_address.cache_clear()
        monkeypatch.setattr(Probe, "connect",
                            lambda self, where: (_ for _ in ()).throw(OSError("unreachable")))
        assert address.lan_address() is None
    finally:
        address.lan_address.cache_clear()


def test_flask_address_prints_the_link_for_other_phones_and_its_qr_code(
        app: Flask, on_the_network: None) -> None:
    result = app.test_cli_runner().invoke(args=["address", "--port", "5000"])
    assert result.exit_code == 0
    assert f"Other phones on this network can open http://{LAN}:5000/" in result.output
    # the QR code, in the terminal
    assert scanned(terminal_picture(result.output)) == [f"http://{LAN}:5000/"]


@pytest.mark.parametrize(("host", "shown"),
                         [("127.0.0.1", "127.0.0.1"), ("localhost", "localhost"), ("::1", "[::1]")])
def test_flask_address_on_this_computer_only_prints_the_address_it_answers_on(
        app: Flask, on_the_network: None, host: str, shown: str) -> None:
    """HOST=127.0.0.1 make run: no network address and no QR code, which would lead nowhere."""
    result = app.test_cli_runner().invoke(args=["address", "--host", host, "--port", "8000"])
    assert result.exit_code == 0
    assert result.output.startswith(f"Only this computer can open http://{shown}:8000/ (the server "
                                    f"listens on {host}")
    assert LAN not in result.output and "█" not in result.output


def test_flask_address_says_when_there_is_no_network(app: Flask,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(address, "lan_address", lambda: None)
    result = app.test_cli_runner().invoke(args=["address"])
    assert ("No network address found: only this computer can open http://localhost:5000/"
            in result.output)
    app.config["PUBLIC_URL"] = "https://cards.example.org/"
    assert ("can open https://cards.example.org/"
            in app.test_cli_runner().invoke(args=["address"]).output)


def test_every_readme_section_a_page_points_to_exists() -> None:
    """A page says "see “Offline and installing” in the README": the README has that heading."""
    root = Path(__file__).resolve().parents[2]
    headings = set(re.findall(r"^#+ (.+)$",
                              (root / "README.md").read_text(encoding="utf-8"), re.MULTILINE))
    pointed = {name for page in (root / "templates").rglob("*.html")
               for name in re.findall(r"“([^”]+)”\s+in the README",
                                      page.read_text(encoding="utf-8"))}
    assert "Offline and installing" in pointed
    assert pointed <= headings
