"""Property tests (Hypothesis) of sealed bids in the rules core (SEATS.md, "Sealed bids"; "In the
game file and the API"): the ``sealed`` rule, what the sealed bids kept beside a game file read as,
whatever they hold, and the export every link reads while they are sealed.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.gamefile import export, parse
from scorekeeper.rules.presets import make_rules
from scorekeeper.rules.sealed import Sealed, lost, seal_export, sealed

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]

#: Anything a stored value may hold.
anything = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 30) | st.text(max_size=6),
    lambda children: st.lists(children, max_size=6) | st.dictionaries(st.text(max_size=6),
                                                                      children, max_size=4),
    max_leaves=10)


@FAST
@given(st.booleans(), st.sampled_from([None, True, False]), st.integers(2, 10))
def test_bids_are_sealed_where_they_are_made_at_once_unless_the_table_says_them_aloud(
        simultaneous: bool, given_sealed: bool | None, players: int) -> None:
    rules = {"bidding": "free", "simultaneous": simultaneous}
    if given_sealed is not None:
        rules["sealed"] = given_sealed
    made = make_rules(rules, players)
    assert made.sealed == (simultaneous and given_sealed is not False)
    # how the bids are entered, not a rule of play: the same rules otherwise
    assert made == make_rules({"bidding": "free", "simultaneous": simultaneous}, players)


@FAST
@given(anything.filter(lambda value: value is not None and type(value) is not bool))
def test_a_sealed_rule_other_than_true_or_false_is_refused_naming_it(value: Any) -> None:
    with pytest.raises(RulesError, match="^Sealed bids must be true or false"):
        make_rules({"preset": "british-oh-hell", "sealed": value}, 4)


@st.composite
def sealed_games(draw: st.DrawFn) -> tuple[Any, dict[str, Any]]:
    """A game of bids at once at its bids step (a few deals played), and entries of any shape."""
    players = draw(st.integers(2, 6))
    done = draw(st.integers(0, 2))
    deals = [{"bids": [0] * players, "tricks": [1] + [0] * (players - 1)} for _ in range(done)]
    game = parse({"players": NAMES[:players], "deals": deals,
                  "rules": {"preset": "british-oh-hell", "deal": "fixed", "max_cards": 1,
                            "deals": 4}})
    good = st.fixed_dictionaries({"bid": st.integers(0, 1), "phone": st.sampled_from("pq")})
    entries = draw(st.one_of(
        st.fixed_dictionaries({"deal": st.just(done + 1),
                               "bids": st.lists(st.none() | good, min_size=players,
                                                max_size=players)}),
        st.dictionaries(st.sampled_from(["deal", "bids", "tricks"]), anything)))
    return game, entries


def read(case: tuple[Any, dict[str, Any]]) -> tuple[Any, dict[str, Any], Sealed]:
    """A game of ``sealed_games``, its entries, and the sealed bids they read as."""
    game, entries = case
    seen = sealed(game, entries)
    assert seen is not None
    return game, entries, seen


@FAST
@given(sealed_games())
def test_what_is_kept_beside_the_game_file_reads_as_sealed_bids_of_the_deal_being_played_only(
        case: tuple[Any, dict[str, Any]]) -> None:
    game, entries, seen = read(case)
    assert seen.deal == len(game.game.deals) + 1
    players = len(game.players)
    assert len(seen.bid_in) == players == len(seen.bids)
    given_bids = entries.get("bids") if entries.get("deal") == seen.deal else None
    for seat, bid in enumerate(seen.bids):
        entry = given_bids[seat] if isinstance(given_bids, list) and len(given_bids) == players \
            else None
        assert bid == (entry["bid"] if isinstance(entry, dict) and type(entry.get("bid")) is int
                       and isinstance(entry.get("phone"), str) else None)
        assert seen.bid_in[seat] == (bid is not None)
    assert set(seen.mine("p")) | set(seen.mine("q")) == {s for s, b in enumerate(seen.bids)
                                                           if b is not None}
    assert lost(seen, game, entries) is None  # kept as they are: nothing lost


@FAST
@given(sealed_games())
def test_while_sealed_the_export_holds_null_bids_and_who_has_bid_and_imports_again(
        case: tuple[Any, dict[str, Any]]) -> None:
    game, _entries, seen = read(case)
    doc = seal_export(export(game), game, seen)
    if not seen.started:
        assert doc == export(game)
        return
    deal = doc["deals"][-1]
    assert deal["number"] == seen.deal and deal["bids"] is None
    assert deal["bid_in"] == list(seen.bid_in) and "bid_total" not in deal
    again = parse(doc)  # a file exported then imports: the deal is one not bid yet
    assert [d.bids for d in again.game.deals] == [
        *(d.bids for d in game.game.deals), (None,) * len(game.players)]


@FAST
@given(sealed_games(), st.sampled_from(["sealed", "simultaneous"]))
def test_a_change_that_would_lose_the_sealed_bids_or_show_them_is_refused_naming_the_deal(
        case: tuple[Any, dict[str, Any]], change: str) -> None:
    game, entries, seen = read(case)
    rules = {"preset": "british-oh-hell", "deal": "fixed", "max_cards": 1, "deals": 4,
             **({"sealed": False} if change == "sealed" else
                {"simultaneous": False, "bidding": "hook"})}
    deals = [{"bids": list(d.bids), "tricks": list(d.tricks or ())} for d in game.deals]
    said = lost(seen, parse({"players": list(game.players), "rules": rules, "deals": deals}),
                entries)
    assert said == (None if not seen.started else
                    f"Deal {seen.deal}: the bids are sealed until every player has bid, and this "
                    "change would lose them. Make it once the bids are shown, or take the bids "
                    "back first.")
