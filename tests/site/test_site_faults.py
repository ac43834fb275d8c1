"""Fault tests against real services.  None may lose or double a turn, a
timeout, a notification or an email:

- a Celery worker killed with SIGKILL in the middle of an AI turn (its pool
  child, and the whole worker);
- the same AI task delivered twice, run by two pool processes at once;
- two beat processes at once;
- Redis restarted during play (a PRIVATE redis-server): pages keep working,
  sockets reconnect and hear of later changes, the board shows everything;
- PostgreSQL restarted (a PRIVATE cluster): requests fail cleanly with a 503
  page and then recover.

Marked `fault` (slow, but run by default) and `procs` (they start other
processes: `.ci/run` runs them once more against `./wec`'s embedded services)."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from childenv import child_env
from django.conf import settings as django_settings
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from faultkit import PrivatePostgres, PrivateRedis, start_beat, start_worker, wait_for

from games import selectors, services
from games.engines import get_engine
from games.models import Game, GameAction, Notification, Seat

pytestmark = [pytest.mark.fault, pytest.mark.procs, pytest.mark.django_db(transaction=True)]


def ai_turn_done(game_id: int) -> bool:
    return Game.objects.get(pk=game_id).to_move == "white"


def assert_one_clean_ai_turn(game_id: int, human) -> None:
    """The AI (Black) played exactly one turn: one End Turn, at the end, the
    log numbered without gaps, one "your turn" for the person, and the whole
    game replays (verify_games)."""
    rows = list(GameAction.objects.filter(game_id=game_id).order_by("seq").select_related("seat__user"))
    kinds = [r.action["type"] for r in rows]
    assert kinds.count("end_turn") == 1 and kinds[-1] == "end_turn", kinds
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
    assert all(r.seat.user.is_ai for r in rows)
    assert Game.objects.get(pk=game_id).seq == len(rows)
    assert Notification.objects.filter(game_id=game_id, user=human, kind="your_turn").count() == 1
    call_command("verify_games", "--game", str(game_id), verbosity=0)


@pytest.fixture
def tmp(tmp_path) -> Path:
    return tmp_path


def test_worker_child_killed_mid_turn_is_redone_once(alice, tmp):
    """SIGKILL of the pool process running the AI turn: reject_on_worker_lost
    puts the task back at once, the new pool process finishes the turn."""
    game = services.create_game(creator=alice, opponent="ai", color="white")  # queued on commit
    worker = start_worker(tmp, "w1", WEC_AI_ACTION_DELAY=1.5)
    try:
        assert wait_for(lambda: GameAction.objects.filter(game=game).exists(), 60), worker.output()
        assert not ai_turn_done(game.pk)
        [child] = worker.children()
        subprocess.run(["kill", "-9", str(child)], check=True)
        assert wait_for(lambda: ai_turn_done(game.pk), 90), worker.output()
        assert "WorkerLostError" in worker.output() or "SIGKILL" in worker.output()
    finally:
        worker.stop()
    assert_one_clean_ai_turn(game.pk, alice)


def test_whole_worker_killed_mid_turn_another_worker_finishes_once(alice, tmp):
    """SIGKILL of the whole worker (every process): the unacknowledged task
    comes back after the visibility timeout and a new worker finishes it."""
    env = {"WEC_AI_ACTION_DELAY": 1.5, "WEC_CELERY_VISIBILITY_TIMEOUT": 2, "WEC_CELERY_RESTORE_INTERVAL": 1}
    game = services.create_game(creator=alice, opponent="ai", color="white")
    first = start_worker(tmp, "w1", **env)
    try:
        assert wait_for(lambda: GameAction.objects.filter(game=game).exists(), 60), first.output()
        assert not ai_turn_done(game.pk)
        made_before = GameAction.objects.filter(game=game).count()
    finally:
        first.kill_group()
    second = start_worker(tmp, "w2", **env)
    try:
        assert wait_for(lambda: ai_turn_done(game.pk), 90), second.output()
    finally:
        second.stop()
    assert GameAction.objects.filter(game=game).count() > made_before
    assert_one_clean_ai_turn(game.pk, alice)


def test_same_ai_task_delivered_twice_at_once_plays_one_turn(alice, tmp):
    from games import tasks

    game = services.create_game(creator=alice, opponent="ai", color="white")  # delivery 1
    tasks.play_ai_turn.delay(game.pk)  # delivery 2, the same task for the same turn
    worker = start_worker(tmp, "w1", concurrency=2, WEC_AI_ACTION_DELAY=0.5)
    try:
        assert wait_for(lambda: ai_turn_done(game.pk), 90), worker.output()
        assert wait_for(
            lambda: "already being played" in worker.output() or "succeeded" in worker.output(), 30
        )
        # And a late third delivery, once the turn is over, does nothing either.
        tasks.play_ai_turn.delay(game.pk)
        assert wait_for(lambda: worker.output().count("succeeded") >= 3, 30), worker.output()
        results = re.findall(r"play_ai_turn\[[^\]]+\] succeeded in [\d.]+s: (\d+)", worker.output())
        assert len(results) == 3 and sorted(int(r) > 0 for r in results) == [False, False, True], results
    finally:
        worker.stop()
    assert_one_clean_ai_turn(game.pk, alice)


def read_mails(mail_dir: Path) -> list[str]:
    """The messages Django's file backend wrote (one separator line after each)."""
    text = "".join(f.read_text() for f in sorted(mail_dir.glob("*.log"))) if mail_dir.exists() else ""
    return [m for m in text.split("-" * 79) if "Subject: " in m]


def test_two_beat_processes_one_timeout_one_notification_one_email(alice, bob, tmp):
    alice.email_on_turn = bob.email_on_turn = True
    alice.save()
    bob.save()
    game = services.create_game(creator=alice, opponent="user", username="bob", color="black")
    Seat.objects.filter(game=game, color="black").update(
        deadline=timezone.now() - timezone.timedelta(minutes=5)
    )
    mail_dir = tmp / "mail"
    env = {
        "WEC_CLOCK_CHECK_SECONDS": 0.5,
        "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "EMAIL_FILE_PATH": mail_dir,
    }
    procs = [
        start_worker(tmp, "w1", concurrency=2, **env),
        start_beat(tmp, "b1", **env),
        start_beat(tmp, "b2", **env),
    ]
    try:
        assert wait_for(lambda: Game.objects.get(pk=game.pk).status == Game.Status.FINISHED, 60), procs[
            0
        ].output()
        # Let both beats fire several more times; nothing more may happen.
        assert wait_for(lambda: procs[0].output().count("check_clocks") >= 8, 30), procs[0].output()
        # Three mails in all: bob's "new game" from the start and one "game over" each.
        assert wait_for(lambda: len(read_mails(mail_dir)) >= 3, 30), read_mails(mail_dir)
        assert wait_for(lambda: procs[0].output().count("check_clocks") >= 12, 30), procs[0].output()
    finally:
        for p in procs:
            p.stop()
    g = Game.objects.get(pk=game.pk)
    assert g.result == {"winner": "white", "reason": "timeout"}
    assert Notification.objects.filter(game=game, kind="game_over").count() == 2
    mails = read_mails(mail_dir)
    assert len(mails) == 3, mails
    ended = [m for m in mails if f"Game {game.pk} has ended" in m]
    assert len(ended) == 2, mails
    assert sorted(m.split("To: ")[1].split()[0] for m in ended) == ["alice@example.com", "bob@example.com"]
    assert len([m for m in mails if "started game" in m]) == 1  # bob's, from the start, also once


# --- Redis restarted --------------------------------------------------------------------------------


@pytest.fixture
def private_redis(settings):
    redis = PrivateRedis()
    redis.start()
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [redis.url], "prefix": f"{django_settings.WEC_REDIS_PREFIX}:asgi"},
        }
    }
    channel_layers.backends.clear()
    yield redis
    redis.cleanup()
    channel_layers.backends.clear()


def ws_headers(client: Client, user) -> list:
    client.force_login(user)
    cookie = (
        f"{django_settings.SESSION_COOKIE_NAME}={client.cookies[django_settings.SESSION_COOKIE_NAME].value}"
    )
    return [(b"cookie", cookie.encode()), (b"origin", b"http://localhost"), (b"host", b"localhost")]


def post_action(client: Client, game_id: int, action: dict) -> int:
    r = client.post(f"/games/{game_id}/act/", {"action": json.dumps(action)}, HTTP_HX_REQUEST="true")
    return r.status_code


def first_move(game_id: int) -> dict:
    state = selectors.load_state(Game.objects.get(pk=game_id))
    return next(a for a in get_engine().legal_actions(state) if a["type"] == "move")


@pytest.mark.asyncio
async def test_redis_restart_pages_keep_working_sockets_reconnect(private_redis, alice, bob):
    from wecsite.asgi import application

    game = await database_sync_to_async(services.create_game)(
        creator=alice, opponent="user", username="bob", color="black"
    )
    alice_client, bob_client = Client(), Client()
    bob_headers = await database_sync_to_async(ws_headers)(bob_client, bob)
    await database_sync_to_async(alice_client.force_login)(alice)
    path = f"/ws/games/{game.pk}/"

    sock = WebsocketCommunicator(application, path, headers=bob_headers)
    assert (await sock.connect(timeout=5))[0]
    move = await database_sync_to_async(first_move)(game.pk)
    assert await database_sync_to_async(post_action)(alice_client, game.pk, move) == 200
    assert (await sock.receive_json_from(timeout=5))["type"] == "changed"

    # Redis goes away: pages and actions still work (the doorbell is lost).
    private_redis.stop()
    assert await database_sync_to_async(post_action)(alice_client, game.pk, {"type": "end_turn"}) == 200
    r = await database_sync_to_async(bob_client.get)(f"/games/{game.pk}/board/", HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and "Your turn" in r.content.decode()
    try:
        await sock.disconnect()
    except Exception:  # the old socket died with its Redis; the browser drops it
        pass

    # Redis is back: the page's new socket connects, and hears of the next change.
    private_redis.start()
    await asyncio.sleep(0.5)
    sock = None
    for _ in range(20):  # the browser's reconnect loop
        sock = WebsocketCommunicator(application, path, headers=bob_headers)
        try:
            if (await sock.connect(timeout=5))[0]:
                break
        except Exception:
            pass
        await asyncio.sleep(0.5)
    else:
        pytest.fail("the socket did not reconnect")
    alice_sock = WebsocketCommunicator(
        application, path, headers=await database_sync_to_async(ws_headers)(alice_client, alice)
    )
    assert (await alice_sock.connect(timeout=5))[0]
    move = await database_sync_to_async(first_move)(game.pk)
    assert await database_sync_to_async(post_action)(bob_client, game.pk, move) == 200
    assert (await alice_sock.receive_json_from(timeout=5))["type"] == "changed"
    await sock.disconnect()
    await alice_sock.disconnect()
    assert await database_sync_to_async(lambda: Game.objects.get(pk=game.pk).seq)() == 3


# --- PostgreSQL restarted -------------------------------------------------------------------------------


def test_postgres_restart_requests_fail_cleanly_then_recover(tmp):
    pg = PrivatePostgres()
    try:
        pg.init()
        pg.start()
        pg.createdb("wec")
        script = Path(__file__).parent / "fault_scripts" / "pg_restart.py"
        env = child_env(database=pg.url("wec"), WEC_PG_DIR=pg.dir, WEC_PG_PORT=pg.port)
        done = subprocess.run(
            [sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=180
        )
        assert done.returncode == 0, done.stderr[-3000:]
        result = json.loads(done.stdout.strip().splitlines()[-1])
    finally:
        pg.cleanup()
    assert result["before"]["status"] == 200 and result["before"]["act_status"] == 422, result
    down = result["down"]
    assert down["status"] == 503 and down["act_status"] == 503, result
    assert down["clear"] and not down["traceback"] and down["retry_after"] == "30"
    assert result["after"]["status"] == 200 and result["after"]["act_status"] == 422
    assert result["actions"] == 0
