"""What the game pages show, worked out from a replayed game: the screen, the deal's header, the board.

Nothing here decides a rule: bids allowed, trumps, totals and the end all come from the rules core.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple

import babel.dates
from babel import numbers

from . import language
from .edits import JOINED_LATE
from .rules.bidding import announce, announce_forms, bid_check
from .rules.errors import RulesError
from .rules.game import Absence, DealResult, bid_options, next_bidder
from .rules.gamefile import GameFile
from .rules.presets import PRESETS, Rules, rules_for
from .rules.schedule import Deal
from .rules.scoring import Points
from .rules.words import N_, _, ngettext

SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "NT": N_("NT")}
TRUMP_BY_CARD = {"turn-up": N_("turned up"), "dealer-last-card": N_("dealer's last card"),
                 "rotation": N_("by rotation")}


def suit_sign(trump: str) -> str:
    """A trump as the board writes it: a suit's sign, or "NT" (no trump) in the page's language.

    >>> suit_sign("H"), suit_sign("NT"), suit_sign("")
    ('♥', 'NT', '')
    """
    sign = SUIT_SIGNS.get(trump, "")
    return _(sign) if trump == "NT" else sign


def reason(text: str) -> str:
    """An adjustment's reason as shown: the one the app writes itself ("joined late") in the page's
    language, any other as the player typed it.

    >>> reason("joined late"), reason("revoke")
    ('joined late', 'revoke')
    """
    return _(JOINED_LATE) if text == JOINED_LATE else text


def points(value: Fraction | int) -> str:
    """A score as a person writes it in this page's language: whole numbers, halves as ½, other
    fractions with the language's decimal sign, and a real minus sign.

    >>> points(Fraction(-7)), points(Fraction(5, 2)), points(Fraction(1, 2)), points(0), points(Fraction(9, 4))
    ('−7', '2½', '½', '0', '2.25')
    """
    value = Fraction(value)
    sign = "−" if value < 0 else ""
    value = abs(value)
    whole = value.numerator // value.denominator
    rest = value - whole
    if not rest:
        return f"{sign}{whole}"
    if rest == Fraction(1, 2):
        return f"{sign}{whole or ''}½"
    return sign + numbers.format_decimal(value.numerator / value.denominator, "0.###", locale=language.current())


#: A currency's sign as players write it, and the ISO 4217 code Babel formats it by.
CURRENCY_SIGNS = {"€": "EUR", "$": "USD", "£": "GBP", "¥": "JPY", "₹": "INR", "₩": "KRW",
                  "₺": "TRY", "₽": "RUB", "R$": "BRL", "zł": "PLN", "Fr.": "CHF", "CHF": "CHF"}


def money(amount: Decimal, currency: str) -> str:
    """An amount with its currency, written as this page's language writes money: a code (EUR) or a
    sign Babel knows (€, $, £) where the language puts it, any other sign (kr, pts) after the
    amount; a real minus sign.

    >>> money(Decimal("1.20"), "€"), money(Decimal("0.90"), "EUR"), money(Decimal("-2.00"), "")
    ('€1.20', '€0.90', '−2.00')
    >>> money(Decimal("-3.5"), "kr"), money(Decimal("1234.5"), "$")
    ('−3.50 kr', '$1,234.50')
    """
    locale = language.current()
    code = CURRENCY_SIGNS.get(currency, currency if currency.isascii() and currency.isupper() else "")
    if code in _CODES:
        text = numbers.format_currency(abs(amount), code, locale=locale)
    else:
        text = numbers.format_decimal(abs(amount), "#,##0.00", locale=locale)
        text = f"{text} {currency}" if currency else text
    return ("−" if amount < 0 else "") + text


_CODES = frozenset(numbers.list_currencies())


@dataclass(frozen=True)
class Screen:
    """The step the scorer is at: ``cards`` (manual size), ``bid``, ``bids`` (all at once), ``tricks``, ``over``."""

    kind: str
    deal: Deal | None = None
    result: DealResult | None = None


def screen(gamefile: GameFile) -> Screen:
    """The screen a game is at, derived from its state alone (so a reload lands on the same one)."""
    state = gamefile.game
    current = state.current
    deal = current.deal if current else state.next_deal
    if state.finished or deal is None:
        return Screen("over")
    if deal.cards is None:
        return Screen("cards", deal, current)
    if current is not None and all(current.bids[seat] is not None for seat in deal.seats(len(current.bids))):
        return Screen("tricks", deal, current)  # every player dealt in has bid
    return Screen("bids" if gamefile.rules.bidding.simultaneous else "bid", deal, current)


def deals_planned(gamefile: GameFile) -> int | None:
    """How many deals the game has, when that is known in advance."""
    state, rules = gamefile.game, gamefile.rules
    if state.tiebreak or (rules.sizes is None and rules.deals is None):
        return None
    return len(state.schedule)


def deal_name(gamefile: GameFile, deal: Deal) -> str:
    """'Deal 7 of 19', 'Deal 7' (open-ended) or 'Tie-break deal (deal 20)'."""
    state = gamefile.game
    played = state.deals[deal.number - 1] if deal.number <= len(state.deals) else None
    if (played.tiebreak if played else state.tiebreak):
        return _("Tie-break deal (deal %(number)s)", number=deal.number)
    planned = deals_planned(gamefile)
    if planned:
        return _("Deal %(number)s of %(deals)s", number=deal.number, deals=planned)
    return _("Deal %(number)s", number=deal.number)


def is_redeal(gamefile: GameFile, deal: Deal) -> bool:
    """Whether ``deal`` plays the previous deal's hand again (cooperative: someone missed)."""
    deals = gamefile.game.deals
    return deal.number >= 2 and len(deals) >= deal.number - 1 and deals[deal.number - 2].redeal


@dataclass(frozen=True)
class BidPanel:
    """The bid buttons for the player bidding now, with the struck-out ones and why."""

    bidder: int
    order: list[int]
    bids: tuple[int | None, ...]
    buttons: list[tuple[int, bool]]
    reason: str
    bid_total: int
    announce: str


def bid_panel(gamefile: GameFile, deal: Deal, result: DealResult | None) -> BidPanel | None:
    """The bidding step of the deal being played, as the rules core sees it."""
    state = gamefile.game
    check = bid_options(state)
    bidder = next_bidder(state) if result else deal.eldest
    if check is None or bidder is None or deal.cards is None:
        return None
    bids = result.bids if result else (None,) * len(state.players)
    made = [b for b in bids if b is not None]
    return BidPanel(
        bidder, deal.bidding_order(len(state.players)), bids,
        [(b, b in check.allowed) for b in range(deal.cards + 1)],
        check.reason if len(check.allowed) <= deal.cards else "",
        sum(made), announce(made, deal.cards) if made else "",
    )


def tricks_guess(deal: Deal, bids: tuple[int | None, ...]) -> list[int]:
    """The trick counts to start from: everyone made their bid, the dealer has what is left.

    It is only a starting point for the scorer's taps; the rules core checks what is saved.

    >>> tricks_guess(Deal(1, 4, 3, 0, None), (1, 1, 1, 0))
    [1, 1, 1, 1]
    >>> tricks_guess(Deal(1, 2, 2, 0, None), (2, 2, 0))
    [2, 2, 0]
    """
    guess = [b or 0 for b in bids]
    cards = deal.cards or 0
    rest = cards - sum(g for seat, g in enumerate(guess) if seat != deal.dealer)
    if 0 <= rest <= cards:
        guess[deal.dealer] = rest
    return guess


def ranges(numbers: tuple[int, ...]) -> list[list[int]]:
    """Whole numbers in ascending order as runs of consecutive ones.

    >>> ranges((0, 1, 3)), ranges((2,)), ranges(())
    ([[0, 1], [3, 3]], [[2, 2]], [])
    """
    runs: list[list[int]] = []
    for number in numbers:
        if runs and runs[-1][1] == number - 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    return runs


def step_data(gamefile: GameFile, version: int) -> dict[str, Any] | None:
    """What a phone needs to show every step of the deal being played without asking the server
    (static/js/step.js looks everything up in it and decides nothing); None away from the bids and
    tricks (a manual deal's cards still to be said, the game over).

    ``order`` lists the players dealt in, in bidding order; ``bids`` the bids already stored, by
    seat. ``bidding`` has a list of runs per position in ``order``: ``[upto, allowed, reason]``
    holds for running totals (the sum of the bids before) up to ``upto``, the last run for every
    larger one; ``allowed`` are ranges of bids, ``reason`` an index into ``reasons`` (None when no
    bid is refused). ``announce`` is said of the bids by their total (its forms under, even and
    over, with the number of tricks left as ``%(tricks)s``); the tricks add up to
    ``tricks.total``, and the row of ``tricks.rest`` (the dealer) starts at what the others leave.
    ``plan`` names the game's plan (``plan_name``): the phone fetches the deals after this one
    (``deal_steps``) when it holds none of that name, to go on from deal to deal offline.

    >>> from .rules.gamefile import parse
    >>> data = step_data(parse({"players": ["Ann", "Bob"], "rules": {"max_cards": 1}}), 3)
    >>> data["order"], data["bidding"]
    ([1, 0], [[[0, [[0, 1]], None]], [[0, [[0, 0]], 0], [1, [[1, 1]], 1]]])
    >>> data["reasons"][1], data["announce"], data["tricks"]
    ("Ann deals and can't bid 0: the bids would add up to the 1 tricks (hook)", ('under by %(tricks)s', 'even', 'over by %(tricks)s'), {'total': 1, 'rest': 0})
    """
    step = screen(gamefile)
    deal, result = step.deal, step.result
    if step.kind not in ("bid", "bids", "tricks") or deal is None or deal.cards is None:
        return None
    names, cards = gamefile.players, deal.cards
    table, reasons = bidding_table(gamefile, deal)
    return {
        "version": version, "deal": deal.number, "cards": cards, "names": list(names),
        "dealer": deal.dealer, "order": deal.bidding_order(len(names)), "at_once": gamefile.rules.bidding.simultaneous,
        "bids": list(result.bids) if result else [None] * len(names),
        "bidding": table, "reasons": reasons,
        "announce": announce_forms(),
        "tricks": {"total": cards, "rest": deal.dealer},
        "plan": plan_name(gamefile),
    }


def bidding_table(gamefile: GameFile, deal: Deal) -> tuple[list[list[list[Any]]], list[str]]:
    """The bids the rules core allows each player of a deal, by position in the bidding order and
    running total, as runs (see ``step_data``), and the reasons of the bids it refuses."""
    names, cards, bidding = gamefile.players, deal.cards or 0, gamefile.rules.bidding
    reasons: list[str] = []
    table: list[list[list[Any]]] = []
    reachable = {0}  # the running totals the rules let the bids before reach
    for seat in deal.bidding_order(len(names)):
        runs: list[list[Any]] = []
        after: set[int] = set()
        # Bids shown at once don't follow each other: each is checked as the first.
        for total in sorted(reachable) if not bidding.simultaneous else [0]:
            check = bid_check(bidding, cards, [total], dealer=seat == deal.dealer, name=names[seat])
            after.update(total + bid for bid in check.allowed)
            reason = None
            if len(check.allowed) <= cards:  # some bid is refused: say why
                if check.reason not in reasons:
                    reasons.append(check.reason)
                reason = reasons.index(check.reason)
            run = [total, ranges(check.allowed), reason]
            if runs and runs[-1][1:] == run[1:]:
                runs[-1][0] = total
            else:
                runs.append(run)
        table.append(runs)
        reachable = after if not bidding.simultaneous else {0}
    return table, reasons


def correction_data(gamefile: GameFile, deal: Deal, bids: list[int | None]
                    ) -> tuple[dict[str, Any], list[tuple[list[int], str] | None]]:
    """What the page correcting a finished deal needs to strike out and sum up as the entry steps
    do (the rules core's answers, looked up by static/js/correct.js, which decides nothing); and
    by seat, the bids refused after the ``bids`` given before it and why, as the page is
    drawn (None where every bid is allowed), for the page without JavaScript.

    >>> from .rules.gamefile import parse
    >>> file = parse({"players": ["Ann", "Bob"], "rules": {"max_cards": 1}})
    >>> data, struck = correction_data(file, file.game.schedule[0], [None, 0])
    >>> data["order"], struck[1], struck[0]
    ([1, 0], None, ([1], "Ann deals and can't bid 1: the bids would add up to the 1 tricks (hook)"))
    """
    table, reasons = bidding_table(gamefile, deal)
    cards, order, bidding = deal.cards or 0, deal.bidding_order(len(gamefile.players)), gamefile.rules.bidding
    struck: list[tuple[list[int], str] | None] = [None] * len(gamefile.players)
    before: list[int] = []
    for seat in order:
        check = bid_check(bidding, cards, [] if bidding.simultaneous else before, dealer=seat == deal.dealer,
                          name=gamefile.players[seat])
        if len(check.allowed) <= cards:
            struck[seat] = ([bid for bid in range(cards + 1) if bid not in check.allowed], check.reason)
        before.append(bids[seat] or 0)
    return {"cards": cards, "names": list(gamefile.players), "dealer": deal.dealer, "order": order,
            "bidding": table, "reasons": reasons, "announce": announce_forms(),
            "tricks": {"total": cards, "rest": deal.dealer}}, struck


def deals_after(gamefile: GameFile) -> list[Deal]:
    """The deals after the one being played (or about to start) that are known whatever its points:
    the plan's, as far as a hand size is known and no trump must be said. None when the points
    decide what comes next (a cooperative game's re-deal, a tie-break); a game played to a target
    lists them all (the points may end it first: the server then refuses, naming the deal, what was
    entered for a deal never dealt).

    >>> from .rules.gamefile import parse
    >>> [(d.number, d.cards) for d in deals_after(parse({"players": ["Ann", "Bob"], "rules": {"max_cards": 2}}))]
    [(2, 1), (3, 2)]
    """
    state, rules = gamefile.game, gamefile.rules
    step = screen(gamefile)
    if step.deal is None or plan_name(gamefile) is None:
        return []
    known: list[Deal] = []
    for deal in state.schedule[step.deal.number:]:
        if deal.cards is None or (rules.spades_double and deal.trump is None):
            break
        known.append(deal)
    return known


def plan_name(gamefile: GameFile) -> str | None:
    """A short name of the game's plan as the rules core made it (every deal's hand, dealer and who is
    dealt in, the players, the rules): the same while it stays the same, as bids and tricks leave it;
    an arrival, a new plan or new rules change it. None when the points decide what comes next (a
    cooperative game's re-deals, a tie-break)."""
    state, rules = gamefile.game, gamefile.rules
    if rules.cooperative or state.tiebreak or state.finished:
        return None
    made = repr((state.schedule, gamefile.players, rules))
    return hashlib.blake2b(made.encode(), digest_size=9).hexdigest()


def deal_steps(gamefile: GameFile) -> list[dict[str, Any]]:
    """The data of each deal ``deals_after`` lists, as ``step_data`` gives the deal being played,
    so that a phone without a connection goes on from deal to deal (it decides nothing either)."""
    names = gamefile.players
    steps = []
    for deal in deals_after(gamefile):
        table, reasons = bidding_table(gamefile, deal)
        steps.append({"deal": deal.number, "cards": deal.cards, "dealer": deal.dealer, "eldest": deal.eldest,
                      "order": deal.bidding_order(len(names)), "bidding": table, "reasons": reasons,
                      "tricks": {"total": deal.cards, "rest": deal.dealer}})
    return steps


@dataclass
class Cell:
    """One player's entry in one row of the board."""

    bid: int | None
    took: int | None = None
    made: bool | None = None
    points: Fraction | None = None
    total: Fraction | None = None
    adjustments: list[tuple[int, Fraction, str]] = field(default_factory=list)


@dataclass
class Row:
    """A deal on the board: played, being played, or still to come."""

    deal: Deal
    trump: str | None  # S, H, D, C, NT, or None while a card decides it
    cells: list[Cell] | None
    finished: bool = False
    redeal: bool = False
    tiebreak: bool = False
    away: tuple[int, ...] = ()  # the seats not dealt in: a dash in their cells


def _away(deal: Deal, players: int) -> tuple[int, ...]:
    """The seats not dealt in ``deal``.

    >>> _away(Deal(5, 3, 2, 3, None, present=(0, 2, 3)), 4), _away(Deal(1, 3, 0, 1, None), 3)
    ((1,), ())
    """
    seats = deal.seats(players)
    return tuple(seat for seat in range(players) if seat not in seats)


def board(gamefile: GameFile) -> list[Row]:
    """The whole game as on the paper sheet: a row per deal, played ones filled in."""
    state = gamefile.game
    players = len(state.players)
    rows = []
    for index, result in enumerate(state.deals):
        cells = []
        for seat, bid in enumerate(result.bids):
            cell = Cell(bid)
            if result.finished:
                cell.took = (result.tricks or ())[seat]
                cell.made = (result.made or ())[seat]
                cell.points = (result.points or ())[seat]
                cell.total = result.totals[seat]
            cell.adjustments = [
                (i, adj.points, adj.reason) for i, adj in enumerate(gamefile.adjustments)
                if adj.deal == index + 1 and adj.player == seat
            ]
            cells.append(cell)
        rows.append(Row(result.deal, result.trump or result.deal.trump, cells,
                        result.finished, result.redeal, result.tiebreak, _away(result.deal, players)))
    for deal in state.schedule[len(state.deals):]:
        rows.append(Row(deal, deal.trump, None, away=_away(deal, players)))
    return rows


def away_at(gamefile: GameFile, number: int) -> dict[int, Absence]:
    """Who is not dealt in at deal ``number`` (1-based), each with the absence that keeps them out."""
    return {absence.player: absence for absence in gamefile.absences if absence.covers(number)}


def gone(gamefile: GameFile) -> set[int]:
    """The players who have left: away from the next deal to the end of the game (still ranked)."""
    upcoming = len(gamefile.game.deals) + 1
    return {seat for seat, absence in away_at(gamefile, upcoming).items() if absence.last is None}


def sitting_out(gamefile: GameFile, number: int) -> list[int]:
    """The players who sit deal ``number`` out and play again after it (not those who left)."""
    return [seat for seat, absence in sorted(away_at(gamefile, number).items()) if absence.last is not None]


def sits_out(gamefile: GameFile, number: int) -> str:
    """Who sits deal ``number`` out, as its header says it ("Bob sits this deal out."); empty when
    nobody does."""
    seats = sitting_out(gamefile, number)
    if not seats:
        return ""
    return ngettext("%(players)s sits this deal out.", "%(players)s sit this deal out.", len(seats),
                    players=listed([gamefile.players[seat] for seat in seats]))


def seat_notes(gamefile: GameFile) -> dict[int, list[str]]:
    """What the board says of late arrivals and of players who left, by seat: "joined at deal 5
    with 12" (the "joined late" adjustment), "left after deal 9"; sitting out shows as dashes."""
    upcoming = len(gamefile.game.deals) + 1
    notes: dict[int, list[str]] = {}
    for absence in sorted(gamefile.absences, key=lambda a: (a.player, a.first)):
        if absence.first == 1 and absence.last is not None:
            joins = absence.last + 1
            start = [adj.points for adj in gamefile.adjustments if adj.player == absence.player
                     and adj.deal == absence.last and adj.reason == JOINED_LATE]
            if start and joins <= upcoming:
                note = _("joined at deal %(deal)s with %(points)s", deal=joins, points=points(sum(start)))
            elif start:
                note = _("joins at deal %(deal)s with %(points)s", deal=joins, points=points(sum(start)))
            elif joins <= upcoming:
                note = _("joined at deal %(deal)s", deal=joins)
            else:
                note = _("joins at deal %(deal)s", deal=joins)
        elif absence.last is None:
            left = absence.first - 1
            if not left:
                note = _("left before the first deal")
            elif absence.first <= upcoming:
                note = _("left after deal %(deal)s", deal=left)
            else:
                note = _("leaves after deal %(deal)s", deal=left)
        else:
            continue
        notes.setdefault(absence.player, []).append(note)
    return notes


class PointsChanged(NamedTuple):
    """One player's points in one deal (1-based), by the game's rules and by the new ones; None
    where there are none (a player not dealt in, a deal not finished, a cooperative game)."""

    deal: int
    player: int
    before: Points | None
    after: Points | None


@dataclass(frozen=True)
class RulesChange:
    """What playing the whole game by other rules changes (RULES.md §7): every player's points that
    differ, deal by deal, and every player's total before and after."""

    points: list[PointsChanged]
    totals: list[tuple[Points | None, Points | None]]

    @property
    def deals(self) -> int:
        """How many deals score differently."""
        return len({change.deal for change in self.points})


def rules_change(old: GameFile, new: GameFile) -> RulesChange:
    """Compare a game with the same game replayed by new rules (the same deals, as entered).

    >>> from .rules.gamefile import parse
    >>> game = {"players": ["Ann", "Bob"], "rules": {"max_cards": 2}, "deals": [{"bids": [1, 0], "tricks": [2, 0]}]}
    >>> change = rules_change(parse(game), parse({**game, "rules": {"max_cards": 2, "scoring": "exact"}}))
    >>> change.points, change.totals, change.deals
    ([PointsChanged(deal=1, player=0, before=2, after=0)], [(2, 0), (10, 10)], 1)
    """
    changed = []
    for before, after in zip(old.game.deals, new.game.deals):
        was, now = before.points or (None,) * len(old.players), after.points or (None,) * len(new.players)
        changed += [PointsChanged(before.deal.number, seat, a, b) for seat, (a, b) in enumerate(zip(was, now))
                    if a != b]
    totals = [(None if old.rules.cooperative else a, None if new.rules.cooperative else b)
              for a, b in zip(old.game.totals, new.game.totals)]
    return RulesChange(changed, totals)


def leaders(gamefile: GameFile) -> list[int]:
    """The players ranked first, once a deal has been scored (before that nobody leads)."""
    state = gamefile.game
    if not any(result.finished for result in state.deals) or gamefile.rules.cooperative:
        return []
    return state.winners if state.finished else state.leaders()


def together(gamefile: GameFile) -> tuple[int, int]:
    """A cooperative game's count: the deals made, and those missed and so dealt again."""
    finished = [result for result in gamefile.game.deals if result.finished]
    again = sum(1 for result in finished if result.redeal)
    return len(finished) - again, again


def last_result(gamefile: GameFile) -> DealResult | None:
    """The most recent finished deal, shown with its points while the next one starts."""
    finished = [result for result in gamefile.game.deals if result.finished]
    return finished[-1] if finished else None


def running_totals(gamefile: GameFile) -> list[list[Fraction]]:
    """Each player's total before the first deal (0) and after every deal scored, for the chart.

    >>> from .rules.gamefile import parse
    >>> file = parse({"players": ["Ann", "Bob"], "rules": {"max_cards": 1},
    ...               "deals": [{"bids": [0, 0], "tricks": [1, 0]}]})
    >>> [[int(total) for total in line] for line in running_totals(file)]
    [[0, 1], [0, 10]]
    """
    series: list[list[Fraction]] = [[Fraction(0)] for _ in gamefile.players]
    for result in gamefile.game.deals:
        if result.tricks is not None and result.points is not None:
            for line, total in zip(series, result.totals, strict=True):
                line.append(Fraction(total))
    return series


def news(gamefile: GameFile) -> str:
    """The game's last step in words, for the read-only page's status line: 'Deal 3: Ann bid 1 · Bob
    bids next', 'Deal 3: the bids are in · the tricks next', 'Deal 2 scored', 'Game over'."""
    state, names = gamefile.game, gamefile.players
    if state.finished:
        return _("Game ended by the table") if state.ended_by_table else _("Game over")
    current, last = state.current, last_result(gamefile)
    if current is None or not (current.entered or current.trump):
        if last is None:
            return ""
        number = last.deal.number
        if not gamefile.rules.cooperative:
            return _("Deal %(number)s scored", number=number)
        if last.redeal:
            return _("Deal %(number)s missed: it is dealt again", number=number)
        return _("Deal %(number)s made", number=number)
    number, bidder = current.deal.number, next_bidder(state)
    bidders = [seat for seat in current.deal.bidding_order(len(names)) if current.bids[seat] is not None]
    if not bidders:
        if current.trump == "NT":
            return _("Deal %(number)s: no trump", number=number)
        return _("Deal %(number)s: %(suit)s trump", number=number, suit=suit_sign(current.trump or "NT"))
    done = (_("the bids are in") if gamefile.rules.bidding.simultaneous
            else _("%(player)s bid %(bid)s", player=names[bidders[-1]], bid=current.bids[bidders[-1]]))
    following = (_("%(player)s bids next", player=names[bidder]) if bidder is not None
                 else _("the tricks next"))
    return _("Deal %(number)s: %(done)s · %(next)s", number=number, done=done, next=following)


def progress(gamefile: GameFile) -> str:
    """A game's place in one line, for the list of games: 'Deal 3 of 19', 'Finished after 19 deals'."""
    state = gamefile.game
    if state.finished:
        played = len(state.deals)
        return ngettext("Finished after %(num)s deal", "Finished after %(num)s deals", played)
    kind = screen(gamefile)
    return deal_name(gamefile, kind.deal) if kind.deal else ""


def house_rules(rules: Rules) -> bool:
    """Whether the table changed any rule of its preset.

    >>> from .rules.presets import make_rules
    >>> house_rules(make_rules({"preset": "kachuful"}, 4)), house_rules(make_rules({"max_cards": 3}, 4))
    (False, True)
    """
    try:
        return rules != rules_for({"preset": rules.preset}, rules.players)
    except RulesError:  # the preset alone can't be dealt to this table: the table changed it
        return True


def variant(rules: Rules) -> str:
    """The rules' name as a person reads it: the preset's, and "house rules" when the table changed any.

    >>> from .rules.presets import make_rules
    >>> variant(make_rules({"preset": "up-and-down-the-river"}, 4)), variant(make_rules({"max_cards": 3}, 4))
    ('Up and Down the River', 'Oh Hell, house rules')
    """
    return variant_name(rules.preset, house_rules(rules))


def variant_name(preset: str, house: bool) -> str:
    """A preset's name in the page's language, with "house rules" when the table changed any.

    >>> variant_name("oh-hell", True)
    'Oh Hell, house rules'
    """
    title = _(PRESETS[preset].title)
    return _("%(rules)s, house rules", rules=title) if house else title


def day(moment: date, today: date) -> str:
    """A day as a person says it, counted from ``today``.

    >>> today = date(2026, 11, 14)
    >>> [day(d, today) for d in (today, date(2026, 11, 13), date(2026, 3, 2), date(2025, 12, 31))]
    ['today', 'yesterday', 'Mon 2 Mar', 'Wed 31 Dec 2025']
    """
    if moment == today:
        return _("today")
    if moment == today - timedelta(days=1):
        return _("yesterday")
    # Weekday, day and month; then with the year.
    return written(moment, "MMMEd" if moment.year == today.year else "yMMMEd")


#: English dates as the app has always written them; other languages by Babel's skeletons.
_ENGLISH_DATES = {"MMMEd": "EEE d MMM", "yMMMEd": "EEE d MMM y", "yMMMMd": "d MMMM y", "yMMMd": "dd MMM y"}


def written(moment: date | datetime, skeleton: str) -> str:
    """A date by a CLDR skeleton (``yMMMEd``: year, month, day, weekday), or a time of day (for a
    datetime: ``HH:mm``), as the page's language writes it; English outside a request.

    >>> written(date(2026, 3, 2), "yMMMEd"), written(datetime(2026, 3, 2, 9, 5), "HH:mm")
    ('Mon 2 Mar 2026', '09:05')
    """
    locale = language.current()
    if isinstance(moment, datetime):  # written in the server's time zone, as the game's times are
        return babel.dates.format_time(moment, skeleton, locale=locale)
    if locale == "en":
        return babel.dates.format_date(moment, _ENGLISH_DATES[skeleton], locale="en")
    return babel.dates.format_skeleton(skeleton, moment, locale=locale)


def played(started: datetime, last: datetime, now: datetime) -> str:
    """When a game was played, for the list of games (all three times in the same time zone).

    >>> now = datetime(2026, 11, 14, 23, 0)
    >>> played(datetime(2026, 11, 14, 20, 5), datetime(2026, 11, 14, 21, 40), now)
    'today 20:05–21:40'
    >>> played(datetime(2026, 11, 14, 21, 40), datetime(2026, 11, 14, 21, 40), now)
    'today 21:40'
    >>> played(datetime(2026, 11, 13, 21, 0), datetime(2026, 11, 14, 0, 30), now)
    'started yesterday, last played today 00:30'
    """
    today, end = now.date(), written(last, "HH:mm")
    if started.date() != last.date():
        return _("started %(first_day)s, last played %(last_day)s %(time)s",
                 first_day=day(started.date(), today), last_day=day(last.date(), today), time=end)
    begin = written(started, "HH:mm")
    if end == begin:
        return _("%(day)s %(time)s", day=day(last.date(), today), time=begin)
    return _("%(day)s %(start)s–%(end)s", day=day(last.date(), today), start=begin, end=end)


def listed(words: list[str]) -> str:
    """Names in a sentence.

    >>> listed(["Bob"]), listed(["Bob", "Cy"]), listed(["Ann", "Bob", "Cy"])
    ('Bob', 'Bob and Cy', 'Ann, Bob and Cy')
    """
    if len(words) < 2:
        return "".join(words)
    return _("%(names)s and %(last)s", names=_(", ").join(words[:-1]), last=words[-1])
