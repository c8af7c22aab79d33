"""Correcting an earlier deal (everything after it replayed) and adjustments with a reason."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

import pytest
from webhelpers import Scorer, text

from scorekeeper.rules.characters import visible

Start = Callable[..., Scorer]


def two_deals(start: Start) -> Scorer:
    """A 4-player game to 3 cards with two finished deals (3 cards, then 2)."""
    game = start(rules={"max_cards": 3})
    game.bid(1, 1, 0, 0)  # Bob, Cy, Dee, Ann
    assert game.tricks(1, 1, 1, 0).status_code == 302
    game.bid(0, 1, 0, 0)  # Cy, Dee, Ann, Bob (deals)
    assert game.tricks(0, 1, 0, 1).status_code == 302
    return game


def correction(**fields: Any) -> dict[str, Any]:
    data = {"bids-0": 0, "bids-1": 1, "bids-2": 1, "bids-3": 0,
            "tricks-0": 1, "tricks-1": 1, "tricks-2": 1, "tricks-3": 0}
    data.update(fields)
    return data


def test_the_board_links_every_finished_deal_to_its_correction(start: Start) -> None:
    game = two_deals(start)
    page = game.page()
    assert f'href="/g/{game.token}/deal/1"' in page and f'href="/g/{game.token}/deal/2"' in page
    form = game.client.get(game.url + "/deal/1").get_data(as_text=True)
    assert "Correct deal 1 of 5" in text(form)
    assert re.search(r'<input type="radio" name="bids-1" value="1" checked', form)
    assert re.search(r'<input type="radio" name="tricks-0" value="1" checked', form)


def test_a_correction_is_entered_with_the_big_buttons_of_the_entry_steps(start: Start) -> None:
    """No small text fields: a radio button per bid and per count of tricks, the dealer's refused
    bid struck out with the reason (as the bids stand), the tricks' sum under them."""
    game = two_deals(start)
    form = game.client.get(game.url + "/deal/1").get_data(as_text=True)
    assert 'type="text"' not in form
    for kind in ("bids", "tricks"):
        for seat in range(4):
            assert len(re.findall(rf'<input type="radio" name="{kind}-{seat}" value="\d"',
                                  form)) == 4  # 0 to 3
    struck = re.findall(r'<label class="num[^"]*struck">'
                        r'<input type="radio" name="(bids-\d)" value="(\d)"', form)
    assert struck == [("bids-0", "1")]  # Ann dealt: 1, 1, 0 bid before her, so not 1
    assert "Ann deals and can&#39;t bid 1: the bids would add up to the 3 tricks (hook)" in form
    assert "Together 3 of 3 tricks ✓" in text(form)


def test_a_correction_recomputes_everything_after_it(start: Start) -> None:
    game = two_deals(start)
    before = game.export()["deals"][1]["totals"]
    response = game.post("/deal/1", correction(**{"tricks-0": 0, "tricks-3": 1}))
    assert response.status_code == 302
    after = game.export()
    assert after["deals"][0]["points"] == [10, 11, 11, 1]
    assert after["deals"][1]["totals"] == [20, 12, 21, 12]
    assert after["deals"][1]["totals"] != before


BAD_CORRECTIONS = [
    pytest.param({"tricks-0": 2}, "The tricks add up to 4, but 3 were played",
                 id="tricks that don't add up"),
    pytest.param({"bids-0": 1}, "Deal 1: Ann deals and can't bid 1", id="forbidden dealer bid"),
    pytest.param({"bids-2": 9}, "Deal 1: Cy can't bid 9: a bid is a whole number from 0 to 3",
                 id="bid above the cards"),
    pytest.param({"bids-2": "lots"}, "Cy's bid must be a whole number from 0 to 3, not 'lots'",
                 id="text where a number belongs"),
    pytest.param({"bids-2": "١"}, "Cy's bid must be a whole number from 0 to 3, not '١'",
                 id="arabic-indic digit"),
    pytest.param({"version": 1}, "This screen was out of date", id="stale version"),
]


@pytest.mark.parametrize(("fields", "message"), BAD_CORRECTIONS)
def test_a_bad_correction_shows_a_message_and_keeps_the_old_game(
        start: Start, fields: dict[str, Any], message: str) -> None:
    game = two_deals(start)
    before = game.export()
    response = game.post("/deal/1", correction(**fields))
    page = response.get_data(as_text=True)
    assert response.status_code in (409, 422)
    assert text(page).count(message) == 1
    assert game.export() == before
    if "version" not in fields:
        name, typed = next(iter(fields.items()))
        kept = re.search(rf'name="{name}" value="{typed}" checked', page)
        assert bool(kept) == (str(typed) in "0123")  # what was tapped is still in the form


def test_a_correction_that_breaks_a_later_deal_names_it_and_changes_nothing(start: Start) -> None:
    game = start(rules={"max_cards": 3, "target": 12})
    game.bid(1, 1, 0, 0)
    assert game.tricks(1, 1, 1, 0).status_code == 302  # best is 11: the game goes on
    game.bid(0)
    before = game.export()
    # Bob made 2 in deal 1 would reach the target, so deal 2 could not have been played.
    response = game.post("/deal/1", correction(**{"bids-0": 1, "bids-1": 2,
                                                  "tricks-0": 0, "tricks-1": 2}))
    assert response.status_code == 422
    assert "Deal 2: the game is already over" in text(response.get_data(as_text=True))
    assert game.export() == before


def test_an_unfinished_deal_is_not_corrected_here(start: Start) -> None:
    game = start(rules={"max_cards": 3})
    game.bid(1)
    response = game.client.get(game.url + "/deal/1")
    assert response.status_code == 404
    assert "is not a finished deal of this game" in text(response.get_data(as_text=True))
    assert game.client.get(game.url + "/deal/7").status_code == 404


def test_the_last_deal_is_corrected_or_undone_from_its_card(start: Start) -> None:
    """The card "Deal 2 scored" links to its correction, whose page takes its tricks back (the last
    deal's only) to enter them again."""
    game = two_deals(start)
    page = game.page()
    card = page[page.index('class="last-deal"'):]
    card = card[:card.index("</div>")]
    assert "Deal 2 scored" in text(card)
    assert f'href="/g/{game.token}/deal/2"' in card
    assert f'action="/g/{game.token}/deal/2/undo"' in game.client.get(
        game.url + "/deal/2").get_data(as_text=True)
    assert "/undo" not in game.client.get(game.url + "/deal/1").get_data(as_text=True)
    response = game.post("/deal/2/undo")
    assert response.status_code == 302
    after = game.export()
    assert len(after["deals"]) == 2 and "tricks" not in after["deals"][1]
    assert after["deals"][1]["bids"] == [0, 0, 0, 1]  # by seat: Dee bid 1
    page = game.client.get(response.location).get_data(as_text=True)
    assert "Deal 2: the tricks are taken back; enter them again." in text(page)
    assert 'class="live seats tricks-form"' in page  # deal 2 is back at its tricks
    assert game.tricks(0, 1, 0, 1).status_code == 302
    assert game.export()["deals"][1]["tricks"] == [0, 1, 0, 1]


@pytest.mark.parametrize(("deal", "message"), [
    pytest.param(1, "Deal 1 is not the last deal: correct it instead.", id="an earlier deal"),
    pytest.param(3, "Deal 3 is not finished: it has no tricks to take back.",
                 id="a deal being played"),
])
def test_only_the_last_finished_deal_is_undone(start: Start, deal: int, message: str) -> None:
    game = two_deals(start)
    game.bid(1)
    before = game.export()
    response = game.post(f"/deal/{deal}/undo")
    assert response.status_code == 422
    assert text(response.get_data(as_text=True)).count(message) == 1
    assert game.export() == before


def test_an_adjustment_counts_in_the_totals_with_its_reason(start: Start) -> None:
    game = two_deals(start)
    response = game.post("/adjust", player=2, deal=1, points="-10", reason="revoke")
    assert response.status_code == 302
    exported = game.export()
    assert exported["adjustments"] == [{"deal": 1, "player": 2, "points": -10, "reason": "revoke"}]
    # Cy: 11 at deal 1, −10, then 10 at deal 2
    assert exported["deals"][1]["totals"][2] == 11 - 10 + 10
    page = game.page()
    assert "−10 adj." in page and "revoke" in text(page)
    assert game.post("/adjust/0/remove").status_code == 302
    assert "adjustments" not in game.export()


BAD_ADJUSTMENTS = [
    pytest.param({"points": "ten"},
                 "Points must be a whole number from -10,000 to 10,000, not 'ten'",
                 id="text where a number belongs"),
    pytest.param({"points": "2.5"},
                 "Points must be a whole number from -10,000 to 10,000, not '2.5'", id="a half"),
    pytest.param({"points": "1e4"},
                 "Points must be a whole number from -10,000 to 10,000, not '1e4'",
                 id="an exponent"),
    pytest.param({"points": "10001"},
                 "Points must be a whole number from -10,000 to 10,000, not '10001'",
                 id="too many points"),
    pytest.param({"reason": "revoke\x00\x1b[2J"},
                 "The reason contains an invisible character (null)",
                 id="control characters in the reason"),
    pytest.param({"reason": "r" * 101}, "The reason is longer than 100 characters",
                 id="a reason too long"),
    pytest.param({"points": ""}, "Points: type the points", id="no points"),
    pytest.param({"deal": 9}, "an adjustment names deal 9, which is not in the game",
                 id="deal not in the game"),
    pytest.param({"player": 7}, "player must be a whole number from 0 to 3",
                 id="player not in the game"),
]


@pytest.mark.parametrize(("fields", "message"), BAD_ADJUSTMENTS)
def test_a_bad_adjustment_shows_a_message_and_keeps_the_form(start: Start, fields: dict[str, Any],
                                                             message: str) -> None:
    game = two_deals(start)
    response = game.post("/adjust", {"player": 1, "deal": 2, "points": "5", "reason": "late",
                                     **fields})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert text(page).count(message) == 1
    shown = html.escape(visible(fields.get("reason", "late")))
    assert f'value="{shown}"' in page and '<details class="box" open id="adjust">' in page
    assert "\x00" not in page and "\x1b" not in page  # what was typed, less what can't be seen
    assert "adjustments" not in game.export()


def done(page: str) -> list[str]:
    """The confirmations a page shows (flash messages of the "done" kind)."""
    return [text(m) for m in re.findall(r'<p class="flash flash-done" role="status"[^>]*>(.*?)</p>',
                                        page)]


def test_a_saved_correction_or_adjustment_is_confirmed_once_on_the_game_page(start: Start) -> None:
    game = two_deals(start)
    redirected = game.post("/deal/1", correction(**{"tricks-0": 0, "tricks-3": 1}))
    assert redirected.status_code == 302
    assert done(game.page()) == ["Deal 1 corrected."]
    assert done(game.page()) == []  # said once, not on every visit
    assert game.post("/adjust", player=2, deal=1, points="-10", reason="revoke").status_code == 302
    assert done(game.page()) == ["Cy −10 (revoke) added at deal 1."]
    game.post("/adjust", player=0, deal=2, points="25")
    assert done(game.page()) == ["Ann +25 added at deal 2."]
    assert game.post("/adjust/0/remove").status_code == 302
    assert done(game.page()) == ["Removed: Cy −10 (revoke) at deal 1."]


def test_a_refused_change_confirms_nothing(start: Start) -> None:
    game = two_deals(start)
    assert game.post("/adjust", player=2, deal=9, points="5").status_code == 422
    assert game.post("/adjust/3/remove").status_code == 422
    assert done(game.page()) == []


def test_the_confirmation_is_not_kept_in_a_page_served_to_others(start: Start) -> None:
    game = two_deals(start)
    viewer = game.client.application.test_client()
    viewer.get(f"/v/{game.view_token}")
    game.post("/deal/2", correction(**{"bids-0": 0, "bids-1": 0, "bids-2": 1, "bids-3": 0,
                                       "tricks-0": 0, "tricks-1": 1, "tricks-2": 1, "tricks-3": 0}))
    assert done(game.client.get(f"/v/{game.view_token}").get_data(as_text=True)) == [
        "Deal 2 corrected."]
    assert done(viewer.get(f"/v/{game.view_token}").get_data(as_text=True)) == []
    assert done(game.page()) == []
