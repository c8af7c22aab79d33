"""The PDF renderer loads nothing but the app's own static files, and imports WeasyPrint lazily."""

from __future__ import annotations

import subprocess
import sys

import pytest
from flask import Flask

from scorekeeper.rules.presets import make_rules
from scorekeeper.sheets.model import blank_sheet
from scorekeeper.sheets.pdf import BASE_URL, FetchRefused, sheet_html, static_fetcher, static_file

REFUSED = [
    "file:///etc/passwd",
    "file:///work/main/static/css/sheet.css",
    "http://example.com/static/css/sheet.css",
    "https://example.com/static/css/sheet.css",
    "http://scorekeeper.invalid/static/css/sheet.css",
    "https://scorekeeper.invalid.example.com/static/css/sheet.css",
    "https://user@scorekeeper.invalid/static/css/sheet.css",
    "https://scorekeeper.invalid:8443/static/css/sheet.css",
    "data:image/svg+xml;base64,PHN2Zy8+",
    "data:text/css,body{}",
    "https://scorekeeper.invalid/instance/secret_key",
    "https://scorekeeper.invalid/static/../../etc/passwd",
    "https://scorekeeper.invalid/static/%2e%2e/%2e%2e/etc/passwd",
    "https://scorekeeper.invalid/static/css/../../pyproject.toml",
    "https://scorekeeper.invalid/static/css/",
    "https://scorekeeper.invalid/static/no-such-file.css",
    "https://scorekeeper.invalid/static/css/sheet.css%00.png",
    "ftp://scorekeeper.invalid/static/css/sheet.css",
]


@pytest.mark.parametrize("url", REFUSED)
def test_fetcher_refuses_everything_but_static_files(app: Flask, url: str) -> None:
    assert app.static_folder is not None
    fetcher = static_fetcher(app.static_folder)
    with pytest.raises(FetchRefused):
        fetcher(url)
    with pytest.raises(FetchRefused):
        static_file(url, app.static_folder)


def test_fetcher_serves_the_print_stylesheet(app: Flask) -> None:
    assert app.static_folder is not None
    response = static_fetcher(app.static_folder)(BASE_URL + "static/css/sheet.css")
    try:
        assert response.content_type == "text/css"
        assert b"@page" in response.read()
    finally:
        response.close()


def test_hostile_names_are_escaped_in_the_html_and_the_chart(app: Flask) -> None:
    names = ("<script>alert(1)</script>", '<img src="file:///etc/passwd">', "Cy")
    with app.app_context():
        html = sheet_html(blank_sheet(make_rules({}, 3), names))
    assert "<script>alert" not in html and "<img src" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;img src=&#34;file:///etc/passwd&#34;&gt;" in html


def test_weasyprint_is_imported_only_when_a_sheet_is_rendered() -> None:
    code = ("import sys; from scorekeeper import create_app; "
            "import scorekeeper.sheets.pdf, scorekeeper.sheets.views; "
            "create_app({'TESTING': True, 'SECRET_KEY': 'x', "
            "'SQLALCHEMY_DATABASE_URI': 'sqlite://'}); "
            "print('weasyprint' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "False"
