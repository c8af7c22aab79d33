// The read-only page follows the game: every few seconds it asks for the game's version and,
// when it changed, swaps in the new board and says in a short status line what the game's last
// step was ("Deal 3: Ann bid 1 · Bob bids next"). No reload; it rests while the page is hidden.
(function () {
  "use strict";
  var live = document.getElementById("live"), status = document.getElementById("live-status");
  if (!live || !window.fetch) return;
  var url = live.dataset.state;
  var version = live.dataset.version;
  var EVERY = 3000;

  function poll() {
    if (document.hidden) { setTimeout(poll, EVERY); return; }
    fetch(url + "?v=" + encodeURIComponent(version), { cache: "no-store", credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) {
        if (data && data.html && String(data.version) !== version) {
          live.innerHTML = data.html;
          version = String(data.version);
          if (status && data.news) status.textContent = data.news;
        }
      })
      .catch(function () { /* offline for a moment: try again next time */ })
      .then(function () { setTimeout(poll, EVERY); });
  }
  setTimeout(poll, EVERY);
})();
