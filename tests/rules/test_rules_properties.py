"""Property tests (Hypothesis) over schedules, bidding, totals, settlement and game files.

RULES.md §1 (schedule lengths), §2 (the dealer always has a legal bid), §5 (totals), §6
(settlement), GAME-FILE.md (export → import → export).
"""

from __future__ import annotations

import json
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spec import PATTERN_LENGTHS

from scorekeeper.rules.bidding import Bidding, allowed_bids, verify_bid
from scorekeeper.rules.errors import RulesConfigError, RulesError
from scorekeeper.rules.game import replay
from scorekeeper.rules.gamefile import GameFile, GameFileError, export, normalized, parse, to_input
from scorekeeper.rules.presets import make_rules
from scorekeeper.rules.scoring import SYSTEMS
from scorekeeper.rules.stakes import Stakes, settle
from scorekeeper.rules.state import Adjustment, DealInput
from scorekeeper.rules.variants import PRESETS

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo"]
LENGTH = PATTERN_LENGTHS


# ---- RULES.md §1: schedule lengths ------------------------------------------------------------

@st.composite
def pattern_and_size(draw: st.DrawFn) -> tuple[str, int, int, int]:
    players = draw(st.integers(2, 10))
    decks = draw(st.sampled_from([1, 2]))
    pattern = draw(st.sampled_from(sorted(LENGTH)))
    m = draw(st.integers(1, 52 * decks // players))
    return pattern, m, players, decks


@FAST
@given(pattern_and_size())
def test_schedules_have_the_length_rules_md_gives_for_any_valid_m_and_p(
        case: tuple[str, int, int, int]) -> None:
    """RULES.md §1 pattern table: 2M − 1, 2M − 1, 2M, 2M + 2, M, M deals, and hand sizes 1..M."""
    pattern, m, players, decks = case
    rules = make_rules({"deal": pattern, "max_cards": m, "decks": decks}, players)
    assert rules.sizes is not None
    assert len(rules.sizes) == LENGTH[pattern](m)
    assert max(n for n, _ in rules.sizes) == m and min(n for n, _ in rules.sizes) == 1
    assert sum(nt for _, nt in rules.sizes) == (2 if pattern == "up-nt-down" else 0)
    schedule = replay(rules, NAMES[:players], []).schedule
    assert len(schedule) == len(rules.sizes)
    assert [d.dealer for d in schedule] == [k % players for k in range(len(schedule))]


@FAST
@given(st.integers(2, 10), st.sampled_from([1, 2]), st.integers(1, 30),
       st.sampled_from(sorted(LENGTH)))
def test_an_m_the_deck_cannot_deal_is_always_refused_naming_the_largest(
        players: int, decks: int, extra: int, pattern: str) -> None:
    """RULES.md §1: P·M > N is refused with the largest possible M named."""
    largest = 52 * decks // players
    with pytest.raises(RulesConfigError, match=f"largest possible is {largest}\\b"):
        make_rules({"deal": pattern, "max_cards": largest + extra, "decks": decks}, players)


# ---- RULES.md §2: the dealer always has a legal bid --------------------------------------------

@st.composite
def deal_and_earlier_bids(draw: st.DrawFn) -> tuple[int, list[int]]:
    cards = draw(st.integers(1, 26))
    earlier = draw(st.lists(st.integers(0, cards), min_size=1, max_size=9))
    return cards, earlier


@FAST
@given(deal_and_earlier_bids(), st.sampled_from(["hook", "dealer-must-exceed"]))
def test_the_hook_and_dealer_must_exceed_always_leave_the_dealer_a_legal_bid(
        case: tuple[int, list[int]], rule: str) -> None:
    """RULES.md §2: at least one legal bid always exists for the dealer, for any n and earlier bids;
    the hook forbids exactly the bid that makes the total n; must-exceed reaches n + 1 when it
    can."""
    cards, earlier = case
    allowed = allowed_bids(Bidding(rule), cards, earlier, dealer=True)
    assert allowed
    total = sum(earlier)
    if rule == "hook" or total == 0:
        assert allowed == [b for b in range(cards + 1) if total + b != cards]
    else:
        assert allowed == [b for b in range(cards + 1) if total + b >= cards + 1]


@FAST
@given(deal_and_earlier_bids(), st.integers(1, 30))
def test_hook_from_changes_nothing_but_the_dealers_bids_in_small_deals(
        case: tuple[int, list[int]], hook_from: int) -> None:
    """RULES.md §2 hook_from: the hook applies only to deals of at least k cards."""
    cards, earlier = case
    allowed = allowed_bids(Bidding("hook", hook_from=hook_from), cards, earlier, dealer=True)
    if cards < hook_from:
        assert allowed == list(range(cards + 1))
    else:
        assert allowed == [b for b in range(cards + 1) if sum(earlier) + b != cards]


@FAST
@given(st.integers(1, 26), st.data())
def test_must_equal_bidding_always_ends_with_exactly_one_bid_for_the_dealer(
        cards: int, data: st.DataObject) -> None:
    """RULES.md §2 must-equal: bids drawn from the allowed ones keep the running total ≤ n and leave
    the dealer exactly the bid that makes it n."""
    bidding = Bidding("must-equal")
    earlier: list[int] = []
    for _ in range(data.draw(st.integers(1, 9))):
        allowed = allowed_bids(bidding, cards, earlier, dealer=False)
        assert allowed == list(range(cards - sum(earlier) + 1))
        earlier.append(data.draw(st.sampled_from(allowed)))
    assert allowed_bids(bidding, cards, earlier, dealer=True) == [cards - sum(earlier)]


@FAST
@given(st.sampled_from([Bidding("free"), Bidding("hook"), Bidding("hook", hook_from=3),
                        Bidding("dealer-must-exceed"), Bidding("must-equal")]),
       st.integers(2, 6), st.integers(1, 8), st.integers(0, 5), st.data())
def test_a_deals_bids_checked_together_are_refused_as_when_entered_one_by_one(
        bidding: Bidding, players: int, cards: int, first_dealer: int, data: st.DataObject) -> None:
    """A deal's bids entered all at once are refused, with the same message, exactly when entering
    them one at a time, eldest hand first, refuses one of them."""
    names, dealer = NAMES[:players], first_dealer % players
    bids = data.draw(st.lists(st.integers(-1, cards + 1), min_size=players, max_size=players))
    rules = replace(make_rules({"max_cards": cards, "deal": "fixed"}, players), bidding=bidding)
    expected = None
    earlier: list[int] = []
    for seat in [(dealer + 1 + i) % players for i in range(players)]:
        try:
            verify_bid(bidding, cards, earlier, bids[seat], dealer=seat == dealer, name=names[seat])
        except RulesError as exc:
            expected = f"deal 1: {exc}"
            break
        earlier.append(bids[seat])
    try:
        replay(rules, names, [DealInput(tuple(bids))], first_dealer=dealer)
        refused = None
    except RulesError as exc:
        refused = str(exc)
    assert refused == expected


# ---- random valid games ------------------------------------------------------------------------

SCORING = sorted(SYSTEMS) + ["custom"]
MADE_SCORE = {name for name, system in SYSTEMS.items() if system.wins == "highest"} | {"custom"}


def _split(draw: st.DrawFn, cards: int, players: int) -> list[int]:
    """n tricks split randomly among the players."""
    cuts = sorted(draw(st.lists(st.integers(0, cards), min_size=players - 1, max_size=players - 1)))
    bounds = [0, *cuts, cards]
    tricks = [bounds[i + 1] - bounds[i] for i in range(players)]
    return draw(st.permutations(tricks))


@st.composite
def rules_inputs(draw: st.DrawFn, players: int) -> dict[str, Any]:
    """A preset with random overrides; only combinations RULES.md allows."""
    preset = draw(st.sampled_from(sorted(PRESETS)))
    fields: dict[str, Any] = {"preset": preset}
    base = make_rules({"preset": preset, "max_cards": 1}, players)  # short games: M ≤ 3
    fields["max_cards"] = draw(st.integers(1, 3))
    if draw(st.booleans()) and preset != "oh-sh-64":
        fields["decks"] = draw(st.sampled_from([1, 2]))
    if base.deal in ("fixed", "manual") or draw(st.integers(0, 4)) == 0:
        if draw(st.booleans()):
            fields["deal"] = draw(st.sampled_from(["fixed", "manual", "up", "down-up-twice-one",
                                                   "custom"]))
        if fields.get("deal") == "custom":
            fields["sequence"] = draw(st.sampled_from(["1-2NT-1", "3-1", "1-3NT"]))
            del fields["max_cards"]
        if fields.get("deal", base.deal) in ("fixed", "manual"):
            fields["deals"] = draw(st.integers(1, 4))
        # only odd never empties these patterns (a fixed one needs an odd M)
        fixed_even = fields.get("deal", base.deal) == "fixed" and fields["max_cards"] % 2 == 0
        if not fixed_even and draw(st.booleans()):
            fields["only"] = "odd"
    if draw(st.integers(0, 3)) == 0:
        fields["target"] = draw(st.integers(5, 40))
    if not base.cooperative:
        if not base.bidding.simultaneous and draw(st.booleans()):
            fields["bidding"] = draw(st.sampled_from(["free", "hook", "dealer-must-exceed"]))
            if fields["bidding"] == "hook" and draw(st.booleans()):
                fields["hook_from"] = draw(st.integers(1, 3))
        if draw(st.booleans()):
            fields["scoring"] = draw(st.sampled_from(SCORING))
        scoring = fields.get("scoring", base.scoring.id if base.scoring else None)
        if scoring == "custom":
            fields["made"] = draw(st.sampled_from(["10 + bid", "10 + bid²", "bid + cards / 2"]))
            fields["missed"] = draw(st.sampled_from(["0", "-abs(bid - tricks)", "tricks"]))
            fields["wins"] = draw(st.sampled_from(["highest", "lowest"]))
        if scoring in MADE_SCORE:
            if draw(st.booleans()):
                fields["zero_bid"] = draw(st.sampled_from([5, 10, "5+n"]))
            if draw(st.booleans()):
                fields["spades_double"] = True
        fields["tie"] = draw(st.sampled_from(["share", "one-card-hand"]))
    if draw(st.integers(0, 4)) == 0:
        fields["trump"] = "rotation"
        fields["trump_cycle"] = draw(st.sampled_from(["S-D-C-H-NT", "H-S", "NT"]))
    return fields


@st.composite
def game_files(draw: st.DrawFn) -> dict[str, Any]:
    """A random valid game file, built by asking allowed_bids for every bid."""
    players = draw(st.integers(2, 6))
    names = NAMES[:players]
    rules_input = draw(rules_inputs(players))
    rules = make_rules(rules_input, players)  # the strategy only builds valid rules
    first_dealer = draw(st.integers(0, players - 1))
    entries: list[DealInput] = []
    deals: list[dict[str, Any]] = []
    adjustments: list[dict[str, Any]] = []

    def state_now() -> Any:
        adj = [Adjustment(a["deal"], a["player"], Fraction(a["points"])) for a in adjustments]
        return replay(rules, names, entries, first_dealer=first_dealer, adjustments=adj)

    state = state_now()
    for _ in range(draw(st.integers(0, 14))):
        if state.finished:
            break
        deal = state.next_deal
        assert deal is not None
        cards = deal.cards
        if cards is None:  # manual: the scorer enters n (odd when only odd sizes are played)
            cards = draw(st.integers(1, rules.max_cards))
            if rules.only == "odd" and cards % 2 == 0:
                cards -= 1
        bids: list[int | None] = [None] * players
        earlier: list[int] = []
        order = deal.bidding_order(players)
        for seat in order:
            allowed = allowed_bids(rules.bidding, cards, earlier, dealer=seat == deal.dealer)
            bid = draw(st.sampled_from(allowed))
            bids[seat] = bid
            earlier.append(bid)
        if deal.trump is not None:
            trump = draw(st.sampled_from([None, deal.trump]))
        else:
            choices = ["S", "H", "D", "C"] + ([] if rules.spades_double else [None])
            trump = draw(st.sampled_from(choices))
        entry: dict[str, Any] = {"bids": bids}
        if trump is not None:
            entry["trump"] = trump
        if rules.deal == "manual" or draw(st.booleans()):
            entry["cards"] = cards
        stop = draw(st.integers(0, 9)) == 0
        if stop:  # the deal being played: bids only, or a prefix in bidding order
            keep = len(order) if rules.bidding.simultaneous else draw(st.integers(0, len(order)))
            if rules.bidding.simultaneous and draw(st.booleans()):
                keep = 0
            entry["bids"] = [bids[s] if order.index(s) < keep else None for s in range(players)]
        else:
            if sum(earlier) == cards and draw(st.booleans()):
                entry["tricks"] = list(bids)  # everyone makes it (lets cooperative games finish)
            else:
                entry["tricks"] = _split(draw, cards, players)
        deals.append(entry)
        entries.append(DealInput(tuple(entry["bids"]),
                                 None if "tricks" not in entry else tuple(entry["tricks"]),
                                 entry.get("trump"), entry.get("cards")))
        if draw(st.integers(0, 5)) == 0:
            adjustments.append({"deal": len(entries), "player": draw(st.integers(0, players - 1)),
                                "points": draw(st.sampled_from([-10, 5, 1, 20])),
                                "reason": "house"})
        state = state_now()
        if stop:
            break
    data: dict[str, Any] = {"format": "oh-hell-scorekeeper/1", "players": names,
                            "first_dealer": first_dealer, "rules": rules_input, "deals": deals}
    if draw(st.booleans()):
        data["title"] = "Friday"
    if adjustments:
        data["adjustments"] = adjustments
    if entries and state.current is None and not state.finished and draw(st.integers(0, 2)) > 0:
        data["ended"] = True
    if not rules.cooperative and draw(st.booleans()):
        data["stakes"] = draw(st.sampled_from([
            {"per_point": "0.05", "currency": "EUR"},
            {"per_point": "0.10", "settlement": "to-winner", "hard_score_bonus": "10"},
            {"per_point": "0.03", "settlement": "pairwise"},
            {"ante": "2", "currency": "$"},
        ]))
    return data


GAMES = settings(max_examples=150, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@GAMES
@given(game_files())
def test_export_import_export_is_identical_for_random_valid_games(data: dict[str, Any]) -> None:
    """GAME-FILE.md: a valid game (every bid from allowed_bids, tricks adding to n) is accepted,
    and export → import → export gives the identical document."""
    first = export(parse(data))
    text = json.dumps(first)
    again = export(parse(json.loads(text)))
    assert again == first
    assert json.dumps(again) == text
    assert export(parse(first)) == first


@GAMES
@given(game_files())
def test_totals_are_the_running_sum_of_points_and_adjustments(data: dict[str, Any]) -> None:
    """RULES.md §5: totals are the running sum of each deal's points plus the adjustments named at
    that deal (counted once the deal is finished); points are never changed by adjustments."""
    doc = export(parse(data))
    players = len(doc["players"])
    running = [Fraction(0)] * players
    for deal in doc["deals"]:
        if "points" not in deal:
            continue
        for seat in range(players):
            running[seat] += Fraction(deal["points"][seat])
        for adj in data.get("adjustments", []):
            if adj["deal"] == deal["number"]:
                running[adj["player"]] += Fraction(adj["points"])
        assert [Fraction(t) for t in deal["totals"]] == running
    totals = {s["player"]: Fraction(s["total"]) for s in doc["standings"]}
    assert [totals[name] for name in doc["players"]] == running
    ranks = [s["rank"] for s in doc["standings"]]
    assert ranks == sorted(ranks) and ranks[0] == 1


@GAMES
@given(game_files())
def test_a_finished_game_with_stakes_settles_to_zero_in_at_most_p_minus_1_payments(
        data: dict[str, Any]) -> None:
    """RULES.md §6 / GAME-FILE.md settlement: nets as decimal strings adding to exactly 0.00, and
    the payments reproduce them; winners only once finished."""
    doc = export(parse(data))
    if not doc["finished"]:
        assert doc["winners"] == [] and doc["settlement"] is None
        return
    assert doc["winners"]
    if "stakes" not in data:
        assert doc["settlement"] is None
        return
    net = {name: Decimal(v) for name, v in doc["settlement"]["net"].items()}
    assert sum(net.values()) == Decimal("0.00")
    assert len(doc["settlement"]["payments"]) <= len(doc["players"]) - 1
    flow = dict.fromkeys(net, Decimal(0))
    for pay in doc["settlement"]["payments"]:
        flow[pay["from"]] -= Decimal(pay["amount"])
        flow[pay["to"]] += Decimal(pay["amount"])
    assert flow == net


def _same_replay(got: GameFile, want: GameFile) -> None:
    """The same game file, replay and checkpoints (a house formula is compiled once per parse, so
    two parses of the same rules hold formulas that differ only in identity)."""
    assert replace(got.rules, scoring=want.rules.scoring) == want.rules
    assert getattr(got.rules.scoring, "words", None) == getattr(want.rules.scoring, "words", None)
    assert replace(got, rules=want.rules, state=replace(got.game, rules=want.rules)) == want
    assert got.game.checkpoints == want.game.checkpoints
    assert export(got) == export(want)


@GAMES
@given(game_files(), st.data())
def test_replaying_from_an_earlier_replay_gives_exactly_the_full_replay(
        data: dict[str, Any], draw: st.DataObject) -> None:
    """parse(doc, previous) is parse(doc), whatever ``previous`` is: the same game with fewer deals
    (a bid or tricks added), with more (a bid taken back), with other adjustments or another
    title, or the game replayed deal by deal, each step from the one before."""
    full = parse(data)
    deals = data["deals"]
    cut = draw.draw(st.integers(0, len(deals)), "cut")
    shorter = {**data, "deals": deals[:cut], "ended": False}
    if cut < len(deals):
        shorter.pop("adjustments", None)  # they may name a deal that is cut off
        if draw.draw(st.booleans(), "same adjustments") and all(
                a["deal"] <= cut for a in data.get("adjustments", [])):
            shorter["adjustments"] = data.get("adjustments", [])
    _same_replay(parse(data, previous=parse(shorter)), full)
    _same_replay(parse(shorter, previous=full), parse(shorter))
    _same_replay(parse({**data, "title": "Another"}, previous=full),
                 parse({**data, "title": "Another"}))
    step = parse({**data, "deals": [], "ended": False, "adjustments": []})
    for count in range(1, len(deals) + 1):
        adjustments = [a for a in data.get("adjustments", []) if a["deal"] <= count]
        step = parse({**data, "deals": deals[:count], "ended": False, "adjustments": adjustments},
                     previous=step)
    _same_replay(parse(data, previous=step), full)
    if deals:  # the last deal entered bid by bid, each step replayed from the one before
        last = deals[-1]
        seats = range(len(data["players"]))
        entered = [s for s in seats if last["bids"][s] is not None]
        for keep in range(len(entered) + 1):
            partial = {**data, "deals": [
                *deals[:-1], {**{k: v for k, v in last.items() if k != "tricks"},
                              "bids": [last["bids"][s] if s in entered[:keep] else None
                                       for s in seats]}], "ended": False}
            if any(a["deal"] == len(deals) for a in data.get("adjustments", [])):
                partial["adjustments"] = [a for a in data["adjustments"] if a["deal"] < len(deals)]
            try:
                want = parse(partial)
            except GameFileError:
                continue  # these bids are not a prefix in bidding order
            _same_replay(parse(partial, previous=step), want)
            step = want
    finished = [i for i, deal in enumerate(deals) if "tricks" in deal]
    # a correction: one deal's tricks moved round the table, the deals after it the same
    if finished:
        i = draw.draw(st.sampled_from(finished), "corrected")
        tricks = deals[i]["tricks"]
        corrected = {**data, "deals": [*deals[:i], {**deals[i], "tricks": tricks[1:] + tricks[:1]},
                                       *deals[i + 1:]]}
        try:
            other = parse(corrected)
        except GameFileError:
            return  # the corrected scores end the game before its last deals
        _same_replay(parse(data, previous=other), full)
        _same_replay(parse(corrected, previous=full), other)


@GAMES
@given(game_files())
def test_normalized_is_the_game_as_it_is_stored_and_read_back(data: dict[str, Any]) -> None:
    """normalized(game) is what replaying the stored input part gives, without replaying it."""
    game = parse(data)
    _same_replay(normalized(game), parse(to_input(game)))


# ---- RULES.md §6: settlement --------------------------------------------------------------------

@st.composite
def settlements(draw: st.DrawFn) -> tuple[Stakes, list[Fraction], list[int], str]:
    players = draw(st.integers(2, 10))
    halves = st.integers(-400, 400).map(lambda x: Fraction(x, 2))
    totals = draw(st.lists(halves, min_size=players, max_size=players))
    wins = draw(st.sampled_from(["highest", "lowest", "scratch"]))
    best = max(totals) if wins == "highest" else min(totals)
    leaders = [i for i, t in enumerate(totals) if t == best]
    winners = leaders if wins != "scratch" else leaders[:1]
    rate = draw(st.decimals(min_value=Decimal("0.001"), max_value=Decimal(5), places=3))
    kind = draw(st.sampled_from(["pairwise", "to-winner", "ante"]))
    bonus = draw(st.sampled_from([None, Decimal(10), Decimal("2.5")]))
    if kind == "ante":
        return Stakes(ante=rate), totals, winners, wins
    return Stakes(per_point=rate, settlement=kind, hard_score_bonus=bonus), totals, winners, wins


def exact_nets(stakes: Stakes, totals: list[Fraction], winners: list[int],
               wins: str) -> list[Fraction]:
    """RULES.md §6, written out: pairwise, to-winner (shared by tied winners), bonus, ante."""
    players = len(totals)
    if stakes.ante is not None:
        ante = Fraction(stakes.ante)
        return [ante * players / len(winners) * (i in winners) - ante for i in range(players)]
    sign = 1 if wins == "highest" else -1
    scores = [sign * t for t in totals]
    if stakes.hard_score_bonus is not None:
        scores = [s + Fraction(stakes.hard_score_bonus) * (i in winners)
                  for i, s in enumerate(scores)]
    r = Fraction(stakes.per_point or 0)
    if stakes.settlement == "pairwise":
        return [r * sum(s - other for other in scores) for s in scores]
    nets = [Fraction(0)] * players
    for i in range(players):
        if i not in winners:
            for w in winners:
                nets[i] -= r * (scores[w] - scores[i]) / len(winners)
                nets[w] += r * (scores[w] - scores[i]) / len(winners)
    return nets


@settings(max_examples=200, deadline=None)
@given(settlements())
def test_settlement_nets_add_up_to_exactly_zero_and_the_payments_reproduce_them(
        case: tuple[Stakes, list[Fraction], list[int], str]) -> None:
    """RULES.md §6: each net is the exact amount rounded to cents; the nets add to exactly 0.00; at
    most P − 1 payments reproduce them."""
    stakes, totals, winners, wins = case
    result = settle(stakes, totals, winners, wins)
    exact = exact_nets(stakes, totals, winners, wins)
    assert sum(result.net) == 0
    for got, want in zip(result.net, exact):
        assert got == got.quantize(Decimal("0.01"))
        assert abs(Fraction(got) - want) < Fraction(1, 100)
    assert len(result.payments) <= len(totals) - 1
    flow = [Decimal(0)] * len(totals)
    for pay in result.payments:
        assert pay.amount > 0 and pay.payer != pay.payee
        flow[pay.payer] -= pay.amount
        flow[pay.payee] += pay.amount
    assert flow == list(result.net)
