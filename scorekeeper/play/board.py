"""What the game pages show, worked out from a replayed game: the screen, the deal's header, the
board.

Nothing here decides a rule: bids allowed, trumps, totals and the end all come from the rules core.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

from ..changes.edits import JOINED_LATE
from ..rules.gamefile import GameFile
from ..rules.presets import Rules
from ..rules.record import house_rules
from ..rules.schedule import Deal
from ..rules.scoring import Points
from ..rules.state import Absence, DealResult, next_bidder
from ..rules.turn import screen
from ..rules.variants import PRESETS
from ..rules.words import N_, _, ngettext
from .wording import listed, points, suit_sign

TRUMP_BY_CARD = {"turn-up": N_("turned up"), "dealer-last-card": N_("dealer's last card"),
                 "rotation": N_("by rotation")}

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
                        result.finished, result.redeal, result.tiebreak,
                        _away(result.deal, players)))
    for deal in state.schedule[len(state.deals):]:
        rows.append(Row(deal, deal.trump, None, away=_away(deal, players)))
    return rows


def away_at(gamefile: GameFile, number: int) -> dict[int, Absence]:
    """Who is not dealt in at deal ``number`` (1-based), each with the absence that keeps them
    out."""
    return {absence.player: absence for absence in gamefile.absences if absence.covers(number)}


def gone(gamefile: GameFile) -> set[int]:
    """The players who have left: away from the next deal to the end of the game (still ranked)."""
    upcoming = len(gamefile.game.deals) + 1
    return {seat for seat, absence in away_at(gamefile, upcoming).items() if absence.last is None}


def sitting_out(gamefile: GameFile, number: int) -> list[int]:
    """The players who sit deal ``number`` out and play again after it (not those who left)."""
    return [seat for seat, absence in sorted(away_at(gamefile, number).items())
            if absence.last is not None]


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
                note = _("joined at deal %(deal)s with %(points)s", deal=joins,
                         points=points(sum(start)))
            elif start:
                note = _("joins at deal %(deal)s with %(points)s", deal=joins,
                         points=points(sum(start)))
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

    >>> from ..rules.gamefile import parse
    >>> game = {"players": ["Ann", "Bob"], "rules": {"max_cards": 2},
    ...         "deals": [{"bids": [1, 0], "tricks": [2, 0]}]}
    >>> change = rules_change(parse(game),
    ...                       parse({**game, "rules": {"max_cards": 2, "scoring": "exact"}}))
    >>> change.points, change.totals, change.deals
    ([PointsChanged(deal=1, player=0, before=2, after=0)], [(2, 0), (10, 10)], 1)
    """
    changed = []
    for before, after in zip(old.game.deals, new.game.deals):
        was, now = (before.points or (None,) * len(old.players),
                    after.points or (None,) * len(new.players))
        changed += [PointsChanged(before.deal.number, seat, a, b)
                    for seat, (a, b) in enumerate(zip(was, now))
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


def joined_after(gamefile: GameFile) -> dict[int, int]:
    """The late arrivals (away from the first deal on), each with the deal they joined after: they
    have no total before it. One who never joined joins after the last deal played."""
    return {a.player: a.last if a.last is not None else len(gamefile.game.deals) + 1
            for a in gamefile.absences if a.first == 1}


def running_totals(gamefile: GameFile) -> list[list[Fraction | None]]:
    """Each player's total before the first deal (0) and after every deal scored, for the chart;
    None before a late arrival joined (``joined_after``).

    >>> from ..rules.gamefile import parse
    >>> file = parse({"players": ["Ann", "Bob"], "rules": {"max_cards": 1},
    ...               "deals": [{"bids": [0, 0], "tricks": [1, 0]}]})
    >>> [[int(total) for total in line] for line in running_totals(file)]
    [[0, 1], [0, 10]]
    """
    joined = joined_after(gamefile)
    series: list[list[Fraction | None]] = [[None if seat in joined else Fraction(0)]
                                           for seat in range(len(gamefile.players))]
    for result in gamefile.game.deals:
        if result.tricks is not None and result.points is not None:
            for seat, (line, total) in enumerate(zip(series, result.totals, strict=True)):
                line.append(None if result.deal.number < joined.get(seat, 0) else Fraction(total))
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
    bidders = [seat for seat in current.deal.bidding_order(len(names))
               if current.bids[seat] is not None]
    if not bidders:
        if current.trump == "NT":
            return _("Deal %(number)s: no trump", number=number)
        return _("Deal %(number)s: %(suit)s trump", number=number,
                 suit=suit_sign(current.trump or "NT"))
    done = (_("the bids are in") if gamefile.rules.bidding.simultaneous
            else _("%(player)s bid %(bid)s", player=names[bidders[-1]],
                   bid=current.bids[bidders[-1]]))
    following = (_("%(player)s bids next", player=names[bidder]) if bidder is not None
                 else _("the tricks next"))
    return _("Deal %(number)s: %(done)s · %(next)s", number=number, done=done, next=following)


def progress(gamefile: GameFile) -> str:
    """A game's place in one line, for the list of games: 'Deal 3 of 19', 'Finished after 19
    deals'."""
    state = gamefile.game
    if state.finished:
        played = len(state.deals)
        return ngettext("Finished after %(num)s deal", "Finished after %(num)s deals", played)
    kind = screen(gamefile)
    return deal_name(gamefile, kind.deal) if kind.deal else ""


def variant(rules: Rules) -> str:
    """The rules' name as a person reads it: the preset's, and "house rules" when the table changed
    any.

    >>> from ..rules.presets import make_rules
    >>> (variant(make_rules({"preset": "up-and-down-the-river"}, 4)),
    ...  variant(make_rules({"max_cards": 3}, 4)))
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

