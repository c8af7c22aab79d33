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

  function poll() {
    if (document.hidden) { setTimeout(poll, EVERY); return; }
    var next = EVERY;
    fetch(url + "?v=" + encodeURIComponent(version) + "&wait=1",
          { cache: "no-store", credentials: "same-origin" })
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
          live.innerHTML = data.html;
          // A seat's page (SEATS.md): the player's turn to bid came; the phone says so where it can.
          if (waiting && live.querySelector(".your-bid") && navigator.vibrate) navigator.vibrate(200);
          var folds = live.querySelectorAll("details");
          if (folds.length === open.length) {
            for (var i = 0; i < folds.length; i++) folds[i].open = open[i];
          }
          version = String(data.version);
          if (status && data.news) status.textContent = data.news;
        }
      })
      .catch(function () { /* offline for a moment: try again next time */ })
      .then(function () { setTimeout(poll, next); });
  }
  poll();  // held by a server that can: ready for the next change at once
})();
