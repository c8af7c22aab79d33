"""What the page tests share: real CSRF tokens taken from the pages, page text, a scorer driving a
game."""

from __future__ import annotations

import html
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import strategies as st
from werkzeug.routing import Rule
from werkzeug.test import TestResponse

from scorekeeper import create_app
from scorekeeper.store import games as stored_games
from scorekeeper.store.db import db
from scorekeeper.store.games import Game
from scorekeeper.store.groups import Group, GroupGame

TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
VERSION = re.compile(r'name="version"[^>]*value="(\d+)"')
#: The deal a page's taps are for, and the bid its undo takes back.
DEAL = re.compile(r'name="deal" value="(\d+)"')
UNDO_SEAT = re.compile(r'/undo"[^>]*>(?:(?!</form>).)*?name="seat" value="(\d+)"', re.DOTALL)

FOUR = ["Ann", "Bob", "Cy", "Dee"]

#: Text that broke or slowed the app before RULES.md §8 bounded it: exponents, other scripts'
#: digits, long and huge numbers, NaN, control and format characters, formulas of text.
HOSTILE_TEXT = [
    "1e100000000", "1e-99999999", "1e20", "1E5", "2e0", "0.5e1", "²", "³", "١٢", "１２", "߁", "٣",
    "𝟗", "Ⅻ", "½", "9" * 13, "9" * 4400, "-" + "9" * 300, "99999999999999999999", "-0", "+5", "5.0",
    "1.5", "0,05", "1_000", "0x10", "0o7", "0b1", "NaN", "nan", "inf", "-Infinity", "", " ", "−2",
    "\x00", "1\x00", "\x1b[2J", "\x7f", "\u0085", "\u200b", "\u200b\u200b", "Bob\u202e", "\u2066x",
    "\ufeff", "\u00ad", "\ud7ff", "A\u0301", "\u0301", "('%0999999999d'%1)<'2'",
    "max('%0999999999d'%1, '%0999999999d'%1)", "f'{bid}'", "10/(cards-5)", "bid ** 999",
    "9 ** 9 ** 9", "__import__('os')", "5+n", "1001+n", "5 + N", "n", "<script>alert(1)</script>",
    "' OR 1=1 --", "1-2-3NT-2-1", "1-²-3", "S-D-C-H-NT", "a" * 300,
]
hostile_text = st.one_of(
    st.sampled_from(HOSTILE_TEXT),
    st.integers(-10**15, 10**15).map(str),
    st.floats().map(str),
    st.text(st.characters(whitelist_categories=("Nd", "No", "Nl", "Cc", "Cf", "Zs", "Mn", "So")),
            max_size=8),
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=12),
)

#: Any JSON value, hostile strings and numbers included.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=False)
    | st.sampled_from([10**20, 10**30, -(2**63), 2**64, 10**4000, 1e300, 5.0, -0.0])
    | st.text(max_size=30) | hostile_text,
    lambda children: (st.lists(children, max_size=5)
                      | st.dictionaries(st.text(max_size=10), children, max_size=5)),
    max_leaves=12,
)

#: The most a request within the limits may take (RULES.md §8); far above what any takes here.
QUICK = 2.0


@contextmanager
def within_cpu(seconds: float = QUICK, what: str = "the request") -> Iterator[None]:
    """A guard against runaway work, not a benchmark: the work done meanwhile, counted in this
    process's CPU time (the test client answers in this thread), stays under ``seconds``. The clock
    is never read: another test's browser or worker holding the machine's cores only makes a
    request wait, which counts for nothing here. How long a request takes is measured in bench/."""
    worked = time.process_time()
    yield
    spent = time.process_time() - worked
    assert spent < seconds, f"{what} cost {spent:.2f} s of CPU, over {seconds} s"


def text(page: str) -> str:
    """A page's text as shown, for looking for sentences: tags stripped, entities decoded, and the
    scripts' data (their sentences, shown only when a script needs one) left out."""
    shown = re.sub(r"<script\b.*?</script>", " ", page, flags=re.DOTALL)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", shown)).split())


def csrf_from(page: str) -> str:
    """The CSRF token of the first form on a page."""
    match = TOKEN.search(page)
    assert match, "the page has no form with a CSRF token"
    return match.group(1)


class Scorer:
    """One game played through the test client, the way the pages post."""

    def __init__(self, client: FlaskClient, token: str, view_token: str) -> None:
        self.client, self.token, self.view_token = client, token, view_token

    @property
    def url(self) -> str:
        return f"/g/{self.token}"

    def page(self) -> str:
        response = self.client.get(self.url)
        assert response.status_code == 200, response.status_code
        return response.get_data(as_text=True)

    def version(self) -> int:
        match = VERSION.search(self.page())
        assert match
        return int(match.group(1))

    def post(self, path: str, data: dict[str, Any] | None = None, **fields: Any) -> TestResponse:
        """POST to one of the game's write routes with the page's CSRF token and version, and, as
        the page's taps do, the deal they are for and the bid an undo takes back."""
        page = self.page()
        found, seat = DEAL.search(page), UNDO_SEAT.search(page)
        tap = {"deal": found.group(1) if found else None,
               "seat": seat.group(1) if seat and path == "/undo" else None}
        form = {"csrf_token": csrf_from(page), "version": self.version(), **tap,
                **(data or {}), **fields}
        return self.client.post(self.url + path,
                                data={k: v for k, v in form.items() if v is not None})

    def bid(self, *bids: int) -> TestResponse:
        """Bids in bidding order, one tap each; the last response."""
        response = None
        for value in bids:
            seat = int(re.search(r'name="seat" value="(\d+)"', self.page()).group(1))  # type: ignore[union-attr]
            response = self.post("/bid", seat=seat, bid=value)
            assert response.status_code == 302, response.get_data(as_text=True)
        assert response is not None
        return response

    def tricks(self, *tricks: int) -> TestResponse:
        """Trick counts in seating order."""
        return self.post("/tricks", {f"tricks-{seat}": t for seat, t in enumerate(tricks)})

    def export(self) -> dict[str, Any]:
        data: dict[str, Any] = self.client.get(f"/api/games/{self.token}").get_json()
        return data


def snapshot(app: Flask) -> list[tuple[str, str, int, str]]:
    """Every stored game as (token, data, version, what the seats entered): what a refused request
    must leave as it was."""
    with app.app_context():
        rows = db.session.execute(
            db.select(Game.token, Game.data, Game.version, Game.seats).order_by(Game.id)).all()
    return [(token, data, version, seats) for token, data, version, seats in rows]


def groups_snapshot(app: Flask) -> list[tuple[object, ...]]:
    """Every stored group and the place of every game in one: what a refused request leaves as it
    was."""
    with app.app_context():
        groups = db.session.execute(
            db.select(Group.token, Group.name, Group.version).order_by(Group.id)).all()
        places = db.session.execute(
            db.select(GroupGame.game_id, GroupGame.group_id, GroupGame.position,
                      GroupGame.active).order_by(GroupGame.game_id)).all()
    return [tuple(row) for row in [*groups, *places]]


def closed(app: Flask) -> None:
    """Empty the tables (a shared PostgreSQL database stays empty for the next test) and close the
    connections of an app a test made for itself."""
    with app.app_context():
        for table in ("group_games", "groups", "event_games", "games", "events"):
            db.session.execute(db.text(f"DELETE FROM {table}"))
        db.session.commit()
        db.engine.dispose()


def message(response: TestResponse) -> str:
    """The message a refusal shows: the page's alert, else what its refused fields say beside them,
    or the JSON error."""
    if response.is_json:
        return str(response.get_json()["error"])
    page = response.get_data(as_text=True)
    found = re.search(r'role="alert"[^>]*>(.*?)</p>', page, re.DOTALL)
    if found:
        return text(found.group(1))
    return " ".join(text(said) for said in re.findall(
        r'<small class="field-error"[^>]*>(.*?)</small>', page, re.DOTALL))


#: The app's URL map, read once from an app that never opens its database.
URL_MAP = create_app({"TESTING": True, "SECRET_KEY": "x",
                      "SQLALCHEMY_DATABASE_URI": "sqlite://"}).url_map
PLACEHOLDER = re.compile(r"<(?:\w+:)?(\w+)>")


def url_rules(method: str = "") -> list[Rule]:
    """Every route of the app (that answers ``method``), in URL order."""
    return sorted((r for r in URL_MAP.iter_rules() if not method or method in (r.methods or ())),
                  key=lambda r: r.rule)


#: What fills a placeholder a test leaves out: a group's or an event's link that leads to none, a
#: player.
DEFAULTS = {"group": "no-such-group", "event": "no-such-event", "name": "Ann"}


def fill(rule: Rule, **values: object) -> str:
    """A route's URL with its placeholders (<token>, <int:number>, <group>, …) filled in."""
    return PLACEHOLDER.sub(
        lambda match: str(values.get(match.group(1), DEFAULTS.get(match.group(1)))), rule.rule)


def scanned(image: Any) -> list[str]:
    """What a phone's camera reads in a picture of QR codes (a Pillow image): each code's text,
    read by zxing-cpp, a reader independent of how the codes were drawn. Only dark modules on a
    light ground count (``try_invert=False``): some phones' readers find no inverted code."""
    import zxingcpp

    big = image.convert("L").resize((image.width * 8, image.height * 8), resample=0)
    found = zxingcpp.read_barcodes(big, formats=zxingcpp.BarcodeFormat.QRCode, try_invert=False)
    return [code.text for code in found]


def svg_picture(svg: str) -> Any:
    """A picture of an inline SVG QR code, its white square and its dark path of rectangles, one
    pixel per unit (drawn from the path's own moves, not from the matrix that made it)."""
    from PIL import Image, ImageDraw

    size = int(re.search(r'viewBox="0 0 (\d+) \1"', svg).group(1))  # type: ignore[union-attr]
    picture = Image.new("L", (size, size), 128)  # neither light nor dark until drawn
    draw = ImageDraw.Draw(picture)
    for fill, path in re.findall(r'<path fill="(#fff|#000)" d="([^"]*)"', svg):
        for x, y, width, height in re.findall(r"M(\d+) (\d+)h(\d+)v(\d+)h-\3z", path):
            x0, y0 = int(x), int(y)
            draw.rectangle((x0, y0, x0 + int(width) - 1, y0 + int(height) - 1),
                           fill=255 if fill == "#fff" else 0)
    return picture


def terminal_picture(printed: str) -> Any:
    """A picture of a QR code printed with half blocks on a dark terminal (a blank is dark)."""
    from PIL import Image

    lines = [line for line in printed.splitlines() if line and set(line) <= set(" ▀▄█")]
    halves = {" ": (0, 0), "▀": (255, 0), "▄": (0, 255), "█": (255, 255)}
    width = max(map(len, lines))
    picture = Image.new("L", (width, 2 * len(lines)), 0)
    for y, line in enumerate(lines):
        for x, char in enumerate(line):
            top, bottom = halves[char]
            picture.putpixel((x, 2 * y), top)
            picture.putpixel((x, 2 * y + 1), bottom)
    return picture


def together(app: Flask, sends: list[Callable[[FlaskClient], Any]]) -> list[Any]:
    """Two requests at the same moment, from two threads, each on a test client of its own
    (``sends`` call it): both are let past the checks on the game as it was before either writes,
    and the first writes first. (A request that doesn't come as far as the write lets the other go
    on its own.)"""
    checked, first_done = threading.Event(), threading.Event()
    answers: list[Any] = [None, None]
    failed: list[BaseException] = []
    save = stored_games.StoredGame.save

    def in_order(game: stored_games.StoredGame, *args: Any) -> bool:
        if threading.current_thread().name == "send-0":
            checked.wait(timeout=2)
        else:
            checked.set()
            first_done.wait(timeout=2)
        return save(game, *args)

    def send(index: int) -> None:
        try:
            with app.app_context():
                answers[index] = sends[index](app.test_client())
        except BaseException as exc:  # noqa: BLE001 - raised again below, in the test's thread
            failed.append(exc)
        finally:
            (first_done if index == 0 else checked).set()

    threads = [threading.Thread(target=send, args=(i,), name=f"send-{i}") for i in range(2)]
    stored_games.StoredGame.save = in_order  # type: ignore[method-assign]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    finally:
        stored_games.StoredGame.save = save  # type: ignore[method-assign]
    if failed:
        raise failed[0]
    return answers
