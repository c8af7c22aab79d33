"""Groups: a table's games, its players' figures and ratings; its page, a player's page, the
CSV files, the season sheet, and putting a game in a group (GROUPS.md)."""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from ..changes.groups import STATUS, refusal
from ..phone import device
from ..play.chart import lines_svg, thinned
from ..rules import characters, values
from ..rules.errors import RulesError
from ..rules.words import _
from ..store.db import commit, rollback
from ..store.games import StoredGame
from ..store.groups import StoredGroup, find_group, group_of
from ..web import access, address, language, qr
from ..web.access import Act
from ..web.fields import problems
from ..web.signed import CSRF_MARK, csrf_field
from ..web.site import game_or_404, group_or_404, no_store
from .figures import Played
from .forms import GroupForm, LinkForm
from .loaded import (
    CHART_POINTS,
    PAGE,
    Loaded,
    entry_name,
    figure,
    game_link,
    group_links,
    listed,
    load,
    paging,
    percent,
    ratings_chart,
    shown_date,
    signed,
)

bp = Blueprint("groups", __name__)


def _page(loaded: Loaded, error: str = "", status: int = 200, link: str = "") -> tuple[str, int]:
    """The group's page. Its figures are rendered once per version of the group's games; the
    whole page too while it carries nothing for one visitor (an error, what they typed, a
    message): then the page of an unchanged group is a lookup, each phone's form token put in."""
    fig, token = loaded.figures, loaded.group.token if loaded.editable else loaded.group.view_token
    plain = not error and not link and not session.get("_flashes")
    page = fig.pages.get(("page", token, language.current())) if plain else None
    if page is None:
        key = (token, language.current())
        body = fig.pages.get(key)
        if body is None:
            body = Markup(render_template("groups/_figures.html", group=loaded.group,
                                          editable=loaded.editable,
                                          board_rows=fig.leaderboard()[:PAGE], games=listed(loaded),
                                          player_count=len(fig.players),
                                          more_players=len(fig.players) > PAGE,
                                          more_games=len(fig.entries) > PAGE,
                                          chart=ratings_chart(fig), csrf_mark=Markup(CSRF_MARK)))
            fig.pages[key] = body
        page = render_template("groups/group.html", group=loaded.group, editable=loaded.editable,
                               fig=fig, body=body, error=error, link=link,
                               csrf_mark=Markup(CSRF_MARK))
        if plain:
            fig.pages[("page", token, language.current())] = page
    if loaded.editable:
        page = page.replace(CSRF_MARK, str(csrf_field()))
    return page, status


@bp.route("/groups/new", methods=("GET", "POST"))
def new() -> str | BaseResponse | tuple[str, int]:
    """Start a group; with a game's edit token (from a game's page), the game is put in it."""
    form = GroupForm()
    if request.method != "POST":
        form.game.data = request.args.get("game", "")[:values.MAX_LINK]
        return render_template("groups/new.html", form=form, error="")
    if not form.validate():
        return render_template("groups/new.html", form=form, error=" ".join(problems(form))), 422
    game = None

    def taken() -> tuple[str, int]:
        return render_template("groups/new.html", form=form,
                               error=_("This game is already in a group: "
                                       "take it out of that group first.")), 409

    if form.game.data:
        game = game_or_404(form.game.data, edit=True)
        refused = access.refusal(game, Act.GROUP)
        if refused is not None:
            return render_template("groups/new.html", form=form, error=refused), 403
        if group_of(game) is not None:
            return taken()
    group = StoredGroup.create(form.name.data)
    # Put in a group by another request meanwhile
    if game is not None and group.add(game) != "added":
        rollback()
        return taken()
    response = redirect(url_for("groups.group", group=group.token))
    commit()
    device.remember_group(group, True)
    flash(_("The group “%(group)s” is started: keep its edit link to add games.", group=group.name),
          "done")
    return response


@bp.get("/gr/<group>")
def group(group: str) -> tuple[str, int]:
    """A group's page: the leaderboard, the ratings chart and the games (and the group at the top of
    this phone's list of groups)."""
    loaded = load(group)
    device.remember_group(loaded.group, loaded.editable)
    return _page(loaded)


@bp.get("/gr/<group>/games")
def games(group: str) -> str:
    """A page of the group's games, the newest first; the first page is the group page's list."""
    loaded = load(group)
    paged = paging(len(loaded.figures.entries))
    return render_template("groups/games.html", group=loaded.group, editable=loaded.editable,
                           paging=paged, games=listed(loaded, paged.page), csrf_mark=csrf_field())


@bp.get("/gr/<group>/players")
def players(group: str) -> str:
    """A page of the group's leaderboard, best rating first."""
    loaded = load(group)
    paged = paging(len(loaded.figures.players))
    start = (paged.page - 1) * PAGE
    return render_template("groups/players.html", group=loaded.group, editable=loaded.editable,
                           paging=paged,
                           board_rows=loaded.figures.leaderboard()[start:start + PAGE], first=start)


@bp.post("/gr/<group>/games")
def add(group: str) -> BaseResponse | tuple[str, int]:
    """Put a game in the group by its edit link; a refusal says why and keeps the link typed."""
    stored = group_or_404(group, edit=True)[0]
    form = LinkForm()
    form.link.label.text = _("The game's link")
    typed = characters.visible(str(request.form.get("link", "")))[:values.MAX_LINK]
    if not form.validate():
        return _page(load(group), " ".join(problems(form)), 422, typed)
    outcome = access.add_to_group(stored, form.link.data)
    if outcome != "added":
        return _page(load(group), refusal(outcome), STATUS[outcome], typed)
    response = redirect(url_for("groups.group", group=stored.token))
    commit()
    flash(_("The game is in the group."), "done")
    return response


@bp.post("/gr/<group>/remove")
def remove(group: str) -> BaseResponse | tuple[str, int]:
    """Take a game out of the group (the game itself stays as it is)."""
    stored = group_or_404(group, edit=True)[0]
    token = str(request.form.get("game", ""))
    member = next((m for m in stored.members() if m.view_token == token), None)
    if member is None or not stored.remove(member.id):
        return _page(load(group),
                     _("That game is not in the group (any more): nothing was changed."), 404)
    response = redirect(url_for("groups.group", group=stored.token))
    commit()
    flash(_("The game is out of the group; its figures no longer count."), "done")
    return response


@bp.get("/gr/<group>/share")
def share(group: str) -> Response:
    """The group's links with their QR codes (the edit link only with the edit link)."""
    stored, editable = group_or_404(group, edit=False)
    shared = address.share_links(group_links(stored, editable),
                                 request.environ.get("SERVER_NAME", ""),
                                 current_app.config["PUBLIC_URL"])
    links = shared.links
    page = render_template("groups/share.html", group=stored, editable=editable, links=links,
                           shared=shared,
                           codes={kind: qr.svg(url) for kind, url in links.items()
                                  if kind in ("edit", "view")})
    return no_store(make_response(page))


@bp.get("/gr/<group>/players/<path:name>")
def player(group: str, name: str) -> tuple[str, int]:
    """A player's page: their figures and how they changed, their best games, the dealer's hook."""
    loaded = load(group)
    try:
        key = values.name_key(values.name(name))
    except RulesError:
        key = ""
    found = loaded.figures.players.get(key)
    if found is None:
        abort(404, _("Nobody of this name has played a finished game of this group."))
    history = found.history
    paged = paging(len(history))
    best = sorted(history, key=lambda played: (played.line.rank,
                                               -(played.line.made / max(played.line.deals, 1))))
    place = next(i for i, p in enumerate(loaded.figures.leaderboard(), 1) if p.key == key)
    line = [(0, 0.0), *((step, played.rating.ordinal) for step, played in enumerate(history, 1))]
    chart = lines_svg([found.name], [thinned(line, -(-len(history) // CHART_POINTS))],
                      _("%(player)s's rating after each game", player=found.name), _("game"),
                      ink="currentColor") if history else None
    newest = history[::-1][(paged.page - 1) * PAGE:paged.page * PAGE]
    return render_template("groups/player.html", group=loaded.group, editable=loaded.editable,
                           player=found, place=place,
                           history=[_played(loaded, played) for played in newest], paging=paged,
                           best=[_played(loaded, played) for played in best[:5]], chart=chart), 200


def _played(loaded: Loaded, played: Played) -> dict[str, Any]:
    """One of a player's games as their page lists it."""
    member = loaded.members[played.game]
    return {"entry": loaded.figures.entries[played.game], "member": member, "line": played.line,
            "rating": played.rating, "hit": played.hit, "date": shown_date(member.created_at),
            "link": game_link(loaded)(member)}


@bp.route("/g/<token>/group", methods=("GET", "POST"))
def attach(token: str) -> str | BaseResponse | tuple[str, int]:
    """Put a game in a group: by the group's edit link, or in a new group (a form to the group
    page). A GET shows the page and changes nothing."""
    game = game_or_404(token, edit=True)
    current = group_of(game)
    form = LinkForm()
    form.link.label.text = _("The group's link")
    if request.method != "POST":  # it may hold the group's edit link
        return no_store(make_response(_attach_page(game, current, form)))
    if Act.GROUP not in access.offers(game):  # the page says why
        return _attach_page(game, current, form), 403
    typed = characters.visible(str(request.form.get("link", "")))[:values.MAX_LINK]
    if not form.validate():
        return _attach_page(game, current, form, " ".join(problems(form)), typed), 422
    found, editable = find_group(form.link.data)
    if found is None:
        return _attach_page(game, current, form,
                            _("No group has this link: check that the whole link was pasted."),
                            typed), 404
    if not editable:
        return _attach_page(game, current, form,
                            _("This is the read-only link of a group: only its edit link can "
                              "add games to it."), typed), 403
    outcome = found.add(game)
    if outcome in ("other", "full"):
        return _attach_page(game, current, form, refusal(outcome), typed), STATUS[outcome]
    response = redirect(url_for("groups.group", group=found.token))
    commit()
    flash(_("The game is in the group."), "done")
    return response


def _attach_page(game: StoredGame, current: StoredGroup | None, form: LinkForm, error: str = "",
                 typed: str = "") -> str:
    try:
        name = game.load().title or ", ".join(game.load().players)
    except RulesError:
        name = game.title or _("this game")
    return render_template("groups/attach.html", game=game, current=current, form=form, error=error,
                           typed=typed, name=name, joinable=device.joinable(game),
                           refused=access.refusal(game, Act.GROUP))


def init_app(app: Any) -> None:
    """The template helpers of the group pages."""
    app.jinja_env.filters.update(percent=percent, signed=signed, figure=figure)
    app.jinja_env.globals.update(entry_name=entry_name)
