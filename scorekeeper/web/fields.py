"""The web forms (WTForms via Flask-WTF), and the posts read without a form class.

A form checks what each field can say alone — a whole number, a list of names, a trick count
that adds up — with the rules core's own checks; every number and text is read by
``rules.values`` (RULES.md §8), never by ``int()`` here. Whether a change fits the game is decided
by replaying the changed game file with ``parse()`` in the view.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from flask import request
from flask_babel import lazy_gettext as _l
from flask_babel.speaklater import LazyString
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from flask_wtf.i18n import translations
from wtforms import Field, Form, FormField, SelectChoice, SelectField, StringField, TextAreaField
from wtforms.validators import InputRequired, Length, ValidationError
from wtforms.widgets import HiddenInput

from .rules import values
from .rules.bidding import BIDDING_RULES, verify_tricks
from .rules.errors import RulesError
from .rules.gamefile import MAX_ADJUSTMENT, MAX_DEALS, MAX_HAND, MAX_PLAYERS, check_players
from .rules.presets import DECK_SIZES, PRESETS, RULE_BOUNDS, RULE_LABELS, TIES, rules_from_text
from .rules.schedule import MAX_SEQUENCE, PATTERNS, TRUMP_RULES, TRUMPS
from .rules.scoring import SYSTEMS, WINS
from .rules.stakes import SETTLEMENTS
from .rules.words import N_, _, ngettext
from .web import read_json

#: A game's version: every write names the one its page was drawn from.
MAX_VERSION = 2**31 - 1
#: What a late arrival may start with (RULES.md §7), as the form names each choice.
STARTS = {"zero": "0", "lowest": N_("the lowest total"), "average": N_("the others' average"),
          "number": N_("a number")}


class TextField(StringField):
    """A text field whose text, shown again after a refusal, leaves out invisible characters (the
    refusal says which one): a page never carries a NUL or an escape someone typed."""

    def _value(self) -> str:
        return values.visible(super()._value())


class WholeNumberField(TextField):
    """A whole number from ``low`` to ``high``, read by ``values.whole``; its refusal names the field
    and the bounds ("Points must be a whole number from -10000 to 10000, not '1e5'")."""

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
        return values.visible(raw if raw is not None else ("" if self.data is None else str(self.data)))


def sentence(text: str) -> str:
    """A message as a sentence: a capital first letter and a full stop.

    >>> sentence("a whole number is needed, not 'x'")
    "A whole number is needed, not 'x'."
    """
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text[-1:] in ".!?)" else ".")


def _labelled(label: str, error: str) -> str:
    """An error with its field's label in front, unless the error already names the field in its
    first words ("The reason contains …" names the Reason; "Der Grund enthält …" the Grund)."""
    named = re.match(rf"(?:\S{{1,4}}\s|[dl][’'])?{re.escape(label.casefold())}", error.casefold()) is not None
    return error if not label or named else _("%(field)s: %(problem)s", field=label, problem=error)


def problems(form: Form) -> list[str]:
    """Every error of a form as a sentence naming the field (or the player) it belongs to."""
    found = []
    for field in form:
        if field.type == "FormField":
            found += problems(field.form)
        else:
            found += [_labelled(str(field.label.text), str(e)) for e in field.errors if isinstance(e, str | LazyString)]
    return [sentence(message) for message in found]


class PostedForm(FlaskForm):
    """A form posted to the app. Its CSRF token is checked once, for every POST, by CSRFProtect
    (``web.csrf``) before any view runs, so the form neither signs nor checks a second one."""

    class Meta:
        csrf = False


class VersionForm(PostedForm):
    """A write to a game; it carries the version of the game the page was drawn from."""

    version = WholeNumberField(_l("Version"), 1, MAX_VERSION, widget=HiddenInput(), validators=[InputRequired()])

    def posted(self) -> tuple[int | None, list[str]]:
        """The version the write follows, and a sentence for each refused field (none: all fine)."""
        return self.version.data, [] if self.validate() else problems(self)


class Tap(NamedTuple):
    """The whole numbers a tap's buttons post (hidden fields), and a sentence for each refused one."""

    numbers: dict[str, int | None]
    errors: list[str]

    def posted(self) -> tuple[int | None, list[str]]:
        """The version the tap follows, and a sentence for each refused number (as a form's)."""
        return self.numbers["version"], self.errors


#: A bid tap's fields: name → (label, least, most, what a missing one is told), translated where said.
BID_TAP = {"version": (N_("Version"), 1, MAX_VERSION, N_("this field is required")),
           "seat": (N_("Seat"), 0, MAX_PLAYERS - 1, N_("this field is required")),
           "bid": (N_("Bid"), 0, MAX_HAND, N_("tap a number to bid"))}
#: The deal a tap was made for (every tap names it: the server applies it there, or refuses it).
DEAL_TAP = {"deal": (N_("Deal"), 1, MAX_DEALS, N_("this entry doesn't say which deal it is for: reload the page"))}
#: The bid an undo takes back, by its seat (bids in turn: never the wrong one).
UNDO_TAP = {"seat": (N_("Seat"), 0, MAX_PLAYERS - 1, N_("this field is required"))}


def read_tap(formdata: Mapping[str, str], fields: Mapping[str, tuple[str, int, int, str]]) -> Tap:
    """A tap's numbers, read without a WTForms form: the bid buttons post three whole numbers, and
    binding a form's fields cost more than everything else a worker does with a tap but the SQL
    (bench/run.py, target 1). Refusals are worded as the forms word theirs.

    >>> read_tap({"version": "3", "seat": " 1", "bid": "−2"}, BID_TAP).errors
    ["Bid must be a whole number from 0 to 52, not '−2'."]
    >>> read_tap({"version": "3", "seat": "1", "bid": "²"}, BID_TAP).errors
    ["Bid must be a whole number from 0 to 52, not '²'."]
    >>> read_tap({"version": "3"}, BID_TAP).errors
    ['Seat: this field is required.', 'Bid: tap a number to bid.']
    """
    numbers: dict[str, int | None] = {}
    errors = []
    for name, (label, low, high, missing) in fields.items():
        raw, numbers[name] = formdata.get(name, ""), None
        if not raw.strip():
            errors.append(sentence(_("%(field)s: %(problem)s", field=_(label), problem=_(missing))))
            continue
        try:
            numbers[name] = values.whole(raw, _(label), low, high)
        except RulesError as exc:
            errors.append(sentence(str(exc)))
    return Tap(numbers, errors)


#: A tap's client id, made by the phone that tapped (outbox.js): letters, digits, - and _.
_TAP_ID = re.compile(r"[A-Za-z0-9_-]{8,40}")


def tap_id(formdata: Mapping[str, str]) -> str | None:
    """The client id a tap carries (``tap``), or None when it carries none or one of no such form:
    a phone sending a tap again, unsure it arrived, names it by the same id.

    >>> tap_id({"tap": "k2v9-Qx71aZ"}), tap_id({"tap": "a b"}), tap_id({})
    ('k2v9-Qx71aZ', None, None)
    """
    text = formdata.get("tap", "")
    return text if _TAP_ID.fullmatch(text) else None


class CardsForm(VersionForm):
    """The number of cards of a deal (manual pattern)."""

    cards = WholeNumberField(_l("Cards"), 1, MAX_HAND, validators=[InputRequired(_l("tap the number of cards dealt"))])


class TrumpForm(VersionForm):
    """The trump of the deal being played."""

    trump = SelectField(_l("Trump"), choices=list(TRUMPS))


class AdjustForm(VersionForm):
    """One-off points for a player at a deal, with a reason."""

    player = WholeNumberField(_l("Player"), 0, MAX_PLAYERS - 1, validators=[InputRequired()])
    deal = WholeNumberField(_l("Deal"), 1, 300, validators=[InputRequired()])
    points = WholeNumberField(_l("Points"), -MAX_ADJUSTMENT, MAX_ADJUSTMENT,
                              validators=[InputRequired(_l("type the points, such as 10 or -5"))])
    reason = TextField(_l("Reason"))

    def validate_reason(self, field: StringField) -> None:
        try:
            field.data = values.text(field.data, _("The reason"))
        except RulesError as exc:
            raise ValidationError(str(exc)) from None


class ArriveForm(VersionForm):
    """A late arrival (RULES.md §7): their name, the gap they sit in (before whom: 1 to the number
    of players, clockwise from the first), and what they start with."""

    name = TextField(_l("The new player's name"))
    seat = WholeNumberField(_l("Where they sit"), 1, MAX_PLAYERS,
                            validators=[InputRequired(_l("choose a place at the table"))])
    start = SelectField(_l("Starting score"), choices=list(STARTS), validate_choice=False)
    points = WholeNumberField(_l("Starting score"), -MAX_ADJUSTMENT, MAX_ADJUSTMENT)

    def validate_name(self, field: StringField) -> None:
        try:
            field.data = values.name(field.data, str(field.label.text))
        except RulesError as exc:
            raise ValidationError(str(exc)) from None

    def validate_start(self, field: SelectField) -> None:
        typed = self.points.data is not None
        if field.data not in STARTS:
            if not typed:  # a number typed without its choice (no JavaScript to tick it) is that choice
                raise ValidationError(_("choose what they start with"))
            field.data = "number"
        elif field.data == "number" and not typed and not self.points.process_errors:
            raise ValidationError(_("type the number they start with, such as 10 or -5"))
        elif field.data != "number" and typed:
            raise ValidationError(_("%(number)s is typed as a number, but %(choice)s is chosen: choose one of the two",
                                    number=self.points._value(), choice=_(STARTS[field.data])))

    def starting(self, offered: Mapping[str, int]) -> int:
        """The starting score chosen: one of those ``offered`` (by name), or the number typed."""
        if self.start.data == "number":
            return self.points.data or 0
        return offered.get(self.start.data or "", 0)


class SeatsField(Field):
    """Players ticked in a list (checkboxes): their seats, each read by ``values.whole``; a post of
    more than a table holds is refused as a whole."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        self.data: list[int] = []
        if len(valuelist) > MAX_PLAYERS:
            raise ValueError(ngettext("at most %(num)s player can be chosen", "at most %(num)s players can be chosen",
                                      MAX_PLAYERS))
        for raw in valuelist:
            try:
                seat = values.whole(str(raw), _("A player"), 0, MAX_PLAYERS - 1)
            except RulesError as exc:
                raise ValueError(str(exc)) from None
            if seat not in self.data:
                self.data.append(seat)


class PlayerForm(VersionForm):
    """A change at the table for one player: leaves, comes back."""

    player = WholeNumberField(_l("Player"), 0, MAX_PLAYERS - 1, validators=[InputRequired(_l("choose who it is"))])


class SitOutForm(VersionForm):
    """The players who sit the next deal out (one or several)."""

    player = SeatsField("", default=list)  # its messages name "a player" themselves


#: What ``indexed`` says of an entry of each kind (``what``) sent for no seat, or twice for one.
SENT_WRONG = {
    "bid": (N_("A bid was sent for a player who is not at this table; nothing was saved."),
            N_("Two bids were sent for the same player; nothing was saved.")),
    "trick count": (N_("A trick count was sent for a player who is not at this table; nothing was saved."),
                    N_("Two trick counts were sent for the same player; nothing was saved.")),
    "name": (N_("A name was sent for a player who is not at this table; nothing was saved."),
             N_("Two names were sent for the same player; nothing was saved.")),
}

#: The names of indexed fields: ``bids-0`` … (ASCII digits, no leading zero).
_INDEXED = re.compile(r"(0|[1-9][0-9]?)")


def _seat(index: str, count: int) -> int | None:
    """The seat an indexed field's name gives (``bids-2`` → 2); None unless written as one of them."""
    if _INDEXED.fullmatch(index) is None:
        return None
    try:
        return values.whole(index, "Seat", 0, count - 1)
    except RulesError:
        return None


def indexed(formdata: Any, prefix: str, count: int, what: str, beyond: str = "",
            twice: str = "") -> tuple[list[str | None], list[str]]:
    """The texts posted as ``<prefix>-0`` … ``<prefix>-<count - 1>`` (None for one not posted), and a
    sentence for each field that can't be one of them: an index out of range or not written as
    such, or a field posted twice. A form that posts one seat's entry twice, or an entry for a
    seat that isn't there, is refused as a whole: nothing is read into the wrong seat. ``what`` is
    the kind of entry (``SENT_WRONG``); ``beyond`` and ``twice`` word those two refusals instead,
    for rows that are not seats.

    >>> from werkzeug.datastructures import MultiDict
    >>> indexed(MultiDict([("bids-1", "3"), ("bids-2", "2")]), "bids", 3, "bid")
    ([None, '3', '2'], [])
    >>> indexed(MultiDict([("bids-1", "3"), ("bids-1", "2"), ("bids-²", "1"), ("bids-7", "0")]), "bids", 3, "bid")[1]
    ['Two bids were sent for the same player; nothing was saved.', 'A bid was sent for a player who is not at this table; nothing was saved.']
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


class SeatsForm(NamedTuple):
    """Numbers per player as a form posts them — bids (all at once, or corrected) and tricks — read
    seat by seat (``indexed``): exactly the seats posted, each by its own name."""

    names: tuple[str, ...]
    cards: int
    numbers: dict[str, list[int | None]]
    texts: dict[str, list[str]]
    trump: str | None
    version: int | None
    errors: list[str]

    def posted(self) -> tuple[int | None, list[str]]:
        """The version the post follows, and a sentence for each refused entry (none: all fine)."""
        return self.version, self.errors

    def entries(self, kind: str) -> list[int | None]:
        """Every player's number of one kind, None for a player not dealt in (only called when
        nothing was refused)."""
        return self.numbers[kind]


def _seat_number(text: str, what: str, cards: int, errors: list[str]) -> int | None:
    """A bid or a trick count as typed: a number out of range is read, for the rules to say what a
    bid or a trick count may be ("Ann can't have taken 5 tricks: it must be 0 to 2"); text that is
    no whole number is refused here, with the range."""
    try:
        return values.whole(text, what, -MAX_HAND, MAX_HAND)
    except RulesError:
        try:
            values.whole(text, what, 0, cards)
        except RulesError as exc:
            errors.append(sentence(str(exc)))
    return None


#: What each kind of seat number is called: the field prefix → one entry (``SENT_WRONG``).
SEAT_KINDS = {"bids": "bid", "tricks": "trick count"}


def _seat_words(kind: str, name: str) -> tuple[str, str, str]:
    """What a seat's entry of this kind is called, what its missing is said as, and what one sent for
    a player who sits the deal out is said as."""
    if kind == "bids":
        return (_("%(player)s's bid", player=name), _("%(player)s's bid: missing", player=name),
                _("A bid was sent for %(player)s, who sits this deal out; nothing was saved.", player=name))
    return (_("%(player)s's tricks", player=name), _("%(player)s's tricks: missing", player=name),
            _("A trick count was sent for %(player)s, who sits this deal out; nothing was saved.", player=name))


def seats_form(formdata: Any, names: Sequence[str], cards: int, *, bids: bool, tricks: bool,
               trump: bool = False, data: Mapping[str, Any] | None = None,
               seats: Sequence[int] | None = None) -> SeatsForm:
    """Every player's bid and/or trick count as posted (or, without a post, as in ``data``): one for
    each of the ``seats`` dealt in (everybody by default), none for a player who sits the deal out."""
    numbers: dict[str, list[int | None]] = {}
    texts: dict[str, list[str]] = {}
    errors: list[str] = []
    shown = data or {}
    dealt = range(len(names)) if seats is None else seats
    for kind, wanted in (("bids", bids), ("tricks", tricks)):
        if not wanted:
            continue
        one = SEAT_KINDS[kind]
        if formdata is None:
            given = [None if n is None else str(n) for n in shown.get(kind, [None] * len(names))]
        else:
            given, refused = indexed(formdata, kind, len(names), one)
            errors += refused
        texts[kind] = ["" if text is None else text for text in given]
        numbers[kind] = []
        for seat, (name, text) in enumerate(zip(names, given)):
            number = None
            if seat not in dealt:
                if text is not None and formdata is not None:
                    errors.append(_seat_words(kind, name)[2])
            elif text is None or not text.strip():
                errors.append(sentence(_seat_words(kind, name)[1]))
            else:
                number = _seat_number(text, _seat_words(kind, name)[0], cards, errors)
            numbers[kind].append(number)
    if tricks and not errors:
        try:
            verify_tricks([numbers["tricks"][seat] or 0 for seat in dealt], cards, [names[seat] for seat in dealt])
        except RulesError as exc:
            errors.append(sentence(str(exc)))
    chosen = (shown.get("trump") or None) if formdata is None else (formdata.get("trump") or None)
    if trump and chosen is not None and chosen not in TRUMPS:
        errors.append(sentence(_("Trump must be one of %(trumps)s, not %(value)s", trumps=", ".join(TRUMPS),
                                 value=values.shown(chosen))))
    version = shown.get("version") if formdata is None else None
    if formdata is not None:
        tap = read_tap(formdata, {"version": BID_TAP["version"]})
        version, errors = tap.numbers["version"], [*tap.errors, *errors]
    return SeatsForm(tuple(names), cards, numbers, texts, chosen if trump else None, version,
                     errors if formdata is not None else [])


#: The words a select shows for each of the rules' ids it offers (the id is what is posted).
CHOICE_WORDS = {
    # deal patterns
    "down-up": N_("down-up"), "up-down": N_("up-down"), "down-up-twice-one": N_("down-up-twice-one"),
    "up-nt-down": N_("up-nt-down"), "down": N_("down"), "up": N_("up"), "fixed": N_("fixed"),
    "custom": N_("custom"), "manual": N_("manual"),
    # hand sizes, yes or no
    "odd": N_("odd"), "even": N_("even"), "yes": N_("yes"), "no": N_("no"),
    # trump rules
    "turn-up": N_("turn-up"), "dealer-last-card": N_("dealer-last-card"), "rotation": N_("rotation"),
    # bidding rules
    "free": N_("free"), "hook": N_("hook"), "dealer-must-exceed": N_("dealer-must-exceed"),
    "must-equal": N_("must-equal"),
    # scoring systems
    "common": N_("common"), "exact": N_("exact"), "binary": N_("binary"), "exact-penalty": N_("exact-penalty"),
    "cypriot": N_("cypriot"), "set-penalty": N_("set-penalty"), "progressive-penalty": N_("progressive-penalty"),
    "progressive": N_("progressive"), "montreal": N_("montreal"), "adjusted-exact": N_("adjusted-exact"),
    "get-fred": N_("get-fred"), "oy-vey": N_("oy-vey"), "trick": N_("trick"), "binary-nil": N_("binary-nil"),
    "ten-per-trick": N_("ten-per-trick"), "oh-sh": N_("oh-sh"), "high-incentive": N_("high-incentive"),
    "vlaams": N_("vlaams"), "nederlands": N_("nederlands"), "negative": N_("negative"),
    "negative-squared": N_("negative-squared"), "scratch": N_("scratch"),
    # ties, who wins, settlements
    "share": N_("share"), "one-card-hand": N_("one-card-hand"), "highest": N_("highest"), "lowest": N_("lowest"),
    "pairwise": N_("pairwise"), "to-winner": N_("to-winner"),
}


def choice_word(value: str) -> str:
    """A rule's option as a person reads it, in the page's language (an id it has no word for as it is)."""
    return _(CHOICE_WORDS[value]) if value in CHOICE_WORDS else value


def _choices(values: Sequence[object]) -> list[SelectChoice]:
    """The options of a select: each id posted as it is, shown in words (a number as it is)."""
    return [SelectChoice(str(v), _l(CHOICE_WORDS[v]) if isinstance(v, str) and v in CHOICE_WORDS else str(v))
            for v in values]


def _choice(label: str, values: Sequence[object], empty: str | None = None) -> SelectField:
    """A select whose empty first option keeps the preset's value (also when the field isn't sent)."""
    shown = _l("as the preset") if empty is None else _l(CHOICE_WORDS.get(empty, empty))
    return SelectField(_l(label), choices=[SelectChoice("", shown), *_choices(values)], default="")


YES_NO = ("yes", "no")


def _longest(most: int) -> Length:
    """At most ``most`` characters, said as a player would read it."""
    return Length(max=most, message=_l("at most %(max)s characters, please"))


class HouseRulesForm(Form):
    """Every rule field, each left empty to keep the preset's value."""

    class Meta:
        def get_translations(self, form: Form) -> Any:
            """WTForms' own messages ("Not a valid choice.") in the page's language, as a FlaskForm's."""
            return translations

    deal = _choice(RULE_LABELS["deal"], PATTERNS)
    max_cards = TextField(_l(RULE_LABELS["max_cards"]))
    # the longest of MAX_SEQUENCE deals, each of up to 52 cards at no trump: "52NT-52NT-…"
    sequence = TextField(_l(RULE_LABELS["sequence"]), validators=[_longest(len("52NT-") * MAX_SEQUENCE)])
    deals = TextField(_l(RULE_LABELS["deals"]))
    decks = _choice(RULE_LABELS["decks"], (1, 2))
    deck_size = _choice(RULE_LABELS["deck_size"], DECK_SIZES)
    only = _choice(RULE_LABELS["only"], ("odd", "even"), N_("all"))
    trump = _choice(RULE_LABELS["trump"], TRUMP_RULES)
    trump_cycle = TextField(_l(RULE_LABELS["trump_cycle"]), validators=[_longest(len("NT-") * MAX_SEQUENCE)])
    bidding = _choice(RULE_LABELS["bidding"], BIDDING_RULES)
    hook_from = TextField(_l(RULE_LABELS["hook_from"]))
    simultaneous = _choice(RULE_LABELS["simultaneous"], YES_NO)
    scoring = _choice(RULE_LABELS["scoring"], [*SYSTEMS, "custom"])
    zero_bid = TextField(_l(RULE_LABELS["zero_bid"]))
    spades_double = _choice(RULE_LABELS["spades_double"], YES_NO)
    target = TextField(_l(RULE_LABELS["target"]))
    tie = _choice(RULE_LABELS["tie"], TIES)
    made = TextField(_l(RULE_LABELS["made"]), validators=[_longest(200)])
    missed = TextField(_l(RULE_LABELS["missed"]), validators=[_longest(200)])
    wins = _choice(RULE_LABELS["wins"], WINS, "highest")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A deck the list doesn't offer (a game file may give 20 to 104 cards) is offered too, so the
        # game's own is shown and kept; ``validate`` reads it within its bounds.
        size = self.deck_size.data
        if size and size not in [choice.value for choice in self.deck_size.iter_choices()]:
            self.deck_size.choices = [*(self.deck_size.choices or []), str(size)]

    def validate(self, extra_validators: Any = None) -> bool:
        """Each field's own checks, then its value read as the rules read it (a number, yes/no, …)."""
        valid = super().validate(extra_validators)
        for field in self:
            if field.errors:
                continue
            try:
                rules_from_text({field.short_name: field.data or ""})
            except RulesError as exc:
                field.errors = [*field.errors, str(exc)]
                valid = False
        return valid

    def overrides(self) -> dict[str, Any]:
        """The fields the table changed, typed as the game file wants them (RulesError if one can't be)."""
        return rules_from_text({field.short_name: field.data or "" for field in self})


class RulesForm(VersionForm):
    """New rules for a game under way: a preset and house rules (its stakes are changed on their own)."""

    preset = SelectField(_l("Rules"), choices=list(PRESETS), default="oh-hell")
    rules = FormField(HouseRulesForm)

    def rules_input(self) -> dict[str, Any]:
        """The game file's ``rules`` the form asks for (RulesError when a rule can't be read)."""
        return {"preset": self.preset.data, **self.rules.form.overrides()}

    @staticmethod
    def shown(rules_input: Mapping[str, Any]) -> dict[str, Any]:
        """A game's ``rules`` as the form's fields show them: numbers as text, true and false as yes and no.

        >>> RulesForm.shown({"max_cards": 7, "spades_double": True, "zero_bid": "5+n"})
        {'preset': 'oh-hell', 'rules': {'max_cards': '7', 'spades_double': 'yes', 'zero_bid': '5+n'}}
        """
        texts = {name: ("yes" if value else "no") if isinstance(value, bool) else str(value)
                 for name, value in rules_input.items() if name != "preset"}
        return {"preset": rules_input.get("preset", "oh-hell"), "rules": texts}


class EndForm(VersionForm):
    """When a game without a plan of hand sizes (fixed, manual) ends: after a number of deals, at a
    target, whichever comes first; either left empty is not a way to end."""

    deals = WholeNumberField(_l(RULE_LABELS["deals"]), *RULE_BOUNDS["deals"])
    target = WholeNumberField(_l(RULE_LABELS["target"]), *RULE_BOUNDS["target"])


STAKE_KINDS = [SelectChoice("", _l("no stakes")), SelectChoice("per_point", _l("per point")),
               SelectChoice("ante", _l("ante (a pool)"))]


class StakesFields:
    """What the table plays for, as form fields; the rules core checks the amounts."""

    stakes = SelectField(_l("Stakes"), choices=STAKE_KINDS, default="")
    amount = TextField(_l("Amount"))
    currency = TextField(_l("Currency"))
    settlement = SelectField(_l("Settlement"), choices=_choices(SETTLEMENTS), default="pairwise")
    hard_score_bonus = TextField(_l("Hard-score bonus"))

    def stakes_input(self) -> dict[str, str] | None:
        """The game file's ``stakes`` object, or None for a game without stakes."""
        if not self.stakes.data:
            return None
        stakes = {self.stakes.data: (self.amount.data or "").strip() or "0", "settlement": self.settlement.data}
        if self.currency.data and self.currency.data.strip():
            stakes["currency"] = self.currency.data.strip()
        if self.hard_score_bonus.data and self.hard_score_bonus.data.strip():
            stakes["hard_score_bonus"] = self.hard_score_bonus.data.strip()
        return stakes

    def show(self, stakes: dict[str, Any] | None) -> None:
        """Fill the fields from a game's stakes, to change them."""
        stakes = stakes or {}
        kind = "ante" if stakes.get("ante") is not None else ("per_point" if stakes else "")
        self.stakes.data, self.amount.data = kind, str(stakes.get(kind, "")) if kind else ""
        self.currency.data = stakes.get("currency", "")
        self.settlement.data = stakes.get("settlement", "pairwise")
        bonus = stakes.get("hard_score_bonus")
        self.hard_score_bonus.data = "" if bonus is None else str(bonus)


class StakesForm(VersionForm, StakesFields):
    """A change to what a game is played for, until it is settled."""


def _too_many() -> str:
    """The refusal of more player rows than a game takes."""
    return ngettext("A game has at most %(num)s player: remove one.", "A game has at most %(num)s players: remove one.",
                    MAX_PLAYERS)


class NewGameForm(PostedForm, StakesFields):
    """A new game: players in seating order, who deals first, a preset, house rules, stakes.

    The name rows are read seat by seat (``indexed``) from what is posted, not by a WTForms list:
    a row is never moved to another seat, and a row too many is refused, not dropped.
    """

    title = TextField(_l("Title (optional)"))
    first_dealer = TextField(_l("Deals first"), default="0")
    preset = SelectField(_l("Rules"), choices=list(PRESETS), default="oh-hell")
    rules = FormField(HouseRulesForm)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        posted = request.form if self.is_submitted() else None
        self.rows: list[str] = [""] * 4
        self.row_errors: list[str] = []
        if posted is not None:
            # More rows than a game takes are read (and refused by validate), so what was typed stays.
            found, self.row_errors = indexed(posted, "players", 2 * MAX_PLAYERS, "name", beyond=_too_many())
            last = max((seat for seat, text in enumerate(found) if text is not None), default=-1)
            self.rows = [text or "" for text in found[: max(last + 1, 2)]]

    def names(self) -> list[str]:
        """The names typed, the empty rows at the end left out."""
        rows = [row.strip() for row in self.rows]
        while rows and not rows[-1]:
            rows.pop()
        return rows

    def validate_title(self, field: StringField) -> None:
        try:
            field.data = values.text(field.data, _("The title"))
        except RulesError as exc:
            raise ValidationError(str(exc)) from None

    def validate(self, extra_validators: Any = None) -> bool:
        """The form's fields, then the players: a name in every row up to the last, as a game needs them."""
        valid = super().validate(extra_validators)
        self.row_errors = list(self.row_errors)
        names = self.names()
        blank = [row for row, name in enumerate(names, 1) if not name]
        if len(names) > MAX_PLAYERS:
            self.row_errors.append(_too_many())
        elif blank:
            self.row_errors.append(_("Player %(row)s has no name: type one, or remove the row.", row=blank[0]))
        else:
            try:
                check_players(names)
            except RulesError as exc:
                self.row_errors.append(sentence(str(exc)))
        if self.first_dealer.data != "random":
            try:
                row = values.whole(self.first_dealer.data or "0", _("The first dealer"), 0, MAX_PLAYERS - 1)
            except RulesError as exc:
                self.row_errors.append(sentence(str(exc)))
            else:
                if row >= len(names) and not blank:
                    self.row_errors.append(_("The first dealer's row has no name: choose who deals first."))
        return valid and not self.row_errors

    def errors_in_words(self) -> list[str]:
        """Every refusal of the form, the players' first."""
        return [*self.row_errors, *problems(self)]

    def dealer(self) -> int | None:
        """The seat who deals first (checked by ``validate``); None for a random draw."""
        if self.first_dealer.data == "random":
            return None
        return values.whole(self.first_dealer.data or "0", _("The first dealer"), 0, MAX_PLAYERS - 1)

    def document(self, first_dealer: int) -> dict[str, Any]:
        """The game file of the new game (no deals yet); RulesError when a rule can't be read."""
        doc: dict[str, Any] = {
            "players": self.names(), "first_dealer": first_dealer,
            "rules": {"preset": self.preset.data, **self.rules.form.overrides()},
        }
        if self.title.data:
            doc["title"] = self.title.data
        stakes = self.stakes_input()
        if stakes is not None:
            doc["stakes"] = stakes
        return doc


class ImportForm(PostedForm):
    """A game file or a backup to restore: uploaded, or pasted."""

    file = FileField(_l("Game file or backup (.json)"))
    text = TextAreaField(_l("…or paste it here"), validators=[Length(max=1_000_000)])

    def document(self) -> object:
        """The uploaded or pasted JSON, decoded; ValidationError when there is none or it isn't JSON."""
        upload = self.file.data
        raw = upload.read() if upload and getattr(upload, "filename", "") else b""
        if raw:
            try:
                self.text.data = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise ValidationError(_("The file is not a text file: choose the .json file you exported.")) \
                    from None
        text = (self.text.data or "").strip()
        if not text:
            raise ValidationError(_("Choose a game file, or paste one."))
        try:
            return read_json(text)
        except ValueError as exc:
            raise ValidationError(_("This is not a JSON game file: %(problem)s.", problem=exc)) from None


class GroupForm(PostedForm):
    """A new group: its name; ``game``, the edit token of a game to put in it at once (optional)."""

    name = TextField(_l("The group's name"))
    game = TextField(_l("Game"), widget=HiddenInput())

    def validate_name(self, field: StringField) -> None:
        try:
            field.data = values.group_name(field.data)
        except RulesError as exc:
            raise ValidationError(str(exc)) from None

    def validate_game(self, field: StringField) -> None:
        if field.data:
            try:
                field.data = values.link_token(field.data, _("The game's link"))
            except RulesError as exc:
                raise ValidationError(str(exc)) from None


class LinkForm(PostedForm):
    """A link pasted to put a game in a group (the game's edit link), or a game in a group (the
    group's edit link)."""

    link = TextField(_l("Link"))

    def validate_link(self, field: StringField) -> None:
        try:
            field.data = values.link_token(field.data, str(field.label.text))
        except RulesError as exc:
            raise ValidationError(str(exc)) from None
