"""Driving the app like a person with a phone: taps counted, and checks every screen must pass."""

from __future__ import annotations

from playwright.sync_api import Error, Locator, Page

PHONE = {"width": 390, "height": 844}
#: The page's parts an answer replaces: with JavaScript, all but the step's element, which is drawn
#: again in place, and the phone's own status line and list of taps not saved under it.
MARK = ("() => document.querySelectorAll('#main > :not(#panel), #panel > :not(#step):not(.outbox)')"
        ".forEach(e => { e.dataset.old = '1'; })")
REPLACED = "() => !document.querySelector('[data-old]') && document.readyState !== 'loading'"
#: Whether a service worker controls this page.
CONTROLLED = "() => navigator.serviceWorker.controller !== null"
#: Whether the worker keeps a copy of this page, as the page shows it now (its game's version).
KEPT = """() => caches.open("scorekeeper-pages").then(c => c.match(location.href))
    .then(r => r ? r.text() : "")
    .then(t => t.includes('name="version" value="'
                          + document.querySelector("input[name=version]").value + '"'))"""


#: Whether the phone has sent every tap it keeps (the server has them all).
ALL_SENT = """() => !(JSON.parse(localStorage.getItem(
      Object.keys(localStorage).find(key => key.startsWith("outbox:"))))
    || { queue: [] }).queue.length"""


def next_look(page: Page) -> None:
    """The read-only page's (or the room screen's) next look at the game, now rather than in 3 s:
    its clock, installed before it opened (``page.clock.install()``), runs on by the time between
    two looks. Call it once what the look should bring is stored; then wait for the page to show
    it."""
    page.clock.run_for(3000)


def replaced(page: Page, seconds: float = 30) -> None:
    """Wait until an answer replaced what ``MARK`` marked: asked from here, again and again, so a
    page that navigates meanwhile (without JavaScript, a form's answer is a new page) is asked
    again."""
    for _ in range(int(seconds * 20)):
        try:
            if page.evaluate(REPLACED):
                return
        except Error:  # the page is between two documents: the next one is asked next time
            pass
        page.wait_for_timeout(50)
    raise AssertionError(f"the answer never replaced the page at {page.url}")


class Taps:
    """Every click and fill goes through here, so a test can count what the scorer did."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.count = 0

    def fill(self, selector: str, value: str) -> None:
        """Type into one field (one tap and the typing count as one)."""
        self.count += 1
        self.page.fill(selector, value)

    def tap(self, target: str | Locator, held: bool = False) -> None:
        """One tap that navigates or changes nothing on the server (links, row buttons, radios);
        ``held``: on a button held back (aria-disabled), which a tap still reaches."""
        self.count += 1
        locator = self.page.locator(target) if isinstance(target, str) else target
        locator.click(force=held)

    def save(self, target: str | Locator) -> None:
        """One tap that sends a form: wait until the answer replaced the page (or its main part)."""
        self.page.evaluate(MARK)
        self.tap(target)
        replaced(self.page)

    def bid(self, value: int) -> None:
        """Tap a number on the bid buttons."""
        self.save(self.page.locator(f".bid-form button[name=bid][value='{value}']"))

    def took(self, seat: int, tricks: int) -> None:
        """Tap a player's trick count."""
        self.tap(self.page.locator(f".seat-row[data-seat='{seat}'] label.num").nth(tricks))


def console_errors(page: Page) -> list[str]:
    """The page's console errors (a CSP refusal is one) and uncaught
    exceptions, filled as they come."""
    errors: list[str] = []
    page.on("console",
            lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


def assert_fits_the_phone(page: Page) -> None:
    """No sideways scrolling of the page, and tap targets of at least 44 × 44 px (once the page's
    stylesheets are loaded: a link's new page is there before them)."""
    page.wait_for_load_state("load")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{page.url} scrolls sideways: {width}px"  # type: ignore[index]
    small = page.evaluate("""() => [...document.querySelectorAll(
        'main button, main a.button, main label.num, main .pick span, main summary, .nav a, ' +
        '.board a.deal-link')]
        .filter(e => e.offsetParent !== null && !e.classList.contains('default-submit'))
        .map(e => [e.textContent.trim().slice(0, 20), e.getBoundingClientRect()])
        .filter(([, r]) => r.height < 43.5 || r.width < 43.5)
        .map(([t, r]) => `${t} ${r.width}x${r.height}`)""")
    assert not small, f"{page.url}: tap targets under 44 px: {small}"


#: Times each tap on a bid until the bidder highlighted changes, in the page (performance.now() and
#: a MutationObserver), into ``window.bidTimes`` in milliseconds; the tap's own time is its event's.
TIME_BIDS = """() => {
  window.bidTimes = [];
  const bidder = () => {
    const now = document.querySelector(".bidders li.now .who");
    return now && now.textContent;
  };
  let tapped = null, before = null;
  document.addEventListener("click", event => {
    if (event.target.closest(".bid-form button")) { tapped = event.timeStamp; before = bidder(); }
  }, true);
  new MutationObserver(() => {
    if (tapped !== null && bidder() !== before) {
      window.bidTimes.push(performance.now() - tapped);
      tapped = null;
    }
  }).observe(document.body, { childList: true, subtree: true, attributes: true });
}"""


def slow_phone_and_network(page: Page, latency: int = 300, cpu: int = 4) -> None:
    """Every request waits ``latency`` ms more, and the phone runs ``cpu`` times
    slower (Chromium's CDP)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions",
             {"offline": False, "latency": latency, "downloadThroughput": -1,
              "uploadThroughput": -1})
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
