// Quicker entry on a game's page. Forms marked "live" (bids, tricks, trump, undo) are sent with
// fetch and the page's <main> is replaced by the answer: one tap, no full page load. The trick
// rows keep the dealer's count at "the rest" and show the running sum. Without JavaScript the
// same forms post and redirect as usual.
(function () {
  "use strict";
  var main = document.getElementById("main");
  if (!main || !window.fetch || !window.DOMParser) return;
  var busy = false;

  function show(html, url, redirected) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.getElementById("main");
    if (!fresh) {
      if (redirected) window.location.href = url; else window.location.reload();
      return;
    }
    main.innerHTML = fresh.innerHTML;
    document.title = doc.title;
    // A refused form answers at the URL it was posted to; only a redirect names a page to stay on.
    if (redirected && url !== window.location.href.split("#")[0]) history.replaceState(null, "", url);
    var target = document.getElementById("error") || document.getElementById("panel");
    if (target && target.getBoundingClientRect().top < 0) target.scrollIntoView();
    setupTricks();
    setupBids();
  }

  main.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("live")) return;
    event.preventDefault();
    if (busy) return;  // a second tap while the first is on its way is ignored, never sent twice
    busy = true;
    var data = new FormData(form);
    var button = event.submitter;
    if (button && button.name) data.append(button.name, button.value);
    form.classList.add("sending");
    fetch(form.action, { method: "POST", body: data, credentials: "same-origin" })
      .then(function (response) {
        return response.text().then(function (html) { show(html, response.url, response.redirected); });
      })
      .catch(function () {
        form.classList.remove("sending");
        var note = document.createElement("p");
        note.className = "flash";
        note.setAttribute("role", "alert");
        note.textContent = "No connection: nothing was saved. Try again.";
        form.parentNode.insertBefore(note, form);
      })
      .then(function () { busy = false; });
  });

  function setupTricks() {
    var form = main.querySelector(".tricks-form");
    if (!form) return;
    var cards = Number(form.dataset.cards);
    var rows = Array.prototype.slice.call(form.querySelectorAll(".seat-row"));
    var last = form.querySelector('.seat-row[data-seat="' + form.dataset.last + '"]');
    var sum = form.querySelector("#trick-sum");
    var prompt = form.querySelector("[data-js-prompt]");
    var touched = false;
    if (prompt) prompt.textContent = prompt.dataset.jsPrompt;  // true now: the dealer's row follows the taps

    function value(row) {
      var checked = row.querySelector("input:checked");
      return checked ? Number(checked.value) : null;
    }
    function mark(row) {
      var took = value(row), bid = Number(row.dataset.bid), label = row.querySelector("[data-mark]");
      if (!label) return;
      if (took === null) label.textContent = "";
      else if (took === bid) label.textContent = "✓ made";
      else label.textContent = "✗ " + (took > bid ? "over" : "under") + " by " + Math.abs(took - bid);
    }
    function update(changed) {
      if (changed === last) touched = true;
      if (changed && changed !== last && !touched && last) {
        var others = 0;
        rows.forEach(function (row) { if (row !== last) others += value(row) || 0; });
        var rest = last.querySelector('input[value="' + (cards - others) + '"]');
        if (rest) rest.checked = true;
      }
      var total = 0;
      rows.forEach(function (row) { total += value(row) || 0; mark(row); });
      var diff = total - cards;
      sum.classList.toggle("off", diff !== 0);
      sum.textContent = "Together " + total + " of " + cards + " tricks" +
        (diff === 0 ? " ✓" : diff > 0 ? ": " + diff + " too many" : ": " + (-diff) + " missing");
    }
    form.addEventListener("change", function (event) { update(event.target.closest(".seat-row")); });
    update(null);
  }
  // Bids shown at once: the bar counts the bids tapped and adds them up (the server judges them).
  function setupBids() {
    var form = main.querySelector(".bids-form");
    if (!form) return;
    var sum = form.querySelector("#bid-sum");
    form.addEventListener("change", function () {
      var checked = form.querySelectorAll("input:checked"), total = 0;
      Array.prototype.forEach.call(checked, function (input) { total += Number(input.value); });
      sum.textContent = checked.length + " of " + form.dataset.players + " bids · together " + total +
        " for " + form.dataset.cards + " tricks";
    });
  }
  setupTricks();
  setupBids();
})();
