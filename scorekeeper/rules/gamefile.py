"""The game file ``oh-hell-scorekeeper/1``: parse and validate the input, export input +
computed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NoReturn, cast

from . import values
from .bidding import WHOLE, announce
from .errors import GameError, RulesError, about
from .game import replay
from .presets import Rules, rules_for
from .schedule import TRUMPS
from .scoring import Points
from .stakes import Settlement, Stakes, parse_stakes, settle
from .state import Absence, Adjustment, DealInput, GameState
from .values import shown
from .words import _, ngettext

FORMAT = "oh-hell-scorekeeper/1"
INPUT_FIELDS = ("format", "title", "players", "first_dealer", "rules", "stakes", "adjustments",
                "absent", "ended", "deals")
#: Fields an export adds; an imported export may carry them, and they are recomputed.
COMPUTED_FIELDS = ("schedule", "finished", "standings", "winners", "settlement", "links")
DEAL_FIELDS = ("trump", "bids", "tricks", "cards")
#: ``bid_in``: while a deal's bids are sealed (SEATS.md), whether each player has bid; its
#: ``bids`` are null meanwhile (``rules.sealed.seal_export``).
COMPUTED_DEAL_FIELDS = ("number", "dealer", "eldest", "present", "bid_total", "announce", "made",
                        "points", "totals", "bid_in")
#: The bounds of a game (RULES.md §8): deals (re-deals and tie-breaks included), adjustments and
#: their points, players; the most cards one player can hold (two packs, two players).
MAX_DEALS = 300
MAX_ADJUSTMENTS = 100
MAX_ADJUSTMENT = 10_000
MAX_PLAYERS = 10
MAX_HAND = 52
#: The most absences a game file lists (arrivals, departures, sit-outs).
MAX_ABSENCES = 100


class GameFileError(GameError):
    """A game file that is refused as a whole; the message names the deal, player and rule."""


@dataclass
class GameFile:
    """A checked game file: its input fields and the game they replay to."""

    players: tuple[str, ...]
    rules_input: dict[str, Any]
    rules: Rules
    title: str = ""
    first_dealer: int = 0
    stakes_input: dict[str, Any] | None = None
    stakes: Stakes | None = None
    adjustments: list[Adjustment] = field(default_factory=list)
    adjustment_input: list[dict[str, Any]] = field(default_factory=list)
    deals: list[DealInput] = field(default_factory=list)
    ended: bool = False
    state: GameState | None = None
    absences: tuple[Absence, ...] = ()

    @property
    def game(self) -> GameState:
        """The replayed game."""
        assert self.state is not None
        return self.state

    def settlement(self) -> Settlement | None:
        """The settlement once the game is finished and played for stakes."""
        game = self.game
        if self.stakes is None or not game.finished:
            return None
        return settle(self.stakes, game.totals, game.winners, self.rules.wins)


def check_players(values_given: object) -> tuple[str, ...]:
    """2 to 10 distinct names in seating order.

    >>> check_players(["Ann", "ann"])
    Traceback (most recent call last):
    ...
    scorekeeper.rules.gamefile.GameFileError: 'ann' is listed twice:
    every player needs a different name
    """
    if not isinstance(values_given, list) or not 2 <= len(values_given) <= MAX_PLAYERS:
        raise GameFileError(_("A game has 2 to %(most)s players, listed in seating order",
                              most=MAX_PLAYERS))
    names = tuple(_player_name(seat, given) for seat, given in enumerate(values_given))
    seen: set[str] = set()
    for name in names:
        if values.name_key(name) in seen:
            raise GameFileError(_("%(name)s is listed twice: every player needs a different name",
                                  name=repr(name)))
        seen.add(values.name_key(name))
    return names


def _player_name(seat: int, given: object) -> str:
    """The name of the player at ``seat`` (0-based), checked."""
    return values.name(given, lambda: _("Player %(seat)s's name", seat=seat + 1))


_DEAL_KEYS = frozenset(DEAL_FIELDS) | frozenset(COMPUTED_DEAL_FIELDS)
_BID_TYPES = WHOLE | {type(None)}
_NO_BIDS: list[None] = []  # the deal has no "bids" (none entered yet)


def _deal(index: int, data: object, names: Sequence[str]) -> DealInput:
    if type(data) is not dict and not isinstance(data, Mapping):
        raise GameFileError(_("deal %(deal)s: a deal must be an object with bids (and tricks)",
                              deal=index + 1))
    if not _DEAL_KEYS.issuperset(data):
        unknown = sorted(set(data) - _DEAL_KEYS)
        raise GameFileError(_("deal %(deal)s: unknown field %(field)s; known: %(known)s",
                              deal=index + 1, field=shown(unknown[0]),
                              known=", ".join(DEAL_FIELDS)))
    bids, tricks = data.get("bids", _NO_BIDS), data.get("tricks")
    if bids is _NO_BIDS or (bids is None and tricks is None):  # null: sealed when exported
        bids = [None] * len(names)
    elif (type(bids) is not list or len(bids) != len(names)
          or not _BID_TYPES.issuperset(map(type, bids))):
        _refuse_seats(index, bids, names, "bids", _BID_TYPES)
    if tricks is not None and (type(tricks) is not list or len(tricks) != len(names)
                               or not _BID_TYPES.issuperset(map(type, tricks))):
        _refuse_seats(index, tricks, names, "tricks", _BID_TYPES)
    trump, cards = data.get("trump"), data.get("cards")
    if trump is not None:
        if type(trump) is not str or trump.upper() not in TRUMPS:
            raise GameFileError(_("deal %(deal)s: the trump must be S, H, D, C or NT, "
                                  "not %(trump)s", deal=index + 1, trump=shown(trump)))
        trump = trump.upper()
    # A bool is no number
    if cards is not None and (type(cards) is not int or not 1 <= cards <= MAX_HAND):
        values.refuse(_("deal %(deal)s: the cards dealt", deal=index + 1),
                      _("a whole number from %(low)s to %(high)s", low=1, high=MAX_HAND), cards)
    return DealInput(tuple(bids), None if tricks is None else tuple(tricks), trump, cards)


def _refuse_seats(index: int, entries: object, names: Sequence[str], field: str,
                  types: frozenset[type]) -> NoReturn:
    """Say what is wrong with a deal's bids or tricks (``field``): not a list of one entry per
    player, or which player's entry isn't a number."""
    deal, players = index + 1, len(names)
    if not isinstance(entries, list) or len(entries) != players:
        if field == "bids":
            raise GameFileError(ngettext("deal %(deal)s: bids must be a list of %(num)s entry, "
                                         "one per player",
                                         "deal %(deal)s: bids must be a list of %(num)s entries, "
                                         "one per player", players, deal=deal))
        raise GameFileError(ngettext("deal %(deal)s: tricks must be a list of %(num)s number, "
                                     "one per player",
                                     "deal %(deal)s: tricks must be a list of %(num)s numbers, "
                                     "one per player", players, deal=deal))
    seat, value = next((seat, value)
                       for seat, value in enumerate(entries) if type(value) not in types)
    if field == "bids":
        raise GameFileError(_("deal %(deal)s: %(player)s's bid must be a whole number or null, "
                              "not %(value)s", deal=deal, player=names[seat], value=shown(value)))
    raise GameFileError(_("deal %(deal)s: %(player)s's tricks must be a whole number (null when "
                          "not dealt in), not %(value)s", deal=deal, player=names[seat],
                          value=shown(value)))


def _adjustments(given: object,
                 names: Sequence[str]) -> tuple[list[Adjustment], list[dict[str, Any]]]:
    if given is None:
        return [], []
    if not isinstance(given, list) or len(given) > MAX_ADJUSTMENTS:
        raise GameFileError(_("adjustments must be a list of at most %(most)s "
                              "{deal, player, points, reason}", most=MAX_ADJUSTMENTS))
    result, kept = [], []
    for item in given:
        if not isinstance(item, Mapping) or set(item) - {"deal", "player", "points", "reason"}:
            raise GameFileError(_("adjustments: "
                                  "each one is {deal, player, points, reason} and nothing else"))
        adjustment = _adjustment(item, names)
        result.append(adjustment)
        kept.append({"deal": adjustment.deal, "player": adjustment.player,
                     "points": adjustment.points, "reason": adjustment.reason})
    return result, kept


def _adjustment(item: Mapping[str, Any], names: Sequence[str]) -> Adjustment:
    """One adjustment of the game file, its fields checked."""
    deal = values.count(item.get("deal"), lambda: _("An adjustment's deal"), 1, MAX_DEALS)
    player = values.count(item.get("player"),
                          lambda: _("deal %(deal)s: an adjustment's player", deal=deal),
                          0, len(names) - 1)
    name = names[player]
    points = values.count(item.get("points"), lambda: _("deal %(deal)s: %(player)s's adjustment",
                                                        deal=deal, player=name),
                          -MAX_ADJUSTMENT, MAX_ADJUSTMENT)
    reason = values.text(item.get("reason", ""),
                         lambda: _("deal %(deal)s: the reason of %(player)s's adjustment",
                                   deal=deal, player=name))
    return Adjustment(deal, player, points, reason)


def _absences(given: object, names: Sequence[str]) -> tuple[Absence, ...]:
    """The game file's ``absent`` list: who is not dealt in which deals (RULES.md §7)."""
    if given is None:
        return ()
    if not isinstance(given, list) or len(given) > MAX_ABSENCES:
        raise GameFileError(_("absent must be a list of at most %(most)s {player, from, to}",
                              most=MAX_ABSENCES))
    found = []
    for item in given:
        if not isinstance(item, Mapping) or set(item) - {"player", "from", "to"}:
            raise GameFileError(_("absent: each one is {player, from, to} (to is optional) and "
                                  "nothing else"))
        found.append(_absence(item, names))
    return tuple(found)


def _absence(item: Mapping[str, Any], names: Sequence[str]) -> Absence:
    """One absence of the game file, its fields checked."""
    player = values.count(item.get("player"), lambda: _("An absent player"), 0, len(names) - 1)
    name = names[player]
    first = values.count(item.get("from"),
                         lambda: _("The first deal %(player)s is away", player=name), 1, MAX_DEALS)
    last = None if item.get("to") is None else values.count(
        item.get("to"), lambda: _("The last deal %(player)s is away", player=name), first,
        MAX_DEALS)
    return Absence(player, first, last)


def _absent_input(absences: Sequence[Absence]) -> list[dict[str, int]]:
    """The ``absent`` list as a game file writes it."""
    return [{"player": a.player, "from": a.first} | ({} if a.last is None else {"to": a.last})
            for a in absences]


def parse(data: object, previous: GameFile | None = None) -> GameFile:
    """Check a whole game file and replay it; a GameFileError names what is wrong.

    ``previous``, a game file checked earlier (such as this game before a change), only saves work:
    when it has the same players, rules, first dealer and adjustments, the deals both begin with
    are not replayed again. The result is the same with or without it.

    >>> game = parse({"players": ["Ann", "Bob", "Cy"], "rules": {"max_cards": 3},
    ...               "deals": [{"bids": [1, 1, 0], "tricks": [1, 2, 0]}]})
    >>> [str(t) for t in game.game.totals]
    ['11', '2', '10']
    >>> parse({"players": ["Ann", "Bob", "Cy"], "rules": {"max_cards": 3},
    ...        "deals": [{"bids": [0, 1, 2]}]})
    Traceback (most recent call last):
    ...
    scorekeeper.rules.gamefile.GameFileError: deal 1: Ann deals and can't bid 0:
    the bids would add up to the 3 tricks (hook)
    """
    try:
        return _parse(data, previous)
    except GameFileError:
        raise
    except RulesError as exc:
        refused = GameFileError(str(exc))
        refused.field = exc.field
        raise refused from None


def _parse(data: object, previous: GameFile | None) -> GameFile:
    if not isinstance(data, Mapping):
        raise GameFileError(_("a game file is a JSON object with players, rules and deals"))
    values.fields(data, (*INPUT_FIELDS, *COMPUTED_FIELDS), lambda: _("The game file"))
    if data.get("format", FORMAT) != FORMAT:
        raise GameFileError(_("format must be %(format)s, not %(given)s", format=repr(FORMAT),
                              given=shown(data.get("format"))))
    players = check_players(data.get("players"))
    title = values.text(data.get("title"), lambda: _("The title"))
    first_dealer = values.count(data.get("first_dealer", 0), lambda: _("The first dealer"), 0,
                                len(players) - 1)
    absences = _absences(data.get("absent"), players)
    rules_input = data.get("rules", {})
    if not isinstance(rules_input, Mapping):
        raise GameFileError(_("rules must be an object such as {\"preset\": \"oh-hell\"}"))
    # The pattern is sized for the players dealt in at deal 1 (RULES.md §7).
    seated = len(players) - len({a.player for a in absences if a.covers(1)})
    if (previous is not None and previous.rules.players == seated
            and previous.rules_input == rules_input):
        rules = previous.rules  # made from these very rules for as many players
    else:
        rules = rules_for(rules_input, max(seated, 2))
    stakes_input = data.get("stakes")
    stakes = None
    if stakes_input is not None:
        if rules.cooperative:
            with about("stakes"):
                raise GameFileError(_("stakes: a cooperative game is won together, "
                                      "so it can't be played for stakes"))
        stakes = parse_stakes(stakes_input)
    deals_data = data.get("deals", [])
    if not isinstance(deals_data, list) or len(deals_data) > MAX_DEALS:
        raise GameFileError(ngettext("deals must be a list of at most %(num)s deal",
                                     "deals must be a list of at most %(num)s deals", MAX_DEALS))
    deals = [_deal(i, d, players) for i, d in enumerate(deals_data)]
    adjustments, adjustment_input = _adjustments(data.get("adjustments"), players)
    ended = data.get("ended", False)
    if not isinstance(ended, bool):
        raise GameFileError(_("ended must be true or false"))
    state = replay(rules, players, deals, first_dealer=first_dealer, adjustments=adjustments,
                   ended=ended, absences=absences,
                   resume=_shared(previous, rules, players, first_dealer, adjustments, deals,
                                  absences))
    return GameFile(players, dict(rules_input), rules, title, first_dealer,
                    None if stakes_input is None else dict(stakes_input), stakes, adjustments,
                    adjustment_input, deals, ended, state, absences)


def _shared(previous: GameFile | None, rules: Rules, players: tuple[str, ...], first_dealer: int,
            adjustments: list[Adjustment], deals: list[DealInput],
            absences: tuple[Absence, ...]) -> tuple[GameState, int] | None:
    """The earlier replay to go on from, and how many deals it shares with these; None if none."""
    if (previous is None or previous.state is None or previous.rules is not rules
            or previous.players != players or previous.first_dealer != first_dealer
            or previous.adjustments != adjustments or previous.absences != absences):
        return None
    shared = 0
    for now, before in zip(deals, previous.deals):
        if now != before:
            break
        shared += 1
    return previous.state, shared


def normalized(game: GameFile) -> GameFile:
    """The game as ``parse(to_input(game))`` gives it back, without replaying it again: each deal's
    input as it is stored (its number of cards, and the trump the rules fixed, written out).

    >>> game = parse({"players": ["Ann", "Bob"], "rules": {"max_cards": 2},
    ...               "deals": [{"bids": [1, 0], "tricks": [1, 1]}]})
    >>> game.deals[0].cards, normalized(game).deals[0].cards
    (None, 2)
    >>> normalized(game) == parse(to_input(game))
    True
    """
    deals = [entry if entry.cards == result.deal.cards and entry.trump == result.trump
             else DealInput(result.bids, result.tricks, result.trump, result.deal.cards)
             for entry, result in zip(game.deals, game.game.deals)]
    return replace(game, deals=deals)


def _head(game: GameFile) -> dict[str, Any]:
    """The game file's fields before the deals, as the input gave them."""
    doc: dict[str, Any] = {"format": FORMAT}
    if game.title:
        doc["title"] = game.title
    doc.update(players=list(game.players), first_dealer=game.first_dealer, rules=game.rules_input)
    if game.stakes_input is not None:
        doc["stakes"] = game.stakes_input
    if game.adjustment_input:
        doc["adjustments"] = game.adjustment_input
    if game.absences:
        doc["absent"] = _absent_input(game.absences)
    if game.ended:
        doc["ended"] = True
    return doc


def to_input(game: GameFile) -> dict[str, Any]:
    """The input part of the game file: what is stored, and what everything is recomputed from."""
    doc = _head(game)
    deals = []
    for result in game.game.deals:
        deal: dict[str, Any] = {"cards": result.deal.cards, "bids": list(result.bids)}
        if result.trump is not None:
            deal["trump"] = result.trump
        if result.tricks is not None:
            deal["tricks"] = list(result.tricks)
        deals.append(deal)
    doc["deals"] = deals
    return doc


def number(value: Points) -> int | float:
    """A score as JSON: a whole number, or a float for halves (trick scoring).

    >>> from fractions import Fraction
    >>> number(Fraction(13)), number(Fraction(1, 2))
    (13, 0.5)
    """
    if isinstance(value, int):
        return value
    return int(value) if value.denominator == 1 else float(value)


def _numbers(values: Sequence[Points | None]) -> list[int | float | None]:
    """Points as JSON numbers (most are ints already); null for a player not dealt in.

    >>> from fractions import Fraction
    >>> _numbers([3, -1]), _numbers([Fraction(5, 2), Fraction(4, 2), 1]), _numbers([2, None])
    ([3, -1], [2.5, 2, 1], [2, None])
    """
    if WHOLE.issuperset(map(type, values)):
        return list(cast(Sequence[int], values))
    return [value if value is None or type(value) is int else number(value) for value in values]


def export(game: GameFile, links: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The export document: the input repeated, and everything the rules compute from it."""
    state, names = game.game, game.players
    doc = _head(game)
    deals = []
    for result in state.deals:
        deal, tricks, entered = result.deal, result.tricks, result.entered
        entry: dict[str, Any] = {"number": deal.number, "cards": deal.cards, "dealer": deal.dealer,
                                 "eldest": deal.eldest, "present": list(deal.seats(len(names))),
                                 "trump": result.trump, "bids": list(result.bids)}
        if tricks is not None:
            entry["tricks"] = list(tricks)
        entry["bid_total"] = sum(entered)
        # The file is in English
        entry["announce"] = announce(entered, deal.cards or 0, translated=False)
        if tricks is not None:
            entry["made"] = list(result.made or ())
            entry["points"] = _numbers(result.points or ())
            entry["totals"] = _numbers(result.totals)
        deals.append(entry)
    doc["deals"] = deals
    schedule = []
    for d in state.schedule:
        entry = {"number": d.number, "cards": d.cards, "dealer": d.dealer, "trump": d.has_trump}
        if d.has_trump and d.trump is not None:
            entry["suit"] = d.trump
        schedule.append(entry)
    doc["schedule"] = schedule
    doc["finished"] = state.finished
    doc["standings"] = [{"player": names[s.player], "total": number(s.total), "rank": s.rank}
                        for s in state.standings]
    doc["winners"] = [names[w] for w in state.winners]
    settlement = game.settlement()
    doc["settlement"] = None if settlement is None else {
        "currency": settlement.currency,
        "net": {names[i]: str(amount) for i, amount in enumerate(settlement.net)},
        "payments": [{"from": names[p.payer], "to": names[p.payee], "amount": str(p.amount)}
                     for p in settlement.payments],
    }
    if links:
        doc["links"] = dict(links)
    return doc
