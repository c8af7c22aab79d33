"""Backups: every game this device holds in one file, and restoring such a file on any server.

A backup is ``{"format": "oh-hell-scorekeeper/backup-1", "exported": ..., "games": [export, ...]}``.
Restoring it imports each game on its own: a game whose link still works on this server is only
remembered on this device, a game this device already holds (same input) is skipped, and a game
the rules refuse is named with the reason while the others are imported all the same. Every game
is checked before the first is stored: the restore holds the database's write lock only for its
INSERTs, never while the rules are worked out. The house formulas of all its games are checked
within one budget, as much work as one game's check: a backup past it is refused as a whole.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeGuard

import orjson

from ..changes.games import create as create_game
from ..phone import device
from ..play.sealed import sealed_export
from ..rules.errors import RulesError
from ..rules.gamefile import GameFile, parse, to_input
from ..rules.scoring import CheckBudgetExceeded, check_budget, recorded, remember
from ..rules.words import _, ngettext
from ..store.games import StoredGame, find_game
from ..web.fields import sentence
from ..web.site import game_links

FORMAT = "oh-hell-scorekeeper/backup-1"
#: The most games one backup restores: half of what a device remembers, so that every game a
#: restore names stays in the device's list, with room for the games it held before.
MAX_GAMES = device.KEEP // 2


class BackupError(ValueError):
    """A backup refused as a whole: it has no list of games, or too many."""


@dataclass
class Restored:
    """One game of a restored backup: its place in the file, its name, and what became of it."""

    number: int
    name: str
    outcome: str  # "imported", "here" or "refused"
    reason: str = ""
    game: StoredGame | None = None
    editable: bool = True


def is_backup(data: object) -> TypeGuard[dict[str, Any]]:
    """Whether a decoded file is (or means to be) a backup rather than one game file."""
    if not isinstance(data, dict):
        return False
    kind = data.get("format")
    return ("games" in data if kind is None
            else isinstance(kind, str) and kind.startswith(FORMAT[:-2]))


def backup() -> dict[str, Any]:
    """The backup of this device's games: each game's export with the links this device has."""
    games = []
    for game, editable in device.games():
        links = game_links(game, editable=editable)
        try:
            games.append(sealed_export(game, links))
        except RulesError:  # a game the rules no longer replay is kept exactly as stored
            games.append({**game.document, "links": links})
    return {"format": FORMAT, "exported": datetime.now(UTC).isoformat(timespec="seconds"),
            "games": games}


def _canonical(game: GameFile) -> str:
    """A game's input as one string: two games with the same input have the same string."""
    return json.dumps(to_input(game), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _name(doc: object) -> str:
    """The title, or else the players, of a game in a backup (whatever the file holds)."""
    if not isinstance(doc, dict):
        return ""
    title, players = doc.get("title"), doc.get("players")
    if isinstance(title, str) and title.strip():
        return " ".join(title.split())[:60]
    if isinstance(players, list) and all(isinstance(p, str) for p in players):
        return ", ".join(" ".join(p.split()) for p in players)[:60]
    return ""


def _on_server(doc: object) -> tuple[StoredGame | None, bool]:
    """The game on this server that a backed-up game's links (edit, api, view) point at."""
    links = doc.get("links") if isinstance(doc, dict) else None
    for kind in ("edit", "api", "view"):
        url = links.get(kind) if isinstance(links, dict) else None
        if isinstance(url, str):
            game, editable = find_game(url.rstrip("/").rsplit("/", 1)[-1])
            if game is not None:
                return game, editable
    return None, False


def _held() -> dict[str, list[tuple[StoredGame, bool]]]:
    """The games this device holds, by their canonical input (equal games each in their place)."""
    held: dict[str, list[tuple[StoredGame, bool]]] = {}
    for game, editable in device.games():
        try:
            held.setdefault(_canonical(game.load()), []).append((game, editable))
        except RulesError:
            continue
    return held


def _check(number: int, doc: object) -> tuple[Restored, GameFile | None]:
    """One game of a backup, read and checked (nothing stored): found on this server by its links,
    refused with the reason, or to import (with its checked game file)."""
    name = _name(doc)
    found, editable = _on_server(doc)
    if found is not None:
        return Restored(number, name, "here", game=found, editable=editable), None
    try:
        return Restored(number, name, "imported"), parse(doc)
    except RulesError as exc:
        return Restored(number, name, "refused", sentence(str(exc))), None


def _match_held(checked: list[tuple[Restored, GameFile | None]]) -> None:
    """Mark "here" each game to import whose input is that of a game this device holds.

    A game held stands for one game of the backup at most, so separate games stay separate even
    when nothing tells them apart yet (the same players, nothing entered), while a backup
    restored twice finds each of its games where the first restore stored it.
    """
    held = _held()
    claimed = {result.game.id for result, _game in checked if result.game is not None}
    for result, game in checked:
        if game is None:
            continue
        same = [(found, editable)
                for found, editable in held.get(_canonical(game), []) if found.id not in claimed]
        if same:
            result.outcome, result.game, result.editable = "here", *same[0]
            claimed.add(same[0][0].id)


def check(document: object) -> bytes:
    """What checking the house formulas of a game file, or of every game of a backup, finds
    (``scoring.recorded``), as JSON for another process to ``remembered``: the costly part of a
    restore, which reads nothing stored. Each game is read without its deals (the formulas are
    checked for every hand of its rules); what else it holds wrong is found by the restore."""
    games = (document.get("games") if is_backup(document) else [document]) or []
    with recorded() as outcomes:
        try:
            with check_budget():
                for doc in games[:MAX_GAMES] if isinstance(games, list) else []:
                    try:
                        parse({k: v for k, v in doc.items() if k != "deals"}
                              if isinstance(doc, dict) else doc)
                    except RulesError:
                        continue
        except CheckBudgetExceeded:
            pass
    return orjson.dumps([[*key, outcome] for key, outcome in outcomes.items()])


def remembered(checked: bytes) -> None:
    """Take what ``check`` found (in any process of the server) as worked out here."""
    remember(((made, missed, tuple(sizes), players),
              tuple(outcome) if isinstance(outcome, list) else outcome)
             for made, missed, sizes, players, outcome in orjson.loads(checked))


def restore(data: dict[str, Any]) -> list[Restored]:
    """Import every game of a backup and remember them all on this device; BackupError if it has no
    games."""
    games = data.get("games")
    if data.get("format", FORMAT) != FORMAT:
        raise BackupError(_("This backup's format %(format)s is not known here: "
                            "backups %(known)s can be restored; nothing was imported.",
                            format=repr(data["format"][:40]), known=repr(FORMAT)))
    if not isinstance(games, list):
        raise BackupError(_("This backup has no list of games (%(example)s); nothing was imported.",
                            example='"games": [...]'))
    if len(games) > MAX_GAMES:
        raise BackupError(ngettext(
            "This backup holds %(num)s game; at most %(most)s can be restored at once, "
            "so nothing was imported.",
            "This backup holds %(num)s games; at most %(most)s can be restored at once, "
            "so nothing was imported.", len(games), most=MAX_GAMES))
    try:  # the house formulas of all its games together bounded, as one game's are (docs/api.md)
        with check_budget():
            checked = [_check(number, doc) for number, doc in enumerate(games, 1)]
    except CheckBudgetExceeded:
        raise BackupError(ngettext(
            "This backup holds %(num)s game; "
            "checking its house scoring formulas is too much work for one restore, "
            "so nothing was imported. Import the game from its own game file.",
            "This backup holds %(num)s games; "
            "checking the house scoring formulas of them all is too much work for one restore, "
            "so nothing was imported. Import its games one at a time from their own game files.",
            len(games))) from None
    _match_held(checked)
    # Every check made: the writes, one short transaction the caller commits
    for result, game in checked:
        if result.outcome == "imported" and game is not None:
            result.game = create_game(game)
    results = [result for result, _game in checked]
    for result in reversed(results):  # the backup's first game ends at the top of the list
        if result.game is not None:
            device.remember(result.game, result.editable)
    return results
