"""End of the game, winners, ties, cooperative play and adjustments (RULES.md §5)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scorekeeper.rules.game import replay
from scorekeeper.rules.presets import make_rules
from scorekeeper.rules.state import Adjustment, DealInput, DealRefused, standings

ANN, BOB, CY = 0, 1, 2
THREE = ["Ann", "Bob", "Cy"]
TWO = ["Ann", "Bob"]

# A 3-player, 3-card down-up game (3, 2, 1, 2, 3), common scoring, hook. Dealers Ann, Bob, Cy, …
# Deal 1 (3 cards, Ann deals; Bob, Cy, Ann bid): Ann 1/0 → 0, Bob 3/3 → 13, Cy 0/0 → 10
D1 = DealInput((1, 3, 0), (0, 3, 0))
# Deal 2 (2 cards, Bob deals; Cy, Ann, Bob bid): Ann 0/0 → 10, Bob 1/2 → 2, Cy 0/0 → 10
D2 = DealInput((0, 1, 0), (0, 2, 0))
# Deal 3 (1 card, Cy deals): Ann 0/0 → 10, Bob 0/0 → 10, Cy 0/1 → 1 (total 0 ≠ 1)
D3 = DealInput((0, 0, 0), (0, 0, 1))
# Deal 4 (2 cards, Ann deals): Ann 2/2 → 12, Bob 1/0 → 0, Cy 0/0 → 10 (total 3 ≠ 2)
D4 = DealInput((2, 1, 0), (2, 0, 0))
# Deal 5 (3 cards, Bob deals): Ann 0/0 → 10, Bob 0/0 → 10, Cy 1/3 → 3 (total 1 ≠ 3)
D5 = DealInput((0, 0, 1), (0, 0, 3))
TOTALS = [(0, 13, 10), (10, 15, 20), (20, 25, 21), (32, 25, 31), (42, 35, 34)]


def three_card_game(**fields: object):  # type: ignore[no-untyped-def]
    return make_rules({"max_cards": 3, **fields}, 3)


def test_totals_are_the_running_sum_of_points() -> None:
    """RULES.md §5 / GAME-FILE.md: each deal's totals are the sums of the points so far."""
    state = replay(three_card_game(), THREE, [D1, D2, D3, D4, D5])
    assert [r.totals for r in state.deals] == TOTALS
    assert [tuple(r.points or ()) for r in state.deals] == [
        (0, 13, 10), (10, 2, 10), (10, 10, 1), (12, 0, 10), (10, 10, 3)]


def test_the_game_ends_after_the_last_deal_of_its_schedule() -> None:
    """RULES.md §5: the game ends after the last deal of its schedule."""
    rules = three_card_game()
    assert not replay(rules, THREE, [D1, D2, D3, D4]).finished
    state = replay(rules, THREE, [D1, D2, D3, D4, D5])
    assert state.finished
    assert state.winners == [ANN]
    assert state.next_deal is None


def test_a_deal_after_the_end_of_the_game_is_refused() -> None:
    """RULES.md §5: a deal after the end of the game is refused (also one only bid)."""
    rules = three_card_game()
    with pytest.raises(DealRefused, match="^deal 6: .*over"):
        replay(rules, THREE, [D1, D2, D3, D4, D5, DealInput((0, 0, 1))])


def test_a_target_ends_the_game_after_the_first_deal_a_total_reaches_it() -> None:
    """RULES.md §5: with a target, on any pattern, after the first deal at whose end a total reaches
    it, whichever comes first."""
    rules = three_card_game(target=20)
    assert not replay(rules, THREE, [D1]).finished
    state = replay(rules, THREE, [D1, D2])  # Cy reaches exactly 20
    assert state.finished and state.winners == [CY]
    with pytest.raises(DealRefused, match="^deal 3: "):
        replay(rules, THREE, [D1, D2, D3])
    # a target never reached: the schedule ends the game
    assert replay(three_card_game(target=1000), THREE, [D1, D2, D3, D4, D5]).finished


@pytest.mark.parametrize("pattern", ["up", "down", "up-down", "down-up-twice-one", "fixed"])
def test_a_target_works_on_any_pattern(pattern: str) -> None:
    """RULES.md §5: a target on any pattern (Ann makes a 1 bid every deal: 11 points a deal)."""
    rules = make_rules({"deal": pattern, "max_cards": 1, "target": 22, "bidding": "free"}, 2)
    one = DealInput((1, 0), (1, 0))  # Ann 1/1 → 11, Bob 0/0 → 10
    if rules.sizes is not None and len(rules.sizes) < 2:  # one deal: the schedule ends it first
        assert replay(rules, TWO, [one]).finished
        return
    state = replay(rules, TWO, [one, one])
    assert state.finished and state.winners == [ANN]


def test_fixed_and_manual_end_after_deals_or_target_whichever_first() -> None:
    """RULES.md §5: fixed and manual games end after `deals` deals or at the target."""
    one = DealInput((1, 0), (1, 0))
    fixed = make_rules({"deal": "fixed", "max_cards": 1, "deals": 3, "target": 1000,
                        "bidding": "free"}, 2)
    assert not replay(fixed, TWO, [one, one]).finished
    assert replay(fixed, TWO, [one, one, one]).finished
    fixed_target = make_rules({"deal": "fixed", "max_cards": 1, "deals": 9, "target": 30,
                               "bidding": "free"}, 2)
    assert replay(fixed_target, TWO, [one, one, one]).finished  # 33 ≥ 30
    manual = make_rules({"deal": "manual", "deals": 2, "bidding": "free"}, 2)
    two = DealInput((1, 1), (1, 1), None, 2)
    state = replay(manual, TWO, [DealInput((1, 0), (1, 0), None, 1), two])
    assert state.finished
    with pytest.raises(DealRefused, match="^deal 3: "):
        replay(manual, TWO, [two, two, two])


def test_the_table_can_end_the_game_early_after_a_finished_deal() -> None:
    """RULES.md §5: "ended": true after any finished deal: the totals so far decide."""
    state = replay(three_card_game(), THREE, [D1, D2], ended=True)
    assert state.finished and state.ended_by_table
    assert state.winners == [CY]
    with pytest.raises(DealRefused, match="^deal 2: "):
        replay(three_card_game(), THREE, [D1, DealInput((0, 1, None))], ended=True)


def test_ending_early_shares_a_tie_even_with_one_card_hand_ties() -> None:
    """RULES.md §5: ended by the table, ties are shared (no tie-break deals)."""
    rules = three_card_game(tie="one-card-hand")
    tie = DealInput((0, 0, 1), (0, 0, 3))  # 3 cards, Ann deals: Ann 10, Bob 10, Cy 3
    state = replay(rules, THREE, [tie], ended=True)
    assert state.finished
    assert state.winners == [ANN, BOB]
    assert [s.rank for s in state.standings] == [1, 1, 3]


def test_only_the_last_deal_may_be_unfinished() -> None:
    """RULES.md §5: only the last deal may be unfinished."""
    with pytest.raises(DealRefused, match="^deal 1: .*unfinished"):
        replay(three_card_game(), THREE, [DealInput((1, 3, 0)), D2])
    state = replay(three_card_game(), THREE, [D1, DealInput((0, None, 0))])
    assert state.current is not None


def test_bids_must_come_in_bidding_order() -> None:
    """GAME-FILE.md deals: a prefix of bids in bidding order; the others null."""
    # deal 1: Ann deals, Bob bids first: Cy can't have bid while Bob hasn't
    with pytest.raises(DealRefused, match="^deal 1: Cy can't bid before Bob"):
        replay(three_card_game(), THREE, [DealInput((None, None, 1))])
    replay(three_card_game(), THREE, [DealInput((None, 1, None))])


# ---- standings and winners ----------------------------------------------------------------

def test_standings_are_best_first_and_tied_players_share_a_rank() -> None:
    """GAME-FILE.md standings: best first; tied players share a rank (1, 1, 3)."""
    rules = make_rules({}, 4)
    ranks = standings(rules, [Fraction(20), Fraction(35), Fraction(35), Fraction(-5)], [0] * 4)
    assert [(s.player, s.rank) for s in ranks][:2] in ([(1, 1), (2, 1)], [(2, 1), (1, 1)])
    assert [s.rank for s in ranks] == [1, 1, 3, 4]
    assert [s.player for s in ranks][2:] == [0, 3]


@pytest.mark.parametrize(("scoring", "totals", "winners"), [
    ("common", [31, 5, 0], [ANN]),  # highest wins (lowest would be Cy)
    ("negative", [0, 3 + 3 + 1, 1 + 1 + 1], [ANN]),  # lowest wins (highest would be Bob)
    ("negative-squared", [0, 4 + 4 + 1, 1 + 1 + 1], [ANN]),
])
def test_the_winner_has_the_highest_total_or_lowest_for_negative(scoring: str, totals: list[int],
                                                                 winners: list[int]) -> None:
    """RULES.md §5: highest total wins; lowest for negative and negative-squared."""
    rules = make_rules({"scoring": scoring, "max_cards": 3, "deal": "down", "bidding": "free"}, 3)
    # 3, 2, 1 cards; Ann makes every bid; Bob is off by 2, 2, 1; Cy by 1 each deal
    deals = [DealInput((1, 0, 1), (1, 2, 0)), DealInput((0, 0, 1), (0, 2, 0)),
             DealInput((0, 0, 1), (0, 1, 0))]
    state = replay(rules, THREE, deals)
    assert list(state.totals) == totals
    assert state.finished and state.winners == winners


def test_scratch_fewest_scratches_win_and_a_tie_goes_to_the_higher_made_bids() -> None:
    """RULES.md §3/§5 scratch: fewest scratches; a tie goes to the higher sum of made bids."""
    rules = make_rules({"scoring": "scratch", "deal": "custom", "sequence": "2-2",
                        "bidding": "free"}, 3)
    deal1 = DealInput((2, 0, 0), (2, 0, 0))  # all made; made bids Ann 2
    deal2 = DealInput((0, 1, 0), (0, 1, 1))  # Ann 0/0, Bob 1/1 made; Cy 0/1 scratch
    state = replay(rules, THREE, [deal1, deal2])
    assert list(state.totals) == [0, 0, 1]
    assert state.winners == [ANN]
    assert [(s.player, s.rank) for s in state.standings] == [(ANN, 1), (BOB, 2), (CY, 3)]
    level = DealInput((0, 2, 0), (0, 2, 0))  # Bob's made bids 2 too: a real tie
    state = replay(rules, THREE, [deal1, level])
    assert state.winners == [ANN, BOB]


# Two players, two 1-card deals, common scoring: each takes the other's deal: 11 – 11.
TIE = [DealInput((0, 0), (1, 0)), DealInput((0, 0), (0, 1))]


def test_tie_share_lets_all_tied_leaders_win() -> None:
    """RULES.md §5 tie share (default): all tied leaders win."""
    rules = make_rules({"deal": "custom", "sequence": "1-1"}, 2)
    state = replay(rules, TWO, TIE)
    assert list(state.totals) == [11, 11]
    assert state.finished and state.winners == [ANN, BOB]


def test_tie_one_card_hand_adds_one_card_deals_until_one_leader_remains() -> None:
    """RULES.md §5 one-card-hand (Denexa): extra one-card deals, the dealer moving on, until exactly
    one leader remains; then no further deal is accepted."""
    rules = make_rules({"deal": "custom", "sequence": "1-1", "tie": "one-card-hand"}, 2)
    state = replay(rules, TWO, TIE)
    assert not state.finished and state.winners == []
    assert state.next_deal is not None
    assert (state.next_deal.cards, state.next_deal.dealer) == (1, ANN)
    decider = DealInput((0, 0), (1, 0))  # Ann 0/1 → 1, Bob 0/0 → 10
    state = replay(rules, TWO, [*TIE, decider])
    assert state.finished and state.winners == [BOB]
    assert state.deals[-1].deal.cards == 1
    with pytest.raises(DealRefused, match="^deal 4: .*over"):
        replay(rules, TWO, [*TIE, decider, decider])


def test_tie_one_card_hand_keeps_dealing_while_the_lead_stays_tied() -> None:
    """RULES.md §5 one-card-hand: "until exactly one leader remains"."""
    rules = make_rules({"deal": "custom", "sequence": "1", "tie": "one-card-hand",
                        "bidding": "free", "scoring": "exact"}, 2)
    both_miss = DealInput((0, 1), (1, 0))
    state = replay(rules, TWO, [both_miss, both_miss, both_miss])
    assert not state.finished
    assert [r.deal.dealer for r in state.deals] == [ANN, BOB, ANN]
    assert state.next_deal is not None and state.next_deal.dealer == BOB


def test_tie_one_card_hand_accepts_no_deal_when_the_game_ended_without_a_tie() -> None:
    """RULES.md §5: none at all when the game ended without a tie."""
    rules = make_rules({"deal": "custom", "sequence": "1-1", "tie": "one-card-hand"}, 2)
    clear = [DealInput((0, 0), (1, 0)), DealInput((0, 0), (1, 0))]
    # deal 1: Ann deals: Ann 0/1 → 1, Bob 0/0 → 10; deal 2: Bob deals: Ann 0/1 → 1, Bob 0/0 → 10
    state = replay(rules, TWO, clear)
    assert list(state.totals) == [2, 20]
    assert state.finished and state.winners == [BOB]
    with pytest.raises(DealRefused, match="^deal 3: "):
        replay(rules, TWO, [*clear, DealInput((0, 0), (1, 0))])


# ---- cooperative ----------------------------------------------------------------------------

def test_cooperative_re_deals_a_missed_deal_with_the_same_n_and_the_next_dealer() -> None:
    """RULES.md §4/§5 cooperative: a missed deal is re-dealt (same n, the dealer moves on); finished
    when every scheduled deal has been made; the whole table wins; nothing is scored."""
    rules = make_rules({"preset": "cooperative", "max_cards": 2}, 3)  # 2, 1, 2
    missed = DealInput((1, 1, 0), (0, 2, 0))  # n=2, Ann deals and bids 0: 1+1+0 = 2; Ann missed
    made_2 = DealInput((1, 1, 0), (1, 1, 0))
    made_1 = DealInput((0, 0, 1), (0, 0, 1))
    state = replay(rules, THREE, [missed, made_2, made_1])
    assert [r.deal.cards for r in state.deals] == [2, 2, 1]
    assert [r.deal.dealer for r in state.deals] == [ANN, BOB, CY]
    assert [r.redeal for r in state.deals] == [True, False, False]
    assert not state.finished
    assert state.next_deal is not None and state.next_deal.cards == 2
    state = replay(rules, THREE, [missed, made_2, made_1, made_2])
    assert state.finished
    assert len(state.deals) == 4  # the result: the number of deals it took
    assert state.winners == [ANN, BOB, CY]
    assert list(state.totals) == [0, 0, 0]


def test_cooperative_bids_must_add_up_to_n() -> None:
    """RULES.md §2 must-equal in a game: the dealer must make the total exactly n."""
    rules = make_rules({"preset": "cooperative", "max_cards": 2}, 3)
    with pytest.raises(DealRefused, match="^deal 1: Ann deals and must bid 0"):
        replay(rules, THREE, [DealInput((1, 1, 1))])
    with pytest.raises(DealRefused, match="^deal 1: Cy can bid at most 0"):
        replay(rules, THREE, [DealInput((None, 2, 1))])


# ---- adjustments --------------------------------------------------------------------------

def test_adjustments_count_in_the_totals_from_that_deals_result_on() -> None:
    """RULES.md §5 adjustments: not part of the deal's points; in the totals from that deal on."""
    adj = [Adjustment(2, CY, Fraction(-10), "revoke"), Adjustment(1, ANN, Fraction(5), "late")]
    state = replay(three_card_game(), THREE, [D1, D2, D3], adjustments=adj)
    assert [tuple(r.points or ()) for r in state.deals] == [(0, 13, 10), (10, 2, 10), (10, 10, 1)]
    assert [r.totals for r in state.deals] == [(5, 13, 10), (15, 15, 10), (25, 25, 11)]


def test_an_adjustment_at_the_deal_being_played_counts_once_it_is_finished() -> None:
    """RULES.md §5: for the deal still being played, from when it is finished."""
    adj = [Adjustment(2, BOB, Fraction(7))]
    state = replay(three_card_game(), THREE, [D1, DealInput((0, 1, 0))], adjustments=adj)
    assert list(state.totals) == [0, 13, 10]
    state = replay(three_card_game(), THREE, [D1, D2], adjustments=adj)
    assert list(state.totals) == [10, 22, 20]


def test_an_adjustment_can_win_the_game_and_reach_the_target() -> None:
    """RULES.md §5: the totals, with adjustments, decide the winner and the target."""
    state = replay(three_card_game(target=20), THREE, [D1],
                   adjustments=[Adjustment(1, ANN, Fraction(25))])
    assert state.finished and state.winners == [ANN]


@pytest.mark.parametrize(("deal", "player"), [(3, ANN), (0, ANN), (1, 3), (1, -1)])
def test_an_adjustment_naming_a_deal_or_player_not_in_the_game_is_refused(deal: int,
                                                                          player: int) -> None:
    """RULES.md §5: an adjustment that names a deal not in the game is refused."""
    with pytest.raises(DealRefused, match=f"^deal {deal}: "):
        replay(three_card_game(), THREE, [D1, D2],
               adjustments=[Adjustment(deal, player, Fraction(1))])


def test_tie_break_deals_of_a_manual_game_are_one_card_deals() -> None:
    """RULES.md §5 one-card-hand: the extra deals are one-card deals, in a manual game too;
    GAME-FILE.md: `cards`, when given, must match the schedule."""
    rules = make_rules({"deal": "manual", "deals": 1, "tie": "one-card-hand", "bidding": "free",
                        "scoring": "exact"}, 2)
    tie = DealInput((0, 1), (1, 0), None, 1)  # both miss: 0 – 0
    state = replay(rules, TWO, [tie])
    assert not state.finished and state.next_deal is not None and state.next_deal.cards == 1
    with pytest.raises(DealRefused, match="^deal 2: .*1.*not 3"):
        replay(rules, TWO, [tie, DealInput((0, 0), (1, 0), None, 3)])
    for cards in (1, None):
        state = replay(rules, TWO, [tie, DealInput((0, 0), (1, 0), None, cards)])
        assert state.finished and state.winners == [BOB]


def test_replaying_from_a_checkpoint_goes_on_through_tie_break_deals_exactly_as_a_full_replay(
) -> None:
    """RULES.md §5 one-card-hand: a replay that goes on from an earlier one (``resume``) stands
    where the full replay stands after every deal, the tie-break deals and the end included."""
    rules = make_rules({"deal": "custom", "sequence": "1", "tie": "one-card-hand",
                        "bidding": "free", "scoring": "exact"}, 2)
    both_miss, decider = DealInput((0, 1), (1, 0)), DealInput((0, 0), (1, 0))
    deals = [both_miss, both_miss, both_miss, decider]
    step = replay(rules, TWO, [])
    for count in range(1, len(deals) + 1):
        full = replay(rules, TWO, deals[:count])
        for shared in range(count):
            earlier = replay(rules, TWO, deals[:shared]) if shared else step
            again = replay(rules, TWO, deals[:count], resume=(earlier, shared))
            assert again == full and again.checkpoints == full.checkpoints
        step = replay(rules, TWO, deals[:count], resume=(step, count - 1))
        assert step == full and step.checkpoints == full.checkpoints
        assert all(c.tiebreak for c in full.checkpoints)  # one deal of the sequence, and a tie
        assert [c.finished for c in full.checkpoints] == [False] * (count - 1) + [count == 4]
    assert step.finished and step.winners == [BOB]


def test_a_replay_from_a_game_where_a_deal_was_made_gives_the_re_deal_when_it_is_missed() -> None:
    """RULES.md §2 must-equal (cooperative): a missed deal is re-dealt, so the schedule still to
    come is not the one of the game where the same deal was made."""
    rules = make_rules({"preset": "cooperative", "max_cards": 3}, 2)
    made = [DealInput((2, 1), (2, 1)), DealInput((None, None))]
    missed = [DealInput((2, 1), (1, 2)), DealInput((None, None))]
    earlier = replay(rules, TWO, made)
    again = replay(rules, TWO, missed, resume=(earlier, 0))  # they share no deal
    full = replay(rules, TWO, missed)
    assert again == full and again.checkpoints == full.checkpoints
    assert [d.cards for d in full.schedule] != [d.cards for d in earlier.schedule]
