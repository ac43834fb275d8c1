"""Shared fixtures.

Kept safe for the pure engine tests in tests/engine/: nothing here touches the
database or Redis unless a test asks for one of these fixtures, and only tests
marked `django_db` (or using db fixtures) get a database (pytest-django's
normal behaviour)."""

from __future__ import annotations

import os
import time

import pytest


def pytest_collection_modifyitems(config, items):
    """Browser tests last: Playwright's sync API keeps an event loop running
    while its browser is open, which async tests must not share."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.fixture(autouse=True)
def _site_language_after_each_test():
    """Each test starts in the site's default language: a request served in
    the same thread (Django's test client) leaves the language its
    LocaleMiddleware chose active, and a later test that renders without a
    request would otherwise speak it."""
    yield
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)


def _sequences() -> dict[str, int]:
    """Every id sequence of the test database and its last value (0: unused)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT schemaname || '.' || sequencename, COALESCE(last_value, 0) FROM pg_sequences "
            "WHERE schemaname = current_schema()"
        )
        return dict(cursor.fetchall())


@pytest.fixture
def ids_never_repeat(django_db_blocker):
    """For a test that restarts the id sequences (the two-world leak tests
    number both worlds alike): afterwards every sequence continues past any
    id used before or during it.  The run's Redis keys (rendered boards) and
    the process caches are keyed by game id, and a later test whose game got
    an id used earlier in the run would be served that game's board."""
    with django_db_blocker.unblock():
        before = _sequences()
    yield
    from django.db import connection

    with django_db_blocker.unblock():
        after = _sequences()
        with connection.cursor() as cursor:
            for name, value in after.items():
                cursor.execute("SELECT setval(%s, %s)", [name, max(value, before.get(name, 0)) + 1])


@pytest.fixture(scope="session")
def django_db_modify_db_settings():
    """A test database name of its own for every run: test_<name>_<pid>_<time>."""
    from django.conf import settings

    suffix = f"{os.getpid()}_{int(time.time())}"
    for db in settings.DATABASES.values():
        db.setdefault("TEST", {})
        db["TEST"]["NAME"] = f"test_{db['NAME']}_{suffix}"


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, plus: before it is dropped, end any session
    still open on it (threads of a Celery worker, a live server, ...)."""
    yield
    from django.db import connection

    with django_db_blocker.unblock():
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )


@pytest.fixture
def make_user(db):
    from django.contrib.auth import get_user_model

    User = get_user_model()
    counter = {"n": 0}

    def make(username: str | None = None, **extra):
        counter["n"] += 1
        username = username or f"user{counter['n']}"
        return User.objects.create_user(
            username=username, email=f"{username}@example.com", password="pw-Wec-12345", **extra
        )

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.fixture
def engine():
    from games.engines import get_engine

    return get_engine()


@pytest.fixture
def game(alice, bob):
    """Alice (Black, to move) against Bob (White)."""
    from games.services import create_game

    return create_game(creator=alice, opponent="user", username="bob", color="black")


@pytest.fixture
def first_move(engine):
    """first_move(state[, predicate]) -> the first legal Move the engine lists."""

    def pick(state, predicate=None) -> dict:
        for action in engine.legal_actions(state):
            if action.get("type") == "move" and (predicate is None or predicate(action)):
                return action
        raise AssertionError("no legal move")

    return pick
