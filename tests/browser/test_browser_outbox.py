"""Taps applied at once and sent in the background (the outbox): on a slow phone and network,
offline with the page open, against another phone, with an answer lost, with the keyboard alone; the
phone follows the data the page carries and the server judges every tap."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from phone import ALL_SENT, CONTROLLED, KEPT, PHONE
from playwright.sync_api import Browser, Page, Route, expect

pytestmark = pytest.mark.browser

FOUR = ["Ann", "Bob", "Cy", "Dee"]
Phones = Callable[..., Page]


@pytest.fixture
def phones(browser: Browser, server: str) -> Iterator[Phones]:
    """Phones that may lose the network: a request that finds none is expected; any other console
    error (a CSP refusal too) fails the test."""
    contexts, errors = [], []

    def make(service_workers: str = "allow") -> Page:
        context = browser.new_context(viewport=PHONE, base_url=server,
                                      service_workers=service_workers)  # type: ignore[arg-type]
        contexts.append(context)
        page = context.new_page()
        page.on("console",
                lambda message: errors.append(message.text) if message.type == "error" else None)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    yield make
    for context in contexts:
        context.close()
    unexpected = [e for e in errors
                  if "status of 4" not in e and "status of 503" not in e and "net::ERR_" not in e]
    assert not unexpected, unexpected


def opened(page: Page, worker: bool = True, **document: Any) -> str:
    """A game stored through the API and opened on this phone (``worker``: once its service worker
    is installed, before any test takes the network away); its token."""
    created = page.request.post("/api/games", data={"players": FOUR, **document}).json()
    page.goto(created["links"]["edit"])
    if worker:
        page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    return str(created["links"]["edit"].rsplit("/", 1)[1])


def stored(server: str, token: str) -> dict[str, Any]:
    """The game as the server holds it (the API's export), read past the phones."""
    with urllib.request.urlopen(f"{server}/api/games/{token}") as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


def outbox(page: Page) -> dict[str, Any]:
    """What the phone keeps of the game open on it: the taps not yet answered, those not saved."""
    kept: dict[str, Any] = page.evaluate("""() => JSON.parse(localStorage.getItem(
        Object.keys(localStorage).find(key => key.startsWith("outbox:"))) || "{}")""")
    return kept


#: Whether the phone keeps the game's plan (the later deals).
PLAN_KEPT = "() => Object.keys(localStorage).some(key => key.startsWith('plan:'))"


def version(page: Page) -> int:
    """The game's version the page shows (its step's data)."""
    return int(json.loads(page.locator("#step-data").text_content() or "{}")["version"])


def bid(page: Page, value: int) -> None:
    page.locator(f".bid-form button[name=bid][value='{value}']").click()


def status(page: Page) -> Any:
    return expect(page.locator("#tap-status"))


def test_a_bid_shows_the_next_bidder_before_the_server_answers(phones: Phones) -> None:
    """A tap is drawn on the phone at once: each bid shows the next bidder (the last one, the
    tricks) while the first bid's request is still held on its way, unanswered. How fast, on a
    slowed phone and network, is measured by bench/latency.py, not here."""
    page = phones()
    opened(page, rules={"max_cards": 5})  # deal 1: 5 cards, Bob bids first, Ann deals
    held: list[Route] = []
    page.route("**/bid", lambda route: held.append(route) if route.request.method == "POST"
               else route.continue_())
    for value, following in zip((1, 1, 1), ("Cy", "Dee", "Ann")):
        bid(page, value)
        expect(page.locator(".bidders li.now .who")).to_contain_text(following)
    bid(page, 1)
    expect(page.locator(".tricks-form")).to_be_visible()
    assert held  # the bids' request waits, held: nothing was answered while the page moved on
    page.unroute("**/bid")  # the held request goes on its way (unrouting lets it through)
    page.wait_for_function(ALL_SENT, polling=50)
    expect(page.locator(".tricks-form")).to_be_visible()


@pytest.mark.parametrize("at_once", [False, True], ids=["in-turn", "at-once"])
def test_a_deal_entered_offline_with_the_page_open_is_stored_once_back_online(
        phones: Phones, server: str, no_server: Any, at_once: bool) -> None:
    page = phones()
    rules = {"preset": "british-oh-hell", "deal": "down"} if at_once else {}
    token = opened(page, rules={**rules, "max_cards": 3})
    page.reload()  # now the service worker's: it keeps the page for opening without a connection
    page.wait_for_function(CONTROLLED)
    page.wait_for_function(KEPT, polling=100)
    page.wait_for_function(PLAN_KEPT)
    page.context.set_offline(True)
    if at_once:
        for seat, value in enumerate((0, 1, 1, 0)):
            page.locator(f".seat-row[data-seat='{seat}'] label.num").nth(value).click()
        page.locator(".bids-form button[type=submit]").click()
    else:
        for value in (1, 1, 0, 0):  # Bob, Cy, Dee, then Ann deals
            bid(page, value)
    status(page).to_contain_text("the tricks next · saved, waiting for the network")
    expect(page.locator(".bidders .queued, .tricks-form")).not_to_have_count(0)
    page.locator(".seat-row[data-seat='2'] label.num").nth(2).click()  # Cy took 2: Ann, the rest, 0
    expect(page.locator("#trick-sum")).to_have_text("Together 3 of 3 tricks ✓")
    page.locator(".tricks-form button[type=submit]").click()
    # The game goes on: deal 2 from the plan the phone keeps, under the card of the deal entered.
    expect(page.locator(".deal-title")).to_have_text("Deal 2 of 3 · 2 cards" if at_once
                                                     else "Deal 2 of 5 · 2 cards")
    expect(page.locator("#step .bids-form, #step .bid-form")).to_have_count(1)
    expect(page.locator(".pending h2")).to_be_focused()  # the deal entered is said first
    expect(page.locator(".deal-title")).to_be_in_viewport()
    expect(page.locator(".pending h2")).to_have_text("Deal 1 entered · points pending")
    expect(page.locator(".pending .chips")).to_have_text("Bob 1 / 1Cy 1 / 2Dee 0 / 0Ann 0 / 0")
    status(page).to_have_text("Deal 1 entered · points pending · saved, waiting for the network")
    expect(page.locator(".outbox .queue")).to_contain_text("On this phone, not sent yet: ")
    expect(page.locator(".outbox .queue")).to_contain_text(" · The tricks of deal 1")
    assert stored(server, token)["deals"] == [] and (
        len(outbox(page)["queue"]) == (2 if at_once else 5))

    # Still offline, the page opens from the worker's copy, with the entries the phone keeps drawn
    # on it. (Chromium's offline emulation lets through the requests of a page a worker opened: the
    # server is taken off the network as well, as it is for a phone that really has none.)
    no_server.up = False
    page.reload()
    expect(page.locator("#saved-copy")).to_have_text(
        "Offline: this is the game as this phone last saw it.", use_inner_text=True)
    expect(page.locator(".pending h2")).to_have_text("Deal 1 entered · points pending")
    expect(page.locator(".pending .chips")).to_have_text("Bob 1 / 1Cy 1 / 2Dee 0 / 0Ann 0 / 0")
    expect(page.locator(".outbox .queue")).to_contain_text(" · The tricks of deal 1")
    status(page).to_contain_text("saved, waiting for the network", timeout=10_000)
    no_server.up = True
    assert stored(server, token)["deals"] == [] and (
        len(outbox(page)["queue"]) == (2 if at_once else 5))

    page.context.set_offline(False)
    status(page).to_have_text("Deal 1 saved", timeout=10_000)
    deals = stored(server, token)["deals"]
    assert [(d["bids"], d["tricks"]) for d in deals] == [([0, 1, 1, 0], [0, 1, 2, 0])]
    assert outbox(page)["queue"] == [] and outbox(page)["unsaved"] == []
    expect(page.locator(".last-deal")).to_contain_text("Deal 1 scored")  # points from the server
    expect(page.locator(".outbox .queue")).to_be_hidden()


def test_a_deal_entered_on_two_phones_keeps_the_online_ones_entries_and_lists_the_others(
        phones: Phones, server: str) -> None:
    played = [{"bids": [0, 0, 0, 0], "tricks": [cards, 0, 0, 0]} for cards in (3, 2, 1, 2)]
    a, b = phones(), phones()
    token = opened(a, rules={"max_cards": 3}, deals=played)  # deal 5: 3 cards, Bob first, Ann deals
    b.goto(f"/g/{token}")
    a.context.set_offline(True)
    for value in (1, 1, 0, 0):
        bid(a, value)
    for value in (0, 0, 1, 1):
        bid(b, value)
        expect(b.locator(".bidders .queued")).to_have_count(0)  # answered before the next tap
    # B's last bid stored too, before A's taps arrive: the state this test needs
    b.wait_for_function(ALL_SENT)
    assert stored(server, token)["deals"][4]["bids"] == [1, 0, 0, 1]
    a.context.set_offline(False)

    unsaved = a.locator(".unsaved li")
    expect(unsaved).to_have_count(4, timeout=10_000)
    expect(unsaved.first).to_contain_text(
        "Deal 5 · Bob bid 1 — not saved: Bob has bid 0 in deal 5 already: this bid was not saved.")
    expect(unsaved.nth(3)).to_contain_text(
        "Deal 5 · Ann bid 0 — not saved: it came after one that was not saved")
    expect(a.locator("#unsaved-title")).to_be_focused()
    status(a).to_have_text("")  # said once, in the list under the step
    expect(a.locator("#error")).to_have_count(0)
    expect(a.locator(".tricks-form legend .muted")).to_have_text(
        ["bid 0", "bid 0", "bid 1", "bid 1"])  # B's
    assert stored(server, token)["deals"][4]["bids"] == [1, 0, 0, 1]
    assert version(a) == version(b) == 5  # the import, then B's four bids: nothing of A's
    # Deal 5 is at its tricks: none of these bids can be entered again, only discarded.
    expect(a.locator(".unsaved").get_by_role("button", name="Enter again")).to_have_count(0)
    while unsaved.count():
        unsaved.first.get_by_role("button", name="Discard").click()
    expect(a.locator(".unsaved")).to_be_hidden()
    assert outbox(a)["unsaved"] == [] and stored(server, token)["deals"][4]["bids"] == [1, 0, 0, 1]


def test_taps_refused_as_stale_can_be_entered_again_on_the_game_as_it_is(phones: Phones,
                                                                         server: str) -> None:
    a, b = phones(), phones()
    token = opened(a, rules={"max_cards": 3, "spades_double": True})
    b.goto(f"/g/{token}")
    a.context.set_offline(True)
    bid(a, 1)
    bid(a, 0)
    b.locator(".trump-form button[value='S']").click()  # another phone records the trump meanwhile
    expect(b.locator(".trump-form button[value='S']")).to_have_attribute("aria-pressed", "true")
    b.wait_for_function(ALL_SENT)
    a.context.set_offline(False)
    expect(a.locator(".unsaved li")).to_have_count(2, timeout=10_000)
    for _ in range(2):
        a.locator(".unsaved li").first.get_by_role("button", name="Enter again").click()
    expect(a.locator(".unsaved")).to_be_hidden()
    expect(a.locator(".bidders li.now .who")).to_have_text("Dee")
    a.wait_for_function("() => !document.querySelector('.bidders .queued')")
    deal = stored(server, token)["deals"][0]
    assert deal["bids"] == [None, 1, 0, None] and deal["trump"] == "S"


def test_the_phone_follows_the_data_the_page_carries_and_the_server_judges(phones: Phones,
                                                                           server: str) -> None:
    # a page a service worker answers is out of page.route's reach
    page = phones(service_workers="block")
    token = opened(page, worker=False, rules={"max_cards": 3})

    def changed(route: Route) -> None:
        """The game page with data that refuses Ann 3 instead of 1 after bids adding up to 2."""
        html = route.fetch().text()
        found = re.search(r'(id="step-data"[^>]*>)([^<]*)<', html)
        assert found
        data = json.loads(found.group(2))
        if data.get("order"):
            data["reasons"].append("Made up for this test: Ann can't bid 3.")
            data["bidding"][3] = [[1, [[0, 3]], None], [2, [[0, 2]], len(data["reasons"]) - 1],
                                  [9, [[0, 3]], None]]
        text = json.dumps(data).replace("<", "\\u003c").replace("&", "\\u0026")
        route.fulfill(body=html.replace(found.group(0), found.group(1) + text + "<"),
                      content_type="text/html")

    page.route(f"**/g/{token}", changed)
    page.reload()
    page.context.set_offline(True)  # the server's own page, after a tap, would bring the true data
    for value in (1, 1, 0):
        bid(page, value)
    struck = page.locator(".bid-form button.struck")
    expect(struck).to_have_text("3")
    expect(page.locator("#bid-reason")).to_have_text("Made up for this test: Ann can't bid 3.")
    bid(page, 1)  # allowed by the data, refused by the server with the rule
    page.context.set_offline(False)
    expect(page.locator(".unsaved li")).to_contain_text(
        "Ann bid 1 — not saved: Deal 1: Ann deals and can't bid 1: "
        "the bids would add up to the 3 tricks (hook)",
        timeout=10_000)
    assert stored(server, token)["deals"][0]["bids"] == [None, 1, 1, 0]


def test_a_tap_whose_answer_is_lost_is_sent_again_and_stored_once(phones: Phones,
                                                                  server: str) -> None:
    page = phones()
    token = opened(page, rules={"max_cards": 3})
    lost: list[int] = []

    def lose_the_first_answer(route: Route) -> None:
        if lost:
            route.continue_()
            return
        lost.append(route.fetch(max_redirects=0).status)  # the server stores the tap…
        route.abort("connectionreset")  # …and its answer never comes back

    page.route("**/bid", lose_the_first_answer)
    bid(page, 2)
    status(page).to_have_text("Bob bid 2 · Cy bids next · saved, waiting for the network")
    status(page).to_have_text("Back online: everything is saved", timeout=10_000)
    assert lost == [302] and stored(server, token)["deals"][0]["bids"] == [None, 2, None, None]
    assert version(page) == 2 and outbox(page)["unsaved"] == []  # one change after the import


def test_with_the_phones_storage_off_each_tap_waits_for_its_answer_and_a_whole_deal_is_stored(
        phones: Phones, server: str) -> None:
    page = phones()
    page.context.add_init_script("""Object.defineProperty(window, "localStorage", {
        get() { throw new DOMException("turned off", "SecurityError"); } });""")
    token = opened(page, rules={"max_cards": 3})  # deal 1: Bob, Cy, Dee, then Ann deals
    assert page.locator("#tap-status").count() == 0  # no outbox: nothing is kept on the phone
    for value, next_bidder in ((1, "Cy"), (0, "Dee"), (1, "Ann")):
        bid(page, value)
        expect(page.locator(".bidders li.now .who")).to_contain_text(next_bidder)
    bid(page, 0)
    expect(page.locator(".tricks-form")).to_be_visible()
    page.locator(".tricks-form button[type=submit]").click()
    expect(page.locator(".last-deal h2")).to_have_text("Deal 1 scored")
    # the tricks as they start: each their bid, Ann the rest
    deal = stored(server, token)["deals"][0]
    assert (deal["bids"], deal["tricks"]) == ([0, 1, 0, 1], [1, 1, 0, 1])


def test_a_whole_deal_with_the_keyboard_alone_in_ten_key_presses(phones: Phones,
                                                                 server: str) -> None:
    page = phones()
    token = opened(page, rules={"max_cards": 3})  # deal 1: Bob, Cy, Dee, then Ann deals
    keys = 0

    def press(key: str) -> None:
        nonlocal keys
        keys += 1
        page.keyboard.press(key)

    for value, bidder, first in (("1", "Cy", "0"), ("1", "Dee", "0"), ("0", "Ann", "0")):
        press(value)  # a digit bids, the focus on the page or on the bid buttons
        expect(page.locator(".bid-form .prompt b")).to_have_text(bidder)
        # the first bid allowed
        expect(page.locator(f".bid-form button[value='{first}']")).to_be_focused()
    page.keyboard.press("1")  # refused: Ann can't make it 3; said, not sent
    status(page).to_have_text(
        "Ann deals and can't bid 1: the bids would add up to the 3 tricks (hook)")
    press("Enter")  # Ann bids 0 (the button focused)
    # The bids' answers are drawn when they come (the step drawn again, the focus kept in it): the
    # tricks are entered once the last one is, lest an answer redraw the rows under a Tab.
    page.wait_for_function(ALL_SENT)
    expect(page.locator(".seat-row[data-seat='1'] input:checked")).to_be_focused()  # Bob's row
    press("ArrowRight")  # Bob took 2; Ann, the dealer, keeps the rest: 0
    for _ in range(4):
        press("Tab")  # Cy's, Dee's and Ann's rows, then Save
    expect(page.locator(".tricks-form button[type=submit]")).to_be_focused()
    press("Enter")
    status(page).to_have_text("Deal 1 saved", timeout=10_000)
    assert stored(server, token)["deals"][0]["tricks"] == [0, 2, 1, 0]
    assert keys == 10
    # The next deal's bids take the focus: its first bid allowed, Cy's (Bob deals), a digit away.
    expect(page.locator(".bid-form .prompt b")).to_have_text("Cy")
    expect(page.locator(".bid-form button[value='0']")).to_be_focused()


def test_the_status_line_says_what_each_tap_did(phones: Phones) -> None:
    page = phones()
    opened(page, rules={"max_cards": 3})
    said = ["Bob bid 1 · Cy bids next", "Cy bid 1 · Dee bids next", "Dee bid 0 · Ann bids next"]
    for value, text in zip((1, 1, 0), said):
        bid(page, value)
        status(page).to_have_text(text)
    page.locator(".undo button").click()
    status(page).to_have_text("Took back Dee's bid · Dee bids next")
    bid(page, 0)
    bid(page, 0)
    status(page).to_have_text("Ann bid 0 · under by 1 · the tricks next")
    page.locator(".tricks-form button[type=submit]").click()
    status(page).to_have_text("Deal 1 saved")
    unsaved_buttons = page.locator(".outbox button")
    assert unsaved_buttons.count() == 0


@pytest.mark.parametrize("code", ["en", "nl", "de", "fr", "es", "it", "pt"])
def test_the_game_page_with_its_css_and_javascript_weighs_at_most_81_kb(phones: Phones, server: str,
                                                                        code: str) -> None:
    """Eight players 25 deals in (the board's 200 cells): the page, its stylesheet and its scripts
    as the phone loads them, uncompressed, and nothing from another host (bench/run.py 4 reports
    it), in every language. (70 KB until the scripts carried a whole game offline, deal after deal:
    the deals after the page's come in a file of their own, fetched once per plan, not with every
    page. 75 KB until the deal screen had its layout for a phone held sideways, the scroll hint's
    check of the columns out of sight, and the links to the last deal's correction and to the
    totals' chart. 76 KB until the Save button said why it can't save, and held sideways the rows of
    tricks sat beside their names, four of them above the Save bar; 78 KB until the sentences that
    count tricks came in their two forms, "1 trick" and "3 tricks", and the scripts wrote numbers in
    the page's language: French took 78.3 KB. 79 KB until the scorer's page followed the players'
    own bids, from their phones: French took 79.6 KB. 80 KB until the scorer's tricks step started
    at the counts the players entered on their own phones, and a game's bids could be sealed (what
    the scorer's page does with sealed bids loads only for a game that seals them: sealed.js).)"""
    players = [f"Player {seat + 1}" for seat in range(8)]
    deals = []
    for number in range(25):
        bids = [(number + seat) % 3 for seat in range(8)]
        if sum(bids) == 6:  # the dealer (seat number % 8) may not make the bids add up to the cards
            bids[number % 8] += 1
        tricks = [1 if (seat - number) % 8 < 6 else 0 for seat in range(8)]
        deals.append({"bids": bids, "tricks": tricks})
    page = phones(service_workers="block")  # every file from the server, none from a worker's cache
    created = page.request.post("/api/games", data={
        "players": players, "deals": deals,
        "rules": {"deal": "fixed", "max_cards": 6, "deals": 30}}).json()
    page.goto(created["links"]["edit"] + f"?lang={code}")
    expect(page.locator(".board tbody tr.done")).to_have_count(25)
    loaded = page.evaluate("""() => ({
        page: performance.getEntriesByType("navigation")[0].decodedBodySize,
        files: performance.getEntriesByType("resource")
            .filter(e => ["script", "link"].includes(e.initiatorType))
            .map(e => [e.name, e.decodedBodySize]),
        linked: document.querySelectorAll("script[src], link[rel=stylesheet]").length})""")
    assert len(loaded["files"]) == loaded["linked"] >= 3 and all(size > 0
                                                                 for _, size in loaded["files"])
    assert all(name.startswith(server) for name, _ in loaded["files"])
    total = loaded["page"] + sum(size for _, size in loaded["files"])
    assert loaded["page"] > 20_000 and total <= 81_000, loaded
