"""What a group keeps of one game (GROUPS.md): its title, players, result, rules' name and each
player's line, worked out from the replay once, and kept as a document with the game's version so
that a worker holding nothing of a group reads it instead of replaying the game."""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from pathlib import Path
from typing import NamedTuple

from .errors import RulesError
from .gamefile import GameFile
from .presets import Rules, rules_for
from .stats import Line, Summary, summarize

#: What a kept record was worked out by: the rules core. A record another build of it wrote is not
#: read (the game is replayed instead), so a change to the rules never shows stale figures.
MADE_BY = hashlib.sha256(b"".join(path.read_bytes()
                                  for path in sorted(Path(__file__).parent.glob("*.py"))
                                  )).hexdigest()[:16]


class Record(NamedTuple):
    """One game as a group shows it."""

    title: str
    players: tuple[str, ...]
    finished: bool
    cooperative: bool
    winners: tuple[str, ...]
    preset: str  # the id of its rules' preset; "" for a game the rules no longer replay
    house: bool  # whether the table changed any rule of the preset
    deals: int
    summary: Summary


def house_rules(rules: Rules) -> bool:
    """Whether the table changed any rule of its preset.

    >>> from .presets import make_rules
    >>> (house_rules(make_rules({"preset": "kachuful"}, 4)),
    ...  house_rules(make_rules({"max_cards": 3}, 4)))
    (False, True)
    """
    try:
        return rules != rules_for({"preset": rules.preset}, rules.players)
    except RulesError:  # the preset alone can't be dealt to this table: the table changed it
        return True


def record(game: GameFile) -> Record:
    """What a group shows of a game, from its replay."""
    state = game.game
    winners = (() if game.rules.cooperative or not state.finished
               else tuple(game.players[w] for w in state.winners))
    played = sum(1 for result in state.deals if result.finished)
    return Record(game.title, game.players, state.finished, game.rules.cooperative, winners,
                  game.rules.preset, house_rules(game.rules), played, summarize(state))


def document(kept: Record) -> str:
    """A record as it is kept: JSON, totals as [numerator, denominator].

    >>> from .gamefile import parse
    >>> game = record(parse({"players": ["Ann", "Bob", "Cy"], "rules": {"max_cards": 1},
    ...                      "deals": [{"bids": [1, 1, 0], "tricks": [0, 1, 0]}]}))
    >>> read(document(game)) == game, read("[]"), read("{")
    (True, None, None)
    """
    lines = [[*line[:4], [Fraction(line.total).numerator, Fraction(line.total).denominator],
              *line[5:]]
             for line in kept.summary.lines]
    return json.dumps([MADE_BY, kept.title, kept.players, kept.finished, kept.cooperative,
                       kept.winners, kept.preset, kept.house, kept.deals, kept.summary.finished,
                       kept.summary.cooperative, lines], ensure_ascii=False, separators=(",", ":"))


def read(text: str) -> Record | None:
    """The record ``document`` kept; None when another build wrote it, or it can't be read."""
    try:
        (made_by, title, players, finished, cooperative, winners, preset, house, deals, over,
         together, lines) = json.loads(text)
        kept = tuple(Line._make([*line[:4], _points(*line[4]), *line[5:]]) for line in lines)
    except (ValueError, TypeError):
        return None
    if made_by != MADE_BY:
        return None
    return Record(title, tuple(players), finished, cooperative, tuple(winners), preset, house,
                  deals, Summary(over, together, kept))


def _points(numerator: int, denominator: int) -> int | Fraction:
    return numerator if denominator == 1 else Fraction(numerator, denominator)
