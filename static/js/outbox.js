// The outbox of one game: the taps not yet answered, in localStorage (a synchronous write: a tap is
// kept even if the phone sleeps right after). It keeps this guarantee: no tap is lost, applied twice
// or dropped silently. Taps are sent in order, each once the one before is answered. Each carries a
// client id, so the server stores it once however often it comes (an answer lost on the way), and the
// version it was made on: the page's for the first, one more for each tap made on top of it (as the
// server adds one per change), so a tap made on a game another phone changed since is refused (409).
// A refused tap, and every tap made on top of it, waits in `unsaved` to be entered again or discarded.
(function () {
  "use strict";
  const WAIT = [1, 2, 4, 8, 15];  // seconds before sending again, after 1, 2, … failures in a row

  class Outbox {
    // `base`: the step data of the game as the server last showed it; `answered(kind, taps, text,
    // status)` hears of each answer: "stored", "refused", or "waiting" (none came).
    constructor(game, base, answered) {
      const kept = JSON.parse(localStorage.getItem(this.key = "outbox:" + game)) || {};
      this.queue = kept.queue || [];
      this.unsaved = kept.unsaved || [];
      // A page opened from a cache may be older than the game this phone last heard of.
      this.base = kept.base && kept.base.version > base.version ? kept.base : base;
      this.answered = answered;
      this.failures = 0;
      this.save();
      addEventListener("online", () => this.send());
    }

    save() {
      if (!this.queue.length && !this.unsaved.length && !this.base.order) return localStorage.removeItem(this.key);
      localStorage.setItem(this.key, JSON.stringify({ queue: this.queue, unsaved: this.unsaved, base: this.base }));
    }

    add(tap) {
      const last = this.queue[this.queue.length - 1];
      tap.id = Array.from(crypto.getRandomValues(new Uint8Array(12)), b => b.toString(16).padStart(2, "0")).join("");
      tap.version = last ? last.version + 1 : this.base.version;
      this.queue.push(tap);
      this.save();
      return tap;
    }

    // The taps still to be answered that were made on the game as the server last showed it.
    pending() {
      return this.queue.filter(tap => tap.version >= this.base.version);
    }

    // An unsaved tap, entered again (a new tap, sent last) or discarded.
    take(tap, again) {
      this.unsaved = this.unsaved.filter(other => other !== tap);
      if (again) this.add(tap); else this.save();
    }

    async send() {
      clearTimeout(this.timer);
      if (this.sending) return;
      this.sending = true;
      try {
        while (this.queue.length) {
          const tap = this.queue[0], body = new FormData();
          tap.fields.forEach(([name, value]) => body.append(name, value));
          body.set("version", tap.version);
          body.set("tap", tap.id);
          let response = null, text = "";
          try {
            response = await fetch(tap.action, { method: "POST", body, credentials: "same-origin" });
            text = await response.text();
          } catch (e) {
            response = null;  // no connection, or it broke before the whole answer came
          }
          if (!response || response.status >= 500 || (response.ok && !response.redirected)) {
            // No answer from the app (offline, a server restarting, a network's sign-in page): try again.
            this.timer = setTimeout(() => this.send(), WAIT[Math.min(++this.failures, WAIT.length) - 1] * 1000);
            return this.answered("waiting", this.queue, "");
          }
          this.failures = 0;
          if (response.ok) {  // stored, now or when first sent; the redirect brought the game's page
            this.queue.shift();
            this.answered("stored", [tap], text);
          } else {  // refused (stale, or against the rules): the taps after it were made on top of it
            this.unsaved.push(...this.queue);
            this.answered("refused", this.queue.splice(0), text, response.status);
          }
          this.save();
        }
      } finally {
        this.sending = false;
      }
    }
  }

  window.Outbox = Outbox;
})();
