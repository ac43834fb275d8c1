"""Every hand-written SQL statement of the site (games/store/sql.py) run
against PostgreSQL, each checked against what the ORM reads or writes.

The services run all of them on their paths too; here each is run on its
own, so that a statement that breaks is named by its own test.  The last
test checks that every statement function of the module is called here.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest
from django.db import connection, transaction
from django.utils import timezone

from games import selectors, services
from games.engines import get_engine
from games.models import Game, GameAction, GameState, GameTurn, Notification, Seat, Snapshot
from games.store import action_log, sql

pytestmark = pytest.mark.django_db


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def _play(game: Game, users: dict, actions: int) -> Game:
    """`actions` legal actions through the services (Moves and End Turns)."""
    engine = get_engine()
    for _ in range(actions):
        game = Game.objects.get(pk=game.pk)
        state = selectors.load_state(game)
        legal = engine.legal_actions(state)
        action = next((a for a in legal if a["type"] == "move"), None) or next(a for a in legal if a["type"] == "end_turn")
        if action["type"] == "move" and engine.actions_this_turn(state) >= 1:
            action = next(a for a in legal if a["type"] == "end_turn")
        services.submit_action(game.pk, users[engine.to_move(state)], action, expected_seq=game.seq)
    return Game.objects.get(pk=game.pk)


@pytest.fixture
def played(game, alice, bob) -> Game:
    return _play(game, {"black": alice, "white": bob}, 6)


def test_game_rows_are_the_orms(played):
    rows = sql.game_rows(played.pk)
    assert [(s.color, u.username) for s, u, _g in rows] == [("black", "alice"), ("white", "bob")]
    assert all(_fields(g) == _fields(Game.objects.get(pk=played.pk)) for _s, _u, g in rows)
    assert [_fields(s) for s, _u, _g in rows] == [_fields(s) for s in Seat.objects.filter(game=played).order_by("color")]
    assert sql.game_rows(-1) == []


def test_open_game_rows_mark_the_games_notifications_read(played, alice, bob):
    assert Notification.objects.filter(user=alice, game=played, read=False).exists()
    rows = sql.open_game_rows(alice.pk, played.pk)
    assert [_fields(x) for row in rows for x in row] == [_fields(x) for row in sql.game_rows(played.pk) for x in row]
    assert not Notification.objects.filter(user=alice, game=played, read=False).exists()


def test_locked_game_rows_lock_the_game_and_carry_the_last_hash(played):
    with transaction.atomic():
        rows = sql.locked_game_rows(played.pk)
        assert [(g.pk, s.color, u.username) for g, s, u, _h in rows] == [
            (played.pk, "black", "alice"), (played.pk, "white", "bob"),
        ]
        last = GameAction.objects.get(game=played, seq=played.seq).hash
        assert {h for _g, _s, _u, h in rows} == {last}
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
                "WHERE c.relname = %s AND l.mode = 'RowShareLock' AND l.pid = pg_backend_pid()",
                [Game._meta.db_table],
            )
            assert cursor.fetchone()[0] == 1
    assert sql.locked_game_rows(-1) == []


def test_a_batch_writes_the_game_row_seats_seen_and_a_notification(played, alice):
    game = Game.objects.get(pk=played.pk)
    seats = list(Seat.objects.filter(game=game).order_by("color"))
    game.draw_offer, game.turn_started, game.updated = "white", timezone.now(), timezone.now()
    game.result = {"winner": None, "reason": "agreement"}
    for seat in seats:
        seat.version += 5
        seat.view_digest = f"digest-{seat.color}"
    created = timezone.now()
    with transaction.atomic():
        batch = sql.Batch()
        sql.add_game_row(batch, game)
        sql.add_seat_versions(batch, seats)
        sql.add_seat_seen(batch, seats[0].pk, {"v": seats[0].version, "sig": "s", "changed": [[1, 2]]})
        sql.add_notification(batch, alice.pk, game.pk, Notification.Kind.DRAW_OFFER, created)
        batch.flush()
    stored = Game.objects.get(pk=game.pk)
    assert stored.draw_offer == "white" and stored.result == {"winner": None, "reason": "agreement"}
    assert {s.color: (s.version, s.view_digest) for s in Seat.objects.filter(game=game)} == {
        s.color: (s.version, s.view_digest) for s in seats
    }
    assert Seat.objects.get(pk=seats[0].pk).seen == {"v": seats[0].version, "sig": "s", "changed": [[1, 2]]}
    note = Notification.objects.get(user=alice, game=game, kind=Notification.Kind.DRAW_OFFER)
    assert (note.created, note.read, note.emailed) == (created, False, False)


def test_write_seen_never_over_a_newer_version(played):
    seat = Seat.objects.get(game=played, color="black")
    sql.write_seen(seat.pk, sql.json_value({"v": 9, "sig": "", "changed": []}), 9)  # its own commit (after an answer)
    with transaction.atomic():  # in a caller's transaction
        sql.write_seen(seat.pk, sql.json_value({"v": 8, "sig": "", "changed": [[1, 1]]}), 8)
    assert Seat.objects.get(pk=seat.pk).seen["v"] == 9
    with transaction.atomic():
        sql.write_seen(seat.pk, sql.json_value({"v": 10, "sig": "", "changed": []}), 10)
    assert Seat.objects.get(pk=seat.pk).seen["v"] == 10


def test_mark_game_notifications_read(played, alice, bob):
    unread = Notification.objects.filter(user=bob, game=played, read=False).count()
    assert unread and sql.mark_game_notifications_read(bob.pk, played.pk) == unread
    assert sql.mark_game_notifications_read(bob.pk, played.pk) == 0


def test_add_action_returns_the_rows_id(played):
    game = Game.objects.get(pk=played.pk)
    seat = Seat.objects.get(game=game, color=game.to_move)
    prev = GameAction.objects.get(game=game, seq=game.seq).hash
    action = {"type": "end_turn"}
    entry = GameAction(
        game=game, seq=game.seq + 1, seat=seat, action=action, prev_hash=prev, created=timezone.now(),
        hash=action_log.action_hash(prev, game.pk, game.seq + 1, seat.color, action),
    )
    ids = []
    with transaction.atomic():
        batch = sql.Batch()
        sql.add_action(batch, entry, on_row=lambda row: ids.append(row[0]))
        batch.flush()
    stored = GameAction.objects.get(game=game, seq=game.seq + 1)
    assert ids == [stored.pk]
    assert (stored.action, stored.prev_hash, stored.hash, stored.seat_id) == (action, prev, entry.hash, seat.pk)


def test_log_rows_back_newest_first_in_a_range(played):
    rows = sql.log_rows_back(played.pk, played.seq + 1, played.seq - 2)
    expected = [
        (a.seq, a.action, a.seat.color)
        for a in GameAction.objects.filter(game=played, seq__gte=played.seq - 2).select_related("seat").order_by("-seq")
    ]
    assert rows == expected and len(rows) == 3


def test_allow_purge_lets_the_log_be_deleted_in_its_transaction_only(played):
    from django.db import DatabaseError

    with pytest.raises(DatabaseError), transaction.atomic():
        GameAction.objects.filter(game_id=played.pk).delete()
    with transaction.atomic():
        sql.allow_purge(played.pk)
        GameAction.objects.filter(game_id=played.pk).delete()
    assert not GameAction.objects.filter(game_id=played.pk).exists()


def test_state_rows_turn_records_and_a_snapshot(played):
    game = Game.objects.get(pk=played.pk)
    state_text = sql.json_text({"x": 1, "start": {"y": 2}})
    created = timezone.now()
    first = GameTurn.objects.filter(game=game).count()
    with transaction.atomic():
        batch = sql.Batch()
        sql.add_turn_records(batch, game.pk, first, [{"turn": "a"}, {"turn": "b"}])
        sql.add_state(batch, game.pk, game.seq + 100, first + 2, sql.json_value_of_text(state_text))
        sql.add_snapshot(batch, game.pk, game.seq + 100, sql.json_value_of_text(state_text), first + 2, created)
        batch.flush()
    assert list(GameTurn.objects.filter(game=game, number__gt=first).order_by("number").values_list("number", "entry")) == [
        (first + 1, {"turn": "a"}), (first + 2, {"turn": "b"}),
    ]
    row = GameState.objects.get(game=game)  # the existing row, replaced
    assert (row.seq, row.turns, row.state) == (game.seq + 100, first + 2, {"x": 1, "start": {"y": 2}})
    snap = Snapshot.objects.get(game=game, seq=game.seq + 100)
    assert (snap.turns, snap.state, snap.created) == (first + 2, {"x": 1, "start": {"y": 2}}, created)


def test_advisory_lock_is_held_by_one_session(played):
    key = (0x57EC << 40) | 999_999
    assert sql.try_advisory_lock(key)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted"
        )
        assert cursor.fetchone()[0] == 1
    sql.advisory_unlock(key)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()")
        assert cursor.fetchone()[0] == 0


def test_every_statement_is_tested_here():
    # A statement function added to games/store/sql.py must be run by a test of this file.
    helpers = {"prepared_cursor", "columns", "select_models", "json_value", "json_text", "json_value_of_text"}
    statements = {
        name
        for name, obj in inspect.getmembers(sql, inspect.isfunction)
        if obj.__module__ == sql.__name__ and not name.startswith("_") and name not in helpers
    }
    assert "game_rows" in statements and "add_state" in statements
    tree = ast.parse(Path(__file__).read_text())
    called = {
        node.func.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "sql"
    }
    assert statements <= called, f"statements no test here runs: {sorted(statements - called)}"
