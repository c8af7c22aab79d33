"""The forms of a game's pages: the taps of a deal (a bid, the tricks, an undo), the hand size, the
trump, the bids or counts of all seats at once, an adjustment, the stakes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from flask_babel import lazy_gettext as _l
from wtforms import SelectChoice, SelectField, StringField
from wtforms.validators import InputRequired, ValidationError

from ..rules import values
from ..rules.bidding import verify_tricks
from ..rules.errors import RulesError
from ..rules.gamefile import MAX_ADJUSTMENT, MAX_DEALS, MAX_HAND, MAX_PLAYERS
from ..rules.schedule import TRUMPS
from ..rules.stakes import SETTLEMENTS
from ..rules.words import N_, _
from ..web import language
from ..web.fields import (
    MAX_VERSION,
    TextField,
    VersionForm,
    WholeNumberField,
    choices_of,
    indexed,
    sentence,
)


class Tap(NamedTuple):
    """The whole numbers a tap's buttons post (hidden fields), and a sentence for each refused
    one."""

    numbers: dict[str, int | None]
    errors: list[str]

    def posted(self) -> tuple[int | None, list[str]]:
        """The version the tap follows, and a sentence for each refused number (as a form's)."""
        return self.numbers["version"], self.errors


#: A bid tap's fields: name → (label, least, most, what a missing one is told), translated where
#: said.
BID_TAP = {"version": (N_("Version"), 1, MAX_VERSION, N_("this field is required")),
           "seat": (N_("Seat"), 0, MAX_PLAYERS - 1, N_("this field is required")),
           "bid": (N_("Bid"), 0, MAX_HAND, N_("tap a number to bid"))}
#: The deal a tap was made for (every tap names it: the server applies it there, or refuses it).
DEAL_TAP = {"deal": (N_("Deal"), 1, MAX_DEALS,
                     N_("this entry doesn't say which deal it is for: reload the page"))}
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

    cards = WholeNumberField(_l("Cards"), 1, MAX_HAND,
                             validators=[InputRequired(_l("tap the number of cards dealt"))])


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
    """What a seat's entry of this kind is called, what its missing is said as, and what one sent
    for a player who sits the deal out is said as."""
    if kind == "bids":
        return (_("%(player)s's bid", player=name), _("%(player)s's bid: missing", player=name),
                _("A bid was sent for %(player)s, who sits this deal out; nothing was saved.",
                  player=name))
    return (_("%(player)s's tricks", player=name), _("%(player)s's tricks: missing", player=name),
            _("A trick count was sent for %(player)s, who sits this deal out; nothing was saved.",
              player=name))


def seats_form(formdata: Any, names: Sequence[str], cards: int, *, bids: bool, tricks: bool,
               trump: bool = False, data: Mapping[str, Any] | None = None,
               seats: Sequence[int] | None = None) -> SeatsForm:
    """Every player's bid and/or trick count as posted (or, without a post, as in ``data``): one for
    each of the ``seats`` dealt in (everybody by default), none for a player who sits the deal
    out."""
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
            verify_tricks([numbers["tricks"][seat] or 0 for seat in dealt], cards,
                          [names[seat] for seat in dealt])
        except RulesError as exc:
            errors.append(sentence(str(exc)))
    chosen = (shown.get("trump") or None) if formdata is None else (formdata.get("trump") or None)
    if trump and chosen is not None and chosen not in TRUMPS:
        errors.append(sentence(_("Trump must be one of %(trumps)s, not %(value)s",
                                 trumps=", ".join(TRUMPS), value=values.shown(chosen))))
    version = shown.get("version") if formdata is None else None
    if formdata is not None:
        tap = read_tap(formdata, {"version": BID_TAP["version"]})
        version, errors = tap.numbers["version"], [*tap.errors, *errors]
    return SeatsForm(tuple(names), cards, numbers, texts, chosen if trump else None, version,
                     errors if formdata is not None else [])


#: The words a select shows for each of the rules' ids it offers (the id is what is posted).


STAKE_KINDS = [SelectChoice("", _l("no stakes")), SelectChoice("per_point", _l("per point")),
               SelectChoice("ante", _l("ante (a pool)"))]


class StakesFields:
    """What the table plays for, as form fields; the rules core checks the amounts."""

    stakes = SelectField(_l("Stakes"), choices=STAKE_KINDS, default="")
    amount = TextField(_l("Amount"))
    currency = TextField(_l("Currency"))
    settlement = SelectField(_l("Settlement"), choices=choices_of(SETTLEMENTS), default="pairwise")
    hard_score_bonus = TextField(_l("Hard-score bonus"))

    def stakes_input(self) -> dict[str, str] | None:
        """The game file's ``stakes`` object, or None for a game without stakes."""
        if not self.stakes.data:
            return None
        amount = language.typed_amount((self.amount.data or "").strip()) or "0"
        stakes = {self.stakes.data: amount, "settlement": self.settlement.data}
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
