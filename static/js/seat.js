// A seat's taps (SEATS.md): the player's own bid, from their own phone. A tap shows at once what it
// did ("Your bid: 2 · Bob bids next"), and waits in this phone's outbox (localStorage: kept if the
// phone sleeps or the page is closed) until the server answers it. It is sent to the seat's own
// API (POST /api/games/<seat>/taps) with a client id and the deal it was made on, again and again
// with the same id until an answer comes: the server applies it once, on that deal, or refuses it
// with a sentence naming the deal, which the page then shows. Without the network the tap says so,
// and goes when the network is back. view.js keeps the page following the game; after each swap
// of the live part, the taps still waiting are shown again over it.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !live.dataset.taps || !window.fetch || !window.localStorage) return;
  var key = "seat:" + live.dataset.taps, WAIT = [1, 2, 4, 8, 15], failures = 0, sending = false;
  var queue = JSON.parse(localStorage.getItem(key) || "[]");

  function keep() {
    if (queue.length) localStorage.setItem(key, JSON.stringify(queue));
    else localStorage.removeItem(key);
  }

  function say(text) {
    var status = document.getElementById("live-status");
    if (status) status.textContent = text;
  }

  // What a tap waiting for its answer shows in place of its form: the tap in words, where it is,
  // and what comes next at the table.
  function show(tap, where) {
    var form = live.querySelector("form[data-step='" + tap.step + "'][data-deal='" + tap.deal + "']");
    var shown = live.querySelector(".seat-sent[data-tap='" + tap.tap + "']");
    if (!shown && !form) return;
    if (!shown) {
      shown = document.createElement("div");
      shown.className = "seat-sent";
      shown.dataset.tap = tap.tap;
      shown.setAttribute("role", "status");
      shown.innerHTML = "<p class='prompt'></p><p class='where'></p><p class='next muted'></p>";
      shown.querySelector(".prompt").textContent = words(tap.step === "tricks" ? "yourtricks" : "yourbid",
                                                         { value: tap.said });
      shown.querySelector(".next").textContent = tap.next || "";
      form.parentNode.replaceChild(shown, form);
      // The bid in its place in the row, and the turn moved on, as the server will show them.
      var now = live.querySelector(".bidders li.now");
      if (tap.step === "bid" && now) {
        now.querySelector(".what").textContent = tap.said;
        now.querySelector(".what").classList.add("sending");
        now.classList.remove("now");
        if (now.nextElementSibling) now.nextElementSibling.classList.add("now");
      }
    }
    shown.dataset.where = where;
    shown.querySelector(".where").textContent = words(where);
  }

  // A refusal is said above the live part, which the game's news swaps (it would go with it), until
  // the next tap.
  function refused(tap, reason) {
    var box = document.createElement("p");
    box.className = "flash seat-refused";
    box.setAttribute("role", "alert");
    box.textContent = reason;
    live.parentNode.insertBefore(box, live);
    document.dispatchEvent(new CustomEvent("live:ask"));  // the game as it is now, under the reason
  }

  function send() {
    if (sending || !queue.length) return;
    if (navigator.onLine === false) return show(queue[0], "nonet");  // sent when "online" comes
    var tap = queue[0];
    sending = true;
    fetch(live.dataset.taps, {
      method: "POST", credentials: "same-origin", cache: "no-store",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ tap: tap.tap, deal: tap.deal, step: tap.step, value: tap.value })
    }).then(function (response) {
      if (response.status >= 500 || response.status === 429) throw new Error("again");
      return response.json().catch(function () { return {}; }).then(function (data) {
        queue.shift();
        keep();
        failures = 0;
        if (response.ok) {
          show(tap, "sent");
          say(words(tap.step === "tricks" ? "yourtricks" : "yourbid", { value: tap.said }) + " · " + words("sent"));
          document.dispatchEvent(new CustomEvent("live:ask"));
        } else refused(tap, data.error || String(response.status));
      });
    }).catch(function () {
      failures += 1;
      show(tap, "nonet");
      setTimeout(send, 1000 * WAIT[Math.min(failures, WAIT.length) - 1]);
    }).then(function () {
      sending = false;
      if (queue.length && !failures) send();
    });
  }

  live.addEventListener("submit", function (event) {
    var form = event.target, button = event.submitter;
    if (!form.dataset.step || !button || button.value === "") return;
    event.preventDefault();
    document.querySelectorAll(".seat-refused").forEach(function (box) { box.remove(); });
    var tap = {
      tap: Array.from(crypto.getRandomValues(new Uint8Array(12)), function (b) {
        return b.toString(16).padStart(2, "0");
      }).join(""),
      deal: parseInt(form.dataset.deal, 10), step: form.dataset.step,
      // the number as the page writes it: no number formatting in the tap's way
      value: parseInt(button.value, 10), said: button.textContent.trim(), next: form.dataset.next || ""
    };
    queue.push(tap);
    keep();
    show(tap, navigator.onLine === false ? "nonet" : "sending");
    send();
  });

  // The live part swapped in again: the taps still waiting show over it.
  document.addEventListener("live:swapped", function () {
    queue.forEach(function (tap) { show(tap, failures ? "nonet" : "sending"); });
  });
  addEventListener("online", function () { failures = 0; send(); });
  queue.forEach(function (tap) { show(tap, "sending"); });
  send();
})();
