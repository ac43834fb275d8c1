"""Faults and bad input change nothing: an engine exception during a submit,
malformed bodies, refused plain POSTs, the AI task's retries and its flag,
and the action log's integrity (append-only trigger, hash chain,
verify_games)."""

from __future__ import annotations

import json
import logging
import time

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, transaction
from django.urls import reverse

from games import selectors, services
from games.models import Game, GameAction, Snapshot
from games.store.action_log import GENESIS_HASH, action_hash, purge_game

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def log_rows(game_id: int) -> list:
    return list(GameAction.objects.filter(game_id=game_id).order_by("seq").values_list("seq", "action"))


def game_row(game_id: int) -> tuple:
    g = Game.objects.get(pk=game_id)
    return (g.seq, g.to_move, g.status, g.result, g.needs_attention)


def play_moves(game, players: dict, engine, first_move, turns: int) -> None:
    for _ in range(turns):
        g = Game.objects.get(pk=game.pk)
        state = selectors.load_state(g)
        services.submit_action(game.pk, players[g.to_move], first_move(state), expected_seq=g.seq)
        services.submit_action(game.pk, players[g.to_move], {"type": "end_turn"}, expected_seq=g.seq + 1)


# --- engine faults -------------------------------------------------------------------


@pytest.mark.parametrize(
    "error", [KeyError("heading"), RuntimeError("boom"), ZeroDivisionError(), RecursionError()]
)
def test_engine_exception_during_submit_is_a_clear_500_and_changes_nothing(
    client, game, alice, engine, first_move, monkeypatch, caplog, error
):
    move = first_move(selectors.load_state(game))
    real_apply = engine.apply

    def broken_apply(state, action):
        if action == move:
            raise error
        return real_apply(state, action)

    monkeypatch.setattr(engine, "apply", broken_apply)
    client.force_login(alice)
    before = (game_row(game.pk), log_rows(game.pk), Snapshot.objects.count())
    url = reverse("game_act", args=[game.pk])
    with caplog.at_level(logging.ERROR, logger="games.services"):
        response = client.post(url, {"action": json.dumps(move)}, **HX)
    assert response.status_code == 500
    html = response.content.decode()
    assert 'id="board-error"' in html and "Nothing was changed" in html
    # The operator gets the whole trace, under the reference the player saw.
    [record] = [r for r in caplog.records if r.getMessage().startswith("engine fault")]
    assert record.exc_info and record.exc_info[0] is type(error)
    incident = record.getMessage().split()[2]
    assert incident in html
    assert (game_row(game.pk), log_rows(game.pk), Snapshot.objects.count()) == before
    # Without htmx: the same message on a small page, same status.
    response = client.post(url, {"action": json.dumps(move)})
    assert response.status_code == 500 and "Nothing was changed" in response.content.decode()
    assert (game_row(game.pk), log_rows(game.pk), Snapshot.objects.count()) == before
    # The engine mended, the same action goes through.
    monkeypatch.setattr(engine, "apply", real_apply)
    assert client.post(url, {"action": json.dumps(move)}, **HX).status_code == 200
    assert len(log_rows(game.pk)) == 1


def test_engine_exception_in_legal_actions_is_an_engine_fault(game, alice, engine, first_move, monkeypatch):
    move = first_move(selectors.load_state(game))
    monkeypatch.setattr(engine, "legal_actions", lambda state: 1 / 0)
    with pytest.raises(services.EngineFault) as info:
        services.submit_action(game.pk, alice, move, expected_seq=0)
    assert info.value.status == 500 and info.value.incident in info.value.message
    assert not GameAction.objects.exists()


def test_engine_fault_after_the_log_row_rolls_the_row_back(game, alice, engine, first_move, monkeypatch):
    """A fault after the row was written (in outcome) leaves no row behind."""
    move = first_move(selectors.load_state(game))
    monkeypatch.setattr(engine, "outcome", lambda state: {}["winner"])
    with pytest.raises(services.EngineFault):
        services.submit_action(game.pk, alice, move, expected_seq=0)
    assert not GameAction.objects.exists() and Game.objects.get(pk=game.pk).seq == 0


# --- malformed bodies and refused plain POSTs ----------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        "[" * 100_000 + "]" * 100_000,  # RecursionError inside json.loads
        '{"type": "move", "x": ' + "[" * 50 + "]" * 50 + "}",  # parses, but far too deep for an action
        json.dumps({"type": "move", "pad": "x" * 10_000}),  # far too long
        "null",
        "1e999999",
        '{"type": 5}',
    ],
)
def test_malformed_action_bodies_get_400(client, game, alice, raw):
    client.force_login(alice)
    response = client.post(reverse("game_act", args=[game.pk]), {"action": raw}, **HX)
    assert response.status_code == 400
    assert "That is not a valid action." in response.content.decode()
    assert not GameAction.objects.exists()


@pytest.mark.parametrize("seq", ["x", "9" * 5000, "1.5", "\x00"])
def test_malformed_seq_gets_400(client, game, alice, first_move, seq):
    client.force_login(alice)
    move = first_move(selectors.load_state(game))
    response = client.post(
        reverse("game_act", args=[game.pk]), {"action": json.dumps(move), "version": seq}, **HX
    )
    assert response.status_code == 400
    assert not GameAction.objects.exists()


def test_deeply_nested_json_as_the_raw_body_gets_400(client, game, alice):
    client.force_login(alice)
    body = "[" * 200_000
    response = client.post(reverse("game_act", args=[game.pk]), body, content_type="application/json", **HX)
    assert response.status_code == 400
    assert not GameAction.objects.exists()


def test_refused_plain_posts_answer_4xx_with_a_page(client, alice, bob, carol, first_move):
    seek = services.create_game(creator=alice, opponent="open", color="white")
    client.force_login(alice)
    response = client.post(reverse("accept_seek", args=[seek.pk]))
    assert response.status_code == 400 and 'id="refused-message"' in response.content.decode()
    assert "You cannot accept your own seek." in response.content.decode()
    client.force_login(carol)
    # Someone else's seek is answered as a missing game (docs/security.md,
    # "Fuzzing: strangers"), and stays open.
    response = client.post(reverse("cancel_seek", args=[seek.pk]))
    missing = client.post(reverse("cancel_seek", args=[seek.pk + 1000]))
    assert response.status_code == missing.status_code == 404
    assert Game.objects.get(pk=seek.pk).status == Game.Status.OPEN
    game = services.create_game(creator=alice, opponent="user", username="bob", color="black")
    services.resign(game.pk, alice)
    client.force_login(bob)
    response = client.post(reverse("resign", args=[game.pk]))
    assert response.status_code == 409 and "This game is not in progress." in response.content.decode()
    response = client.post(reverse("game_act", args=[game.pk]), {"type": "end_turn"})
    assert response.status_code == 409 and 'id="refused-message"' in response.content.decode()


# --- the AI task -----------------------------------------------------------------------------


@pytest.fixture
def ai_game(alice, monkeypatch):
    from games import tasks

    monkeypatch.setattr(tasks.play_ai_turn, "delay", lambda gid: None)
    return services.create_game(creator=alice, opponent="ai", color="white")  # the AI is Black, to move


def test_ai_task_second_delivery_adds_nothing(ai_game):
    from games import tasks

    assert tasks.play_ai_turn(ai_game.pk) >= 2
    rows = log_rows(ai_game.pk)
    assert tasks.play_ai_turn(ai_game.pk) == 0
    assert tasks.play_ai_turn(ai_game.pk) == 0
    assert log_rows(ai_game.pk) == rows
    assert [a["type"] for _, a in rows].count("end_turn") == 1


@pytest.mark.django_db(transaction=True)
def test_ai_task_does_nothing_while_another_run_holds_the_game(ai_game):
    """Two deliveries at once: the advisory lock lets only one play."""
    import psycopg
    from django.conf import settings

    from games import tasks

    db = settings.DATABASES["default"]
    other = psycopg.connect(
        host=db["HOST"], port=db["PORT"] or 5432, user=db["USER"], password=db["PASSWORD"], dbname=db["NAME"]
    )
    try:
        other.execute("SELECT pg_advisory_lock(%s)", [tasks._ai_lock_key(ai_game.pk)])
        assert tasks.play_ai_turn(ai_game.pk) == 0
        assert not GameAction.objects.filter(game=ai_game).exists()
    finally:
        other.close()  # the lock dies with the session, as when a worker is killed
    made = 0
    for _ in range(50):  # the server notices the closed session within moments
        made = tasks.play_ai_turn(ai_game.pk)
        if made:
            break
        time.sleep(0.1)
    assert made >= 2


def test_ai_task_retries_then_flags_the_game(ai_game, engine, monkeypatch, settings, client, alice):
    """Through Celery's own retry machinery (apply() runs the retries in-line):
    1 + WEC_AI_MAX_RETRIES attempts, then the game is flagged, not left silent."""
    from games import tasks

    settings.WEC_AI_MAX_RETRIES = 2
    settings.WEC_AI_RETRY_SECONDS = 0
    calls = []

    def broken(state, seed):
        calls.append(seed)
        raise KeyError("heading")

    monkeypatch.setattr(engine, "choose_action", broken)
    tasks.play_ai_turn.apply(args=[ai_game.pk])
    assert len(calls) == 3
    g = Game.objects.get(pk=ai_game.pk)
    assert g.needs_attention and "KeyError" in g.attention_note
    assert g.seq == 0 and g.status == Game.Status.ACTIVE
    client.force_login(alice)
    html = client.get(reverse("game_detail", args=[g.pk])).content.decode()
    assert 'id="attention-notice"' in html and "KeyError" not in html
    # Mended: the next run plays the turn and clears the flag.
    monkeypatch.undo()
    monkeypatch.setattr(tasks.play_ai_turn, "delay", lambda gid: None)
    assert tasks.play_ai_turn(ai_game.pk) >= 2
    assert not Game.objects.get(pk=ai_game.pk).needs_attention


def test_ai_task_engine_fault_in_submit_is_retried(ai_game, engine, monkeypatch, settings):
    from games import tasks

    settings.WEC_AI_MAX_RETRIES = 1
    settings.WEC_AI_RETRY_SECONDS = 0
    monkeypatch.setattr(engine, "outcome", lambda state: {}["x"])
    tasks.play_ai_turn.apply(args=[ai_game.pk])
    g = Game.objects.get(pk=ai_game.pk)
    assert g.needs_attention and g.seq == 0


def test_failed_ai_enqueue_flags_the_game_but_the_action_stands(
    alice, monkeypatch, django_capture_on_commit_callbacks
):
    from games import tasks

    def dead_broker(game_id):
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.play_ai_turn, "delay", dead_broker)
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(creator=alice, opponent="ai", color="white")
    assert Game.objects.get(pk=game.pk).needs_attention


# --- the action log's integrity --------------------------------------------------------------


def test_hash_chain_links_every_row(game, alice, bob, engine, first_move):
    play_moves(game, {"black": alice, "white": bob}, engine, first_move, turns=3)
    prev = GENESIS_HASH
    rows = list(GameAction.objects.filter(game=game).select_related("seat").order_by("seq"))
    assert len(rows) == 6
    for row in rows:
        assert row.prev_hash == prev
        assert row.hash == action_hash(prev, game.pk, row.seq, row.seat.color, row.action)
        prev = row.hash
    assert len({r.hash for r in rows}) == 6


def test_action_rows_are_append_only_in_the_database(game, alice, bob, engine, first_move):
    play_moves(game, {"black": alice, "white": bob}, engine, first_move, turns=1)
    row = GameAction.objects.filter(game=game).first()
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        GameAction.objects.filter(pk=row.pk).update(action={"type": "end_turn"})
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        GameAction.objects.filter(pk=row.pk).delete()
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("UPDATE games_gameaction SET seq = seq + 100 WHERE game_id = %s", [game.pk])
    # Deleting the game would cascade into its log: refused too ...
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=game.pk).delete()
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM games_gameaction WHERE game_id = %s", [game.pk])
    assert GameAction.objects.filter(game=game).count() == 2
    # ... except through purge_game, for that one game only.
    other = services.create_game(creator=alice, opponent="user", username="bob", color="black")
    play_moves(other, {"black": alice, "white": bob}, engine, first_move, turns=1)
    purge_game(game.pk)
    assert not Game.objects.filter(pk=game.pk).exists()
    assert GameAction.objects.filter(game=other).count() == 2
    with pytest.raises(IntegrityError), transaction.atomic():
        GameAction.objects.filter(game=other).delete()


def tamper(sql: str, params: list) -> None:
    """What an attacker with superuser rights could do: switch triggers off
    for the session (replica mode), change a row, switch them on again."""
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")
        cursor.execute(sql, params)
        cursor.execute("SET session_replication_role = DEFAULT")


def run_verify(*args) -> tuple[int, str, str]:
    from io import StringIO

    out, err = StringIO(), StringIO()
    try:
        call_command("verify_games", *args, stdout=out, stderr=err)
        code = 0
    except CommandError:
        code = 1
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def played(game, alice, bob, engine, first_move, settings):
    settings.WEC_SNAPSHOT_EVERY = 2
    play_moves(game, {"black": alice, "white": bob}, engine, first_move, turns=3)
    return game


def test_verify_games_passes_good_games(played):
    code, out, err = run_verify()
    assert code == 0 and err == ""
    assert "1 games, 6 actions, 4 snapshots" in out and "0 with problems" in out


def test_verify_games_names_a_tampered_action(played):
    row = GameAction.objects.get(game=played, seq=3)
    tamper(
        "UPDATE games_gameaction SET action = %s WHERE id = %s", [json.dumps({"type": "end_turn"}), row.pk]
    )
    code, out, err = run_verify()
    assert code == 1
    assert f"row {played.pk}#3 (id {row.pk}): its hash does not match its contents" in err


def test_verify_games_names_a_rehashed_row_by_the_next_link(played, engine):
    """A forger who swaps a row for another legal action and recomputes its
    hash still breaks the next row's link."""
    row = GameAction.objects.select_related("seat").get(game=played, seq=1)
    start = engine.load_scenario(Snapshot.objects.get(game=played, seq=0).state)
    other = next(a for a in engine.legal_actions(start) if a["type"] == "move" and a != row.action)
    forged = action_hash(row.prev_hash, played.pk, 1, row.seat.color, other)
    tamper(
        "UPDATE games_gameaction SET action = %s, hash = %s WHERE id = %s",
        [json.dumps(other), forged, row.pk],
    )
    code, out, err = run_verify()
    assert code == 1 and f"row {played.pk}#2" in err and "previous-row hash" in err


def test_verify_games_names_a_missing_row(played):
    tamper("DELETE FROM games_gameaction WHERE game_id = %s AND seq = 4", [played.pk])
    code, out, err = run_verify()
    assert code == 1 and f"row {played.pk}#5" in err and "expected action number 4" in err


def test_verify_games_names_a_snapshot_that_differs_from_the_replay(played, engine):
    snap = Snapshot.objects.get(game=played, seq=4)
    state = engine.load_scenario(Snapshot.objects.get(game=played, seq=0).state)
    Snapshot.objects.filter(pk=snap.pk).update(state=engine.dump_scenario(state))
    code, out, err = run_verify()
    assert code == 1 and f"row {played.pk}#4" in err and "snapshot after it differs" in err


def test_resume_ai_turns_requeues_only_stalled_ai_turns(alice, bob, monkeypatch, settings):
    from django.utils import timezone

    from games import tasks

    queued = []
    monkeypatch.setattr(tasks.play_ai_turn, "delay", lambda gid: queued.append(gid))
    stalled = services.create_game(creator=alice, opponent="ai", color="white")  # AI to move
    fresh = services.create_game(creator=bob, opponent="ai", color="white")
    failed = services.create_game(creator=alice, opponent="ai", color="white")
    human_turn = services.create_game(creator=bob, opponent="ai", color="black")  # the person to move
    people = services.create_game(creator=alice, opponent="user", username="bob", color="black")
    queued.clear()
    old = timezone.now() - timezone.timedelta(minutes=10)
    Game.objects.filter(pk__in=[stalled.pk, failed.pk, human_turn.pk, people.pk]).update(updated=old)
    Game.objects.filter(pk=failed.pk).update(
        needs_attention=True, attention_note=f"{tasks.AI_FAILED_NOTE}: KeyError"
    )
    assert tasks.resume_ai_turns() == 1
    assert queued == [stalled.pk]
    assert fresh.pk not in queued
    # A game flagged only because its turn could not be queued is resumed too.
    Game.objects.filter(pk=stalled.pk).update(
        needs_attention=True, attention_note="the AI's turn could not be queued"
    )
    queued.clear()
    assert tasks.resume_ai_turns() == 1 and queued == [stalled.pk]


def test_engine_exception_while_creating_a_game_is_a_clear_500(client, alice, bob, engine, monkeypatch):
    monkeypatch.setattr(engine, "new_game", lambda options=None: {}["boom"])
    client.force_login(alice)
    response = client.post(reverse("new_game"), {"opponent": "user", "username": "bob", "color": "black"})
    assert response.status_code == 500 and "Nothing was changed" in response.content.decode()
    assert not Game.objects.exists()
