"""Values from outside (RULES.md §8), parsed and bounded in one place.

Everything a person or a program gives the app — the game file, the API, every form field and
every query parameter — reaches the rules as one of these values, read by these functions and
nowhere else: no ``int()``, ``Decimal()`` or ``Fraction()`` is called on outside text anywhere
else. A value out of bounds is refused with a ``ValueRefused`` that names it in a player's words
and gives the bounds, before anything is computed from it.

- Numbers written as text are ASCII digits with an optional leading minus (the typographic
  ``−`` counts as one), a ``.`` only where decimals are meant, at most 12 characters: no
  exponents, no other scripts' digits, no ``NaN``. Numbers in JSON are integers where counts are
  meant (``5.0`` is no count).
- Names, titles and reasons are printable text: no control or format characters (zero-width,
  bidirectional overrides), which could hide or disguise what is shown.
- House formulas are arithmetic on numbers and four names, compiled here into a function; no
  text, attribute, call or name outside that list gets through.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from decimal import Decimal
from fractions import Fraction
from typing import NoReturn

from . import words
from .characters import LINE_BREAKS, VISIBLE, character_name, hidden_character
from .errors import UnknownVariantError, ValueRefused
from .words import _, ngettext

#: The most characters a number written as text may have.
NUMBER_CHARS = 12
MAX_NAME = 40
MAX_TEXT = 100
MAX_FORMULA = 200
#: The most points a house formula may give one player in one deal.
MAX_FORMULA_POINTS = 1_000_000
#: The finest fraction of a point a house formula gives: thousandths.
MAX_DENOMINATOR = 1000

Points = int | Fraction


_WHOLE_TEXT = re.compile(r"-?[0-9]+")
_DECIMAL_TEXT = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


def shown(value: object, most: int = 20) -> str:
    """A value as a message quotes it: its repr, cut short so no message echoes a huge input.

    >>> shown("two"), shown("9" * 40), shown(2.5)
    ("'two'", "'99999999999999999…", '2.5')
    """
    if type(value) is int and value.bit_length() > 3 * most:
        digits = int(value.bit_length() * 0.30103) + 1
        return ngettext("a number of about %(num)s digit", "a number of about %(num)s digits",
                        digits)
    text = repr(value)
    return text if len(text) <= most else text[: most - 2] + "…"


#: What a message calls a value: its name, or a function that gives the name in the current
#: language, called only when the value is refused (a value read well costs no translation, and may
#: be read where no language is chosen, such as a migration).
What = str | Callable[[], str]


def said(what: What) -> str:
    """The name of a value as a message says it.

    >>> said("The title"), said(lambda: "The title")
    ('The title', 'The title')
    """
    return what if isinstance(what, str) else what()


def refuse(what: What, should: str, value: object) -> NoReturn:
    """Raise ValueRefused: "<what> must be <should>, not <value>" (``what`` and ``should``
    translated by the caller; ``what`` may be a function that translates it)."""
    raise ValueRefused(_("%(what)s must be %(should)s, not %(value)s", what=said(what),
                         should=should, value=shown(value)))


def _text_number(value: str) -> str:
    """A number's text as written: trimmed, with a typographic minus read as ``-``."""
    return value.strip().replace("\u2212", "-")


def whole(value: object, what: What, low: int, high: int) -> int:
    """A whole number from ``low`` to ``high``: a JSON integer, or text of ASCII digits.

    >>> whole(" 7 ", "Top hand", 1, 13), whole("−2", "Points", -10, 10), whole(3, "Deals", 1, 200)
    (7, -2, 3)
    >>> whole("1e5", "Top hand", 1, 13)
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.ValueRefused: Top hand must be a whole number from 1 to 13, not '1e5'
    >>> whole("²", "Players", 2, 10)
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.ValueRefused: Players must be a whole number from 2 to 10, not '²'
    >>> whole(5.0, "Deals", 1, 200)
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.ValueRefused: Deals must be a whole number from 1 to 200, not 5.0
    """
    number: int | None = None
    if type(value) is int:
        number = value
    elif isinstance(value, str):
        text = _text_number(value)
        if len(text) <= NUMBER_CHARS and _WHOLE_TEXT.fullmatch(text):
            number = int(text)
    if number is None or not low <= number <= high:
        refuse(what, _("a whole number from %(low)s to %(high)s", low=words.number(low),
                       high=words.number(high)), value)
    return number


def count(value: object, what: What, low: int, high: int) -> int:
    """A count or an index in a game file: a JSON integer (not ``5.0``, not ``"5"``) from ``low`` to
    ``high``. Forms and queries read their text with ``whole`` first.

    >>> count(3, "Deals", 1, 200)
    3
    >>> count("3", "Deals", 1, 200)
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.ValueRefused: Deals must be a whole number from 1 to 200, not '3'
    """
    if type(value) is not int or not low <= value <= high:
        refuse(what, _("a whole number from %(low)s to %(high)s", low=words.number(low),
                       high=words.number(high)), value)
    return value


def optional_whole(value: object, what: What, low: int, high: int) -> int | None:
    """``whole``, or None for a value left out (None, or empty text).

    >>> optional_whole(" ", "Deals", 1, 200), optional_whole("12", "Deals", 1, 200)
    (None, 12)
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return whole(value, what, low, high)


def decimal(value: object, what: What, low: Decimal, high: Decimal, places: int) -> Decimal:
    """An exact amount from ``low`` to ``high`` with at most ``places`` decimals: text (or a
    JSON integer); a JSON float is refused, since it is not exact.

    >>> decimal("0.05", "Per point", Decimal("0.0001"), Decimal(1000), 4)
    Decimal('0.05')
    >>> decimal("1e-99999999", "Per point", Decimal("0.0001"), Decimal(1000), 4)
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.ValueRefused: Per point must be an amount from 0.0001 to 1,000
    with at most 4 decimals, such as "0.05", not '1e-99999999'
    """
    amount: Decimal | None = None
    if type(value) is int and abs(value) < 10**NUMBER_CHARS:
        amount = Decimal(value)
    elif isinstance(value, str):
        text = _text_number(value)
        if len(text) <= NUMBER_CHARS and _DECIMAL_TEXT.fullmatch(text):
            amount = Decimal(text)
    step = Decimal(1).scaleb(-places)
    if amount is None or not low <= amount <= high or amount % step != 0:
        refuse(what, ngettext('an amount from %(low)s to %(high)s with at most %(num)s decimal, '
                              'such as "0.05"',
                              'an amount from %(low)s to %(high)s with at most %(num)s decimals, '
                              'such as "0.05"', places, low=words.number(low),
                              high=words.number(high)), value)
    return amount


YES = frozenset({"yes", "true", "on", "1"})
NO = frozenset({"no", "false", "off", "0"})


def boolean(value: object, what: What) -> bool:
    """Yes or no: a JSON boolean, or text such as yes/no, true/false, on/off, 1/0.

    >>> (boolean(True, "Spades double"), boolean(" Yes ", "Spades double"),
    ...  boolean("0", "Spades double"))
    (True, True, False)
    """
    if type(value) is bool:
        return value
    if isinstance(value, str) and len(value) <= NUMBER_CHARS:
        word = value.strip().lower()
        if word in YES or word in NO:
            return word in YES
    refuse(what, _("yes or no"), value)


def flag(value: object, what: What) -> bool:
    """Yes or no in a game file: a JSON boolean (forms and queries read theirs with ``boolean``).

    >>> flag(False, "Spades double")
    False
    """
    if type(value) is not bool:
        refuse(what, _("true or false"), value)
    return value


def choice(value: object, what: What, options: Iterable[str]) -> str:
    """One of a few words (a preset, a pattern, a paper size …).

    >>> choice("down-up", "Deal pattern", ("down-up", "up"))
    'down-up'
    >>> choice(["up"], "Deal pattern", ("down-up", "up"))
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.UnknownVariantError: Deal pattern must be one of down-up, up,
    not ['up']
    """
    known = tuple(options)
    if isinstance(value, str) and value in known:
        return value
    raise UnknownVariantError(_("%(what)s must be one of %(known)s, not %(value)s",
                                what=said(what), known=", ".join(known), value=shown(value)))


#: The languages the app speaks, by code, each named in its own language.
LANGUAGES = {"en": "English", "nl": "Nederlands", "de": "Deutsch", "fr": "Français",
             "es": "Español", "it": "Italiano", "pt": "Português"}


def language(value: object, what: What | None = None) -> str:
    """One of the app's languages by its code, in either case (``NL`` is ``nl``).

    >>> language("nl"), language(" DE ")
    ('nl', 'de')
    >>> language("xx")
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.UnknownVariantError: The language must be one of en, nl, de, fr, es,
    it, pt, not 'xx'
    """
    code = value.strip().lower() if isinstance(value, str) and len(value) <= 10 else value
    return choice(code, what or (lambda: _("The language")), LANGUAGES)


def text(value: object, what: What, most: int = MAX_TEXT) -> str:
    """A title or a reason: printable text of at most ``most`` characters (may be empty), on one
    line, trimmed and its spaces folded into single spaces.

    >>> text(" Friday  at Ann's ", "The title")
    "Friday at Ann's"
    >>> text("revoke" + chr(27), "The reason")
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.ValueRefused: The reason contains an invisible character (escape):
    type it again without it
    >>> text("Club\\nnight", "The name")
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.ValueRefused: The name runs over more than one line (or holds a tab):
    write it on one line
    """
    if value is None:
        return ""
    if not isinstance(value, str):
        refuse(what, ngettext("a text of at most %(num)s character",
                              "a text of at most %(num)s characters", most),
               value)
    if not LINE_BREAKS.isdisjoint(value.strip()):
        raise ValueRefused(_("%(what)s runs over more than one line (or holds a tab): "
                             "write it on one line", what=said(what)))
    cleaned = " ".join(value.split())
    if len(cleaned) > most:
        raise ValueRefused(ngettext("%(what)s is longer than %(num)s character: shorten it",
                                    "%(what)s is longer than %(num)s characters: shorten it", most,
                                    what=said(what)))
    found = hidden_character(cleaned)
    if found is not None:
        raise ValueRefused(_("%(what)s contains an invisible character (%(character)s): "
                             "type it again without it", what=said(what),
                             character=character_name(found)))
    return cleaned


def name(value: object, what: What | None = None) -> str:
    """A player's name: 1 to 40 printable characters, inner white space folded to one space.

    >>> name("  Ann   Lee ")
    'Ann Lee'
    >>> name("\u200b\u200b")
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.ValueRefused: A player's name contains an invisible character
    (zero width space): type it again without it
    """
    what = what or (lambda: _("A player's name"))
    if value is not None and not isinstance(value, str):
        refuse(what, ngettext("a text of at most %(num)s character",
                              "a text of at most %(num)s characters", MAX_NAME),
               value)
    if value is None or not value.strip():
        raise ValueRefused(_("%(what)s is missing: every player needs a name", what=said(what)))
    folded = " ".join(value.split())
    if len(folded) > MAX_NAME:
        raise ValueRefused(ngettext("%(what)s %(name)s… is longer than %(num)s character: "
                                    "shorten it",
                                    "%(what)s %(name)s… is longer than %(num)s characters: "
                                    "shorten it", MAX_NAME, what=said(what),
                                    name=repr(folded[:20])))
    cleaned = text(folded, what, MAX_NAME)
    if not any(unicodedata.category(char)[0] in VISIBLE for char in cleaned):
        raise ValueRefused(_("%(what)s %(name)s has no letter, digit or sign that can be seen",
                             what=said(what), name=repr(cleaned)))
    return cleaned


MAX_GROUP_NAME = 60
#: The most games a group holds: its figures are counted again, in one pass, when one is taken out.
MAX_GROUP_GAMES = 5000
#: The most characters of a link (or a token alone) pasted to name a game or a group.
MAX_LINK = 300
_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")
_LINK_PARTS = ("g", "v", "gr", "games", "groups")


def group_name(value: object, what: What | None = None) -> str:
    """A group's name: 1 to 60 printable characters (the rules of a game's title), white space
    folded.

    >>> group_name("  Friday   club ")
    'Friday club'
    >>> group_name(" ")
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.ValueRefused: The group's name is missing: give the group a name
    """
    what = what or (lambda: _("The group's name"))
    cleaned = text(value, what, MAX_GROUP_NAME)
    if not cleaned:
        raise ValueRefused(_("%(what)s is missing: give the group a name", what=said(what)))
    if not any(unicodedata.category(char)[0] in VISIBLE for char in cleaned):
        raise ValueRefused(_("%(what)s %(name)s has no letter, digit or sign that can be seen",
                             what=said(what), name=repr(cleaned)))
    return cleaned


def link_token(value: object, what: What) -> str:
    """The token of a pasted link (``https://host/g/<token>``, ``/v/<token>/sheet.pdf``) or of a
    token given alone; a ValueRefused names what it is not.

    >>> link_token(" https://cards.example/g/abc_D-9/share ", "The game's link")
    'abc_D-9'
    >>> link_token("abc", "The game's link")
    'abc'
    >>> link_token("https://cards.example/", "The game's link")
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.ValueRefused: The game's link is not a link of this app:
    paste the whole link, as it was shared
    """
    if not isinstance(value, str) or not value.strip():
        raise ValueRefused(_("%(what)s is missing: paste the link, as it was shared",
                             what=said(what)))
    given = value.strip()
    if len(given) > MAX_LINK:
        raise ValueRefused(ngettext("%(what)s is longer than %(num)s character: "
                                    "paste the link alone",
                                    "%(what)s is longer than %(num)s characters: "
                                    "paste the link alone", MAX_LINK, what=said(what)))
    parts = [part for part in given.split("?", 1)[0].split("#", 1)[0].split("/") if part]
    if len(parts) == 1 and _TOKEN.fullmatch(parts[0]):
        return parts[0]
    for before, after in itertools.pairwise(parts):
        if before in _LINK_PARTS and _TOKEN.fullmatch(after):
            return after
    raise ValueRefused(_("%(what)s is not a link of this app: paste the whole link, "
                         "as it was shared", what=said(what)))


def name_key(value: str) -> str:
    """What tells two names apart: not case, nor the Unicode form a letter is written in (é as one
    character or as e and an accent; Ａ full-width), which a reader can't see.

    >>> name_key("Jos\u00e9") == name_key("JOSE\u0301"), name_key("\uff21nn") == name_key("ann")
    (True, True)
    """
    return unicodedata.normalize("NFKC", value).casefold()


def sequence_of(value: object, what: What, most: int, separators: str = "-") -> list[str]:
    """The parts of a text such as ``1-2-3`` (at most ``most`` of them), not yet read.

    >>> sequence_of("1-2, 3", "The custom sequence", 5, "-,")
    ['1', '2', '3']
    """
    if not isinstance(value, str):
        refuse(what, _("a text such as 1-2-3"), value)
    unified = value
    for separator in separators[1:]:
        unified = unified.replace(separator, separators[0])
    parts = [part.strip() for part in unified.split(separators[0], most)]
    if len(parts) > most:
        raise ValueRefused(ngettext("%(what)s has more than %(num)s entry",
                                    "%(what)s has more than %(num)s entries", most,
                                    what=said(what)))
    return parts


def fields(values: Mapping[str, object], known: Iterable[str], what: What) -> None:
    """Refuse a field that is not one of ``known``, naming the first unknown one.

    >>> fields({"preset": 1, "colour": 2}, ("preset",), "rules")
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.ValueRefused: rules: unknown field 'colour'; known: preset
    """
    names = tuple(known)
    unknown = sorted(str(key) for key in values if key not in names)
    if unknown:
        raise ValueRefused(_("%(what)s: unknown field %(field)s; known: %(known)s",
                             what=said(what), field=shown(unknown[0], 30), known=", ".join(names)))
