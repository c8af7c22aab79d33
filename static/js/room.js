// The room screen on a TV or a projector: its type as large as the screen takes, with the title,
// every table and every line of the standings on the screen (nobody scrolls a TV). The size is
// found again when the screen changes size and when view.js swaps in the tables' new state. On a
// phone-sized screen (events.css: the TV's query is ROOM below) the page keeps the app's type.
(function () {
  "use strict";
  var room = document.querySelector(".room"), live = document.getElementById("live");
  if (!room || !live || !window.matchMedia) return;
  var ROOM = "(min-width: 1000px) and (min-height: 500px)";
  var tv = window.matchMedia(ROOM);

  // Everything the room reads is inside the screen, and nothing is cut off at its side.
  function fits() {
    var bottom = live.getBoundingClientRect().bottom + window.scrollY;
    if (bottom > window.innerHeight - 8 || document.documentElement.scrollWidth > window.innerWidth) return false;
    var wide = room.querySelectorAll(".scroll, .ev-table");
    for (var i = 0; i < wide.length; i++) {
      if (wide[i].scrollWidth > wide[i].clientWidth + 1) return false;
    }
    return true;
  }

  // The largest size (to a tenth of a pixel) between low and high at which it all fits.
  function largest(element, low, high) {
    while (high - low > 0.1) {
      var size = (low + high) / 2;
      element.style.fontSize = size + "px";
      if (fits()) low = size; else high = size;
    }
    element.style.fontSize = low + "px";
    return low;
  }

  function fit() {
    var parts = live.querySelectorAll(".ev-round, .ev-standings");
    for (var i = 0; i < parts.length; i++) parts[i].style.removeProperty("font-size");
    if (!tv.matches) { room.style.removeProperty("font-size"); return; }
    // One size for the whole screen, between a line of small print and a twelfth of its height;
    // then the tables, and the standings, grow into the room the other leaves them (up to twice;
    // a round's heading alone, before the first, does not).
    var size = largest(room, 10, window.innerHeight / 12);
    for (var j = 0; j < parts.length; j++) {
      if (parts[j].querySelector(".ev-tables, .ev-board")) largest(parts[j], size, size * 2);
    }
  }

  fit();
  window.addEventListener("resize", fit);
  if (window.MutationObserver) new MutationObserver(fit).observe(live, { childList: true });
})();
