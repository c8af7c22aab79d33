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
    untranslated = [m.id for m in catalog if m.id and not (all(m.string) if isinstance(m.string, tuple) else m.string)]
    assert not untranslated, f"{len(untranslated)} untranslated in {code}, such as {untranslated[:5]}"
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
    footer = _read(TRANSLATIONS / code / "LC_MESSAGES" / "messages.po", code).get("page %(page)s of %(pages)s")
    assert footer is not None and 0 <= footer.string.index("%(page)s") < footer.string.index("%(pages)s")


def test_the_languages_are_the_catalogs_there_are() -> None:
    found = {path.parent.parent.name for path in TRANSLATIONS.glob("*/LC_MESSAGES/messages.po")}
    assert found == set(OTHER_LANGUAGES)
