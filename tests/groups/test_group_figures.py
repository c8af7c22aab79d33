"""A group's figures (GROUPS.md): statistics checked by hand on small groups and against a count
made here from the game files' exports; ratings against the ``openskill`` package called
directly, on random groups of random games (ties, absences, cooperative games, ended early)."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from scorekeeper.groups.figures import Figures, entry
from scorekeeper.rules.bidding import allowed_bids
from scorekeeper.rules.gamefile import GameFile, export, parse
from scorekeeper.rules.values import name_key

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: The same people written as different games write them.
SPELLINGS = {"ann": ["Ann", "ann", " ANN "], "bob": ["Bob", "bob"], "cy": ["Cy", "CY"],
             "dee": ["Dee"], "eve": ["Eve", "eve"], "fay": ["Fay"]}


def group_of(games: list[GameFile]) -> Figures:
    return Figures().extended(((f"game{number}", 1), entry(game))
                              for number, game in enumerate(games))


def play(document: dict[str, Any], rng: random.Random, deals: int, end: bool) -> GameFile:
    """A game played with random legal bids and random tricks, ``deals`` deals at most."""
    document = {**document, "deals": []}
    game = parse(document)
    for _ in range(deals):
        state = game.game
        deal = state.next_deal
        if state.finished or deal is None or deal.cards is None:
            break
        order = deal.bidding_order(len(game.players))
        bids: list[int | None] = [None] * len(game.players)
        earlier: list[int] = []
        for seat in order:
            bid = rng.choice(allowed_bids(game.rules.bidding, deal.cards, earlier,
                                          dealer=seat == deal.dealer))
            bids[seat], earlier = bid, [*earlier, bid]
        tricks: list[int | None] = [None] * len(game.players)
        for seat in order:
            tricks[seat] = 0
        for _ in range(deal.cards):
            tricks[rng.choice(order)] += 1  # type: ignore[operator]
        document["deals"] = [*document["deals"], {"bids": bids, "tricks": tricks}]
        game = parse(document)
    if end and not game.game.finished and game.game.deals:
        game = parse({**document, "ended": True})
    return game


@st.composite
def games(draw: st.DrawFn) -> list[GameFile]:
    """2 to 5 games of 2 to 5 of six people, each name spelt as one of its games spells it."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    made = []
    for _ in range(draw(st.integers(1, 5))):
        people = draw(st.lists(st.sampled_from(sorted(SPELLINGS)), min_size=2, max_size=5,
                               unique=True))
        names = [draw(st.sampled_from(SPELLINGS[person])) for person in people]
        kind = draw(st.sampled_from(["highest", "lowest", "cooperative", "tie"]))
        rules: dict[str, Any] = {"deal": "fixed", "max_cards": draw(st.integers(1, 3)),
                                 "deals": draw(st.integers(1, 4))}
        if kind == "lowest":
            rules["scoring"] = "negative"
        elif kind == "cooperative":
            rules = {"preset": "cooperative", "max_cards": 2}
        document: dict[str, Any] = {"players": names, "rules": rules,
                                    "first_dealer": draw(st.integers(0, len(names) - 1))}
        if len(names) > 2 and draw(st.booleans()):  # somebody arrives late, or sits out a deal
            seat = draw(st.integers(0, len(names) - 1))
            if seat != document["first_dealer"]:
                document["absent"] = [{"player": seat, "from": 1, "to": draw(st.integers(1, 2))}]
        made.append(play(document, rng, draw(st.integers(1, 6)), draw(st.booleans())))
    return made


def counted(games: list[GameFile]) -> dict[str, dict[str, int]]:
    """GROUPS.md's statistics, counted here from the exports (who was dealt in, bids, tricks)."""
    sums: dict[str, dict[str, int]] = {}
    for game in games:
        doc = export(game)
        if not doc["finished"]:
            continue
        cooperative = game.rules.cooperative
        seen: dict[str, dict[str, int]] = {}
        for deal in doc["deals"]:
            if "tricks" not in deal:
                continue
            for seat in deal["present"]:
                key = name_key(doc["players"][seat])
                row = seen.setdefault(key, dict.fromkeys(
                    ("deals", "made", "zero_bids", "zero_made", "bids", "tricks"), 0))
                bid, took = deal["bids"][seat], deal["tricks"][seat]
                row["deals"] += 1
                row["made"] += bid == took
                row["zero_bids"] += bid == 0
                row["zero_made"] += bid == 0 and took == 0
                row["bids"] += bid
                row["tricks"] += took
        winners = {name_key(name) for name in doc["winners"]}
        for key, row in seen.items():
            total = sums.setdefault(key, dict.fromkeys(("games", "wins", *row), 0))
            total["games"] += 1
            total["wins"] += key in winners and not cooperative
            for name, value in row.items():
                total[name] += value
    return sums


def rated(games: list[GameFile]) -> dict[str, tuple[float, float]]:
    """The ratings, by openskill called directly on each finished, non-cooperative game in order."""
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    for game in games:
        doc = export(game)
        if not doc["finished"] or game.rules.cooperative:
            continue
        dealt = {name_key(doc["players"][seat]) for deal in doc["deals"] if "tricks" in deal
                 for seat in deal["present"]}
        places = [(name_key(s["player"]), s["rank"]) for s in doc["standings"]
                  if name_key(s["player"]) in dealt]
        if len(places) < 2:
            continue
        teams = [[ratings.get(key) or model.rating()] for key, _ in places]
        for (key, _), (new,) in zip(places, model.rate(teams, ranks=[rank for _, rank in places])):
            ratings[key] = new
    return {key: (r.mu, r.sigma) for key, r in ratings.items()}


@FAST
@given(games())
def test_statistics_match_a_count_made_from_the_game_files(made: list[GameFile]) -> None:
    figures = group_of(made)
    expected = counted(made)
    assert set(figures.players) == set(expected)
    for key, row in expected.items():
        tally = figures.players[key].tally
        assert {name: getattr(tally, name) for name in row} == row


@FAST
@given(games())
def test_ratings_match_openskill_called_directly(made: list[GameFile]) -> None:
    figures = group_of(made)
    expected = rated(made)
    for key, player in figures.players.items():
        mu, sigma = expected.get(key, (25.0, 25 / 3))
        assert player.rating.mu == pytest.approx(mu, abs=1e-9)
        assert player.rating.sigma == pytest.approx(sigma, abs=1e-9)
        assert player.rating.ordinal == pytest.approx(mu - 3 * sigma, abs=1e-9)
    ordinals = [p.rating.ordinal for p in figures.leaderboard()]
    assert ordinals == sorted(ordinals, reverse=True)


@FAST
@given(games(), st.data())
def test_figures_counted_in_one_go_or_game_by_game_are_the_same(made: list[GameFile],
                                                                data: st.DataObject) -> None:
    cut = data.draw(st.integers(0, len(made)))
    whole = group_of(made)
    start = group_of(made[:cut])
    for number, game in enumerate(made[cut:], start=cut):
        start = start.extended([((f"game{number}", 1), entry(game))])
    assert {k: (p.tally, p.rating) for k, p in start.players.items()} == \
        {k: (p.tally, p.rating) for k, p in whole.players.items()}


def finished(players: list[str], deals: list[dict[str, Any]], **rules: Any) -> GameFile:
    game = parse({"players": players,
                  "rules": {"deal": "fixed", "max_cards": 2, "deals": len(deals), **rules},
                  "deals": deals})
    assert game.game.finished
    return game


def test_a_small_group_counted_by_hand() -> None:
    # Game 1, 2 cards, hook, exact scoring (10 + bid when made); dealers Ann, then Bob.
    # Deal 1: Ann 1/1 made, Bob 0/1 missed, Cy 0/0 made. Deal 2: Ann 0/0 made, Bob 1/1 made,
    # Cy 0/1 missed. Totals Ann 11+10 = 21, Bob 0+11 = 11, Cy 10+0 = 10: Ann, Bob, Cy.
    one = finished(["Ann", "Bob", "Cy"], [{"bids": [1, 0, 0], "tricks": [1, 1, 0]},
                                          {"bids": [0, 1, 0], "tricks": [0, 1, 1]}])
    # Game 2: "ann" and "BOB" are Ann and Bob. Dealer ann (hook) bids 0, takes 1; BOB 1/1 wins.
    two = finished(["ann", "BOB"], [{"bids": [0, 1], "tricks": [1, 1]}])
    # Game 3 is cooperative: it counts in games and deals, not in wins nor ratings.
    three = parse({"players": ["Cy", "Dee"], "rules": {"preset": "cooperative", "max_cards": 1},
                   "deals": [{"bids": [0, 1], "tricks": [0, 1]}]})
    assert three.game.finished
    figures = group_of([one, two, three])
    ann, bob, cy, dee = (figures.players[k] for k in ("ann", "bob", "cy", "dee"))
    assert ann.name == "ann" and bob.name == "BOB"  # the spelling of their most recent game
    assert (ann.tally.games, ann.tally.wins, ann.tally.deals, ann.tally.made) == (2, 1, 3, 2)
    assert (ann.tally.zero_bids, ann.tally.zero_made, ann.tally.bids,
            ann.tally.tricks) == (2, 1, 1, 2)
    assert (ann.tally.hook_deals, ann.tally.hook_made) == (2, 1)
    assert (bob.tally.games, bob.tally.wins, bob.tally.deals, bob.tally.made) == (2, 1, 3, 2)
    assert (bob.tally.bids, bob.tally.tricks, bob.tally.hook_deals,
            bob.tally.hook_made) == (2, 3, 1, 1)
    assert bob.tally.overbid == pytest.approx((2 - 3) / 3)
    assert bob.tally.hit_rate == pytest.approx(2 / 3)
    assert (cy.tally.games, cy.tally.wins, cy.tally.deals, cy.tally.made,
            cy.tally.zero_bids) == (2, 0, 3, 2, 3)
    assert (dee.tally.games, dee.tally.wins, dee.tally.deals, dee.tally.made) == (1, 0, 1, 1)
    assert (dee.rating.mu, dee.rating.sigma) == (25.0, 25 / 3)  # played only a cooperative game
    assert figures.rated == [0, 1]  # two rated games
    model = PlackettLuce()
    first = model.rate([[model.rating()], [model.rating()], [model.rating()]],
                       ranks=[1, 2, 3])  # Ann, Bob, Cy
    second = model.rate([[first[1][0]], [first[0][0]]], ranks=[1, 2])  # Bob, Ann
    assert bob.rating.mu == pytest.approx(second[0][0].mu) and (
        ann.rating.mu == pytest.approx(second[1][0].mu))
    assert bob.rating.sigma == pytest.approx(second[0][0].sigma)
    assert cy.rating.mu == pytest.approx(first[2][0].mu)
    assert figures.leaderboard()[-1].key == "cy"


def test_a_shared_win_counts_as_a_win_and_tied_players_share_a_rank_in_the_rating() -> None:
    tie = finished(["Ann", "Bob", "Cy"], [{"bids": [1, 1, 1], "tricks": [1, 1, 0]}], max_cards=2)
    figures = group_of([tie])
    assert figures.players["ann"].tally.wins == figures.players["bob"].tally.wins == 1
    assert figures.players["ann"].rating == figures.players["bob"].rating
    assert figures.players["cy"].rating.mu < 25 < figures.players["ann"].rating.mu


def test_an_unfinished_game_counts_for_nothing_and_a_late_arrival_never_dealt_in_did_not_play(
) -> None:
    playing = parse({"players": ["Ann", "Bob"],
                     "rules": {"deal": "fixed", "max_cards": 1, "deals": 3},
                     "deals": [{"bids": [1, 1], "tricks": [1, 0]}]})
    ended = parse({"players": ["Ann", "Bob", "Cy"],
                   "rules": {"deal": "fixed", "max_cards": 1, "deals": 5},
                   "absent": [{"player": 2, "from": 1}], "ended": True,
                   "deals": [{"bids": [1, 1, None], "tricks": [1, 0, None]}]})
    figures = group_of([playing, ended])
    assert set(figures.players) == {"ann", "bob"}
    assert figures.players["ann"].tally.games == 1 and figures.players["ann"].tally.wins == 1


def test_figures_kept_per_version_are_those_counted_afresh_whatever_changes() -> None:
    from datetime import UTC, datetime

    import orjson

    from scorekeeper.groups.figures import figures
    from scorekeeper.rules.gamefile import to_input
    from scorekeeper.store.groups import Member

    rng = random.Random(3)
    stored: dict[int, str] = {}
    read: list[list[int]] = []

    def member(number: int, game: GameFile, version: int = 1) -> Member:
        stored[number] = orjson.dumps(to_input(game)).decode()
        now = datetime.now(UTC)
        return Member(number, f"token{number}", f"view{number}", "", version, now, now)

    def data(ids: list[int]) -> dict[int, str]:
        read.append(ids)
        return {i: stored[i] for i in ids}

    def afresh(members: list[Member]) -> Figures:
        return group_of([parse(orjson.loads(stored[m.id])) for m in members])

    document = {"players": ["Ann", "Bob", "Cy"],
                "rules": {"deal": "fixed", "max_cards": 2, "deals": 3}}
    members = [member(n, play(document, rng, 3, False)) for n in range(4)]
    group = f"group{rng.random()}"
    for size in (2, 4):  # then two games added at the end: only they are read
        assert summary(figures(group, members[:size], data)) == summary(afresh(members[:size]))
    assert read == [[0, 1], [2, 3]]
    # a game being played, at the end
    playing = [*members, member(4, play(document, rng, 1, False))]
    assert not parse(orjson.loads(stored[4])).game.finished
    assert summary(figures(group, playing, data)) == summary(afresh(playing))
    # its taps: a new version, finished
    playing[4] = member(4, play(document, rng, 3, False), version=2)
    assert summary(figures(group, playing, data)) == summary(afresh(playing))
    assert read[-1] == [4]
    without = playing[:1] + playing[2:]  # a game taken out of the middle
    assert summary(figures(group, without, data)) == summary(afresh(without))
    assert summary(figures(group, playing, data)) == summary(afresh(playing))


def summary(figures: Figures) -> dict[str, object]:
    return {key: (p.name, p.tally, p.rating, len(p.history)) for key, p in figures.players.items()}


def whole(figures: Figures) -> tuple[object, ...]:
    """Everything the figures say: the games, each player's sums, rating and
    story, the rated games."""
    return (figures.keys, figures.entries, figures.rated, figures.settled,
            {key: (p.name, p.tally, p.rating,
                   [(s.game, s.line, s.rating, s.hit) for s in p.history])
             for key, p in figures.players.items()})


GROUPS = itertools.count()
#: What a table does to a group: add a game at the end, take one out, put one back, tap in a game.
CHANGES = st.lists(st.tuples(st.sampled_from(["add", "remove", "back", "tap"]), st.integers(0, 20)),
                   max_size=12)


@FAST
@given(games(), CHANGES)
def test_figures_after_any_additions_and_removals_are_a_full_recount(
        pool: list[GameFile], changes: list[tuple[str, int]]) -> None:
    from datetime import UTC, datetime

    import orjson

    from scorekeeper.groups.figures import figures
    from scorekeeper.rules.gamefile import to_input
    from scorekeeper.store.groups import Member

    files = [orjson.dumps(to_input(game)).decode() for game in pool]
    now = datetime.now(UTC)
    # each game of the group: [id, which game file, version, in the group]
    rows: list[list[int]] = []
    # a group of its own: the worker keeps entries by game token and version
    group = f"group{next(GROUPS)}"
    earlier: list[tuple[Figures, tuple[object, ...]]] = []

    def data(ids: list[int]) -> dict[int, str]:
        return {i: files[rows[i][1]] for i in ids}

    for change, n in [("add", 0), *changes]:
        if change == "add":
            rows.append([len(rows), n % len(files), 1, 1])
        elif change in ("remove", "back"):
            rows[n % len(rows)][3] = change == "back"
        else:  # a tap: a new version of the game, which may now be another file (finished or not)
            rows[n % len(rows)][1:3] = [(rows[n % len(rows)][1] + 1) % len(files),
                                        rows[n % len(rows)][2] + 1]
        members = [Member(i, f"{group}-{i}", f"view{i}", "", version, now, now)
                   for i, _f, version, on in rows if on]
        counted = figures(group, members, data)
        assert whole(counted) == whole(Figures().extended(
            (m.key, entry(parse(orjson.loads(files[rows[m.id][1]])))) for m in members))
        # figures once made never change, whatever is counted after them
        for kept, before in earlier:
            assert whole(kept) == before
        earlier.append((counted, whole(counted)))
