"""Take phone screenshots (390 × 844, light and dark) of the main screens.

    .venv/bin/python scripts/screenshots.py [out-dir]      (default: shots/, git-ignored)

It plays a short 4-player game for stakes on a throw-away database, with the real app served
on 127.0.0.1 and headless Chromium; docs/screenshot-deal.png and docs/screenshot-scoreboard.png
are copies of deal-light.png and scoreboard-light.png.
"""

from __future__ import annotations

import sys
import tempfile
import threading
from pathlib import Path

from flask_migrate import upgrade
from playwright.sync_api import Page, sync_playwright
from werkzeug.serving import make_server

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper import create_app

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run",
        "--disable-component-update", "--disable-sync", "--disable-quic"]
MARK = "() => document.querySelectorAll('#main > *').forEach(e => { e.dataset.old = '1'; })"
REPLACED = "() => !document.querySelector('[data-old]') && document.readyState !== 'loading'"


def serve(folder: Path) -> str:
    """Run the app on a free port in a background thread; its base URL."""
    database = f"sqlite:///{folder / 'shots.sqlite'}"
    app = create_app({"SECRET_KEY": "shots", "SQLALCHEMY_DATABASE_URI": database})
    with app.app_context():
        upgrade()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}"


def send(page: Page, selector: str) -> None:
    """Tap something that posts, and wait for the answer to replace the page."""
    page.evaluate(MARK)
    page.locator(selector).first.click()
    page.wait_for_function(REPLACED, polling=50)


def bids(page: Page, *values: int) -> None:
    for value in values:
        send(page, f".bid-form button[name=bid][value='{value}']")


def took(page: Page, seat: int, tricks: int) -> None:
    page.locator(f".seat-row[data-seat='{seat}'] label.num").nth(tricks).click()


def shoot(page: Page, out: Path, name: str) -> None:
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.screenshot(path=str(out / f"{name}-{scheme}.png"), full_page=True)
    page.emulate_media(color_scheme="light")


def play(page: Page, base: str, out: Path) -> None:
    page.goto(base + "/new")
    for seat, name in enumerate(["Ann", "Bob", "Cy", "Dee"]):
        page.fill(f"input[name=players-{seat}]", name)
    page.locator("summary:has-text('House rules')").click()
    page.fill("input[name='rules-max_cards']", "3")
    page.locator("summary:has-text('Stakes')").click()
    page.select_option("select[name=stakes]", "per_point")
    page.fill("input[name=amount]", "0.10")
    page.fill("input[name=currency]", "€")
    page.fill("input[name=title]", "Friday at Ann's")
    page.wait_for_selector("#example table")
    shoot(page, out, "new")
    send(page, "button.primary[value=preview]")
    shoot(page, out, "preview")
    send(page, "button[value=start]")
    bids(page, 1, 1, 0, 0)                      # deal 1, 3 cards: Ann deals
    took(page, 1, 2)
    send(page, ".tricks-form button[type=submit]")
    bids(page, 1, 0, 0)                         # deal 2, 2 cards: Bob deals and can't bid 1
    shoot(page, out, "deal")
    bids(page, 2)
    took(page, 2, 0)
    took(page, 0, 1)
    shoot(page, out, "tricks")
    send(page, ".tricks-form button[type=submit]")
    bids(page, 0, 1, 0, 1)                      # deal 3, 1 card
    send(page, ".tricks-form button[type=submit]")
    page.locator("summary:has-text('Add points')").click()
    page.select_option("#adj-player", "1")
    page.fill("#adj-points", "-5")
    page.fill("#adj-reason", "revoke")
    send(page, "#adjust button[type=submit]")
    bids(page, 1, 0, 1)                         # deal 4, 2 cards: Dee deals
    game = page.url
    shoot(page, out, "game")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.locator("#board").screenshot(path=str(out / f"scoreboard-{scheme}.png"))
    page.emulate_media(color_scheme="light")
    page.goto(game + "/deal/2")
    shoot(page, out, "correct")
    page.goto(game)
    bids(page, 1)
    took(page, 0, 0)
    send(page, ".tricks-form button[type=submit]")
    bids(page, 1, 1, 0, 0)                      # deal 5, 3 cards: Ann deals
    send(page, ".tricks-form button[type=submit]")
    shoot(page, out, "end")
    page.goto(game + "/share")
    shoot(page, out, "share")
    view = page.locator(".share .link a").first.get_attribute("href") or ""
    page.goto(view)
    shoot(page, out, "view")
    page.goto(base + "/")
    shoot(page, out, "home")
    page.goto(base + "/g/no-such-game")
    shoot(page, out, "error")


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "shots")
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        base = serve(Path(folder))
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=ARGS)
        play(browser.new_page(viewport={"width": 390, "height": 844}), base, out)
        browser.close()
    print(f"screenshots in {out}/")


if __name__ == "__main__":
    main()
