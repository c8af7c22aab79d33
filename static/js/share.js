// The share page: a "Copy" button beside each link. The clipboard API needs a secure page
// (https or localhost); on a plain http address of the local network the link's text is
// selected instead and copied the old way, or left selected for the phone's own "Copy".
// Without JavaScript the buttons stay hidden and the links are text to select.
(function () {
  "use strict";
  var buttons = document.querySelectorAll("button.copy[data-copy]");

  function say(button, text) {
    var note = button.parentNode.querySelector(".copied");
    if (note) note.textContent = text;
  }
  function select(button) {
    var link = button.parentNode.previousElementSibling;
    var range = document.createRange();
    range.selectNodeContents(link);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    var copied = false;
    try { copied = document.execCommand("copy"); } catch (error) { copied = false; }
    say(button, words(copied ? "copied" : "selected"));
  }

  Array.prototype.forEach.call(buttons, function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      var url = button.dataset.copy;
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(url).then(function () { say(button, words("copied")); },
                                                function () { select(button); });
      } else {
        select(button);
      }
    });
  });
})();
