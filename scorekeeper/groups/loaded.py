"""A group as its pages show it: loaded with its figures, its links and its file, its games paged,
its ratings charted, and its numbers and dates written for the page's language (GROUPS.md).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, NamedTuple

from babel import numbers
from flask import (
    abort,
    request,
    url_for,
)
from markupsafe import Markup

from ..changes.groups import refusal
from ..play.chart import lines_svg, thinned
from ..play.wording import written
from ..rules import values
from ..rules.errors import RulesError
from ..rules.words import _
from ..store.games import records_of
from ..store.groups import (
    Member,
    StoredGroup,
    find_group,
    game_data,
)
from ..web import language
from ..web.site import game_links, group_or_404
from .figures import Entry, Figures, Played, Player, marked

FORMAT = "oh-hell-scorekeeper/group-1"
#: The most lines the ratings chart draws: the best players on the leaderboard.
CHART_LINES = 10
#: The most points of a line a chart draws (it is some 220 wide): a longer line is drawn through
#: every second, third… game, its first and last kept.
CHART_POINTS = 200
#: The games, players or a player's games a page lists: the rest are on the pages after it.
PAGE = 50


class Loaded(NamedTuple):
    """A group with its games and figures, as a page of it needs them."""

    group: StoredGroup
    editable: bool
    members: list[Member]
    figures: Figures


def load(token: str, *, edit: bool = False) -> Loaded:
    """A group, its games and its figures: kept per version of its list of games, and read again
    only when its mark changed."""
    group, editable = group_or_404(token, edit=edit)
    return Loaded(group, editable,
                  *marked(group.token, group.mark(), group.members, game_data, records_of))


def group_links(group: StoredGroup, editable: bool) -> dict[str, str]:
    """Absolute links to a group's pages; without the edit token, only the read-only ones."""
    links = {"view": url_for("groups.group", group=group.view_token, _external=True),
             "api": url_for("api.get_group", group=group.token if editable else group.view_token,
                            _external=True)}
    if editable:
        links = {"edit": url_for("groups.group", group=group.token, _external=True), **links}
    return links


def rating_document(player: Player) -> dict[str, Any]:
    """A player's figures as the API gives them."""
    tally, rating = player.tally, player.rating
    return {"name": player.name, "games": tally.games, "wins": tally.wins, "deals": tally.deals,
            "made": tally.made, "zero_bids": tally.zero_bids, "zero_made": tally.zero_made,
            "bids": tally.bids, "tricks": tally.tricks,
            "rating": {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal}}


def document(loaded: Loaded) -> dict[str, Any]:
    """The group as the JSON API gives it: game links with a game's edit link only for the
    group's edit token."""
    games = []
    for member, entry in zip(loaded.members, loaded.figures.entries):
        games.append({"title": entry.title, "players": list(entry.players),
                      "finished": entry.finished, "winners": list(entry.winners),
                      "links": game_links(member, loaded.editable)})
    return {"format": FORMAT, "name": loaded.group.name, "games": games,
            "players": [rating_document(p) for p in loaded.figures.leaderboard()],
            "links": group_links(loaded.group, loaded.editable)}


def roster(loaded: Loaded) -> list[str]:
    """The group's players in their usual seating order: the seats of its most recent game, then
    the others, who played most first."""
    spelling: dict[str, str] = {}
    played: dict[str, int] = {}
    for entry in loaded.figures.entries:
        for name in entry.players:
            key = values.name_key(name)
            spelling[key] = name
            played[key] = played.get(key, 0) + 1
    last = ([values.name_key(name) for name in loaded.figures.entries[-1].players]
            if loaded.figures.entries else [])
    others = sorted((k for k in spelling if k not in last),
                    key=lambda k: (-played[k], spelling[k].casefold()))
    return [spelling[k] for k in [*last, *others]]


def ratings_chart(fig: Figures, ink: str = "currentColor") -> Markup | None:
    """The ratings (ordinals) of the best players after each rated game, one line each, from the
    first rated game after their first game."""
    if not fig.rated:
        return None
    names, series = [], []
    every = -(-len(fig.rated) // CHART_POINTS)
    for player in fig.leaderboard():
        line = _rating_line(player.history, fig.rated)
        if line:
            names.append(player.name)
            # Ordinal 0 before any game
            series.append(thinned([(line[0][0] - 1, 0.0), *line], every))
        if len(series) == CHART_LINES:
            break
    return lines_svg(names, series, _("Ratings after each game"), _("rated game"), ink=ink)


def _rating_line(history: list[Played], rated: list[int]) -> list[tuple[int, float]]:
    """A player's ordinal after each rated game (numbered from 1), from the first one at or after
    their first game: their rating after their latest game up to it."""
    line: list[tuple[int, float]] = []
    ahead, current = 0, None
    for step, index in enumerate(rated, 1):
        while ahead < len(history) and history[ahead].game <= index:
            current = history[ahead].rating.ordinal
            ahead += 1
        if current is not None:
            line.append((step, current))
    return line


def when(moment: datetime) -> str:
    """A game's date as the group's files give it, in every language (this server's time zone)."""
    local = (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone()
    return f"{local:%d %b %Y}"


def shown_date(moment: datetime) -> str:
    """A game's date as the group's pages and season sheet show it, in the page's language."""
    local = (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone()
    return written(local.date(), "yMMMd")


def listed(loaded: Loaded, page: int = 1) -> list[dict[str, Any]]:
    """A page of the group's games, the newest first (``PAGE`` of them)."""
    newest = sorted(zip(loaded.members, loaded.figures.entries),
                    key=lambda pair: pair[0].created_at, reverse=True)
    link = game_link(loaded)
    return [{"member": member, "entry": entry, "date": shown_date(member.created_at),
             "link": link(member)}
            for member, entry in newest[(page - 1) * PAGE:page * PAGE]]


class Paging(NamedTuple):
    """The page of a list asked for, and how many it has (at least one)."""

    page: int
    pages: int


def paging(rows: int) -> Paging:
    """The page a list's link asks for (``?page=``, the first when none), of ``PAGE`` rows each;
    a 404 naming the pages there are for one that isn't a page of it."""
    pages = max(1, -(-rows // PAGE))
    try:
        page = values.whole(request.args.get("page", "1"), _("The page"), 1, pages)
    except RulesError as exc:
        abort(404, str(exc))
    return Paging(page, pages)


#: Stands for a phone's form token in a group page's figures, rendered once for every phone.


def entry_name(entry: Entry) -> str:
    """A game as a list names it: its title, or its players."""
    return entry.title or ", ".join(entry.players)


def percent(value: float | None) -> str:
    """A rate as a whole percentage; a dash when there is none.

    >>> percent(0.756), percent(None)
    ('76%', '–')
    """
    return "–" if value is None else numbers.format_percent(value, locale=language.current())


def figure(value: float, places: int = 1) -> str:
    """A rating or a figure with ``places`` decimals, in the page's language, with a true minus.

    >>> figure(-1.14), figure(25.0, 2)
    ('−1.1', '25.00')
    """
    digits = numbers.format_decimal(abs(value), "0." + "0" * places, locale=language.current())
    return ("−" if round(value, places) < 0 else "") + digits


def signed(value: float | None, places: int = 2) -> str:
    """A figure with its sign (a true minus); a dash when there is none.

    >>> signed(-0.25), signed(0.5), signed(None)
    ('−0.25', '+0.50', '–')
    """
    if value is None:
        return "–"
    digits = numbers.format_decimal(abs(value), "0." + "0" * places, locale=language.current())
    return ("−" if round(value, places) < 0 else "+") + digits


def game_link(loaded: Loaded) -> Any:
    """A game's link on the group's pages: its edit page with the group's edit link."""

    def link(member: Member) -> str:
        if loaded.editable:
            return url_for("play.game", token=member.token)
        return url_for("play.view", token=member.view_token)

    return link


def for_new_game(token: str) -> tuple[StoredGroup | None, list[str], str]:
    """The group a new game is started for (its edit token), its roster, and what is wrong with
    the token, if anything (then no group)."""
    if not token:
        return None, [], ""
    found, editable = find_group(token[:64])
    if found is None:
        return None, [], _("No group has this link: the game would be in no group.")
    if not editable:
        return None, [], _("This is the read-only link of a group: "
                           "a game can be started in it only with its edit link.")
    loaded = Loaded(found, True,
                    *marked(found.token, found.mark(), found.members, game_data, records_of))
    if len(loaded.members) >= values.MAX_GROUP_GAMES:
        return None, [], refusal("full")
    return found, roster(loaded), ""
