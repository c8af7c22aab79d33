"""The words of the rules core: every sentence it says, in the language of whoever asked.

The rules core knows no web framework. Its sentences are written in English, marked with ``_``
(or ``ngettext`` where a count decides the form) so that ``pybabel extract`` finds them, and
translated through the function the app installs with ``use``; until then (a script, a test of
the core alone) they stay English. A name for a thing that is kept in a table — a preset's
title, a rule's name — is marked with ``N_`` where it is written and translated with ``_`` where
it is shown, since a table is built once and read in every language.

Placeholders are ``%(name)s``, filled in after translation, so a translation may move them; a
number put in one is written as the current language writes numbers (``filled``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal

#: Translates one message; (singular, plural, count) for a message whose form follows a count.
Translate = Callable[[str], str]
TranslatePlural = Callable[[str, str, int], str]
#: Translates a message in a context: a word that two places use in two senses.
TranslateContext = Callable[[str, str], str]

_translate: Translate = str
_translate_plural: TranslatePlural = lambda singular, plural, n: singular if n == 1 else plural
_translate_context: TranslateContext = lambda context, message: message


#: Writes a number as the current language does (1,000 in English, 1.000 in German).
WriteNumber = Callable[[object], str]
_write_number: WriteNumber = lambda value: format(value, ",")


#: Writes a list as the current language does ("1, 2, and 3"; "1, 2 en 3").
WriteList = Callable[[list[str]], str]


def _english_list(items: list[str]) -> str:
    """A list in English, until the app installs its Babel's.

    >>> _english_list(["1"]), _english_list(["1", "2"]), _english_list(["1", "2", "3"])
    ('1', '1 and 2', '1, 2, and 3')
    """
    if len(items) < 3:
        return " and ".join(items)
    return ", ".join(items[:-1]) + ", and " + items[-1]


_write_list: WriteList = _english_list


def use_lists(write: WriteList) -> None:
    """Write the lists of the core's sentences with this (the app's Babel, in the page's
    language)."""
    global _write_list
    _write_list = write


def listed(items: list[str]) -> str:
    """Items in a sentence, as the current language lists them (``use_lists``)."""
    return _write_list(items)


def number(value: object) -> str:
    """A bound or a count in a sentence, written as the current language writes numbers.

    >>> number(1000), number(0.5)
    ('1,000', '0.5')
    """
    return _write_number(value)


def use_numbers(write: WriteNumber) -> None:
    """Write the numbers of the core's sentences with this (the app's Babel, in the page's
    language)."""
    global _write_number
    _write_number = write


#: What a placeholder writes as a number: a count, an amount (a bool is neither).
NUMBERS = (int, float, Decimal)


def filled(values: Mapping[str, object]) -> dict[str, object]:
    """A message's placeholders as the sentence shows them: each number written as the current
    language writes numbers (``number``), anything else as it is.

    >>> filled({"num": 5000, "name": "Ann", "yes": True})
    {'num': '5,000', 'name': 'Ann', 'yes': True}
    """
    return {name: (_write_number(value)
                   if isinstance(value, NUMBERS) and not isinstance(value, bool) else value)
            for name, value in values.items()}


def use(translate: Translate, translate_plural: TranslatePlural,
        translate_context: TranslateContext) -> None:
    """Translate the core's sentences with these (the app's gettext, ngettext and pgettext,
    untouched)."""
    global _translate, _translate_plural, _translate_context
    _translate, _translate_plural, _translate_context = (translate, translate_plural,
                                                         translate_context)


def _(message: str, /, **values: object) -> str:
    """``message`` in the current language, its ``%(name)s`` placeholders filled with ``values``.

    A message is always formatted, as in the templates: a ``%`` of its own is written ``%%``.

    >>> _("%(name)s deals", name="Ann"), _("100%% sure")
    ('Ann deals', '100% sure')
    """
    return _translate(message) % filled(values)


def ngettext(singular: str, plural: str, n: int, /, **values: object) -> str:
    """The form of a message for ``n`` (given to it as ``%(num)s``), in the current language.

    >>> (ngettext("%(num)s trick", "%(num)s tricks", 1),
    ...  ngettext("%(num)s trick", "%(num)s tricks", 3))
    ('1 trick', '3 tricks')
    """
    return _translate_plural(singular, plural, n) % filled({"num": n, **values})


def pgettext(context: str, message: str, /, **values: object) -> str:
    """``message`` in the sense ``context`` gives it (the bids "even" with the cards, not an even
    hand size), in the current language.

    >>> pgettext("the bids against the cards", "even")
    'even'
    """
    return _translate_context(context, message) % filled(values)


def N_(message: str, /) -> str:
    """Marks a message to be translated where it is shown, not here: it is returned as it is."""
    return message
