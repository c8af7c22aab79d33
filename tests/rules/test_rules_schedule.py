"""Deal schedules, deck sizes, the largest hand, trump and the dealer (RULES.md §1).

Hand sizes are written out from the RULES.md §1 pattern table, never asked of the code.
"""

from __future__ import annotations

import pytest
from spec import PATTERN_LENGTHS

from scorekeeper.rules.errors import RulesConfigError, RulesError, UnknownVariantError
from scorekeeper.rules.game import replay
from scorekeeper.rules.presets import Rules, make_rules
from scorekeeper.rules.schedule import Deal, hand_sizes, parse_cycle, parse_sequence
from scorekeeper.rules.state import DealInput, DealRefused, GameState

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo"]


def expected_sizes(pattern: str, m: int) -> list[tuple[int, bool]]:
    """RULES.md §1 pattern table: (hand size, no-trump) of every deal."""
    up = list(range(1, m + 1))
    down = up[::-1]
    plain = {
        "down-up": down + up[1:],
        "up-down": up + down[1:],
        "down-up-twice-one": down + up,
        "down": down,
        "up": up,
    }
    if pattern == "up-nt-down":
        return [(n, False) for n in up] + [(m, True), (m, True)] + [(n, False) for n in down]
    return [(n, False) for n in plain[pattern]]


def sizes_of(rules: Rules) -> list[tuple[int, bool]]:
    assert rules.sizes is not None
    return list(rules.sizes)


def legal_entry(rules: Rules, deal: Deal, players: int, *, trump: str | None = None,
                winner: int | None = None) -> DealInput:
    """A finished deal every bidding rule accepts: everyone bids 0 but a must-equal dealer,
    and one player (eldest hand unless told) takes every trick."""
    cards = deal.cards or 1
    bids = [0] * players
    if rules.bidding.rule == "must-equal":
        bids[deal.dealer] = cards
    tricks = [0] * players
    tricks[deal.eldest if winner is None else winner] = cards
    return DealInput(tuple(bids), tuple(tricks), trump, cards if rules.deal == "manual" else None)


def play_out(rules: Rules, players: int, *, first_dealer: int = 0, limit: int = 200) -> GameState:
    """Play a whole game with legal deals; return the finished game."""
    names = NAMES[:players]
    entries: list[DealInput] = []
    state = replay(rules, names, entries, first_dealer=first_dealer)
    while not state.finished and len(entries) < limit:
        assert state.next_deal is not None
        entries.append(legal_entry(rules, state.next_deal, players))
        state = replay(rules, names, entries, first_dealer=first_dealer)
    return state


# ---- patterns and their lengths ---------------------------------------------------------

@pytest.mark.parametrize("pattern", sorted(PATTERN_LENGTHS))
@pytest.mark.parametrize("m", [1, 2, 3, 7, 10])
def test_pattern_hand_sizes_and_length_for_m(pattern: str, m: int) -> None:
    """RULES.md §1 deal patterns: hand sizes and number of deals for top hand size M."""
    rules = make_rules({"deal": pattern, "max_cards": m}, 4)
    assert sizes_of(rules) == expected_sizes(pattern, m)
    assert len(sizes_of(rules)) == PATTERN_LENGTHS[pattern](m)


def test_down_up_for_10_is_the_19_deals_of_pagat_and_playohshit() -> None:
    """RULES.md §1 down-up; 002_… / 003_…: 19 deals from 10 cards, the 10th deal one card."""
    sizes = [n for n, _ in sizes_of(make_rules({}, 4))]
    assert sizes == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert sizes[9] == 1


def test_up_nt_down_has_two_no_trump_deals_at_the_top() -> None:
    """RULES.md §1 up-nt-down (64-card Oh Sh--): 1-…-7-7NT-7NT-7-…-1 for a game up to 7."""
    rules = make_rules({"deal": "up-nt-down", "max_cards": 7}, 4)
    text = "-".join(f"{n}NT" if nt else str(n) for n, nt in sizes_of(rules))
    assert text == "1-2-3-4-5-6-7-7NT-7NT-7-6-5-4-3-2-1"


def test_custom_sequence_is_played_as_written_with_its_no_trump_deals() -> None:
    """RULES.md §1 custom: an explicit list such as 1-2-3-7NT-3-2-1; its length."""
    rules = make_rules({"deal": "custom", "sequence": "1-2-3-7NT-3-2-1"}, 4)
    assert sizes_of(rules) == [(1, False), (2, False), (3, False), (7, True), (3, False),
                               (2, False), (1, False)]
    state = play_out(rules, 4)
    assert len(state.deals) == 7
    assert [r.deal.trump for r in state.deals][3] == "NT"
    assert [r.deal.cards for r in state.deals] == [1, 2, 3, 7, 3, 2, 1]


@pytest.mark.parametrize("sequence", ["1-2-x", "1--2", "0-1", "1-2-3NTX", "", "1-2.5", "1-²-3",
                                      "١-٢", "1e1-2", "9" * 5000, "-".join(["1"] * 101), 7,
                                      ["1", "2"]])
def test_custom_sequence_that_is_not_hand_sizes_is_refused(sequence: object) -> None:
    """RULES.md §1 custom: a list of hand sizes (NT marks no trump), §8: at most 100 deals of ASCII
    digits; anything else is refused."""
    with pytest.raises(RulesError):
        make_rules({"deal": "custom", "sequence": sequence}, 4)


def test_custom_pattern_needs_a_sequence_and_a_sequence_needs_custom() -> None:
    """GAME-FILE.md rules: sequence is for custom."""
    with pytest.raises(RulesConfigError):
        make_rules({"deal": "custom"}, 4)
    with pytest.raises(RulesConfigError):
        make_rules({"deal": "down-up", "sequence": "1-2-1"}, 4)


def test_parse_sequence_and_cycle() -> None:
    """RULES.md §1: custom sequences and trump cycles as written in the rules."""
    assert parse_sequence("1-2-3-7NT-3-2-1")[3] == (7, True)
    assert parse_cycle("S-D-C-H-NT") == ("S", "D", "C", "H", "NT")
    with pytest.raises(RulesError):
        parse_cycle("S-X")


def test_unknown_pattern_is_refused_naming_it() -> None:
    """RULES.md §1: only the listed patterns exist."""
    with pytest.raises(UnknownVariantError, match="zigzag"):
        make_rules({"deal": "zigzag"}, 4)
    with pytest.raises(UnknownVariantError, match="zigzag"):
        hand_sizes("zigzag", 5)


@pytest.mark.parametrize("pattern", ["fixed", "manual"])
def test_fixed_and_manual_patterns_are_open_without_a_deal_count(pattern: str) -> None:
    """RULES.md §1: fixed and manual are open; without `deals` or `target` the table ends them."""
    rules = make_rules({"deal": pattern, "max_cards": 5}, 4)
    assert rules.sizes is None
    entries = []
    state = replay(rules, NAMES[:4], entries)
    for _ in range(40):
        assert state.next_deal is not None
        entries.append(legal_entry(rules, state.next_deal, 4))
        state = replay(rules, NAMES[:4], entries)
    assert not state.finished
    assert len(state.schedule) == 41  # the 40 played, then the next


def test_fixed_pattern_deals_m_every_deal() -> None:
    """RULES.md §1 fixed: M every deal, until the game ends (§5: here after `deals` deals)."""
    rules = make_rules({"deal": "fixed", "max_cards": 6, "deals": 5}, 4)
    state = play_out(rules, 4)
    assert [r.deal.cards for r in state.deals] == [6] * 5
    assert state.finished


def test_manual_pattern_takes_the_entered_size_and_refuses_too_many() -> None:
    """RULES.md §1 manual: the scorer enters n at the start of each deal (1..largest possible)."""
    rules = make_rules({"deal": "manual", "deals": 3}, 4)
    names = NAMES[:4]
    deals = [DealInput((0, 0, 0, 0), (0, 3, 0, 0), None, 3),
             DealInput((0, 0, 0, 0), (0, 0, 13, 0), None, 13)]
    state = replay(rules, names, deals)
    assert [r.deal.cards for r in state.deals] == [3, 13]
    with pytest.raises(DealRefused, match=r"^deal 1: .*13"):
        replay(rules, names, [DealInput((0, 0, 0, 0), (0, 14, 0, 0), None, 14)])
    with pytest.raises(DealRefused, match="^deal 1: "):
        replay(rules, names, [DealInput((0, 0, 0, 0), (0, 0, 0, 0), None, 0)])
    with pytest.raises(DealRefused, match="^deal 1: .*cards"):
        replay(rules, names, [DealInput((0, 0, 0, 0), (0, 3, 0, 0))])


def test_cards_given_for_a_scheduled_deal_must_match_the_schedule() -> None:
    """GAME-FILE.md deals: `cards` is optional; when given it must match the schedule."""
    rules = make_rules({"max_cards": 3}, 4)
    replay(rules, NAMES[:4], [DealInput((0, 0, 0, 0), (0, 3, 0, 0), None, 3)])
    with pytest.raises(DealRefused, match="^deal 1: .*3"):
        replay(rules, NAMES[:4], [DealInput((0, 0, 0, 0), (0, 2, 0, 0), None, 2)])


# ---- only odd / even ------------------------------------------------------------------------

def test_only_odd_keeps_the_odd_hand_sizes() -> None:
    """RULES.md §1 only: some tables play 9-7-5-3-1-3-5-7-9."""
    rules = make_rules({"max_cards": 9, "only": "odd"}, 4)
    assert [n for n, _ in sizes_of(rules)] == [9, 7, 5, 3, 1, 3, 5, 7, 9]


@pytest.mark.parametrize("pattern", sorted(PATTERN_LENGTHS))
@pytest.mark.parametrize("only", ["odd", "even"])
def test_only_keeps_just_the_hand_sizes_of_that_parity(pattern: str, only: str) -> None:
    """RULES.md §1 only: odd / even filters any pattern, keeping its order."""
    parity = 1 if only == "odd" else 0
    rules = make_rules({"deal": pattern, "max_cards": 8, "only": only}, 4)
    assert sizes_of(rules) == [s for s in expected_sizes(pattern, 8) if s[0] % 2 == parity]


@pytest.mark.parametrize(("fields", "players"), [
    ({"max_cards": 1, "only": "even"}, 4),
    ({"deal": "custom", "sequence": "1-3-5-3-1", "only": "even"}, 4),
    ({"deal": "custom", "sequence": "2-4", "only": "odd"}, 4),
    ({"deal": "fixed", "max_cards": 7, "only": "even"}, 4),
])
def test_a_pattern_left_empty_by_only_is_refused(fields: dict[str, object], players: int) -> None:
    """RULES.md §1: a pattern left empty by `only` is refused."""
    with pytest.raises(RulesConfigError, match=str(fields["only"])):
        make_rules(fields, players)


def test_only_with_an_unknown_parity_is_refused() -> None:
    """GAME-FILE.md rules: only is odd | even."""
    with pytest.raises(RulesError):
        make_rules({"only": "prime"}, 4)


def test_manual_with_only_refuses_the_other_parity() -> None:
    """RULES.md §1 only, with the manual pattern: the entered size must have the kept parity."""
    rules = make_rules({"deal": "manual", "only": "odd"}, 4)
    replay(rules, NAMES[:4], [DealInput((0, 0, 0, 0), (0, 3, 0, 0), None, 3)])
    with pytest.raises(DealRefused, match="^deal 1: .*even|^deal 1: .*odd"):
        replay(rules, NAMES[:4], [DealInput((0, 0, 0, 0), (0, 4, 0, 0), None, 4)])


# ---- decks, default M, too large ------------------------------------------------------------

@pytest.mark.parametrize(("fields", "deck"), [
    ({}, 52),
    ({"decks": 1}, 52),
    ({"decks": 2}, 104),
    ({"deck_size": 63}, 63),
    ({"deck_size": 64}, 64),
])
def test_deck_size_is_52_per_pack_unless_set(fields: dict[str, object], deck: int) -> None:
    """RULES.md notation: N = 52·D unless a preset says otherwise (63, 64)."""
    assert make_rules(fields, 4).deck_size == deck


@pytest.mark.parametrize("fields", [{"decks": 3}, {"decks": 0}, {"deck_size": 19},
                                    {"deck_size": 105}, {"deck_size": 52.0}, {"decks": "2"}])
def test_other_deck_counts_and_sizes_are_refused(fields: dict[str, object]) -> None:
    """RULES.md notation: D is 1 or 2; §8: a deck of 20 to 104 cards."""
    with pytest.raises(RulesError):
        make_rules(fields, 4)


@pytest.mark.parametrize(("players", "decks", "deck_size"), [
    (p, d, None) for p in range(2, 11) for d in (1, 2)
] + [(p, None, n) for p in range(2, 11) for n in (63, 64)])
def test_default_m_is_min_10_and_the_largest_with_a_turn_up(players: int, decks: int | None,
                                                            deck_size: int | None) -> None:
    """RULES.md §1 default M: min(10, floor((N − 1) / P))."""
    fields: dict[str, object] = {}
    if decks:
        fields["decks"] = decks
    if deck_size:
        fields["deck_size"] = deck_size
    n = deck_size or 52 * (decks or 1)
    assert make_rules(fields, players).max_cards == min(10, (n - 1) // players)


@pytest.mark.parametrize(("players", "m"), [(3, 10), (4, 10), (5, 10), (6, 8), (7, 7)])
def test_default_m_is_pagats_10_8_7(players: int, m: int) -> None:
    """RULES.md §1: 10 cards for 3–5 players, 8 for 6 and 7 for 7 (000_… Denexa's table too)."""
    assert make_rules({}, players).max_cards == m


@pytest.mark.parametrize(("players", "fields", "largest"), [
    (4, {"max_cards": 14}, 13),
    (6, {"max_cards": 9}, 8),
    (7, {"max_cards": 8}, 7),
    (3, {"max_cards": 18}, 17),
    (4, {"deal": "custom", "sequence": "1-2-14-1"}, 13),
    (6, {"preset": "trickster"}, 8),
    (7, {"preset": "cardgames-io"}, 7),
    (8, {"preset": "nomination-whist"}, 6),
    (4, {"deal": "fixed", "max_cards": 20}, 13),
    (4, {"deal": "manual", "max_cards": 20}, 13),
    (6, {"deck_size": 64, "max_cards": 11}, 10),
])
def test_m_larger_than_the_deck_is_refused_naming_the_largest_and_a_second_pack(
        players: int, fields: dict[str, object], largest: int) -> None:
    """RULES.md §1: P·M > N is refused — never silently shrunk — with the largest possible M and
    a second pack suggested (asked for, fixed by a preset, or in a custom sequence)."""
    with pytest.raises(RulesConfigError) as refused:
        make_rules(fields, players)
    message = str(refused.value)
    assert f"largest possible is {largest}" in message
    assert "second pack" in message


def test_m_larger_than_two_packs_is_refused_naming_the_largest() -> None:
    """RULES.md §1: with two packs (N = 104) 10 players get at most 10."""
    with pytest.raises(RulesConfigError, match="largest possible is 10"):
        make_rules({"decks": 2, "max_cards": 11}, 10)


def test_m_that_uses_every_card_is_allowed_and_played_at_no_trump() -> None:
    """RULES.md §1: only P·M > N is refused; P·n == N with a turn-up is a no-trump deal."""
    rules = make_rules({"max_cards": 13}, 4)
    state = play_out(rules, 4)
    trumps = {r.deal.cards: r.deal.trump for r in state.deals}
    assert trumps[13] == "NT"
    assert trumps[12] is None


# ---- trump ----------------------------------------------------------------------------------

def test_turn_up_no_trump_when_no_card_is_left_and_a_suit_otherwise() -> None:
    """RULES.md §1 trump: turn-up is NT only where P·n == N (e.g. Oh Pshaw's
    last deal, 4 players)."""
    rules = make_rules({"preset": "oh-pshaw"}, 4)
    state = play_out(rules, 4)
    assert [r.deal.trump for r in state.deals] == [None] * 12 + ["NT"]
    rules3 = make_rules({"preset": "oh-pshaw"}, 3)  # 15 cards × 3 < 52: always a trump
    assert all(r.deal.trump is None for r in play_out(rules3, 3).deals)


def test_dealer_last_card_gives_every_deal_a_trump_even_with_all_cards_dealt() -> None:
    """RULES.md §1: dealer-last-card (Oh! Well): every deal has a trump, so NT is refused."""
    rules = make_rules({"preset": "oh-well", "deals": 2}, 4)
    assert rules.max_cards == 13  # all 52 cards dealt
    state = replay(rules, NAMES[:4], [DealInput((0, 0, 0, 0), (0, 13, 0, 0), "H")])
    assert state.deals[0].trump == "H"
    with pytest.raises(DealRefused, match="^deal 1: .*no trump"):
        replay(rules, NAMES[:4], [DealInput((0, 0, 0, 0), (0, 13, 0, 0), "NT")])


CYCLE = ["S", "D", "C", "H", "NT"]


def test_rotation_follows_the_cycle_by_deal_index_and_starts_again() -> None:
    """RULES.md §1 trump rotation: deal k takes entry k mod length (Kachuful S-D-C-H-NT)."""
    rules = make_rules({"preset": "kachuful"}, 4)
    state = play_out(rules, 4)
    assert [r.deal.trump for r in state.deals] == [CYCLE[k % 5] for k in range(13)]
    schedule = replay(rules, NAMES[:4], []).schedule
    assert [d.trump for d in schedule] == [CYCLE[k % 5] for k in range(13)]


def test_rotation_decides_even_where_all_cards_are_dealt() -> None:
    """RULES.md §1: the rotation decides even where all cards are dealt (no automatic NT)."""
    rules = make_rules({"trump": "rotation", "trump_cycle": "H-S", "max_cards": 13}, 4)
    state = play_out(rules, 4)
    assert state.deals[0].deal.cards == 13
    assert state.deals[0].deal.trump == "H"
    assert [r.deal.trump for r in state.deals][:3] == ["H", "S", "H"]


def test_rotation_counts_re_deals() -> None:
    """RULES.md §1: deal k counts re-deals (cooperative: a missed deal is dealt again)."""
    rules = make_rules({"preset": "cooperative", "trump": "rotation", "max_cards": 2}, 3)
    names = NAMES[:3]
    deals = [
        DealInput((1, 1, 0), (0, 2, 0)),  # n=2, bids 1,1,0 (dealer Ann bids 0 last): Bob 2 — missed
        DealInput((0, 1, 1), (0, 1, 1)),  # re-dealt with 2 cards; dealer Bob; made
        DealInput((0, 0, 1), (0, 0, 1)),  # 1 card; dealer Cy
    ]
    state = replay(rules, names, deals)
    assert [r.deal.cards for r in state.deals] == [2, 2, 1]
    assert [r.deal.trump for r in state.deals] == ["S", "D", "C"]


def test_rotation_counts_tie_break_deals() -> None:
    """RULES.md §1: deal k counts tie-break deals too (§5 one-card-hand)."""
    rules = make_rules({"deal": "down", "max_cards": 1, "bidding": "free", "scoring": "exact",
                        "trump": "rotation", "tie": "one-card-hand"}, 2)
    names = NAMES[:2]
    both_miss = DealInput((0, 1), (1, 0))  # Ann bids 0 takes 1, Bob bids 1 takes 0: 0 – 0
    state = replay(rules, names, [both_miss])
    assert not state.finished
    assert state.next_deal is not None
    assert (state.next_deal.cards, state.next_deal.trump) == (1, "D")
    state = replay(rules, names, [both_miss, both_miss, DealInput((1, 1), (1, 0))])
    assert [r.deal.trump for r in state.deals] == ["S", "D", "C"]
    assert state.finished and state.winners == [0]


def test_recorded_trump_that_differs_from_the_fixed_one_is_refused() -> None:
    """RULES.md §1: where the rules fix the trump (NT deal, rotation), a
    different one is refused."""
    rules = make_rules({"preset": "kachuful"}, 4)
    entry = legal_entry(rules, replay(rules, NAMES[:4], []).next_deal, 4, trump="S")  # type: ignore[arg-type]
    replay(rules, NAMES[:4], [entry])
    wrong = DealInput(entry.bids, entry.tricks, "H")
    with pytest.raises(DealRefused, match="^deal 1: .*spades"):
        replay(rules, NAMES[:4], [wrong])
    nt_deal = make_rules({"deal": "custom", "sequence": "2NT-1"}, 4)
    with pytest.raises(DealRefused, match="^deal 1: .*no-trump"):
        replay(nt_deal, NAMES[:4], [DealInput((0, 0, 0, 0), (0, 2, 0, 0), "S")])
    replay(nt_deal, NAMES[:4], [DealInput((0, 0, 0, 0), (0, 2, 0, 0), "NT")])


def test_no_trump_recorded_for_a_deal_that_has_a_trump_is_refused() -> None:
    """RULES.md §1: NT recorded for a deal that has a trump is refused."""
    rules = make_rules({"max_cards": 3}, 4)
    with pytest.raises(DealRefused, match="^deal 1: .*no trump"):
        replay(rules, NAMES[:4], [DealInput((0, 0, 0, 0), (0, 3, 0, 0), "NT")])
    for suit in ("S", "H", "D", "C"):
        state = replay(rules, NAMES[:4], [DealInput((0, 0, 0, 0), (0, 3, 0, 0), suit)])
        assert state.deals[0].trump == suit


def test_a_trump_that_is_not_a_suit_is_refused() -> None:
    """RULES.md §1: the trump is recorded as S, H, D, C or NT."""
    rules = make_rules({"max_cards": 3}, 4)
    with pytest.raises(DealRefused, match="^deal 1: "):
        replay(rules, NAMES[:4], [DealInput((0, 0, 0, 0), (0, 3, 0, 0), "X")])


# ---- dealer and eldest hand -----------------------------------------------------------------

@pytest.mark.parametrize(("players", "first_dealer"), [(3, 0), (4, 2), (5, 4), (7, 3), (10, 9)])
def test_dealer_of_deal_k_is_first_dealer_plus_k_and_eldest_is_to_the_left(
        players: int, first_dealer: int) -> None:
    """RULES.md §1: dealer of deal k is (first_dealer + k) mod P; eldest hand (dealer + 1) mod P."""
    rules = make_rules({"max_cards": 4}, players)
    state = play_out(rules, players, first_dealer=first_dealer)
    assert len(state.deals) == 7
    for k, result in enumerate(state.deals):
        assert result.deal.number == k + 1
        assert result.deal.dealer == (first_dealer + k) % players
        assert result.deal.eldest == (first_dealer + k + 1) % players


def test_bidding_goes_clockwise_from_eldest_hand_and_ends_with_the_dealer() -> None:
    """RULES.md §1: eldest hand bids first, bidding goes clockwise, the dealer bids last."""
    deal = Deal(1, 3, dealer=2, eldest=3, trump=None)
    assert deal.bidding_order(5) == [3, 4, 0, 1, 2]
    # In a game the hook binds the dealer's seat, not the last seat of the list
    rules = make_rules({"max_cards": 3}, 4)
    # first dealer Cy (2): bidding order Dee, Ann, Bob, Cy. Dee 1, Ann 1, Bob 0 → Cy can't bid 1.
    with pytest.raises(DealRefused, match="^deal 1: Cy deals and can't bid 1"):
        replay(rules, NAMES[:4], [DealInput((1, 0, 1, 1))], first_dealer=2)
    replay(rules, NAMES[:4], [DealInput((1, 0, 0, 1))], first_dealer=2)


def test_a_trump_cycle_goes_only_with_the_rotation() -> None:
    """RULES.md §1 / GAME-FILE.md rules: trump_cycle (e.g. S-D-C-H-NT) is for trump: rotation."""
    with pytest.raises(RulesConfigError, match="rotation"):
        make_rules({"trump_cycle": "S-H"}, 4)
    with pytest.raises(RulesError):
        make_rules({"trump": "rotation", "trump_cycle": "S-X"}, 4)
    with pytest.raises(RulesError, match="coin-toss"):
        make_rules({"trump": "coin-toss"}, 4)
