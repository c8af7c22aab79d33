"""The forms of a new game, of the house rules it (and a blank sheet) may set, and of a game file
imported.
"""

from __future__ import annotations

from typing import Any

from flask import request
from flask_babel import lazy_gettext as _l
from flask_wtf.file import FileField
from flask_wtf.i18n import translations
from wtforms import Form, FormField, SelectField, StringField, TextAreaField
from wtforms.validators import Length, ValidationError

from ..play.forms import StakesFields
from ..rules import values
from ..rules.bidding import BIDDING_RULES
from ..rules.errors import RulesError
from ..rules.gamefile import MAX_PLAYERS, check_players
from ..rules.presets import DECK_SIZES, RULE_LABELS, TIES, rules_from_text
from ..rules.schedule import MAX_SEQUENCE, PATTERNS, TRUMP_RULES
from ..rules.scoring import SYSTEMS, WINS
from ..rules.variants import PRESETS
from ..rules.words import N_, _, ngettext
from ..web.fields import (
    YES_NO,
    PostedForm,
    TextField,
    choice_field,
    indexed,
    longest,
    refuse,
    sentence,
)
from ..web.site import read_json


class HouseRulesForm(Form):
    """Every rule field, each left empty to keep the preset's value."""

    class Meta:
        def get_translations(self, form: Form) -> Any:
            """WTForms' own messages ("Not a valid choice.") in the page's language, as a
            FlaskForm's."""
            return translations

    deal = choice_field(RULE_LABELS["deal"], PATTERNS)
    max_cards = TextField(_l(RULE_LABELS["max_cards"]))
    # the longest of MAX_SEQUENCE deals, each of up to 52 cards at no trump: "52NT-52NT-…"
    sequence = TextField(_l(RULE_LABELS["sequence"]),
                         validators=[longest(len("52NT-") * MAX_SEQUENCE)])
    deals = TextField(_l(RULE_LABELS["deals"]))
    decks = choice_field(RULE_LABELS["decks"], (1, 2))
    deck_size = choice_field(RULE_LABELS["deck_size"], DECK_SIZES)
    only = choice_field(RULE_LABELS["only"], ("odd", "even"), N_("all"))
    trump = choice_field(RULE_LABELS["trump"], TRUMP_RULES)
    trump_cycle = TextField(_l(RULE_LABELS["trump_cycle"]),
                            validators=[longest(len("NT-") * MAX_SEQUENCE)])
    bidding = choice_field(RULE_LABELS["bidding"], BIDDING_RULES)
    hook_from = TextField(_l(RULE_LABELS["hook_from"]))
    simultaneous = choice_field(RULE_LABELS["simultaneous"], YES_NO)
    sealed = choice_field(RULE_LABELS["sealed"], YES_NO)
    scoring = choice_field(RULE_LABELS["scoring"], [*SYSTEMS, "custom"])
    zero_bid = TextField(_l(RULE_LABELS["zero_bid"]))
    spades_double = choice_field(RULE_LABELS["spades_double"], YES_NO)
    target = TextField(_l(RULE_LABELS["target"]))
    tie = choice_field(RULE_LABELS["tie"], TIES)
    made = TextField(_l(RULE_LABELS["made"]), validators=[longest(200)])
    missed = TextField(_l(RULE_LABELS["missed"]), validators=[longest(200)])
    wins = choice_field(RULE_LABELS["wins"], WINS, "highest")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A sequence typed means the custom pattern (with another pattern chosen, the rules refuse
        # the two).
        if (self.sequence.data or "").strip() and not self.deal.data:
            self.deal.data = "custom"
        # A deck the list doesn't offer (a game file may give 20 to 104 cards) is offered too, so
        # the game's own is shown and kept; ``validate`` reads it within its bounds.
        size = self.deck_size.data
        if size and size not in [choice.value for choice in self.deck_size.iter_choices()]:
            self.deck_size.choices = [*(self.deck_size.choices or []), str(size)]

    def validate(self, extra_validators: Any = None) -> bool:
        """Each field's own checks, then its value read as the rules read it (a number, yes/no,
        …)."""
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
        """The fields the table changed, typed as the game file wants them (RulesError if one can't
        be)."""
        return rules_from_text({field.short_name: field.data or "" for field in self})

    def refused(self, exc: RulesError) -> bool:
        """Put a refusal of the rules made from the form beside the rule field to change; False when
        it is about no field of the form."""
        field = self._fields.get(exc.field or "")
        if field is None:
            return False
        refuse(field, str(exc))
        return True


#: The stakes field of the new-game form that each stakes field of the game file is typed in.
STAKES_TYPED = {"per_point": "amount", "ante": "amount", "currency": "currency",
                "settlement": "settlement", "hard_score_bonus": "hard_score_bonus",
                "stakes": "stakes"}


def _too_many() -> str:
    """The refusal of more player rows than a game takes."""
    return ngettext("A game has at most %(num)s player: remove one.",
                    "A game has at most %(num)s players: remove one.", MAX_PLAYERS)


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
            # More rows than a game takes are read (and refused by validate), so what was typed
            # stays.
            found, self.row_errors = indexed(posted, "players", 2 * MAX_PLAYERS, "name",
                                             beyond=_too_many())
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
        """The form's fields, then the players: a name in every row up to the last, as a game needs
        them."""
        valid = super().validate(extra_validators)
        self.row_errors = list(self.row_errors)
        names = self.names()
        blank = [row for row, name in enumerate(names, 1) if not name]
        if len(names) > MAX_PLAYERS:
            self.row_errors.append(_too_many())
        elif blank:
            self.row_errors.append(_("Player %(row)s has no name: type one, or remove the row.",
                                     row=blank[0]))
        else:
            try:
                check_players(names)
            except RulesError as exc:
                self.row_errors.append(sentence(str(exc)))
        if self.first_dealer.data != "random":
            try:
                row = values.whole(self.first_dealer.data or "0", _("The first dealer"), 0,
                                   MAX_PLAYERS - 1)
            except RulesError as exc:
                self.row_errors.append(sentence(str(exc)))
            else:
                if row >= len(names) and not blank:
                    self.row_errors.append(_("The first dealer's row has no name: "
                                             "choose who deals first."))
        return valid and not self.row_errors

    def refused(self, exc: RulesError) -> bool:
        """Put a refusal of the game file made from the form beside the rule or stakes field to
        change; False when it is about no field of the form (the players, say)."""
        if self.rules.form.refused(exc):
            return True
        if exc.field not in STAKES_TYPED:
            return False
        refuse(self[STAKES_TYPED[exc.field]], str(exc))
        return True

    def dealer(self) -> int | None:
        """The seat who deals first (checked by ``validate``); None for a random draw."""
        if self.first_dealer.data == "random":
            return None
        return values.whole(self.first_dealer.data or "0", _("The first dealer"), 0,
                            MAX_PLAYERS - 1)

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
        """The uploaded or pasted JSON, decoded; ValidationError when there is none or it isn't
        JSON."""
        upload = self.file.data
        raw = upload.read() if upload and getattr(upload, "filename", "") else b""
        if raw:
            try:
                self.text.data = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise ValidationError(_("The file is not a text file: "
                                        "choose the .json file you exported.")) \
                    from None
        text = (self.text.data or "").strip()
        if not text:
            raise ValidationError(_("Choose a game file, or paste one."))
        try:
            return read_json(text)
        except ValueError as exc:
            raise ValidationError(_("This is not a JSON game file: %(problem)s.",
                                    problem=exc)) from None
