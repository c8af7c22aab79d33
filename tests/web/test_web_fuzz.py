"""Whatever a form sends to any POST route, and whatever a query asks of any GET route: an answer
below 500 within 2 seconds, a message with every refusal, and a refusal stores nothing. The routes
come from the app's URL map; the fields from each route's own form; the values are hostile ones
(exponents, other scripts' digits, long and huge numbers, NaN, control and format characters,
formulas of text) as well as random text."""

from __future__ import annotations

import io
import json
from collections.abc import Callable

from flask import Flask
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from webhelpers import (
    FOUR,
    Scorer,
    csrf_from,
    fill,
    hostile_text,
    json_values,
    message,
    snapshot,
    url_rules,
    within_cpu,
)
from werkzeug.routing import Rule
from werkzeug.test import TestResponse
from wtforms import FieldList, FormField
from wtforms.fields.core import UnboundField

from scorekeeper.games.forms import ImportForm, NewGameForm
from scorekeeper.play.forms import BID_TAP, AdjustForm, CardsForm, StakesForm, TrumpForm
from scorekeeper.rules.gamefile import parse
from scorekeeper.rules.presets import RULE_FIELDS
from scorekeeper.rules.stakes import STAKE_FIELDS
from scorekeeper.sheets.views import SHEET_FIELDS
from scorekeeper.table.forms import ArriveForm, EndForm, PlayerForm, RulesForm, SitOutForm

Start = Callable[..., Scorer]
FUZZ = settings(max_examples=120, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


def field_names(form: type) -> list[str]:
    """The names a form class posts: nested forms as ``rules-deal``, lists as ``players-0`` … one
    too many."""
    names = []
    for name in dir(form):
        unbound = getattr(form, name, None)
        if not isinstance(unbound, UnboundField):
            continue
        if unbound.field_class is FormField:
            names += [f"{name}-{sub}" for sub in field_names(unbound.args[0])]
        elif unbound.field_class is FieldList:
            names += [f"{name}-{i}" for i in range(unbound.kwargs.get("max_entries", 10) + 1)]
        else:
            names.append(name)
    return names


#: Seat fields as a form posts them, and as no form does (a seat too many, a leading zero, other
#: digits).
ODD_SEATS = ["01", "²", "١", "-1", "4", "10", " 1", "1e0"]
SEATS = [*(f"{kind}-{seat}" for kind in ("bids", "tricks")
           for seat in [*map(str, range(4)), *ODD_SEATS]),
         "trump", "version"]
PLAYERS = [f"players-{row}" for row in [*map(str, range(12)), *ODD_SEATS]]
#: The plan page's rows (cards-0, nt-0 …, a row too many among them) and its other fields.
PLAN = [*(f"{kind}-{row}" for kind in ("cards", "nt")
          for row in [*map(str, range(5)), "99", "100", *ODD_SEATS]),
        "marks", "shape", "top", "action", *field_names(EndForm)]
FIELDS = {"play.bid": list(BID_TAP), "play.cards": field_names(CardsForm), "play.bids": SEATS,
          "play.trump": field_names(TrumpForm), "play.adjust": field_names(AdjustForm),
          "play.tricks": SEATS, "play.correct": SEATS, "play.stakes": field_names(StakesForm),
          "games.new": [*field_names(NewGameForm), *PLAYERS, "action"],
          "games.import_game": field_names(ImportForm), "table.arrive": field_names(ArriveForm),
          "table.leave": field_names(PlayerForm), "table.sit_out": field_names(SitOutForm),
          "table.come_back": field_names(PlayerForm), "plan.plan": PLAN,
          "plan.rules": [*field_names(RulesForm), "action"], "plan.again": ["version"]}
ALL_FIELDS = sorted({name for names in FIELDS.values() for name in names} | {"version"})
GAME_ROUTES = [r for r in url_rules("POST")
               if "token" in r.arguments and not r.rule.startswith("/api/")]

HOSTILE = ["", " ", "\x00", "0", "-1", "−2", "1.5", "1e9", "1e309", "nan", "inf",
           "99999999999999999999", "١", "1_000", "0x10", "S", "NT", "x",
           "<script>alert(1)</script>", "' OR 1=1 --", "🂡", "a" * 300, "preview", "start", "random",
           "add", "remove-1", "up-0", "down-9", "edit", "yes", "custom", "5+n", "n**n**n",
           "__import__('os')", "fixed", "manual", "1-2-3NT-2-1", "S-D-C-H-NT", "per_point", "ante",
           "EUR", "Ann,Bob,Cy", "4", "a4", "letter", "landscape", "save", "stop", "rebuild", "one",
           "nt", "less-0", "more-2", "remove-1", "down-up", "up-down"]
VALUES = st.one_of(st.integers(-3, 12).map(str), st.sampled_from(HOSTILE), hostile_text)
EXTRA = st.dictionaries(st.text(max_size=8), VALUES, max_size=2)


def _timed(call: Callable[[], TestResponse]) -> TestResponse:
    """A request answered within the bound of RULES.md §8 (far above what any of them takes), in the
    work it costs the app (``within_cpu``)."""
    with within_cpu():
        return call()


def answered(response: TestResponse, also: tuple[int, ...] = ()) -> None:
    """Below 500 (one of the answers a request may have, and ``also``), and a refusal says what is
    wrong."""
    event(f"HTTP {response.status_code}")
    assert response.status_code in (200, 302, 400, 403, 404, 405, 409, 413, 422, *also), (
        response.status_code)
    if response.status_code >= 400:
        assert message(response), "a refusal without a message"


@FUZZ
@given(data=st.data(), number=st.integers(-1, 3), index=st.integers(-1, 2), current=st.booleans())
def test_any_form_on_any_game_route_gets_an_answer_and_a_refusal_changes_nothing(
        app: Flask, start: Start, data: st.DataObject, number: int, index: int,
        current: bool) -> None:
    rule = data.draw(st.sampled_from(GAME_ROUTES), "route")
    names = FIELDS.get(rule.endpoint, ALL_FIELDS)
    fields = data.draw(st.dictionaries(st.sampled_from(names), VALUES, max_size=8), "fields")
    game = start(rules={"max_cards": 3}, deals=[{"bids": [0, 1, 1, 0], "tricks": [1, 1, 1, 0]},
                                               {"bids": [None, None, 1, None]}],
                 adjustments=[{"deal": 1, "player": 1, "points": 5, "reason": "revoke"}])
    form = {"csrf_token": csrf_from(game.page()), **fields, **data.draw(EXTRA, "extra")}
    if current:
        form["version"] = str(game.version())
    before = snapshot(app)
    url = fill(rule, token=game.token, number=number, index=index)
    response = _timed(lambda: game.client.post(url, data=form))
    answered(response)
    if response.status_code >= 400:
        assert snapshot(app) == before
    elif rule.endpoint != "games.delete":
        assert parse(game.export()).game is not None


NEW_GAME = {"players-0": "Ann", "players-1": "Bob", "players-2": "Cy", "action": "start"}


@FUZZ
@given(fields=st.dictionaries(st.sampled_from(FIELDS["games.new"]), VALUES, max_size=10),
       extra=EXTRA)
def test_any_new_game_form_gets_an_answer_and_stores_a_game_only_when_started(
        app: Flask, fields: dict[str, str], extra: dict[str, str]) -> None:
    client, before = app.test_client(), snapshot(app)
    form = {**NEW_GAME, **fields, **extra,
            "csrf_token": csrf_from(client.get("/new").get_data(as_text=True))}
    response = _timed(lambda: client.post("/new", data=form))
    answered(response)
    stored = snapshot(app)
    if response.status_code == 302:
        assert stored[:-1] == before and parse(json.loads(stored[-1][1])).players
    else:
        assert stored == before


GAME_FILES = st.fixed_dictionaries({"players": st.just(FOUR)}, optional={
    "title": json_values,
    "rules": json_values | st.fixed_dictionaries({}, optional={"max_cards": json_values}),
    "deals": json_values, "stakes": json_values, "links": json_values})
CONTENTS = st.one_of(
    st.binary(max_size=300),
    st.text(max_size=300).map(str.encode),
    (json_values | GAME_FILES).map(lambda value: json.dumps(value).encode()),
    st.builds(lambda games: json.dumps({"format": "oh-hell-scorekeeper/backup-1",
                                        "games": games}).encode(),
              st.lists(json_values | GAME_FILES, max_size=3)),
)


@FUZZ
@given(content=CONTENTS, pasted=st.booleans())
def test_any_file_to_import_gets_an_answer_and_a_refusal_stores_nothing(app: Flask, content: bytes,
                                                                     pasted: bool) -> None:
    client, before = app.test_client(), snapshot(app)
    form: dict[str, object] = {
        "csrf_token": csrf_from(client.get("/import").get_data(as_text=True))}
    if pasted:
        form["text"] = content.decode("utf-8", "replace")
    else:
        form["file"] = (io.BytesIO(content), "game.json")
    response = _timed(lambda: client.post("/import", data=form, content_type="multipart/form-data"))
    answered(response)
    assert response.status_code in (200, 302, 422)
    if response.status_code == 422:
        assert snapshot(app) == before
    elif response.status_code == 302:
        assert snapshot(app)[:-1] == before


QUERY_NAMES = sorted({*SHEET_FIELDS, *RULE_FIELDS, *STAKE_FIELDS, "v", "preset",
                      *FIELDS["games.new"], *(f"rules-{name}" for name in RULE_FIELDS)})


@FUZZ
@given(rule=st.sampled_from(url_rules("GET")), view=st.booleans(),
       query=st.dictionaries(st.sampled_from(QUERY_NAMES) | st.text(max_size=8), VALUES,
                             max_size=6))
def test_any_query_on_any_get_route_gets_an_answer_and_changes_nothing(
        app: Flask, start: Start, rule: Rule, view: bool, query: dict[str, str]) -> None:
    game = start(players=["Ann", "Bob", "Cy"], rules={"max_cards": 2},
                 deals=[{"bids": [1, 1, 1], "tricks": [0, 1, 1]}])
    before = snapshot(app)
    url = fill(rule, token=game.view_token if view else game.token, number=1,
               filename="css/app.css")
    with _timed(lambda: game.client.get(url, query_string=query)) as response:
        answered(response)
    assert snapshot(app) == before


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=st.dictionaries(st.sampled_from(QUERY_NAMES), VALUES, max_size=6))
def test_any_query_for_a_blank_sheet_or_a_scoring_example_is_answered_quickly(
        app: Flask, query: dict[str, str]) -> None:
    """The two pages that compute from a query alone: every rule field, stake and sheet option."""
    client = app.test_client()
    for url in ("/sheets/blank.pdf", "/new/example"):
        with _timed(lambda: client.get(url, query_string={"players": "4", **query})) as response:  # noqa: B023
            answered(response)
            if url == "/new/example":
                assert response.status_code == 200 and "error" in response.get_json()
    assert snapshot(app) == []
