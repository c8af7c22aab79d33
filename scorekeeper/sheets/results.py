"""A played game's results as the filled sheet prints them: the standings or the verdict, what each
pays, the adjustments and the changes at the table.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..play.summary import at_the_table
from ..play.wording import money, points, reason, signed
from ..rules.gamefile import GameFile
from ..rules.words import _, ngettext


@dataclass(frozen=True)
class Place:
    """A line of the standings."""

    rank: int
    name: str
    total: str
    winner: bool
    net: str = ""


@dataclass(frozen=True)
class Results:
    """What a filled sheet says at the end: standings, winners, settlement, adjustments."""

    heading: str
    places: tuple[Place, ...]
    verdict: str
    payments: tuple[str, ...] = ()
    adjustments: tuple[str, ...] = ()
    table: str = ""  # changes at the table: "Eve joined at deal 5 with 12; Bob left after deal 9"


def results(game: GameFile) -> Results:
    """What the filled sheet says of how the game stands or ended, and who pays whom."""
    state, rules, names = game.game, game.rules, game.players
    played = len(state.deals)
    finished_deals = sum(1 for d in state.deals if d.finished)
    if rules.cooperative:
        verdict = (ngettext("The table made every deal together in %(num)s deal.",
                            "The table made every deal together in %(num)s deals.", played)
                   if state.finished
                   else ngettext("%(num)s deal dealt so far.", "%(num)s deals dealt so far.",
                                 played))
        return Results(_("Result"), (), verdict)
    settlement = game.settlement()
    currency = settlement.currency if settlement else ""
    nets = [signed(net, currency) for net in settlement.net] if settlement else [""] * len(names)
    scratches = rules.wins == "scratch"
    places = tuple(Place(s.rank, names[s.player], points(s.total), s.player in state.winners,
                         nets[s.player]) for s in state.standings)
    winners = [names[w] for w in state.winners]
    if state.finished:
        heading = _("Final standings (scratches)") if scratches else _("Final standings (points)")
        won = _(", ").join(winners)
        if state.ended_by_table:
            verdict = (_("Winner: %(winners)s — the table ended the game after deal %(deal)s",
                         winners=won, deal=played)
                       if len(winners) == 1 else
                       _("Winners (tied): %(winners)s — the table ended the game after deal "
                         "%(deal)s", winners=won, deal=played))
        else:
            verdict = (_("Winner: %(winners)s", winners=won) if len(winners) == 1
                       else _("Winners (tied): %(winners)s", winners=won))
    else:
        heading = (_("Standings after deal %(deal)s (scratches)", deal=finished_deals) if scratches
                   else _("Standings after deal %(deal)s (points)", deal=finished_deals))
        verdict = _("The game is not finished.")
    payments: tuple[str, ...] = ()
    if settlement is not None:
        payments = tuple(_("%(payer)s pays %(payee)s %(amount)s", payer=names[p.payer],
                           payee=names[p.payee], amount=money(p.amount, currency))
                         for p in settlement.payments) or (_("Nobody pays anybody."),)
    adjustments = tuple(_adjustment(a.deal, names[a.player],
                                    f"{'+' if a.points > 0 else ''}{points(a.points)}",
                                    reason(a.reason))
                        for a in game.adjustments)
    return Results(heading, places, verdict, payments, adjustments, at_the_table(game))


def _adjustment(deal: int, player: str, amount: str, reason: str) -> str:
    """One adjustment as the results list it: "deal 3: Bob −10 (revoke)"."""
    if reason:
        return _("deal %(deal)s: %(player)s %(points)s (%(reason)s)", deal=deal, player=player,
                 points=amount, reason=reason)
    return _("deal %(deal)s: %(player)s %(points)s", deal=deal, player=player, points=amount)
