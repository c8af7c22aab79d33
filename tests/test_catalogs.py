"""The catalogs: up to date with the code, and every sentence translated in every language."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from scorekeeper.rules.values import LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "translations"
PLACEHOLDER = re.compile(r"%\((\w+)\)s|%%")
OTHER_LANGUAGES = [code for code in LANGUAGES if code != "en"]


def _method_map() -> tuple[list[tuple[str, str]], dict[str, dict[str, str]]]:
    """babel.cfg, read as `pybabel extract -F babel.cfg` reads it."""
    from babel.messages.frontend import parse_mapping_cfg

    with open(ROOT / "babel.cfg") as config:
        return parse_mapping_cfg(config)


def _extracted() -> set[tuple[str, str | None]]:
    methods, options = _method_map()
    keywords = {**DEFAULT_KEYWORDS, "_l": None}  # as the Makefile's `-k _l -k N_`
    found: set[tuple[str, str | None]] = set()
    for _, _, message, _, context in extract_from_dir(str(ROOT), methods, options, keywords):
        singular = message[0] if isinstance(message, tuple) else message
        if singular:
            found.add((singular, context))
    return found


def _ids(catalog: Catalog) -> set[tuple[str, str | None]]:
    return {(m.id[0] if isinstance(m.id, tuple) else m.id, m.context) for m in catalog if m.id}


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=locale)


def test_the_catalog_template_holds_exactly_the_sentences_of_the_code() -> None:
    template = _ids(_read(TRANSLATIONS / "messages.pot"))
    code = _extracted()
    assert not code - template, f"run make messages: new sentences {sorted(code - template)[:10]}"
    assert not template - code, f"run make messages: sentences gone {sorted(template - code)[:10]}"


def _catalogs() -> Iterator[tuple[str, Catalog]]:
    for code in OTHER_LANGUAGES:
        yield code, _read(TRANSLATIONS / code / "LC_MESSAGES" / "messages.po", code)


@pytest.mark.parametrize("code", OTHER_LANGUAGES)
def test_every_sentence_is_translated_none_fuzzy_none_left_over(code: str) -> None:
    catalog = _read(TRANSLATIONS / code / "LC_MESSAGES" / "messages.po", code)
    template = _ids(_read(TRANSLATIONS / "messages.pot"))
    assert _ids(catalog) == template, "run make messages"
    assert not catalog.obsolete
    assert catalog.plural_forms.startswith(f"nplurals={catalog.num_plurals};")
    untranslated = [m.id for m in catalog
                    if m.id and not (all(m.string) if isinstance(m.string, tuple) else m.string)]
    assert not untranslated, (f"{len(untranslated)} untranslated in {code}, "
                              f"such as {untranslated[:5]}")
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    assert not fuzzy, f"fuzzy in {code}: {fuzzy[:5]}"


@pytest.mark.parametrize("code", OTHER_LANGUAGES)
def test_every_translation_keeps_the_placeholders_of_its_sentence(code: str) -> None:
    catalog = _read(TRANSLATIONS / code / "LC_MESSAGES" / "messages.po", code)
    wrong = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = set(PLACEHOLDER.findall(ids[-1])) - {""}
        for string in strings:
            found = set(PLACEHOLDER.findall(string)) - {""}
            # A singular form may say "one" in words instead of %(num)s.
            if found != wanted and not (len(ids) > 1 and found == wanted - {"num"}):
                wrong.append((ids[0], string))
            try:
                string % {name: 1 for name in found | {"num"}}
            except (KeyError, ValueError, TypeError) as exc:
                wrong.append((ids[0], f"{string} ({exc})"))
        errors = list(message.check(catalog))
        if errors:
            wrong.append((ids[0], str(errors)))
    assert not wrong, f"{len(wrong)} in {code}, such as {wrong[:5]}"


@pytest.mark.parametrize("code", OTHER_LANGUAGES)
def test_the_sheets_page_footer_keeps_page_before_pages(code: str) -> None:
    """templates/sheets/sheet.html cuts it at its two numbers, which CSS counts: in this order."""
    footer = _read(TRANSLATIONS / code / "LC_MESSAGES" / "messages.po", code).get(
        "page %(page)s of %(pages)s")
    assert footer is not None and (
        0 <= footer.string.index("%(page)s") < footer.string.index("%(pages)s"))


def test_the_languages_are_the_catalogs_there_are() -> None:
    found = {path.parent.parent.name for path in TRANSLATIONS.glob("*/LC_MESSAGES/messages.po")}
    assert found == set(OTHER_LANGUAGES)


#: A count in a sentence (by the name of its placeholder) and the plural noun it counts, a word
#: between them at most: "%(num)s tricks", "%(cards)s cards", "%(top)s cards down to 1".
COUNTED = re.compile(r"%\((num|cards|tricks|deals|rounds|games|players|top|played|dealt|left|most"
                     r"|max|digits|length)\)s"
                     r" (?:<b>)?(?:\w+ )?(tricks|cards|deals|rounds|games|players|bids|characters"
                     r"|entries|digits|decimals|numbers|points|tables|seats|hours|minutes|seconds)\b")
#: Sentences whose count is never 1 (nor 0), so their noun is always plural: a limit of the app,
#: or a count that can't be 1 where the sentence is said.
NEVER_ONE = {
    # the app's limits
    "An event has at most %(num)s players",
    ("This group holds %(num)s games, the most a group can hold: start a new group for the next "
     "games."),
    "%(formula)s gives more than %(most)s points, too many for a deal",
    # min() and max(): 2 to 20; abs() says "one number"
    "%(function)s() takes %(fewest)s to %(most)s numbers",
    "%(what)s must be a formula of 1 to %(most)s characters, such as 10 + bid",
    "A game has 2 to %(most)s players, listed in seating order",
    "at most %(max)s characters, please",
    "it holds a number of more than %(digits)s digits",
    "This game has %(players)s players already, as many as a game can have.",
    # longer than the longest name
    "%(length)s characters: a name has at most %(max)s. Shorten it.",
    # more tricks than the cards (at least 1) or fewer than 0
    "%(player)s can't have taken %(tricks)s tricks: it must be 0 to %(cards)s.",
    # a hand above the top hand size (at least 1), or one a pack can't deal: a pack deals 1 card to
    # every player a game can have
    "a hand of %(cards)s cards is above the top hand size of %(top)s",
    ("%(players)s players can't get %(cards)s cards from %(deck)s cards: play the rest with at "
     "most %(most)s (change the plan)"),
    ("%(players)s players can't get %(cards)s cards from %(deck)s cards: play the rest with at "
     "most %(most)s (change the plan) or add a pack"),
    ("%(players)s players can't get %(cards)s cards from one pack: play the rest with at most "
     "%(most)s (change the plan) or add a pack"),
    ("A %(hand)s of %(cards)s cards can't be dealt to %(players)s players from %(deck)s cards: the "
     "largest possible is %(most)s; choose at most %(most)s or play with a second pack."),
    ("A %(hand)s of %(cards)s cards can't be dealt to %(players)s players from %(deck)s cards: the "
     "largest possible is %(most)s; choose at most %(most)s."),
    # hands of 1 card are always quick to check
    ("The house formulas are too much work to check for every bid and trick count of hands of up "
     "to %(cards)s cards: use fewer divisions (/) and powers (**), or smaller hands."),
}

#: A number followed by a verb, not by what it counts.
NOT_COUNTS = {"Player %(num)s deals"}


def test_a_count_s_noun_takes_the_form_of_the_count() -> None:
    """"the 1 trick", not "the 1 tricks": a sentence counting something is an ngettext pair whose
    English singular says its noun in the singular; only a count that is never 1 is said with
    ``_``."""
    template = _read(TRANSLATIONS / "messages.pot")
    single = [m.id for m in template if m.id and not m.pluralizable and COUNTED.search(m.id)
              and m.id not in NEVER_ONE | NOT_COUNTS]
    assert not single, f"say these with ngettext: {single}"
    assert not NEVER_ONE - {m.id for m in template}, "NEVER_ONE names a sentence there is no longer"
    # The count that chooses the form is %(num)s; another count of the sentence is a limit
    # ("%(most)s tables").
    plural_singular = [m.id[0] for m in template if m.pluralizable
                       and any(found.group(1) == "num" for found in COUNTED.finditer(m.id[0]))]
    assert not plural_singular, (
        f"the singular of these says its noun in the plural: {plural_singular}")
