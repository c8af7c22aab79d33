// The new-night form: the length of a round follows the rules and the table size as they are
// chosen (the server works it out: /events/new/rounds), and a length tapped sets the house rules'
// top hand in place. Without it, a length tapped comes back from the server with the top hand set.
(function () {
  "use strict";
  var form = document.getElementById("new-night");
  var box = document.getElementById("round-lengths");
  var top = document.getElementById("rules-max_cards");
  if (!form || !box || !top) return;
  var line = document.getElementById("round-now"), choices = document.getElementById("round-choices");
  var timer = null, asked = 0;

  function shapes(name) { return name === "preset" || name === "size" || name.indexOf("rules-") === 0; }

  function refresh() {
    var params = new URLSearchParams(), mine = ++asked;
    new FormData(form).forEach(function (value, name) {
      if (shapes(name) && typeof value === "string") params.append(name, value);
    });
    fetch(box.dataset.source + "?" + params.toString(), { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : Promise.reject(response.status); })
      .then(function (data) {
        if (mine !== asked) return;  // a later change asked again
        var focused = choices.contains(document.activeElement) ? document.activeElement.value : null;
        if (line.textContent !== data.line) line.textContent = data.line;
        choices.innerHTML = data.choices;
        var again = focused && choices.querySelector("button[value='" + focused + "']");
        if (again) again.focus();  // the button tapped keeps the focus, drawn again
      })
      .catch(function () { /* the form still sends the rules as they are */ });
  }

  form.addEventListener("input", function (event) {
    if (!shapes(event.target.name || "")) return;
    clearTimeout(timer);
    timer = setTimeout(refresh, 300);
  });
  choices.addEventListener("click", function (event) {
    var button = event.target.closest("button[name=action]");
    if (!button) return;
    event.preventDefault();
    top.value = button.value.replace(/^top-/, "");
    choices.querySelectorAll("button[name=action]").forEach(function (each) {
      each.setAttribute("aria-pressed", String(each === button));
    });
    clearTimeout(timer);
    refresh();
  });
})();
