"""The forms of the groups: a new group, and the link of a group to put a game in.
"""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import StringField
from wtforms.validators import ValidationError
from wtforms.widgets import HiddenInput

from ..rules import values
from ..rules.errors import RulesError
from ..rules.words import _
from ..web.fields import PostedForm, TextField


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
