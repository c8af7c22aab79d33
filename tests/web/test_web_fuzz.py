"""Whatever a form sends, a write route answers with a page and a status below 500, and the game stays valid."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webhelpers import Scorer, csrf_from

from scorekeeper.rules.gamefile import parse

Start = Callable[..., Scorer]

ROUTES = ["/bid", "/bids", "/undo", "/trump", "/cards", "/tricks", "/adjust", "/adjust/0/remove", "/end",
          "/resume", "/deal/1", "/deal/2"]
FIELDS = ["seat", "bid", "version", "trump", "cards", "player", "deal", "points", "reason", "bids-0", "bids-1",
          "bids-3", "tricks-0", "tricks-1", "tricks-2", "tricks-3", "tricks-9"]
VALUES = st.one_of(st.integers(-3, 12).map(str), st.sampled_from(["", "S", "NT", "x", "1.5", "-0", "1e9", "−2"]),
                   st.text(max_size=8))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(route=st.sampled_from(ROUTES), fields=st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=6),
       current=st.booleans())
def test_any_form_gets_an_answer_and_never_breaks_the_game(start: Start, route: str, fields: dict[str, str],
                                                           current: bool) -> None:
    game = start(rules={"max_cards": 3}, deals=[{"bids": [0, 1, 1, 0], "tricks": [1, 1, 1, 0]},
                                               {"bids": [None, None, 1, None]}])
    page = game.page()
    data = {"csrf_token": csrf_from(page), **fields}
    if current:
        data["version"] = str(game.version())
    response = game.client.post(game.url + route, data=data)
    assert response.status_code < 500
    assert response.status_code in (302, 400, 403, 404, 405, 409, 422)
    assert parse(game.export()).game is not None
