"""The signed session cookie and the CSRF check, each remembering what it already verified.

A phone sends the same session cookie and the same form token with every tap. Checking a signature
(two HMACs, base64, zlib, JSON) costs more than the rest of reading a tap, and its answer never
changes for the same text and key: each worker keeps the answers for the texts it verified last.
Only texts that verified are kept, under the key that verified them; a cookie's age is checked
again at every request, and every request gets its own copy of the session.
"""

from __future__ import annotations

import hmac
import time
from typing import Any

from flask import Flask, Request, current_app, g, request, session
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from flask_wtf.csrf import CSRFProtect, generate_csrf, logger, same_origin, validate_csrf
from itsdangerous import BadSignature, URLSafeTimedSerializer
from markupsafe import Markup
from wtforms import ValidationError

from ..store.cache import LRU


def _fresh(value: Any) -> Any:
    """A copy of decoded session data that a request may change without changing the kept one."""
    kind = type(value)
    if kind is list:
        return [_fresh(item) for item in value]
    if kind is dict:
        return {key: _fresh(item) for key, item in value.items()}
    if kind is tuple:
        return tuple(_fresh(item) for item in value)
    return value  # text, numbers, bytes, dates: never changed in place


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed session cookie: its signer made once per secret key, and each cookie's
    signature checked once (then only its age)."""

    def __init__(self) -> None:
        self._signer: tuple[object, URLSafeTimedSerializer | None] | None = None
        #: Verified cookies: (keys, cookie) → (signed at, in seconds; the data it holds).
        self._opened: LRU[tuple[float, dict[str, Any]]] = LRU(256)

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        """The session's signer for the app's current secret key (and fallbacks)."""
        return self._signer_for(app)[1]

    def _signer_for(self, app: Flask) -> tuple[object, URLSafeTimedSerializer | None]:
        """The app's current keys (the secret key and its fallbacks), and the signer made of
        them."""
        keys = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()))
        made = self._signer
        if made is None or made[0] != keys:
            made = self._signer = (keys, super().get_signing_serializer(app))
        return made

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """The session the request's cookie holds: empty when it has none, or one that is forged,
        expired or signed with a key no longer in use (as Flask's own)."""
        keys, signer = self._signer_for(app)
        if signer is None:
            return None
        cookie = request.cookies.get(self.get_cookie_name(app))
        if not cookie:
            return self.session_class()
        max_age = int(app.permanent_session_lifetime.total_seconds())
        key = (keys, cookie)  # the keys it is verified with, even if another thread changes them
        known = self._opened.find(key)
        if known is None:
            try:
                data, signed = signer.loads(cookie, max_age=max_age, return_timestamp=True)
            except BadSignature:
                return self.session_class()
            known = (signed.timestamp(), data)
            self._opened.put(key, known)
        age = int(time.time()) - int(known[0])
        if not 0 <= age <= max_age:  # as itsdangerous counts a signature's age
            return self.session_class()
        return self.session_class(_fresh(known[1]))


class CSRF(CSRFProtect):
    """Flask-WTF's CSRF protection. A form token it verified is remembered (by secret key and
    token) with the session token it carries, so the next form with it is checked by comparing
    that with this session's token; a token is verified in full the first time, by Flask-WTF."""

    def __init__(self, app: Flask | None = None) -> None:
        super().__init__(app)
        self._verified: LRU[str] = LRU(256)

    def protect(self, apply_exemptions: bool = False) -> None:
        """Refuse (CSRFError) a POST without this session's token; as Flask-WTF's ``protect``."""
        if apply_exemptions and (not request.endpoint or self._is_exempt()):
            return
        if request.method not in current_app.config["WTF_CSRF_METHODS"]:
            return
        try:
            self._validate(self._get_csrf_token())
        except ValidationError as exc:
            logger.info(exc.args[0])
            self._error_response(exc.args[0])
        if request.is_secure and current_app.config["WTF_CSRF_SSL_STRICT"]:
            if not request.referrer:
                self._error_response("The referrer header is missing.")
            if not same_origin(request.referrer, f"https://{request.host}/"):
                self._error_response("The referrer does not match the host.")
        g.csrf_valid = True

    def _validate(self, token: str | None) -> None:
        config = current_app.config
        field = config["WTF_CSRF_FIELD_NAME"]
        if not token or config["WTF_CSRF_TIME_LIMIT"] is not None or field not in session:
            validate_csrf(token)  # Flask-WTF's check and message; tokens that expire aren't kept
            return
        key = (config.get("WTF_CSRF_SECRET_KEY") or current_app.secret_key, token)
        carried = self._verified.find(key)
        if carried is None:
            validate_csrf(token)  # raises unless signed with the key and carrying this session's
            self._verified.put(key, session[field])
        elif not hmac.compare_digest(session[field], carried):
            raise ValidationError("The CSRF tokens do not match.")


csrf = CSRF()


#: Where a page kept for every visitor (a group's, a club night's) puts each phone's form token.
CSRF_MARK = "\x00csrf\x00"


def csrf_field() -> Markup:
    """This phone's form token as a hidden field."""
    return Markup('<input type="hidden" name="csrf_token" value="{}">').format(generate_csrf())
