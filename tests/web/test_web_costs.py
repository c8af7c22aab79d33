"""Requests that cost the most within the limits (RULES.md §8): answered within 2 s on one core,
and the costly ones worked out once per worker for the same inputs — a house system's check by its
formulas, the scoring example and the blank sheet by their query, the filled sheet by its game's
version — each in its language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient
from webhelpers import Scorer, within_cpu

import scorekeeper.games.views
import scorekeeper.sheets.pdf
import scorekeeper.sheets.views
import scorekeeper.web.lanes
from scorekeeper.rules import scoring
from scorekeeper.store.cache import LRU

Start = Callable[..., Scorer]
#: Two players, two decks, hands of up to 52 cards: a missed formula is checked for 49,608 bids
#: and trick counts. Formulas of about 190 characters, full of fractions and powers.
COSTLY = {"deck_size": 104, "max_cards": 52, "scoring": "custom",
          "made": "(bid / 3) ** 3 + (tricks / 7) ** 3 + (cards / 9) ** 2"
                  " + (bid + 1) ** 3 / (tricks + 2) ** 2 + ((bid - tricks) / 5) ** 4"
                  " + (cards / 11) ** 3 + (players / 13) ** 2 + (bid / 17) ** 2",
          "missed": "-((bid - tricks) / 3) ** 3 - (tricks / 7) ** 3 - (cards / 9) ** 2"
                    " - (bid + 1) ** 3 / (tricks + 2) ** 2 - ((bid - tricks) / 5) ** 4"
                    " - (cards / 11) ** 3 - (players / 13) ** 2"}
TOO_MUCH = ("The house formulas are too much work to check for every bid and trick count of hands"
            " of up to 52 cards")


def timed(request: Callable[[], Any]) -> Any:
    with within_cpu():
        response = request()
    return response


@pytest.fixture(autouse=True)
def _no_house_system_made_yet() -> None:
    """Each test starts as a fresh worker would: no house system made (nor checked, with the
    formulas here: only the first test checks those of ``COSTLY``)."""
    scoring._custom.cache_clear()


def counted(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[object]:
    """Every call of ``module.name`` from now on, still made."""
    calls: list[object] = []
    original = getattr(module, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, counting)
    return calls


def test_a_costly_house_system_for_huge_hands_is_refused_within_2_s_and_nothing_is_stored(
        client: FlaskClient) -> None:
    for _ in range(2):  # the second time from what the first check found
        response = timed(lambda: client.post("/api/games",
                                             json={"players": ["Ann", "Bob"], "rules": COSTLY}))
        assert response.status_code == 422 and TOO_MUCH in response.get_json()["error"]
        assert client.get("/api/games/none").status_code == 404
    german = client.post("/api/games", json={"players": ["Ann", "Bob"], "rules": COSTLY},
                         headers={"Accept-Language": "de"})
    assert german.status_code == 422 and TOO_MUCH not in german.get_json()["error"]


def test_the_same_costly_formulas_are_fine_for_hands_of_ten_cards(client: FlaskClient) -> None:
    response = timed(lambda: client.post("/api/games", json={"players": ["Ann", "Bob"],
                                                             "rules": {**COSTLY, "max_cards": 10}}))
    assert response.status_code == 201, response.get_json()


def test_a_formula_that_fails_at_some_deal_is_refused_by_its_first_failure_every_time(
        client: FlaskClient) -> None:
    rules = {"deck_size": 104, "max_cards": 52, "scoring": "custom", "made": "10",
             "missed": "1 / (cards - 40)"}
    for language, words in (("en", "divides by zero for bid 0, tricks 1, cards 40"), ("de", "")):
        response = client.post("/api/games", json={"players": ["Ann", "Bob"], "rules": rules},
                               headers={"Accept-Language": language})
        assert response.status_code == 422 and words in response.get_json()["error"]


EXAMPLE = {"rules-deck_size": "104", "rules-max_cards": "52", "rules-scoring": "custom",
           "rules-made": "1 + " * 40 + "bid", "rules-missed": "-abs(bid - tricks) * cards"}


def test_the_scoring_example_is_worked_out_once_per_query_and_language(
        client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    made = counted(monkeypatch, scorekeeper.games.views, "make_rules")
    first = timed(lambda: client.get("/new/example", query_string=EXAMPLE))
    assert first.get_json()["error"] is None and first.get_json()["rows"]
    again = timed(lambda: client.get("/new/example", query_string=EXAMPLE))
    assert again.get_data() == first.get_data() and len(made) == 1
    client.get("/new/example", query_string=EXAMPLE, headers={"Accept-Language": "nl"})
    client.get("/new/example", query_string={**EXAMPLE, "rules-max_cards": "51"})
    assert len(made) == 3


BLANK = {"players": "10", "deal": "fixed", "max_cards": "5", "deals": "200", "tie": "one-card-hand"}


def test_the_blank_sheet_is_printed_once_per_query_and_language(
        client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    # another test may have printed this very sheet (into this worker's memory)
    monkeypatch.setattr(scorekeeper.web.lanes, "_kept", LRU(32))
    printed = counted(monkeypatch, scorekeeper.sheets.pdf, "render_pdf")
    first = client.get("/sheets/blank.pdf", query_string=BLANK)
    assert first.status_code == 200 and first.mimetype == "application/pdf"
    again = timed(lambda: client.get("/sheets/blank.pdf", query_string=BLANK))
    assert again.get_data() == first.get_data() and len(printed) == 1
    client.get("/sheets/blank.pdf", query_string={**BLANK, "lang": "fr"})
    assert len(printed) == 2
    refused = client.get("/sheets/blank.pdf", query_string={**BLANK, "max_cards": "99"})
    assert refused.status_code == 400 and len(printed) == 2


def test_the_filled_sheet_is_printed_once_per_version_and_language(
        start: Start, monkeypatch: pytest.MonkeyPatch) -> None:
    scorer = start(rules={"max_cards": 3})
    printed = counted(monkeypatch, scorekeeper.sheets.pdf, "render_pdf")
    client = scorer.client
    first = client.get(f"/g/{scorer.token}/sheet.pdf")
    assert client.get(f"/g/{scorer.view_token}/sheet.pdf").get_data() == first.get_data()
    assert len(printed) == 1
    scorer.bid(1)
    changed = client.get(f"/g/{scorer.token}/sheet.pdf")
    client.get(f"/g/{scorer.token}/sheet.pdf", query_string={"lang": "it"})
    client.get(f"/g/{scorer.token}/sheet.pdf", query_string={"paper": "letter"})
    assert changed.get_data() != first.get_data() and len(printed) == 4
