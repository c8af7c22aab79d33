// The page correcting a finished deal, as the entry steps are: the dealer's refused bids struck out
// with the reason, the bids' total announced, each row of tricks marked made or missed, and the tricks'
// sum under them. A correction whose tricks don't add up, or with a struck bid, is not sent: the sum
// or the reason is read instead. Everything is looked up in the page's data (board.correction_data,
// the rules core's answers); the server checks the correction again. The form works without it.
(function () {
  "use strict";
  const form = document.getElementById("correct-form"), found = document.getElementById("correct-data");
  if (!form || !found || !window.Step) return;
  const d = JSON.parse(found.textContent), w = window.words, told = document.getElementById("bid-total");
  const sum = document.getElementById("trick-sum");
  const row = (kind, p) => form.querySelector(`[data-kind="${kind}"][data-seat="${p}"]`);
  const value = (kind, p) => {
    const on = row(kind, p).querySelector(":checked");
    return on ? +on.value : null;
  };

  function update() {
    let before = 0;
    d.order.forEach((p, position) => {
      const [allows, reason] = Step.allowed(d, position, before), bids = row("bids", p);
      const note = bids.querySelector(".reason");
      let refused = false;
      bids.querySelectorAll("input").forEach(input => {
        const off = !allows(+input.value);
        input.parentNode.classList.toggle("struck", off);
        if (off) input.setAttribute("aria-describedby", note.id);
        else input.removeAttribute("aria-describedby");
        refused = refused || off;
      });
      note.hidden = !refused;
      note.textContent = refused ? reason : "";
      before += value("bids", p) || 0;
    });
    const given = d.order.filter(p => value("bids", p) != null);
    const total = given.reduce((all, p) => all + value("bids", p), 0);
    told.innerHTML = given.length === d.order.length ?
      w("bidsfor", { total, num: d.cards, announce: Step.esc(Step.announce(d, total)) }) : "";
    let took = 0;
    d.order.forEach(p => {
      const tricks = row("tricks", p), bid = value("bids", p), t = value("tricks", p);
      tricks.querySelectorAll("input").forEach(input => input.parentNode.classList.toggle("is-bid", +input.value === bid));
      tricks.querySelector("[data-bidof]").textContent = bid == null ? "" : w("bidof", { bid });
      tricks.querySelector("[data-mark]").textContent = t == null || bid == null ? "" : t === bid ? w("made") :
        w(t > bid ? "over" : "under", { diff: Math.abs(t - bid) });
      took += t || 0;
    });
    const diff = took - d.tricks.total;
    sum.textContent = w(diff > 0 ? "sumover" : diff < 0 ? "sumunder" : "sumok", { total: took, num: d.tricks.total, diff: Math.abs(diff) });
    sum.classList.toggle("off", diff !== 0);
  }

  form.addEventListener("change", update);
  form.addEventListener("submit", event => {
    // Not sent: what is wrong is read, where it is said.
    const struck = form.querySelector(".struck :checked"), wrong = struck ? struck.closest(".seat-row").querySelector(".reason")
      : sum.matches(".off") ? sum : null;
    if (!wrong) return;
    event.preventDefault();
    wrong.tabIndex = -1;
    wrong.focus();
  });
  update();
})();
