"""Logs without capabilities: a game's or a group's link is the key to it, so no log line holds one.

A token (``store.db.new_token``) is 43 letters, digits, ``-`` and ``_``. Every log line the app's
servers write — gunicorn's access and error logs, Flask's and the development server's — shows
each run of 32 or more such characters by its first 6 only (``/g/AbC12x…``): a path, a query
(``?next=/g/…``), a Referer, an exception's message. SQLAlchemy's error messages leave their
statement's parameters out (``hide_parameters``, see ``store.db.init_db``).
"""

from __future__ import annotations

import logging
import re
from typing import Any

from gunicorn.glogging import Logger

#: A run this long of a token's characters is taken for a token (a token has 43; words, paths and
#: the names in a traceback are shorter).
TOKEN = re.compile(r"[A-Za-z0-9_-]{32,}")
#: What a log line keeps of a token: enough to tell two games apart in it, far too little to open
#: one.
SHOWN = 6


def redact(text: str) -> str:
    """``text`` with every token shortened to its first characters.

    >>> redact('"GET /g/AbC12xQ9rT_kLmNoPqRsTuVwXyZ0123456789-ab/bid HTTP/1.1" 302')
    '"GET /g/AbC12x…/bid HTTP/1.1" 302'
    >>> redact("GET /new?players=Ann,Bob HTTP/1.1")
    'GET /new?players=Ann,Bob HTTP/1.1'
    """
    return TOKEN.sub(lambda found: found.group()[:SHOWN] + "…", text)


class Redact(logging.Filter):
    """A logging filter that shortens the tokens of a record: its message, its exception, its
    stack."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Shorten the record's tokens; every record is kept."""
        record.msg, record.args = redact(record.getMessage()), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


REDACT = Redact()


def install(*names: str) -> None:
    """Shorten the tokens of every record logged to these loggers (by name); once each."""
    for name in names:
        logging.getLogger(name).addFilter(REDACT)


class GunicornLogger(Logger):
    """gunicorn's logger (``logger_class`` in gunicorn.conf.py), with the tokens of its access log's
    fields (request line, path, query, Referer, any header) and of its error log shortened."""

    def setup(self, cfg: Any) -> None:
        """gunicorn's own setup, then the filter on its error log."""
        super().setup(cfg)
        self.error_log.addFilter(REDACT)

    def atoms(self, resp: Any, req: Any, environ: dict[str, Any],
              request_time: Any) -> dict[str, Any]:
        """The access log's fields, each text shortened where it holds a token."""
        found: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        return {name: redact(value) if isinstance(value, str) else value
                for name, value in found.items()}
