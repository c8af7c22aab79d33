// Keeps the screen on while a game's page is shown (Screen Wake Lock), so the phone doesn't go
// dark between two deals; the "Keep the screen on" box turns it off, and this phone remembers
// that. The phone lets go of the lock whenever the page is hidden: it is asked for again when the
// page is shown. Where the browser has no wake lock, the box stays hidden.
(function () {
  "use strict";
  var control = document.getElementById("wake");
  if (!control || !("wakeLock" in navigator) || !navigator.wakeLock) return;
  var box = control.querySelector("input");
  var note = control.querySelector("[aria-live]");
  var KEY = "scorekeeper.keep-screen-on";
  var lock = null;
  var asking = false;

  function wanted() {
    try { return localStorage.getItem(KEY) !== "off"; } catch (error) { return true; }
  }
  function remember(on) {
    try { localStorage.setItem(KEY, on ? "on" : "off"); } catch (error) { /* storage refused: this page only */ }
  }
  function ask() {
    if (!box.checked || lock || asking || document.visibilityState !== "visible") return;
    asking = true;
    navigator.wakeLock.request("screen").then(function (sentinel) {
      asking = false;
      note.textContent = "";
      if (!box.checked) { sentinel.release(); return; }  // turned off while the phone answered
      lock = sentinel;
      sentinel.addEventListener("release", function () { lock = null; });
    }, function () {
      asking = false;
      note.textContent = words("nowake");
    });
  }

  box.checked = wanted();
  control.hidden = false;
  box.addEventListener("change", function () {
    remember(box.checked);
    note.textContent = "";
    if (box.checked) ask();
    else if (lock) lock.release();
  });
  document.addEventListener("visibilitychange", ask);
  ask();
})();
