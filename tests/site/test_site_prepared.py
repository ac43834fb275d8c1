"""The board fetch's hand-written statements prepared on the connection
(games.store.sql.prepared_cursor): the same rows as
Django's own cursor, nothing changed for the ORM's cursors, and off with
WEC_PREPARED_STATEMENTS=0."""

import pytest
from django.db import connection
from django.db.backends.postgresql.base import Cursor

from games import selectors, services
from games.engines import get_engine
from games.models import Game
from games.store import sql
from games.store.action_log import turn_ends

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(alice, bob):
    game = services.create_game(creator=alice, opponent="user", username="bob", color="black")
    engine = get_engine()
    users = {"black": alice, "white": bob}
    for _ in range(4):  # four Turns of a Move and an End Turn
        for kind in ("move", "end_turn"):
            game = Game.objects.get(pk=game.pk)
            state = selectors.load_state(game)
            action = next(a for a in engine.legal_actions(state) if a["type"] == kind)
            services.submit_action(game.pk, users[engine.to_move(state)], action, expected_seq=game.seq)
    return Game.objects.get(pk=game.pk)


def _fields(obj):
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def _open(game, user):
    got = services.open_game(game.pk, user)
    return _fields(got), [(_fields(s), _fields(s.user)) for s in got.seats.all()]


def test_the_same_rows_prepared_or_not(settings, played, alice):
    settings.WEC_PREPARED_STATEMENTS = True
    prepared = (_open(played, alice), turn_ends(Game.objects.get(pk=played.pk), last=2))
    again = (_open(played, alice), turn_ends(Game.objects.get(pk=played.pk), last=2))
    settings.WEC_PREPARED_STATEMENTS = False
    plain = (_open(played, alice), turn_ends(Game.objects.get(pk=played.pk), last=2))
    assert prepared == again == plain
    assert len(plain[1]) == 2


def test_prepared_on_the_connection_and_nothing_else_changed(settings, played, alice):
    settings.WEC_PREPARED_STATEMENTS = True
    services.open_game(played.pk, alice)
    services.open_game(played.pk, alice)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s", ["WITH seen AS (UPDATE%"]
        )
        assert cursor.fetchone()[0] == 1
    raw = connection.connection
    assert raw.cursor_factory is Cursor and raw.prepare_threshold is None
    with connection.cursor() as cursor:
        assert isinstance(cursor.cursor, Cursor)


def test_off(settings, played, alice):
    settings.WEC_PREPARED_STATEMENTS = False
    with sql.prepared_cursor() as cursor:
        assert isinstance(cursor.cursor, Cursor)
        cursor.execute("SELECT %s::int", [7])
        assert cursor.fetchone()[0] == 7


def test_logged_queries_keep_their_sql(settings, played, alice):
    from django.test.utils import CaptureQueriesContext

    settings.WEC_PREPARED_STATEMENTS = True
    with CaptureQueriesContext(connection) as queries:
        services.open_game(played.pk, alice)
    assert queries.captured_queries[0]["sql"].startswith("WITH seen AS (UPDATE")
