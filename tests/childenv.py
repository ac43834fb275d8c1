"""The environment of every process a test starts (Celery workers and beat,
daphne, a helper script, `./wec run`): the one place that knows which
variables carry the database, Redis and this run's share of them.

A child never reads the parent's DATABASE_URL: pytest-django has switched
this process to the run's own test database (`settings.DATABASES`), and the
URL is rebuilt from those settings by wecsite.dburl, socket directory (the
embedded PostgreSQL of `./wec` listens only on one), password and options
included (tests/site/test_site_childenv.py checks the round trip)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from wecsite.dburl import database_url

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


def production_env(**extra) -> dict[str, str]:
    """A deployment's environment: DEBUG off, a fresh SECRET_KEY, one allowed
    host, SITE_URL and HTTPS on, none of this test run's switches."""
    env = {
        k: v
        for k, v in os.environ.items()
        # DJANGO_ALLOW_ASYNC_UNSAFE: the browser tests' conftest sets it in this
        # process when they are collected; a deployment never has it.
        if not k.startswith(("WEC_TESTING", "DEBUG", "SECURE_", "PYTEST", "DJANGO_ALLOW_ASYNC_UNSAFE"))
    }
    env.update(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="wec.example.org",
        SITE_URL="https://wec.example.org",
        SECURE_SSL="1",
        DJANGO_SETTINGS_MODULE="wecsite.settings",
    )
    env.update(extra)
    return env
