"""Phone screenshots (390 × 844, light and dark) of the main screens and both printed sheets, in one
language, to read a translation as a player sees it.

    .venv/bin/python scripts/screenshots_language.py nl [out-dir]     (default: shots/nl/)

The phone's browser asks for the language (Accept-Language), as a Dutch phone would. The games are
stored through the API, so that no step needs the words of a page: a deal being bid (the dealer's
struck bid tapped, and refused), a deal's tricks, bids shown at once, a game over with a
settlement, the share and read-only pages, a group, the rules and arrival pages, the new game form,
the blank sheet's form; the blank and the filled sheet are turned into PNG by pdftoppm.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from screenshots import ARGS, serve, shoot

from scorekeeper.rules.values import language

FOUR = ["Ann", "Bob", "Cy", "Dee"]


def opened(page: Page, base: str, **document: object) -> dict[str, str]:
    """A game stored through the API and opened on this phone; its links."""
    links: dict[str, str] = page.request.post(base + "/api/games", data=document).json()["links"]
    page.goto(links["edit"])
    return links


def sheet(page: Page, url: str, out: Path, name: str) -> None:
    """A printed sheet, as the phone downloads it, turned into one PNG per page."""
    response = page.request.get(url)
    assert response.status == 200 and response.headers["content-type"] == "application/pdf", url
    pdf = out / f"{name}.pdf"
    pdf.write_bytes(response.body())
    subprocess.run(["pdftoppm", "-png", "-r", "60", str(pdf), str(out / name)], check=True)


def main() -> None:
    code = language(sys.argv[1] if len(sys.argv) > 1 else "nl")
    out = Path(sys.argv[2] if len(sys.argv) > 2 else f"shots/{code}")
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        base = serve(Path(folder))
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                             args=ARGS)
        page = browser.new_page(viewport={"width": 390, "height": 844}, locale=code)
        page.goto(base + "/new")
        shoot(page, out, "new", full_page=False)
        game = opened(page, base, title="Vrijdag", players=FOUR,
                      rules={"preset": "oh-hell", "max_cards": 3},
                      stakes={"per_point": "0.10", "currency": "€"},
                      deals=[{"bids": [1, 0, 1, 0], "tricks": [1, 1, 1, 0]},
                             {"bids": [None, None, 0, 1]}])
        page.locator(".bid-form button[name=bid]").nth(1).click()  # Ann's 1: allowed
        page.wait_for_timeout(400)
        shoot(page, out, "bid", full_page=False)
        struck = page.locator(".bid-form .struck").first
        # the dealer's forbidden bid, typed: refused, with the reason
        page.keyboard.press(struck.inner_text())
        page.wait_for_timeout(400)
        shoot(page, out, "bid-refused", full_page=False)
        page.goto(game["edit"])
        shoot(page, out, "game", full_page=True)
        page.goto(game["edit"] + "/rules")
        shoot(page, out, "rules", full_page=False)
        page.goto(game["edit"] + "/arrive")
        shoot(page, out, "arrive", full_page=False)
        page.goto(game["edit"] + "/share")
        shoot(page, out, "share", full_page=False)
        page.goto(game["view"])
        shoot(page, out, "view", full_page=False)
        opened(page, base, players=FOUR, rules={"max_cards": 2}, deals=[{"bids": [1, 0, 0, 0]}])
        shoot(page, out, "tricks", full_page=False)
        opened(page, base, players=[*FOUR, "Eve"],
               rules={"preset": "british-oh-hell", "deal": "down", "max_cards": 5})
        shoot(page, out, "bids-at-once", full_page=False)
        over = opened(page, base, title="Vrijdag", players=["Ann", "Bob", "Cy"],
                      rules={"deal": "fixed", "max_cards": 2, "deals": 2},
                      stakes={"per_point": "0.25", "currency": "EUR"},
                      deals=[{"bids": [0, 0, 1], "tricks": [1, 0, 1]},
                             {"bids": [0, 1, 0], "tricks": [1, 1, 0]}])
        shoot(page, out, "over", full_page=True)
        group = page.request.post(base + "/api/groups",
                                  data={"name": "Vrijdagclub"}).json()["links"]["edit"]
        for links in (game, over):
            page.request.post(group.replace("/gr/", "/api/groups/") + "/games",
                              data={"game": links["edit"]})
        page.goto(group)
        shoot(page, out, "group", full_page=False)
        page.goto(base + "/")
        shoot(page, out, "home", full_page=False)
        page.goto(base + "/sheets/blank")
        shoot(page, out, "blank-form", full_page=False)
        sheet(page, f"{base}/sheets/blank.pdf?players=4&lang={code}", out, "sheet-blank")
        sheet(page, f"{over['sheet']}?lang={code}", out, "sheet-filled")
        browser.close()
    print(f"screenshots in {out}/")


if __name__ == "__main__":
    main()
