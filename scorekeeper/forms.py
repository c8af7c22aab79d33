"""The web forms (WTForms via Flask-WTF).

A form checks what each field can say alone — a whole number, a list of names, a trick count
that adds up — with the rules core's own checks. Whether a change fits the game is decided by
replaying the changed game file with ``parse()`` in the view.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    FieldList,
    Form,
    FormField,
    IntegerField,
    SelectChoice,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import InputRequired, Length, Optional, ValidationError
from wtforms.widgets import HiddenInput

from .rules.bidding import BIDDING_RULES, verify_tricks
from .rules.errors import RulesError
from .rules.gamefile import check_players
from .rules.presets import DECK_SIZES, PRESETS, TIES
from .rules.schedule import PATTERNS, TRUMP_RULES, TRUMPS
from .rules.scoring import SYSTEMS, WINS
from .rules.stakes import SETTLEMENTS
from .web import read_json


class WholeNumberField(IntegerField):
    """An integer field whose refusal says what was typed: "a whole number is needed, not 'two'"."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        self.data = None
        text = str(valuelist[0]).strip().replace("−", "-") if valuelist else ""
        if text:
            try:
                self.data = int(text)
            except ValueError:
                raise ValueError(f"a whole number is needed, not {str(valuelist[0])[:20]!r}") from None


def sentence(text: str) -> str:
    """A message as a sentence: a capital first letter and a full stop.

    >>> sentence("a whole number is needed, not 'x'")
    "A whole number is needed, not 'x'."
    """
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text[-1:] in ".!?)" else ".")


def problems(form: Form) -> list[str]:
    """Every error of a form as a sentence naming the field (or the player) it belongs to."""
    found = []
    for field in form:
        if field.type == "FieldList":
            for entry in field.entries:
                found += [f"{entry.label.text}: {error}" for error in entry.errors]
            found += [e for e in field.errors if isinstance(e, str)]
        elif field.type == "FormField":
            found += problems(field.form)
        else:
            found += [f"{field.label.text}: {e}" if field.label.text else e for e in field.errors]
    return [sentence(message) for message in found]


class PostedForm(FlaskForm):
    """A form posted to the app. Its CSRF token is checked once, for every POST, by CSRFProtect
    (``web.csrf``) before any view runs, so the form neither signs nor checks a second one."""

    class Meta:
        csrf = False


class VersionForm(PostedForm):
    """A write to a game; it carries the version of the game the page was drawn from."""

    version = IntegerField(widget=HiddenInput(), validators=[InputRequired()])

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


#: A bid tap: the version it follows, the bidder's seat, the bid (name → label, what a missing one is told).
BID_TAP = {"version": ("Version", "this field is required"), "seat": ("Seat", "this field is required"),
           "bid": ("Bid", "tap a number to bid")}


def read_tap(formdata: Mapping[str, str], fields: Mapping[str, tuple[str, str]]) -> Tap:
    """A tap's numbers, read without a WTForms form: the bid buttons post three whole numbers, and
    binding a form's fields cost more than everything else a worker does with a tap but the SQL
    (bench/run.py, target 1). Refusals are worded as the forms word theirs.

    >>> read_tap({"version": "3", "seat": " 1", "bid": "−2"}, BID_TAP).numbers
    {'version': 3, 'seat': 1, 'bid': -2}
    >>> read_tap({"version": "3", "seat": "1", "bid": "two"}, BID_TAP).errors
    ["Bid: a whole number is needed, not 'two'."]
    >>> read_tap({"version": "3"}, BID_TAP).errors
    ['Seat: this field is required.', 'Bid: tap a number to bid.']
    """
    numbers: dict[str, int | None] = {}
    errors = []
    for name, (label, missing) in fields.items():
        raw = formdata.get(name, "")
        text, numbers[name] = raw.strip().replace("−", "-"), None
        if not text:
            errors.append(sentence(f"{label}: {missing}"))
            continue
        try:
            numbers[name] = int(text)
        except ValueError:
            errors.append(sentence(f"{label}: a whole number is needed, not {raw[:20]!r}"))
    return Tap(numbers, errors)


class CardsForm(VersionForm):
    """The number of cards of a deal (manual pattern)."""

    cards = WholeNumberField("Cards", validators=[InputRequired("tap the number of cards dealt")])


class TrumpForm(VersionForm):
    """The trump of the deal being played."""

    trump = SelectField("Trump", choices=list(TRUMPS))


class AdjustForm(VersionForm):
    """One-off points for a player at a deal, with a reason."""

    player = WholeNumberField("Player", validators=[InputRequired()])
    deal = WholeNumberField("Deal", validators=[InputRequired()])
    points = StringField("Points", validators=[InputRequired("type the points, such as 10 or -5")])
    reason = StringField("Reason", validators=[Length(max=100)])

    def value(self) -> int | float:
        """The points as a number (halves and the like allowed)."""
        return number(self.points.data or "")

    def validate_points(self, field: StringField) -> None:
        self.value()


def number(text: str) -> int | float:
    """A typed number: an int when whole, else a float.

    >>> number("−5"), number("2.5")
    (-5, 2.5)
    """
    clean = text.strip().replace("−", "-").replace(",", ".")
    try:
        value = float(clean)
    except ValueError:
        raise ValidationError(f"a number is needed, not {text[:20]!r}") from None
    if not math.isfinite(value) or abs(value) > 1e9:
        raise ValidationError(f"a number is needed, not {text[:20]!r}")
    return int(value) if value.is_integer() else value


class SeatsForm(VersionForm):
    """Numbers per player: bids (all at once, or corrected) and tricks."""

    names: Sequence[str] = ()
    cards = 0

    def validate_tricks(self, field: FieldList) -> None:
        if None in field.data:
            return  # the entry says what is missing
        try:
            verify_tricks(field.data, self.cards, self.names)
        except RulesError as exc:
            raise ValidationError(str(exc)) from None


@lru_cache(maxsize=64)
def _seats_class(players: int, *, bids: bool, tricks: bool, trump: bool) -> type[SeatsForm]:
    """The form class of a bid and/or a trick count for each of ``players`` players (made once:
    making a form class costs more than filling one in)."""
    fields: dict[str, Any] = {}
    if trump:
        fields["trump"] = SelectField("Trump", choices=["", *TRUMPS])
    for name, wanted in (("bids", bids), ("tricks", tricks)):
        if wanted:
            entry = WholeNumberField(validators=[InputRequired("missing")])
            fields[name] = FieldList(entry, min_entries=players, max_entries=players)
    return type("PlayersForm", (SeatsForm,), fields)


def seats_form(names: Sequence[str], cards: int, *, bids: bool, tricks: bool, trump: bool = False,
               data: dict[str, Any] | None = None) -> SeatsForm:
    """A SeatsForm for these players: a bid and/or a trick count per player, labelled by name."""
    form = _seats_class(len(names), bids=bids, tricks=tricks, trump=trump)(data=data)
    form.names, form.cards = tuple(names), cards
    for name, what in (("bids", "bid"), ("tricks", "tricks")):
        for entry_field, player in zip(getattr(form, name, ()), names):
            entry_field.label.text = f"{player}'s {what}"
    return form


def _choice(label: str, values: Sequence[object], empty: str = "as the preset") -> SelectField:
    """A select whose empty first option keeps the preset's value (also when the field isn't sent)."""
    return SelectField(label, choices=[SelectChoice("", empty), *[str(v) for v in values]], default="")


YES_NO = ("yes", "no")


class HouseRulesForm(Form):
    """Every rule field, each left empty to keep the preset's value."""

    deal = _choice("Deal pattern", PATTERNS)
    max_cards = WholeNumberField("Top hand (cards)", validators=[Optional()])
    sequence = StringField("Custom sequence", validators=[Length(max=200)])
    deals = WholeNumberField("Deals (fixed, manual)", validators=[Optional()])
    decks = _choice("Packs", (1, 2))
    deck_size = _choice("Deck size", DECK_SIZES)
    only = _choice("Hand sizes", ("odd", "even"), "all")
    trump = _choice("Trump", TRUMP_RULES)
    trump_cycle = StringField("Trump cycle", validators=[Length(max=40)])
    bidding = _choice("Bidding", BIDDING_RULES)
    hook_from = WholeNumberField("Hook from (cards)", validators=[Optional()])
    simultaneous = _choice("Bids shown at once", YES_NO)
    scoring = _choice("Scoring", [*SYSTEMS, "custom"])
    zero_bid = StringField("A made zero bid scores", validators=[Length(max=20)])
    spades_double = _choice("Spades double", YES_NO)
    target = StringField("Game to (points)", validators=[Length(max=20)])
    tie = _choice("Ties", TIES)
    made = StringField("Made formula", validators=[Length(max=200)])
    missed = StringField("Missed formula", validators=[Length(max=200)])
    wins = _choice("Winner", WINS, "highest")

    def validate_target(self, field: StringField) -> None:
        if field.data and field.data.strip():
            number(field.data)

    def overrides(self) -> dict[str, Any]:
        """The fields the table changed, typed as the game file wants them."""
        result: dict[str, Any] = {}
        for field in self:
            name, value = field.short_name, field.data
            if isinstance(value, str):
                value = value.strip()
            if value in (None, ""):
                continue
            if name in ("decks", "deck_size"):
                value = int(value)
            elif name in ("simultaneous", "spades_double"):
                value = value == "yes"
            elif name == "target":
                value = number(value)
            elif name == "zero_bid":
                try:
                    value = number(value)
                except ValidationError:
                    pass  # "5+n": the rules core reads it
            result[name] = value
        return result


STAKE_KINDS = [SelectChoice("", "no stakes"), SelectChoice("per_point", "per point"),
               SelectChoice("ante", "ante (a pool)")]


class StakesFields:
    """What the table plays for, as form fields; the rules core checks the amounts."""

    stakes = SelectField("Stakes", choices=STAKE_KINDS, default="")
    amount = StringField("Amount", validators=[Length(max=20)])
    currency = StringField("Currency", validators=[Length(max=12)])
    settlement = SelectField("Settlement", choices=list(SETTLEMENTS), default="pairwise")
    hard_score_bonus = StringField("Hard-score bonus", validators=[Length(max=20)])

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


class NewGameForm(PostedForm, StakesFields):
    """A new game: players in seating order, who deals first, a preset, house rules, stakes."""

    title = StringField("Title (optional)", validators=[Length(max=100)])
    players = FieldList(StringField(), min_entries=4, max_entries=10)
    first_dealer = StringField("Deals first", default="0")
    preset = SelectField("Rules", choices=list(PRESETS), default="oh-hell")
    rules = FormField(HouseRulesForm)

    def names(self) -> list[str]:
        """The names typed, blanks left out."""
        return [n.strip() for n in self.players.data if n and n.strip()]

    def validate_players(self, field: FieldList) -> None:
        try:
            check_players(self.names())
        except RulesError as exc:
            raise ValidationError(str(exc).removeprefix("players: ")) from None

    def dealer(self) -> int | None:
        """The seat (among the names typed) who deals first; None for a random draw."""
        if self.first_dealer.data == "random":
            return None
        rows = [i for i, n in enumerate(self.players.data) if n and n.strip()]
        try:
            return rows.index(int(self.first_dealer.data or 0))
        except ValueError:
            return 0

    def document(self, first_dealer: int) -> dict[str, Any]:
        """The game file of the new game (no deals yet)."""
        doc: dict[str, Any] = {
            "players": self.names(), "first_dealer": first_dealer,
            "rules": {"preset": self.preset.data, **self.rules.form.overrides()},
        }
        if self.title.data and self.title.data.strip():
            doc["title"] = self.title.data.strip()
        stakes = self.stakes_input()
        if stakes is not None:
            doc["stakes"] = stakes
        return doc


class ImportForm(PostedForm):
    """A game file or a backup to restore: uploaded, or pasted."""

    file = FileField("Game file or backup (.json)")
    text = TextAreaField("…or paste it here", validators=[Length(max=1_000_000)])

    def document(self) -> object:
        """The uploaded or pasted JSON, decoded; ValidationError when there is none or it isn't JSON."""
        upload = self.file.data
        raw = upload.read() if upload and getattr(upload, "filename", "") else b""
        if raw:
            try:
                self.text.data = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise ValidationError("The file is not a text file: choose the .json file you exported.") \
                    from None
        text = (self.text.data or "").strip()
        if not text:
            raise ValidationError("Choose a game file, or paste one.")
        try:
            return read_json(text)
        except ValueError as exc:
            raise ValidationError(f"This is not a JSON game file: {exc}.") from None
