"""The AI plays through a real Celery worker on the Redis broker (not eager)."""

import time

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.db import connections

from games import services
from games.models import Game, GameAction
from wecsite.celery import app as celery_app

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def celery_worker():
    assert not celery_app.conf.task_always_eager
    assert celery_app.conf.broker_url.startswith("redis://")
    with start_worker(
        celery_app,
        pool="solo",
        concurrency=1,
        perform_ping_check=False,
        loglevel="WARNING",
        shutdown_timeout=20,
    ) as worker:
        yield worker
    connections.close_all()


def wait_for(predicate, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def test_worker_plays_the_ai_turn(celery_worker, alice):
    assert settings.CELERY_BROKER_URL == settings.REDIS_URL
    game = services.create_game(creator=alice, opponent="ai", color="white")  # the AI is Black and moves first
    assert wait_for(lambda: Game.objects.get(pk=game.pk).to_move == "white"), "the AI did not play"
    actions = list(GameAction.objects.filter(game=game).order_by("seq"))
    assert actions[-1].action == {"type": "end_turn"}
    assert any(a.action["type"] == "move" for a in actions)
    assert all(a.seat.user.is_ai for a in actions)
