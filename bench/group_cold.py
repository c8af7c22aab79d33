"""The first page of a full group in a worker that holds nothing of it, side by side: its games
replayed, and their records read (``store.games.records_of``), in one process, on a SQLite
file. The group holds ``MAX_GROUP_GAMES`` finished games of ten new names each (50,000 players).

    .venv/bin/python bench/group_cold.py [GAMES]
    .venv/bin/python bench/group_cold.py --smoke     # 20 games: it runs
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import sized

from scorekeeper import create_app
from scorekeeper.groups import figures, loaded
from scorekeeper.rules.gamefile import parse
from scorekeeper.rules.values import MAX_GROUP_GAMES
from scorekeeper.store.db import commit, db
from scorekeeper.store.games import StoredGame
from scorekeeper.store.groups import StoredGroup


def restarted() -> None:
    for kept in (figures._entries, figures._figures, figures._settled, figures._marked):
        kept._items.clear()


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else sized(MAX_GROUP_GAMES, 20)
    folder = tempfile.mkdtemp()
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.db",
                      "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False})
    with app.app_context():
        db.create_all()
    with app.test_request_context():
        group = StoredGroup.create("Club")
        for number in range(games):
            game = StoredGame.create(parse({
                "players": [f"P{number}-{seat}" for seat in range(10)],
                "rules": {"deal": "fixed", "max_cards": 1, "deals": 1},
                "deals": [{"bids": [0] * 10, "tricks": [1] + [0] * 9}]}))
            group.add(game)
        commit()
        token = group.view_token
    client = app.test_client()
    started = time.perf_counter()
    assert client.get(f"/gr/{token}").status_code == 200
    print(f"{games} games; the first page (its records stored as each game was made): "
          f"{time.perf_counter() - started:.2f} s")
    real = loaded.records_of
    times: dict[str, list[float]] = {"replayed": [], "records read": []}
    for _round in range(3):
        for case, seconds in times.items():
            restarted()
            if case == "replayed":  # the page as before: no summary is found
                loaded.records_of = lambda _ids: {}
            started = time.perf_counter()
            assert client.get(f"/gr/{token}").status_code == 200
            seconds.append(time.perf_counter() - started)
            loaded.records_of = real
    for case, seconds in times.items():
        print(f"cold page, {case}: median {statistics.median(seconds):.2f} s, "
              f"worst {max(seconds):.2f} s")
    ratio = statistics.median(times["replayed"]) / statistics.median(times["records read"])
    print(f"replayed / records read: {ratio:.1f}×")


if __name__ == "__main__":
    main()
