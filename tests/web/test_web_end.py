"""The end of a game: standings, winners, ties, the cooperative result, settlement, export,
delete."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from webhelpers import Scorer, csrf_from, text

from scorekeeper.rules.gamefile import parse

Start = Callable[..., Scorer]


def play_short_game(game: Scorer) -> None:
    """Three deals (2, 1, 2 cards); Bob ends on 31, Ann 22, Cy and Dee 21."""
    game.bid(1, 0, 0, 0)
    assert game.tricks(0, 1, 1, 0).status_code == 302
    game.bid(0, 0, 0, 0)
    assert game.tricks(1, 0, 0, 0).status_code == 302
    game.bid(0, 1, 0, 0)
    assert game.tricks(1, 0, 0, 1).status_code == 302


def test_the_end_shows_standings_winner_and_the_settlement(start: Start) -> None:
    game = start(rules={"max_cards": 2}, stakes={"per_point": "0.10", "currency": "€"})
    play_short_game(game)
    page = text(game.page())
    assert "Game over" in page and "★ Bob wins with 31." in page
    assert "1. Bob 31 2. Ann 22 3. Cy 21 3. Dee 21" in page
    assert "Ann −€0.70" in page and "Bob +€2.90" in page
    for payer, amount in (("Cy", "1.10"), ("Dee", "1.10"), ("Ann", "0.70")):
        assert f"{payer} pays Bob €{amount}" in page
    assert game.export()["settlement"]["net"] == {"Ann": "-0.70", "Bob": "2.90", "Cy": "-1.10",
                                                  "Dee": "-1.10"}
    assert "Deal 4" not in page and 'name="bid"' not in game.page()


def test_a_shared_win_is_said_so(start: Start) -> None:
    game = start(players=["Ann", "Bob"], rules={"max_cards": 1})
    game.bid(0, 0)
    game.tricks(1, 0)  # Ann 1 (missed), Bob 10
    assert "Bob wins with 10" in text(game.page())
    tied = start(players=["Ann", "Bob", "Cy"], rules={"max_cards": 1})
    tied.bid(0, 0, 0)
    tied.tricks(1, 0, 0)  # Ann took the trick; Bob and Cy made their 0
    assert "Bob and Cy share the win with 10" in text(tied.page())


def test_a_tie_for_the_lead_plays_a_tie_break_deal_when_the_rules_say_so(start: Start) -> None:
    game = start(players=["Ann", "Bob", "Cy"], rules={"preset": "denexa", "max_cards": 1})
    game.bid(0, 0, 0)
    assert game.tricks(1, 0, 0).status_code == 302  # Ann −10, Bob and Cy 10 each
    page = text(game.page())
    assert "Tie-break deal (deal 2) · 1 card" in page
    assert "The game ended with a tie for the lead" in page
    game.bid(0, 0, 0)
    assert game.tricks(0, 1, 0).status_code == 302
    assert "★ Cy wins with 20." in text(game.page())


def test_the_cooperative_result_is_the_number_of_deals_it_took(start: Start) -> None:
    game = start(players=["Ann", "Bob"], rules={"preset": "cooperative", "max_cards": 1})
    game.bid(1, 0)
    game.tricks(1, 0)  # Bob bid 1 and missed: dealt again
    page = text(game.page())
    assert "Re-deal · Deal 2" in page and "missed, so it is dealt again" in page
    game.bid(1, 0)  # Ann first now
    game.tricks(1, 0)
    assert "The table wins together: every deal made, in 2 deals." in text(game.page())


def test_a_cooperative_game_shows_made_and_missed_deals_never_points(start: Start) -> None:
    game = start(players=["Ann", "Bob", "Cy"], rules={"preset": "cooperative", "max_cards": 2})
    game.bid(1, 0, 1)  # Bob, Cy, then Ann deals: the bids add up to the 2 cards
    game.tricks(1, 0, 1)  # seating order: Bob took none of his 1, Cy one more than his 0
    page = game.page()
    board = text(re.search(r'<section class="board-box".*?</section>', page, re.DOTALL).group(0))  # type: ignore[union-attr]
    assert "Playing together: 0 deals made, 1 missed and dealt again." in board
    assert "1 / 1 ✗" not in board and "1 / 0 ✗" in board and "Total" not in board
    assert not re.search(r"<i>[^<]*</i> <b>", page)  # no points, no running totals
    last = text(re.search(r'<div class="last-deal">.*?</ul>', page, re.DOTALL).group(0))  # type: ignore[union-attr]
    assert last == "Deal 1 missed, so it is dealt again Ann ✓ Bob ✗ took 0 for 1 Cy ✗ took 1 for 0"
    assert 'id="adjust"' not in page  # nothing to add points to
    assert "1 missed and dealt again" in text(game.client.get("/").get_data(as_text=True))
    game.bid(1, 0, 1)  # the re-deal: Cy, Ann, then Bob deals
    game.tricks(0, 1, 1)
    game.bid(0, 0, 1)  # one card: Ann, Bob, then Cy deals
    game.tricks(0, 0, 1)
    game.bid(1, 0, 1)  # two cards: Bob, Cy, then Ann deals
    game.tricks(1, 1, 0)
    over = game.page()
    assert "The table wins together: every deal made, in 4 deals." in text(over)
    assert "1 deal missed and dealt again." in text(over) and "Total" not in text(over)
    assert "3 deals made, 1 missed and dealt again" in text(
        game.client.get("/").get_data(as_text=True))


def test_one_deal_is_counted_as_one_deal(start: Start) -> None:
    game = start(players=["Ann", "Bob", "Cy"],
                 rules={"preset": "cooperative", "max_cards": 1, "deal": "down"})
    game.bid(0, 1, 0)  # Bob, Cy, then Ann deals
    game.tricks(0, 0, 1)
    assert "every deal made, in 1 deal." in text(game.page())
    assert "Finished after 1 deal Open" in text(game.client.get("/").get_data(as_text=True))


def test_end_the_game_now_asks_first_and_can_be_taken_back(start: Start) -> None:
    game = start(rules={"max_cards": 3})
    game.bid(1, 1, 0, 0)
    game.tricks(1, 1, 1, 0)
    confirm = text(game.client.get(game.url + "/end").get_data(as_text=True))
    assert "End the game now?" in confirm and "Bob and Cy the winners" in confirm
    assert "ended" not in game.export()
    assert game.post("/end").status_code == 302
    html = game.page()
    page = text(html)
    assert "Game ended by the table" in page and "Bob and Cy share the win with 11" in page
    resume = re.search(r'<form method="post" action="/g/[^"]+/resume">(.*?)</form>',
                       html, re.DOTALL)
    assert resume and 'name="csrf_token"' in resume.group(1) and 'name="version"' in resume.group(1)
    assert game.post("/resume").status_code == 302
    assert "Deal 2 of 5" in text(game.page())


def test_a_game_cant_end_in_the_middle_of_a_deal(start: Start) -> None:
    game = start(rules={"max_cards": 3})
    game.bid(1, 1, 0, 0)
    game.tricks(1, 1, 1, 0)
    game.bid(1)
    confirm = text(game.client.get(game.url + "/end").get_data(as_text=True))
    assert "a game can be ended only after a finished deal" in confirm
    refused = game.post("/end")
    assert refused.status_code == 422
    assert "a game can be ended only after a finished deal" in text(refused.get_data(as_text=True))
    assert "ended" not in game.export()


def test_the_game_file_downloads_and_imports_again(start: Start) -> None:
    game = start(rules={"max_cards": 2}, title="Friday", stakes={"ante": "2", "currency": "EUR"})
    play_short_game(game)
    response = game.client.get(game.url + "/export.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert response.headers["Content-Disposition"].startswith(
        'attachment; filename="oh-hell-Friday-')
    document = json.loads(response.get_data(as_text=True))
    assert document["winners"] == ["Bob"] and document["links"]["view"].endswith(game.view_token)
    assert parse(document).game.totals == parse(game.export()).game.totals


def test_delete_asks_first_then_the_game_is_gone(start: Start) -> None:
    game = start(title="Old game")
    confirm = game.client.get(game.url + "/delete").get_data(as_text=True)
    assert "Delete “Old game”?" in confirm
    assert "Old game" in game.client.get("/").get_data(as_text=True)
    response = game.client.post(game.url + "/delete", data={"csrf_token": csrf_from(confirm)})
    assert response.status_code == 302
    home = game.client.get("/").get_data(as_text=True)
    assert "The game “Old game” is deleted." in home and "Old game</strong>" not in home
    assert game.client.get(game.url).status_code == 404
    assert game.client.get(f"/v/{game.view_token}").status_code == 404
