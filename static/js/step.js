// Draws the deal's step from the page's data (#step-data: board.step_data) and the taps not yet
// answered, so a tap shows at once. The server stays the only judge: this only looks up what the
// rules core put in the data (the bidding order; the bids allowed after a running total and why the
// others are not; the announce of a total; the tricks' total), and the server checks every tap as it
// checks a form. Its page, with the points, replaces this drawing.
(function () {
  "use strict";
  const esc = text => String(text).replace(/[&<>"]/g, c => `&#${c.charCodeAt(0)};`);
  const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" }, w = window.words;

  // The deal as the data and the taps made on it leave it.
  function state(d, taps) {
    const s = { bids: d.bids.slice(), tricks: null, queued: [] };
    for (const { kind, fields } of taps) {
      const f = Object.fromEntries(fields), seat = p => f[`${kind}-${p}`] == null ? null : +f[`${kind}-${p}`];
      const entered = d.order.filter(p => s.bids[p] != null);
      if (kind === "bid") s.queued.push(+f.seat);
      if (kind === "bid") s.bids[f.seat] = +f.bid;
      for (const p of kind === "bids" ? d.order : []) s.bids[p] = seat(p);
      if (kind === "bids") s.queued.push(...d.order);
      if (kind === "undo") (d.at_once ? entered : entered.slice(-1)).forEach(p => { s.bids[p] = null; });
      if (kind === "tricks") s.tricks = d.order.map(seat);
    }
    s.entered = d.order.filter(p => s.bids[p] != null);
    s.total = s.entered.reduce((sum, p) => sum + s.bids[p], 0);
    s.next = d.order.find(p => s.bids[p] == null);
    s.kind = s.tricks ? "sent" : s.next === undefined ? "tricks" : d.at_once ? "bids" : "bid";
    return s;
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
      return `<fieldset class="seat-row" data-seat="${p}" data-bid="${bid}"><legend><b>${esc(d.names[p])}</b>` +
        (name === "tricks" ? ` <span class="muted">${w("bidof", { bid })}</span> <span class="mark" data-mark></span>` : "") + "</legend>" +
        numbers(d, n => `<label class="num${n === bid ? " is-bid" : ""}${off(n) ? " struck" : ""}"><input type="radio" ` +
          `name="${name}-${p}" value="${n}"${n === picks[p] ? " checked" : ""}${off(n) ? " disabled" : ""}><span>${n}</span></label>`) +
        "</fieldset>";
    }).join("") + `<div class="action-bar"><p class="sum" id="${name === "bids" ? "bid" : "trick"}-sum" aria-live="polite"></p>` +
      `<button type="submit" class="button primary big">${save}</button></div>`;
  }

  function step(d, s, picks, form) {
    const announce = `<p class="announce">${w("bidsfor", { total: s.total, cards: d.cards, announce: esc(d.announce[s.total]) })}</p>`;
    if (s.kind === "sent") {
      return `<div class="last-deal pending"><h2 tabindex="-1">${w("entered", { deal: d.deal })}</h2><ul class="chips">` +
        d.order.map((p, i) => `<li>${esc(d.names[p])} <b>${s.bids[p]} / ${s.tricks[i]}</b></li>`).join("") +
        `</ul><p class="muted small">${w("pending")}</p></div>`;
    }
    if (s.kind === "tricks") {
      return announce + form("tricks", "seats tricks-form", `<p class="prompt">${w("rest", { dealer: esc(d.names[d.tricks.rest]) })}</p>` +
        rows(d, s, "tricks", picks, w("save", { deal: d.deal })));
    }
    if (s.kind === "bids") {
      return form("bids", "seats bids-form", `<p class="prompt">${w("atonce")}</p>` + rows(d, s, "bids", picks, w("savebids")));
    }
    const [allows, reason] = allowed(d, d.order.indexOf(s.next), s.total);
    return '<ol class="bidders">' + d.order.map(p => {
      const bid = s.bids[p];
      return `<li class="${p === s.next ? "now" : ""}" data-seat="${p}"><span class="who">` +
        `${esc(d.names[p])}${p === d.dealer ? " <small>" + w("deals") + "</small>" : ""}</span>` +
        `<span class="what">${bid != null ? bid : p === s.next ? "…" : "–"}</span></li>`;
    }).join("") + "</ol>" + (s.entered.length ? announce : "") + form("bid", "bid-form",
      `<input type="hidden" name="seat" value="${s.next}"><p class="prompt">` +
      `${w(s.next === d.dealer ? "bidslast" : "bids", { player: esc(d.names[s.next]) })}</p>` +
      // A refused bid stays reachable by Tab, so its reason is read.
      numbers(d, n => `<button type="submit" name="bid" value="${n}" class="num` +
        `${allows(n) ? "" : ' struck" aria-disabled="true" aria-describedby="bid-reason'}">${n}</button>`) +
      (reason ? `<p class="reason" id="bid-reason">${esc(reason)}</p>` : ""));
  }

  // Draws the step into `el` (#step); `drafts` keeps, by deal and step, what was tapped in a form not
  // yet saved. A step drawn as it already is stays as it is (the radios' ticks are the page's own),
  // so a finger on a button as an answer comes in still taps it.
  function draw(el, d, taps, drafts, game, csrf) {
    const s = state(d, taps), key = d.deal + s.kind, bids = s.bids.join(), last = s.entered[s.entered.length - 1];
    if (!drafts[key] || drafts[key].bids !== bids) drafts[key] = { bids, picks: s.kind === "tricks" ? s.bids.slice() : [] };
    const form = (action, kind, inner) => `<form method="post" action="${game}/${action}" class="live ${kind}">` +
      `<input type="hidden" name="csrf_token" value="${esc(csrf)}"><input type="hidden" name="version">${inner}</form>`;
    const html = step(d, s, drafts[key].picks, form) + (s.entered.length && s.kind !== "sent" ? form("undo", "undo",
      `<button type="submit" class="button small">${d.at_once ? w("undoall") : w("undo", { player: esc(d.names[last]) })}</button>`) : "");
    if (html.replace(/ checked/g, "") !== el.drawn) el.innerHTML = html;
    el.drawn = html.replace(/ checked/g, "");
    // The version a form is sent with when nothing keeps the taps (the outbox sets its own).
    el.querySelectorAll("input[name=version]").forEach(input => { input.value = d.version; });
    el.draft = drafts[key];
    sums(el, d);
    // The bids not yet answered, dashed.
    el.querySelectorAll(".bidders li").forEach(li => li.classList.toggle("queued", s.queued.includes(+li.dataset.seat) &&
      !li.matches(".now")));
    const before = el.closest("#panel").querySelector(".last-deal:not(.pending)");
    if (before) before.hidden = s.entered.length > 0;
    return s;
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
    const left = all - d.order.reduce((sum, p) => sum + (p === rest ? 0 : value(p) || 0), 0);
    const input = tricks && !draft.touched && row(rest).querySelector(`[value="${left}"]`);
    if (input) input.checked = true;
    if (input) draft.picks[rest] = left;
    const given = d.order.filter(p => value(p) != null), total = given.reduce((sum, p) => sum + value(p), 0);
    const diff = total - all, sum = form.querySelector(".sum");
    sum.textContent = tricks ? w(diff > 0 ? "sumover" : diff < 0 ? "sumunder" : "sumok", { total, cards: all, diff: Math.abs(diff) })
      : given.length ? w("sumbids", { given: given.length, players: d.order.length, total, cards: d.cards }) : w("tapbids");
    sum.classList.toggle("off", tricks && diff !== 0);
    for (const p of tricks ? d.order : []) {
      const took = value(p), bid = +row(p).dataset.bid;
      row(p).querySelector("[data-mark]").textContent = took == null ? "" : took === bid ? w("made") :
        w(took > bid ? "over" : "under", { diff: Math.abs(took - bid) });
    }
  }

  // The next thing to do: the first bid allowed, the first row's choice, or the deal just entered.
  function focus(el) {
    const row = el.querySelector(".seat-row"), next = el.querySelector(".bid-form .num:not([aria-disabled])") ||
      (row && (row.querySelector(":checked") || row.querySelector(":enabled"))) || el.querySelector(".pending h2");
    if (next) next.focus();
  }

  // A tap in words, for the status line and the list of taps not saved: "Ann bid 1"; and what it did
  // and what comes next: "Ann bid 1 · Bob bids next".
  function label(d, s, kind, fields) {
    const f = Object.fromEntries(fields), last = s.entered[s.entered.length - 1];
    if (kind === "bid") return w("bid", { player: d.names[f.seat], bid: f.bid });
    if (kind === "undo") return d.at_once ? w("backall", { deal: d.deal }) : w("back", { player: d.names[last] });
    if (kind === "trump") return w("trump", { suit: SUITS[f.trump] || w("nt"), deal: d.deal });
    return w(kind === "bids" ? "thebids" : "thetricks", { deal: d.deal });
  }

  function said(d, s, tap) {
    if (tap.kind === "tricks") return w("entered", { deal: d.deal });
    return s.kind === "bid" ? w("next", { tap: tap.label, player: d.names[s.next] }) : s.kind === "bids" ? w("everyone", { tap: tap.label })
      : s.kind === "tricks" ? w("tricks", { tap: tap.label, announce: d.announce[s.total] }) : tap.label;
  }

  window.Step = { esc, state, draw, sums, focus, label, said };
})();
