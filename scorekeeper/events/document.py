"""An event's document: what ``POST /api/events`` sends, checked, and the stored document the
rounds grow (EVENTS.md, "What an event is").

The stored document holds the event's setup, each player with the round they arrive at, the last
round they play (once withdrawn) and the rounds they asked a bye for, the rounds started with
their tables' game ids, a proposed seating the director changed by a swap, and the night's
language (its table games' titles are written in it; a night stored without one writes them in
the language of whoever starts the round). It is read into the rules core's ``Event`` by
``core_event``.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from datetime import date
from typing import Any

from ..rules import values
from ..rules.errors import EventError, RulesError
from ..rules.event import (
    Entrant,
    Event,
    Seating,
    TableSizes,
    fewest_byes,
    lineups,
    split,
    table_sizes,
)
from ..rules.presets import rules_for
from ..rules.ranking import RANKINGS
from ..rules.words import N_, _, ngettext
from ..store.groups import find_group

FORMAT = "oh-hell-scorekeeper/event-1"
FIELDS = ("format", "name", "date", "players", "rules", "rounds", "tables", "seating", "ranking",
          "seed", "group", "language")
SEATINGS = ("mixed", "ranked", "manual")
MIN_PLAYERS, MAX_PLAYERS = 4, 400
MAX_ROUNDS, MAX_TABLES = 20, 100
MAX_NAME = 60
MAX_SEED = 2**32 - 1
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")

Document = dict[str, Any]

#: Each field in a player's words.
LABELS = {"name": N_("The event's name"), "date": N_("The event's date"),
          "rounds": N_("The number of rounds"), "seating": N_("The seating"),
          "ranking": N_("The ranking"), "seed": N_("The seed"), "round": N_("The round")}


def _label(field: str) -> values.What:
    return lambda: _(LABELS[field])


def key(name: str) -> str:
    """What tells two players of an event apart, as a group matches names."""
    return values.name_key(" ".join(name.split()))


def event_name(value: object) -> str:
    """An event's name: 1–60 printable characters, as a game's title."""
    cleaned = values.text(value, _label("name"), MAX_NAME)
    if not cleaned:
        raise EventError(_("The event's name is missing: give the event a name"))
    return cleaned


def event_date(value: object, today: date) -> str:
    """An event's date, ``YYYY-MM-DD``; today when not given."""
    if value is None:
        return today.isoformat()
    if isinstance(value, str) and _DATE.fullmatch(value.strip()):
        try:
            return date.fromisoformat(value.strip()).isoformat()
        except ValueError:
            pass
    raise EventError(_("The event's date must be a date such as 2026-12-04, not %(given)s",
                       given=values.shown(value)))


def player_names(given: object) -> list[str]:
    """The event's players: 4–400 names, distinct as a group matches them."""
    if not isinstance(given, list) or not MIN_PLAYERS <= len(given) <= MAX_PLAYERS:
        raise EventError(_("The players must be a list of %(low)s to %(high)s names",
                           low=MIN_PLAYERS, high=MAX_PLAYERS))
    names: list[str] = []
    seen: dict[str, str] = {}
    for typed in given:
        name = values.name(typed)
        if key(name) in seen:
            raise EventError(_("%(name)s and %(other)s are the same name: "
                               "give every player a different one", name=seen[key(name)],
                               other=name))
        seen[key(name)] = name
        names.append(name)
    return names


def _tables(given: object, rules: Mapping[str, Any]) -> TableSizes:
    if given is None:
        given = {"size": 4}
    if not isinstance(given, Mapping):
        raise EventError(_("The tables must be an object such as %(example)s",
                           example='{"size": 4, "sizes": [3, 4, 5]}'))
    values.fields(given, ("size", "sizes"), lambda: _("The tables"))
    sizes = given.get("sizes")
    if sizes is not None and not isinstance(sizes, list):
        raise EventError(_("The allowed table sizes must be a list such as %(example)s",
                           example="[3, 4, 5]"))
    found = table_sizes(given.get("size"), sizes)
    playable(rules, found)
    return found


def playable(rules: Mapping[str, Any], found: TableSizes) -> None:
    """Refuse rules that a table of an allowed size can't play, naming the size and the rule to
    change."""
    problems: dict[int, RulesError] = {}
    for size in found.sizes:
        try:
            rules_for(rules, size)
        except RulesError as exc:
            problems[size] = exc
    if not problems:
        return
    size, problem = next(iter(problems.items()))
    if len(problems) == len(found.sizes) and len({str(p) for p in problems.values()}) == 1:
        refused = EventError(_("These rules can't be played: %(problem)s", problem=problem))
    else:
        refused = EventError(_("A table of %(size)s can't play these rules: %(problem)s", size=size,
                               problem=problem))
    refused.field = problem.field  # the rule to change
    raise refused


def check_tables(players: int, tables: TableSizes) -> None:
    """Refuse more players than ``MAX_TABLES`` tables seat (a table needs at least its smallest
    size), once the fewest byes a round needs are given."""
    if players > MAX_PLAYERS:
        raise EventError(_("An event has at most %(num)s players", num=MAX_PLAYERS))
    seated = split(players - fewest_byes(players, tables), tables)
    if seated is not None and len(seated) > MAX_TABLES:
        raise EventError(ngettext("%(num)s player would sit at more than %(most)s tables: "
                                  "allow larger tables",
                                  "%(num)s players would sit at more than %(most)s tables: "
                                  "allow larger tables", players, most=MAX_TABLES))


def new_event(data: object, today: date, language: str = "en") -> Document:
    """Check what ``POST /api/events`` sent (the group's link is read by the caller) and make the
    stored document of a new event, in the language it names or else ``language`` (the one it was
    asked in); an EventError (or a ValueRefused) names what is wrong."""
    if not isinstance(data, Mapping):
        raise EventError(_("Send the event as a JSON object with its name, players and rounds"))
    values.fields(data, FIELDS, lambda: _("The event"))
    if data.get("format", FORMAT) != FORMAT:
        raise EventError(_("The format must be %(format)s", format=FORMAT))
    name = event_name(data.get("name"))
    day = event_date(data.get("date"), today)
    players = player_names(data.get("players"))
    rules = data.get("rules", {"preset": "oh-hell"})
    if not isinstance(rules, Mapping):
        raise EventError(_("The rules must be an object such as %(example)s",
                           example='{"preset": "oh-hell"}'))
    rounds = values.count(data.get("rounds"), _label("rounds"), 1, MAX_ROUNDS)
    tables = _tables(data.get("tables"), rules)
    check_tables(len(players), tables)
    seating = values.choice(data.get("seating", "mixed"), _label("seating"), SEATINGS)
    ranking = values.choice(data.get("ranking", "percent"), _label("ranking"), RANKINGS)
    seed = data.get("seed")
    seed = (secrets.randbelow(MAX_SEED + 1) if seed is None
            else values.count(seed, _label("seed"), 0, MAX_SEED))
    spoken = values.language(data.get("language", language))
    doc: Document = {
        "name": name, "date": day, "rules": dict(rules), "rounds": rounds,
        "tables": {"size": tables.size, "sizes": list(tables.sizes)}, "seating": seating,
        "ranking": ranking, "seed": seed,
        "players": [{"name": n, "arrives": 1, "last": None, "asked": []} for n in players],
        "played": [], "proposal": None, "group": None, "language": spoken,
    }
    fewest_byes(len(players), tables)  # refuses too few players for a table
    return doc


def group_id(link: object) -> int:
    """The id of the group whose edit link this is; an EventError says why there is none."""
    group, editable = find_group(values.link_token(link, lambda: _("The group's link")))
    if group is None:
        raise EventError(_("No group has this link: give the group's edit link"))
    if not editable:
        raise EventError(_("This is the group's read-only link: give the group's edit link"))
    return group.id


def sizes(doc: Document) -> TableSizes:
    """The event's table sizes."""
    return TableSizes(doc["tables"]["size"], tuple(doc["tables"]["sizes"]))


def seatings(doc: Document) -> tuple[Seating, ...]:
    """The rounds started, as the rules core sees them."""
    return tuple(Seating(tuple(tuple(t["players"]) for t in r["tables"]), tuple(r["byes"]))
                 for r in doc["played"])


def core_event(doc: Document) -> Event:
    """The event as the rules core takes it."""
    entrants = tuple(Entrant(p["name"], p["arrives"], p["last"], frozenset(p["asked"]))
                     for p in doc["players"])
    return Event(entrants, doc["rounds"], sizes(doc), doc["seed"], seatings(doc))


def find_player(doc: Document, typed: object) -> Document:
    """The event's entry of a player named as a group matches names; an EventError when none is."""
    name = values.name(typed)
    for player in doc["players"]:
        if key(player["name"]) == key(name):
            return dict(player)
    raise EventError(_("%(name)s is not a player of this event", name=name))


def _next(doc: Document) -> int:
    """The number of the first round not started yet; an EventError once every planned round was."""
    if len(doc["played"]) >= doc["rounds"]:
        raise EventError(_("Every planned round has been played"))
    return len(doc["played"]) + 1


def change_players(doc: Document, data: Mapping[str, Any]) -> Document:
    """The document after ``{"arrive": name}``, ``{"withdraw": name}``,
    ``{"bye": name, "round": r}`` or ``{"play": name, "round": r}`` (a bye taken back), the rounds
    to come still playable (EVENTS.md, "Who plays a round" and "Coming back"). A withdrawn player
    who arrives comes back from the next round, keeping the rounds played; the rounds missed
    meanwhile are kept as ``away``. The proposed seating is dropped, to be planned again."""
    kinds = [kind for kind in ("arrive", "withdraw", "bye", "play") if kind in data]
    values.fields(data, ("arrive", "withdraw", "bye", "play", "round"), lambda: _("The change"))
    if len(kinds) != 1 or ("round" in data) != (kinds[0] in ("bye", "play")):
        raise EventError(_("Send one change: %(examples)s",
                           examples='{"arrive": "Eve"}, {"withdraw": "Bob"}, '
                                    '{"bye": "Cy", "round": 3}, {"play": "Cy", "round": 3}'))
    number = _next(doc)
    changed = dict(doc, players=[dict(p) for p in doc["players"]], proposal=None)
    if kinds == ["arrive"]:
        name = values.name(data["arrive"])
        known = [p for p in changed["players"] if key(p["name"]) == key(name)]
        if not known:
            changed["players"].append({"name": name, "arrives": number, "last": None, "asked": []})
            check_tables(len(changed["players"]), sizes(doc))
        elif known[0]["last"] is None:
            raise EventError(_("%(name)s is a player of this event already", name=known[0]["name"]))
        else:
            entry = known[0]
            missed = range(max(entry["last"] + 1, entry["arrives"]), number)
            entry["away"], entry["last"] = sorted({*entry.get("away", ()), *missed}), None
    else:
        player = find_player(doc, data[kinds[0]])
        entry = next(p for p in changed["players"] if p["name"] == player["name"])
        if kinds == ["withdraw"]:
            if player["last"] is not None:
                raise EventError(_("%(name)s has withdrawn already", name=player["name"]))
            entry["last"] = max(number, player["arrives"]) - 1
        else:
            entry["asked"] = _byes(doc, player, kinds[0], data["round"], number)
    lineups(core_event(changed))  # refuses a round left with too few players for a table
    return changed


def _byes(doc: Document, player: Document, kind: str, typed: object, number: int) -> list[int]:
    """A player's byes after one is given (``bye``) or taken back (``play``) for round ``typed``."""
    bye = values.count(typed, _label("round"), 1, doc["rounds"])
    name = player["name"]
    if kind == "play":
        if bye < number:
            raise EventError(_("Round %(round)s has started already: "
                               "a bye can be taken back before its round", round=bye))
        if bye not in player["asked"]:
            raise EventError(_("%(name)s has no bye in round %(round)s", name=name, round=bye))
        return [r for r in player["asked"] if r != bye]
    if player["last"] is not None:
        raise EventError(_("%(name)s has withdrawn: bring %(name)s back first", name=name))
    if bye < number:
        raise EventError(_("Round %(round)s has started already: "
                           "a bye can be given for a round to come", round=bye))
    if bye < player["arrives"]:
        raise EventError(_("%(name)s arrives at round %(arrives)s: no bye is needed before",
                           name=name, arrives=player["arrives"]))
    if bye in player["asked"]:
        raise EventError(_("%(name)s has a bye in round %(round)s already", name=name, round=bye))
    return sorted([*player["asked"], bye])


def change_plan(doc: Document, data: Mapping[str, Any]) -> Document:
    """The document after ``{"rounds": n}`` (never below the rounds started) and/or
    ``{"seating": mode}`` for the rounds to come; the proposed seating is dropped, to be planned
    again, and byes asked for dropped rounds go with them."""
    values.fields(data, ("rounds", "seating"), lambda: _("The plan"))
    if not data:
        raise EventError(_("Send what changes: %(examples)s",
                           examples='{"rounds": 5}, {"seating": "ranked"}'))
    started = len(doc["played"])
    changed = dict(doc, proposal=None)
    if "rounds" in data:
        planned = values.count(data["rounds"], _label("rounds"), 1, MAX_ROUNDS)
        if planned < started:
            raise EventError(ngettext("%(num)s round has started already: plan at least %(num)s",
                                      "%(num)s rounds have started already: plan at least %(num)s",
                                      started))
        changed["rounds"] = planned
        changed["players"] = [dict(p, asked=[r for r in p["asked"] if r <= planned])
                              for p in doc["players"]]
    if "seating" in data:
        changed["seating"] = values.choice(data["seating"], _label("seating"), SEATINGS)
        _next(changed)  # a seating is given to rounds still to come
    lineups(core_event(changed))  # refuses a round to come left with too few players for a table
    return changed
