"""Where a tap's time goes: a Chromium performance trace of the taps of one deal on a slow
phone.

    .venv/bin/python bench/trace_tap.py [--cpu 4] [--out trace.json]

The app is served by gunicorn (bench/harness.py) on a migrated SQLite file. Headless Chromium opens
a new 4-player game on a 390 × 844 screen, its CPU 4 times slower and every request 300 ms slower,
and enters one deal's bids (the dealer's last, which turns the page to the tricks step) while
Chromium traces. For each bid it prints the time from the tap to the next step shown (as
bench/latency.py measures it) and the main thread's work in that time: the click's handlers, and
within them (events nest) the parsing of what they draw, and the style and layout they force.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent / "tests" / "browser"))

from harness import BIN, ROOT, gunicorn
from latency import ARGS
from phone import PHONE, TIME_BIDS, slow_phone_and_network
from playwright.sync_api import sync_playwright

#: The trace events counted, by what they are. They nest: the click's handlers (EventDispatch) hold
#: the parsing of what they draw (ParseHTML) and any style or layout they force (a focus does).
KINDS = {"EventDispatch": "handlers", "ParseHTML": "parse", "UpdateLayoutTree": "style",
         "Layout": "layout", "RunMicrotasks": "microtasks", "Paint": "paint", "HitTest": "hit test",
         "TimerFire": "timers"}


#: Times the phone's own functions, tap by tap (each tap's click starts a new tally).
WRAP = """() => {
  window.spent = [];
  // only what the tap's own task runs: not the drawing of the server's answer later
  let active = false;
  document.addEventListener("click", e => {
    if (!e.target.closest(".bid-form button")) return;
    spent.push({});
    active = true;
    setTimeout(() => { active = false; }, 0);
  }, true);
  const wrap = (owner, name, label) => {
    const inner = owner[name];
    owner[name] = function (...args) {
      const start = performance.now();
      try { return inner.apply(this, args); } finally {
        const tally = active && spent[spent.length - 1];
        if (tally) tally[label] = (tally[label] || 0) + performance.now() - start;
      }
    };
  };
  ["state", "draw", "sums", "focus", "label", "said"]
    .forEach(name => wrap(Step, name, "Step." + name));
  ["add", "save", "pending", "send"]
    .forEach(name => wrap(Outbox.prototype, name, "outbox." + name));
  wrap(Storage.prototype, "setItem", "localStorage.setItem");
  wrap(JSON, "stringify", "JSON.stringify");
}"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cpu", type=int, default=4)
    parser.add_argument("--out", default="")
    options = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="scorekeeper-trace-")
    env = {"DATABASE_URL": f"sqlite:///{folder}/app.sqlite", "RATELIMIT_ENABLED": "no"}
    subprocess.run([str(BIN / "flask"), "--app", "scorekeeper", "db", "upgrade"], cwd=ROOT,
                   env={**os.environ, **env}, check=True, capture_output=True)
    with gunicorn("scorekeeper:create_app()", env) as port, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                             args=ARGS)
        context = browser.new_context(viewport=PHONE, base_url=f"http://127.0.0.1:{port}")
        page = context.new_page()
        created = page.request.post("/api/games",
                                    data={"players": ["Ann", "Bob", "Cy", "Dee"]}).json()
        page.goto(created["links"]["edit"].split(str(port), 1)[1])
        slow_phone_and_network(page, cpu=options.cpu)
        page.evaluate(TIME_BIDS)
        page.evaluate("""() => { window.tapMarks = [];
            document.addEventListener("click", e => {
                if (e.target.closest(".bid-form button"))
                    tapMarks.push(performance.timeOrigin + e.timeStamp);
            }, true); }""")
        page.evaluate(WRAP)
        trace = Path(options.out or f"{folder}/trace.json")
        browser.start_tracing(page=page, path=str(trace),
                              categories=["devtools.timeline", "v8", "blink"])
        # Bob, Cy, Dee, then Ann deals (10 cards): the last turns to the tricks
        for value in (3, 2, 2, 2):
            count = page.evaluate("window.bidTimes.length")
            page.locator(f".bid-form button[name=bid][value='{value}']").click()
            page.wait_for_function(f"() => window.bidTimes.length > {count}", polling=20)
            page.wait_for_timeout(800)
        browser.stop_tracing()
        times, marks = page.evaluate("window.bidTimes"), page.evaluate("window.tapMarks")
        spent = page.evaluate("window.spent")
        browser.close()
    events = json.loads(trace.read_text())
    events = events["traceEvents"] if isinstance(events, dict) else events
    main_thread = collections.Counter(e["tid"] for e in events
                                      if e.get("name") == "EventDispatch").most_common(1)[0][0]
    # Trace times are microseconds of the browser's monotonic clock; the taps' of the page's: align
    # on the first click's EventDispatch.
    clicks = sorted(e["ts"] for e in events
                    if e.get("name") == "EventDispatch" and e.get("tid") == main_thread
                    and e.get("args", {}).get("data", {}).get("type") == "click")
    for number, (took, mark) in enumerate(zip(times, marks)):
        start = clicks[number] if number < len(clicks) else None
        if start is None:
            continue
        end = start + took * 1000
        work: collections.Counter[str] = collections.Counter()
        for e in events:
            if (e.get("ph") == "X" and e.get("tid") == main_thread and start <= e["ts"] < end
                    and e.get("name") in KINDS):
                work[KINDS[e["name"]]] += e.get("dur", 0) / 1000
        print(f"bid {number + 1}: {took:.0f} ms to the next step; main thread: "
              + ", ".join(f"{kind} {ms:.0f} ms" for kind, ms in work.most_common()))
        if number < len(spent):
            print("    in the scripts: " + ", ".join(
                f"{name} {ms:.0f} ms"
                for name, ms in sorted(spent[number].items(), key=lambda item: -item[1])))
    print(f"trace: {trace}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
