// The plan page: one card fewer or more, removing a deal and adding one happen in place, the rows
// numbered again as they change; nothing is stored until "Save the plan" posts the rows. Without
// JavaScript each of these buttons posts the rows and the server sends the page back changed.
(function () {
  "use strict";
  var form = document.getElementById("plan-form");
  if (!form) return;
  var list = form.querySelector(".plan-rows");
  var template = document.getElementById("plan-row");
  var none = form.querySelector(".plan-none");
  var count = document.getElementById("plan-count");
  var first = Number(form.dataset.first), room = Number(form.dataset.room);
  var adders = form.querySelectorAll("button[value=add], button[value=one]");

  function rows() { return Array.prototype.slice.call(list.querySelectorAll(".plan-row")); }

  // Each row's field names, button values and labels follow its place in the list, as the server
  // numbers them: cards-2, remove-2, "Deal 7: …" for the third deal to come.
  function renumber() {
    rows().forEach(function (row, index) {
      var number = String(first + index);
      row.querySelector(".plan-no b").textContent = number;
      Array.prototype.forEach.call(row.querySelectorAll("input, button"), function (control) {
        if (control.name && control.name !== "action") control.name = control.name.replace(/\d+$/, index);
        if (control.name === "action") control.value = control.value.replace(/\d+$/, index);
        var label = control.getAttribute("aria-label");
        if (label) control.setAttribute("aria-label", label.replace(/\d+/, number));
      });
    });
    var n = rows().length;
    none.hidden = n > 0;
    count.textContent = words("togo", { num: n });
    Array.prototype.forEach.call(adders, function (button) { button.disabled = n >= room; });
  }

  function cards(row) { return row.querySelector("input[name^='cards-']"); }

  function add(size) {
    var row = template.content.firstElementChild.cloneNode(true);
    cards(row).value = size;
    list.appendChild(row);
    renumber();
    cards(row).focus();
  }

  form.addEventListener("click", function (event) {
    var button = event.target.closest("button[name=action]");
    if (!button) return;
    var verb = button.value.replace(/-\d+$/, ""), row = button.closest(".plan-row");
    if (verb === "add" || verb === "one") {
      var all = rows(), last = all.length ? Number(cards(all[all.length - 1]).value) : NaN;
      event.preventDefault();
      if (all.length < room) add(verb === "one" ? "1" : String(last >= 1 && last <= 52 ? last : 1));
    } else if (row && (verb === "less" || verb === "more")) {
      var field = cards(row), size = Number(field.value);
      event.preventDefault();
      if (/^\d+$/.test(field.value.trim())) field.value = Math.min(Math.max(size + (verb === "more" ? 1 : -1), 1), 52);
    } else if (row && verb === "remove") {
      var next = row.nextElementSibling;
      event.preventDefault();
      row.remove();
      renumber();
      // Focus stays in the list for someone on a keyboard: on the next row's ✕, else on "Add a deal".
      (next ? next.querySelector("button[value^=remove]") : adders[0]).focus();
    }
  });
})();
