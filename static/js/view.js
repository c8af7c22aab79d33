// The read-only page (and a seat's page) follows the game: it asks for the game's version and,
// when it changed, swaps in the new board and says in a short status line what the game's last
// step was ("Deal 3: Ann bid 1 · Bob bids next"). No reload; it rests while the page is hidden.
// A server that can hold the question until the game changes (web/live.py) does, and says to ask
// again at once ("again": 0); any other is asked every few seconds.
(function () {
  "use strict";
  var live = document.getElementById("live"), status = document.getElementById("live-status");
  if (!live || !window.fetch) return;
  var url = live.dataset.state;
  var version = live.dataset.version;
  var EVERY = 3000, SOON = 50;

  // Asks for the game as it is, held until it changes with `wait`; swaps in the live part when it
  // changed. It answers how long to wait before asking again.
  var asking = null;
  function ask(wait) {
    var next = EVERY, mine = window.AbortController ? new AbortController() : null;
    if (wait) asking = mine;
    return fetch(url + "?v=" + encodeURIComponent(version) + (wait ? "&wait=1" : ""),
                 { cache: "no-store", credentials: "same-origin", signal: mine && mine.signal })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) {
        if (data && typeof data.again === "number") next = Math.max(data.again, SOON);
        if (data && data.html && String(data.version) !== version) {
          // A page ordered by the moment of a club night (the director's) comes again in the next.
          if (live.dataset.moment && data.moment && data.moment !== live.dataset.moment) {
            window.location.reload();
            return;
          }
          // What the viewer unfolded stays unfolded (the same parts, as long as there are as many).
          var open = Array.prototype.map.call(live.querySelectorAll("details"), function (d) { return d.open; });
          var waiting = !live.querySelector(".your-bid");
          var offered = live.querySelector(".night-offer");
          var before = offered ? offered.textContent : "";
          live.innerHTML = data.html;
          // A seat's page (SEATS.md): the player's turn to bid came; the phone says so where it can.
          if (waiting && live.querySelector(".your-bid") && navigator.vibrate) navigator.vibrate(200);
          // At a club night: the next round's seat (or a bye) came; said, and felt where it can be.
          var offer = live.querySelector(".night-offer");
          var news = data.news;
          if (offer && offer.textContent !== before) {
            news = offer.textContent.replace(/\s+/g, " ").trim();
            if (navigator.vibrate) navigator.vibrate(200);
          }
          var folds = live.querySelectorAll("details");
          if (folds.length === open.length) {
            for (var i = 0; i < folds.length; i++) folds[i].open = open[i];
          }
          version = String(data.version);
          if (status && news) status.textContent = news;
          document.dispatchEvent(new CustomEvent("live:swapped"));  // a seat's taps show again (seat.js)
        }
      })
      .catch(function () { /* offline for a moment: try again next time */ })
      .then(function () { return next; });
  }

  function poll() {
    if (document.hidden || navigator.onLine === false) { setTimeout(poll, EVERY); return; }
    ask(true).then(function (next) { setTimeout(poll, next); });
  }
  // Without the network the page says so, and catches up as soon as it is back.
  var offline = document.getElementById("live-offline");
  function connection() {
    if (offline) offline.hidden = navigator.onLine !== false;
    if (navigator.onLine === false && asking) asking.abort();  // let the held question go
    if (navigator.onLine !== false) ask(false);
  }
  addEventListener("offline", connection);
  addEventListener("online", connection);
  // A seat's tap was answered (seat.js): the game as it is now, at once.
  document.addEventListener("live:ask", function () { ask(false); });
  poll();  // held by a server that can: ready for the next change at once
})();
