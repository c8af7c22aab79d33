// The arrival form: typing a starting score ticks "a number", which a tap in the text box can't
// do by itself (without JavaScript the server takes a number typed with nothing ticked as that choice).
(function () {
  "use strict";
  var points = document.getElementById("arrive-points");
  var number = document.getElementById("start-number");
  if (!points || !number) return;
  points.addEventListener("input", function () {
    if (points.value.trim()) number.checked = true;
  });
})();
