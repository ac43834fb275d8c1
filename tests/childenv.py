"""The environment of every process a test starts (Celery workers and beat,
daphne, a helper script, `./wec run`): the one place that knows which
variables carry the database, Redis and this run's share of them.

A child never reads the parent's DATABASE_URL: pytest-django has switched
this process to the run's own test database (`settings.DATABASES`), and the
URL is rebuilt from those settings.  The settings may name a Unix socket
directory as HOST (the embedded PostgreSQL of `./wec` listens only there),
an IPv6 address, a password with any characters, and libpq options; the URL
carries each of them so that the child's `dj_database_url.parse` gives back
the same settings (tests/site/test_site_childenv.py checks that round trip)."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote, urlencode

ROOT = Path(__file__).resolve().parents[1]

# What decides which database and Redis a process uses, and which part of
# them (prefix, queue) it may touch.  A "bare" environment has none of them.
SERVICE_VARIABLES = (
    "DATABASE_URL",
    "REDIS_URL",
    "WEC_CHANNELS_REDIS_URL",
    "WEC_CACHE_REDIS_URL",
    "WEC_REDIS_PREFIX",
    "WEC_CELERY_QUEUE",
    "WEC_TESTING",
)


def database_url(db: dict) -> str:
    """A postgres:// URL for a Django DATABASES entry."""
    user = quote(db.get("USER") or "", safe="")
    password = quote(db.get("PASSWORD") or "", safe="")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = db.get("HOST") or ""
    if host.startswith("/"):
        # A socket directory: its slashes must not end the host part.  (Only
        # the part before the first "%" is lower-cased by urllib, so a
        # directory with capitals survives: "%2FUsers" stays as it is.)
        host = quote(host, safe="")
    elif ":" in host:
        host = f"[{host}]"  # IPv6
    port = f":{db['PORT']}" if db.get("PORT") else ""
    options = {k: v for k, v in (db.get("OPTIONS") or {}).items() if isinstance(v, str | int | float)}
    query = f"?{urlencode(options)}" if options else ""
    return f"postgres://{auth}{host}{port}/{quote(db['NAME'], safe='')}{query}"


def child_env(database: str | None = None, **extra) -> dict[str, str]:
    """The environment of a process that shares this test run's database
    (or `database`, a URL), Redis, Redis key prefix and Celery queue."""
    from django.conf import settings

    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="wecsite.settings",
        DATABASE_URL=database or database_url(settings.DATABASES["default"]),
        REDIS_URL=settings.REDIS_URL,
        WEC_REDIS_PREFIX=settings.WEC_REDIS_PREFIX,
        WEC_CELERY_QUEUE=settings.CELERY_TASK_DEFAULT_QUEUE,
        WEC_TESTING="1",
        PYTHONPATH=str(ROOT),
    )
    # Under pytest-asyncio/Playwright the parent may allow sync ORM calls in
    # its event loop; a server process must not.
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env.update({k: str(v) for k, v in extra.items()})
    return env


def bare_env(**extra) -> dict[str, str]:
    """The environment of a new user's shell on this machine: none of the
    variables that choose a database or Redis, nor this run's settings, so
    `./wec` starts its embedded services."""
    env = {k: v for k, v in os.environ.items() if k not in SERVICE_VARIABLES}
    for name in ("DJANGO_SETTINGS_MODULE", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"):
        env.pop(name, None)
    env.update({k: str(v) for k, v in extra.items()})
    return env
