"""A tap on one phone, on the other phones of the table (SEATS.md, "Live"): the scorer bids on the
game page, and four phones follow the game's read-only page; each bid is timed from its tap (the
click event's time on the scorer's phone) until each following phone shows the bid (its board
swapped in, a MutationObserver's time), on one clock (``performance.timeOrigin``).

    .venv/bin/python bench/tap_to_phones.py                  # 6 deals, 20 ms and 300 ms
    .venv/bin/python bench/tap_to_phones.py --smoke          # 1 deal, 20 ms: it runs

The app is served by gunicorn with gthread workers (2 workers of 50 threads: the questions are
held till the game changes, web/live.py) on a migrated SQLite file. Every phone (Chromium, 390 ×
844, its own context) has each request slowed by the round trip asked (CDP
Network.emulateNetworkConditions). The scorer enters whole deals: each bid a random one of those
not struck out, tapped once every follower shows the one before; the tricks all to the dealer
when the bids allow it, else the first trick count offered. It prints, for each round trip, p50 /
p95 / max over every (bid, following phone).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent / "tests" / "browser"))

from harness import BIN, ROOT, gunicorn, sized
from latency import ARGS, percentile
from phone import PHONE, slow_phone_and_network
from playwright.sync_api import Browser, Page, sync_playwright

#: The scorer's page notes each bid's tap on the clock every page of the browser shares.
TAPS = """() => {
  window.taps = [];
  document.addEventListener("click", event => {
    if (event.target.closest(".bid-form button")) {
      window.taps.push(performance.timeOrigin + event.timeStamp);
    }
  }, true);
}"""

#: A following page notes when its board is swapped in, on the same clock, and with what version.
SWAPS = """() => {
  window.swaps = [];
  const live = document.getElementById("live");
  new MutationObserver(() => {
    window.swaps.push(performance.timeOrigin + performance.now());
  }).observe(live, { childList: true });
}"""


def bid_once(scorer: Page, followers: list[Page], rng: random.Random) -> list[float]:
    """One bid, random among those not struck out; the seconds until each follower showed it."""
    seen = [follower.evaluate("window.swaps.length") for follower in followers]
    taps = scorer.evaluate("window.taps.length")
    buttons = scorer.locator(".bid-form button.num:not(.struck)")
    buttons.nth(rng.randrange(buttons.count())).click()
    scorer.wait_for_function(f"() => window.taps.length > {taps}", polling=10)
    tapped: float = scorer.evaluate(f"window.taps[{taps}]")
    late = []
    for follower, before in zip(followers, seen, strict=True):
        follower.wait_for_function(f"() => window.swaps.length > {before}", polling=10,
                                   timeout=60_000)
        late.append(follower.evaluate(f"window.swaps[{before}]") - tapped)
    return late


def tricks(scorer: Page, followers: list[Page]) -> None:
    """The deal's tricks, saved (not timed): the dealer takes them all, when the bids allow."""
    seen = [follower.evaluate("window.swaps.length") for follower in followers]
    if "✓" not in (scorer.locator("#trick-sum").text_content() or ""):
        for row in scorer.locator(".seat-row").all()[:-1]:
            row.locator("label.num").first.click()
    scorer.locator(".tricks-form button[type=submit]").click()
    scorer.wait_for_selector(".bid-form", timeout=30_000)
    for follower, before in zip(followers, seen, strict=True):
        follower.wait_for_function(f"() => window.swaps.length > {before}", polling=50,
                                   timeout=60_000)


def measure(browser: Browser, port: int, latency: int, deals: int) -> list[float]:
    """Every (bid, follower) delay, in ms, over ``deals`` deals of a new game."""
    contexts = [browser.new_context(viewport=PHONE, base_url=f"http://127.0.0.1:{port}")
                for _ in range(5)]
    scorer = contexts[0].new_page()
    created = scorer.request.post("/api/games", data={"players": ["Ann", "Bob", "Cy", "Dee"]})
    links = created.json()["links"]
    scorer.goto(links["edit"].split(str(port), 1)[1])
    followers = [context.new_page() for context in contexts[1:]]
    for page in [scorer, *followers]:
        slow_phone_and_network(page, latency=latency, cpu=1)
    for follower in followers:
        follower.goto(links["view"].split(str(port), 1)[1])
        follower.evaluate(SWAPS)
    scorer.evaluate(TAPS)
    rng = random.Random(latency)
    late: list[float] = []
    for _ in range(deals):
        while scorer.locator(".bid-form").count():
            late += bid_once(scorer, followers, rng)
        tricks(scorer, followers)
    for context in contexts:
        context.close()
    return late


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=sized(6, 1))
    parser.add_argument("--latency", type=int, nargs="*", default=sized([20, 300], [20]),
                        help="round trips, in ms")
    options = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="scorekeeper-phones-")
    env = {"DATABASE_URL": f"sqlite:///{folder}/app.sqlite", "RATELIMIT_ENABLED": "no"}
    subprocess.run([str(BIN / "flask"), "--app", "scorekeeper", "db", "upgrade"], cwd=ROOT,
                   env={**os.environ, **env}, check=True, capture_output=True)
    with gunicorn("scorekeeper:create_app()", env, workers=2, threads=50) as port, \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                             args=ARGS)
        found = {latency: measure(browser, port, latency, options.deals)
                 for latency in options.latency}
        browser.close()
    print(f"a bid on the scorer's phone → on each of 4 following phones, {options.deals} deals")
    for latency, late in found.items():
        print(f"  round trip {latency} ms: {len(late)} (bid, phone): "
              f"p50 {statistics.median(late):.0f} ms, p95 {percentile(late, 95):.0f} ms, "
              f"max {max(late):.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
