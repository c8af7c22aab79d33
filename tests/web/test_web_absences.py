"""A game with absences (RULES.md §7) on its pages: only the players dealt in bid and take tricks,
a dash in the cells of a deal sat out, who joined late and who left said on the board, in the
standings and on the read-only page."""

from __future__ import annotations

import re
from collections.abc import Callable

from webhelpers import FOUR, Scorer, text

from scorekeeper.play import board
from scorekeeper.rules.gamefile import parse

Start = Callable[..., Scorer]

#: Deal 1 of a 4-player game to 3 cards, finished: Ann 11, Bob 11, Cy 1, Dee 10.
DEAL_1 = {"bids": [1, 1, 0, 0], "tricks": [1, 1, 1, 0]}


def part(html: str, marker: str, end: str) -> str:
    """The text of the piece of a page from ``marker`` to the next ``end``."""
    begin = html.index(">", html.index(marker)) + 1
    return text(html[begin:html.index(end, begin)])


def test_a_deal_sat_out_asks_only_the_players_dealt_in_and_shows_a_dash(start: Start) -> None:
    game = start(rules={"max_cards": 3}, deals=[DEAL_1], absent=[{"player": 2, "from": 2, "to": 2}])
    shown = game.page()
    assert "Bob deals · Dee bids first and leads Cy sits this deal out." in text(shown)
    assert re.findall(r'<span class="who">(\w+)', shown) == ["Dee", "Ann", "Bob"]
    game.bid(0, 0, 0)  # once those dealt in have bid, the tricks are asked: only theirs
    tricks = game.page()
    assert re.findall(r'name="tricks-(\d)" value="0"', tricks) == ["3", "0", "1"]
    assert game.post("/tricks", {"tricks-0": 0, "tricks-1": 2, "tricks-3": 0}).status_code == 302
    shown = game.page()
    row = re.search(r'<tr class="done">(?:(?!</tr>).)*?aria-describedby="correct-hint">'
                    r'<b class="dno">2<.*?</tr>', shown, re.DOTALL)
    assert row is not None
    cells = re.findall(r"<td[^>]*>.*?</td>", row.group(0), re.DOTALL)
    assert 'class="away"' in cells[2] and text(cells[2]) == "–"
    assert part(shown, 'class="chips"', "</ul>") == "Ann ✓ 10 Bob ✗ 2 Dee ✓ 10"
    assert "– not dealt in" in text(shown)
    assert game.export()["deals"][1]["points"] == [10, 2, None, 10]


def test_bids_shown_at_once_are_counted_among_the_players_dealt_in(start: Start) -> None:
    game = start(rules={"preset": "british-oh-hell", "deal": "down", "max_cards": 3},
                 absent=[{"player": 3, "from": 1, "to": 1}])
    shown = game.page()
    assert 'data-players="3"' in shown
    assert re.findall(r'name="bids-(\d)" value="0"', shown) == ["1", "2", "0"]
    response = game.post("/bids", {"bids-0": 1, "bids-1": 1, "bids-2": 0, "bids-3": 2})
    assert "A bid was sent for Dee, who sits this deal out" in text(response.get_data(as_text=True))
    assert game.post("/bids", {"bids-0": 1, "bids-1": 1, "bids-2": 0}).status_code == 302
    assert 'name="tricks-3"' not in game.page()


#: Eve joined at deal 2 with 12; Cy sat deal 2 out; Dee left after deal 2; deal 3 is next.
TABLE = {"players": [*FOUR, "Eve"], "rules": {"max_cards": 3},
         "absent": [{"player": 4, "from": 1, "to": 1}, {"player": 2, "from": 2, "to": 2},
                    {"player": 3, "from": 3}],
         "adjustments": [{"deal": 1, "player": 4, "points": 12, "reason": "joined late"}],
         "deals": [{"bids": [1, 1, 0, 0, None], "tricks": [1, 1, 1, 0, None]},
                   {"bids": [0, 0, None, 0, 0], "tricks": [0, 2, None, 0, 0]}]}


def test_the_board_says_who_joined_with_what_and_who_left_with_dashes_where_they_were_away(
        start: Start) -> None:
    game = start(**TABLE)
    for shown in (game.page(), game.client.get(f"/v/{game.view_token}").get_data(as_text=True)):
        words = text(shown)
        assert "Dee left after deal 2. Eve joined at deal 2 with 12." in words
        assert part(shown, 'class="standings-strip"', "</ol>") == (
            "★ Eve 22 Ann 21 Dee (left) 20 Bob 13 Cy 1")
        assert '<span class="name">Dee</span><span class="seat-note">left</span>' in shown
        rows = re.findall(r'<tr class="(?:done|now|todo)">(.*?)</tr>', shown, re.DOTALL)
        cells = [re.findall(r'<td class="(\w+)"', row) for row in rows]
        assert cells[0] == ["made", "made", "missed", "made", "away"]
        assert cells[1] == ["made", "missed", "away", "made", "made"]
        assert cells[2] == ["empty", "empty", "empty", "away", "empty"]  # deal 3, still to come
        eve = re.findall(r"<td[^>]*>.*?</td>", rows[0], re.DOTALL)[4]
        assert text(eve) == "– 12 +12 adj."  # the starting score, where it counts
        assert "sits this deal out" not in words  # nobody sits deal 3 out


def test_a_player_who_left_is_still_ranked_at_the_end(start: Start) -> None:
    game = start(**{**TABLE, "deals": [*TABLE["deals"], {"bids": [0, 0, 0, None, 0],
                                                         "tricks": [0, 1, 0, None, 0]}],
                    "rules": {"max_cards": 3, "deal": "down"}})
    shown = game.page()
    assert "Game over" in text(shown)
    assert part(shown, 'class="standings"', "</ol>") == (
        "1. Eve 32 2. Ann 31 3. Dee (left) 20 4. Bob 14 5. Cy 11")


def test_the_next_deal_names_those_who_sit_it_out(start: Start) -> None:
    game = start(players=[*FOUR, "Eve"], rules={"max_cards": 3},
                 absent=[{"player": 1, "from": 1, "to": 1}, {"player": 3, "from": 1, "to": 2}])
    assert "Bob and Dee sit this deal out." in text(game.page())


def test_notes_say_who_joined_with_what_and_who_left() -> None:
    game = parse({"players": ["Ann", "Bob", "Cy", "Eve"], "rules": {"max_cards": 3},
                  "absent": [{"player": 3, "from": 1, "to": 2}, {"player": 1, "from": 4},
                             {"player": 2, "from": 3, "to": 3}, {"player": 0, "from": 9}],
                  "adjustments": [{"deal": 2, "player": 3, "points": 12, "reason": "joined late"},
                                  {"deal": 2, "player": 3, "points": -2, "reason": "revoke"}],
                  "deals": [{"bids": [1, 1, 0, None], "tricks": [1, 1, 1, None]},
                            {"bids": [0, 1, 0, None], "tricks": [0, 1, 1, None]},
                            {"bids": [1, 0, None, 1], "tricks": [1, 0, None, 0]}]})
    assert board.seat_notes(game) == {0: ["leaves after deal 8"], 1: ["left after deal 3"],
                                      3: ["joined at deal 3 with 12"]}
    assert board.gone(game) == {1}
    assert board.sitting_out(game, 3) == [2] and board.sits_out(game, 3) == "Cy sits this deal out."
    assert board.sits_out(game, 4) == ""
    assert [row.away for row in board.board(game)[:5]] == [(3,), (3,), (2,), (1,), (1,)]


def test_a_late_arrival_without_a_starting_score_and_one_who_left_before_the_first_deal() -> None:
    game = parse({"players": FOUR, "rules": {"max_cards": 3},
                  "absent": [{"player": 1, "from": 1, "to": 1}, {"player": 2, "from": 1}],
                  "deals": [{"bids": [1, None, None, 1], "tricks": [2, None, None, 1]}]})
    assert board.seat_notes(game) == {1: ["joined at deal 2"], 2: ["left before the first deal"]}
