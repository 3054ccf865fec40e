"""``xlrating serve``: run the web intake (see :mod:`xlrating.web`) until stopped.

Deployment settings come from the environment (never a default password): see
:meth:`xlrating.web.app.Settings.from_env` and docs/web.md ("Settings").
"""

from __future__ import annotations

import click

from xlrating.cli.common import db_option, fail, resolve_db


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (keep 127.0.0.1 behind a reverse proxy on the same machine).")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@db_option
@click.option("--max-upload-mb", type=click.FloatRange(0.1, 50), default=10, show_default=True,
              help="Largest upload accepted, in MB (the validator's own file limit still applies).")
@click.option("--upload-rate", default="30/minute", show_default=True, metavar="N/PERIOD",
              help="Uploads allowed per client address, e.g. 30/minute or 200/hour.")
@click.option("--check-processes", type=click.IntRange(1, 32), default=2, show_default=True,
              help="Worker processes that read and check uploads.")
@click.option("--proxy", "proxy", metavar="IPS", default=None,
              help="Trust X-Forwarded-For/-Proto from these addresses (the reverse proxy, e.g. 127.0.0.1).")
@click.option("--https", "https", is_flag=True,
              help="Served over HTTPS (by the proxy): session cookies are Secure, and HSTS is sent.")
@click.option("--site-name", metavar="TEXT", default=None,
              help="The site's name in every page's title and header (default: $XLRATING_SITE_NAME, else xlrating).")
@click.option("--federation", metavar="TEXT", default=None,
              help="Who publishes the ratings, shown beside the site's name (default: $XLRATING_FEDERATION).")
@click.option("--systems", "systems", metavar="KEYS", default=None,
              help="The rating systems the site publishes and takes results for, comma-separated "
                   "(e.g. dippouch or mers,dci); default every one.")
def serve(host: str, port: int, db: str | None, max_upload_mb: float, upload_rate: str, check_processes: int,
          proxy: str | None, https: bool, site_name: str | None, federation: str | None,
          systems: str | None) -> None:
    """Run the web intake over the results store until stopped (Ctrl+C)."""
    import uvicorn
    from limits import parse

    from xlrating.store import StoreError
    from xlrating.web.app import Settings, create_app

    try:
        parse(upload_rate)
    except ValueError:
        fail(f"--upload-rate {upload_rate!r}: expected N/PERIOD, e.g. 30/minute")
    for option, value in (("--site-name", site_name), ("--federation", federation)):
        if value is not None and (not value.strip() or len(value) > 100 or not value.isprintable()):
            fail(f"{option} {value!r}: expected a name of 1 to 100 printable characters")
    published = None if systems is None else _systems(systems)
    try:
        settings = Settings.from_env(resolve_db(db), max_upload_bytes=int(max_upload_mb * 1024**2),
                                     upload_rate=upload_rate, check_processes=check_processes,
                                     secure_cookies=https, site_name=site_name and site_name.strip(),
                                     federation=federation and federation.strip(), systems=published)
        app = create_app(settings)
    except (ValueError, StoreError) as exc:
        fail(str(exc))
    if settings.officer is None:
        click.echo("xlrating: warning: no ranking officer account (set XLRATING_OFFICER_PASSWORD or "
                   "XLRATING_OFFICER_PASSWORD_FILE); organisers can check and submit, nobody can accept", err=True)
    if not settings.secret_key:
        click.echo("xlrating: warning: XLRATING_SECRET_KEY is not set; sessions end when the server restarts",
                   err=True)
    click.echo(f"xlrating: serving {settings.db} on http://{host}:{port}/ (Ctrl+C stops)", err=True)
    # An idle connection is closed after 5 seconds; beyond 400 open connections a visitor gets 503 at
    # once (a flood of slow connections cannot exhaust the server); a request body must arrive within
    # a minute (:class:`xlrating.web.security.BodyLimit`).
    uvicorn.run(app, host=host, port=port, proxy_headers=proxy is not None, forwarded_allow_ips=proxy,
                server_header=False, log_level="info", timeout_graceful_shutdown=10, timeout_keep_alive=5,
                limit_concurrency=400)


def _systems(text: str) -> tuple[str, ...]:
    """``--systems mers,dci`` as the registered systems' keys, or a failure naming what is known."""
    from xlrating.systems import keys

    known = keys()
    chosen = tuple(dict.fromkeys(part.strip().lower() for part in text.split(",") if part.strip()))
    unknown = [key for key in chosen if key not in known]
    if not chosen or unknown:
        fail(f"--systems {text!r}: expected one or more of {', '.join(known)}, comma-separated"
             + (f" ({', '.join(unknown)} is not one)" if unknown else ""))
    return chosen
