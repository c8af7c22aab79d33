// The house-rules fields (a new game, a new club night, "Change the rules"): typing a custom
// sequence chooses the custom deal pattern, as the server reads a sequence typed with the
// pattern left as the preset's; emptying it again gives back the pattern it replaced. The form
// works without it.
(function () {
  "use strict";
  var sequence = document.getElementById("rules-sequence");
  var deal = document.getElementById("rules-deal");
  if (!sequence || !deal) return;
  var before = null;  // the pattern the typing replaced, while the custom one it chose stays
  deal.addEventListener("change", function () { before = null; });
  sequence.addEventListener("input", function () {
    if (sequence.value.trim() && deal.value !== "custom") {
      before = deal.value;
      deal.value = "custom";
    } else if (!sequence.value.trim() && before !== null) {
      deal.value = before;
      before = null;
    }
  });
})();
