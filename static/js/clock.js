// A club night's round clock: the time left until the end the director set, counted down every
// second beside the end time the page shows (which stays without this script). The tables' part of
// the page is swapped by view.js, so the clock is looked up again at every tick.
(function () {
  "use strict";
  function tick() {
    var shown = document.querySelectorAll("[data-left-of]");
    for (var i = 0; i < shown.length; i++) {
      var left = Math.max(0, Math.round((Date.parse(shown[i].dataset.leftOf) - Date.now()) / 1000));
      var minutes = Math.floor(left / 60), seconds = left % 60;
      shown[i].textContent = "· " + minutes + ":" + (seconds < 10 ? "0" : "") + seconds;
    }
  }
  tick();
  setInterval(tick, 1000);
})();
