"""The AI's reply reaches the human's open page: a real Celery worker on the
Redis broker plays the AI's turn, and the human's game socket (real Redis
channel layer) rings when the AI ends it.  Prints how long it took (a figure,
not a speed assertion; the generous wait only stops a hung run)."""

from __future__ import annotations

import time

import pytest
from celery.contrib.testing.worker import start_worker
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connections

from games import selectors, services
from games.engines import get_engine
from wecsite.asgi import application
from wecsite.celery import app as celery_app

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def celery_worker():
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


@pytest.mark.asyncio
async def test_the_ai_reply_rings_the_humans_page(client, alice, celery_worker):
    @database_sync_to_async
    def setup():
        game = services.create_game(creator=alice, opponent="ai", color="black")
        client.force_login(alice)
        cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
        return game.pk, [
            (b"cookie", cookie.encode()),
            (b"origin", b"http://localhost"),
            (b"host", b"localhost"),
        ]

    @database_sync_to_async
    def play_turn(game_id):
        game = selectors.get_game(game_id)
        state = selectors.load_state(game)
        move = next(a for a in get_engine().legal_actions(state) if a["type"] == "move")
        services.submit_action(game_id, alice, move, expected_seq=game.seq)
        services.submit_action(game_id, alice, {"type": "end_turn"}, expected_seq=game.seq + 1)

    @database_sync_to_async
    def black_state(game_id):
        game = selectors.get_game(game_id)
        return game.to_move, selectors.seat_by_color(game, "black").version

    game_id, headers = await setup()
    comm = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)
    assert (await comm.connect(timeout=5))[0]
    for turn in range(2):
        await play_turn(game_id)
        started = time.monotonic()
        # Drain the rings until one says it is Black's turn again.
        while True:
            msg = await comm.receive_json_from(timeout=60)
            assert msg["type"] == "changed"
            to_move, version = await black_state(game_id)
            if to_move == "black" and msg["version"] == version:
                break
        print(f"AI reply {turn + 1} rang the human's page after {time.monotonic() - started:.2f} s")
    await comm.disconnect()
