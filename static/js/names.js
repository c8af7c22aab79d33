// A player's name longer than its field's limit (data-name-max, the server's) is said at once under the
// field, as it is typed or pasted; the field takes it whole, so nothing is cut without a word, and
// the server refuses it with the same limit.
(function () {
  "use strict";
  document.addEventListener("input", function (event) {
    var field = event.target, max = field.dataset ? +field.dataset.nameMax : 0;
    if (!max) return;
    var id = field.name + "-long", note = document.getElementById(id);
    var length = Array.from(field.value.trim().split(/\s+/).join(" ")).length;  // as the server counts
    if (length <= max) {
      if (note) note.remove();
      field.removeAttribute("aria-invalid");
      field.removeAttribute("aria-describedby");
      return;
    }
    if (!note) {
      note = document.createElement("p");
      note.id = id;
      note.className = "error-text";
      note.setAttribute("role", "status");
      field.closest(".player-row, .field").after(note);
    }
    note.textContent = words("namelong", { length: length, max: max });
    field.setAttribute("aria-invalid", "true");
    field.setAttribute("aria-describedby", id);
  });
})();
