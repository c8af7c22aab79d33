"""Replay a game's deals (RULES.md §1, §2, §5): checks, points, totals, end, ties, standings."""

from __future__ import annotations

from collections.abc import Sequence
from operator import add, eq

from .bidding import WHOLE, dealer_refusal, verify_bid, verify_tricks
from .errors import BidError, GameError, RulesError
from .presets import Rules
from .schedule import SUIT_NAMES, SUITS, TRUMPS, Deal, check_hand_fits, fixed_trump
from .scoring import Points, check_system, deal_points
from .state import (
    Absence,
    Adjustment,
    Checkpoint,
    DealInput,
    DealRefused,
    DealResult,
    GameState,
    check_absences,
    standings,
)
from .words import _, ngettext


def _check_trump(rules: Rules, deal: Deal, recorded: str | None) -> str | None:
    if recorded is None:
        return deal.trump
    if recorded not in TRUMPS:
        raise RulesError(_("the trump %(trump)s is not one of S, H, D, C or NT",
                           trump=repr(recorded)))
    if deal.trump is not None and recorded != deal.trump:
        if deal.trump == "NT":
            raise RulesError(_("the trump can't be %(suit)s: it is a no-trump deal",
                               suit=_(SUIT_NAMES[recorded])))
        raise RulesError(_("the trump can't be %(suit)s: the rotation makes %(trump)s trump",
                           suit=_(SUIT_NAMES[recorded]), trump=_(SUIT_NAMES[deal.trump])))
    if recorded == "NT" and deal.trump is None:
        raise RulesError(_("this deal has a trump suit, so it can't be recorded as no trump"))
    return recorded


def trump_choices(rules: Rules, deal: Deal) -> tuple[str, ...]:
    """The trumps the scorer may record for ``deal``: the fixed one, or the four suits.

    >>> from .presets import make_rules
    >>> rules = make_rules({}, 4)
    >>> trump_choices(rules, Deal(1, 3, 0, 1, None)), trump_choices(rules, Deal(2, 13, 1, 2, "NT"))
    (('S', 'H', 'D', 'C'), ('NT',))
    """
    if deal.trump is not None:
        return (deal.trump,)  # as _check_trump allows: the fixed one only
    return SUITS  # no trump can't be recorded for a deal with a trump suit


def _check_bids(rules: Rules, deal: Deal, bids: Sequence[int | None], names: Sequence[str]) -> None:
    cards, players = deal.cards or 0, len(names)
    if len(bids) != players:
        raise RulesError(ngettext("there must be %(num)s bid, one per player, not %(given)s",
                                  "there must be %(num)s bids, one per player, not %(given)s",
                                  players, given=len(bids)))
    if deal.present:
        away = [seat for seat in range(players)
                if seat not in deal.present and bids[seat] is not None]
        if away:
            raise BidError(_("%(player)s is not dealt in this deal, so has no bid",
                             player=names[away[0]]))
    if rules.bidding.simultaneous:
        given = [b for b in bids if b is not None]
        if given and len(given) != len(deal.seats(players)):
            raise RulesError(_("bids are shown at once (simultaneous): "
                               "enter every player's bid together"))
        for seat, bid in enumerate(bids):
            if bid is not None:
                verify_bid(rules.bidding, cards, [], bid, dealer=False, name=names[seat])
        return
    # Only the dealer's bid is restricted, except under must-equal: the others need a range check.
    restricted = rules.bidding.rule == "must-equal"
    if not restricted and None not in bids:  # every bid in: only the dealer's can be refused
        entered: Sequence[int] = bids  # type: ignore[assignment]  # no None among them
        if WHOLE.issuperset(map(type, entered)) and min(entered) >= 0 and max(entered) <= cards:
            refusal = dealer_refusal(rules.bidding, cards, sum(entered), entered[deal.dealer],
                                     names[deal.dealer])  # the dealer bids last, after the others
            if refusal is not None:
                raise BidError(refusal)
            return
    earlier: list[int] = []
    waiting: str | None = None
    for seat in deal.bidding_order(players):
        bid = bids[seat]
        if bid is None:
            waiting = waiting or names[seat]
            continue
        if waiting is not None:
            raise RulesError(_("%(player)s can't bid before %(waiting)s: bids go clockwise from "
                               "eldest hand", player=names[seat], waiting=waiting))
        if restricted or seat == deal.dealer or not 0 <= bid <= cards:
            verify_bid(rules.bidding, cards, earlier, bid, dealer=seat == deal.dealer,
                       name=names[seat])
        earlier.append(bid)


class _Replay:
    """Walks the deals in order, tracking the schedule position, totals and the end of the game."""

    def __init__(self, rules: Rules, players: Sequence[str], first_dealer: int,
                 absences: Sequence[Absence] = ()) -> None:
        self.rules = rules
        self.names = tuple(players)
        self.first_dealer = first_dealer
        self.absences = tuple(absences)
        self._dealers: list[int] = []  # with absences: the dealer of each deal so far
        self.position = 0  # index into rules.sizes: re-deals stay, tie-break deals are extra
        self.state = GameState(rules, self.names, first_dealer,
                               totals=[0] * len(players), made_bids=[0] * len(players))

    def present_at(self, number: int) -> tuple[int, ...]:
        """The seats dealt in at deal ``number`` (1-based), ascending; () when everybody is."""
        away = {a.player for a in self.absences if a.covers(number)}
        return tuple(seat for seat in range(len(self.names)) if seat not in away) if away else ()

    def dealer_at(self, index: int) -> int:
        """Who deals the deal at 0-based ``index``: clockwise from the previous dealer (at the table
        or not), the first player dealt in (RULES.md §7); deal 1's is the first dealer."""
        players = len(self.names)
        if not self.absences:
            return (self.first_dealer + index) % players
        while len(self._dealers) <= index:
            seats = self.present_at(len(self._dealers) + 1) or range(players)
            if not self._dealers:
                dealer = self.first_dealer
            else:
                before = self._dealers[-1]
                dealer = next(seat for step in range(1, players + 1)
                              if (seat := (before + step) % players) in seats)
            self._dealers.append(dealer)
        return self._dealers[index]

    def deal_at(self, index: int, cards: int | None = None) -> Deal | None:
        """The deal played at 0-based ``index`` from the current position, or None after the end."""
        rules, players = self.rules, len(self.names)
        no_trump = False
        if self.state.tiebreak:
            cards = 1
        elif rules.sizes is not None:
            if self.position >= len(rules.sizes):
                return None
            cards, no_trump = rules.sizes[self.position]
        elif rules.deal == "fixed":
            cards = rules.max_cards
        present = self.present_at(index + 1) if self.absences else ()
        dealer = self.dealer_at(index)
        dealt = len(present) or players
        eldest = (dealer + 1) % players
        while present and eldest not in present:
            eldest = (eldest + 1) % players
        trump = fixed_trump(index, cards, no_trump, rule=rules.trump, cycle=rules.trump_cycle,
                            deck=rules.deck_size, players=dealt)
        return Deal(index + 1, cards, dealer, eldest, trump, present)

    def play(self, index: int, entry: DealInput, adjustments: Sequence[Adjustment] = ()) -> None:
        """Play the deal at 0-based ``index``; ``adjustments`` are those named at this deal."""
        rules, state = self.rules, self.state
        deal = self.deal_at(index)
        if deal is None or state.finished:
            raise RulesError(_("the game is already over: no further deal is played"))
        if rules.deal == "manual" and not state.tiebreak:  # tie-break deals are one-card deals
            if entry.cards is None:
                raise RulesError(_("the manual pattern needs the number of cards dealt (cards)"))
            self._check_manual(entry.cards, len(deal.seats(len(self.names))))
            deal = self.deal_at(index, entry.cards)
            assert deal is not None
        elif entry.cards is not None and entry.cards != deal.cards:
            raise RulesError(ngettext("the schedule deals %(num)s card here, not %(given)s",
                                      "the schedule deals %(num)s cards here, not %(given)s",
                                      deal.cards or 0, given=entry.cards))
        if self.absences:  # the pattern was sized for those at deal 1; late arrivals may not fit it
            self._check_present(deal)
        trump = deal.trump if entry.trump is None else _check_trump(rules, deal, entry.trump)
        bids, tricks, names = entry.bids, entry.tricks, self.names
        _check_bids(rules, deal, bids, names)
        if tricks is None:
            state.deals.append(DealResult(deal, trump, bids, None, None, None, tuple(state.totals),
                                          False, state.tiebreak))
            return
        if None in bids and not deal.present:
            raise RulesError(_("tricks can be entered only once every player has bid"))
        if len(tricks) != len(names):
            raise RulesError(ngettext("there must be %(num)s trick count, one per player",
                                      "there must be %(num)s trick counts, one per player",
                                      len(names)))
        cards, doubled = deal.cards or 0, rules.spades_double and trump == "S"
        made: tuple[bool | None, ...]
        points: Sequence[Points | None]
        if deal.present:
            made, points = self._scored(deal, bids, tricks, cards, doubled)
            totals = [t if p is None else t + p for t, p in zip(state.totals, points)]
        else:
            if None in tricks:
                raise RulesError(_("every player dealt in needs a trick count"))
            bid: tuple[int, ...] = bids  # type: ignore[assignment]  # no None among them
            took: tuple[int, ...] = tricks  # type: ignore[assignment]  # no None among them
            verify_tricks(took, cards, names)
            made = tuple(map(eq, bid, took))
            scored = deal_points(rules.scoring, bid, took, cards, zero_bid=rules.zero_bid,
                                 doubled=doubled)
            points, totals = scored, list(map(add, state.totals, scored))
        if rules.spades_double and trump is None:
            raise RulesError(_("spades double is played, "
                               "so the trump of a finished deal must be recorded"))
        state.totals = totals
        if True in made:
            state.made_bids = [m + b if b is not None and b == t else m
                               for m, b, t in zip(state.made_bids, bids, tricks)]
        for adj in adjustments:
            totals[adj.player] += adj.points
        redeal = rules.cooperative and False in made
        state.deals.append(DealResult(deal, trump, bids, tricks, made, tuple(points), tuple(totals),
                                      redeal, state.tiebreak))
        if not redeal and not state.tiebreak:
            self.position += 1
        self._after_deal(index + 1)

    def _check_present(self, deal: Deal) -> None:
        """A deal of a game with absences: at least two players dealt in, cards enough for them."""
        dealt, rules = len(deal.seats(len(self.names))), self.rules
        if dealt < 2:
            raise RulesError(_("at least two players must be dealt in"))
        refusal = too_many_cards(deal.cards, dealt, rules.deck_size)
        if refusal is not None:
            raise RulesError(refusal)
        if deal.cards is not None and rules.scoring is not None:
            check_system(rules.scoring, (deal.cards,), dealt)

    def _scored(self, deal: Deal, bids: Sequence[int | None], tricks: Sequence[int | None],
                cards: int, doubled: bool) -> tuple[tuple[bool | None, ...], list[Points | None]]:
        """What a deal some players sit out scores: each player dealt in as usual, counted among
        the players dealt in; the others nothing (None)."""
        names, seats = self.names, deal.present
        for seat in range(len(names)):
            if seat not in seats and tricks[seat] is not None:
                raise RulesError(_("%(player)s is not dealt in this deal, so has no tricks",
                                   player=names[seat]))
        bid, took = [bids[seat] for seat in seats], [tricks[seat] for seat in seats]
        if None in bid:
            raise RulesError(_("tricks can be entered only once every player has bid"))
        if None in took:
            raise RulesError(_("every player dealt in needs a trick count"))
        verify_tricks(took, cards, [names[seat] for seat in seats])  # type: ignore[arg-type]
        scored = deal_points(self.rules.scoring, bid, took, cards,  # type: ignore[arg-type]
                             zero_bid=self.rules.zero_bid, doubled=doubled)
        made: list[bool | None] = [None] * len(names)
        points: list[Points | None] = [None] * len(names)
        for seat, b, t, p in zip(seats, bid, took, scored):
            made[seat], points[seat] = b == t, p
        return tuple(made), points

    def checkpoint(self) -> Checkpoint:
        """Where the replay stands now, after the last deal played."""
        state = self.state  # the last deal's totals are the totals now
        return Checkpoint(self.position, state.deals[-1].totals, tuple(state.made_bids),
                          state.tiebreak, state.finished)

    def resume(self, earlier: GameState, played: int) -> None:
        """Stand where ``earlier`` stood after its first ``played`` deals (same rules, players,
        first dealer and adjustments), as if they had been replayed again."""
        mark, state = earlier.checkpoints[played - 1], self.state
        self.position = mark.position
        state.deals, state.checkpoints = earlier.deals[:played], earlier.checkpoints[:played]
        state.totals, state.made_bids = list(mark.totals), list(mark.made_bids)
        state.tiebreak, state.finished = mark.tiebreak, mark.finished

    def _check_manual(self, cards: int, dealt: int) -> None:
        rules = self.rules
        if isinstance(cards, bool) or not isinstance(cards, int):
            raise RulesError(_("cards must be a whole number, not %(cards)s", cards=repr(cards)))
        check_hand_fits(cards, rules.deck_size, dealt)
        if rules.scoring is not None:  # a house formula is checked for each hand size entered
            check_system(rules.scoring, (cards,), dealt)
        if cards > rules.max_cards:
            raise RulesError(_("a hand of %(cards)s cards is above the top hand size of %(top)s",
                               cards=cards, top=rules.max_cards))
        if rules.only and cards % 2 != {"odd": 1, "even": 0}[rules.only]:
            if rules.only == "odd":
                raise RulesError(_("only odd hand sizes are played, not %(cards)s", cards=cards))
            raise RulesError(_("only even hand sizes are played, not %(cards)s", cards=cards))

    def _after_deal(self, played: int) -> None:
        rules, state = self.rules, self.state
        if state.tiebreak:
            state.standings = standings(rules, state.totals, state.made_bids)
            state.finished = len(state.leaders()) == 1
            return
        over = rules.sizes is not None and self.position >= len(rules.sizes)
        if rules.target is not None and any(t >= rules.target for t in state.totals):
            over = True
        if rules.deals is not None and played >= rules.deals:
            over = True
        if not over:
            return
        state.standings = standings(rules, state.totals, state.made_bids)
        if rules.tie == "one-card-hand" and len(state.leaders()) > 1 and not rules.cooperative:
            state.tiebreak = True
        else:
            state.finished = True


def replay(rules: Rules, players: Sequence[str], deals: Sequence[DealInput], *,
           first_dealer: int = 0, adjustments: Sequence[Adjustment] = (), ended: bool = False,
           absences: Sequence[Absence] = (),
           resume: tuple[GameState, int] | None = None) -> GameState:
    """Play every deal in order and return the game; a refused deal raises DealRefused.

    ``absences`` say who is not dealt in which deals (RULES.md §7). ``resume=(earlier, k)`` goes on
    from where ``earlier`` stood after its first k deals instead of replaying them: the caller
    vouches that ``earlier`` was replayed with the same rules, players, first dealer, adjustments
    and absences, and from the same first k deals.

    >>> from .presets import make_rules
    >>> game = replay(make_rules({"max_cards": 2}, 3), ["Ann", "Bob", "Cy"],
    ...               [DealInput((1, 0, 0), (1, 1, 0))])
    >>> [str(t) for t in game.totals], game.next_deal.cards
    (['11', '1', '10'], 1)
    """
    check_absences(absences, players, first_dealer)
    replayer = _Replay(rules, players, first_dealer, absences)
    state = replayer.state
    for adj in adjustments:
        if not 1 <= adj.deal <= len(deals):
            raise DealRefused(adj.deal, _("an adjustment names deal %(deal)s, which is not in "
                                          "the game", deal=adj.deal))
        if not 0 <= adj.player < len(players):
            raise DealRefused(adj.deal, _("an adjustment names player %(player)s, who is not in "
                                          "the game", player=adj.player))
    named: dict[int, list[Adjustment]] = {}
    for adj in adjustments:
        named.setdefault(adj.deal - 1, []).append(adj)
    start = 0
    if resume is not None and resume[1] > 0:
        replayer.resume(*resume)
        start = resume[1]
    for index in range(start, len(deals)):
        if index and state.deals[-1].tricks is None:  # not finished
            raise DealRefused(index, _("only the last deal may be unfinished"))
        try:
            replayer.play(index, deals[index], named.get(index, ()))
        except RulesError as exc:
            raise DealRefused(index + 1, str(exc)) from None
        state.checkpoints.append(replayer.checkpoint())
    if ended and not state.finished:
        if not deals:
            raise GameError(_("a game can be ended only after a finished deal, "
                              "and none has been played"))
        if state.current is not None:
            raise DealRefused(len(deals), _("a game can be ended only after a finished deal"))
        state.finished = state.ended_by_table = True
        state.tiebreak = False
    state.standings = standings(rules, state.totals, state.made_bids)
    if state.finished:
        state.winners = state.leaders()
    else:
        state.next_deal = None if state.current else replayer.deal_at(len(deals))
    state.schedule = _schedule(replayer, len(deals), None if resume is None else resume[0])
    if absences and rules.scoring is not None:
        _check_to_come(replayer)
    return state


def _check_to_come(replayer: _Replay) -> None:
    """A house formula worked out for each deal still to come with the players dealt in at it
    (RULES.md §7, §8): a change of who plays can't leave the game stuck on a formula at a later
    deal. Tie-break deals are one-card deals to those still at the table after the schedule."""
    state, rules, players = replayer.state, replayer.rules, len(replayer.names)
    assert rules.scoring is not None
    upcoming = [(deal.number, deal.cards, len(deal.seats(players)))
                for deal in state.schedule[len(state.deals):]]
    if rules.tie == "one-card-hand" and not state.finished and not state.tiebreak:
        after = len(state.schedule) + 1
        upcoming.append((after, 1, len(replayer.present_at(after)) or players))
    for number, cards, dealt in upcoming:
        if cards is not None:
            try:
                check_system(rules.scoring, (cards,), dealt)
            except RulesError as exc:
                raise DealRefused(number, str(exc)) from None


def too_many_cards(cards: int | None, dealt: int, deck: int) -> str | None:
    """Why ``cards`` each can't be dealt to ``dealt`` players, with the way out; None when they can.

    >>> too_many_cards(10, 6, 52)
    "6 players can't get 10 cards from one pack: play the rest with at most 8 (change the plan)
    or add a pack"
    """
    if cards is None or cards * dealt <= deck:
        return None
    most = deck // dealt
    if deck == 52:
        return _("%(players)s players can't get %(cards)s cards from one pack: "
                 "play the rest with at most %(most)s (change the plan) or add a pack",
                 players=dealt, cards=cards, most=most)
    if deck < 104:
        return _("%(players)s players can't get %(cards)s cards from %(deck)s cards: "
                 "play the rest with at most %(most)s (change the plan) or add a pack",
                 players=dealt, cards=cards, deck=deck, most=most)
    return _("%(players)s players can't get %(cards)s cards from %(deck)s cards: "
             "play the rest with at most %(most)s (change the plan)",
             players=dealt, cards=cards, deck=deck, most=most)


def undealable(state: GameState) -> tuple[Deal, str] | None:
    """The first deal still to come that can't be dealt to the players it has (after an arrival),
    and why; None when every one can."""
    players, deck = len(state.players), state.rules.deck_size
    for deal in state.schedule[len(state.deals):]:
        refusal = too_many_cards(deal.cards, len(deal.seats(players)), deck)
        if refusal is not None:
            return deal, refusal
    return None


def _schedule(replayer: _Replay, played: int, earlier: GameState | None = None) -> list[Deal]:
    """The deals played, then those still to come as far as they are known in advance (as in
    ``earlier``, a replay of the same game, when it stood at the same place)."""
    state, rules = replayer.state, replayer.rules
    known = [result.deal for result in state.deals]
    if state.finished:
        return known
    busy = state.current is not None
    if (earlier is not None and earlier.checkpoints and len(earlier.deals) == played
            and not earlier.finished and (earlier.current is not None) == busy
            and earlier.tiebreak == state.tiebreak
            and earlier.checkpoints[-1].position == replayer.position):
        return known + earlier.schedule[played:]
    position = replayer.position + (1 if busy else 0)
    if state.tiebreak or (rules.sizes is None and rules.deals is None):
        upcoming = 0 if busy else 1
    else:
        upcoming = (rules.deals if rules.deals is not None else 10**6) - played
        if rules.sizes is not None:
            upcoming = min(upcoming, len(rules.sizes) - position)
    saved = replayer.position
    for step in range(max(upcoming, 0)):
        replayer.position = position + step
        deal = replayer.deal_at(played + step)
        if deal is not None:
            known.append(deal)
    replayer.position = saved
    return known
