// Quicker entry on a game's page. Bids, tricks, the trump and undo go to the outbox (outbox.js), are
// drawn at once (step.js) and sent in the background; once all are answered the server's page, with
// the points, replaces <main>. Other "live" forms are sent with fetch and the answer replaces <main>.
// Without JavaScript the forms post as usual.
(function () {
  "use strict";
  const main = document.getElementById("main"), found = document.getElementById("step-data");
  if (!main || !found || !window.fetch) return;
  const esc = Step.esc, drafts = {}, bar = document.createElement("div");
  let data = JSON.parse(found.textContent), box = null, busy = false, said = "", waiting = false;
  bar.className = "outbox";
  bar.innerHTML = '<p class="tap-status" id="tap-status" role="status"></p><p class="queue"></p>' +
    '<section class="unsaved" aria-labelledby="unsaved-title" hidden></section>';
  const [status, queue, unsaved] = bar.children;

  // What the last tap did and, while the network is away, that it is kept and what waits.
  function say(text) {
    const kept = box && box.failures ? box.queue.map(tap => tap.label).join(" · ") : "";
    said = text;
    const line = kept ? words("waiting", { said: text }) : text;
    if (status.textContent !== line) status.textContent = line;
    queue.textContent = kept && words("queue", { taps: kept });
  }

  function draw(moveFocus) {
    const el = document.getElementById("step"), csrf = document.querySelector("[name=csrf_token]");
    const s = el && data.order && Step.draw(el, data, box ? box.pending() : [], drafts, found.dataset.game, csrf.value);
    if (s && moveFocus) Step.focus(el);
    return s;
  }

  // The server's <main> in place of ours, around our step's element (drawn again from the new data,
  // and left as it is when it shows the same).
  function swap(fresh) {
    const step = main.querySelector("#panel > #step"), theirs = fresh.querySelector("#panel > #step");
    if (!step || !theirs) return void (main.innerHTML = fresh.innerHTML);
    const around = (mine, kept, their, spot) => {  // mine's nodes but `kept` become their's but `spot`
      Array.from(mine.childNodes).forEach(node => node !== kept && node.remove());
      const nodes = Array.from(their.childNodes), at = nodes.indexOf(spot);
      kept.before(...nodes.slice(0, at));
      kept.after(...nodes.slice(at + 1));
    };
    step.parentNode.className = theirs.parentNode.className;
    around(step.parentNode, step, theirs.parentNode, theirs);
    around(main, step.parentNode, fresh, theirs.parentNode);
  }

  function show(html, url, redirected) {
    const doc = new DOMParser().parseFromString(html, "text/html"), fresh = doc.getElementById("main");
    if (!fresh) return redirected ? location.assign(url) : location.reload();
    const focused = document.activeElement && document.activeElement.closest("#panel");
    swap(fresh);
    document.title = doc.title;
    // A refused form answers at the URL it was posted to; only a redirect names a page to stay on.
    if (redirected && url !== location.href.split("#")[0]) history.replaceState(null, "", url);
    const error = document.getElementById("error"), mine = document.getElementById("step-data");
    if (mine) data = JSON.parse(mine.textContent);
    if (box && mine) box.base = data;
    draw(false);
    // A refusal is read first. The focus was on something the page no longer has: it goes to the
    // next thing to do, or to the heading of what the page shows now (the game over).
    const step = main.querySelector("#step"), title = main.querySelector("#panel h1");
    if (error) error.focus();
    else if (focused && !main.contains(document.activeElement) && step) Step.focus(step);
    else if (focused && !main.contains(document.activeElement) && title) {
      title.tabIndex = -1;
      title.focus();
    }
  }

  function answered(kind, taps, text, code) {
    if (kind === "waiting") waiting = true;
    if (kind === "stored" && box.queue.length) {  // more to send: draw on the game as the server has it now
      const fresh = /id="step-data"[^>]*>([^<]*)</.exec(text);
      if (fresh) box.base = data = JSON.parse(fresh[1]);
    } else if (kind !== "waiting") {
      show(text, location.href, false);
    }
    if (kind === "waiting" || box.queue.length) return say(said);
    if (kind === "stored") {
      say(taps[0].kind === "tricks" ? words("saved", { deal: taps[0].deal }) : waiting ? words("online") : said);
      waiting = false;
      return;
    }
    const error = document.getElementById("error");
    taps.forEach((tap, i) => {
      tap.why = code === 409 ? words("changed") : i ? words("after") : error ? error.textContent.trim() : words("refused");
    });
    listUnsaved();
    say(words("notsaved", { num: taps.length, why: taps[0].why }));
    unsaved.querySelector("h2").focus();
  }

  // The taps the server did not take, each to enter again on the game as it is now, or to discard.
  function listUnsaved() {
    unsaved.hidden = !box.unsaved.length;
    unsaved.innerHTML = `<h2 id="unsaved-title" tabindex="-1">${words("unsaved")}</h2><p>${words("again")}</p><ul>` +
      box.unsaved.map((tap, i) => `<li>${words("tapnot", { tap: esc(tap.label), why: esc(tap.why) })}` +
      ` <span class="again"><button type="button" class="button small" value="${i}">${words("enter")}</button>` +
      `<button type="button" class="button small" value="${i}" name="discard">${words("discard")}</button></span></li>`).join("") +
      "</ul>";
  }

  unsaved.addEventListener("click", event => {
    const button = event.target.closest("button"), tap = button && box.unsaved[button.value];
    if (!tap) return;
    box.take(tap, !button.name);
    listUnsaved();
    const next = unsaved.querySelector("button"), s = !button.name && draw(true);
    if (button.name && next) next.focus();
    say(button.name ? words("discarded", { tap: tap.label }) : s ? Step.said(data, s, tap) : tap.label);
    box.send();
  });

  main.addEventListener("click", event => {
    // The second tap of a double tap lands on the next bidder's buttons: it is not a bid.
    if (event.detail > 1 && event.target.closest("#step button")) event.preventDefault();
  }, true);

  main.addEventListener("submit", event => {
    const form = event.target, kind = form.action.split("/").pop(), button = event.submitter;
    if (!form.matches(".live")) return;
    event.preventDefault();
    if (box && data.order && ["bid", "bids", "tricks", "trump", "undo"].includes(kind)) {
      // A bid the data strikes out is said to be refused, and not sent.
      if (button && button.matches("[aria-disabled]")) return say(form.querySelector(".reason").textContent);
      const fields = Array.from(new FormData(form, button)).filter(([name]) => name !== "version");
      const label = Step.label(data, Step.state(data, box.pending()), kind, fields);
      const tap = box.add({ kind, action: form.action, fields, label, deal: data.deal }), s = draw(true);
      say(s ? Step.said(data, s, tap) : label);
      return box.send();
    }
    if (busy) return;  // a second tap while the first is on its way is ignored, never sent twice
    busy = true;
    form.classList.add("sending");
    fetch(form.action, { method: "POST", body: new FormData(form, button), credentials: "same-origin" })
      .then(response => response.text().then(html => show(html, response.url, response.redirected)))
      .catch(() => {
        form.classList.remove("sending");
        form.insertAdjacentHTML("beforebegin", `<p class="flash" role="alert">${words("offline")}</p>`);
      })
      .then(() => { busy = false; });
  });

  main.addEventListener("change", event => {
    const row = event.target.closest("#step .seat-row");
    if (row) Step.sums(row.closest("#step"), data, +row.dataset.seat);
  });

  // A digit taps that bid, with the focus on the bid buttons or on nothing in particular (the page,
  // or a message focused to be read first).
  document.addEventListener("keydown", event => {
    const on = event.target, idle = on === document.body || on.matches("[tabindex='-1']");
    const form = idle ? main.querySelector("#step .bid-form") : on.closest(".bid-form");
    const button = form && /^\d$/.test(event.key) && !event.ctrlKey && !event.altKey && !event.metaKey &&
      form.querySelector(`button[value="${event.key}"]`);
    if (!button) return;
    event.preventDefault();
    button.click();
  });

  try {
    box = window.crypto && new Outbox(found.dataset.game, data, answered);
  } catch (e) { /* storage turned off: each tap waits for its answer, as a plain form's does */ }
  if (box) {
    data = box.base;  // a page opened from a cache draws on the newer game this phone heard of
    main.before(bar);
    listUnsaved();
    box.send();
  }
  draw(false);
})();
