"""The app on the phone, in Chromium on 127.0.0.1 (a secure context): the service worker keeps the
app's files and the games this phone holds, opens them without a connection as saved copies, and
never shows a saved copy while the server answers; the screen is kept on while a game is shown."""

from __future__ import annotations

import json
import re
import shutil
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask_migrate import upgrade
from phone import CONTROLLED, KEPT, PHONE, assert_fits_the_phone, console_errors
from playwright.sync_api import Browser, BrowserContext, Page, expect
from werkzeug.serving import make_server

from scorekeeper import ROOT, create_app

pytestmark = pytest.mark.browser

#: Every URL the worker's caches hold.
CACHED = """() => caches.keys().then(names => Promise.all(names.map(name => caches.open(name)
    .then(c => c.keys()).then(keys => [name, keys.map(r => r.url)]))))"""


@pytest.fixture
def phone(browser: Browser, server: str) -> Iterator[Page]:
    """A phone of its own (its worker, its caches); any console error fails the test, but for the
    refusals (4xx) and the offline page (503) answered on purpose."""
    context = browser.new_context(viewport=PHONE, base_url=server)
    page = context.new_page()
    errors = console_errors(page)
    yield page
    context.close()
    assert not [e for e in errors
                if "status of 4" not in e and "status of 503 (Offline)" not in e], errors


def until(page: Page, script: str, *args: Any, seconds: float = 10) -> None:
    """Wait until an asynchronous check in the page answers true
    (wait_for_function takes no promise)."""
    for _ in range(int(seconds * 10)):
        if page.evaluate(script, *args):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"still not true after {seconds} s: {script}")


def new_game(page: Page, **document: Any) -> dict[str, str]:
    """A game stored through the API (not yet opened on this phone): its links."""
    created = page.request.post("/api/games",
                                data={"players": ["Ann", "Bob", "Cy"], **document}).json()
    return dict(created["links"])


def open_kept(page: Page, url: str) -> None:
    """Open a page and wait until the worker controls it and keeps its copy."""
    page.goto(url)
    page.wait_for_function(CONTROLLED)
    until(page, KEPT)


def version(page: Page) -> int:
    return int(page.locator("input[name=version]").first.get_attribute("value") or 0)


def test_the_worker_installs_keeps_every_listed_file_and_controls_a_game_page(phone: Page,
                                                                              server: str) -> None:
    links = new_game(phone)
    open_kept(phone, links["edit"])
    script = urllib.request.urlopen(server + "/sw.js").read().decode()
    cache = "scorekeeper-files-" + re.search(r'"scorekeeper-files-" \+ "(\w+)"', script).group(1)  # type: ignore[union-attr]
    listed = {server + f["url"]
              for f in json.loads(re.search(r"var PRECACHE = (\[.*?\]);", script).group(1))}  # type: ignore[union-attr]
    cached = dict(phone.evaluate(CACHED))
    assert set(cached) == {cache, "scorekeeper-pages"}
    assert set(cached[cache]) == listed and cached["scorekeeper-pages"] == [links["edit"]]
    assert phone.evaluate("navigator.serviceWorker.controller.scriptURL") == server + "/sw.js"


def test_offline_a_game_this_phone_opened_opens_as_a_saved_copy_and_so_does_the_list(
        phone: Page) -> None:
    links = new_game(phone, title="Friday")
    open_kept(phone, links["edit"])
    phone.goto("/")
    until(phone, """() => caches.open("scorekeeper-pages").then(c => c.match("/")).then(Boolean)""")
    phone.context.set_offline(True)
    phone.goto(links["edit"])
    banner = phone.locator("#saved-copy")
    expect(banner).to_have_text("Offline: this is the game as this phone last saw it.",
                                use_inner_text=True)
    # it can't, for now
    expect(banner.get_by_role("link", name="Show it as it is now")).to_be_hidden()
    expect(phone.locator(".game-name")).to_have_text("Friday")
    expect(phone.locator("link[rel=stylesheet]")).to_have_count(1)
    # app.css kept
    assert phone.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(244, 244, 241)"
    assert_fits_the_phone(phone)
    phone.goto("/")
    expect(banner).to_have_text("Offline: this is your list of games as this phone last saw it.",
                                use_inner_text=True)
    phone.get_by_role("link", name=re.compile("Friday")).click()
    expect(phone.locator(".game-name")).to_have_text("Friday")
    phone.context.set_offline(False)
    expect(banner).to_have_text("Back online: this is the game as this phone last saw it. "
                                "Show it as it is now", use_inner_text=True)
    banner.get_by_role("link", name="Show it as it is now").click()
    expect(banner).to_be_hidden()


def test_back_online_the_page_is_the_servers_and_never_the_saved_copy(phone: Page, browser: Browser,
                                                                      server: str) -> None:
    links = new_game(phone)
    open_kept(phone, links["edit"])
    saved = version(phone)
    phone.context.set_offline(True)
    phone.reload()
    expect(phone.locator("#saved-copy")).to_be_visible()
    # another phone enters a bid meanwhile
    other = browser.new_context(viewport=PHONE, base_url=server)
    scorer = other.new_page()
    scorer.goto(links["edit"])
    scorer.locator(".bid-form button[name=bid][value='0']").first.click()
    expect(scorer.locator("input[name=version]").first).to_have_value(str(saved + 1))
    other.close()
    phone.reload()
    assert version(phone) == saved  # still offline: the saved copy, and it says so
    expect(phone.locator("#saved-copy")).to_be_visible()
    phone.context.set_offline(False)
    phone.reload()
    assert version(phone) == saved + 1
    expect(phone.locator("#saved-copy")).to_be_hidden()
    phone.context.set_offline(True)  # the copy kept is now the page last shown
    phone.reload()
    assert version(phone) == saved + 1


def test_a_page_this_phone_never_opened_is_not_shown_offline(phone: Page) -> None:
    open_kept(phone, new_game(phone)["edit"])
    never = new_game(phone)
    phone.context.set_offline(True)
    for url in (never["edit"], never["view"], "/new"):
        response = phone.goto(url)
        assert response is not None and response.status == 503
        expect(phone.locator("h1")).to_have_text("No connection")
        expect(phone.locator(".flash")).to_have_text(
            "This page isn't saved on this phone, so it can't open without a connection.")
    assert_fits_the_phone(phone)


def test_a_deleted_game_is_no_longer_kept(phone: Page) -> None:
    links = new_game(phone)
    open_kept(phone, links["edit"])
    phone.goto(links["edit"] + "/delete")
    phone.locator("form button.danger").click()
    phone.wait_for_url(re.compile(r"/$"))
    until(phone, """url => caches.open("scorekeeper-pages").then(c => c.match(url))"""
          """.then(found => !found)""", links["edit"])
    phone.context.set_offline(True)
    response = phone.goto(links["edit"])
    assert response is not None and response.status == 503


def test_a_tap_entered_online_is_in_the_copy_kept(phone: Page) -> None:
    links = new_game(phone)
    open_kept(phone, links["edit"])
    before = version(phone)
    phone.locator(".bid-form button[name=bid][value='0']").first.click()
    expect(phone.locator("input[name=version]").first).to_have_value(str(before + 1))
    until(phone, KEPT)  # kept again a moment after the tap
    phone.context.set_offline(True)
    phone.reload()
    expect(phone.locator("#saved-copy")).to_be_visible()
    assert version(phone) == before + 1


def test_nothing_but_the_apps_files_and_the_pages_of_games_is_kept(phone: Page) -> None:
    links = new_game(phone, rules={"max_cards": 1},
                     deals=[{"bids": [0, 0, 0], "tricks": [1, 0, 0]}])
    open_kept(phone, links["edit"])
    for url in (links["edit"] + "/share", links["edit"] + "/end", "/new", "/g/no-such-game",
                "/no-such-page"):
        phone.goto(url)  # pages of another kind, and error pages
    for url in (links["api"], links["sheet"], links["edit"] + "/export.json",
                links["view"] + "/state?v=0"):
        phone.evaluate("url => fetch(url).then(r => r.blob())", url)
    phone.goto(links["view"])
    until(phone, """() => caches.open("scorekeeper-pages").then(c => c.keys())"""
          """.then(k => k.length === 2)""")
    pages = dict(phone.evaluate(CACHED))["scorekeeper-pages"]
    assert sorted(pages) == sorted([links["edit"], links["view"]])


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[tuple[str, Any, Path]]:
    """The app served from its own copy of the static files, which a test may change: its address,
    the app and the folder."""
    folder = tmp_path / "static"
    shutil.copytree(ROOT / "static", folder)
    app = create_app({"SECRET_KEY": "browser",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'own.sqlite'}"})
    app.static_folder = str(folder)
    with app.app_context():
        upgrade()
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}", app, folder
    httpd.shutdown()
    thread.join(5)


def test_a_new_build_takes_over_at_the_next_visit_and_the_old_files_go(
        browser: Browser, own_server: tuple[str, Any, Path]) -> None:
    base, app, folder = own_server
    context: BrowserContext = browser.new_context(viewport=PHONE, base_url=base)
    page = context.new_page()
    links = new_game(page)
    open_kept(page, links["edit"])
    old = next(name for name in page.evaluate("caches.keys()")
               if name.startswith("scorekeeper-files-"))
    css = folder / "css" / "app.css"
    css.write_text(css.read_text().replace("--bg: #f4f4f1", "--bg: #f4f4f2", 1))
    app.extensions.pop("scorekeeper.static")  # what a restart after the new build does
    app.extensions.pop("scorekeeper.offline")
    page.goto(links["edit"])  # the old worker still in charge: the new page, with its new files
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(244, 244, 242)"
    # as the browser does, in its time
    page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    until(page, """old => caches.keys()"""
          """.then(names => names.length === 2 && !names.includes(old))""", old)
    context.set_offline(True)
    page.reload()
    expect(page.locator("#saved-copy")).to_be_visible()
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(244, 244, 242)"
    context.close()


FAKE_WAKE_LOCK = """
window.wake = {requests: [], releases: 0, sentinel: null};
Object.defineProperty(Navigator.prototype, "wakeLock", {configurable: true, get: () => ({
  request(type) {
    const sentinel = new EventTarget();
    sentinel.release = () => {
      window.wake.releases += 1;
      sentinel.dispatchEvent(new Event("release"));
      return Promise.resolve();
    };
    window.wake.requests.push(type);
    window.wake.sentinel = sentinel;
    return Promise.resolve(sentinel);
  }})});
"""


def test_the_screen_is_kept_on_until_the_box_is_unticked_and_the_phone_remembers(
        phone: Page) -> None:
    phone.add_init_script(FAKE_WAKE_LOCK)
    links = new_game(phone)
    phone.goto(links["edit"])
    box = phone.get_by_role("checkbox", name="Keep the screen on")
    expect(box).to_be_checked()
    phone.wait_for_function("() => window.wake.requests.length === 1")
    assert phone.evaluate("window.wake.requests") == ["screen"]
    phone.evaluate("window.wake.sentinel.release()")  # the phone let go (the page was hidden)…
    phone.evaluate(
        "document.dispatchEvent(new Event('visibilitychange'))")  # …and it is shown again
    phone.wait_for_function("() => window.wake.requests.length === 2")
    box.click()
    expect(box).not_to_be_checked()
    phone.wait_for_function("() => window.wake.releases === 2")
    assert phone.evaluate("localStorage.getItem('scorekeeper.keep-screen-on')") == "off"
    phone.goto(links["view"])  # the read-only page too, and the choice is remembered
    expect(box).not_to_be_checked()
    phone.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    assert phone.evaluate("window.wake.requests") == []
    box.click()
    phone.wait_for_function("() => window.wake.requests.length === 1")
    assert phone.evaluate("localStorage.getItem('scorekeeper.keep-screen-on')") == "on"
    assert phone.locator("#wake label").bounding_box()["height"] >= 44  # type: ignore[index]
    assert_fits_the_phone(phone)


def test_where_the_phone_refuses_the_lock_the_box_says_so(phone: Page) -> None:
    phone.add_init_script("""Object.defineProperty(Navigator.prototype, "wakeLock", {
        configurable: true,
        get: () => ({request: () => Promise.reject(
            new DOMException("Battery saver", "NotAllowedError"))})});""")
    phone.goto(new_game(phone)["edit"])
    expect(phone.locator("#wake")).to_contain_text("The phone doesn't allow it just now.")
    expect(phone.get_by_role("checkbox", name="Keep the screen on")).to_be_checked()


def test_without_a_wake_lock_the_box_stays_hidden(phone: Page) -> None:
    phone.add_init_script("delete Navigator.prototype.wakeLock")
    phone.goto(new_game(phone)["edit"])
    expect(phone.locator("#wake")).to_be_hidden()


def test_with_chromiums_own_wake_lock_the_box_shows_and_nothing_fails(phone: Page) -> None:
    phone.goto(new_game(phone)["edit"])
    expect(phone.get_by_role("checkbox", name="Keep the screen on")).to_be_visible()
