"""Tap to next step on a seat's phone (SEATS.md): a player's own bid, from their seat's page, until
the page shows it entered and the turn moved on; beside the scorer's page, in the same run.

    .venv/bin/python bench/seat_latency.py [DEALS] [--pause SECONDS]   # 6 deals, 0.5 s by default

The app is served by gunicorn (2 workers, bench/harness.py) on a migrated SQLite file. Four headless
Chromium phones, 390 × 844, open the seats of a new 4-player game, each phone's requests 300 ms
slower and its CPU 4 times slower (tests/browser/phone.py's slow_phone_and_network). In each deal
every player bids on their own phone when it says "Your bid" (the page follows the game live), a
random bid not struck out, PAUSE seconds after; the dealer last. The tricks are entered from the
scorer's link (all to the first bidder). Each bid is timed from its tap (the click event's time)
until the highlighted bidder changes (performance.now() in a MutationObserver: phone.py's
TIME_BIDS), the dealer's bid included. Then the same number of deals on the scorer's page
(bench/latency.py's measure), side by side. It prints p50 and p95 of each, and the dealer's taps
alone.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent / "tests" / "browser"))

from harness import gunicorn, migrated_sqlite
from latency import ARGS, arguments, measure, percentile
from phone import PHONE, TIME_BIDS, slow_phone_and_network
from playwright.sync_api import Browser, Page, sync_playwright

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def tricks_from_the_scorer(page: Page, api: str) -> None:
    """The deal being played finished from the scorer's link: every trick to the first bidder
    (the whole game sent back over the version it was read at)."""
    answer = page.request.get(api)
    game = answer.json()
    deal = game["deals"][-1]
    first = deal["bids"].index(next(b for b in deal["bids"] if b is not None))
    tricks = [0] * len(PLAYERS)
    tricks[first] = deal["cards"]
    for key in ("points", "made", "totals"):
        deal.pop(key, None)
    deal["tricks"] = tricks
    document = {key: game[key] for key in ("players", "rules", "deals") if key in game}
    stored = page.request.put(api, data=document, headers={"If-Match": answer.headers["etag"]})
    assert stored.ok, stored.text()


def seats(browser: Browser, port: int, deals: int, pause: float) -> tuple[list[float], list[float]]:
    """The times of every bid of ``deals`` deals entered on the players' own phones, and those of
    the dealers' bids."""
    base = f"http://127.0.0.1:{port}"
    contexts = [browser.new_context(viewport=PHONE, base_url=base) for _ in PLAYERS]
    scorer = contexts[0].new_page()
    made = scorer.request.post("/api/games", data={"players": PLAYERS}).json()
    phones = []
    for seat, context in enumerate(contexts):
        phone = context.new_page()
        phone.goto(made["links"]["seats"][seat].split(str(port), 1)[1])
        slow_phone_and_network(phone)
        phone.evaluate(TIME_BIDS)
        phones.append(phone)
    rng = random.Random(13)
    dealers: list[float] = []
    for number in range(1, deals + 1):
        for _turn in PLAYERS:
            waiting = [phone for phone in phones if phone.locator(".your-bid").count()]
            while not waiting:  # the turn comes to the next phone by the live updates
                phones[0].wait_for_timeout(20)
                waiting = [phone for phone in phones if phone.locator(".your-bid").count()]
            phone = waiting[0]
            time.sleep(pause)
            taps = phone.evaluate("window.bidTimes.length")
            dealing = "(" in (phone.locator(".your-bid").text_content() or "")
            buttons = phone.locator(".bid-form button.num:not(.struck)")
            buttons.nth(rng.randrange(buttons.count())).click()
            phone.wait_for_function(f"() => window.bidTimes.length > {taps}", polling=20)
            if dealing:
                dealers.append(phone.evaluate("window.bidTimes[window.bidTimes.length - 1]"))
        # every bid stored (the last one sent from its phone) before the scorer enters the tricks
        while len([b for b in scorer.request.get(made["links"]["api"]).json()["deals"][-1]["bids"]
                   if b is not None]) < len(PLAYERS):
            scorer.wait_for_timeout(20)
        tricks_from_the_scorer(scorer, made["links"]["api"])
        for phone in phones:
            phone.wait_for_function(f"""() => [...document.querySelectorAll(".last-deal h2")]
                .some(h => h.textContent === "Deal {number} scored")""", timeout=30_000)
    times = [t for phone in phones for t in phone.evaluate("window.bidTimes")]
    exported = scorer.request.get(made["links"]["api"]).json()
    for context in contexts:
        context.close()
    assert len(exported["deals"]) == deals and all(deal["tricks"] for deal in exported["deals"])
    return times, dealers


def main() -> int:
    options = arguments(__doc__)
    env = migrated_sqlite("scorekeeper-seat-latency-")
    with gunicorn("scorekeeper:create_app()", env) as port, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                             args=ARGS)
        seat_times, dealers = seats(browser, port, options.deals, options.pause)
        scorer_times, _ = measure(browser, port, True, options.deals, options.pause)
        browser.close()
    print(f"{options.deals} deals, 4 players, 300 ms network latency, CPU 4× slower, "
          f"{options.pause} s between screen and tap")
    print("tap → the bid shown and the next bidder highlighted:")
    for name, found in ((f"the seats' own phones ({len(seat_times)} bids)", seat_times),
                        (f"  of which the dealers' ({len(dealers)})", dealers),
                        (f"the scorer's phone ({len(scorer_times)} bids)", scorer_times)):
        print(f"  {name}: p50 {statistics.median(found):.0f} ms, "
              f"p95 {percentile(found, 95):.0f} ms, max {max(found):.0f} ms")
    print(f"  p95 ratio, seat / scorer: "
          f"{percentile(seat_times, 95) / percentile(scorer_times, 95):.2f}×")
    print(json.dumps({"seat_p50": statistics.median(seat_times),
                      "seat_p95": percentile(seat_times, 95), "dealer_max": max(dealers),
                      "scorer_p50": statistics.median(scorer_times),
                      "scorer_p95": percentile(scorer_times, 95)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
