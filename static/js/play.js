// Quicker entry on a game's page. Bids, tricks, the trump and undo go to the outbox (outbox.js), are
// drawn at once (step.js) and sent in the background; once all are answered the server's page, with
// the points, replaces <main>. Without a connection the game goes on from deal to deal (the plan's
// data). Other "live" forms are sent with fetch and the answer replaces <main>; changes at the table
// need the network. Without JavaScript the forms post as usual.
(function () {
  "use strict";
  const main = document.getElementById("main"), found = document.getElementById("step-data");
  if (!main || !found || !window.fetch) return;
  const esc = Step.esc, drafts = {}, bar = document.createElement("div"), last = {};
  let data = JSON.parse(found.textContent), box = null, busy = false, said = "", waiting = false, shown = null;
  bar.className = "outbox";
  bar.innerHTML = '<p class="tap-status" id="tap-status" role="status"></p><p class="queue"></p>';
  const [status, queue] = bar.children, unsaved = document.createElement("section");
  unsaved.className = "unsaved outbox";
  unsaved.setAttribute("aria-labelledby", "unsaved-title");
  unsaved.hidden = true;

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
    const s = el && data.order && Step.draw(el, data, box ? box.pending() : [], box ? box.drafts : drafts,
                                            found.dataset.game, csrf.value, box && box.plan);
    // A new deal shows its title, wherever the last deal's Save left the page.
    const next = s && shown !== null && s.d.deal !== shown;
    if (s) shown = s.d.deal;
    // The focus moves in the frame that shows the step (focusing at once would lay the page out twice:
    // for the focus, then for the status line said after it), unless the scorer moved it meanwhile.
    if (next || (s && moveFocus)) requestAnimationFrame(() => {
      const head = next && main.querySelector("#panel .deal-head");
      if (head && head.getBoundingClientRect().top < 0) head.scrollIntoView();
      if (moveFocus && !el.contains(document.activeElement)) Step.focus(el);
    });
    // Under the step, which stays put as they change: what the last tap did, and the taps not saved.
    if (el) el.after(...(box ? [bar] : []), unsaved);
    else if (box && !bar.isConnected) main.before(bar);
    return s;
  }

  // Changes at the table (arrivals, the plan, the rules) need the network: said where they are.
  function connection() {
    const tools = main.querySelector("#tools");
    let note = tools && tools.querySelector(".offline-note");
    if (tools && !note) {
      note = document.createElement("p");
      note.className = "note offline-note";
      note.textContent = words("tableoffline");
      tools.prepend(note);
    }
    if (note) note.hidden = navigator.onLine;
  }
  addEventListener("online", connection);
  addEventListener("offline", connection);

  // The deals after the page's, for going on offline: fetched once per plan of the game.
  function fetchPlan() {
    const name = data.plan;
    if (!box || !name || (box.plan && box.plan.plan === name)) return;
    fetch(found.dataset.game + "/deals.json", { credentials: "same-origin" })
      .then(response => response.ok ? response.json() : null)
      .then(plan => {
        if (plan && plan.plan === name) box.keepPlan(plan);
      })
      .catch(() => { /* no connection: asked again with the next page */ });
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

  // `refused`: the page answers a refusal, whose reason the list of taps not saved says (once).
  function show(html, url, redirected, refused) {
    const doc = new DOMParser().parseFromString(html, "text/html"), fresh = doc.getElementById("main");
    if (!fresh) return redirected ? location.assign(url) : location.reload();
    const focused = document.activeElement && document.activeElement.closest("#panel");
    if (refused) fresh.querySelectorAll("#error").forEach(error => error.remove());
    swap(fresh);
    document.title = doc.title;
    // A refused form answers at the URL it was posted to; only a redirect names a page to stay on.
    if (redirected && url !== location.href.split("#")[0]) history.replaceState(null, "", url);
    const error = document.getElementById("error"), mine = document.getElementById("step-data");
    if (mine) data = JSON.parse(mine.textContent);
    if (box && mine) box.rebase(data);
    fetchPlan();
    connection();
    listUnsaved();
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
      if (fresh) box.rebase(data = JSON.parse(fresh[1]));
    } else if (kind === "refused") {
      // The server's reason for the first; those after it were made on top of it.
      const reason = /<p[^>]*id="error"[^>]*>([\s\S]*?)<\/p>/.exec(text), why = reason ?
        new DOMParser().parseFromString(reason[1], "text/html").body.textContent.trim().replace(/\s+/g, " ") : "";
      taps.forEach((tap, i) => { tap.why = i ? words("after") : why || (code === 409 ? words("changed") : words("refused")); });
      box.save();
      show(text, location.href, false, true);
    } else if (kind !== "waiting") {
      show(text, location.href, false);
    }
    if (kind === "waiting" || box.queue.length) return say(said);
    if (kind === "stored") {
      say(taps[0].kind === "tricks" ? words("saved", { deal: taps[0].deal }) : waiting ? words("online") : said);
      waiting = false;
      return;
    }
    const heading = unsaved.querySelector("h2"), first = taps[0];
    if (!box.unsaved.includes(first)) {  // its deal is finished on the server already: said here only
      return say(words("tapnot", { tap: words("ofdeal", { deal: first.deal, tap: first.label }), why: first.why }));
    }
    say("");  // the list below says it, once
    if (heading) heading.focus();
  }

  // The taps the server did not take, by deal, each with its reason: entered again on its deal as
  // the phone is at now (a count, or the bids at once, go back into their form to correct and save),
  // or discarded. An undo is only discarded.
  function listUnsaved() {
    unsaved.hidden = !box || !box.unsaved.length;
    if (unsaved.hidden) return void (unsaved.innerHTML = "");
    const s = data.order && Step.state(data, box.pending(), box.plan);
    unsaved.innerHTML = `<h2 id="unsaved-title" tabindex="-1">${words("unsaved")}</h2><p>${words("again")}</p><ul>` +
      box.unsaved.map((tap, i) => `<li>${words("tapnot", { tap: esc(words("ofdeal", { deal: tap.deal, tap: tap.label })), why: esc(tap.why) })}` +
      ` <span class="again">${s && Step.fits(s, tap) ? `<button type="button" class="button small" value="${i}">${words("enter")}</button>` : ""}` +
      `<button type="button" class="button small" value="${i}" name="discard">${words("discard")}</button></span></li>`).join("") +
      "</ul>";
  }

  unsaved.addEventListener("click", event => {
    const button = event.target.closest("button"), tap = button && box.unsaved[button.value];
    if (!tap) return;
    box.take(tap);
    if (button.name) {
      listUnsaved();
      const next = unsaved.querySelector("button");
      if (next) next.focus();
      return say(words("discarded", { tap: tap.label }));
    }
    if (tap.kind === "bids" || tap.kind === "tricks") {  // back into its form, to correct and save
      const s = Step.state(data, box.pending(), box.plan), f = Object.fromEntries(tap.fields);
      box.drafts[s.d.deal + s.kind] = { bids: Step.marks(s), touched: true,
        picks: s.bids.map((bid, p) => f[`${tap.kind}-${p}`] == null ? null : +f[`${tap.kind}-${p}`]) };
      box.save();
      listUnsaved();
      draw(false);
      const save = main.querySelector("#step .seats [type=submit]");
      if (save) save.focus();
      return say(tap.label);
    }
    const s0 = Step.state(data, box.pending(), box.plan);
    const again = box.add({ kind: tap.kind, action: tap.action, fields: tap.fields, label: tap.label, deal: tap.deal });
    listUnsaved();
    const s = draw(true);
    say(s ? Step.said(s, again) : Step.label(s0, tap.kind, tap.fields));
    box.send();
  });

  main.addEventListener("submit", event => {
    const form = event.target, kind = form.action.split("/").pop(), button = event.submitter;
    if (!form.matches(".live")) return;
    event.preventDefault();
    if (box && data.order && ["bid", "bids", "tricks", "trump", "undo"].includes(kind)) {
      // Counts that don't add up are not sent: their Save button says why, and the sum beside it.
      const sum = form.matches(".tricks-form") && form.querySelector(".sum.off");
      if (sum) {
        Step.nudge(sum);
        return say(sum.textContent);
      }
      // A bid the data strikes out is said to be refused, and not sent.
      if (button && button.matches("[aria-disabled]")) return say(form.querySelector(".reason").textContent);
      const fields = Array.from(new FormData(form, button)).filter(([name]) => name !== "version");
      const f = Object.fromEntries(fields), s = Step.state(data, box.pending(), box.plan);
      // The same button for the same player again within a moment is a double tap: once is enough.
      const same = [kind, f.deal, f.seat, button && button.value].join();
      if (same === last.same && event.timeStamp - last.at < 700) return;
      last.same = same;
      last.at = event.timeStamp;
      const tap = box.add({ kind, action: form.action, fields, label: Step.label(s, kind, fields), deal: +f.deal });
      const next = draw(true);
      say(next ? Step.said(next, tap) : tap.label);
      // Kept on the phone already (a synchronous write): it is sent once the tap is shown.
      return void setTimeout(() => box.send());
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
    const row = event.target.closest("#step .seat-row"), el = row && row.closest("#step");
    if (!row) return;
    Step.sums(el, el.step ? el.step.d : data, +row.dataset.seat);
    if (box) box.save();  // the counts tapped so far survive a reload
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

  // A player's own bid (SEATS.md) came in: the server's page, once nothing of this phone's waits and
  // no text is being typed. Held till the game changes where the server can (web/live.py).
  let asking = null;
  addEventListener("offline", () => asking && asking.abort());
  function follow() {
    let next = 3000;
    const typing = document.activeElement && document.activeElement.matches(
      "input:not([type=radio]):not([type=checkbox]):not([type=submit]), textarea, select");
    if (!navigator.onLine) return void setTimeout(follow, next);
    asking = new AbortController();
    fetch(found.dataset.game + "/state?v=" + encodeURIComponent(data.version) + "&wait=1",
          { cache: "no-store", credentials: "same-origin", signal: asking.signal })
      .then(response => response.ok ? response.json() : null)
      .then(answer => {
        if (answer && typeof answer.again === "number") next = Math.max(answer.again, 50);
        if (!answer || String(answer.version) === String(data.version) || busy || typing ||
            (box && (box.queue.length || box.sending))) return;
        return fetch(location.href, { cache: "no-store", credentials: "same-origin" })
          .then(response => response.ok ? response.text() : null)
          .then(html => { if (html && !busy && !(box && box.queue.length)) show(html, location.href, false); });
      })
      .catch(() => { /* no connection: asked again in a moment */ })
      .then(() => setTimeout(follow, next));
  }

  try {
    box = window.crypto && new Outbox(found.dataset.game, data, answered);
  } catch (e) { /* storage turned off: each tap waits for its answer, as a plain form's does */ }
  if (box) {
    data = box.base;  // a page opened from a cache draws on the newer game this phone heard of
    fetchPlan();
    box.send();
  }
  connection();
  listUnsaved();
  draw(false);
  if (data.version != null) follow();
})();
