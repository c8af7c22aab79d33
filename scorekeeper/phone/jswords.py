"""The sentences of the phone's scripts (static/js), in the language of the page that loads them.

The scripts carry no sentence of their own: every page writes these into a JSON data block
(``<script type="application/json" id="words">``, not executed, so the strict CSP holds), and the
scripts read it (``words`` in sw-register.js) and fill in the ``%(name)s`` placeholders
themselves. A sentence whose form follows a count is a pair: its forms for 1 and for 2, the script
choosing between them with the language's plural rules (``Intl.PluralRules``) for ``%(num)s``.

Keys are short, and a page carries only the sentences of its own scripts (a template sets
``words_for``, e.g. ``("step", "play", "wake")``; without it, all): the page of a deal carries them
with every load, and must stay light.
"""

from __future__ import annotations

import json

from flask import Flask
from markupsafe import Markup

from ..rules.words import _, ngettext


def keep(*names: str) -> dict[str, str]:
    """The placeholders ``names`` left as they are, for the script to fill in.

    >>> _("%(player)s bid %(bid)s", **keep("player", "bid"))
    '%(player)s bid %(bid)s'
    """
    return {name: f"%({name})s" for name in names}


def words(*scripts: str) -> dict[str, str | list[str]]:
    """The sentences of these scripts (all of them without any), in this request's language, by
    the scripts' own keys.

    >>> words("step")["bid"], words()["togo"], list(words("wake"))
    ('%(player)s bid %(bid)s', ['%(num)s deal to come', '%(num)s deals to come'], ['nowake'])
    """
    num = keep("num")
    every: dict[str, dict[str, str | list[str]]] = {}
    every["step"] = {
        # step.js: the deal's step drawn at once, and a tap in words for the status line.
        "bidsfor": [ngettext("Bids %(total)s for %(num)s trick: <b>%(announce)s</b>",
                             "Bids %(total)s for %(num)s tricks: <b>%(announce)s</b>", n, **num,
                             **keep("total", "announce")) for n in (1, 2)],
        "entered": _("Deal %(deal)s entered · points pending", **keep("deal")),
        "pending": _("Bid / took. The points and the next deal come from the server once it has "
                     "this deal."),
        "pendingnext": _("Bid / took. The points come from the server once it has this deal."),
        "rest": _("Tricks taken. Each row starts at the bid — %(dealer)s, the dealer, "
                  "gets the rest: tap only what differs.", **keep("dealer")),
        "save": _("Save deal %(deal)s", **keep("deal")),
        "atonce": _("Everyone shows their bid at once: tap each player's bid."),
        "savebids": _("Save the bids"),
        "deals": _("deals"),
        "bids": _("<b>%(player)s</b> bids", **keep("player")),
        "bidslast": _("<b>%(player)s</b> bids (the dealer, last)", **keep("player")),
        "undoall": _("↶ Undo the bids"),
        "undo": _("↶ Undo %(player)s's bid", **keep("player")),
        "bidof": _("bid %(bid)s", **keep("bid")),
        "sumok": [ngettext("Together %(total)s of %(num)s trick ✓",
                           "Together %(total)s of %(num)s tricks ✓", n, **num,
                           **keep("total")) for n in (1, 2)],
        "sumover": [ngettext("Together %(total)s of %(num)s trick: %(diff)s too many",
                             "Together %(total)s of %(num)s tricks: %(diff)s too many", n, **num,
                             **keep("total", "diff")) for n in (1, 2)],
        "sumunder": [ngettext("Together %(total)s of %(num)s trick: %(diff)s missing",
                              "Together %(total)s of %(num)s tricks: %(diff)s missing", n, **num,
                              **keep("total", "diff")) for n in (1, 2)],
        # The Save button while the tricks don't add up (a correction's too).
        "nosaveover": [ngettext("Can't save: %(num)s trick too many",
                                "Can't save: %(num)s tricks too many", n, **num)
                       for n in (1, 2)],
        "nosaveunder": [ngettext("Can't save: %(num)s trick missing",
                                 "Can't save: %(num)s tricks missing", n, **num)
                        for n in (1, 2)],
        "sumbids": [ngettext("%(given)s of %(players)s bids · together %(total)s for %(num)s trick",
                             "%(given)s of %(players)s bids · together %(total)s for %(num)s "
                             "tricks", n, **num,
                             **keep("given", "players", "total")) for n in (1, 2)],
        "tapbids": _("Tap each player's bid, then save."),
        "made": _("✓ made"),
        "over": _("✗ over by %(diff)s", **keep("diff")),
        "under": _("✗ under by %(diff)s", **keep("diff")),
        "bid": _("%(player)s bid %(bid)s", **keep("player", "bid")),
        "backall": _("Took back the bids of deal %(deal)s", **keep("deal")),
        "back": _("Took back %(player)s's bid", **keep("player")),
        "trump": _("Trump %(suit)s at deal %(deal)s", **keep("suit", "deal")),
        "nt": _("no trump"),
        "thebids": _("The bids of deal %(deal)s", **keep("deal")),
        "thetricks": _("The tricks of deal %(deal)s", **keep("deal")),
        "next": _("%(tap)s · %(player)s bids next", **keep("tap", "player")),
        "everyone": _("%(tap)s · everyone bids", **keep("tap")),
        "tricks": _("%(tap)s · %(announce)s · the tricks next", **keep("tap", "announce")),
    }
    every["sealed"] = {
        # sealed.js and step.js, where a game's bids are sealed (SEATS.md): who has bid, never
        # another phone's bid.
        "atoncesealed": _("The bids are sealed until everyone has bid: tap the bids of the players "
                          "without a phone of their own, or everyone's."),
        "hasbid": _("✓ has bid, on another phone"),
        "sealedsum": [ngettext("%(num)s of %(players)s has bid · the bids show once everyone has",
                               "%(num)s of %(players)s have bid · the bids show once everyone has",
                               n, **num, **keep("players")) for n in (1, 2)],
        "sealedsaid": [ngettext("%(tap)s · %(num)s of %(players)s has bid, sealed",
                                "%(tap)s · %(num)s of %(players)s have bid, sealed", n, **num,
                                **keep("tap", "players")) for n in (1, 2)],
        "sealedin": _("Everyone has bid: the bids show once the server has them."),
    }
    every["play"] = {
        # play.js: the status line, the taps kept on this phone and those the server did not take.
        "waiting": _("%(said)s · saved, waiting for the network", **keep("said")),
        "queue": _("On this phone, not sent yet: %(taps)s", **keep("taps")),
        "saved": _("Deal %(deal)s saved", **keep("deal")),
        "online": _("Back online: everything is saved"),
        "changed": _("the game changed on another phone"),
        "after": _("it came after one that was not saved"),
        "refused": _("the server refused it"),
        "notsaved": [ngettext("%(num)s not saved: %(why)s", "%(num)s not saved: %(why)s", n, **num,
                              **keep("why"))
                     for n in (1, 2)],
        "unsaved": _("Not saved"),
        "again": _("The game is shown as it is now. Enter again what still applies, "
                   "or discard it."),
        "tapnot": _("%(tap)s — not saved: %(why)s", **keep("tap", "why")),
        "ofdeal": _("Deal %(deal)s · %(tap)s", **keep("deal", "tap")),
        "enter": _("Enter again"),
        "discard": _("Discard"),
        "discarded": _("Discarded: %(tap)s", **keep("tap")),
        "offline": _("No connection: nothing was saved. Try again."),
        "tableoffline": _("No connection: the deals go on, but someone arriving or leaving, "
                          "the plan and the rules can be changed only once the network is back."),
    }
    # correct.js: a correction's Save button while a bid it gives is refused.
    every["correct"] = {"nosavebid": _("Can't save: %(player)s can't bid %(bid)s",
                                       **keep("player", "bid"))}
    every["seat"] = {
        # seat.js: a seat's own tap, shown at once, and where it is.
        "yourbid": _("Your bid: %(value)s", **keep("value")),
        "yourtricks": _("Your tricks: %(value)s", **keep("value")),
        "sending": _("Sending…"),
        "sent": _("Saved ✓"),
        "nonet": _("No network: it is kept on this phone and sent when the network is back."),
    }
    every["wake"] = {"nowake": _("The phone doesn't allow it just now.")}
    every["share"] = {
        "copied": _("Copied."),
        "selected": _("Selected: copy it with your phone's menu."),
    }
    every["new"] = {
        # new.js: the example of the scoring.
        "doubled": _("%(scoring)s; doubled when spades are trump", **keep("scoring")),
        "example": _("On a 3-card deal"),
        "exbid": _("bid"),
        "extook": _("took"),
        "expoints": _("points"),
    }
    # names.js: a name typed longer than the limit, said at once.
    every["names"] = {"namelong": _("%(length)s characters: a name has at most %(max)s. "
                                    "Shorten it.", **keep("length", "max"))}
    every["plan"] = {"togo": [ngettext("%(num)s deal to come", "%(num)s deals to come", n, **num)
                              for n in (1, 2)]}
    return {key: text for script in scripts or every for key, text in every[script].items()}


def block(scripts: tuple[str, ...] | None = None) -> Markup:
    r"""The ``#words`` data block of a page: the sentences of ``scripts`` (all of them for None),
    nothing for none. Compact JSON: only ``<`` is escaped, which is all a data block needs.

    >>> str(block(("wake",)))  # doctest: +NORMALIZE_WHITESPACE
    '<script type="application/json"
    id="words">{"nowake":"The phone doesn\'t allow it just now."}</script>'
    >>> block(())
    Markup('')
    """
    if scripts is not None and not scripts:
        return Markup("")
    found = words(*scripts) if scripts is not None else words()
    data = json.dumps(found, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return Markup('<script type="application/json" id="words">%s</script>') % Markup(data)


def init_app(app: Flask) -> None:
    """Pages write their ``#words`` data block with ``js_words(words_for)`` (base.html)."""
    app.jinja_env.globals["js_words"] = block
