"""The app on the phone: the service worker and its list of files, the manifest, the icons, the
offline page."""

from __future__ import annotations

import hashlib
import io
import json
import re
import runpy
import shutil
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image
from webhelpers import Scorer, text

from scorekeeper import ROOT, create_app
from scorekeeper.phone.offline import PRINT_ONLY, file_hashes

STATIC = ROOT / "static"
ICONS = runpy.run_path(str(ROOT / "scripts" / "icons.py"))


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


def worker(client: FlaskClient) -> tuple[str, list[dict[str, str]]]:
    """The worker's cache name and its list of files, as the served script says them."""
    script = client.get("/sw.js").get_data(as_text=True)
    version = re.search(r'var FILES = "scorekeeper-files-" \+ "([0-9a-f]{12})";', script)
    files = re.search(r"var PRECACHE = (\[.*?\]);\n", script)
    assert version and files
    return version.group(1), json.loads(files.group(1))


def static_links(page: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', page)


def test_the_worker_is_served_at_the_root_and_asked_for_again_at_every_use(
        client: FlaskClient) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert (response.headers["Cache-Control"] == "no-cache"
            and "Service-Worker-Allowed" not in response.headers)
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    again = client.get("/sw.js", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304 and again.headers["Cache-Control"] == "no-cache"


def test_the_worker_lists_every_static_file_a_phone_loads_with_the_hash_of_its_content(
        client: FlaskClient) -> None:
    _, files = worker(client)
    static = {f["url"].split("?")[0].removeprefix("/static/"): f for f in files
              if f["url"].startswith("/static/")}
    on_disk = {p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*") if p.is_file()}
    assert set(static) == on_disk - PRINT_ONLY and PRINT_ONLY <= on_disk
    for name, entry in static.items():
        digest = sha(client.get(f"/static/{name}").data)
        assert entry == {"url": f"/static/{name}?v={digest}", "hash": digest}


def test_the_manifest_and_the_offline_page_are_listed_with_the_hash_of_what_they_serve(
        client: FlaskClient) -> None:
    _, files = worker(client)
    served = {f["url"]: f["hash"] for f in files if not f["url"].startswith("/static/")}
    assert set(served) == {"/manifest.webmanifest", "/offline"}
    for url, digest in served.items():
        assert sha(client.get(url).data) == digest


def test_every_file_a_template_or_script_names_is_kept(client: FlaskClient) -> None:
    _, files = worker(client)
    listed = {f["url"].split("?")[0] for f in files}
    named = {f"/static/{name}" for template in (ROOT / "templates").rglob("*.html")
             for name in re.findall(r"url_for\('static', filename='([^']+)'\)",
                                    template.read_text())}
    assert named and named <= listed
    assert "/static/css/sheet.css" not in listed  # the printed sheet's, read on the server only


def test_pages_link_static_files_with_the_hash_the_worker_lists(
        start: Any, client: FlaskClient) -> None:
    game: Scorer = start()
    _, files = worker(client)
    listed = {f["url"] for f in files}
    for url in ("/", game.url, f"/v/{game.view_token}", "/new", "/offline"):
        links = static_links(client.get(url).get_data(as_text=True))
        assert links and set(links) <= listed, url


def copy_of_static(tmp_path: Path) -> Path:
    folder = tmp_path / "static"
    shutil.copytree(STATIC, folder)
    return folder


def served_from(folder: Path, database_url: str, debug: bool = False) -> Flask:
    app = create_app({"TESTING": True, "SECRET_KEY": "test",
                      "SQLALCHEMY_DATABASE_URI": database_url})
    app.static_folder, app.debug = str(folder), debug
    return app


def test_a_changed_byte_is_a_new_link_a_new_list_and_a_new_cache(
        tmp_path: Path, database_url: str) -> None:
    folder = copy_of_static(tmp_path)
    before = file_hashes(folder)
    version, files = worker(served_from(folder, database_url).test_client())
    (folder / "css" / "app.css").write_bytes(
        (folder / "css" / "app.css").read_bytes().replace(b"#0b6e4f", b"#0b6e4e", 1))
    after = file_hashes(folder)
    assert {name for name in before if before[name] != after[name]} == {"css/app.css"}
    restarted = served_from(folder, database_url).test_client()
    new_version, new_files = worker(restarted)
    assert new_version != version
    changed = [(old["url"], new["url"])
               for old, new in zip(files, new_files, strict=True) if old != new]
    assert changed[0] == (f"/static/css/app.css?v={before['css/app.css']}",
                          f"/static/css/app.css?v={after['css/app.css']}")
    # the offline page links the new stylesheet
    assert [url for url, _ in changed[1:]] == ["/offline"]
    assert (f"/static/css/app.css?v={after['css/app.css']}"
            in static_links(restarted.get("/").get_data(as_text=True)))


def test_in_debug_mode_a_changed_file_is_a_new_list_at_once(tmp_path: Path,
                                                            database_url: str) -> None:
    folder = copy_of_static(tmp_path)
    client = served_from(folder, database_url, debug=True).test_client()
    version, _ = worker(client)
    (folder / "js" / "play.js").write_text((folder / "js" / "play.js").read_text() + "\nvoid 0;\n")
    assert worker(client)[0] != version


def test_scripts_and_styles_are_served_without_their_comments_and_spaces(
        client: FlaskClient) -> None:
    for name in ("js/play.js", "js/step.js", "js/outbox.js", "css/app.css", "css/pages.css"):
        source = (STATIC / name).read_text()
        served = client.get(f"/static/{name}").get_data(as_text=True)
        assert len(served) < 0.85 * len(source), name
        comments = re.findall(r"^\s*//[^\n]*|/\*.*?\*/", source, re.MULTILINE | re.DOTALL)
        assert comments and not any(comment.strip() in served for comment in comments
                                    if len(comment.strip()) > 12), name
        # Every name and text of the source is still there: only spaces and comments went.
        kept = re.sub(r"(?:^|\s)//[^\n]*|/\*.*?\*/", "", source, flags=re.MULTILINE | re.DOTALL)
        words = set(re.findall(r"[A-Za-z_][A-Za-z_0-9]{3,}", kept))
        assert words and all(word in served for word in words), name
    with client.get("/static/css/sheet.css") as sheet:  # read on the server, as it is written
        assert sheet.data == (STATIC / "css" / "sheet.css").read_bytes()


def test_the_manifest_makes_the_app_installable(client: FlaskClient) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200 and response.mimetype == "application/manifest+json"
    manifest = json.loads(response.data)
    assert manifest["name"] == "Oh Hell scorekeeper" and manifest["short_name"] == "Scorekeeper"
    assert (manifest["start_url"] == "/" and manifest["scope"] == "/"
            and manifest["display"] == "standalone")
    purposes = {(icon["sizes"], icon["purpose"], icon["type"]) for icon in manifest["icons"]}
    assert purposes == {("any", "any", "image/svg+xml"), ("192x192", "any", "image/png"),
                        ("512x512", "any", "image/png"), ("512x512", "maskable", "image/png")}
    for icon in manifest["icons"]:
        with client.get(icon["src"]) as served:
            assert served.status_code == 200 and served.mimetype == icon["type"]
            if icon["type"] == "image/png":
                size = int(icon["sizes"].split("x")[0])
                assert Image.open(io.BytesIO(served.data)).size == (size, size)


def colours(css: str) -> tuple[dict[str, str], dict[str, str]]:
    """The custom properties of app.css: the light theme's, and the dark theme's."""
    light = re.search(r":root \{(.*?)\}", css, re.DOTALL)
    dark = re.search(r"dark\) \{\s*:root \{(.*?)\}", css, re.DOTALL)
    assert light and dark
    return tuple(dict(re.findall(r"--([a-z-]+): (#[0-9a-f]{3,6})", part.group(1)))  # type: ignore[return-value]
                 for part in (light, dark))


def test_the_phones_bar_and_the_splash_screen_take_the_apps_colours(client: FlaskClient) -> None:
    light, dark = colours((STATIC / "css" / "app.css").read_text())
    manifest = client.get("/manifest.webmanifest").get_json(force=True)
    assert (manifest["theme_color"] == light["accent"]
            and manifest["background_color"] == light["bg"])
    page = client.get("/").get_data(as_text=True)
    assert (f'<meta name="theme-color" content="{light["accent"]}" '
            'media="(prefers-color-scheme: light)">') in page
    assert (f'<meta name="theme-color" content="{dark["card"]}" '
            'media="(prefers-color-scheme: dark)">') in page
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page


def test_the_icons_are_what_the_script_draws(tmp_path: Path) -> None:
    for drawn in ICONS["write"](tmp_path):
        kept = STATIC / "icons" / drawn.name
        if drawn.suffix == ".svg":
            assert kept.read_text() == drawn.read_text()
            continue
        with Image.open(kept) as mine, Image.open(drawn) as theirs:
            assert ((mine.mode, mine.size) == (theirs.mode, theirs.size)
                    and mine.tobytes() == theirs.tobytes())
    assert ({p.name for p in (STATIC / "icons").iterdir()}
            == {"icon.svg", *(name for name, _, _ in ICONS["PNGS"])})
    with Image.open(STATIC / "icons" / "icon-maskable-512.png") as maskable:
        corner = maskable.getpixel((4, 4))
    # maskable: green to the edge, which the phone cuts
    assert "#{:02x}{:02x}{:02x}".format(*corner) == ICONS["GREEN"]


def test_the_offline_page_says_what_opens_without_a_connection(client: FlaskClient) -> None:
    response = client.get("/offline")
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert ("This page isn't saved on this phone, so it can't open without a connection. The games "
            "this phone has opened are saved as it last saw them: open them from your list of "
            "games.") in text(response.get_data(as_text=True))


def test_the_offline_page_leaves_a_message_waiting_for_this_phone(
        start: Any, client: FlaskClient) -> None:
    game: Scorer = start()
    game.bid(0)
    with client.session_transaction() as session:
        session["_flashes"] = [("done", "Deal 3 corrected.")]
    assert "Deal 3 corrected." not in client.get("/offline").get_data(as_text=True)
    assert "Deal 3 corrected." in client.get(game.url).get_data(as_text=True)


@pytest.mark.parametrize(("page", "what"), [("game", "the game"), ("view", "the game"),
                                            ("home", "your list of games"), ("new", "the page")])
def test_every_page_carries_its_saved_copy_banner_hidden(start: Any, client: FlaskClient, page: str,
                                                         what: str) -> None:
    game: Scorer = start()
    url = {"game": game.url, "view": f"/v/{game.view_token}", "home": "/", "new": "/new"}[page]
    html = client.get(url).get_data(as_text=True)
    banner = re.search(r'<p class="saved-copy" id="saved-copy" role="status" hidden>(.*?)</p>',
                       html, re.DOTALL)
    assert banner and text(banner.group(1)) == (
        f"Offline: Back online: this is {what} as this phone last saw it. "
        "Show it as it is now")  # sw-register.js shows one of the two
    assert '<script src="/static/js/sw-register.js?v=' in html and 'data-worker="/sw.js"' in html


def test_game_pages_offer_to_keep_the_screen_on_where_the_phone_can(
        start: Any, client: FlaskClient) -> None:
    game: Scorer = start()
    for url in (game.url, f"/v/{game.view_token}"):
        html = client.get(url).get_data(as_text=True)
        assert (re.search(r'<p class="wake" id="wake" hidden><label>'
                          r'<input type="checkbox" checked> Keep the screen on</label>', html)
                and "/static/js/wakelock.js?v=" in html)
    home = client.get("/").get_data(as_text=True)
    assert 'id="wake"' not in home and "wakelock.js" not in home
