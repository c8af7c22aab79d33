"""What the printed sheet costs: a filled 8-player, 25-deal sheet against a bare WeasyPrint table.

Both run in this process, after a warm-up, N times each; the medians and their ratio are printed.
The target is a sheet that costs at most 1.5 times the bare table of the same size
(8 players × 4 columns × 25 rows, no styling).

    .venv/bin/python bench/bench_sheet.py [N]
    .venv/bin/python bench/bench_sheet.py --smoke     # once, 3 deals: it runs
"""

from __future__ import annotations

import gc
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from harness import SMOKE, sized

from scorekeeper import create_app
from scorekeeper.rules.gamefile import GameFile, parse
from scorekeeper.sheets.model import filled_sheet
from scorekeeper.sheets.pdf import render_pdf

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
DEALS, CARDS = sized(25, 3), 6
TARGET = 1.5


def game(seed: int = 25) -> GameFile:
    """A finished game: 8 players, 25 deals of 6 cards, free bidding, played for stakes."""
    rng = random.Random(seed)
    deals = []
    for _ in range(DEALS):
        tricks = [0] * len(PLAYERS)
        for _ in range(CARDS):
            tricks[rng.randrange(len(PLAYERS))] += 1
        bids = [t if rng.random() < 0.6 else rng.randint(0, CARDS) for t in tricks]
        deals.append({"bids": bids, "tricks": tricks})
    return parse({
        "players": PLAYERS, "deals": deals,
        "rules": {"deal": "fixed", "max_cards": CARDS, "deals": DEALS, "bidding": "free"},
        "stakes": {"per_point": "0.05", "currency": "€"},
    })


def bare_table_html() -> str:
    """The same number of cells as the sheet's score table, with no styling at all."""
    head = "".join(f"<th>{name} bid</th><th>took</th><th>score</th><th>total</th>"
                   for name in PLAYERS)
    rows = "".join(
        "<tr>" + "".join(f"<td>{r}</td><td>{c}</td><td>{r + c}</td><td>{r * c}</td>"
                         for c in range(len(PLAYERS))) + "</tr>"
        for r in range(DEALS)
    )
    return (f"<html><body><table><thead><tr>{head}</tr></thead>"
            f"<tbody>{rows}</tbody></table></body></html>")


def timed(work: Callable[[], bytes]) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one run, started with no garbage left by the one before."""
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def main(runs: int = 10) -> int:
    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    played = game()
    import weasyprint

    html = bare_table_html()
    with app.app_context():
        work = {
            "sheet": lambda: render_pdf(filled_sheet(played)),
            "bare": lambda: weasyprint.HTML(string=html).write_pdf(),
        }
        for run in work.values():
            run()  # warm-up: imports, fonts, caches
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in work}
        for _ in range(runs):  # interleaved, so both see the same load on a shared machine
            for name, run in work.items():
                times[name].append(timed(run))
    wall = {name: statistics.median(t[0] for t in runs_) for name, runs_ in times.items()}
    cpu = {name: statistics.median(t[1] for t in runs_) for name, runs_ in times.items()}
    print(f"filled sheet (8 players x 25 deals): median {wall['sheet'] * 1000:6.0f} ms wall, "
          f"{cpu['sheet'] * 1000:6.0f} ms CPU over {runs} runs")
    print(f"bare WeasyPrint table (8 x 4 x 25):  median {wall['bare'] * 1000:6.0f} ms wall, "
          f"{cpu['bare'] * 1000:6.0f} ms CPU over {runs} runs")
    ratio = wall["sheet"] / wall["bare"]
    print(f"ratio sheet / bare: {ratio:.2f} wall, {cpu['sheet'] / cpu['bare']:.2f} CPU "
          f"(target <= {TARGET})")
    return 0 if ratio <= TARGET or SMOKE else 1


if __name__ == "__main__":
    sys.exit(main(sized(int(sys.argv[1]) if len(sys.argv) > 1 else 10, 1)))
