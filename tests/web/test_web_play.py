"""A deal on the game's page: bids in order, the struck-out dealer bid, tricks, points, bad
input."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from webhelpers import TOKEN, Scorer, text

Start = Callable[..., Scorer]


def test_deal_header_names_the_deal_dealer_and_first_bidder(start: Start) -> None:
    page = text(start(first_dealer=2).page())
    assert "Deal 1 of 19 · 10 cards" in page
    assert "Cy deals · Dee bids first and leads" in page


def test_bids_go_in_bidding_order_and_the_running_total_is_announced(start: Start) -> None:
    game = start(rules={"max_cards": 3})
    game.bid(1, 1)
    page = game.page()
    assert "Bids 2 for 3 tricks: under by 1" in text(page)
    assert re.search(r'<li class="now">\s*<span class="who">Dee', page)
    assert game.export()["deals"][0]["bids"] == [None, 1, 1, None]


def test_hook_strikes_out_the_dealers_completing_bid_with_the_reason(start: Start) -> None:
    game = start(rules={"max_cards": 3})
    game.bid(1, 1, 0)
    page = game.page()
    # Reachable by Tab (no `disabled`), its reason read with it; a plain button: it sends nothing.
    assert re.search(r'<button type="button" value="1" class="num struck" aria-disabled="true" '
                     r'aria-describedby="bid-reason">', page)
    assert "Ann deals and can't bid 1: the bids would add up to the 3 tricks (hook)" in text(page)
    for allowed in (0, 2, 3):
        assert f'name="bid" value="{allowed}" class="num">' in page


def test_a_deal_of_one_card_counts_one_trick(start: Start) -> None:
    """One card, one trick: the running total, the dealer's struck-out bid and the tricks' sum say
    "1 trick" ("Bids 0 for 1 tricks" was shown), in English and in Dutch."""
    game = start(rules={"deal": "fixed", "max_cards": 1, "deals": 1})
    game.bid(0, 0, 0)
    page = text(game.page())
    assert "Bids 0 for 1 trick: under by 1" in page
    assert "Ann deals and can't bid 1: the bids would add up to the 1 trick (hook)" in page
    game.bid(0)
    page = text(game.page())
    assert "Bids 0 for 1 trick: under by 1" in page and "Together 1 of 1 trick ✓" in page
    dutch = text(game.client.get(f"/g/{game.token}?lang=nl").get_data(as_text=True))
    assert "Samen 1 van 1 slag ✓" in dutch and " 1 slagen" not in dutch


def test_undo_takes_back_the_last_bid_and_then_the_empty_deal(start: Start) -> None:
    game = start(rules={"max_cards": 3})
    game.bid(2)
    assert game.post("/undo").status_code == 302
    assert game.export()["deals"] == []
    assert "Bob</b> bids" in game.page()


def test_tricks_screen_starts_at_the_bids_with_the_dealer_taking_the_rest(start: Start) -> None:
    game = start(rules={"max_cards": 3})
    game.bid(1, 1, 0, 0)  # Bob, Cy, Dee, then Ann deals: 2 of 3 bid
    page = game.page()
    checked = dict(re.findall(r'name="tricks-(\d)" value="(\d)" checked', page))
    assert checked == {"1": "1", "2": "1", "3": "0", "0": "1"}
    assert "Together 3 of 3 tricks" in text(page)


def test_saving_tricks_scores_the_deal_and_shows_who_leads_next(start: Start) -> None:
    game = start(rules={"max_cards": 3})
    game.bid(1, 1, 0, 0)
    assert game.tricks(1, 1, 1, 0).status_code == 302
    page = text(game.page())
    assert "Deal 1 scored" in page
    assert "Ann ✗ 1" in page and "Bob ✓ 11" in page
    assert "Deal 2 of 5 · 2 cards" in page
    assert "Bob deals · Cy bids first and leads" in page


BAD_INPUT = [
    pytest.param("/bid", {"seat": 0, "bid": 1},
                 "Ann deals and can't bid 1: the bids would add up to the 3 tricks (hook)",
                 422, id="forbidden dealer bid"),
    pytest.param("/bid", {"seat": 0, "bid": 7},
                 "Ann can't bid 7: a bid is a whole number from 0 to 3", 422,
                 id="bid above the cards"),
    pytest.param("/bid", {"seat": 0, "bid": "two"},
                 "Bid must be a whole number from 0 to 52, not 'two'.", 422,
                 id="text where a number belongs"),
    pytest.param("/bid", {"seat": 0, "bid": "²"},
                 "Bid must be a whole number from 0 to 52, not '²'.", 422,
                 id="a superscript digit"),
    pytest.param("/bid", {"seat": "١", "bid": 1},
                 "Seat must be a whole number from 0 to 9, not '١'.", 422,
                 id="an arabic-indic seat"),
    pytest.param("/bid", {"seat": 0, "bid": "1e1"},
                 "Bid must be a whole number from 0 to 52, not '1e1'.", 422, id="an exponent"),
    pytest.param("/bid", {"seat": 0}, "Bid: tap a number to bid.", 422, id="no bid"),
    pytest.param("/bid", {"seat": 0, "bid": " "}, "Bid: tap a number to bid.", 422,
                 id="a blank bid"),
    pytest.param("/bid", {"seat": "x", "bid": 1},
                 "Seat must be a whole number from 0 to 9, not 'x'.", 422, id="no seat"),
    pytest.param("/bid", {"seat": 0, "bid": "−1"},
                 "Bid must be a whole number from 0 to 52, not '−1'.", 422,
                 id="a typographic minus"),
    pytest.param("/bid", {"seat": 0, "bid": 2, "version": 1},
                 "Deal 1: this entry was made on a screen that was out of date", 409,
                 id="stale version"),
    pytest.param("/bid", {"seat": 0, "bid": 2, "csrf_token": None},
                 "The form expired or was sent from elsewhere; nothing was changed", 400,
                 id="missing CSRF token"),
    pytest.param("/bid", {"seat": 0, "bid": 2, "csrf_token": "forged"},
                 "The form expired or was sent from elsewhere; nothing was changed", 400,
                 id="wrong CSRF token"),
]


@pytest.mark.parametrize(("path", "form", "message", "status"), BAD_INPUT)
def test_bad_bid_input_gets_a_message_and_keeps_the_bids(
    start: Start, path: str, form: dict[str, Any], message: str, status: int
) -> None:
    game = start(rules={"max_cards": 3})
    game.bid(1, 1, 0)
    response = game.post(path, form)
    assert response.status_code == status
    assert message in text(response.get_data(as_text=True))
    assert game.export()["deals"][0]["bids"] == [None, 1, 1, 0]


BAD_TRICKS = [
    pytest.param({"tricks-0": 1, "tricks-1": 1, "tricks-2": 1, "tricks-3": 1},
                 "The tricks add up to 4, but 3 were played: check the counts.",
                 id="tricks that don't add up"),
    pytest.param({"tricks-0": 4, "tricks-1": 0, "tricks-2": 0, "tricks-3": 0},
                 "Ann can't have taken 4 tricks: it must be 0 to 3.", id="more tricks than cards"),
    pytest.param({"tricks-0": "x", "tricks-1": 1, "tricks-2": 1, "tricks-3": 0},
                 "Ann's tricks must be a whole number from 0 to 3, not 'x'",
                 id="text where a number belongs"),
    pytest.param({"tricks-0": "1e0", "tricks-1": 1, "tricks-2": 1, "tricks-3": 0},
                 "Ann's tricks must be a whole number from 0 to 3, not '1e0'", id="an exponent"),
    pytest.param({"tricks-0": 1, "tricks-1": 1, "tricks-2": 1, "tricks-3": 0, "tricks-4": 0},
                 "A trick count was sent for a player who is not at this table; nothing was saved.",
                 id="a fifth player's tricks"),
    pytest.param({"tricks-0": 1, "tricks-1": 1, "tricks-2": 1, "tricks-3": 0, "tricks-03": 0},
                 "A trick count was sent for a player who is not at this table; nothing was saved.",
                 id="a seat written with a leading zero"),
    pytest.param({"tricks-0": 1, "tricks-1": 1, "tricks-2": 1},
                 "Dee's tricks: missing", id="a player left out"),
]


def test_without_javascript_the_tricks_form_says_the_sum_and_what_to_tap_truthfully(
        start: Start) -> None:
    game = start(rules={"max_cards": 3})
    game.bid(1, 1, 0, 0)
    ready = game.page()
    assert re.search(r'<p class="sum" id="trick-sum"[^>]*>Together 3 of 3 tricks ✓</p>', ready)
    prompt = text(re.search(r'<p class="prompt"[^>]*>(.*?)</p>', ready, re.DOTALL).group(1))  # type: ignore[union-attr]
    assert ("tap only what differs" not in prompt
            and "Ann's too, so that together they make 3" in prompt)
    refused = game.post("/tricks", {"tricks-0": 2, "tricks-1": 2, "tricks-2": 1,
                                    "tricks-3": 1}).get_data(as_text=True)
    assert re.search(
        r'<p class="sum off" id="trick-sum"[^>]*>Together 6 of 3 tricks: 3 too many</p>', refused)
    assert "✗ over by 1" in text(refused)  # Bob bid 1, took 2


@pytest.mark.parametrize(("form", "message"), BAD_TRICKS)
def test_bad_tricks_get_a_message_and_keep_what_was_tapped(start: Start, form: dict[str, Any],
                                                           message: str) -> None:
    game = start(rules={"max_cards": 3})
    game.bid(1, 1, 0, 0)
    response = game.post("/tricks", form)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert message in text(page)
    assert game.export()["deals"][0] == {**game.export()["deals"][0], "bids": [0, 1, 1, 0]}
    assert "tricks" not in game.export()["deals"][0]
    if form.get("tricks-2") == 1:
        assert 'name="tricks-2" value="1" checked' in page


def test_a_stale_version_is_refused_and_never_applied_twice(start: Start) -> None:
    game = start(rules={"max_cards": 3})
    version = game.version()
    first = game.post("/bid", seat=1, bid=2, version=version)
    again = game.post("/bid", seat=1, bid=2, version=version)  # the back button, or a double tap
    assert first.status_code == 302 and again.status_code == 409
    assert ("Bob has bid 2 in deal 1 already: this bid was not saved."
            in text(again.get_data(as_text=True)))
    assert game.export()["deals"][0]["bids"] == [None, 2, None, None]


def test_a_wrong_game_token_is_a_404_page(start: Start) -> None:
    game = start()
    response = game.client.post("/g/no-such-game/bid", data={"bid": 1})
    assert response.status_code in (400, 404)
    response = game.client.get("/g/no-such-game")
    assert response.status_code == 404
    assert "No game has this link" in text(response.get_data(as_text=True))


def test_the_read_only_token_can_change_nothing(start: Start) -> None:
    game = start(rules={"max_cards": 3})
    token = game.view_token
    page = game.page()
    csrf = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    writes = ["/bid", "/bids", "/undo", "/trump", "/cards", "/tricks", "/adjust",
              "/adjust/0/remove", "/end", "/resume", "/deal/1", "/delete", "/plan", "/rules",
              "/again"]
    for path in writes:
        response = game.client.post(f"/g/{token}{path}",
                                    data={"csrf_token": csrf, "version": game.version(),
                                                              "seat": 1, "bid": 1})
        assert response.status_code in (403, 404), path
    assert game.export()["deals"] == []


def test_reload_and_get_change_nothing(start: Start) -> None:
    game = start(rules={"max_cards": 3})
    game.bid(1)
    version = game.version()
    for path in ("", "/share", "/end", "/export.json", "/delete"):
        assert game.client.get(game.url + path).status_code == 200
    assert game.client.get(f"/v/{game.view_token}").status_code == 200
    assert game.version() == version
    # The same page, but for its form token, which is signed with the second it was made in.
    assert TOKEN.sub("", game.page()) == TOKEN.sub("", game.page())


def test_simultaneous_bids_said_aloud_are_entered_together(start: Start) -> None:
    game = start(players=["Ann", "Bob", "Cy"], rules={"preset": "british-oh-hell",
                                                      "sealed": False})
    page = game.page()
    assert 'name="bids-0"' in page and 'name="bids-2"' in page
    missing = game.post("/bids", {"bids-0": 1, "bids-1": 0})
    assert (missing.status_code == 422
            and "Cy's bid: missing" in text(missing.get_data(as_text=True)))
    assert game.post("/bids", {"bids-0": 1, "bids-1": 0, "bids-2": 1}).status_code == 302
    assert game.export()["deals"][0]["bids"] == [1, 0, 1]
    assert "tricks-0" in game.page()


def test_undo_takes_back_every_bid_shown_at_once(start: Start) -> None:
    game = start(players=["Ann", "Bob", "Cy"], rules={"preset": "british-oh-hell"})
    game.post("/bids", {"bids-0": 1, "bids-1": 0, "bids-2": 1})
    assert "Undo the bids" in game.page()
    assert game.post("/undo").status_code == 302
    assert game.export()["deals"] == []
    assert 'name="bids-0"' in game.page()


def test_spades_double_asks_for_the_trump_before_the_tricks(start: Start) -> None:
    game = start(rules={"max_cards": 2, "spades_double": True})
    assert "needed: spades double" in game.page()
    game.bid(1, 0, 0, 0)
    refused = game.tricks(1, 0, 1, 0)
    assert refused.status_code == 422
    assert "the trump of a finished deal must be recorded" in text(refused.get_data(as_text=True))
    assert game.post("/trump", trump="S").status_code == 302
    assert game.tricks(0, 1, 1, 0).status_code == 302
    assert game.export()["deals"][0]["points"] == [20, 22, 2, 20]  # doubled: spades were trump


def test_a_trump_no_rule_needs_is_recorded_behind_a_small_control(start: Start) -> None:
    game = start(rules={"max_cards": 2})
    page = game.page()
    assert "optional" not in text(page)
    details = re.search(r'<details class="trump-more">\s*'
                        r'<summary>Record the trump</summary>(.*?)</details>', page, re.DOTALL)
    # a plain form: no JavaScript needed
    assert details and 'name="trump" value="S"' in details.group(1)
    assert game.post("/trump", trump="H").status_code == 302
    assert "Trump recorded: ♥ · change" in text(game.page())


def test_spades_double_asks_for_the_trump_openly(start: Start) -> None:
    page = start(rules={"max_cards": 2, "spades_double": True}).page()
    assert "trump-more" not in page and 'name="trump" value="S"' in page


def test_a_fixed_trump_is_shown_not_asked(start: Start) -> None:
    game = start(rules={"preset": "kachuful"})
    page = game.page()
    assert 'name="trump"' not in page
    assert "♠</span> trump" in page
    assert game.post("/trump", trump="H").status_code == 422


def test_the_manual_pattern_asks_for_the_cards_first(start: Start) -> None:
    game = start(rules={"deal": "manual", "deals": 2})
    assert "How many cards does each player get?" in game.page()
    assert game.post("/cards", cards=5).status_code == 302
    assert "Deal 1 of 2 · 5 cards" in text(game.page())
    too_many = game.post("/undo") and game.post("/cards", cards=20)
    assert too_many.status_code == 422 and "can't be dealt" in text(too_many.get_data(as_text=True))


def test_a_players_name_is_shown_as_text(start: Start) -> None:
    game = start(players=["<b>Ann</b>", "Bob<script>x()</script>"], title="<i>Friday</i>")
    page = game.page()
    assert "<b>Ann</b>" not in page and "&lt;b&gt;Ann&lt;/b&gt;" in page
    assert "<script>x()</script>" not in page
    assert "<i>Friday</i>" not in page


def test_a_chart_of_the_running_totals_is_a_tap_away_from_the_board(start: Any) -> None:
    """Drawn by the sheet's chart code, in the page's text colour, lines told apart by dashes and
    numbers."""
    game = start(rules={"max_cards": 3})
    assert "/chart" not in game.page()  # no deal scored yet: nothing to draw
    game.bid(1, 1, 0, 0)
    game.tricks(1, 1, 1, 0)
    for url in (game.url, f"/v/{game.view_token}"):
        page = game.client.get(url).get_data(as_text=True)
        assert f'href="{url}/chart"' in page
        chart = game.client.get(url + "/chart")
        assert chart.status_code == 200
        html = chart.get_data(as_text=True)
        svg = html[html.index("<svg"):html.index("</svg>")]
        assert 'role="img" aria-label="Running totals"' in svg
        assert svg.count("<polyline") == 4 and 'stroke="currentColor"' in svg and "#000" not in svg
        assert len(set(re.findall(r'polyline points="[^"]*" stroke-dasharray="([^"]*)"', svg))) == 4
        assert all(f">{seat} {name}</text>" in svg
                   for seat, name in enumerate(["Ann", "Bob", "Cy", "Dee"], 1))
        assert "told apart by their dashes" in text(html)
        assert f'href="{url}"' in html  # back to the game
    assert game.client.get("/g/no-such-game/chart").status_code == 404
