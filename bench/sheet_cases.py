"""The largest sheets RULES.md §8 allows, and what each costs to print (run by hand, not in CI).

largest_game_file() (parsed: largest_game()) and LARGEST_BLANK are the worst cases: the
worst-case benchmark imports them, and so do the sheet tests (for their page counts and
structure, never their times). The worst-case benchmark's own largest game, the same game made
as heavy as RULES.md allows (the longest names, title and reasons, house formulas), is timed too.

    .venv/bin/python bench/sheet_cases.py [N]
    .venv/bin/python bench/sheet_cases.py --smoke     # each once, 10 deals: it runs

prints, for each case, the median wall-clock and CPU seconds of N renders (after a warm-up) and
the page count; on a shared machine the CPU time is the steadier figure.
"""

from __future__ import annotations

import gc
import io
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if str(ROOT / "bench") not in sys.path:
    sys.path.insert(0, str(ROOT / "bench"))

from harness import sized

from scorekeeper.rules.gamefile import GameFile, parse

#: RULES.md §8: at most 10 players, 300 deals, 100 adjustments of reasons up to 100 characters
#: (a smoke run: 10 deals, 10 adjustments).
PLAYERS, DEALS, ADJUSTMENTS, CARDS = 10, sized(300, 10), sized(100, 10), 5
#: The largest blank sheet: 10 seats, 200 deals (the most a count allows), the hook's dealer
#: column, and the spare tie-break rows the sheet adds.
LARGEST_BLANK = {"players": str(PLAYERS), "deal": "fixed", "max_cards": str(CARDS),
                 "deals": str(sized(200, 10)), "tie": "one-card-hand"}


def largest_game_file(seed: int = 300) -> dict[str, Any]:
    """The largest game's file: 10 players, 300 five-card deals, 100 adjustments, table-ended.

    The adjustments' reasons run to 60–100 characters; bids are made 60% of the time.
    """
    rng = random.Random(seed)
    deals = []
    for _ in range(DEALS):
        tricks = [0] * PLAYERS
        for _ in range(CARDS):
            tricks[rng.randrange(PLAYERS)] += 1
        bids = [t if rng.random() < 0.6 else rng.randint(0, CARDS) for t in tricks]
        deals.append({"bids": bids, "tricks": tricks})
    words = ("revoke", "misdeal", "renege", "scoring", "slip", "late", "bid", "corrected", "by",
             "agreement", "of", "the", "table")
    adjustments: list[dict[str, Any]] = []
    for _ in range(ADJUSTMENTS):
        reason = ""
        target = rng.randint(60, 100)
        while len(reason) < target:
            reason = f"{reason} {rng.choice(words)}".strip()
        adjustments.append({"deal": rng.randint(1, DEALS), "player": rng.randrange(PLAYERS),
                            "points": rng.randint(-50, 50) or 1, "reason": reason[:target]})
    return {
        "title": "The longest game",
        "players": [f"Player {i}" for i in range(PLAYERS)],
        "rules": {"deal": "fixed", "max_cards": CARDS, "bidding": "free"},
        "deals": deals, "adjustments": adjustments, "stakes": {"per_point": "0.05"}, "ended": True,
    }


def largest_game(seed: int = 300) -> GameFile:
    """The largest game, parsed and replayed by the rules core."""
    return parse(largest_game_file(seed))


def _pages(data: bytes) -> int:
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(data)).pages)


def _median_seconds(render: Callable[[], bytes], runs: int) -> tuple[float, float, int]:
    """The median wall and CPU seconds of ``runs`` renders after a warm-up (of the warm-up alone
    when ``runs`` is 0), and the page count."""
    wall, cpu = [], []
    start, used = time.perf_counter(), time.process_time()
    data = render()
    if not runs:
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - used)
    for _ in range(runs):
        gc.collect()
        start, used = time.perf_counter(), time.process_time()
        render()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - used)
    return statistics.median(wall), statistics.median(cpu), _pages(data)


def main(runs: int = 5) -> int:
    """Print each worst case's median render time in seconds and its page count."""
    from worst_cases import largest_game as heaviest_game  # it imports this module: not at the top

    from scorekeeper import create_app
    from scorekeeper.sheets.model import filled_sheet
    from scorekeeper.sheets.pdf import render_pdf
    from scorekeeper.sheets.views import blank_pdf_sheet

    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    game, heaviest = largest_game(), parse(heaviest_game())
    cases: dict[str, Callable[[], bytes]] = {
        f"filled sheet, {PLAYERS} players x {DEALS} deals, {ADJUSTMENTS} adjustments":
            lambda: render_pdf(filled_sheet(game)),
        "the same, 40-character names, house formulas (worst_cases.py)":
            lambda: render_pdf(filled_sheet(heaviest)),
        f"blank sheet, {PLAYERS} players x {LARGEST_BLANK['deals']} deals + tie-breaks":
            lambda: render_pdf(blank_pdf_sheet(LARGEST_BLANK)),
    }
    with app.test_request_context():
        for name, render in cases.items():
            wall, cpu, pages = _median_seconds(render, runs)
            print(f"{name}: {wall:.2f} s wall, {cpu:.2f} s CPU (medians of {runs}), {pages} pages",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sized(int(sys.argv[1]) if len(sys.argv) > 1 else 5, 0)))
