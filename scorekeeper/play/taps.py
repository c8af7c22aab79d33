"""What a tap is for, as posted: its deal and step (and a seat). Whether it fits the game as it is
now is the changes layer's to say (``changes.taps.misplaced``, docs/architecture.md).
"""

from __future__ import annotations

from flask import request

from ..changes.taps import Target
from .forms import DEAL_TAP, read_tap


def target(step: str, seat: int | None = None) -> tuple[Target, list[str]]:
    """The posted tap's target, and a sentence for each refused field of it."""
    read = read_tap(request.form, DEAL_TAP)
    return Target(step, read.numbers["deal"], seat), read.errors
