// Sealed bids on the scorer's page (SEATS.md, "Sealed bids"), for step.js: loaded only on the page
// of a game whose bids are sealed. The step's data says by seat who has bid (`in`) and what this
// phone entered (`mine`), never another phone's bid: a row of a player who has bid on another phone
// says so, with nothing to tap. A tap of bids seals those it gives; once everyone has bid, the bids
// show here at once if this phone entered them all, else once the server has them (`waiting`).
(function () {
  "use strict";
  const w = window.words;

  window.Sealed = {
    none: names => ({ in: names.map(() => false), mine: names.map(() => null) }),
    copy: sealed => ({ in: sealed.in.slice(), mine: sealed.mine.slice() }),

    seal(s, seat) {
      const { order } = s.d, sealed = s.sealed;
      order.filter(p => seat(p) != null).forEach(p => { sealed.mine[p] = seat(p); sealed.in[p] = true; });
      if (!order.every(p => sealed.in[p])) return;
      if (order.every(p => sealed.mine[p] != null)) order.forEach(p => { s.bids[p] = sealed.mine[p]; });
      else s.waiting = true;
    },

    // Whether the player at `p` has bid on another phone.
    elsewhere: (s, p) => s.sealed.in[p] && s.sealed.mine[p] == null,

    row: (d, p) => `<fieldset class="seat-row" data-seat="${p}"><legend><b>${Step.esc(d.names[p])}</b></legend>` +
      `<p class="has-bid muted">${w("hasbid")}</p></fieldset>`,

    marks: s => "|" + s.sealed.in.join() + "|" + s.sealed.mine.join(),

    // Once a player has bid on another phone, the form's sum says how many have bid, with those
    // tapped in it (`value`: a row's pick), never their total; false before (the usual sum).
    sum(el, s, value) {
      const { order } = s.d;
      if (!order.some(p => Sealed.elsewhere(s, p))) return false;
      el.textContent = w("sealedsum", { num: order.filter(p => value(p) != null || Sealed.elsewhere(s, p)).length,
                                        players: order.length });
      return true;
    },

    said: (s, tap) => w("sealedsaid", { tap: tap.label, num: s.d.order.filter(p => s.sealed.in[p]).length,
                                        players: s.d.order.length }),
  };
})();
