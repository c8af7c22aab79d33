"""The language of a page: chosen per request, remembered on the phone, switched from the header.

A request's language is, in this order: its ``lang`` query parameter (a printed sheet's link
carries one), the language this phone chose (the ``lang`` cookie, set by the header's language
links), the browser's preference (``Accept-Language``), English. The JSON API and the game file
carry ids, not words; only the sentences of an answer (an error) follow the language.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from babel import lists, numbers
from flask import Flask, Response, abort, g, has_request_context, redirect, request, url_for
from flask_babel import Babel, force_locale, get_locale, get_translations
from jinja2 import pass_context
from jinja2.runtime import Context

from ..rules import values, words
from ..rules.errors import ValueRefused

#: The cookie that remembers this phone's language: a year, like the list of its games.
COOKIE = "lang"
COOKIE_AGE = 60 * 60 * 24 * 365

babel = Babel()


#: The most characters of a page's own address that a link back to it may have.
MAX_PATH = 300
_LOCAL_PATH = re.compile(r"/(?![/\\])[\x21-\x7e]*")


def local_path(value: object, default: str) -> str:
    """An address on this site to go back to (a path, its query included), else ``default``: never
    another site (``//host``, ``/\\host``, ``https://…``), never more than MAX_PATH characters.

    >>> (local_path("/g/abc?x=1", "/"), local_path("//evil.example", "/"),
    ...  local_path("https://x", "/"))
    ('/g/abc?x=1', '/', '/')
    """
    if isinstance(value, str) and len(value) <= MAX_PATH and _LOCAL_PATH.fullmatch(value):
        return value
    return default


def _chosen() -> str | None:
    """This request's ``lang`` parameter or, without one, this phone's cookie (a bad one ignored:
    a bad parameter is refused by ``_read_parameter``). Read here, not from what a hook stored: the
    language may be asked for before any hook runs (a refusal while the address is read)."""
    for given in (request.args.get("lang"), request.cookies.get(COOKIE)):
        # Looked up, not read by values.language: its refusal would be said in... this language.
        code = given.strip().lower() if given is not None and len(given) <= 10 else None
        if code in values.LANGUAGES:
            return code
    return None


def select() -> str:
    """The language of this request (Flask-Babel's locale selector); English outside a request
    (a sheet rendered by a script or a test)."""
    if not has_request_context():
        return "en"
    g.language_asked = True  # the answer may hold words of this language: see _vary
    return _chosen() or request.accept_languages.best_match(values.LANGUAGES) or "en"


def current() -> str:
    """The code of this request's language: ``en``, ``nl`` …"""
    return str(get_locale() or "en")


def _read_parameter() -> None:
    """A ``lang`` query parameter is read before anything else: a bad one is refused (400)."""
    if "lang" in request.args:
        try:
            values.language(request.args["lang"])
        except ValueRefused as exc:
            abort(400, str(exc))


def _back() -> str:
    """Where a switch goes back to: its ``next`` parameter, else the page it was made on (the
    Referer, on this site only, without its ``lang``), else the list of games."""
    home = url_for("games.index")
    if "next" in request.args:
        return local_path(request.args["next"], home)
    came = urlsplit(request.referrer or "")
    if came.netloc != request.host:
        return home
    query = urlencode([(key, value) for key, value in parse_qsl(came.query) if key != "lang"])
    return local_path(came.path + ("?" + query if query else ""), home)


def _switch(code: str) -> Response:
    """Switch this phone to a language and go back to the page it was switched on."""
    try:
        chosen = values.language(code)
    except ValueRefused as exc:
        abort(404, str(exc))
    response = redirect(_back(), 303)
    response.set_cookie(COOKIE, chosen, max_age=COOKIE_AGE, samesite="Lax", httponly=True,
                        secure=request.is_secure)
    response.headers["Cache-Control"] = "no-store"
    return response


def _vary(response: Response) -> Response:
    """An answer made in the phone's language (a page, a sheet, the manifest, an error of the API,
    a CSV's headings…: whatever asked which language this request speaks) follows it, so caches
    along the way keep one copy per language. Only what never asked (a static file, a game file)
    is the same in every language."""
    if g.get("language_asked"):
        response.vary.update(("Cookie", "Accept-Language"))
    return response


#: The language of a page as its <html lang> says it, where the catalog is of one country's:
#: Portuguese as written in Portugal (a count of 0 takes the plural, in the catalog and in the
#: phone's Intl.PluralRules alike).
TAGS = {"pt": "pt-PT"}


def tag() -> str:
    """This request's language as a page's ``lang`` attribute says it: ``nl``, ``pt-PT`` …"""
    code = current()
    return TAGS.get(code, code)


#: The languages that write their nouns with a capital letter in the middle of a sentence too.
NOUNS_CAPITALISED = frozenset({"de"})


def in_sentence(text: str) -> str:
    """A title ("Deal 7 of 19") set inside a sentence: its first letter small, except where the
    language writes nouns with a capital (German's "Runde 7 von 19 korrigieren")."""
    if current() in NOUNS_CAPITALISED or not text:
        return text
    return text[0].lower() + text[1:]


@contextmanager
def speaking(code: str | None) -> Iterator[None]:
    """What is said inside is said in the language ``code`` (a club night's), whatever this
    request's; in this request's without one."""
    if code is None:
        yield
        return
    with force_locale(code):
        yield


def number(value: object) -> str:
    """A number as this request's language writes it: 1,234.5 in English, 1.234,5 in Dutch."""
    if type(value) is int:  # a count or a score: the standings of a night write thousands of them
        return _whole(value, current())
    return numbers.format_decimal(value, locale=current(), decimal_quantization=False)  # type: ignore[arg-type]


@lru_cache(maxsize=4096)
def _whole(value: int, code: str) -> str:
    return numbers.format_decimal(value, locale=code)


def typed_amount(text: str) -> str:
    """An amount typed in a field of this page, as the game file writes it: the page's decimal
    sign read as a point ("0,05" on a Dutch page is "0.05"); a point stays a point in any
    language."""
    sign = numbers.get_decimal_symbol(current())
    return (text.replace(sign, ".") if sign != "." and "." not in text and text.count(sign) == 1
            else text)


def amount_field(text: object) -> str:
    """An amount of the game file ("0.05") as a field of this page shows it, to be typed again:
    with the page's decimal sign ("0,05" in Dutch)."""
    return str(text).replace(".", numbers.get_decimal_symbol(current()))


def _numbers_written(app: Flask) -> None:
    """The templates' ``_``, ``ngettext`` and ``pgettext`` (and ``{% trans %}``) write a number put
    in a placeholder as the page's language does, as the core's sentences do (``words.filled``)."""
    found = app.jinja_env.globals
    gettext, plural, context = found["gettext"], found["ngettext"], found["pgettext"]

    @pass_context
    def _gettext(env: Context, message: str, /, **values: Any) -> str:
        return gettext(env, message, **words.filled(values))  # type: ignore[operator]

    @pass_context
    def _ngettext(env: Context, singular: str, plural_: str, n: int, /, **values: Any) -> str:
        return plural(env, singular, plural_, n, **words.filled({"num": n, **values}))  # type: ignore[operator]

    @pass_context
    def _pgettext(env: Context, sense: str, message: str, /, **values: Any) -> str:
        return context(env, sense, message, **words.filled(values))  # type: ignore[operator]

    found.update(gettext=_gettext, ngettext=_ngettext, pgettext=_pgettext)


def _template_globals() -> dict[str, object]:
    return {"language": current, "language_tag": tag, "languages": values.LANGUAGES}


def init_app(app: Flask) -> None:
    """Install Flask-Babel with the catalogs in translations/, the language switch and the core's
    words."""
    babel.init_app(app, locale_selector=select)
    app.jinja_env.policies["ext.i18n.trimmed"] = True  # as babel.cfg extracts them
    words.use(lambda message: get_translations().ugettext(message),
              lambda singular, plural, n: get_translations().ungettext(singular, plural, n),
              lambda context, message: get_translations().upgettext(context, message))
    words.use_numbers(number)
    _numbers_written(app)
    words.use_lists(lambda items: lists.format_list(items, locale=current()))
    app.before_request(_read_parameter)
    app.after_request(_vary)
    app.context_processor(_template_globals)
    # Said in the page's language: never worked out once as the template is compiled ("0.05" |
    # amount_field).
    app.jinja_env.filters.update(in_sentence=in_sentence,
                                 number=pass_context(lambda _, value: number(value)),
                                 amount_field=pass_context(lambda _, value: amount_field(value)))
    app.add_url_rule("/language/<code>", "language", _switch)
