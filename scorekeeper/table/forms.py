"""The forms of the changes at the table (RULES.md §7): someone arrives, a seat changes, someone
sits out, the rules change, the game ends.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import Field, FormField, SelectField, StringField
from wtforms.validators import InputRequired, ValidationError

from ..games.forms import HouseRulesForm
from ..rules import values
from ..rules.errors import RulesError
from ..rules.gamefile import MAX_ADJUSTMENT, MAX_PLAYERS
from ..rules.presets import RULE_BOUNDS, RULE_LABELS
from ..rules.variants import PRESETS
from ..rules.words import N_, _, ngettext
from ..web.fields import TextField, VersionForm, WholeNumberField

#: What a late arrival may start with (RULES.md §7), as the form names each choice.
STARTS = {"zero": "0", "lowest": N_("the lowest total"), "average": N_("the others' average"),
          "number": N_("a number")}


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
            # A number typed without its choice (no JavaScript to tick it) is that choice
            if not typed:
                raise ValidationError(_("choose what they start with"))
            field.data = "number"
        elif field.data == "number" and not typed and not self.points.process_errors:
            raise ValidationError(_("type the number they start with, such as 10 or -5"))
        elif field.data != "number" and typed:
            raise ValidationError(_("%(number)s is typed as a number, but %(choice)s is chosen: "
                                    "choose one of the two", number=self.points._value(),
                                    choice=_(STARTS[field.data])))

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
            raise ValueError(ngettext("at most %(num)s player can be chosen",
                                      "at most %(num)s players can be chosen", MAX_PLAYERS))
        for raw in valuelist:
            try:
                seat = values.whole(str(raw), _("A player"), 0, MAX_PLAYERS - 1)
            except RulesError as exc:
                raise ValueError(str(exc)) from None
            if seat not in self.data:
                self.data.append(seat)


class PlayerForm(VersionForm):
    """A change at the table for one player: leaves, comes back."""

    player = WholeNumberField(_l("Player"), 0, MAX_PLAYERS - 1,
                              validators=[InputRequired(_l("choose who it is"))])


class SitOutForm(VersionForm):
    """The players who sit the next deal out (one or several)."""

    player = SeatsField("", default=list)  # its messages name "a player" themselves


#: What ``indexed`` says of an entry of each kind (``what``) sent for no seat, or twice for one.


class RulesForm(VersionForm):
    """New rules for a game under way: a preset and house rules (its stakes are changed on their
    own)."""

    preset = SelectField(_l("Rules"), choices=list(PRESETS), default="oh-hell")
    rules = FormField(HouseRulesForm)

    def rules_input(self) -> dict[str, Any]:
        """The game file's ``rules`` the form asks for (RulesError when a rule can't be read)."""
        return {"preset": self.preset.data, **self.rules.form.overrides()}

    @staticmethod
    def shown(rules_input: Mapping[str, Any]) -> dict[str, Any]:
        """A game's ``rules`` as the form's fields show them: numbers as text, true and false as yes
        and no.

        >>> RulesForm.shown({"max_cards": 7, "spades_double": True, "zero_bid": "5+n"})
        {'preset': 'oh-hell',
         'rules': {'max_cards': '7', 'spades_double': 'yes', 'zero_bid': '5+n'}}
        """
        texts = {name: ("yes" if value else "no") if isinstance(value, bool) else str(value)
                 for name, value in rules_input.items() if name != "preset"}
        return {"preset": rules_input.get("preset", "oh-hell"), "rules": texts}


class EndForm(VersionForm):
    """When a game without a plan of hand sizes (fixed, manual) ends: after a number of deals, at a
    target, whichever comes first; either left empty is not a way to end."""

    deals = WholeNumberField(_l(RULE_LABELS["deals"]), *RULE_BOUNDS["deals"])
    target = WholeNumberField(_l(RULE_LABELS["target"]), *RULE_BOUNDS["target"])
