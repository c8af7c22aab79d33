"""Bidding rules, the announcement and tricks (RULES.md §2)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.bidding import (
    Bidding,
    allowed_bids,
    announce,
    bid_check,
    can_bid,
    verify_bid,
    verify_tricks,
)
from scorekeeper.rules.errors import BidError, RulesConfigError, TricksError, UnknownVariantError
from scorekeeper.rules.game import replay
from scorekeeper.rules.presets import make_rules
from scorekeeper.rules.state import DealInput, DealRefused


def spec_allowed(rule: str, cards: int, earlier: list[int], dealer: bool,
                 hook_from: int | None = None) -> list[int]:
    """RULES.md §2 table, written out: what the next bidder may bid."""
    total = sum(earlier)
    everything = list(range(cards + 1))
    if rule == "hook" and hook_from is not None and cards < hook_from:
        rule = "free"
    if rule == "must-equal":
        if dealer:
            return [b for b in everything if total + b == cards]
        return [b for b in everything if total + b <= cards]
    if not dealer or rule == "free":
        return everything
    if rule == "dealer-must-exceed" and total + cards >= cards + 1:
        return [b for b in everything if total + b >= cards + 1]
    return [b for b in everything if total + b != cards]  # hook, and must-exceed's fallback


def earlier_bids(cards: int, bidders: int):  # type: ignore[no-untyped-def]
    return itertools.product(range(cards + 1), repeat=bidders)


@pytest.mark.parametrize("rule", ["free", "hook", "dealer-must-exceed"])
@pytest.mark.parametrize("cards", [1, 2, 3, 5])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_allowed_bids_follow_the_rule_for_every_earlier_bidding(rule: str, cards: int,
                                                                players: int) -> None:
    """RULES.md §2 table: free, hook, dealer-must-exceed for the dealer and the others, every case;
    verify_bid, can_bid, allowed_bids and bid_check agree."""
    bidding = Bidding(rule)
    for earlier in earlier_bids(cards, players - 1):
        for dealer in (True, False):
            expected = spec_allowed(rule, cards, list(earlier), dealer)
            assert allowed_bids(bidding, cards, earlier, dealer=dealer) == expected
            assert list(bid_check(bidding, cards, earlier, dealer=dealer).allowed) == expected
            for bid in range(cards + 1):
                assert can_bid(bidding, cards, earlier, bid, dealer=dealer) is (bid in expected)
                if bid not in expected:
                    with pytest.raises(BidError):
                        verify_bid(bidding, cards, earlier, bid, dealer=dealer, name="Dee")
                else:
                    verify_bid(bidding, cards, earlier, bid, dealer=dealer, name="Dee")


@pytest.mark.parametrize("cards", [1, 2, 4])
def test_must_equal_keeps_the_running_total_at_most_n_and_the_dealer_makes_it_n(cards: int) -> None:
    """RULES.md §2 must-equal: every earlier bid keeps the running total ≤ n;
    the dealer makes it n."""
    bidding = Bidding("must-equal")
    for count in range(4):
        for earlier in earlier_bids(cards, count):
            if sum(earlier) > cards:
                continue  # can't arise: the earlier bids were themselves checked
            for dealer in (True, False):
                expected = spec_allowed("must-equal", cards, list(earlier), dealer)
                assert allowed_bids(bidding, cards, earlier, dealer=dealer) == expected
                for bid in range(cards + 1):
                    assert can_bid(bidding, cards, earlier, bid, dealer=dealer) is (bid in expected)


def test_must_equal_messages_name_the_player_and_the_rule() -> None:
    """RULES.md §2: an illegal bid is refused with the player, the rule and the bid."""
    bidding = Bidding("must-equal")
    with pytest.raises(BidError, match=r"Bob can bid at most 1.*\(must equal\)"):
        verify_bid(bidding, 3, [2], 2, dealer=False, name="Bob")
    with pytest.raises(BidError, match=r"Dee deals and must bid 1.*\(must equal\)"):
        verify_bid(bidding, 3, [1, 1, 0], 2, dealer=True, name="Dee")


def test_hook_message_names_the_dealer_the_bid_the_tricks_and_the_rule() -> None:
    """RULES.md §2: "Dee deals and can't bid 3: the bids would add up to the 7 tricks (hook)"."""
    with pytest.raises(BidError) as refused:
        verify_bid(Bidding("hook"), 7, [2, 1, 1], 3, dealer=True, name="Dee")
    assert str(refused.value) == (
        "Dee deals and can't bid 3: the bids would add up to the 7 tricks (hook)")


@settings(max_examples=40, deadline=None)
@given(rule=st.sampled_from(["hook", "must-equal", "dealer-must-exceed"]), cards=st.integers(1, 13),
       bidders=st.integers(2, 7), data=st.data())
def test_a_reason_counts_the_tricks_in_the_singular_for_one_card(rule: str, cards: int,
                                                                 bidders: int,
                                                                 data: st.DataObject) -> None:
    """"the bids would add up to the 1 trick (hook)", not "1 tricks": whatever the rule and the
    bids, a reason names the deal's tricks in the form its count takes."""
    earlier = data.draw(st.lists(st.integers(0, cards), min_size=bidders - 1, max_size=bidders - 1))
    dealer = data.draw(st.booleans())
    reason = bid_check(Bidding(rule), cards, earlier, dealer=dealer, name="Dee").reason
    if reason:
        assert f" {cards} trick " in reason if cards == 1 else f" {cards} tricks " in reason


def test_one_card_s_reasons_say_trick() -> None:
    """The dealer of a 1-card deal after three bids of 0, under each rule that strikes a bid out."""
    assert bid_check(Bidding("hook"), 1, [0, 0, 0], dealer=True, name="Dee").reason == (
        "Dee deals and can't bid 1: the bids would add up to the 1 trick (hook)")
    assert bid_check(Bidding("must-equal"), 1, [0, 0, 0], dealer=True, name="Dee").reason == (
        "Dee deals and must bid 1: the bids must add up to the 1 trick (must equal)")
    with pytest.raises(TricksError, match=r"^The tricks add up to 0, but 1 was played"):
        verify_tricks([0, 0], 1, ["Ann", "Bob"])


def test_before_the_dealer_bids_the_forbidden_bid_is_shown() -> None:
    """RULES.md §2: before the dealer bids, the app shows the forbidden bid."""
    check = bid_check(Bidding("hook"), 7, [2, 1, 1], dealer=True, name="Dee")
    assert 3 not in check.allowed
    assert "can't bid 3" in check.reason and "(hook)" in check.reason
    free = bid_check(Bidding("free"), 7, [2, 1, 1], dealer=True, name="Dee")
    assert free.allowed == tuple(range(8)) and free.reason == ""


@pytest.mark.parametrize(("cards", "earlier", "forbidden"), [
    (10, [2, 3, 1], 4),  # Trickster (001_…)
    (10, [3, 3, 3], 1),  # CardGames.io (003_…)
    (5, [2, 0, 1], 2),  # Wikipedia (004_…)
])
def test_hook_examples_of_the_reference_texts(cards: int, earlier: list[int],
                                              forbidden: int) -> None:
    """RULES.md §2 hook; the examples of Trickster, CardGames.io and Wikipedia."""
    allowed = allowed_bids(Bidding("hook"), cards, earlier, dealer=True)
    assert allowed == [b for b in range(cards + 1) if b != forbidden]


def test_hook_leaves_the_dealer_free_when_the_total_already_exceeds() -> None:
    """004_…: five cards, bids three, one and two: the dealer is free to make any bid."""
    assert allowed_bids(Bidding("hook"), 5, [3, 1, 2], dealer=True) == [0, 1, 2, 3, 4, 5]


def test_hook_from_lets_smaller_deals_go_free() -> None:
    """RULES.md §2 hook with hook_from: k: the hook applies only to deals of at least k cards."""
    bidding = Bidding("hook", hook_from=3)
    assert allowed_bids(bidding, 1, [0, 0, 0], dealer=True) == [0, 1]
    assert allowed_bids(bidding, 2, [1, 0, 0], dealer=True) == [0, 1, 2]
    assert allowed_bids(bidding, 3, [1, 0, 0], dealer=True) == [0, 1, 3]
    assert allowed_bids(bidding, 5, [1, 0, 0], dealer=True) == [0, 1, 2, 3, 5]
    rules = make_rules({"max_cards": 2, "hook_from": 2}, 3)
    names = ["Ann", "Bob", "Cy"]
    # deal 1 (2 cards): hooked; deal 2 (1 card): free
    with pytest.raises(DealRefused, match=r"^deal 1: Ann deals and can't bid 1.*\(hook\)"):
        replay(rules, names, [DealInput((1, 1, 0))])
    state = replay(rules, names, [DealInput((0, 1, 0), (0, 2, 0)), DealInput((1, 0, 0), (1, 0, 0))])
    assert len(state.deals) == 2


@pytest.mark.parametrize("rule", ["free", "dealer-must-exceed", "must-equal"])
def test_hook_from_only_changes_the_hook(rule: str) -> None:
    """RULES.md §2: hook_from only changes hook (with another rule it is refused)."""
    with pytest.raises(RulesConfigError, match="hook"):
        Bidding(rule, hook_from=2)


def test_dealer_must_exceed_needs_a_total_of_at_least_n_plus_1() -> None:
    """RULES.md §2 dealer-must-exceed; Denexa (000_…): with an eight-card
    hand the bids total ≥ 9."""
    bidding = Bidding("dealer-must-exceed")
    assert allowed_bids(bidding, 8, [2, 1, 0], dealer=True) == [6, 7, 8]
    with pytest.raises(BidError, match=r"Dee deals and must bid at least 6.*dealer must exceed"):
        verify_bid(bidding, 8, [2, 1, 0], 5, dealer=True, name="Dee")
    assert allowed_bids(bidding, 8, [5, 5, 0], dealer=True) == list(range(9))


def test_dealer_must_exceed_falls_back_to_the_hook_when_all_others_bid_0_and_says_so() -> None:
    """RULES.md §2: if even b = n can't reach n + 1 (all others bid 0), the hook applies, and the
    app says so."""
    bidding = Bidding("dealer-must-exceed")
    assert allowed_bids(bidding, 3, [0, 0, 0], dealer=True) == [0, 1, 2]
    check = bid_check(bidding, 3, [0, 0, 0], dealer=True, name="Dee")
    assert "hook" in check.reason and "everyone else bid 0" in check.reason
    with pytest.raises(BidError, match="hook"):
        verify_bid(bidding, 3, [0, 0, 0], 3, dealer=True, name="Dee")


def test_the_other_players_bid_freely_under_hook_and_must_exceed() -> None:
    """RULES.md §2: the rules restrict the dealer (last bidder) only."""
    for rule in ("hook", "dealer-must-exceed"):
        assert allowed_bids(Bidding(rule), 4, [1, 3], dealer=False) == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("rule", ["hook", "dealer-must-exceed", "must-equal"])
def test_simultaneous_bidding_goes_only_with_free(rule: str) -> None:
    """RULES.md §2: simultaneous is allowed only with free (any other combination is refused)."""
    with pytest.raises(RulesConfigError, match="[Ss]imultaneous"):
        Bidding(rule, simultaneous=True)
    with pytest.raises(RulesConfigError):
        make_rules({"bidding": rule, "simultaneous": True}, 4)


def test_simultaneous_bids_are_entered_together() -> None:
    """RULES.md §2 simultaneous: all bids are entered together, in any order of seats."""
    rules = make_rules({"bidding": "free", "simultaneous": True, "max_cards": 2}, 3)
    names = ["Ann", "Bob", "Cy"]
    state = replay(rules, names, [DealInput((2, 0, 0), (2, 0, 0))])  # even: fine with free
    assert state.deals[0].announce == "even"
    with pytest.raises(DealRefused, match="^deal 1: .*together"):
        replay(rules, names, [DealInput((1, None, None))])
    with pytest.raises(DealRefused, match="^deal 1: "):
        replay(rules, names, [DealInput((3, 0, 0))])


def test_unknown_bidding_rule_is_refused() -> None:
    """RULES.md §2: only the listed rules exist."""
    with pytest.raises(UnknownVariantError, match="auction"):
        Bidding("auction")
    with pytest.raises(UnknownVariantError, match="auction"):
        make_rules({"bidding": "auction"}, 4)


@pytest.mark.parametrize("bid", [-1, 4, 2.0, "2", None, True])
def test_a_bid_is_an_integer_from_0_to_n(bid: object) -> None:
    """RULES.md §2: every bid is an integer 0..n."""
    with pytest.raises(BidError, match="Bob"):
        verify_bid(Bidding("free"), 3, [], bid, dealer=False, name="Bob")  # type: ignore[arg-type]
    assert not can_bid(Bidding("free"), 3, [], bid, dealer=False)  # type: ignore[arg-type]


@pytest.mark.parametrize(("bids", "cards", "words"), [
    ([2, 1, 0, 3], 7, "under by 1"),
    ([3, 3], 4, "over by 2"),
    ([1, 1], 2, "even"),
    ([0, 0, 0], 5, "under by 5"),
    ([5, 5, 5], 5, "over by 10"),
])
def test_the_bid_total_is_announced_against_n(bids: list[int], cards: int, words: str) -> None:
    """RULES.md §2: the sum of the bids is announced as over by k, under by k or even."""
    assert announce(bids, cards) == words


def test_announce_is_given_for_every_rule_in_a_game() -> None:
    """RULES.md §2: announced "whatever rule is in force" (free bidding can be even)."""
    for fields in ({"bidding": "free"}, {"bidding": "hook"}, {"preset": "cooperative"}):
        rules = make_rules({**fields, "max_cards": 3}, 3)
        bids = (0, 1, 2) if rules.bidding.rule != "hook" else (0, 1, 1)
        state = replay(rules, ["Ann", "Bob", "Cy"], [DealInput(bids)])
        assert state.deals[0].bid_total == sum(bids)
        assert state.deals[0].announce == announce(list(bids), 3)


# ---- tricks -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("tricks", "words"), [
    ([2, 2, 0], "add up to 4"),
    ([3, 1, 0], "add up to 4"),
    ([0, 0, 0], "add up to 0"),
    ([3, -1, 1], "Bob"),
    ([0, 0, 4], "Cy"),
])
def test_tricks_must_each_be_0_to_n_and_add_up_to_n(tricks: list[int], words: str) -> None:
    """RULES.md §2 tricks: each t is 0..n and the tricks of a deal sum to exactly n."""
    with pytest.raises(TricksError, match=words):
        verify_tricks(tricks, 3, ["Ann", "Bob", "Cy"])
    verify_tricks([1, 1, 1], 3, ["Ann", "Bob", "Cy"])


def test_tricks_that_do_not_add_up_refuse_the_deal_and_keep_the_earlier_ones() -> None:
    """RULES.md §2: anything else is refused with a message; nothing already entered is lost."""
    rules = make_rules({"max_cards": 3}, 3)
    names = ["Ann", "Bob", "Cy"]
    good = DealInput((1, 1, 0), (1, 2, 0))
    with pytest.raises(DealRefused, match="^deal 2: .*add up"):
        replay(rules, names, [good, DealInput((1, 0, 0), (1, 0, 0))])
    with pytest.raises(DealRefused, match="^deal 1: .*trick"):
        replay(rules, names, [DealInput((1, 1, 0), (1, 2))])
    state = replay(rules, names, [good, DealInput((1, 0, 0))])
    assert state.current is not None and state.deals[0].totals == (11, 2, 10)


def test_tricks_are_entered_only_once_everyone_has_bid() -> None:
    """GAME-FILE.md: a deal may stop part-way (bids without tricks), never tricks without bids."""
    rules = make_rules({"max_cards": 3}, 3)
    with pytest.raises(DealRefused, match="^deal 1: "):
        replay(rules, ["Ann", "Bob", "Cy"], [DealInput((None, 1, 0), (1, 2, 0))])
