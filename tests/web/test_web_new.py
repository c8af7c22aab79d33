"""Setting up a game: players in seating order, the first dealer, a preset, house rules, stakes,
preview."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient
from webhelpers import csrf_from, text

from scorekeeper.rules.characters import visible


def form(client: FlaskClient, **fields: Any) -> dict[str, Any]:
    """The new-game form as a browser sends it: four names, the defaults, and ``fields``."""
    data = {"csrf_token": csrf_from(client.get("/new").get_data(as_text=True)), "players-0": "Ann",
            "players-1": "Bob", "players-2": "Cy", "players-3": "Dee", "first_dealer": "0",
            "preset": "oh-hell", "action": "preview"}
    data.update(fields)
    return {k: v for k, v in data.items() if v is not None}


def test_the_form_offers_four_player_rows_and_every_preset_with_its_description(
        client: FlaskClient) -> None:
    page = client.get("/new").get_data(as_text=True)
    assert len(re.findall(r'name="players-\d"', page)) == 4
    assert ('data-description="Kachuful (India): 7 down and up; trumps rotate spades, diamonds, '
            'clubs, hearts, none."' in page)
    assert "Pagat's Oh Hell: 10 cards down to 1 and back up" in text(page)
    for rule in ("rules-deal", "rules-max_cards", "rules-sequence", "rules-deals", "rules-decks",
                 "rules-deck_size", "rules-only", "rules-trump", "rules-trump_cycle",
                 "rules-bidding", "rules-hook_from", "rules-simultaneous", "rules-scoring",
                 "rules-zero_bid", "rules-spades_double", "rules-target",
                 "rules-tie", "rules-made", "rules-missed", "rules-wins"):
        assert f'name="{rule}"' in page, rule


def test_the_presets_are_offered_by_their_names_not_their_ids(client: FlaskClient) -> None:
    page = client.get("/new").get_data(as_text=True)
    options = dict(re.findall(r'<option value="([\w-]+)" data-description="[^"]*" '
                              r'?(?:selected)?>([^<]+)</option>', page))
    assert options["up-and-down-the-river"] == "Up and Down the River"
    assert options["oh-hell"] == "Oh Hell" and options["oh-sh-64"] == "Oh Sh-- (64 cards)"
    assert ">up-and-down-the-river<" not in page
    blank = client.get("/sheets/blank").get_data(as_text=True)
    assert ">Boerenbridge</option>" in blank and ">Kachuful</option>" in blank
    preview = text(client.post("/new", data=form(client, preset="up-and-down-the-river")).get_data(
        as_text=True))
    assert "Rules Up and Down the River — Up and Down the River: 10 down and up" in preview
    assert "up-and-down-the-river" not in preview


@pytest.mark.parametrize(("fields", "deals", "says"), [
    ({"rules-deal": "custom", "rules-sequence": "2-1-2"}, 3,
     "Deals the sequence 2-1-2: 3 deals (one pack)"),
    ({"rules-max_cards": "3"}, 5, "Deals 3 cards down to 1 and back up to 3: 5 deals (one pack)"),
    ({"rules-bidding": "free", "rules-trump": "rotation"}, 19,
     "Trump rotates ♠ ♦ ♣ ♥ NT, then again"),
])
def test_the_preview_describes_the_rules_in_force_with_the_house_rules(
        client: FlaskClient, fields: dict[str, str], deals: int, says: str) -> None:
    page = text(client.post("/new", data=form(client, **fields)).get_data(as_text=True))
    assert f"Schedule: {deals} deals" in page and says in page
    # the preset's own description
    assert "Rules Oh Hell, house rules" in page and "Pagat" not in page


def test_rows_are_added_moved_and_removed_without_javascript(client: FlaskClient) -> None:
    added = client.post("/new", data=form(client, action="add")).get_data(as_text=True)
    assert len(re.findall(r'name="players-\d"', added)) == 5
    moved = client.post("/new",
                        data=form(client, action="up-2", first_dealer="2")).get_data(as_text=True)
    names = re.findall(r'name="players-\d" value="(\w*)"', moved)
    assert names == ["Ann", "Cy", "Bob", "Dee"]
    assert 'value="1" checked' in moved  # Cy deals first still
    down = client.post("/new", data=form(client, action="down-0")).get_data(as_text=True)
    assert re.findall(r'name="players-\d" value="(\w*)"', down) == ["Bob", "Ann", "Cy", "Dee"]
    assert 'value="1" checked' in down  # Ann deals first still
    removed = client.post("/new", data=form(client, action="remove-0")).get_data(as_text=True)
    assert re.findall(r'name="players-\d" value="(\w*)"', removed) == ["Bob", "Cy", "Dee"]


def test_preview_shows_the_whole_schedule_then_start_creates_the_game(client: FlaskClient) -> None:
    preview = client.post("/new", data=form(client, first_dealer="1"))
    page = text(preview.get_data(as_text=True))
    assert preview.status_code == 200
    assert "Schedule: 19 deals" in page and "Bob deals first" in page
    assert re.search(r"1 10 Bob turned up 2 9 Cy turned up", page)
    hidden = dict(re.findall(r'<input type="hidden" name="([\w-]+)" value="([^"]*)"',
                             preview.get_data(as_text=True)))
    started = client.post("/new", data={**hidden, "action": "start"})
    assert started.status_code == 302
    game = client.get(started.location).get_data(as_text=True)
    assert "Deal 1 of 19 · 10 cards" in text(game) and "Bob deals" in text(game)


def test_house_rules_and_stakes_reach_the_game(client: FlaskClient) -> None:
    fields = form(client, **{"rules-max_cards": "2", "rules-scoring": "custom",
                             "rules-made": "10 + bid * 2", "rules-missed": "-abs(tricks - bid)",
                             "stakes": "per_point", "amount": "0.10", "currency": "€",
                             "title": "Friday"})
    preview = client.post("/new", data=fields).get_data(as_text=True)
    assert "Schedule: 3 deals" in text(preview)
    assert "made: 10 + bid * 2" in text(preview) and "€0.10 per point" in text(preview)
    started = client.post("/new", data={**fields, "action": "start"})
    token = started.location.rsplit("/", 1)[1]
    exported = client.get(f"/api/games/{token}").get_json()
    assert exported["rules"] == {"preset": "oh-hell", "max_cards": 2, "scoring": "custom",
                                 "made": "10 + bid * 2", "missed": "-abs(tricks - bid)"}
    assert exported["stakes"] == {"per_point": "0.10", "settlement": "pairwise", "currency": "€"}
    assert exported["title"] == "Friday"


def test_the_first_dealer_can_be_drawn_at_random(client: FlaskClient,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("scorekeeper.games.views.secrets.randbelow", lambda n: 2)
    page = text(client.post("/new",
                            data=form(client, first_dealer="random")).get_data(as_text=True))
    assert "Cy deals first (drawn at random)" in page


BAD_SETUPS = [
    pytest.param({"players-1": "", "players-2": "", "players-3": ""}, "a game has 2 to 10 players",
                 id="one player"),
    pytest.param({"players-1": "ann"}, "'ann' is listed twice", id="same name twice"),
    pytest.param({"players-0": "x" * 41}, "is longer than 40 characters", id="name too long"),
    pytest.param({"rules-max_cards": "10", "players-4": "Eve", "players-5": "Fay"},
                 "the largest possible is 8; choose at most 8 or play with a second pack",
                 id="10 cards for 6"),
    pytest.param({"rules-max_cards": "ten"},
                 "Top hand (cards) must be a whole number from 1 to 104, not 'ten'",
                 id="text where a number belongs"),
    pytest.param({"rules-max_cards": "1e100000000"}, "Top hand (cards) must be a whole number",
                 id="an exponent"),
    pytest.param({"rules-deals": "²", "rules-deal": "fixed"},
                 "Number of deals must be a whole number from 1 to 200", id="a superscript digit"),
    pytest.param({"rules-zero_bid": "1e100000000"}, "A made zero bid scores must be a whole number",
                 id="a zero bid of 10^(10^8)"),
    pytest.param({"rules-zero_bid": "1e20"}, "A made zero bid scores must be a whole number",
                 id="a zero bid of 1e20"),
    pytest.param({"rules-hook_from": "١٢"}, "Hook from (cards) must be a whole number",
                 id="arabic-indic digits"),
    pytest.param({"rules-deal": "custom", "rules-sequence": "9" * 300}, "is not a number of cards",
                 id="a sequence of 300 digits"),
    pytest.param({"rules-scoring": "custom", "rules-made": "('%0999999999d'%1)<'2'",
                  "rules-missed": "0"},
                 "is not a number", id="a formula of text"),
    pytest.param({"rules-scoring": "custom", "rules-made": "10/(cards-5)", "rules-missed": "0"},
                 "divides by zero for bid 0, tricks 0, cards 5",
                 id="a formula stuck at the 5-card deal"),
    pytest.param({"stakes": "per_point", "amount": "1e-99999999"},
                 "The stake per point must be an amount from 0.0001", id="a stake of 1e-99999999"),
    pytest.param({"players-1": "\u200b\u200b"}, "Player 2's name contains an invisible character",
                 id="a name of zero-width spaces"),
    pytest.param({"players-1": "Bob\u202e"}, "Player 2's name contains an invisible character",
                 id="a bidirectional override"),
    pytest.param({"players-2": ""}, "Player 3 has no name: type one, or remove the row",
                 id="a blank row between names"),
    pytest.param({"players-10": "Kim"}, "A game has at most 10 players", id="an 11th player"),
    pytest.param({"first_dealer": "٣"}, "The first dealer must be a whole number",
                 id="a first dealer in other digits"),
    pytest.param({"rules-scoring": "custom", "rules-made": "bid +", "rules-missed": "0"},
                 "The made formula 'bid +' is not a formula", id="bad formula"),
    pytest.param({"rules-bidding": "must-equal", "rules-scoring": "exact"},
                 "makes the game cooperative", id="scoring with cooperative"),
    pytest.param({"stakes": "per_point", "amount": "lots"}, "The stake per point must be an amount",
                 id="bad stake"),
    pytest.param({"rules-target": "many"},
                 "Game to (points) must be a whole number from 1 to 100,000, not 'many'",
                 id="bad target"),
    pytest.param({"preset": "no-such-preset"}, "Rules: Not a valid choice.", id="unknown preset"),
]


@pytest.mark.parametrize(("fields", "message"), BAD_SETUPS)
def test_a_bad_setup_shows_the_rules_message_and_keeps_what_was_typed(
    client: FlaskClient, fields: dict[str, str], message: str
) -> None:
    response = client.post("/new", data=form(client, **fields))
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    # said once: beside its field, or in the alert
    assert text(page).lower().count(message.lower()) == 1
    for name, value in fields.items():
        if name.startswith("players-") and value and len(value) < 41:
            assert f'value="{visible(value)}"' in page  # what was typed, less what can't be seen
    assert 'value="Dee"' in page or fields.get("players-3") == ""


def test_a_refused_field_is_marked_and_points_to_the_one_message(client: FlaskClient) -> None:
    page = client.post("/new",
                       data=form(client, **{"rules-max_cards": "ten"})).get_data(as_text=True)
    field = re.search(r'<input[^>]*name="rules-max_cards"[^>]*>', page)
    assert (field and 'aria-invalid="true"' in field.group(0)
            and 'aria-describedby="rules-max_cards-error"' in field.group(0))
    assert "autofocus" in field.group(0)  # the page opens at the field,
    assert '<details class="box" open>' in page  # in its panel, open,
    assert re.search(r'<small class="field-error" id="rules-max_cards-error">Top hand \(cards\) '
                     r'must be a whole number from 1 to 104', page)  # its message beside it
    assert 'role="alert"' not in page  # and nowhere else


def test_start_without_csrf_token_changes_nothing(client: FlaskClient) -> None:
    response = client.post("/new", data={**form(client), "csrf_token": "", "action": "start"})
    assert response.status_code == 400
    assert ("The form expired or was sent from elsewhere; nothing was changed"
            in text(response.get_data(as_text=True)))


def test_the_scoring_example_is_computed_by_the_server(client: FlaskClient) -> None:
    custom = client.get("/new/example",
                        query_string={"preset": "oh-hell", "rules-scoring": "custom",
                                      "rules-made": "10 + bid * 2",
                                      "rules-missed": "-1"}).get_json()
    assert custom["error"] is None
    assert {"bid": 3, "took": 3, "points": "16"} in custom["rows"]
    assert {"bid": 2, "took": 1, "points": "−1"} in custom["rows"]
    broken = client.get("/new/example",
                        query_string={"rules-scoring": "custom", "rules-made": "bid ** ",
                                      "rules-missed": "0"}).get_json()
    assert "not a formula" in broken["error"] and broken["rows"] == []
    assert client.get("/new/example",
                      query_string={"preset": "cooperative"}).get_json()["rows"] == []


def test_no_menu_of_the_new_game_form_lists_a_choice_twice(client: FlaskClient) -> None:
    """Issue 30, item 13: "highest" was listed twice in the Winner menu of the house rules."""
    page = client.get("/new").get_data(as_text=True)
    menus = re.findall(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', page, re.DOTALL)
    assert len(menus) > 5
    for name, options in menus:
        shown = [text(option)
                 for option in re.findall(r"<option[^>]*>(.*?)</option>", options, re.DOTALL)]
        assert len(shown) == len(set(shown)), f"{name}: {shown}"
