// The new-game page: Enter going from name to name, the chosen preset's description, and a live
// example of what the scoring (a system, or the house formulas) gives, computed by the server.
// The form works without it.
(function () {
  "use strict";
  var form = document.getElementById("new-game");
  if (!form) return;
  var preset = document.getElementById("preset");
  var description = document.getElementById("preset-description");
  var example = document.getElementById("example");
  var timer = null;
  // A page the server refused already says what is wrong (its alert, #error, or beside the field):
  // the example keeps quiet about it until the scorer changes something, so no message is shown twice.
  var quiet = !!document.querySelector("#error, .field-error");

  // Enter in a player's name goes on to the next name, as the phone's "next" key says, and from
  // the last one to the rules; it doesn't send the form half filled in. (Without JavaScript,
  // Enter previews: the form's first button.)
  form.addEventListener("keydown", function (event) {
    var field = event.target;
    if (event.key !== "Enter" || event.isComposing || !/^players-\d+$/.test(field.name || "")) return;
    event.preventDefault();
    var names = Array.prototype.slice.call(form.querySelectorAll("input[name^='players-']"));
    (names[names.indexOf(field) + 1] || preset).focus();
  });

  // "+ Add a player" adds the row in place, from the page's template of one, and gives it the focus,
  // so the name typed next goes into it. (Without JavaScript the page comes back with the focus there.)
  var rows = form.querySelector(".players"), blank = document.getElementById("player-row");
  form.addEventListener("click", function (event) {
    var add = event.target.closest && event.target.closest("button[value=add]");
    if (!add || !blank) return;
    event.preventDefault();
    var names = rows.querySelectorAll(".player-row"), count = names.length;
    var html = blank.innerHTML.replace(/__I__/g, String(count)).replace(/__NUM__/g, String(count + 1));
    names[count - 1].insertAdjacentHTML("afterend", html);
    names[count - 1].querySelector("button[value^=down]").disabled = false;
    rows.querySelectorAll("button[value^=remove]").forEach(function (button) { button.disabled = false; });
    add.disabled = count + 1 >= +add.dataset.max;
    rows.querySelectorAll(".player-row")[count].querySelector("input[type=text]").focus();
  });

  preset.addEventListener("change", function () {
    description.textContent = preset.options[preset.selectedIndex].dataset.description || "";
  });

  function cell(tag, text) {
    var node = document.createElement(tag);
    node.textContent = text;
    return node;
  }
  function render(data) {
    if (data.error && quiet) return;
    example.textContent = "";
    if (data.error) {
      var problem = cell("p", data.error);
      problem.className = "error-text";
      example.appendChild(problem);
      return;
    }
    example.appendChild(cell("p", data.doubled ? words("doubled", { scoring: data.words }) : data.words));
    if (!data.rows.length) return;
    var table = document.createElement("table");
    table.className = "example-table";
    table.appendChild(cell("caption", words("example")));
    var head = document.createElement("tr");
    ["exbid", "extook", "expoints"].forEach(function (name) { head.appendChild(cell("th", words(name))); });
    table.appendChild(head);
    data.rows.forEach(function (row) {
      var line = document.createElement("tr");
      [row.bid, row.took, row.points].forEach(function (value) { line.appendChild(cell("td", String(value))); });
      table.appendChild(line);
    });
    example.appendChild(table);
  }
  function refresh() {
    var params = new URLSearchParams();
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrf_token" && typeof value === "string") params.append(name, value);
    });
    fetch(form.dataset.example + "?" + params.toString(), { credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(render)
      .catch(function () { /* the preview page shows the example too */ });
  }
  form.addEventListener("input", function (event) {
    if (!event.target.name || event.target.name.indexOf("players-") === 0) return;
    quiet = false;
    clearTimeout(timer);
    timer = setTimeout(refresh, 300);
  });
  refresh();
})();
