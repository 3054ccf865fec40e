"""How one server runs: the deployment's settings, read from its environment and ``serve``'s options.

Its own module, imported by the handlers and by the application alike (the application imports the
handlers, so they never import it).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xlrating.web.security import OfficerPassword

DEFAULT_SITE_NAME = "xlrating"


@dataclass
class Settings:
    """How one server runs; :meth:`from_env` reads the deployment's environment."""

    db: str
    officer: OfficerPassword | None = None
    secret_key: str = ""
    max_upload_bytes: int = 10 * 1024**2
    upload_rate: str = "30/minute"
    sign_in_rate: str = "10/15minutes"
    check_processes: int = 2
    check_timeout: float = 60.0
    secure_cookies: bool = False
    site_name: str = DEFAULT_SITE_NAME  # in every page's title and header
    federation: str = ""  # who publishes the ratings, under the site's name when given
    systems: tuple[str, ...] | None = None  # the rating systems the site publishes and takes (None: every one)

    @classmethod
    def from_env(cls, db: str, **overrides: Any) -> Settings:
        """``XLRATING_OFFICER_USER`` (default ``officer``) with ``XLRATING_OFFICER_PASSWORD`` or
        ``XLRATING_OFFICER_PASSWORD_FILE`` (the password is never defaulted: without one nobody can
        sign in), ``XLRATING_SECRET_KEY`` (signs the session cookies; random per start if unset),
        ``XLRATING_SITE_NAME`` and ``XLRATING_FEDERATION`` (shown on every page; ``overrides``,
        e.g. from ``serve --site-name``, win over them)."""
        password = os.environ.get("XLRATING_OFFICER_PASSWORD")
        password_file = os.environ.get("XLRATING_OFFICER_PASSWORD_FILE")
        if password is None and password_file:
            try:
                password = Path(password_file).read_text(encoding="utf-8").rstrip("\r\n")
            except OSError as exc:
                raise ValueError(f"XLRATING_OFFICER_PASSWORD_FILE={password_file}: cannot read it "
                                 f"({exc.strerror or exc})") from None
        officer = None
        if password is not None:
            if len(password) < 12:
                raise ValueError("the ranking officer's password (XLRATING_OFFICER_PASSWORD or "
                                 "XLRATING_OFFICER_PASSWORD_FILE) must have at least 12 characters")
            officer = OfficerPassword(os.environ.get("XLRATING_OFFICER_USER") or "officer", password)
        named = {"site_name": os.environ.get("XLRATING_SITE_NAME", "").strip() or DEFAULT_SITE_NAME,
                 "federation": os.environ.get("XLRATING_FEDERATION", "").strip()}
        given = {k: v for k, v in overrides.items() if v is not None}
        return cls(db=db, officer=officer, secret_key=os.environ.get("XLRATING_SECRET_KEY", ""), **(named | given))
