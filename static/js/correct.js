// The page correcting a finished deal, as the entry steps are: the dealer's refused bids struck out
// with the reason, the bids' total announced, each row of tricks marked made or missed, the dealer's
// row of tricks keeping what the others leave until it is tapped itself, and the tricks' sum under
// them. A correction whose tricks don't add up, or with a struck bid, is not sent: its Save button
// says why, and a tap on it nudges the sum, or reads the reason among the bids. Everything is looked
// up in the page's data (play/step.py's correction_data, the rules core's answers); the server
// checks the correction again. The form works without it.
(function () {
  "use strict";
  const form = document.getElementById("correct-form"), found = document.getElementById("correct-data");
  if (!form || !found || !window.Step) return;
  const d = JSON.parse(found.textContent), w = window.words, told = document.getElementById("bid-total");
  const sum = document.getElementById("trick-sum"), save = form.querySelector("[type=submit]");
  let touched = false;  // the dealer's count of tricks, tapped by hand: it no longer follows the others
  const row = (kind, p) => form.querySelector(`[data-kind="${kind}"][data-seat="${p}"]`);
  const value = (kind, p) => {
    const on = row(kind, p).querySelector(":checked");
    return on ? +on.value : null;
  };

  function update(event) {
    const changed = event && event.target.closest("[data-kind=tricks]"), rest = d.tricks.rest;
    if (changed && +changed.dataset.seat === rest) touched = true;
    const left = Step.leftOver(d, p => value("tricks", p)), input = changed && !touched &&
      row("tricks", rest).querySelector(`[value="${left}"]`);
    if (input) input.checked = true;
    let before = 0, struck = null;
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
      const bid = value("bids", p);
      if (bid != null && !allows(bid) && !struck) struck = w("nosavebid", { player: d.names[p], bid });
      note.hidden = !refused;
      note.textContent = refused ? reason : "";
      before += bid || 0;
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
    Step.added(sum, save, took, d.tricks.total);
    if (struck) Step.hold(save, struck);
  }

  form.addEventListener("change", update);
  form.addEventListener("submit", event => {
    // Not sent: a refused bid's reason is read where it is said, among the bids; the sum, beside the button.
    const struck = form.querySelector(".struck :checked"), reason = struck && struck.closest(".seat-row").querySelector(".reason");
    if (!reason && !sum.matches(".off")) return;
    event.preventDefault();
    if (!reason) return Step.nudge(sum);
    reason.tabIndex = -1;
    reason.focus();
  });
  update();
})();
