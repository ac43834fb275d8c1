"""tests/childenv.py (with wecsite/dburl.py): every process a test starts
reaches this run's test database and Redis, whatever form the settings take (a TCP host, the Unix
socket directory of `./wec`'s embedded PostgreSQL, IPv6, a password with
URL characters in it, libpq options)."""

from __future__ import annotations

import json
import subprocess
import sys

import dj_database_url
import pytest
from childenv import ROOT, SERVICE_VARIABLES, bare_env, child_env
from django.conf import settings

from wecsite.dburl import database_url

SETTINGS = [
    {"USER": "postgres", "PASSWORD": "", "HOST": "127.0.0.1", "PORT": 5432, "NAME": "test_wec_1_2"},
    {"USER": "postgres", "PASSWORD": "", "HOST": "/work/Wec Online/var/pg", "PORT": 5432, "NAME": "test_wec_1_2"},
    {"USER": "postgres", "PASSWORD": "", "HOST": "/tmp/runtime-0/3f2a9c", "PORT": "", "NAME": "wec"},
    {"USER": "wec", "PASSWORD": "p@ss:w/rd?#%&=", "HOST": "db.example.org", "PORT": 6432, "NAME": "wec"},
    {"USER": "we c", "PASSWORD": "x", "HOST": "::1", "PORT": 5433, "NAME": "wec", "OPTIONS": {"sslmode": "require"}},
    {"USER": "", "PASSWORD": "", "HOST": "", "PORT": "", "NAME": "wec"},
]


@pytest.mark.parametrize("db", SETTINGS, ids=lambda db: db["HOST"] or "default-socket")
def test_database_url_gives_back_the_same_settings(db):
    parsed = dj_database_url.parse(database_url(db))
    for key in ("USER", "PASSWORD", "HOST", "NAME"):
        assert parsed[key] == db[key], (key, database_url(db))
    assert str(parsed["PORT"]) == str(db["PORT"])
    assert parsed.get("OPTIONS", {}) == db.get("OPTIONS", {})


def test_child_env_names_this_runs_database_redis_prefix_and_queue():
    env = child_env(EXTRA=1)
    db = dj_database_url.parse(env["DATABASE_URL"])
    assert db["NAME"] == settings.DATABASES["default"]["NAME"]
    assert db["HOST"] == settings.DATABASES["default"]["HOST"]
    assert env["REDIS_URL"] == settings.REDIS_URL
    assert env["WEC_REDIS_PREFIX"] == settings.WEC_REDIS_PREFIX
    assert env["WEC_CELERY_QUEUE"] == settings.CELERY_TASK_DEFAULT_QUEUE
    assert env["EXTRA"] == "1" and "DJANGO_ALLOW_ASYNC_UNSAFE" not in env


def test_bare_env_chooses_no_services(monkeypatch):
    for name in SERVICE_VARIABLES:
        monkeypatch.setenv(name, "set-by-the-run")
    env = bare_env(PORT=8123)
    assert not set(SERVICE_VARIABLES) & set(env)
    assert env["PORT"] == "8123" and "DJANGO_SETTINGS_MODULE" not in env


CHILD = """
import json, django
django.setup()
from django.conf import settings
from django.core.cache import caches
from accounts.models import User
print(json.dumps({
    "db": settings.DATABASES["default"]["NAME"],
    "seen": User.objects.filter(username="childenv").exists(),
    "redis": caches[settings.WEC_RENDER_CACHE].get("childenv"),
}))
"""


@pytest.mark.procs
@pytest.mark.django_db(transaction=True)
def test_a_child_process_reads_what_this_process_wrote(make_user):
    """The real thing, on whatever services this run has: a row committed
    here and a key set in the run's Redis (under its prefix) are seen there."""
    from django.core.cache import caches

    make_user("childenv")
    caches[settings.WEC_RENDER_CACHE].set("childenv", "hello", 60)
    done = subprocess.run(
        [sys.executable, "-c", CHILD], env=child_env(), cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen == {"db": settings.DATABASES["default"]["NAME"], "seen": True, "redis": "hello"}
