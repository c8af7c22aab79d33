"""Take phone screenshots (390 × 844, light and dark) of the main screens.

    .venv/bin/python scripts/screenshots.py [out-dir]      (default: shots/, git-ignored)
    .venv/bin/python scripts/screenshots.py shots groups    (only a group's screens)

It plays a short 4-player game for stakes on a throw-away database, with the real app served
on 127.0.0.1 (so the share page warns that its links lead to this computer only) and headless
Chromium, then opens the states a short game doesn't reach: a 10-card deal's tricks and bids
shown at once as the screen shows them (the Save bar at its foot), ten players' board, a
cooperative game, changes at the table (an arrival, a sit-out, a departure, an arrival no deal
to come can hold, the plan of a down-up game part played, new rules previewed and refused, the end
with "Play again") and the list of games. Last, the app on the phone: a game and the list opened
without a connection from the service worker's saved copies, a page it never saved, the "Keep the
screen on" box, and the share page opened at a network name on plain http (scores.lan, which this
browser resolves to 127.0.0.1), with its note on what needs https. docs/screenshot-deal.png and
docs/screenshot-scoreboard.png are copies of deal-light.png and scoreboard-light.png. Then taps
kept on the phone: deals entered without a connection, synced, and taps another phone made stale;
docs/screenshot-offline.png is a copy of outbox-pending-light.png. First of all, a group of eight
evenings: its page, a player's page, and its new-game form. ``events``: only a club night's
screens (the director's page, the room screen at 1920 × 1080 and 390 × 844, in Dutch once).
"""

from __future__ import annotations

import sys
import tempfile
import threading
from pathlib import Path

from flask_migrate import upgrade
from playwright.sync_api import Browser, Page, sync_playwright
from werkzeug.serving import make_server

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper import create_app

#: A name on the table's network for this computer (plain http there: no service worker).
LAN_NAME = "scores.lan"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run",
        "--disable-component-update", "--disable-sync", "--disable-quic",
        f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1"]
#: Whether the service worker keeps a copy of this page as it shows it now.
KEPT = """() => caches.open("scorekeeper-pages").then(c => c.match(location.href))
    .then(r => r ? r.text() : "")
    .then(t => t.includes('name="version" value="'
        + document.querySelector("input[name=version]").value + '"'))"""
MARK = ("() => document.querySelectorAll('#main > :not(#panel),"
        " #panel > :not(#step):not(.unsaved)')"
        ".forEach(e => { e.dataset.old = '1'; })")
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


def shoot(page: Page, out: Path, name: str, *, full_page: bool = True) -> None:
    """The page in light and dark; ``full_page=False``: only what the screen shows."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.screenshot(path=str(out / f"{name}-{scheme}.png"), full_page=full_page)
    page.emulate_media(color_scheme="light")


def opened(page: Page, base: str, **document: object) -> None:
    """A game stored through the API and opened on this phone (so it is in its list)."""
    created = page.request.post(base + "/api/games", data=document).json()
    page.goto(created["links"]["edit"])


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
    shoot(page, out, "adjusted", full_page=False)  # its confirmation, at the top of the game page
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


def table(page: Page, base: str, out: Path) -> None:
    """Changes at the table: Eve arrives after deal 1, Cy sits deal 2 out, Dee leaves after it."""
    opened(page, base, title="Late at Ann's", players=["Ann", "Bob", "Cy", "Dee"],
           rules={"max_cards": 3}, stakes={"per_point": "0.10", "currency": "€"},
           deals=[{"bids": [1, 1, 0, 0], "tricks": [1, 1, 1, 0]}])
    game = page.url
    page.goto(game + "/arrive")
    page.fill("#arrive-name", "Eve")
    page.locator("input[name=seat][value='2']").check()
    page.locator("input[name=start][value='average']").check()
    shoot(page, out, "arrive")
    send(page, "#arrive-form button[type=submit]")
    page.goto(game + "/leave")
    page.locator("#sit-out input[value='3']").check()  # Cy, after Eve sat down between Bob and him
    shoot(page, out, "leave")
    send(page, "#sit-out button[type=submit]")
    shoot(page, out, "sit-out", full_page=False)  # the next deal's header says who sits it out
    bids(page, 0, 0, 0, 0)                       # deal 2: Dee, Ann, Bob, then Eve deals
    took(page, 1, 2)
    took(page, 0, 0)
    send(page, ".tricks-form button[type=submit]")
    page.goto(game + "/leave")
    page.locator("#leave input[value='4']").check()
    send(page, "#leave button[type=submit]")
    shoot(page, out, "game-absences")
    page.goto(game + "/leave")
    shoot(page, out, "leave-back")               # Dee can come back
    view = page.request.get(base + "/api/games/" + game.rsplit("/", 1)[1]).json()["links"]["view"]
    page.goto(view)
    shoot(page, out, "view-absences")
    opened(page, base, players=["Ann", "Bob", "Cy", "Dee"], rules={"deal": "down", "max_cards": 13},
           deals=[{"bids": [3, 3, 3, 3], "tricks": [3, 3, 3, 4]}])
    page.goto(page.url + "/arrive")
    page.fill("#arrive-name", "Eve")
    page.locator("input[name=seat][value='4']").check()
    page.locator("input[name=start][value='zero']").check()
    send(page, "#arrive-form button[type=submit]")
    shoot(page, out, "arrive-refused", full_page=False)


def more(page: Page, base: str, out: Path) -> None:
    """The states a short game doesn't reach, then the list of all these games."""
    five, ten = ["Ann", "Bob", "Cy", "Dee", "Eve"], ["Annabelle", "Bob", "Cy", "Dee", "Evangeline",
                                                      "Fay", "Gus", "Hildegard", "Ivo", "Jo"]
    opened(page, base, title="Ten cards for five", players=five, deals=[{"bids": [2, 2, 2, 2, 1]}])
    shoot(page, out, "tricks-sticky", full_page=False)
    opened(page, base, players=five,
           rules={"preset": "british-oh-hell", "deal": "down", "max_cards": 10})
    shoot(page, out, "bids-at-once", full_page=False)
    opened(page, base, title="The big table", players=ten, rules={"max_cards": 5},
           deals=[{"bids": [1, 0, 0, 1, 0, 0, 1, 0, 0, 1],
                   "tricks": [1, 0, 0, 1, 0, 0, 1, 1, 0, 1]},
                  {"bids": [0, 0, 0, 0, 0, 0, 0, 0, 0, 1]}])
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.locator("#board").screenshot(path=str(out / f"board-wide-{scheme}.png"))
    page.emulate_media(color_scheme="light")
    opened(page, base, title="Together", players=["Ann", "Bob", "Cy"],
           rules={"preset": "cooperative", "max_cards": 3},
           deals=[{"bids": [1, 1, 1], "tricks": [1, 1, 1]},
                  {"bids": [1, 0, 1], "tricks": [0, 1, 1]}])
    shoot(page, out, "cooperative")
    page.goto(base + "/")
    shoot(page, out, "home")
    page.goto(base + "/g/no-such-game")
    shoot(page, out, "error")


def changes(page: Page, base: str, out: Path) -> None:
    """Changes at the table: the plan page, new rules previewed and refused, the end with "Play
    again"."""
    four = ["Ann", "Bob", "Cy", "Dee"]
    opened(page, base, title="Down and up", players=four, rules={"max_cards": 5},
           deals=[{"bids": [1, 1, 1, 1], "tricks": [2, 1, 1, 1]},
                  {"bids": [1, 0, 1, 1], "tricks": [1, 1, 1, 1]},
                  {"bids": [None, None, None, 1]}])
    game = page.url
    page.goto(game + "/plan")
    shoot(page, out, "plan")
    page.locator("button[value=nt]").click()
    page.wait_for_selector("input[name=nt-0]")
    shoot(page, out, "plan-marks", full_page=False)
    page.goto(game + "/rules")
    page.select_option("select[name='rules-scoring']", "exact")
    page.fill("input[name='rules-zero_bid']", "5")
    shoot(page, out, "rules", full_page=False)
    send(page, "#rules-form .action-bar button")
    shoot(page, out, "rules-preview")
    opened(page, base, title="Free bidding", players=four,
           rules={"max_cards": 3, "bidding": "free"},
           deals=[{"bids": [1, 1, 1, 0], "tricks": [1, 1, 1, 0]}])
    page.goto(page.url + "/rules")
    page.select_option("select[name='rules-bidding']", "hook")
    send(page, "#rules-form .action-bar button")
    shoot(page, out, "rules-refused", full_page=False)
    opened(page, base, title="Over", players=four, rules={"max_cards": 1, "deal": "down"},
           stakes={"per_point": "0.10", "currency": "€"},
           deals=[{"bids": [0, 0, 0, 0], "tricks": [0, 1, 0, 0]}])
    shoot(page, out, "over", full_page=False)


def offline(browser: Browser, base: str, out: Path) -> None:
    """A phone of its own (its service worker, its saved pages): a deal half entered, then opened
    offline."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=base)
    page = context.new_page()
    opened(page, base, title="Saturday", players=["Ann", "Bob", "Cy", "Dee"],
           rules={"max_cards": 5},
           deals=[{"bids": [1, 0, 2, 1], "tricks": [1, 1, 2, 1]}, {"bids": [None, None, 1, 0]}])
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    game = page.url
    page.goto(base + "/")
    page.goto(game)
    while not page.evaluate(KEPT):
        page.wait_for_timeout(100)
    context.set_offline(True)
    page.reload()
    shoot(page, out, "offline-game", full_page=False)
    page.locator("#wake").scroll_into_view_if_needed()
    shoot(page, out, "wake", full_page=False)
    page.goto(base + "/")
    shoot(page, out, "offline-home", full_page=False)
    page.goto(game + "/share")
    shoot(page, out, "offline-unsaved", full_page=False)
    page.goto(game)
    context.set_offline(False)  # the saved copy still on the screen, back online
    page.locator("#saved-copy a").wait_for()
    shoot(page, out, "offline-back", full_page=False)
    page.goto(game.replace("127.0.0.1", LAN_NAME) + "/share")
    shoot(page, out, "share-http", full_page=False)
    context.close()


def outbox(browser: Browser, base: str, out: Path) -> None:
    """Taps kept on the phone: a deal entered with the page open and no connection (the taps
    waiting, the status line), the next deals entered still without one (the deals before pending),
    all of them once the connection is back, and the taps another phone made stale, listed under the
    step with their deal and reason, to discard."""
    four = ["Ann", "Bob", "Cy", "Dee"]
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=base)
    page = context.new_page()
    opened(page, base, title="Sunday", players=four, rules={"max_cards": 5},
           deals=[{"bids": [1, 0, 2, 1], "tricks": [1, 1, 2, 1]}])
    page.wait_for_function("() => Object.keys(localStorage).some(key => key.startsWith('plan:'))")
    context.set_offline(True)
    for value in (1, 2, 0):                      # deal 2, 4 cards: Cy, Dee, Ann; Bob deals
        page.locator(f".bid-form button[name=bid][value='{value}']").click()
    page.locator("#tap-status").filter(has_text="waiting for the network").wait_for()
    shoot(page, out, "outbox-bids", full_page=False)
    page.locator(".bid-form button[name=bid][value='0']").click()
    took(page, 2, 2)
    page.locator(".tricks-form button[type=submit]").click()
    shoot(page, out, "outbox-pending", full_page=False)
    for value in (1, 0, 1, 0):                   # deal 3, 3 cards, still offline: Dee, Ann, Bob;
                                                 # Cy deals
        page.locator(f".bid-form button[name=bid][value='{value}']").click()
    page.locator(".tricks-form button[type=submit]").click()
    page.locator(".deal-title").filter(has_text="Deal 4").wait_for()
    shoot(page, out, "outbox-deals", full_page=False)
    context.set_offline(False)
    page.locator("#tap-status").filter(has_text="Deal 3 saved").wait_for(timeout=20_000)
    shoot(page, out, "outbox-synced", full_page=False)
    other = browser.new_context(viewport={"width": 390, "height": 844}, base_url=base).new_page()
    other.goto(page.url)
    context.set_offline(True)
    for value in (1, 1, 0):                      # deal 4, 2 cards: Ann, Bob, Cy; Dee deals
        page.locator(f".bid-form button[name=bid][value='{value}']").click()
    for value in (0, 0, 1):                      # meanwhile another phone enters them otherwise
        other.locator(f".bid-form button[name=bid][value='{value}']").click()
        other.locator(".bidders .queued").wait_for(state="detached")
    context.set_offline(False)
    page.locator(".unsaved li").nth(2).wait_for(timeout=20_000)
    shoot(page, out, "outbox-unsaved", full_page=False)
    other.context.close()
    context.close()


def groups(page: Page, base: str, out: Path) -> None:
    """A group of eight evenings: its page (leaderboard, ratings chart, games), a player's page, and
    the new-game form of the group with its players as chips, one of them tapped."""
    import random

    from scorekeeper.rules.bidding import Bidding, allowed_bids

    rng = random.Random(7)
    group = page.request.post(base + "/api/groups", data={"name": "Friday club"}).json()
    edit = group["links"]["edit"].rsplit("/", 1)[1]
    regulars = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    for evening in range(8):
        players = rng.sample(regulars, rng.randint(3, 5))
        deals = []
        for number in range(6):
            dealer, cards = number % len(players), 3
            order = [(dealer + 1 + i) % len(players) for i in range(len(players))]
            bid, earlier = [0] * len(players), []
            for seat in order:
                bid[seat] = rng.choice(allowed_bids(Bidding("hook"), cards, earlier,
                                                    dealer=seat == dealer))
                earlier.append(bid[seat])
            took = [0] * len(players)
            for _ in range(cards):
                took[rng.randrange(len(players))] += 1
            deals.append({"bids": bid, "tricks": took})
        game = page.request.post(base + "/api/games", data={
            "title": f"Friday {evening + 1}", "players": players, "deals": deals,
            "rules": {"deal": "fixed", "max_cards": 3, "deals": 6}}).json()
        page.request.post(f"{base}/api/groups/{edit}/games", data={"game": game["links"]["edit"]})
    page.goto(f"{base}/gr/{edit}")
    shoot(page, out, "group")
    page.goto(f"{base}/gr/{edit}/players/Ann")
    shoot(page, out, "group-player")
    page.goto(f"{base}/new?group={edit}")
    send(page, ".roster button[value='chip-0']")
    shoot(page, out, "group-new-game", full_page=False)


def events(browser: Browser, base: str, out: Path) -> None:
    """A club night of 13 at three tables: the director's page with round 1 under way and the
    next round proposed, and the room screen at 1920 × 1080 and 390 × 844 (also in Dutch)."""
    players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou",
               "Max"]
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=base)
    page = context.new_page()
    event = page.request.post(base + "/api/events", data={
        "name": "Friday club night", "date": "2026-12-04", "players": players, "rounds": 3,
        "seed": 7,
        "rules": {"preset": "oh-hell", "deal": "fixed", "max_cards": 1, "deals": 1}}).json()
    edit, view = event["links"]["edit"], event["links"]["view"]
    page.request.post(event["links"]["api"] + "/rounds", data={})
    for table in page.request.get(event["links"]["api"]).json()["played"][0]["tables"]:
        game = page.request.get(table["links"]["api"])
        doc = {name: game.json()[name] for name in ("title", "players", "rules", "first_dealer")}
        n = len(doc["players"])
        doc["deals"] = [{"bids": [1, 1] + [0] * (n - 2), "tricks": [1] + [0] * (n - 1)}]
        page.request.put(table["links"]["edit"].replace("/g/", "/api/games/"), data=doc,
                         headers={"If-Match": game.headers["etag"]})
    page.request.post(event["links"]["api"] + "/rounds", data={})
    page.goto(base + "/events/new")
    shoot(page, out, "event-new")
    page.goto(edit)
    shoot(page, out, "event-director")
    page.goto(view + "?name=kim")
    shoot(page, out, "event-room-phone")
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(view)
    shoot(page, out, "event-room-tv", full_page=False)
    page.goto(base + "/language/nl")
    page.goto(view)
    shoot(page, out, "event-room-tv-nl", full_page=False)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(edit)
    shoot(page, out, "event-director-nl")
    context.close()


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "shots")
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        base = serve(Path(folder))
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                             args=ARGS)
        page = browser.new_page(viewport={"width": 390, "height": 844})
        if sys.argv[2:] == ["events"]:  # only a club night's screens
            events(browser, base, out)
            browser.close()
            return
        groups(page, base, out)
        if sys.argv[2:] == ["groups"]:  # only the group screens
            browser.close()
            return
        play(page, base, out)
        table(page, base, out)
        more(page, base, out)
        changes(page, base, out)
        offline(browser, base, out)
        outbox(browser, base, out)
        browser.close()
    print(f"screenshots in {out}/")


if __name__ == "__main__":
    main()
