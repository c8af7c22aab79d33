"""Tap latency at the table: a tap on a bid until the next bidder is highlighted, on a slow phone
and a slow network; and the game page's weight.

    .venv/bin/python bench/latency.py [DEALS] [--pause SECONDS]     # 6 deals, 0.5 s by default

The app is served by gunicorn (2 workers, bench/harness.py) on a migrated SQLite file. Headless
Chromium opens a new 4-player Oh Hell game on a 390 × 844 screen, every request 300 ms slower
(CDP Network.emulateNetworkConditions) and its CPU 4 times slower (Emulation.setCPUThrottlingRate).
It enters DEALS whole deals as a scorer does: each bid a random one of those not struck out, tapped
PAUSE seconds after the screen showed who bids next; then the tricks, saved. The page
times every bid from its tap (the click event's time) until the highlighted bidder changes
(performance.now() in a MutationObserver: tests/browser/phone.py's TIME_BIDS). Side by side, the
same deals (the same random bids) are entered on a phone whose storage is turned off, where each
tap waits for the server's answer, as every tap did before the outbox. It prints p50 and p95 over
all the bids of each, and the bytes of the game page with its CSS and JavaScript.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent / "tests" / "browser"))

from harness import gunicorn, migrated_sqlite, page_weight, sized
from phone import PHONE, TIME_BIDS, slow_phone_and_network
from playwright.sync_api import Browser, Page, sync_playwright

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run",
        "--disable-component-update", "--disable-sync", "--disable-quic"]


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def play_deal(page: Page, rng: random.Random, pause: float) -> None:
    """One deal's bids, each a random bid not struck out, then its tricks as they start (or, when
    the bids add up to more than the cards, all to the dealer), saved."""
    while page.locator(".bid-form").count():
        time.sleep(pause)
        taps = page.evaluate("window.bidTimes.length")
        buttons = page.locator(".bid-form button.num:not(.struck)")
        buttons.nth(rng.randrange(buttons.count())).click()
        page.wait_for_function(f"() => window.bidTimes.length > {taps}", polling=20)
    time.sleep(pause)
    # the bids add up to more than the cards
    if "✓" not in (page.locator("#trick-sum").text_content() or ""):
        # the rows go in bidding order: the dealer's last
        for row in page.locator(".seat-row").all()[:-1]:
            # none for the others: the dealer took them all
            row.locator("label.num").first.click()
    number = (page.locator(".tricks-form button[type=submit]").text_content() or "").split()[-1]
    page.locator(".tricks-form button[type=submit]").click()
    page.wait_for_function(
        f"""() => document.querySelector(".bid-form") && [...document.querySelectorAll(
        ".last-deal h2")].some(h => h.textContent === "Deal {number} scored")""", timeout=30_000)


#: Storage turned off: play.js then sends each tap and waits for its answer, as before the outbox.
NO_STORAGE = """Object.defineProperty(window, "localStorage", {
  get() { throw new DOMException("turned off", "SecurityError"); } });"""


def measure(browser: Browser, port: int, outbox: bool, deals: int,
            pause: float) -> tuple[list[float], dict[str, int]]:
    """The times of every bid of ``deals`` new deals on a new game, and the game page's
    weight."""
    context = browser.new_context(viewport=PHONE, base_url=f"http://127.0.0.1:{port}")
    if not outbox:
        context.add_init_script(NO_STORAGE)
    page = context.new_page()
    created = page.request.post("/api/games", data={"players": ["Ann", "Bob", "Cy", "Dee"]}).json()
    path = created["links"]["edit"].split(str(port), 1)[1]
    page.goto(path)
    sizes, _ = page_weight(port, path, {"Cookie": "; ".join(f"{c['name']}={c['value']}"
                                                            for c in context.cookies())})
    slow_phone_and_network(page)
    page.evaluate(TIME_BIDS)
    rng = random.Random(13)
    for _ in range(deals):
        play_deal(page, rng, pause)
    times: list[float] = page.evaluate("window.bidTimes")
    exported = page.request.get(created["links"]["api"]).json()
    context.close()
    assert len(exported["deals"]) == deals and all(deal["tricks"] for deal in exported["deals"])
    return times, sizes


def arguments(doc: str) -> argparse.Namespace:
    """The deals to play and the pause before each tap, from the command line."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("deals", type=int, nargs="?", default=sized(6, 1))
    parser.add_argument("--pause", type=float, default=sized(0.5, 0),
                        help="seconds between the screen and the tap")
    return parser.parse_args()


def main() -> int:
    options = arguments(__doc__)
    env = migrated_sqlite("scorekeeper-latency-")
    with gunicorn("scorekeeper:create_app()", env) as port, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                             args=ARGS)
        # The same deals (the same random bids), drawn at once; then with each tap waiting for its
        # answer.
        times, sizes = measure(browser, port, True, options.deals, options.pause)
        waited, _ = measure(browser, port, False, options.deals, options.pause)
        browser.close()
    print(f"{len(times)} bids over {options.deals} deals, 4 players, 300 ms network latency, "
          f"CPU 4× slower, {options.pause} s between screen and tap")
    print("tap → next bidder highlighted:")
    for name, found in (("drawn at once (the outbox)", times),
                        ("each tap waiting for its answer", waited)):
        print(f"  {name}: p50 {statistics.median(found):.0f} ms, "
              f"p95 {percentile(found, 95):.0f} ms, max {max(found):.0f} ms")
    print(f"  p95 ratio: {percentile(times, 95) / percentile(waited, 95):.2f}×")
    print(f"game page with its CSS and JavaScript: {sum(sizes.values()) / 1000:.1f} KB "
          f"({' + '.join(f'{name} {size / 1000:.1f}' for name, size in sizes.items())})")
    print(json.dumps({"p50": statistics.median(times), "p95": percentile(times, 95),
                      "waited_p50": statistics.median(waited),
                      "waited_p95": percentile(waited, 95), "bytes": sizes}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
