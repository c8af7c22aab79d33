"""Choosing the language: the lang parameter, this phone's choice, the browser's preference,
English."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

import pytest
from babel.numbers import get_decimal_symbol, parse_decimal
from flask import Flask, render_template_string
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webhelpers import HOSTILE_TEXT, hostile_text

from scorekeeper.play.wording import money, points, score, tick
from scorekeeper.rules import words
from scorekeeper.rules.values import LANGUAGES
from scorekeeper.store.db import db
from scorekeeper.store.games import Game
from scorekeeper.web.language import TAGS

#: What a page, a sheet or a header says, the same on any database: `make test` runs it on SQLite
#: only.
pytestmark = pytest.mark.rendering

LANG = re.compile(r'<html lang="([^"]+)">')
FUZZ = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


def lang_of(client: FlaskClient, url: str = "/", **headers: str) -> str:
    response = client.get(url, headers=headers)
    assert response.status_code == 200, response.data[:300]
    found = LANG.search(response.get_data(as_text=True))
    assert found, "no <html lang>"
    return found.group(1).split("-")[0]  # pt-PT is Portuguese


def test_portuguese_pages_say_they_are_portugal_s(client: FlaskClient) -> None:
    page = client.get("/?lang=pt").get_data(as_text=True)
    assert '<html lang="pt-PT">' in page and '<a href="/language/pt" lang="pt"' in page


def test_english_without_any_preference(client: FlaskClient) -> None:
    assert lang_of(client) == "en"


@pytest.mark.parametrize(("header", "expected"), [
    ("nl-NL,nl;q=0.9,en;q=0.8", "nl"), ("de-DE", "de"), ("fr-CA,fr;q=0.9", "fr"), ("es-AR", "es"),
    ("it", "it"), ("pt-BR,pt;q=0.9", "pt"), ("ja,zh;q=0.9", "en"),
    ("sv,de;q=0.5", "de"), ("*", "en"),
])
def test_the_browser_preference_picks_the_first_language_the_app_speaks(
        client: FlaskClient, header: str, expected: str) -> None:
    assert lang_of(client, **{"Accept-Language": header}) == expected


def test_the_header_switch_is_remembered_on_this_phone_and_returns_to_the_page(
        client: FlaskClient) -> None:
    response = client.get("/language/de?next=/new?x=1")
    assert response.status_code == 303 and response.headers["Location"] == "/new?x=1"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("lang=de;") and "Max-Age=31536000" in cookie and "HttpOnly" in cookie
    # the phone's choice beats the browser's
    assert lang_of(client, **{"Accept-Language": "fr"}) == "de"
    client.get("/language/NL")
    assert lang_of(client) == "nl"


def test_the_lang_parameter_wins_for_that_page_only(client: FlaskClient) -> None:
    client.get("/language/de")
    assert lang_of(client, "/?lang=fr") == "fr"
    assert lang_of(client) == "de"


def test_every_page_offers_every_language(client: FlaskClient) -> None:
    page = client.get("/new?lang=it").get_data(as_text=True)
    for code, name in LANGUAGES.items():
        assert f'<a href="/language/{code}" lang="{code}"' in page and f">{name}</a>" in page
    assert 'lang="it" aria-current="true"' in page


@pytest.mark.parametrize(("referrer", "back"), [
    ("http://localhost/g/abc?x=1&lang=fr", "/g/abc?x=1"), ("http://localhost/new?lang=de", "/new"),
    ("http://localhost/", "/"), ("https://evil.example/g/abc", "/"),
    ("http://localhost.evil/x", "/"),
    ("http://localhost//evil.example", "/"), ("not a url", "/"), ("", "/"),
])
def test_the_switch_comes_back_to_the_page_it_was_made_on(client: FlaskClient, referrer: str,
                                                          back: str) -> None:
    response = client.get("/language/nl", headers={"Referer": referrer} if referrer else {})
    assert response.status_code == 303 and response.headers["Location"] == back


def test_an_unknown_language_is_refused_with_the_ones_there_are(client: FlaskClient) -> None:
    response = client.get("/?lang=xx")
    assert response.status_code == 400
    assert ("The language must be one of en, nl, de, fr, es, it, pt, not &#39;xx&#39;"
            in response.get_data(as_text=True))
    assert client.get("/language/xx").status_code == 404
    assert "lang=" not in client.get("/language/xx").headers.get("Set-Cookie", "")


@pytest.mark.parametrize("target", ["//evil.example/x", "https://evil.example", "/\\evil.example",
                                    "javascript:alert(1)", "evil", "/" + "a" * 400, "/\x00",
                                    "/ space"])
def test_switching_never_leads_off_the_site(client: FlaskClient, target: str) -> None:
    response = client.get("/language/fr", query_string={"next": target})
    assert response.status_code == 303 and response.headers["Location"] == "/"


def test_a_cookie_of_no_language_is_ignored(client: FlaskClient) -> None:
    client.set_cookie("lang", "klingon")
    assert lang_of(client, **{"Accept-Language": "es"}) == "es"


def test_head_requests_and_caches_see_the_language(client: FlaskClient) -> None:
    assert client.head("/language/pt").status_code == 303
    response = client.get("/")
    assert {"Cookie", "Accept-Language"} <= set(response.vary)


def test_a_game_page_kept_in_one_language_is_not_served_in_another(  # type: ignore[no-untyped-def]
        client: FlaskClient, start) -> None:
    scorer = start(rules={"preset": "oh-hell"})
    url = f"/g/{scorer.token}"
    english = client.get(url).get_data(as_text=True)
    client.get("/language/nl")
    dutch = client.get(url).get_data(as_text=True)
    assert '<html lang="nl">' in dutch and '<html lang="en">' in english


@FUZZ
@given(code=hostile_text | st.sampled_from(HOSTILE_TEXT)
       | st.sampled_from([*LANGUAGES, "EN", " nl ", "pt-BR"]))
def test_hostile_lang_parameters_and_cookies_break_nothing_and_store_nothing(
        app: Flask, code: str) -> None:
    client = app.test_client()
    with app.app_context():
        before = db.session.query(Game).count()
    response = client.get("/new", query_string={"lang": code})
    assert response.status_code in (200, 400)
    if response.status_code == 200:
        assert LANG.search(response.get_data(as_text=True)).group(1) in {*LANGUAGES, *TAGS.values()}  # type: ignore[union-attr]
    switch = client.get("/language/x", query_string={"next": code})
    assert switch.status_code in (303, 404)
    client.set_cookie("lang", code.encode("utf-8", "replace").decode("latin-1", "replace")[:50])
    assert client.get("/").status_code == 200
    with app.app_context():
        assert db.session.query(Game).count() == before


@pytest.mark.parametrize(("code", "amount", "currency", "expected"), [
    ("en", "1.20", "€", "€1.20"), ("nl", "1.20", "€", "€ 1,20"), ("fr", "1.20", "€", "1,20 €"),
    ("de", "1234.5", "EUR", "1.234,50 €"), ("pt", "-0.5", "$", "−US$ 0,50"),
    ("it", "2", "kr", "2,00 kr"), ("es", "-3.25", "", "−3,25"), ("en", "-3.25", "£", "−£3.25"),
])
def test_money_is_written_the_languages_way(app: Flask, code: str, amount: str, currency: str,
                                            expected: str) -> None:
    with app.test_request_context(f"/?lang={code}"):
        app.preprocess_request()
        assert re.sub(r"[\u00a0\u202f]", " ", money(Decimal(amount), currency)) == expected


def test_points_take_the_languages_decimal_sign(app: Flask) -> None:
    with app.test_request_context("/?lang=de"):
        app.preprocess_request()
        assert points(Fraction(-9, 4)) == "−2,25" and points(Fraction(5, 2)) == "2½"


def _read(written: str, code: str) -> Decimal:
    """A number as ``code`` writes it, read back (a real minus sign, ½ for a half)."""
    half = written.endswith("½")
    digits = written.rstrip("½").replace("\u2212", "-")
    value = parse_decimal(digits, locale=code, strict=True) if digits.strip("-") else Decimal(0)
    return value + (Decimal("0.5") if value >= 0 and not digits.startswith("-")
                    else Decimal("-0.5")) if half else value


@FUZZ
@given(code=st.sampled_from(list(LANGUAGES)),
       value=st.fractions(min_value=-100_000, max_value=100_000, max_denominator=400))
def test_scores_points_and_ticks_are_written_in_the_language_s_numbers(
        app: Flask, code: str, value: Fraction) -> None:
    """Whatever the score, a page writes it with its language's decimal sign and grouping (and a
    real minus sign): read back in that language, it is the score, to the places shown."""
    with app.test_request_context(f"/?lang={code}"):
        app.preprocess_request()
        written = score(value)
        assert ("-" not in written and _read(written, code)
                == Decimal(round(value, 2).numerator) / round(value, 2).denominator)
        if value.denominator != 1:
            assert get_decimal_symbol(code) in written
        shown = points(value)
        if value.denominator in (1, 2):
            assert _read(shown, code) == Decimal(value.numerator) / value.denominator
        else:
            assert _read(shown, code) == round(Decimal(value.numerator) / value.denominator, 3)
        assert (_read(tick(float(value)), code)
                == round(Decimal(value.numerator) / value.denominator, 3))


def test_a_number_in_a_sentence_is_written_the_languages_way(app: Flask) -> None:
    """A count put in a sentence, by a template ("_", "ngettext", "{% trans %}") or by the rules
    core, is written as the page's language writes numbers: 5.000 in Dutch, 5,000 in English."""
    template = ("{{ _('%(n)s a', n=5000) }}|{{ ngettext('%(num)s b', '%(num)s bs', 5000) }}|"
                "{% trans n=1234.5 %}{{ n }} c{% endtrans %}|{{ 1234 | number }}")
    for code, written in (("nl", "5.000 a|5.000 bs|1.234,5 c|1.234"),
                          ("en", "5,000 a|5,000 bs|1,234.5 c|1,234")):
        with app.test_request_context(f"/?lang={code}"):
            app.preprocess_request()
            assert render_template_string(template) == written
            assert words._("%(num)s x", num=5000) == written.split(" ")[0] + " x"


def test_a_dutch_scoreboard_groups_its_thousands(client: FlaskClient, start) -> None:  # type: ignore[no-untyped-def]
    """A total of 1,500 points (a starting score) is "1.500" on a Dutch scoreboard."""
    scorer = start(rules={"deal": "fixed", "max_cards": 1, "deals": 3},
                   deals=[{"bids": [1, 1, 1, 1], "tricks": [1, 0, 0, 0]}],
                   adjustments=[{"deal": 1, "player": 0, "points": 1489, "reason": "start"}])
    page = client.get(f"/g/{scorer.token}?lang=nl").get_data(as_text=True)
    assert re.search(r'<b class="tot">1\.500</b>', page) and "1500" not in page


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(code=hostile_text | st.sampled_from([*LANGUAGES, "NL", "xx"]))
def test_a_sheet_in_a_hostile_language_is_printed_or_refused_in_words(
        client: FlaskClient, code: str) -> None:
    response = client.get("/sheets/blank.pdf", query_string={"players": "4", "lang": code})
    if code.strip().lower() in LANGUAGES and len(code) <= 10:
        assert response.status_code == 200 and response.mimetype == "application/pdf"
    else:
        assert response.status_code == 400 and b"The language must be one of" in response.data


@pytest.mark.parametrize(("code", "bound"),
                         [("en", "1,000"), ("de", "1.000"), ("fr", "1\u202f000"), ("nl", "1.000")])
def test_a_refusal_writes_its_bounds_the_languages_way(client: FlaskClient, code: str,
                                                       bound: str) -> None:
    response = client.post(f"/api/games?lang={code}", json={"players": ["Ann", "Bob", "Cy"],
                                                            "stakes": {"per_point": "5000"}})
    assert response.status_code == 422
    assert f"{bound} " in response.get_json()["error"] and "'5000'" in response.get_json()["error"]


def test_a_game_s_sheet_link_prints_in_the_page_s_language(client: FlaskClient, start) -> None:  # type: ignore[no-untyped-def]
    scorer = start()
    for code in ("en", "nl"):
        page = client.get(f"/g/{scorer.token}?lang={code}").get_data(as_text=True)
        assert f'href="/g/{scorer.token}/sheet.pdf?lang={code}"' in page
        assert client.get(f"/g/{scorer.token}/sheet.pdf?lang={code}").mimetype == "application/pdf"
