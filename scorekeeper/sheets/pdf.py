"""HTML → PDF with WeasyPrint: the score sheet template, the print stylesheet, and a URL fetcher
that serves the app's own static files (and the images a view drew for one page, such as the QR
codes of table cards) and refuses everything else.

WeasyPrint is a heavy import (Pango through cffi), so it is imported on the first sheet only
(``ready``).
"""

from __future__ import annotations

import mimetypes
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import unquote, urlsplit

from flask import current_app, render_template
from markupsafe import Markup

from .model import Sheet

#: The origin the sheet's URLs resolve against. ``.invalid`` never resolves on any network;
#: the fetcher maps its /static/ URLs to files and never opens a connection.
BASE_URL = "https://scorekeeper.invalid/"

#: Where a page finds the images drawn for it (``page_pdf``'s ``drawn``): ``drawn/<name>``.
DRAWN = BASE_URL + "drawn/"

#: How many times a sheet meant for one page is laid out again with smaller rows.
RETRIES = 2

_weasyprint: ModuleType | None = None


class FetchRefused(ValueError):
    """A URL a sheet may not load: anything but the app's own static files."""


def static_file(url: str, static_folder: str | Path, static_url_path: str = "/static") -> Path:
    """The file under the static folder that a sheet URL names; FetchRefused for anything else.

    >>> static_file("file:///etc/passwd", "/srv/static")
    Traceback (most recent call last):
    ...
    scorekeeper.sheets.pdf.FetchRefused: A sheet loads only the app's static files, not 'file:///etc/passwd'.
    """
    refused = FetchRefused(f"A sheet loads only the app's static files, not {url[:80]!r}.")
    parts, origin = urlsplit(url), urlsplit(BASE_URL)
    prefix = static_url_path.rstrip("/") + "/"
    if ((parts.scheme, parts.netloc) != (origin.scheme, origin.netloc)
            or not parts.path.startswith(prefix)):
        raise refused
    root = Path(static_folder).resolve()
    path = root / unquote(parts.path[len(prefix):])
    try:
        path = path.resolve()
        found = path.is_relative_to(root) and path.is_file()
    except (OSError, ValueError):  # a NUL byte, a name too long: no such static file either
        found = False
    if not found:
        raise refused
    return path


def _weasy() -> ModuleType:
    global _weasyprint
    if _weasyprint is None:
        import weasyprint  # type: ignore[import-untyped]

        _weasyprint = weasyprint
    return _weasyprint


@cache
def ready() -> None:
    """WeasyPrint imported and its fonts found, in this process: a request calls it before the
    drawing of its sheet, which may run in a process forked from it (web/lanes.py) and would
    otherwise do both again, every time (0.7 s)."""
    _weasy().HTML(string="<p>Oh Hell</p>").render()


@cache
def _fetcher_class() -> type:
    """WeasyPrint's fetcher narrowed to static files (built once, after the lazy import)."""
    urls = _weasy().urls

    class StaticFetcher(urls.URLFetcher):  # type: ignore[name-defined,misc]
        def __init__(self, static_folder: str | Path, static_url_path: str,
                     drawn: Mapping[str, bytes] | None = None) -> None:
            super().__init__()
            self.static_folder, self.static_url_path = static_folder, static_url_path
            self.drawn = drawn or {}

        def fetch(self, url: str, headers: Any = None) -> Any:
            image = self.drawn.get(url[len(DRAWN):]) if url.startswith(DRAWN) else None
            if image is not None:
                return urls.URLFetcherResponse(url, image, {"Content-Type": "image/png"})
            path = static_file(url, self.static_folder, self.static_url_path)
            kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            return urls.URLFetcherResponse(url, path.read_bytes(), {"Content-Type": kind})

    return StaticFetcher


def static_fetcher(static_folder: str | Path, static_url_path: str = "/static",
                   drawn: Mapping[str, bytes] | None = None) -> Any:
    """A WeasyPrint URL fetcher that serves files under ``static_folder``, and the PNG images of
    ``drawn`` at ``DRAWN`` + their name, and refuses the rest."""
    return _fetcher_class()(static_folder, static_url_path, drawn)


def sheet_html(sheet: Sheet) -> str:
    """The sheet as HTML for WeasyPrint (autoescaped like every template)."""
    return render_template("sheets/sheet.html", sheet=sheet, static=current_app.static_url_path)


def _layout(sheet: Sheet) -> Any:
    return _rendered(sheet_html(sheet))


def _rendered(page: str, drawn: Mapping[str, bytes] | None = None) -> Any:
    app = current_app
    assert app.static_folder is not None
    html = _weasy().HTML(string=page, base_url=BASE_URL,
                         url_fetcher=static_fetcher(app.static_folder, app.static_url_path or "",
                                                    drawn))
    return html.render()


def page_pdf(page: str, drawn: Mapping[str, bytes] | None = None) -> tuple[bytes, int]:
    """A printable page of the app's (HTML from a template) as PDF bytes, and its number of pages;
    ``drawn``: PNG images made for this page, by the name it finds them at (``DRAWN`` + name).
    A request draws it in the server's costly lane (``web.lanes.drawn``)."""
    document = _rendered(page, drawn)
    pdf: bytes = document.write_pdf()
    return pdf, len(document.pages)


def render_pdf(sheet: Sheet) -> bytes:
    """The sheet as PDF bytes, in the current app's context.

    sheets.layout.layout() estimates the row height that fits one page; should a long name or
    rules text make the sheet spill over anyway, it is laid out again with smaller rows. A request
    draws it in the server's costly lane (``web.lanes.drawn``).
    """
    document = _layout(sheet)
    for _ in range(RETRIES):
        tighter = sheet.tighter() if len(document.pages) > 1 else None
        if tighter is None:
            break
        sheet, document = tighter, _layout(tighter)
    pdf: bytes = document.write_pdf()
    return pdf


def css_string(text: str) -> Markup:
    r"""Text as a quoted CSS string, for the words of a sheet's page footer: every character but
    letters, digits and spaces written as a CSS escape, so no text can end the string or the style.

    >>> css_string('page "1"</style>')
    Markup('"page \\22 1\\22 \\3c \\2f style\\3e "')
    """
    return Markup('"' + "".join(c if c.isalnum() or c == " " else f"\\{ord(c):x} "
                                for c in str(text)) + '"')
