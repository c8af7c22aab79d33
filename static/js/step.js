// Draws the deal's step from the page's data (#step-data: play/step.py's step_data), the deals after it
// (deal_steps, fetched as the game's plan) and the taps not yet answered, so a tap shows at once
// and the game goes on from deal to deal without a connection. The server stays the only judge: this
// only looks up what the rules core put in the data (the bidding order; the bids allowed after a
// running total and why the others are not; the announce of a total; the tricks' total), and the
// server checks every tap as it checks a form. Its page, with the points, replaces this drawing.
(function () {
  "use strict";
  const esc = text => String(text).replace(/[&<>"]/g, c => `&#${c.charCodeAt(0)};`);
  const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" }, w = window.words;

  // The data of deal `number`: the page's own, or the plan's when it is the plan this page names.
  function dealData(d, plan, number) {
    if (number === d.deal) return d;
    const found = plan && d.plan && plan.plan === d.plan && plan.deals.find(x => x.deal === number);
    return found ? Object.assign({}, found, { names: d.names, at_once: d.at_once, version: d.version, announce: d.announce,
                                              sealed: d.sealed && Sealed.none(d.names) }) : null;
  }

  // The deal the taps leave the phone at, and its step: the page's deal with the bids stored, then
  // each deal whose tricks are among the taps gives way to the next one the data knows (none: the
  // next deal waits for the server).
  function state(d, taps, plan) {
    let s = fresh(d, d.bids.slice(), null);
    for (const tap of taps) {
      if (tap.deal != null && tap.deal !== s.d.deal) continue;  // answered already: the data has it
      const { kind, fields } = tap, f = Object.fromEntries(fields);
      const seat = p => f[`${kind}-${p}`] == null ? null : +f[`${kind}-${p}`];
      const entered = s.d.order.filter(p => s.bids[p] != null);
      if (kind === "bid") s.queued.push(+f.seat);
      if (kind === "bid") s.bids[f.seat] = +f.bid;
      for (const p of kind === "bids" && !s.sealed ? s.d.order : []) s.bids[p] = seat(p);
      if (kind === "bids" && s.sealed) Sealed.seal(s, seat);  // sealed.js: sealed bids (SEATS.md)
      if (kind === "bids") s.queued.push(...s.d.order);
      if (kind === "undo") (s.d.at_once ? entered : entered.slice(-1)).forEach(p => { s.bids[p] = null; });
      if (kind === "undo" && s.sealed) s.sealed = Sealed.none(s.d.names);
      if (kind === "tricks") {
        const done = { d: s.d, bids: s.bids, tricks: s.d.order.map(seat) }, next = dealData(d, plan, s.d.deal + 1);
        s = next ? fresh(next, s.bids.map(() => null), done) : Object.assign(fresh(s.d, s.bids, done), { tricks: done.tricks });
      }
    }
    s.entered = s.d.order.filter(p => s.bids[p] != null);
    s.total = s.entered.reduce((sum, p) => sum + s.bids[p], 0);
    s.next = s.d.order.find(p => s.bids[p] == null);
    s.kind = s.tricks ? "sent" : s.waiting ? "waiting" : s.next === undefined ? "tricks" : s.d.at_once ? "bids" : "bid";
    return s;
  }

  // What a step's drafts are kept by: its bids (and, sealed, who has bid and what this phone did).
  const marks = s => s.bids.join() + (s.sealed ? Sealed.marks(s) : "");

  // What the bids are said to be against the cards ("over by 1"), in the data's own words.
  function announce(d, total) {
    const [under, even, over] = d.announce;
    return total === d.cards ? even : (total < d.cards ? under : over).replace("%(tricks)s", Math.abs(total - d.cards));
  }

  function fresh(d, bids, before) {
    return { d, bids, tricks: null, queued: [], before, sealed: d.sealed && Sealed.copy(d.sealed) };
  }

  // What the data allows the bidder at `position` in the bidding order after bids adding up to `total`.
  function allowed(d, position, total) {
    const runs = d.bidding[position], run = runs.find(r => total <= r[0]) || runs[runs.length - 1];
    return [bid => run[1].some(([low, high]) => low <= bid && bid <= high), d.reasons[run[2]]];
  }

  function numbers(d, make) {
    let html = "";
    for (let n = 0; n <= d.cards; n++) html += make(n);
    return `<div class="numbers">${html}</div>`;
  }

  // A row per player dealt in, for their bids shown at once or their tricks; the form's Save bar.
  function rows(d, s, name, picks, save) {
    return d.order.map((p, position) => {
      const [allows] = allowed(d, position, 0), bid = s.bids[p], off = n => name === "bids" && !allows(n);
      if (name === "bids" && s.sealed && Sealed.elsewhere(s, p)) return Sealed.row(d, p);
      return `<fieldset class="seat-row" data-seat="${p}" data-bid="${bid}"><legend><b>${esc(d.names[p])}</b>` +
        (name === "tricks" ? ` <span class="muted">${w("bidof", { bid })}</span> <span class="mark" data-mark></span>` : "") + "</legend>" +
        numbers(d, n => `<label class="num${n === bid ? " is-bid" : ""}${off(n) ? " struck" : ""}"><input type="radio" ` +
          `name="${name}-${p}" value="${n}"${n === picks[p] ? " checked" : ""}${off(n) ? " disabled" : ""}><span>${n}</span></label>`) +
        "</fieldset>";
    }).join("") + `<div class="action-bar"><p class="sum" id="${name === "bids" ? "bid" : "trick"}-sum" aria-live="polite"></p>` +
      `<button type="submit" class="button primary big">${save}</button></div>`;
  }

  // A deal entered on this phone whose points the server has not given yet.
  function entered(before, note) {
    const { d, bids, tricks } = before;
    return `<div class="last-deal pending"><h2 tabindex="-1">${w("entered", { deal: d.deal })}</h2><ul class="chips">` +
      d.order.map((p, i) => `<li>${esc(d.names[p])} <b>${bids[p]} / ${tricks[i]}</b></li>`).join("") +
      `</ul><p class="muted small">${note}</p></div>`;
  }

  function step(s, picks, form) {
    const d = s.d;
    // Said from the first bid on; its line is there before it, so the buttons under it stay put.
    const told = `<p class="announce">${s.entered.length ? w("bidsfor", { total: s.total, num: d.cards, announce: esc(announce(d, s.total)) }) : ""}</p>`;
    if (s.kind === "sent") return entered(s.before, w("pending"));
    if (s.kind === "waiting") return `<p class="note">${w("sealedin")}</p>`;
    const before = s.before && !s.entered.length ? entered(s.before, w("pendingnext")) : "";
    if (s.kind === "tricks") {
      // Rows the players' own counts start say so (the page's data has its words then).
      return told + form("tricks", "seats tricks-form", `<p class="prompt">${d.counted || w("rest", { dealer: esc(d.names[d.tricks.rest]) })}</p>` +
        rows(d, s, "tricks", picks, w("save", { deal: d.deal })));
    }
    if (s.kind === "bids") {
      return form("bids", "seats bids-form", `<p class="prompt">${w(s.sealed ? "atoncesealed" : "atonce")}</p>` + rows(d, s, "bids", picks, w("savebids"))) + before;
    }
    const [allows, reason] = allowed(d, d.order.indexOf(s.next), s.total);
    return '<ol class="bidders">' + d.order.map(p => {
      const bid = s.bids[p];
      return `<li class="${p === s.next ? "now" : ""}" data-seat="${p}"><span class="who">` +
        `${esc(d.names[p])}${p === d.dealer ? " <small>" + w("deals") + "</small>" : ""}</span>` +
        `<span class="what">${bid != null ? bid : p === s.next ? "…" : "–"}</span></li>`;
    }).join("") + "</ol>" + told + form("bid", "bid-form",
      `<input type="hidden" name="seat" value="${s.next}"><p class="prompt">` +
      `${w(s.next === d.dealer ? "bidslast" : "bids", { player: esc(d.names[s.next]) })}</p>` +
      // A refused bid stays reachable by Tab, so its reason is read.
      numbers(d, n => `<button type="submit" name="bid" value="${n}" class="num` +
        `${allows(n) ? "" : ' struck" aria-disabled="true" aria-describedby="bid-reason'}">${n}</button>`) +
      (reason ? `<p class="reason" id="bid-reason">${esc(reason)}</p>` : "")) + before;
  }

  // Draws the step into `el` (#step); `drafts` keeps, by deal and step, what was tapped in a form not
  // yet saved. A step drawn as it already is stays as it is (the radios' ticks are the page's own),
  // so a finger on a button as an answer comes in still taps it. A deal after the page's gets its
  // header from the plan, and the page's last deal and trump control, which are not its, are hidden.
  function draw(el, d, taps, drafts, game, csrf, plan) {
    const s = state(d, taps, plan), dd = s.d, key = dd.deal + s.kind, bids = marks(s), sealed = s.sealed;
    const last = s.entered[s.entered.length - 1];
    if (!drafts[key] || drafts[key].bids !== bids) drafts[key] = { bids, picks: s.kind === "tricks" ? s.bids.slice() : sealed ? sealed.mine.slice() : [] };
    const came = s.kind === "tricks" && dd === d && counted(drafts[key], d.counts, d.tricks.rest);
    const form = (action, kind, inner) => `<form method="post" action="${game}/${action}" class="live ${kind}">` +
      `<input type="hidden" name="csrf_token" value="${esc(csrf)}"><input type="hidden" name="version">` +
      `<input type="hidden" name="deal" value="${dd.deal}">${inner}</form>`;
    const html = step(s, drafts[key].picks, form) + ((s.entered.length || sealed && sealed.in.some(Boolean)) && s.kind !== "sent" ? form("undo", "undo",
      (dd.at_once ? "" : `<input type="hidden" name="seat" value="${last}">`) +
      `<button type="submit" class="button small">${dd.at_once ? w("undoall") : w("undo", { player: esc(dd.names[last]) })}</button>`) : "");
    if (came || html.replace(/ checked/g, "") !== el.drawn) el.innerHTML = html;
    el.drawn = html.replace(/ checked/g, "");
    // The version a form is sent with when nothing keeps the taps (the outbox sets its own).
    el.querySelectorAll("input[name=version]").forEach(input => { input.value = d.version; });
    el.draft = drafts[key];
    el.step = s;
    sums(el, dd);
    // The bids not yet answered, dashed.
    el.querySelectorAll(".bidders li").forEach(li => li.classList.toggle("queued", s.queued.includes(+li.dataset.seat) &&
      !li.matches(".now")));
    const panel = el.closest("#panel"), head = panel.querySelector(".deal-head"), later = dd !== d;
    const before = panel.querySelector(".last-deal:not(.pending)");
    if (before) before.hidden = s.entered.length > 0 || later;
    // The players' own counts, the server's, said of the page's tricks step only.
    const counts = panel.querySelector("#counts");
    if (counts) counts.hidden = later || s.kind !== "tricks";
    // Out of sight, its place kept: the next deal's, from the server, comes in the same place.
    panel.querySelectorAll(".trump-form, .trump-more").forEach(trump => trump.classList.toggle("later", later));
    if (head && !head.own) head.own = head.innerHTML;
    const shown = later ? (dd.head || "").replace(/^\s*<header[^>]*>|<\/header>\s*$/g, "") : head && head.own;
    if (head && head.innerHTML !== shown) head.innerHTML = shown;
    return s;
  }

  // The counts the players entered on their own phones (SEATS.md) fill their rows, each as it comes or
  // changes (a row tapped since keeps the tap until then); the dealer's own count is kept as the rest.
  // Whether one came.
  function counted(draft, counts = [], rest) {
    const had = draft.counts || [];
    draft.counts = counts;
    return counts.reduce((came, count, p) => {
      if (count == null || count === had[p]) return came;
      draft.picks[p] = count;
      draft.touched = draft.touched || p === rest;
      return true;
    }, false);
  }

  // The running sum and the rows' marks. The tricks add up to the data's total; they start at the bids
  // and, until the scorer taps it, the row the data names (the dealer's) keeps what the others leave.
  function sums(el, d, changed) {
    const form = el.querySelector(".seats"), row = p => form.querySelector(`[data-seat="${p}"]`);
    if (!form) return;
    const value = p => { const on = row(p).querySelector(":checked"); return on ? +on.value : null; };
    const draft = el.draft, tricks = form.matches(".tricks-form"), { total: all, rest } = d.tricks;
    if (changed != null) draft.picks[changed] = value(changed);
    if (changed === rest) draft.touched = true;
    const left = leftOver(d, value);
    const input = tricks && !draft.touched && row(rest).querySelector(`[value="${left}"]`);
    if (input) input.checked = true;
    if (input) draft.picks[rest] = left;
    const given = d.order.filter(p => value(p) != null), total = given.reduce((sum, p) => sum + value(p), 0);
    const sum = form.querySelector(".sum");
    if (tricks) added(sum, form.querySelector("[type=submit]"), total, all);
    else if (!(el.step && el.step.sealed && Sealed.sum(sum, el.step, value))) {
      sum.textContent = given.length ? w("sumbids", { given: given.length, players: d.order.length, total, num: d.cards }) : w("tapbids");
    }
    for (const p of tricks ? d.order : []) {
      const took = value(p), bid = +row(p).dataset.bid;
      row(p).querySelector("[data-mark]").textContent = took == null ? "" : took === bid ? w("made") :
        w(took > bid ? "over" : "under", { diff: Math.abs(took - bid) });
    }
  }

  // The tricks' sum (`total` of `all`) under the rows, and their Save button: while they don't add up,
  // the button says why it can't save (its name, read out) and looks it, and a tap on it only nudges.
  function added(sum, save, total, all) {
    const diff = total - all;
    sum.textContent = w(diff > 0 ? "sumover" : diff < 0 ? "sumunder" : "sumok", { total, num: all, diff: Math.abs(diff) });
    sum.classList.toggle("off", diff !== 0);
    hold(save, diff && w(diff > 0 ? "nosaveover" : "nosaveunder", { num: Math.abs(diff) }));
  }

  // A Save button held back, saying `why` in place of its own words; or (no `why`) free again.
  function hold(save, why) {
    save.ready = save.ready || save.textContent;
    save.textContent = why || save.ready;
    save.classList.toggle("held", !!why);
    save.classList.toggle("primary", !why);
    save[why ? "setAttribute" : "removeAttribute"]("aria-disabled", "true");
  }

  // A tap on a button held back: what is wrong, beside it, is shown again (a ring, once more).
  function nudge(el) {
    el.classList.remove("nudge");
    void el.offsetWidth;  // the animation starts again
    el.classList.add("nudge");
  }

  // The count the row of the rest (the dealer's) keeps: the tricks the others leave (`value`: a seat's count).
  function leftOver(d, value) {
    return d.tricks.total - d.order.reduce((sum, p) => sum + (p === d.tricks.rest ? 0 : value(p) || 0), 0);
  }

  // The next thing to do: the first bid allowed, the first row's choice, or the deal just entered.
  // A deal just entered on this phone is said first, with the deal's title in view at the top (a
  // digit still bids, the focus being on no control).
  function focus(el) {
    const row = el.querySelector(".seat-row"), entered = el.querySelector(".pending h2");
    if (entered) el.closest("#panel").querySelector(".deal-head").scrollIntoView();
    const next = entered || el.querySelector(".bid-form .num:not([aria-disabled])") ||
      (row && (row.querySelector(":checked") || row.querySelector(":enabled")));
    if (next) next.focus({ preventScroll: Boolean(entered) });
  }

  // A tap in words, for the status line and the list of taps not saved: "Ann bid 1"; and what it did
  // and what comes next: "Ann bid 1 · Bob bids next".
  function label(s, kind, fields) {
    const d = s.d, f = Object.fromEntries(fields), last = s.entered[s.entered.length - 1];
    if (kind === "bid") return w("bid", { player: d.names[f.seat], bid: f.bid });
    if (kind === "undo") return d.at_once ? w("backall", { deal: d.deal }) : w("back", { player: d.names[last] });
    if (kind === "trump") return w("trump", { suit: SUITS[f.trump] || w("nt"), deal: d.deal });
    return w(kind === "bids" ? "thebids" : "thetricks", { deal: d.deal });
  }

  function said(s, tap) {
    const d = s.d;
    if (tap.kind === "tricks") return w("entered", { deal: tap.deal });
    if (s.kind === "bids" && s.sealed) return Sealed.said(s, tap);
    return s.kind === "bid" ? w("next", { tap: tap.label, player: d.names[s.next] }) : s.kind === "bids" ? w("everyone", { tap: tap.label })
      : s.kind === "tricks" ? w("tricks", { tap: tap.label, announce: announce(d, s.total) }) : tap.label;
  }

  // Whether a tap not saved can be entered again now: the phone is at its deal and step (a bid: that
  // player bids next, and the data allows the bid). An undo is never entered again.
  function fits(s, tap) {
    if (tap.kind === "undo" || tap.deal !== s.d.deal) return false;
    if (tap.kind === "trump") return s.kind !== "sent";
    if (tap.kind !== s.kind) return false;
    if (tap.kind !== "bid") return true;
    const f = Object.fromEntries(tap.fields);
    return +f.seat === s.next && allowed(s.d, s.d.order.indexOf(s.next), s.total)[0](+f.bid);
  }

  window.Step = { esc, state, draw, sums, focus, label, said, fits, allowed, announce, added, hold, nudge, leftOver, marks };
})();
