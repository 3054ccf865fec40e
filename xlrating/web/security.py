"""The intake server's protections, each in one place.

- :class:`SecurityHeaders`: a strict Content-Security-Policy (no scripts at all: the pages need
  none), no framing, no MIME sniffing, no referrer, and no caching of private pages.
- :class:`BodyLimit`: a request body larger than the upload limit is refused with 413 while it
  arrives (by its Content-Length, or by counting when there is none), before anything parses it.
- CSRF (:func:`csrf_token`, :func:`check_csrf`): a random token kept in the signed session and
  sent back by every form; a state-changing request without it, or from another origin, is 403.
- :class:`OfficerPassword`: the officer's password is only ever held as a salted scrypt hash and
  compared in constant time.
- :class:`RateLimits`: uploads and sign-in attempts per client address (moving windows, the
  ``limits`` library).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from typing import Any

from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = ("default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; "
       "base-uri 'none'")
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=()"),
]
PUBLIC_PREFIXES = ("/static/", "/rankings", "/players/", "/tournaments", "/search")  # pages anyone may cache


class SecurityHeaders:
    """Adds :data:`HEADERS` to every response (and ``Cache-Control: no-store`` to private pages)."""

    def __init__(self, app: ASGIApp, *, hsts: bool = False):
        self.app = app
        self.hsts = hsts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        private = not scope["path"].startswith(PUBLIC_PREFIXES)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"cache-control"
                           or not private]
                headers += HEADERS
                if private:
                    headers.append((b"cache-control", b"no-store"))
                if self.hsts:
                    headers.append((b"strict-transport-security", b"max-age=31536000"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class BodyTooLarge(Exception):
    pass


class BodyTooSlow(Exception):
    pass


class BodyLimit:
    """Refuses request bodies over ``max_bytes`` with 413, before the application reads them; the
    message names ``upload_bytes`` (the upload limit, without the room for the form's other fields).
    A body that takes longer than ``seconds`` to arrive is refused with 408: a visitor who sends an
    upload a byte at a time holds a connection for that long at most."""

    def __init__(self, app: ASGIApp, *, max_bytes: int, upload_bytes: int | None = None, seconds: float = 60.0):
        self.app = app
        self.max_bytes = max_bytes
        self.upload_bytes = max_bytes if upload_bytes is None else upload_bytes
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._refuse(scope, receive, send)
            return
        received = 0
        started = False
        deadline = asyncio.get_running_loop().time() + self.seconds

        async def counting_receive() -> Message:
            nonlocal received
            left = deadline - asyncio.get_running_loop().time()
            try:
                message = await asyncio.wait_for(receive(), max(left, 0.001))
            except TimeoutError:
                raise BodyTooSlow from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise BodyTooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except BodyTooLarge:
            if started:
                raise
            await self._refuse(scope, receive, send)
        except BodyTooSlow:
            if started:
                raise
            await PlainTextResponse(f"The upload did not arrive within {self.seconds:g} seconds; send it again.",
                                    status_code=408, headers={"connection": "close"})(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        megabytes = round(self.upload_bytes / 1024**2, 2)  # --max-upload-mb 0.1 is 104,857 bytes: "0.1 MB"
        response = PlainTextResponse(
            f"The upload is larger than this server accepts ({megabytes:g} MB); a results sheet is far "
            f"smaller: send the sheet alone, saved as .xlsx, .xls, .ods or .csv.", status_code=413,
            headers={"connection": "close"})
        await response(scope, receive, send)


# --- CSRF ---------------------------------------------------------------------------------------

CSRF_FIELD = "csrf_token"


def csrf_token(request: Request) -> str:
    """This session's CSRF token (created on first use), for the forms of a page."""
    token = request.session.get("csrf")
    if not isinstance(token, str):
        token = secrets.token_urlsafe(32)
        request.session["csrf"] = token
    return token


class CsrfRefused(Exception):
    """A state-changing request without this session's token, or from another origin."""


def check_csrf(request: Request, form: Any) -> None:
    """Raise :class:`CsrfRefused` unless the form carries this session's token and the request
    comes from this site (the Origin header, when the browser sends one, is ours)."""
    origin = request.headers.get("origin")
    if origin is not None and origin != "null":
        ours = f"{request.url.scheme}://{request.url.netloc}"
        if origin != ours:
            raise CsrfRefused(f"the request came from another site ({origin})")
    expected = request.session.get("csrf")
    sent = form.get(CSRF_FIELD)
    if not isinstance(expected, str) or not isinstance(sent, str) or not hmac.compare_digest(expected, sent):
        raise CsrfRefused("the form has expired or did not come from this site; reload the page and try again")


# --- the officer's password ---------------------------------------------------------------------

class OfficerPassword:
    """A salted scrypt hash of the configured password; the password itself is not kept."""

    def __init__(self, user: str, password: str):
        if not password:
            raise ValueError("the ranking officer's password is empty")
        self.user = user
        self._salt = secrets.token_bytes(16)
        self._hash = self._derive(password)

    def _derive(self, password: str) -> bytes:
        return hashlib.scrypt(password.encode(), salt=self._salt, n=2**14, r=8, p=1)

    def matches(self, user: str, password: str) -> bool:
        # Both compared, always: the time taken does not tell which one was wrong.
        user_ok = hmac.compare_digest(user.encode(), self.user.encode())
        password_ok = hmac.compare_digest(self._derive(password), self._hash)
        return user_ok and password_ok


# --- rate limits --------------------------------------------------------------------------------

class RateLimits:
    """Moving-window limits per client address, e.g. ``uploads="20/minute"``."""

    def __init__(self, **limits: str):
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._limits = {name: parse(text) for name, text in limits.items()}
        self.texts = dict(limits)

    def allow(self, name: str, request: Request) -> bool:
        client = request.client.host if request.client else "unknown"
        return self._limiter.hit(self._limits[name], name, client)
