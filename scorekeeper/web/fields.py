"""What every page's forms share: the field types, the reading of whole numbers and of entries
posted per seat, the sentences of a refusal, and the words of a choice.

The forms themselves live next to their pages (``play.forms``, ``table.forms``, ``games.forms``,
``groups.forms``). A form checks what each field can say alone — a whole number, a list of names,
a trick count that adds up — with the rules core's own checks; every number and text is read by
``rules.values`` (RULES.md §8), never by ``int()`` here. Whether a change fits the game is decided
by replaying the changed game file with ``parse()`` in the view.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_babel.speaklater import LazyString
from flask_wtf import FlaskForm
from wtforms import Field, Form, SelectChoice, SelectField, StringField
from wtforms.validators import InputRequired, Length
from wtforms.widgets import HiddenInput

from ..rules import characters, values
from ..rules.errors import RulesError, sentence
from ..rules.words import N_, _

#: A game's version: every write names the one its page was drawn from.
MAX_VERSION = 2**31 - 1
class TextField(StringField):
    """A text field whose text, shown again after a refusal, leaves out invisible characters (the
    refusal says which one): a page never carries a NUL or an escape someone typed."""

    def _value(self) -> str:
        return characters.visible(super()._value())


class WholeNumberField(TextField):
    """A whole number from ``low`` to ``high``, read by ``values.whole``; its refusal names the
    field and the bounds ("Points must be a whole number from -10000 to 10000, not '1e5'")."""

    def __init__(self, label: str, low: int, high: int, **kwargs: Any) -> None:
        super().__init__(label, **kwargs)
        self.low, self.high = low, high

    def process_formdata(self, valuelist: list[Any]) -> None:
        self.raw = str(valuelist[0]) if valuelist else ""
        self.data = None
        if self.raw.strip():
            try:
                self.data = values.whole(self.raw, str(self.label.text), self.low, self.high)
            except RulesError as exc:
                raise ValueError(str(exc)) from None

    def _value(self) -> str:
        raw = getattr(self, "raw", None)
        return characters.visible(raw if raw is not None
                                  else ("" if self.data is None else str(self.data)))


def _labelled(label: str, error: str) -> str:
    """An error with its field's label in front, unless the error already names the field in its
    first words ("The reason contains …" names the Reason; "Der Grund enthält …" the Grund)."""
    named = re.match(rf"(?:\S{{1,4}}\s|[dl][’'])?{re.escape(label.casefold())}",
                     error.casefold()) is not None
    return error if not label or named else _("%(field)s: %(problem)s", field=label, problem=error)


def _fields(form: Form) -> Iterator[Field]:
    """A form's fields, those of the forms within it in their place."""
    for field in form:
        if field.type == "FormField":
            yield from _fields(field.form)
        else:
            yield field


def _said(field: Field) -> list[str]:
    """A field's errors, each a sentence naming the field."""
    return [sentence(_labelled(str(field.label.text), str(e)))
            for e in field.errors if isinstance(e, str | LazyString)]


def problems(form: Form) -> list[str]:
    """Every error of a form as a sentence naming the field (or the player) it belongs to."""
    return [message for field in _fields(form) for message in _said(field)]


def beside(form: Form) -> Field | None:
    """Have every refused field of ``form`` say its refusal beside it, in a sentence naming it (the
    ``field`` macro shows ``field.beside`` there, as the field's description), not in the alert
    above the form; the first refused field opens with the focus, its panel open. That field, or
    None."""
    first = None
    for field in _fields(form):
        field.beside = _said(field)
        if field.beside and first is None:
            first = field
            field.render_kw = {**(field.render_kw or {}), "autofocus": True}
    return first


def refuse(field: Field, message: str) -> None:
    """Refuse ``field`` with ``message`` once the form is checked (a refusal of what it makes)."""
    field.errors = [*field.errors, message]


class PostedForm(FlaskForm):
    """A form posted to the app. Its CSRF token is checked once, for every POST, by CSRFProtect
    (``web.signed.csrf``) before any view runs, so the form neither signs nor checks a second
    one."""

    class Meta:
        csrf = False


class VersionForm(PostedForm):
    """A write to a game; it carries the version of the game the page was drawn from."""

    version = WholeNumberField(_l("Version"), 1, MAX_VERSION, widget=HiddenInput(),
                               validators=[InputRequired()])

    def posted(self) -> tuple[int | None, list[str]]:
        """The version the write follows, and a sentence for each refused field (none: all fine)."""
        return self.version.data, [] if self.validate() else problems(self)


SENT_WRONG = {
    "bid": (N_("A bid was sent for a player who is not at this table; nothing was saved."),
            N_("Two bids were sent for the same player; nothing was saved.")),
    "trick count": (N_("A trick count was sent for a player who is not at this table; "
                       "nothing was saved."),
                    N_("Two trick counts were sent for the same player; nothing was saved.")),
    "name": (N_("A name was sent for a player who is not at this table; nothing was saved."),
             N_("Two names were sent for the same player; nothing was saved.")),
}

#: The names of indexed fields: ``bids-0`` … (ASCII digits, no leading zero).
_INDEXED = re.compile(r"(0|[1-9][0-9]?)")


def _seat(index: str, count: int) -> int | None:
    """The seat an indexed field's name gives (``bids-2`` → 2); None unless written as one of
    them."""
    if _INDEXED.fullmatch(index) is None:
        return None
    try:
        return values.whole(index, "Seat", 0, count - 1)
    except RulesError:
        return None


def indexed(formdata: Any, prefix: str, count: int, what: str, beyond: str = "",
            twice: str = "") -> tuple[list[str | None], list[str]]:
    """The texts posted as ``<prefix>-0`` … ``<prefix>-<count - 1>`` (None for one not posted), and
    a sentence for each field that can't be one of them: an index out of range or not written as
    such, or a field posted twice. A form that posts one seat's entry twice, or an entry for a
    seat that isn't there, is refused as a whole: nothing is read into the wrong seat. ``what`` is
    the kind of entry (``SENT_WRONG``); ``beyond`` and ``twice`` word those two refusals instead,
    for rows that are not seats.

    >>> from werkzeug.datastructures import MultiDict
    >>> indexed(MultiDict([("bids-1", "3"), ("bids-2", "2")]), "bids", 3, "bid")
    ([None, '3', '2'], [])
    >>> indexed(MultiDict([("bids-1", "3"), ("bids-1", "2"), ("bids-²", "1"), ("bids-7", "0")]),
    ...         "bids", 3, "bid")[1]
    ['Two bids were sent for the same player; nothing was saved.',
     'A bid was sent for a player who is not at this table; nothing was saved.']
    """
    found: list[str | None] = [None] * count
    errors: list[str] = []
    start = prefix + "-"
    for key in formdata:
        if not key.startswith(start):
            continue
        posted, seat = formdata.getlist(key), _seat(key[len(start):], count)
        if seat is None:
            message = beyond or _(SENT_WRONG[what][0])
        elif len(posted) > 1:
            message = twice or _(SENT_WRONG[what][1])
        else:
            found[seat] = posted[0]
            continue
        if message not in errors:
            errors.append(message)
    return found, errors


CHOICE_WORDS = {
    # deal patterns
    "down-up": N_("down-up"), "up-down": N_("up-down"),
    "down-up-twice-one": N_("down-up-twice-one"), "up-nt-down": N_("up-nt-down"),
    "down": N_("down"), "up": N_("up"), "fixed": N_("fixed"), "custom": N_("custom"),
    "manual": N_("manual"),
    # hand sizes, yes or no
    "odd": N_("odd"), "even": N_("even"), "yes": N_("yes"), "no": N_("no"),
    # trump rules
    "turn-up": N_("turn-up"), "dealer-last-card": N_("dealer-last-card"),
    "rotation": N_("rotation"),
    # bidding rules
    "free": N_("free"), "hook": N_("hook"), "dealer-must-exceed": N_("dealer-must-exceed"),
    "must-equal": N_("must-equal"),
    # scoring systems
    "common": N_("common"), "exact": N_("exact"), "binary": N_("binary"),
    "exact-penalty": N_("exact-penalty"), "cypriot": N_("cypriot"),
    "set-penalty": N_("set-penalty"), "progressive-penalty": N_("progressive-penalty"),
    "progressive": N_("progressive"), "montreal": N_("montreal"),
    "adjusted-exact": N_("adjusted-exact"), "get-fred": N_("get-fred"), "oy-vey": N_("oy-vey"),
    "trick": N_("trick"), "binary-nil": N_("binary-nil"), "ten-per-trick": N_("ten-per-trick"),
    "oh-sh": N_("oh-sh"), "high-incentive": N_("high-incentive"), "vlaams": N_("vlaams"),
    "nederlands": N_("nederlands"), "negative": N_("negative"),
    "negative-squared": N_("negative-squared"), "scratch": N_("scratch"),
    # ties, who wins, settlements
    "share": N_("share"), "one-card-hand": N_("one-card-hand"), "highest": N_("highest"),
    "lowest": N_("lowest"), "pairwise": N_("pairwise"), "to-winner": N_("to-winner"),
}


def choice_word(value: str) -> str:
    """A rule's option as a person reads it, in the page's language (an id it has no word for as it
    is)."""
    return _(CHOICE_WORDS[value]) if value in CHOICE_WORDS else value


def choices_of(values: Sequence[object]) -> list[SelectChoice]:
    """The options of a select: each id posted as it is, shown in words (a number as it is)."""
    return [SelectChoice(str(v), (_l(CHOICE_WORDS[v]) if isinstance(v, str) and v in CHOICE_WORDS
                                  else str(v)))
            for v in values]


def choice_field(label: str, values: Sequence[object], empty: str | None = None) -> SelectField:
    """A select whose empty first option keeps the preset's value (also when the field isn't sent),
    or ``empty``'s, which is then not listed a second time."""
    shown = _l("as the preset") if empty is None else _l(CHOICE_WORDS.get(empty, empty))
    return SelectField(_l(label), choices=[SelectChoice("", shown),
                                           *choices_of([v for v in values if v != empty])],
                       default="")


YES_NO = ("yes", "no")


def longest(most: int) -> Length:
    """At most ``most`` characters, said as a player would read it."""
    return Length(max=most, message=_l("at most %(max)s characters, please"))

