"""Every page passes axe-core's WCAG 2.2 A and AA checks, in light and in dark, at each step of a
game, with the app's own CSP in force (axe is evaluated through the browser's devtools protocol,
which the page's CSP does not govern)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from phone import ALL_SENT, PHONE, console_errors, next_look
from playwright.sync_api import Browser, Page, expect
from test_browser_night import NAMES, night, play, tables

pytestmark = pytest.mark.browser

#: axe-core, vendored at a pinned version (vendor/LICENSE: MPL-2.0).
AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")
AXE_VERSION = "4.14.1"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
#: Every rule of those levels is run, those axe leaves off unless asked too (target size, 2.5.8, and
#: the experimental ones): each rule axe has with one of the tags is turned on by name.
RUN = """(tags) => axe.run(document, { resultTypes: ['violations'],
  runOnly: { type: 'rule', values: axe.getRules(tags).map(rule => rule.ruleId) } })"""
#: A phone held sideways: the pages whose controls crowd most there are checked in it too.
LANDSCAPE = {"width": 844, "height": 390}
#: A TV, or a projector, showing a club night's room screen.
TV = {"width": 1920, "height": 1080}
#: WCAG 1.4.11, which axe-core does not check: a control's edge (its border, or else its fill) has a
#: contrast of 3:1 against what surrounds it. Inactive controls are exempt, as WCAG says.
CONTROL_EDGES = """() => {
  const rgb = text => (text.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b]
    .map(v => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const opaque = c => c.length < 4 || c[3] === 1;
  const around = el => {
    for (let up = el.parentElement; up; up = up.parentElement) {
      const c = rgb(getComputedStyle(up).backgroundColor);
      if (c.length && opaque(c)) return c;
    }
    return [255, 255, 255];
  };
  const controls = 'main input:not([type=hidden]):not([type=radio]):not([type=checkbox])' +
    ':not([type=file]), main select, main textarea, main button, main a.button, ' +
    'main label.num span, main .pick span, main .choice';
  return [...document.querySelectorAll(controls)]
    .filter(el => el.getClientRects().length && el.offsetParent !== null &&
      !el.matches(':disabled, [aria-disabled=true], .default-submit, .struck, .struck *') &&
      !el.closest('[hidden]'))
    .map(el => {
      const style = getComputedStyle(el), back = around(el), own = rgb(style.backgroundColor);
      const edge = parseFloat(style.borderTopWidth) ? ratio(rgb(style.borderTopColor), back) : 0;
      const fill = own.length && opaque(own) ? ratio(own, back) : 0;
      return [el, Math.max(edge, fill)];
    }).filter(([, best]) => best < 3)
    .map(([el, best]) => `${el.tagName.toLowerCase()}.${el.className} ` +
      `"${el.textContent.trim().slice(0, 20)}" ${best.toFixed(2)}:1`);
}"""
FOUR = ["Ann", "Bob", "Cy", "Dee"]
SCORED = [{"bids": [1, 1, 0, 0], "tricks": [1, 1, 1, 0]},
          {"bids": [1, 0, 0, 0], "tricks": [1, 0, 1, 0]}]


def violations(page: Page) -> list[str]:
    """axe-core's WCAG 2.2 A/AA violations on the page as it is now, one line per rule."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.evaluate(AXE)
    # axe can't tell the colour behind a gradient, and leaves the board's text unchecked: the
    # board's scroll shadow (a gradient over the card colour) gives way to that colour.
    page.evaluate("() => document.querySelectorAll('.board-scroll')"
                  ".forEach(e => { e.style.background = 'var(--card)'; })")
    assert page.evaluate("() => axe.version") == AXE_VERSION
    found: list[dict[str, Any]] = page.evaluate(
        f"(tags) => ({RUN})(tags)"
        ".then(r => r.violations.map(v => ({ id: v.id, impact: v.impact, nodes: v.nodes.map(n =>"
        " n.target.join(' ') + ': ' + n.failureSummary.split('\\n').slice(1, 2).join('').trim())"
        " })))", TAGS)
    faint: list[str] = page.evaluate(CONTROL_EDGES)
    return [f"{v['id']} ({v['impact']}, {len(v['nodes'])}): {v['nodes'][:3]}" for v in found] + (
        [f"non-text-contrast 1.4.11 ({len(faint)}): {faint[:3]}"] if faint else [])


def game(page: Page, **document: Any) -> str:
    """A game stored through the API and opened on this phone; its edit URL."""
    created = page.request.post("/api/games", data={"players": FOUR, **document}).json()
    assert "links" in created, created
    page.goto(created["links"]["edit"])
    return str(created["links"]["edit"])


def view(page: Page, **document: Any) -> None:
    created = page.request.post("/api/games", data={"players": FOUR, **document}).json()
    page.goto(created["links"]["view"])


def refused_new(page: Page) -> None:
    page.goto("/new")
    page.fill("input[name=players-0]", "Ann")
    page.locator("button.primary[value=preview]").click()
    expect(page.locator("#error")).to_be_visible()


def refused_correction(page: Page) -> None:
    """The server's refusal of a correction (sent as without JavaScript: the
    page would not send it)."""
    page.goto(game(page, rules={"max_cards": 3}, deals=SCORED) + "/deal/1")
    page.locator("[data-kind=tricks][data-seat='0'] label.num").nth(3).click()
    page.locator("#correct-form").evaluate("form => form.submit()")
    expect(page.locator("#error")).to_be_visible()


def held_tricks(page: Page, correct: str = "") -> None:
    """Tricks that don't add up, at the tricks step or in a correction: the Save button
    held back, saying why."""
    page.goto(game(page, rules={"max_cards": 3},
                   deals=SCORED if correct else [{"bids": [1, 1, 0, 0]}]) + correct)
    page.locator("[data-seat='0'][data-kind=tricks] label.num, "
                 ".tricks-form [data-seat='0'] label.num").nth(3).click()
    expect(page.locator(".action-bar button")).to_have_attribute("aria-disabled", "true")


def tools_open(page: Page) -> None:
    game(page, rules={"max_cards": 3}, deals=SCORED,
         adjustments=[{"deal": 1, "player": 1, "points": -5, "reason": "revoke"}])
    for summary in page.locator("#tools details > summary").all():
        summary.click()


def refused_adjustment(page: Page) -> None:
    game(page, rules={"max_cards": 3}, deals=SCORED)
    page.locator("#adjust > summary").click()
    page.fill("#adj-points", "lots")
    page.locator("#adjust button[type=submit]").click()
    expect(page.locator("#error")).to_be_visible()


def preview(page: Page) -> None:
    page.goto("/new")
    for seat, name in enumerate(FOUR):
        page.fill(f"input[name=players-{seat}]", name)
    page.locator("button.primary[value=preview]").click()
    expect(page.locator("button[value=start]").first).to_be_visible()


def rules_preview(page: Page, bidding: str) -> None:
    page.goto(game(page, rules={"max_cards": 3, "bidding": "free"}, deals=SCORED) + "/rules")
    page.select_option("select[name='rules-bidding']", bidding)
    page.locator("#rules-form .action-bar button").click()
    page.wait_for_load_state()


def arrive_refused(page: Page) -> None:
    page.goto(game(page, rules={"max_cards": 3}, deals=SCORED[:1]) + "/arrive")
    page.fill("#arrive-name", "Ann")
    page.locator("input[name=seat][value='2']").check()
    page.locator("#arrive-form button[type=submit]").click()
    expect(page.locator("#error")).to_be_visible()


def imported(page: Page, text: str) -> None:
    page.goto("/import")
    page.fill("textarea", text)
    page.locator("button[type=submit]").click()
    page.wait_for_load_state()


def waiting(page: Page) -> None:
    """A deal entered without a connection: the taps kept on the phone, the points pending."""
    game(page, rules={"max_cards": 3})
    page.context.set_offline(True)
    for value in (1, 1, 0, 0):
        page.locator(f".bid-form button[value='{value}']").click()
    page.locator(".tricks-form button[type=submit]").click()
    expect(page.locator("#tap-status")).to_contain_text("waiting for the network")


def unsaved(page: Page) -> None:
    """Taps another phone made stale, listed to enter again or discard."""
    edit = game(page, rules={"max_cards": 3})
    page.context.set_offline(True)
    page.locator(".bid-form button[value='1']").click()
    page.request.post(edit + "/bid", form={
        "csrf_token": page.locator("[name=csrf_token]").first.input_value(),
        "version": "1", "deal": "1", "seat": "1", "bid": "0"})
    page.context.set_offline(False)
    expect(page.locator(".unsaved li")).to_have_count(1, timeout=10_000)


def over_with_groups(page: Page) -> None:
    """A game over on a phone that holds two groups' edit links: each a one-tap choice."""
    for name in ("Friday club", "Family"):
        page.goto(page.request.post("/api/groups", data={"name": name}).json()["links"]["edit"])
    game(page, rules={"max_cards": 1, "deal": "down"},
         deals=[{"bids": [0, 0, 0, 0], "tricks": [0, 1, 0, 0]}])
    expect(page.locator(".group-choices button")).to_have_count(2)


#: Each page (or step of a game) as a phone opens it.
def club_night(page: Page, *, started: bool = True) -> dict[str, str]:
    """A club night of 13 at three tables, its first round under way (or not yet started)."""
    made = page.request.post("/api/events", data={"name": "Friday club night", "rounds": 3,
                                                  "players": [f"Player {n}" for n in range(1, 14)]})
    links: dict[str, str] = made.json()["links"]
    if started:
        page.request.post(links["api"] + "/rounds", data={})
    return links


def night_over(page: Page) -> dict[str, str]:
    """A club night of 8 at two tables whose one round is played: the night is over."""
    links = night(page.request, NAMES[:8], rounds=1, tables={"size": 4})
    page.request.post(links["api"] + "/rounds", data={})
    for table in tables(page.request, links):
        play(page.request, table, 3)
    return links


def opened(page: Page, url: str, size: dict[str, int] | None = None) -> None:
    """A page with every one of its folded parts (``<details>``) open, at a size (a phone's)."""
    if size:
        page.set_viewport_size(size)
    page.goto(url)
    page.evaluate("() => document.querySelectorAll('main details')"
                  ".forEach(d => { d.open = true; })")


def group(page: Page, games: int = 3) -> str:
    """A group of ``games`` finished games, opened on this phone by its edit link; that link."""
    created = page.request.post("/api/groups", data={"name": "Friday club"}).json()
    edit = created["links"]["edit"]
    for number in range(games):
        # all bid 0: one of them misses
        tricks = [1 if seat == number % 4 else 0 for seat in range(4)]
        done = page.request.post("/api/games", data={
            "players": FOUR, "rules": {"max_cards": 1, "deal": "fixed", "deals": 1},
            "deals": [{"bids": [0, 0, 0, 0], "tricks": tricks}],
            "title": f"Friday {number + 1}"}).json()
        page.request.post("/api/groups/" + edit.rsplit("/", 1)[1] + "/games",
                          data={"game": done["links"]["edit"]})
    page.goto(edit)
    return str(edit)


def seat(page: Page, seat: int, bids: list[int | None]) -> None:
    """A seat's page (SEATS.md), in the second deal: Bob deals, Cy bids first."""
    created = page.request.post("/api/games", data={
        "players": FOUR, "rules": {"max_cards": 3},
        "deals": [*SCORED[:1], {"bids": bids}]}).json()
    page.goto(created["links"]["seats"][seat])


def counted(page: Page, counts: list[int | None], link: str, seat: int = 0) -> None:
    """The tricks of the second deal (2 cards, every bid in) with the players' own ``counts``
    entered from their phones (SEATS.md), opened by the game's ``link`` ("seats": ``seat``'s)."""
    created = page.request.post("/api/games", data={
        "players": FOUR, "rules": {"max_cards": 3},
        "deals": [*SCORED[:1], {"bids": [1, 1, 1, 0]}]}).json()
    for player, took in enumerate(counts):
        if took is not None:
            taps = created["links"]["seats"][player].replace("/s/", "/api/games/") + "/taps"
            assert page.request.post(taps, data={"tap": f"a11y-count-{player}", "deal": 2,
                                                 "step": "tricks", "value": took}).ok
    page.goto(created["links"][link][seat] if link == "seats" else created["links"][link])


def seat_next_round(page: Page) -> None:
    """A seat's page of a club night's first round, the second started: the player's next seat."""
    links = night(page.request, NAMES[:8], rounds=2, tables={"size": 4})
    page.request.post(links["api"] + "/rounds", data={})
    first = tables(page.request, links)
    for table in first:
        play(page.request, table, 3)
    page.request.post(links["api"] + "/rounds", data={})
    page.goto(page.request.get(first[0]["links"]["edit"].replace("/g/", "/api/games/")
                               ).json()["links"]["seats"][0])


def sealed(page: Page, link: str) -> None:
    """A deal of sealed bids (SEATS.md): Ann's bid entered on this phone, Bob's on another; the
    page of ``link`` ("edit", or a seat's index) opened on this phone."""
    created = page.request.post("/api/games", data={
        "players": FOUR, "rules": {"preset": "british-oh-hell", "deal": "down",
                                   "max_cards": 3}}).json()
    seats = created["links"]["seats"]
    other = page.context.browser.new_context() if page.context.browser else None
    assert other is not None
    for seat, phone in ((0, page.request), (1, other.request)):
        tap = seats[seat].replace("/s/", "/api/games/") + "/taps"
        assert phone.post(tap, data={"tap": f"a11y-{seat}-tap", "deal": 1, "step": "bid",
                                     "value": 1}).ok
    other.close()
    page.goto(created["links"]["edit"] if link == "edit" else seats[int(link)])


def join(page: Page) -> None:
    created = page.request.post("/api/games", data={"players": FOUR}).json()
    page.goto(created["links"]["join"])


PAGES: dict[str, Callable[[Page], object]] = {
    "seat-turn": lambda page: seat(page, 2, [None, None, None, None]),
    "seat-waiting": lambda page: seat(page, 0, [None, None, None, None]),
    "seat-dealer": lambda page: seat(page, 1, [1, None, 1, 0]),
    "seat-tricks": lambda page: seat(page, 1, [1, 1, 1, 0]),
    "seat-count": lambda page: counted(page, [1, None, 0, None], "seats"),
    "seat-counts-off": lambda page: counted(page, [1, 1, 1, 0], "seats", 3),
    "tricks-counts-off": lambda page: counted(page, [1, 1, 1, 0], "edit"),
    "view-counts": lambda page: counted(page, [1, None, 0, None], "view"),
    "seat-next-round": seat_next_round,
    "seat-sealed": lambda page: sealed(page, "0"),
    "seat-sealed-elsewhere": lambda page: sealed(page, "1"),
    "seat-sealed-to-bid": lambda page: sealed(page, "2"),
    "bids-sealed": lambda page: sealed(page, "edit"),
    "join": join,
    "group": group,
    "group-empty": lambda page: group(page, games=0),
    "group-new": lambda page: page.goto("/groups/new"),
    "group-player": lambda page: page.goto(group(page) + "/players/Ann"),
    "group-share": lambda page: page.goto(group(page) + "/share"),
    "group-new-game": lambda page: (
        group(page), page.get_by_role("link", name="New game for this group").click()),
    "game-to-group": lambda page: page.goto(
        game(page, rules={"max_cards": 3}, deals=SCORED) + "/group"),
    "home": lambda page: (game(page), page.goto("/")),
    "new": lambda page: page.goto("/new"),
    "new-refused": refused_new,
    "preview": preview,
    "cards": lambda page: game(page, rules={"deal": "manual", "max_cards": 5}),
    "bid": lambda page: game(page, rules={"max_cards": 3}, deals=[{"bids": [None, 1, 1, 0]}]),
    "bids-at-once": lambda page: game(page, rules={"preset": "british-oh-hell", "deal": "down",
                                                   "max_cards": 3}),
    "tricks": lambda page: game(page, rules={"max_cards": 3}, deals=[{"bids": [1, 1, 0, 0]}]),
    "tricks-held": held_tricks,
    "waiting": waiting,
    "unsaved": unsaved,
    "scored": lambda page: game(page, rules={"max_cards": 3}, deals=SCORED),
    "board-wide": lambda page: game(page, players=FOUR + ["Eve", "Fay"], rules={"max_cards": 3},
                                    deals=[{"bids": [1, 1, 0, 0, 0, 0],
                                            "tricks": [1, 1, 1, 0, 0, 0]}]),
    "tools": tools_open,
    "chart": lambda page: page.goto(game(page, rules={"max_cards": 3}, deals=SCORED) + "/chart"),
    "adjust-refused": refused_adjustment,
    "correct": lambda page: page.goto(game(page, rules={"max_cards": 3}, deals=SCORED) + "/deal/1"),
    "correct-refused": refused_correction,
    "correct-held": lambda page: held_tricks(page, "/deal/1"),
    "end": lambda page: page.goto(game(page, rules={"max_cards": 3}, deals=SCORED) + "/end"),
    "end-refused": lambda page: page.goto(
        game(page, rules={"max_cards": 3}, deals=SCORED + [{"bids": [None, None, None, 1]}])
        + "/end"),
    "over": lambda page: game(page, rules={"max_cards": 1, "deal": "down"},
                              stakes={"per_point": "0.10", "currency": "€"},
                              deals=[{"bids": [0, 0, 0, 0], "tricks": [0, 1, 0, 0]}]),
    "over-with-groups": over_with_groups,
    "cooperative": lambda page: game(page, rules={"preset": "cooperative", "max_cards": 3},
                                     deals=[{"bids": [1, 1, 1, 0], "tricks": [1, 1, 1, 0]}]),
    "share": lambda page: page.goto(game(page) + "/share"),
    "view": lambda page: view(page, rules={"max_cards": 3},
                              deals=SCORED + [{"bids": [None, None, None, 1]}]),
    "arrive": lambda page: page.goto(
        game(page, rules={"max_cards": 3}, deals=SCORED[:1]) + "/arrive"),
    "leave": lambda page: page.goto(
        game(page, rules={"max_cards": 3}, deals=SCORED[:1]) + "/leave"),
    "plan": lambda page: page.goto(game(page, rules={"max_cards": 3}, deals=SCORED) + "/plan"),
    "rules": lambda page: page.goto(game(page, rules={"max_cards": 3}, deals=SCORED) + "/rules"),
    "plan-end": lambda page: page.goto(
        game(page, rules={"deal": "manual", "max_cards": 5}) + "/plan"),
    "rules-preview": lambda page: rules_preview(page, "hook"),
    "rules-refused": lambda page: rules_preview(page, "must-equal"),
    "arrive-refused": arrive_refused,
    "delete": lambda page: page.goto(game(page) + "/delete"),
    "import": lambda page: page.goto("/import"),
    "import-refused": lambda page: imported(page, "{not json"),
    "view-over": lambda page: view(page, rules={"max_cards": 1, "deal": "down"},
                                   deals=[{"bids": [0, 0, 0, 0], "tricks": [0, 1, 0, 0]}]),
    "blank-sheet": lambda page: page.goto("/sheets/blank"),
    "not-found": lambda page: page.goto("/g/no-such-game"),
    "offline": lambda page: page.goto("/offline"),
    "event-new": lambda page: page.goto("/events/new"),
    "event-director": lambda page: page.goto(club_night(page)["edit"]),
    "event-director-before": lambda page: page.goto(club_night(page, started=False)["edit"]),
    "event-room": lambda page: page.goto(club_night(page)["view"]),
    "event-where": lambda page: page.goto(club_night(page)["view"] + "?name=player+5"),
    "event-director-open": lambda page: opened(page, club_night(page)["edit"]),
    "event-director-before-open": lambda page: opened(
        page, club_night(page, started=False)["edit"]),
    "event-director-over": lambda page: opened(page, night_over(page)["edit"]),
    "event-room-over": lambda page: page.goto(night_over(page)["view"]),
    "event-room-tv": lambda page: opened(page, club_night(page)["view"], TV),
    "event-room-over-tv": lambda page: opened(page, night_over(page)["view"], TV),
}
#: The states checked in landscape as well: entry by big buttons, with the
#: sticky Save bar over them.
SIDEWAYS = ["new", "bid", "bids-at-once", "tricks", "tricks-held", "correct", "correct-held",
            "correct-refused", "scored"]


@pytest.fixture
def phone(browser: Browser, server: str) -> Iterator[Page]:
    """A phone whose console errors fail the test, but for the requests a page without network
    makes; without the service worker, whose install a test's end would cut short."""
    context = browser.new_context(viewport=PHONE, base_url=server, service_workers="block")
    page = context.new_page()
    errors = console_errors(page)
    yield page
    context.close()
    assert not [e for e in errors if "status of 4" not in e and "net::ERR_" not in e], errors


@pytest.fixture
def page(phone: Page) -> Page:
    """The tests here use the phone above: no service worker."""
    return phone


def test_axe_runs_every_rule_of_the_wcag_22_aa_tags(phone: Page) -> None:
    phone.goto("/offline")
    phone.evaluate(AXE)
    ran: list[str] = phone.evaluate(f"(tags) => ({RUN})(tags).then(r => [...r.passes,"
                                    " ...r.inapplicable, ...r.incomplete, ...r.violations]"
                                    ".map(v => v.id))", TAGS)
    every: list[str] = phone.evaluate("(tags) => axe.getRules(tags).map(rule => rule.ruleId)", TAGS)
    assert sorted(ran) == sorted(every)
    assert {"target-size", "color-contrast", "css-orientation-lock", "label"} <= set(ran)


@pytest.mark.parametrize("name", list(PAGES) + [f"{name}-landscape" for name in SIDEWAYS])
def test_every_page_passes_axe_wcag_22_aa_in_light_and_dark(phone: Page, name: str) -> None:
    if name.endswith("-landscape"):
        phone.set_viewport_size(LANDSCAPE)
    PAGES[name.removesuffix("-landscape")](phone)
    phone.wait_for_load_state()
    found = {}
    for scheme in ("light", "dark"):
        phone.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
        found[scheme] = violations(phone)
    assert found == {"light": [], "dark": []}


#: A touch phone as it lays a page out: its own pixels (three to a CSS pixel),
#: touch, a mobile viewport.
TOUCH: dict[str, Any] = {"viewport": PHONE, "has_touch": True, "is_mobile": True,
                         "device_scale_factor": 3}


@pytest.mark.parametrize("name", ["new", "event-new"])
def test_the_new_game_and_night_forms_pass_axe_on_a_touch_phone_with_every_panel_open(
        browser: Browser, server: str, name: str) -> None:
    """As a player who opens "House rules", the stakes and the language menu sees the form, and
    reorders the players: every <details> of the page open."""
    context = browser.new_context(base_url=server, service_workers="block", **TOUCH)
    page = context.new_page()
    PAGES[name](page)
    page.wait_for_load_state()
    opened = page.evaluate("() => [...document.querySelectorAll('details')]"
                           ".map(d => (d.open = true, d.className))")
    assert "lang" in opened and len(opened) >= 2, opened
    found = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
        found[scheme] = violations(page)
    assert found == {"light": [], "dark": []}
    context.close()


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_refused_form_comes_back_with_the_focus_on_what_is_wrong(
        browser: Browser, server: str, javascript: bool) -> None:
    context = browser.new_context(viewport=PHONE, base_url=server, java_script_enabled=javascript,
                                  service_workers="block")
    page = context.new_page()
    page.goto("/new")
    page.fill("input[name=players-0]", "Ann")
    page.locator("button.primary[value=preview]").click()
    expect(page.locator("#error")).to_be_focused()
    players = page.get_by_role("group", name="Players, clockwise from the first dealer")
    expect(players).to_have_accessible_description(
        "⚠ A game has 2 to 10 players, listed in seating order.")
    page.fill("input[name=players-1]", "Bob")
    page.locator("summary:has-text('House rules')").click()
    page.fill("input[name='rules-max_cards']", "ten")
    page.locator("button.primary[value=preview]").click()
    said = "⚠ Top hand (cards) must be a whole number from 1 to 104, not 'ten'."
    field = page.locator("input[name='rules-max_cards']")
    # read first: the field refused, in its panel, its message beside it
    expect(field).to_be_focused()
    expect(page.locator("#error")).to_have_count(0)
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_have_accessible_description(said)
    expect(page.locator("input[name='rules-made']")).to_have_accessible_description(
        "with custom scoring; use bid, tricks, cards, players")  # a hint is the field's description

    page.goto(game(page, rules={"max_cards": 3}, deals=SCORED) + "/deal/1")
    # Ann, who dealt, by hand
    page.locator("[data-kind=tricks][data-seat='0'] label.num").nth(0).click()
    save = page.locator(".action-bar button")
    save.click(force=javascript)
    # Not sent with JavaScript: the button, where the tap is, says what is wrong; without it, the
    # server's refusal.
    expect(save if javascript else page.locator("#error")).to_be_focused()
    if javascript:
        expect(save).to_have_accessible_name("Can't save: 1 trick missing")
    expect(page.locator("#trick-sum")).to_have_text("Together 2 of 3 tricks: 1 missing")
    page.locator("[data-kind=tricks][data-seat='0'] label.num").nth(1).click()
    page.locator(".action-bar button").click()
    expect(page.locator(".flash-done")).to_be_focused()  # the correction, confirmed, is read first
    expect(page.locator(".flash-done")).to_contain_text("Deal 1")
    context.close()


def test_the_focus_goes_to_the_next_thing_to_do_after_every_entry(page: Page) -> None:
    """Never back to the page's body: after a bid, the trump, an undo, the tricks, the game's end,
    an adjustment and its removal."""
    # 2 deals: 2 cards, then 1
    game(page, rules={"max_cards": 2, "deal": "down", "spades_double": True})
    page.locator(".trump-form button[value=H]").click()
    expect(page.locator(".bid-form button[value='0']")).to_be_focused()
    for value in (1, 0):
        page.locator(f".bid-form button[value='{value}']").click()
        expect(page.locator(".bid-form button[value='0']")).to_be_focused()
    page.locator(".undo button").click()
    expect(page.locator(".bid-form button[value='0']")).to_be_focused()
    expect(page.locator(".bid-form .prompt b")).to_have_text("Cy")  # Cy's bid taken back
    for value in (0, 0, 0):
        page.locator(f".bid-form button[value='{value}']").click()
    expect(page.locator(".seat-row[data-seat='1'] input:checked")).to_be_focused()
    # the deal entered, then the server's page
    page.locator(".tricks-form button[type=submit]").click()
    # the server's page, with the points
    expect(page.locator(".deal-title")).to_contain_text("Deal 2 of 2")
    expect(page.locator(".bid-form button.num").first).to_be_focused()
    page.locator(".trump-form button[value=S]").click()
    for value in (0, 0, 0, 0):
        page.locator(f".bid-form button[value='{value}']:not([aria-disabled])").click()
    page.locator(".tricks-form button[type=submit]").click()
    expect(page.locator(".over-title")).to_be_focused()  # the game over, read at once
    page.locator("#adjust > summary").click()
    page.fill("#adj-points", "-5")
    page.locator("#adjust button[type=submit]").click()
    expect(page.locator(".flash-done")).to_be_focused()
    page.locator(".adjustments button").click()
    expect(page.locator(".flash-done")).to_be_focused()
    assert page.evaluate("document.activeElement !== document.body")


def test_a_digit_still_bids_with_the_focus_on_a_message_read_first(page: Page) -> None:
    game(page, rules={"max_cards": 3}, deals=SCORED)  # deal 3: Dee bids first
    page.locator("#adjust > summary").click()
    page.fill("#adj-points", "2")
    page.locator("#adjust button[type=submit]").click()
    expect(page.locator(".flash-done")).to_be_focused()
    # the page's scripts in: the focus comes as the page is read, before them
    page.wait_for_load_state()
    page.keyboard.press("1")
    expect(page.locator("#tap-status")).to_have_text("Dee bid 1 · Ann bids next")


def test_the_hand_size_chosen_leaves_the_focus_on_the_first_bid(page: Page) -> None:
    game(page, rules={"deal": "manual", "max_cards": 5})
    page.locator("button[name=cards][value='3']").click()
    expect(page.locator(".deal-title")).to_contain_text("3 cards")
    expect(page.locator(".bid-form button[value='0']")).to_be_focused()


def test_without_javascript_a_refused_bid_is_reached_by_tab_and_read_with_its_reason(
        plain: Page) -> None:
    created = plain.request.post("/api/games", data={"players": FOUR, "rules": {"max_cards": 3},
                                                     "deals": [{"bids": [None, 1, 1, 0]}]}).json()
    plain.goto(created["links"]["edit"])
    plain.locator(".bid-form button[value='0']").focus()
    plain.keyboard.press("Tab")
    struck = plain.locator(".bid-form button.struck")
    expect(struck).to_be_focused()
    expect(struck).to_have_text("1")
    expect(struck).to_have_accessible_description(
        "⊘ Ann deals and can't bid 1: the bids would add up to the 3 tricks (hook)")
    plain.keyboard.press("Enter")  # nothing is sent: the page stays as it is
    expect(struck).to_be_focused()
    expect(plain.locator("#error")).to_have_count(0)


def test_the_read_only_page_says_what_changed_in_a_short_status(browser: Browser,
                                                                page: Page) -> None:
    edit = game(page, rules={"max_cards": 3})  # deal 1: Bob bids first, Ann deals
    links = page.request.get("/api/games/" + edit.rsplit("/", 1)[1]).json()["links"]
    viewer = browser.new_context(viewport=PHONE, service_workers="block").new_page()
    viewer.clock.install()
    viewer.goto(links["view"])
    status = viewer.locator("#live-status")
    expect(status).to_have_attribute("role", "status")
    expect(status).to_be_empty()
    # the board itself stays quiet: one short line says what changed
    assert viewer.locator("#live:is([aria-live], [role]), "
                          "#live :is([aria-live], [role=status], [role=alert], [role=log])"
                          ).count() == 0
    page.locator(".bid-form button[value='1']").click()
    page.wait_for_function(ALL_SENT)
    next_look(viewer)
    expect(status).to_have_text("Deal 1: Bob bid 1 · Cy bids next")
    expect(viewer.locator(".bidders li.now .who")).to_have_text("Cy")
    for value in (1, 0, 0):
        page.locator(f".bid-form button[value='{value}']").click()
    page.wait_for_function(ALL_SENT)
    next_look(viewer)
    expect(status).to_have_text("Deal 1: Ann bid 0 · the tricks next")
    page.locator(".tricks-form button[type=submit]").click()
    page.wait_for_function(ALL_SENT)
    next_look(viewer)
    expect(status).to_have_text("Deal 1 scored")
    viewer.context.close()


def test_controls_and_images_have_names_of_their_own(page: Page) -> None:
    page.goto("/new")
    names = [page.locator("input[name=first_dealer]").nth(i)
             .evaluate("e => e.labels[0].textContent.trim()") for i in range(4)]
    assert names == ["deals"] * 4  # what the eye reads; what a screen reader says:
    for seat in range(1, 5):
        expect(page.get_by_role("radio", name=f"Player {seat} deals", exact=True)).to_have_count(1)
    edit = game(page, rules={"max_cards": 3}, deals=SCORED)
    # the strip and the board's column
    expect(page.get_by_role("img", name="leader")).to_have_count(2)
    expect(page.get_by_role("region", name="Scoreboard table")).to_have_attribute("tabindex", "0")
    correct = page.get_by_role("link", name="1 · 3 Ann", exact=True)  # the name is what it shows,
    expect(correct).to_have_count(1)
    expect(correct).to_have_accessible_description(
        "Correct this deal")  # and what it does, said after
    page.goto(edit + "/share")
    expect(page.get_by_role("img", name="QR code of the read-only link")).to_be_visible()
    page.locator("summary", has_text="Show the edit link").click()
    expect(page.get_by_role("img", name="QR code of the edit link")).to_be_visible()


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_ending_and_resuming_the_game_leave_the_focus_on_what_it_came_to(
        browser: Browser, server: str, javascript: bool) -> None:
    context = browser.new_context(viewport=PHONE, base_url=server, java_script_enabled=javascript,
                                  service_workers="block")
    page = context.new_page()
    edit = game(page, rules={"max_cards": 3}, deals=SCORED)
    page.goto(edit + "/end")
    page.get_by_role("button", name="End the game").click()
    expect(page.locator(".over-title")).to_have_text("Game ended by the table")
    expect(page.locator(".over-title")).to_be_focused()
    page.get_by_role("button", name="Resume the game").click()
    expect(page.locator(".flash-done")).to_have_text("The game goes on.")
    expect(page.locator(".flash-done")).to_be_focused()
    context.close()


def test_an_error_page_after_a_form_opens_with_the_focus_on_its_message(page: Page) -> None:
    page.goto("/new")
    page.fill("input[name=players-0]", "Ann")
    page.locator("input[name=csrf_token]").evaluate("e => { e.value = 'expired'; }")
    page.locator("button.primary[value=preview]").click()
    expect(page.locator("h1")).to_have_text("The form expired")
    expect(page.locator("#error")).to_be_focused()
    expect(page.get_by_role("alert")).to_have_count(1)


def tab_to(page: Page, selector: str) -> None:
    """Press Tab until the focus is on ``selector`` (as a keyboard user reaches it)."""
    for _ in range(60):
        if page.evaluate("(selector) => document.activeElement.matches(selector)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def test_a_whole_deal_with_bids_at_once_by_keyboard_only(page: Page) -> None:
    """Bids shown at once, then the tricks, with Tab, the arrow keys, Space and Enter alone."""
    game(page, rules={"preset": "british-oh-hell", "deal": "down", "max_cards": 3})
    order = [int(seat) for seat in page.locator(".bids-form .seat-row").evaluate_all(
        "rows => rows.map(row => row.dataset.seat)")]
    assert len(order) == 4
    bids = [1, 0, 1, 0]
    for seat, bid in zip(order, bids, strict=True):
        tab_to(page, f"input[name=bids-{seat}]")
        page.keyboard.press("Space")  # the group's first radio: 0
        for _ in range(bid):
            page.keyboard.press("ArrowRight")
        expect(page.locator(f"input[name=bids-{seat}]:checked")).to_have_value(str(bid))
    expect(page.locator("#bid-sum")).to_have_text("4 of 4 bids · together 2 for 3 tricks")
    tab_to(page, ".bids-form button[type=submit]")
    page.keyboard.press("Enter")
    first = page.locator(f".seat-row[data-seat='{order[0]}'] input:checked")
    expect(first).to_be_focused()  # the focus goes on to the tricks, the first row's choice
    page.keyboard.press("ArrowLeft")  # the first bidder took 0, not 1: the dealer keeps the rest
    dealer = page.locator(f".seat-row[data-seat='{order[-1]}'] input:checked")
    expect(dealer).to_have_value("2")
    expect(page.locator("#trick-sum")).to_have_text("Together 3 of 3 tricks ✓")
    tab_to(page, ".tricks-form button[type=submit]")
    page.keyboard.press("Enter")
    expect(page.locator(".last-deal")).to_contain_text("Deal 1 scored", timeout=10_000)
    expect(page.locator(".deal-title")).to_contain_text("Deal 2")
    assert page.evaluate("document.activeElement !== document.body")
