// The outbox of one game: the taps not yet answered, in localStorage (a synchronous write: a tap is
// kept even if the phone sleeps right after). It keeps this guarantee: a tap lands on its own deal,
// once, or the phone says why not. Each tap names the deal and step it was made for (the server
// applies it there only, or refuses it naming the deal) and carries a client id (the server
// recognises an id it stored for the life of the game, so a tap sent again, or twice at once, is
// stored once and answered as stored) and the version it was made on (the page's for the first, one
// more for each tap made on top of it, so a tap made on a game another phone changed since is
// refused). Taps are sent in order, each once the one before is answered; the first refusal stops
// them: it and every tap made on top of it wait in `unsaved`, each with its deal and the server's
// reason, to be entered again on that deal as it is now (never an undo) or discarded. A tap not
// saved is forgotten once the server has its deal finished, whoever finished it.
// It also keeps the game's plan (the deals after the page's, for going on offline) and the counts
// tapped in a form not yet saved (`drafts`), so that a reload keeps them.
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
      this.plan = JSON.parse(localStorage.getItem("plan:" + game));
      this.drafts = kept.drafts || {};
      // A page opened from a cache may be older than the game this phone last heard of.
      this.base = kept.base && kept.base.version > base.version ? kept.base : base;
      this.answered = answered;
      this.failures = 0;
      this.prune();
      addEventListener("online", () => this.send());
    }

    save() {
      if (!this.queue.length && !this.unsaved.length && !this.base.order) return localStorage.removeItem(this.key);
      localStorage.setItem(this.key, JSON.stringify({ queue: this.queue, unsaved: this.unsaved, base: this.base,
                                                      drafts: this.drafts }));
    }

    // The game's plan, kept on its own: written once when it comes, not with every tap.
    keepPlan(plan) {
      this.plan = plan;
      localStorage.setItem("plan:" + this.key.slice(7), JSON.stringify(plan));
    }

    // The server's data of the game as it is now: what it has finished needs nothing from here.
    rebase(data) {
      this.base = data;
      this.prune();
    }

    // Forgets the taps not saved, and the drafts, of the deals the server has finished.
    prune() {
      const at = this.base.order ? this.base.deal : Infinity;
      this.unsaved = this.unsaved.filter(tap => tap.deal >= at);
      Object.keys(this.drafts).forEach(key => { if (parseInt(key, 10) < at) delete this.drafts[key]; });
      this.save();
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

    // Takes a tap out of those not saved.
    take(tap) {
      this.unsaved = this.unsaved.filter(other => other !== tap);
      this.save();
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
          body.set("deal", tap.deal);
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
          } else {  // refused: it stops here; the taps after it were made on top of it
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
