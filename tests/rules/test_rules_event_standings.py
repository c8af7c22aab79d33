"""A club night's standings (EVENTS.md, "Ranking"): a night worked out by hand, and Hypothesis
against a count written out separately."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.ranking import RoundResult, TableResult, lines_of, standings, tally

NIGHT = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def table(players: str, totals: list[int], places: list[int], won: str, made: list[int],
          cooperative: bool = False) -> TableResult:
    names = tuple(players.split())
    return TableResult(names, tuple(totals), tuple(places), tuple(n in won.split() for n in names),
                       tuple(10 for _ in names), tuple(made), cooperative)


def night() -> list[RoundResult]:
    """Hal arrives for round 3, Dee withdraws after round 2, Gus asked a bye in round 2."""
    return [
        RoundResult((table("Ann Bob Cy Dee", [40, 25, 25, 10], [1, 2, 2, 4], "Ann", [6, 4, 4, 2]),
                     table("Eve Fay Gus", [30, 30, 12], [1, 1, 3], "Eve Fay", [5, 5, 2]))),
        RoundResult((table("Bob Dee Fay", [21, 35, 35], [3, 1, 1], "Dee Fay", [3, 6, 6]),
                     table("Ann Cy Eve", [15, 15, 15], [1, 1, 1], "Ann Cy Eve", [5, 5, 5],
                           cooperative=True)),
                    byes=("Gus",)),
        RoundResult((table("Hal Ann Gus Fay", [50, 20, 20, 20], [1, 2, 2, 2], "Hal", [7, 3, 3, 3]),
                     table("Bob Cy Eve", [12, 30, 18], [3, 1, 2], "Cy", [1, 6, 4]))),
    ]


def test_a_night_worked_out_by_hand_in_percent() -> None:
    # Round 1, table of 4: Ann above all 3 → 100·3/3 = 100; Bob and Cy above Dee, level with each
    # other → 100·(1 + ½)/3 = 50; Dee 0. Table of 3: Eve and Fay level above Gus → 100·1.5/2 = 75;
    # Gus 0.
    # Round 2: Bob last of 3 → 0; Dee and Fay level first → 100·(1 + ½)/2 = 75. The cooperative game
    # scores Ann, Cy, Eve 50 each. Gus's bye: 50. Dee: 75 (Hal not arrived: 0).
    # Round 3: Hal first of 4 → 100; Ann, Gus, Fay level below him → 100·(0 + 2·½)/3 = 100/3.
    # Cy above both → 100; Eve above Bob → 100·1/2 = 50; Bob 0; Dee withdrew: 0.
    # Ann 100 + 50 + 100/3 = 550/3; Fay 75 + 75 + 100/3 = 550/3, level: the final totals decide,
    # Fay 30 + 35 + 20 = 85 above Ann 40 + 15 + 20 = 75. Cy 50 + 50 + 100 = 200;
    # Eve 75 + 50 + 50 = 175; Hal 100; Gus 0 + 50 + 100/3 = 250/3; Dee 0 + 75 = 75;
    # Bob 50 + 0 + 0 = 50.
    lines = standings(NIGHT, night(), "percent")
    assert [(line.rank, line.name, line.score) for line in lines] == [
        (1, "Cy", 200), (2, "Fay", Fraction(550, 3)), (3, "Ann", Fraction(550, 3)), (4, "Eve", 175),
        (5, "Hal", 100), (6, "Gus", Fraction(250, 3)), (7, "Dee", 75), (8, "Bob", 50)]
    by_name = {line.name: line for line in lines}
    assert by_name["Ann"].per_round == (100, 50, Fraction(100, 3))
    assert by_name["Hal"].per_round == (0, 0, 100)
    assert by_name["Dee"].per_round == (0, 75, 0)
    # tables won: a place among the winners, never in a cooperative game
    assert {line.name: line.tables_won for line in lines} == {
        "Cy": 1, "Fay": 2, "Ann": 1, "Eve": 1, "Hal": 1, "Gus": 0, "Dee": 1, "Bob": 0}
    assert {line.name: line.rounds_played for line in lines} == {
        "Cy": 3, "Fay": 3, "Ann": 3, "Eve": 3, "Hal": 1, "Gus": 2, "Dee": 2, "Bob": 3}
    # Ann's bids made: 6 + 5 + 3 of 10 + 10 + 10 deals
    assert (by_name["Ann"].made, by_name["Ann"].deals, by_name["Ann"].totals) == (14, 30, 75)


def test_a_night_worked_out_by_hand_in_totals() -> None:
    # Round 2's bye: the average of that round's scores, the cooperative game's players scoring 0:
    # (21 + 35 + 35 + 0 + 0 + 0) / 6 = 91/6. Gus: 12 + 91/6 + 20 = 283/6.
    # Fay 30 + 35 + 20 = 85; Ann 40 + 0 + 20 = 60; Bob 25 + 21 + 12 = 58; Cy 25 + 0 + 30 = 55;
    # Hal 50; Eve 30 + 0 + 18 = 48; Gus 283/6 ≈ 47.17; Dee 10 + 35 = 45.
    lines = standings(NIGHT, night(), "totals")
    assert [(line.rank, line.name, line.score) for line in lines] == [
        (1, "Fay", 85), (2, "Ann", 60), (3, "Bob", 58), (4, "Cy", 55), (5, "Hal", 50),
        (6, "Eve", 48), (7, "Gus", Fraction(283, 6)), (8, "Dee", 45)]


def test_players_level_on_score_and_totals_share_the_rank() -> None:
    game = table("Ann Bob Cy", [20, 20, 5], [1, 1, 3], "Ann Bob", [1, 1, 1])
    lines = standings(["Cy", "Bob", "Ann", "Dee"], [RoundResult((game,))], "percent")
    assert [(line.rank, line.name) for line in lines] == [(1, "Bob"), (1, "Ann"), (3, "Cy"),
                                                          (4, "Dee")]


def test_names_are_matched_without_case() -> None:
    game = table("ann BOB Cy", [20, 10, 5], [1, 2, 3], "ann", [1, 1, 1])
    assert [line.name for line in standings(["Ann", "Bob", "Cy"], [RoundResult((game,))],
                                            "percent")] == ["Ann", "Bob", "Cy"]


@st.composite
def nights(draw: st.DrawFn) -> tuple[list[str], list[RoundResult]]:
    players = [f"P{i}" for i in range(draw(st.integers(3, 14)))]
    rounds = []
    for _ in range(draw(st.integers(0, 4))):
        order = draw(st.permutations(players))
        byes = order[:draw(st.integers(0, 2))]
        rest = order[len(byes):]
        tables = []
        while len(rest) >= 3:
            size = min(len(rest), draw(st.integers(3, 5)))
            names, rest = rest[:size], rest[size:]
            totals = draw(st.lists(st.integers(-50, 200), min_size=size, max_size=size))
            places = [1 + sum(other > mine for other in totals) for mine in totals]
            tables.append(TableResult(tuple(names), tuple(totals), tuple(places),
                                      tuple(p == 1 for p in places), tuple([5] * size),
                                      tuple(draw(st.integers(0, 5)) for _ in names),
                                      draw(st.booleans())))
        rounds.append(RoundResult(tuple(tables), tuple(byes)))
    return players, rounds


def counted(players: list[str], rounds: list[RoundResult],
            ranking: str) -> dict[str, tuple[Fraction, Fraction]]:
    """Each player's event score and sum of final totals, by a count of their own: in percent, a
    point for each player of the table placed below, half for each placed level."""
    score = {name: Fraction(0) for name in players}
    totals = {name: Fraction(0) for name in players}
    for result in rounds:
        got: dict[str, Fraction] = {}
        for game in result.tables:
            for i, name in enumerate(game.players):
                totals[name] += game.totals[i]
                if game.cooperative:
                    got[name] = Fraction(50) if ranking == "percent" else Fraction(0)
                elif ranking == "totals":
                    got[name] = Fraction(game.totals[i])
                else:
                    points = sum(Fraction(1) if game.places[j] > game.places[i] else Fraction(1, 2)
                                 for j in range(len(game.players))
                                 if j != i and game.places[j] >= game.places[i])
                    got[name] = Fraction(100) * points / (len(game.players) - 1)
        for name in result.byes:
            got[name] = (Fraction(50) if ranking == "percent"
                         else sum(got.values(), Fraction(0)) / max(1, len(got)))
        for name in players:
            score[name] += got.get(name, Fraction(0))
    return {name: (score[name], totals[name]) for name in players}


@settings(max_examples=150, deadline=None)
@given(nights(), st.sampled_from(["percent", "totals"]))
def test_standings_agree_with_a_separate_count(night: tuple[list[str], list[RoundResult]],
                                               ranking: str) -> None:
    players, rounds = night
    expected = counted(players, rounds, ranking)
    lines = standings(players, rounds, ranking)  # type: ignore[arg-type]
    assert sorted(line.name for line in lines) == sorted(players)
    for line in lines:
        score, totals = expected[line.name]
        assert (line.score, line.totals) == (score, totals)
        assert line.rank == 1 + sum(other > (score, totals) for other in expected.values())
        assert len(line.per_round) == len(rounds)
        assert line.rounds_played == sum(line.name in game.players
                                         for r in rounds for game in r.tables)


@settings(max_examples=100, deadline=None)
@given(nights(), st.sampled_from(["percent", "totals"]), st.data())
def test_rounds_added_to_the_sums_of_earlier_rounds_rank_as_all_of_them_at_once(
        night: tuple[list[str], list[RoundResult]], ranking: str, data: st.DataObject) -> None:
    # The provisional standings add the round under way to the finished rounds' kept sums.
    players, rounds = night
    split = data.draw(st.integers(0, len(rounds)), label="rounds kept")
    kept = tally(players, rounds[:split], ranking)  # type: ignore[arg-type]
    added = tally(players, rounds[split:], ranking, after=kept)  # type: ignore[arg-type]
    assert lines_of(added) == standings(players, rounds, ranking)  # type: ignore[arg-type]
    assert lines_of(kept) == standings(players, rounds[:split], ranking)  # type: ignore[arg-type]
