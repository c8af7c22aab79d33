"""Changes to a game's input document (the game file's input part, a plain dict).

Each function changes the document in place and checks nothing a rule decides: the changes layer
(``changes.apply``) then replays the changed document, and the rules core accepts it or says what
is wrong.
"""

from __future__ import annotations

import math
from typing import Any

from ..rules.gamefile import GameFile
from ..rules.presets import rules_for
from ..rules.schedule import HandSize
from ..rules.words import N_, _

Document = dict[str, Any]


class EditError(ValueError):
    """A change that doesn't fit where the game is (tricks with no deal being played, …)."""


def _players(doc: Document) -> int:
    return len(doc["players"])


def _unfinished(doc: Document) -> Document | None:
    deals = doc.setdefault("deals", [])
    if deals and "tricks" not in deals[-1]:
        last: Document = deals[-1]
        return last
    return None


def open_deal(doc: Document) -> Document:
    """The deal being played; a new, empty one when the last deal is finished.

    >>> doc = {"players": ["Ann", "Bob"], "deals": [{"bids": [1, 0], "tricks": [1, 0]}]}
    >>> open_deal(doc), len(doc["deals"])
    ({'bids': [None, None]}, 2)
    """
    deal = _unfinished(doc)
    if deal is None:
        deal = {"bids": [None] * _players(doc)}
        doc["deals"].append(deal)
    return deal


def set_bid(doc: Document, seat: int, bid: int) -> None:
    """Enter one player's bid in the deal being played, at a seat the rules core let bid
    (``changes.apply`` asks ``rules.turn.bid_refusal`` first: a bid is never entered over
    another)."""
    bids = open_deal(doc)["bids"]
    if not 0 <= seat < len(bids) or bids[seat] is not None:
        raise ValueError(f"seat {seat} was not let bid (rules.turn.bid_refusal)")
    bids[seat] = bid


def set_bids(doc: Document, bids: list[int | None]) -> None:
    """Enter every player's bid at once (simultaneous bidding)."""
    open_deal(doc)["bids"] = list(bids)


def set_cards(doc: Document, cards: int) -> None:
    """Say how many cards the next deal has (the manual pattern)."""
    deal = open_deal(doc)
    if any(b is not None for b in deal["bids"]):
        raise EditError(_("The bids have started: undo them to change the number of cards."))
    deal["cards"] = cards


def set_trump(doc: Document, trump: str) -> None:
    """Record the trump of the deal being played."""
    open_deal(doc)["trump"] = trump


def undo_bid(doc: Document, order: list[int], *, at_once: bool = False) -> None:
    """Take back the last bid entered (in bidding order), or every bid when they were shown at once
    (one alone can't be taken back); a deal left empty is removed.

    >>> doc = {"players": ["Ann", "Bob"], "deals": [{"bids": [None, 1]}]}
    >>> undo_bid(doc, [1, 0]); doc["deals"]
    []
    """
    deal = _unfinished(doc)
    if deal is None:
        raise EditError(_("There is no bid to take back: the deal is finished."))
    entered = [seat for seat in order if deal["bids"][seat] is not None]
    for seat in entered if at_once else entered[-1:]:
        deal["bids"][seat] = None
    if not entered or all(b is None for b in deal["bids"]):
        doc["deals"].pop()


def set_tricks(doc: Document, tricks: list[int | None]) -> None:
    """Enter the tricks of the deal being played (the rules refuse them before everybody dealt in
    has bid)."""
    deal = _unfinished(doc)
    if deal is None:
        raise EditError(_("Tricks can be entered only when every player has bid."))
    deal["tricks"] = list(tricks)


def replace_deal(doc: Document, number: int, bids: list[int | None],
                 tricks: list[int | None] | None, trump: str | None) -> None:
    """Correct an earlier deal (1-based ``number``); the later deals are replayed after it."""
    deals = doc.get("deals", [])
    if not 1 <= number <= len(deals):
        raise EditError(_("There is no deal %(deal)s to correct.", deal=number))
    deal = {key: value for key, value in deals[number - 1].items() if key == "cards"}
    deal["bids"] = list(bids)
    if tricks is not None:
        deal["tricks"] = list(tricks)
    if trump:
        deal["trump"] = trump
    deals[number - 1] = deal


def undo_tricks(doc: Document, number: int) -> None:
    """Take back the tricks of the last deal (1-based ``number``), which goes back to its tricks
    step, its bids kept; an earlier deal is corrected instead.

    >>> doc = {"players": ["Ann", "Bob"], "deals": [{"bids": [1, 0], "tricks": [1, 0]}]}
    >>> undo_tricks(doc, 1); doc["deals"]
    [{'bids': [1, 0]}]
    """
    deals = doc.get("deals", [])
    if number != len(deals):
        raise EditError(_("Deal %(deal)s is not the last deal: correct it instead.", deal=number))
    if "tricks" not in deals[-1]:
        raise EditError(_("Deal %(deal)s is not finished: it has no tricks to take back.",
                          deal=number))
    del deals[-1]["tricks"]


def add_adjustment(doc: Document, deal: int, player: int, points: float, reason: str) -> None:
    """Give a player one-off points at a deal, with a reason."""
    doc.setdefault("adjustments", []).append(
        {"deal": deal, "player": player, "points": points, "reason": reason}
    )


def remove_adjustment(doc: Document, index: int) -> None:
    """Take an adjustment back."""
    adjustments = doc.get("adjustments", [])
    if not 0 <= index < len(adjustments):
        raise EditError(_("That adjustment is not in the game any more."))
    adjustments.pop(index)


def set_ended(doc: Document, ended: bool) -> None:
    """End the game now (the totals so far decide), or take that back."""
    doc["ended"] = ended


def end_as_it_stands(doc: Document) -> None:
    """End the game where it stands, whatever its state (a club night's director, when the round's
    time is up): a deal under way is dropped, and the game ends after its last finished deal, if
    it has one (RULES.md §5: a game ends only after a finished deal).

    >>> doc = {"deals": [{"bids": [1, 0], "tricks": [1, 0]}, {"bids": [0, None]}]}
    >>> end_as_it_stands(doc); doc
    {'deals': [{'bids': [1, 0], 'tricks': [1, 0]}], 'ended': True}
    >>> doc = {"deals": [{"bids": [0, 1]}]}
    >>> end_as_it_stands(doc); doc
    {'deals': []}
    """
    if _unfinished(doc) is not None:
        doc["deals"].pop()
    if doc["deals"]:
        doc["ended"] = True


def set_stakes(doc: Document, stakes: dict[str, Any] | None) -> None:
    """Change what the game is played for (None: no stakes); the settlement follows."""
    if stakes is None:
        doc.pop("stakes", None)
    else:
        doc["stakes"] = stakes


# Changes at the table (RULES.md §7): each keeps the game file's meaning for the deals played and
# changes only what is still to come; the view replays the result, as for any other change.

#: The reason of a late arrival's starting score (an adjustment on the deal before they join): kept
#: in the game file as it is, translated where it is shown.
JOINED_LATE = N_("joined late")


def next_deal(doc: Document) -> int:
    """The number of the next deal to be dealt: the one after the deal being played, or the one
    about to start.

    >>> next_deal({"deals": [{"bids": [1, 0], "tricks": [1, 0]}]}), next_deal({})
    (2, 1)
    """
    return len(doc.get("deals", [])) + 1


def _name(doc: Document, seat: int) -> str:
    players: list[str] = doc["players"]
    if not 0 <= seat < len(players):
        raise EditError(_("That player is not in the game."))
    return players[seat]


def _absences(doc: Document, seat: int) -> list[Document]:
    """The absences of one player, as the game file lists them."""
    return [a for a in doc.get("absent", []) if a["player"] == seat]


def _away(absence: Document, number: int) -> bool:
    """Whether an ``absent`` entry covers deal ``number``."""
    last = absence.get("to")
    return bool(absence["from"] <= number and (last is None or number <= last))


def arrive(doc: Document, name: str, seat: int, start: int = 0) -> None:
    """Seat a late arrival at ``seat`` (0 to the number of players: before whom), dealt in from the
    next deal with ``start`` points: away from deal 1 until then, every earlier deal holding null
    for them, every seat after theirs moving up one; the starting score is an adjustment "joined
    late" on the deal before they join.

    >>> doc = {"players": ["Ann", "Bob"], "first_dealer": 1,
    ...        "deals": [{"bids": [1, 0], "tricks": [1, 0]}]}
    >>> arrive(doc, "Cy", 1, 7); doc["players"], doc["first_dealer"], doc["deals"][0]["bids"]
    (['Ann', 'Cy', 'Bob'], 2, [1, None, 0])
    >>> doc["absent"], doc["adjustments"]
    ([{'player': 1, 'from': 1, 'to': 1}],
     [{'deal': 1, 'player': 1, 'points': 7, 'reason': 'joined late'}])
    """
    players: list[str] = doc["players"]
    if not 0 <= seat <= len(players):
        raise EditError(_("Choose where the new player sits."))
    number = next_deal(doc)
    if doc.get("first_dealer", 0) >= seat:
        doc["first_dealer"] = doc.get("first_dealer", 0) + 1
    for item in (*doc.get("adjustments", []), *doc.get("absent", [])):
        if item["player"] >= seat:
            item["player"] += 1
    for deal in doc.get("deals", []):
        for kind in ("bids", "tricks"):
            if deal.get(kind) is not None:
                deal[kind].insert(seat, None)
    players.insert(seat, name)
    if number > 1:
        doc.setdefault("absent", []).append({"player": seat, "from": 1, "to": number - 1})
        if start:
            doc.setdefault("adjustments", []).append(
                {"deal": number - 1, "player": seat, "points": start, "reason": JOINED_LATE})


def leave(doc: Document, seat: int) -> None:
    """A player leaves: not dealt in from the next deal on (sit-outs planned after it are dropped).

    >>> doc = {"players": ["Ann", "Bob", "Cy"], "deals": [{"bids": [1, 0, 0], "tricks": [1, 0, 0]}]}
    >>> leave(doc, 2); doc["absent"]
    [{'player': 2, 'from': 2}]
    """
    name, number = _name(doc, seat), next_deal(doc)
    absent = doc.setdefault("absent", [])
    for absence in _absences(doc, seat):
        if _away(absence, number) and absence.get("to") is None:
            raise EditError(_("%(player)s has left already.", player=name))
        if absence["from"] > number:
            absent.remove(absence)
        elif _away(absence, number):  # sitting the next deal out already: away from then on
            absence.pop("to", None)
            return
    absent.append({"player": seat, "from": number})


def come_back(doc: Document, seat: int) -> None:
    """A player who left (or sits out) is dealt in again from the next deal.

    >>> doc = {"players": ["Ann", "Bob", "Cy"],
    ...        "deals": [{"bids": [1, 0, 0], "tricks": [1, 0, 0]}] * 3,
    ...        "absent": [{"player": 2, "from": 2}]}
    >>> come_back(doc, 2); doc["absent"]
    [{'player': 2, 'from': 2, 'to': 3}]
    """
    name, number = _name(doc, seat), next_deal(doc)
    absent = doc.get("absent", [])
    for absence in _absences(doc, seat):
        if _away(absence, number):
            if absence["from"] >= number:
                absent.remove(absence)
            else:
                absence["to"] = number - 1
            return
    raise EditError(_("%(player)s is at the table already.", player=name))


def sit_out(doc: Document, seats: list[int]) -> None:
    """Players who sit the next deal out (one or several).

    >>> doc = {"players": ["Ann", "Bob", "Cy", "Dee"], "deals": []}
    >>> sit_out(doc, [1, 3]); doc["absent"]
    [{'player': 1, 'from': 1, 'to': 1}, {'player': 3, 'from': 1, 'to': 1}]
    """
    if not seats:
        raise EditError(_("Choose who sits the next deal out."))
    number = next_deal(doc)
    absent = doc.setdefault("absent", [])
    for seat in sorted(set(seats)):
        name = _name(doc, seat)
        if any(_away(absence, number) for absence in _absences(doc, seat)):
            raise EditError(_("%(player)s is not at the table for the next deal anyway.",
                              player=name))
        absent.append({"player": seat, "from": number, "to": number})


def played_sizes(game: GameFile) -> list[HandSize]:
    """The hand sizes of the game so far, one per place of its plan, the deal being played
    included: a re-deal or a tie-break deal takes no place of its own.

    >>> from ..rules.gamefile import parse
    >>> played_sizes(parse({"players": ["Ann", "Bob"], "rules": {"max_cards": 3},
    ...                     "deals": [{"bids": [1, 0], "tricks": [1, 2]}, {"bids": [0, None]}]}))
    [(3, False), (2, False)]
    """
    rules, state = game.rules, game.game
    if rules.sizes is None:
        return [(result.deal.cards or 0, False) for result in state.deals if not result.tiebreak]
    position = state.checkpoints[-1].position if state.checkpoints else 0
    current = state.current
    if current is not None and not current.tiebreak:
        position += 1  # the deal being played keeps its place and its size
    return list(rules.sizes[:position])


#: The rule fields that make up a plan; a plan written out as a custom sequence replaces them all.
PLAN_FIELDS = ("deal", "sequence", "max_cards", "only", "deals")


def _sequence(sizes: list[HandSize]) -> str:
    return "-".join(f"{cards}{'NT' if no_trump else ''}" for cards, no_trump in sizes)


def set_plan(doc: Document, game: GameFile, upcoming: list[HandSize]) -> None:
    """Change the deals still to come (RULES.md §7): the plan becomes a custom sequence of the hand
    sizes played so far (one-card deals dealt to break a tie included), then ``upcoming``. Games
    without a set plan (fixed, manual) change their number of deals or their target instead
    (``set_end``).

    >>> from ..rules.gamefile import parse
    >>> doc = {"players": ["Ann", "Bob"], "rules": {"max_cards": 3},
    ...        "deals": [{"bids": [1, 0], "tricks": [1, 2]}]}
    >>> set_plan(doc, parse(doc), [(1, False)]); doc["rules"]
    {'deal': 'custom', 'sequence': '3-1'}
    """
    if game.rules.sizes is None:
        raise EditError(_("This game has no plan of hand sizes: "
                          "change its number of deals or its target."))
    # the one-card deals dealt to break a tie become deals of the plan: they replay as they were
    tiebreaks = [(result.deal.cards or 1, False) for result in game.game.deals if result.tiebreak]
    sizes = [*played_sizes(game), *tiebreaks, *upcoming]
    if not sizes:
        raise EditError(_("A game needs at least one deal."))
    rules = {name: value for name, value in doc.get("rules", {}).items() if name not in PLAN_FIELDS}
    doc["rules"] = {**rules, "deal": "custom", "sequence": _sequence(sizes)}


def set_end(doc: Document, deals: int | None, target: int | None) -> None:
    """Change when a game without a plan of hand sizes (fixed, manual) ends: after ``deals`` deals,
    at ``target`` points, whichever comes first (None: not that way)."""
    rules = doc.setdefault("rules", {})
    for name, value in (("deals", deals), ("target", target)):
        if value is None:
            rules.pop(name, None)
        else:
            rules[name] = value


def set_rules(doc: Document, game: GameFile, rules: Document, players: int) -> None:
    """Play the whole game by other rules (RULES.md §7): every deal is scored again; the hand sizes
    already dealt stay (their tricks add up to them), the new rules' plan goes on from there.

    >>> from ..rules.gamefile import parse
    >>> doc = {"players": ["Ann", "Bob"], "rules": {"max_cards": 3},
    ...        "deals": [{"bids": [1, 0], "tricks": [1, 2]}]}
    >>> set_rules(doc, parse(doc), {"max_cards": 2, "scoring": "exact"}, 2); doc["rules"]
    {'scoring': 'exact', 'deal': 'custom', 'sequence': '3-1-2'}
    """
    played = played_sizes(game)
    new = rules_for(rules, players)
    if played and (new.sizes is None or list(new.sizes[:len(played)]) != played):
        if new.sizes is None:  # fixed, manual: what was dealt stays as it was dealt
            doc["rules"] = dict(rules)
            return
        kept = {name: value for name, value in rules.items() if name not in PLAN_FIELDS}
        rules = {**kept, "deal": "custom",
                 "sequence": _sequence([*played, *new.sizes[len(played):]])}
    doc["rules"] = dict(rules)


def play_again(game: GameFile) -> Document:
    """A new game with the same players (those at the table at the end, in the same seats), rules,
    stakes and title; the deal moves on to the player after the last dealer (RULES.md §7)."""
    state, names = game.game, game.players
    number = len(state.deals) + 1
    seats = [seat for seat in range(len(names)) if not any(a.player == seat and a.covers(number)
                                                              for a in game.absences)]
    last = state.deals[-1].deal.dealer if state.deals else game.first_dealer - 1
    after = next(seat for step in range(1, len(names) + 1)
                 if (seat := (last + step) % len(names)) in seats)
    doc: Document = {"players": [names[seat] for seat in seats], "first_dealer": seats.index(after),
                     "rules": dict(game.rules_input)}
    if game.title:
        doc["title"] = game.title
    if game.stakes_input is not None:
        doc["stakes"] = dict(game.stakes_input)
    return doc


def at_the_table(game: GameFile) -> list[int]:
    """The seats dealt in at the next deal (those who have left, or sit it out, are not)."""
    number = len(game.game.deals) + 1
    return [seat for seat in range(len(game.players))
            if not any(a.player == seat and a.covers(number) for a in game.absences)]


def starting_scores(game: GameFile) -> dict[str, int]:
    """What a late arrival may start with (RULES.md §7): nothing, the lowest total at the table, or
    the average of the others' totals rounded down (whole points, as every adjustment).

    >>> from ..rules.gamefile import parse
    >>> starting_scores(parse({"players": ["Ann", "Bob", "Cy"], "rules": {"max_cards": 2},
    ...                        "deals": [{"bids": [1, 0, 0], "tricks": [1, 1, 0]}]}))
    {'zero': 0, 'lowest': 1, 'average': 7}
    """
    totals = [game.game.totals[seat] for seat in at_the_table(game)] or [0]
    return {"zero": 0, "lowest": math.floor(min(totals)),
            "average": math.floor(sum(totals) / len(totals))}
