"""A game's rules, stakes and changes at the table in words: the rules summary of the game page, the
rules page and the sheets.
"""

from __future__ import annotations

from decimal import Decimal

from ..rules.errors import RulesError
from ..rules.gamefile import GameFile
from ..rules.presets import Rules, make_rules
from ..rules.stakes import Stakes
from ..rules.variants import PRESETS
from ..rules.words import N_, _, ngettext
from .board import seat_notes
from .wording import money, points, reason, suit_sign


def at_the_table(game: GameFile) -> str:
    """Who joined late and who left, in one line (RULES.md §7); "" when nobody did.

    >>> from ..rules.gamefile import parse
    >>> at_the_table(parse({"players": ["Ann", "Bob", "Cy"], "absent": [{"player": 2, "from": 4}]}))
    'Cy leaves after deal 3.'
    """
    notes = seat_notes(game)
    if not notes:
        return ""
    return _("%(changes)s.", changes=_("; ").join(
        _("%(player)s %(change)s", player=game.players[seat], change=note)
        for seat in sorted(notes) for note in notes[seat]))


def _pattern(rules: Rules) -> str:
    top = rules.max_cards
    if rules.deal == "custom":
        sequence = "-".join(f"{n}{_('NT') if nt else ''}" for n, nt in rules.sequence)
        text = _("the sequence %(sequence)s", sequence=sequence)
    else:
        text = {
            "down-up": lambda: ngettext("%(num)s card down to 1 and back up to %(num)s",
                                        "%(num)s cards down to 1 and back up to %(num)s", top),
            "up-down": lambda: _("1 card up to %(top)s and back down to 1", top=top),
            "down-up-twice-one": lambda: ngettext("%(num)s card down to 1, 1 again, "
                                                  "back up to %(num)s",
                                                  "%(num)s cards down to 1, 1 again, "
                                                  "back up to %(num)s", top),
            "up-nt-down": lambda: _("1 card up to %(top)s, two no-trump deals of %(top)s, "
                                    "back down to 1", top=top),
            "down": lambda: ngettext("%(num)s card down to 1", "%(num)s cards down to 1", top),
            "up": lambda: _("1 card up to %(top)s", top=top),
            "fixed": lambda: ngettext("%(num)s card every deal", "%(num)s cards every deal", top),
            "manual": lambda: _("the scorer enters the cards each deal (1 to %(top)s)", top=top),
        }[rules.deal]()
    if rules.only == "odd":
        text = _("%(pattern)s, odd hand sizes only", pattern=text)
    elif rules.only == "even":
        text = _("%(pattern)s, even hand sizes only", pattern=text)
    if rules.sizes is not None:
        text = ngettext("%(pattern)s: %(num)s deal", "%(pattern)s: %(num)s deals", len(rules.sizes),
                        pattern=text)
    elif rules.deals is not None:
        text = ngettext("%(pattern)s, %(num)s deal", "%(pattern)s, %(num)s deals", rules.deals,
                        pattern=text)
    if rules.deck_size == 52:
        return _("%(pattern)s (one pack)", pattern=text)
    if rules.deck_size == 104:
        return _("%(pattern)s (two packs)", pattern=text)
    return _("%(pattern)s (a %(cards)s-card deck)", pattern=text, cards=rules.deck_size)


def _trump(rules: Rules) -> str:
    if rules.trump == "rotation":
        return _("rotates %(suits)s, then again",
                 suits=" ".join(suit_sign(t) for t in rules.trump_cycle))
    if rules.trump == "dealer-last-card":
        return _("the dealer's last card is turned: its suit is trump")
    return _("a card is turned up after the deal; no trump when all cards are dealt")


def _bidding(rules: Rules) -> str:
    bidding = rules.bidding
    text = {
        "free": lambda: _("free: any bid from 0 to the cards"),
        "hook": lambda: _("hook: the dealer can't make the bids add up to the cards"),
        "dealer-must-exceed": lambda: _("the dealer must make the bids add up to more than the "
                                        "cards (the hook if everyone else bid 0)"),
        "must-equal": lambda: _("must equal: "
                                "the dealer makes the bids add up to the cards exactly"),
    }[bidding.rule]()
    if bidding.hook_from is not None:
        text = ngettext("%(bidding)s, from %(num)s card on (smaller deals bid freely)",
                        "%(bidding)s, from %(num)s cards on (smaller deals bid freely)",
                        bidding.hook_from, bidding=text)
    if rules.sealed:
        text = _("%(bidding)s; everyone bids at once, sealed: the bids show when the last is in",
                 bidding=text)
    elif bidding.simultaneous:
        text = _("%(bidding)s; everyone shows a bid at once", bidding=text)
    return text


#: Who wins, by the rules' ``wins``.
WINS = {"highest": N_("highest total wins"), "lowest": N_("lowest total wins"),
        "scratch": N_("fewest scratches win"), "together": N_("the table wins together")}


def _end(rules: Rules) -> str:
    parts = []
    if rules.target is not None:
        parts.append(_("the game ends when a total reaches %(points)s",
                       points=points(rules.target)))
    if rules.open_ended and rules.deals is None and rules.target is None:
        parts.append(_("the table decides when the game ends"))
    parts.append(_(WINS[rules.wins]))
    if not rules.cooperative:
        parts.append(_("a tie for the lead is broken by extra one-card deals (T)")
                     if rules.tie == "one-card-hand" else _("tied leaders share the win"))
    return _("; ").join(parts)


def stakes_words(stakes: Stakes) -> str:
    """What a game is played for, in words (the rules box's "Stakes" line)."""
    if stakes.ante is not None:
        return _("ante %(amount)s each; the winner takes the pool",
                 amount=money(stakes.ante, stakes.currency))
    rate = money(stakes.per_point or Decimal(0), stakes.currency)
    if stakes.settlement == "pairwise":
        text = _("%(rate)s per point; every pair settles the difference", rate=rate)
    else:
        text = _("%(rate)s per point; each player pays the winner the difference", rate=rate)
    if stakes.hard_score_bonus is not None:
        text = _("%(stakes)s; the winner gets a %(bonus)s point hard-score bonus", stakes=text,
                 bonus=stakes.hard_score_bonus)
    return text


def _preset(rules: Rules) -> str:
    try:
        house = rules != make_rules({"preset": rules.preset}, rules.players)
    except RulesError:  # the preset alone can't be dealt to this table: the table changed it
        house = True
    preset = PRESETS[rules.preset]
    if house:
        return _("house rules based on %(preset)s, as below", preset=_(preset.title))
    return _("%(preset)s — %(description)s", preset=_(preset.title),
             description=_(preset.description))


def _scoring(rules: Rules) -> str:
    """The scoring system in words; a house system's words hold the table's own formulas."""
    assert rules.scoring is not None
    return rules.scoring.described()


def rules_summary(rules: Rules, stakes: Stakes | None = None) -> tuple[tuple[str, str], ...]:
    """The rules in force in words, for the footer box: (label, text) lines.

    >>> dict(rules_summary(make_rules({}, 4)))["Scoring"]
    'made: 10 + tricks; missed: 1 per trick'
    """
    lines = [(_("Rules"), _preset(rules)),
             (_("Deals"), _pattern(rules)), (_("Trump"), _trump(rules)),
             (_("Bidding"), _bidding(rules))]
    if rules.scoring is None:
        lines.append((_("Scoring"), _("none: every deal that anyone misses is dealt again (↻)")))
    else:
        lines.append((_("Scoring"), _scoring(rules)))
    if rules.zero_bid is not None:
        value = str(rules.zero_bid).replace(" ", "").replace("+n", " + " + _("cards"))
        lines.append((_("Zero bid"), _("a made zero bid scores %(value)s", value=value)))
    if rules.spades_double:
        lines.append((_("Spades"), _("a deal with spades as trump counts double")))
    lines.append((_("End"), _end(rules)))
    if stakes is not None:
        lines.append((_("Stakes"), stakes_words(stakes)))
    if rules.note:
        lines.append((_("Note"), _(rules.note)))
    return tuple(lines)


def adjustment_words(gamefile: GameFile, index: int) -> str:
    """One of a game's adjustments in words: "Bob −10 (revoke)"."""
    adj = gamefile.adjustments[index]
    sign = "+" if adj.points >= 0 else ""
    player, amount = gamefile.players[adj.player], f"{sign}{points(adj.points)}"
    if adj.reason:
        return _("%(player)s %(points)s (%(reason)s)", player=player, points=amount,
                 reason=reason(adj.reason))
    return _("%(player)s %(points)s", player=player, points=amount)
