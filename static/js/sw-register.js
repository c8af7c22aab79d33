// Offline pages where the browser allows them (https, or this computer itself): registers the
// service worker (/sw.js) that keeps the app's files and the pages of the games this phone holds.
// On plain http of the local network there is no navigator.serviceWorker: the pages work online
// as before. It shows the banner of a saved copy, and has the worker keep a page again once a tap
// changed it on the screen. It also reads the page's sentences for every script (`words`).
(function () {
  "use strict";
  // The scripts' sentences, in the page's language (#words, written by scorekeeper/phone/jswords.py):
  // words("saved", { deal: 3 }) fills the %(name)s placeholders, a number written as the page's
  // language writes it (1.234,5 in Dutch), as the server writes its own; a sentence given as a pair
  // of forms (for 1, for 2) takes the one the language's plural rules choose for values.num.
  var table, numbers;
  window.words = function (key, values) {
    var data = document.getElementById("words"), lang = document.documentElement.lang, text;
    table = table || (data ? JSON.parse(data.textContent) : {});
    text = table[key] || key;
    if (text.pop) text = text[new Intl.PluralRules(lang).select(values.num) === "one" ? 0 : 1];
    return text.replace(/%\((\w+)\)s/g, function (all, name) {
      if (!values || !(name in values)) return all;
      if (typeof values[name] !== "number") return values[name];
      numbers = numbers || new Intl.NumberFormat(lang);  // made when first needed: it takes a while
      return numbers.format(values[name]);
    });
  };

  var banner = document.getElementById("saved-copy");
  if (banner && document.documentElement.hasAttribute("data-saved-copy")) {
    var parts = banner.querySelectorAll("[data-online], [data-offline]");
    var connection = function () {  // "Offline:", or "Back online:" and a way to the page as it is now
      Array.prototype.forEach.call(parts, function (part) {
        part.hidden = part.hasAttribute("data-online") !== navigator.onLine;
      });
    };
    banner.hidden = false;
    connection();
    window.addEventListener("online", connection);
    window.addEventListener("offline", connection);
  }

  var script = document.currentScript;
  if (!script || !script.dataset.worker || !("serviceWorker" in navigator)) return;
  var workers = navigator.serviceWorker;
  var controlled = Boolean(workers.controller);
  window.addEventListener("load", function () {
    workers.register(script.dataset.worker).catch(function () { /* refused (a private window): online only */ });
  });

  function save() {
    if (workers.controller && navigator.onLine) workers.controller.postMessage({ save: location.href });
  }
  // The page a new worker takes over was loaded before it: kept now rather than at the next visit.
  workers.addEventListener("controllerchange", function () {
    if (!controlled) save();
    controlled = true;
  });
  // A tap's answer replaces the page's main part (play.js) or the live board (view.js): the kept
  // copy follows a moment later, once a burst of taps is over, or at once when the page is hidden.
  var pending = null;
  function saveLater() {
    clearTimeout(pending);
    pending = setTimeout(function () { pending = null; save(); }, 2000);
  }
  var changes = new MutationObserver(saveLater);
  ["main", "live"].forEach(function (id) {
    var part = document.getElementById(id);
    if (part) changes.observe(part, { childList: true });
  });
  document.addEventListener("visibilitychange", function () {
    if (document.hidden && pending) { clearTimeout(pending); pending = null; save(); }
  });
})();
