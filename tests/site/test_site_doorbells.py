"""Doorbells sent by each process's background thread (games/doorbells.py):
after commit only, in the order rung, and the request does not send them."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.db import transaction

from games import doorbells, selectors, services
from games.engine import get_game_engine
from wecsite.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


def session_headers(client, user):
    client.force_login(user)
    cookie = f"{django_settings.SESSION_COOKIE_NAME}={client.cookies[django_settings.SESSION_COOKIE_NAME].value}"
    return [(b"cookie", cookie.encode()), (b"origin", b"http://localhost"), (b"host", b"localhost")]


@database_sync_to_async
def start(alice, bob):
    return services.create_game(creator=alice, opponent="user", username="bob", color="black")


@database_sync_to_async
def rolled_back_move(game_id, alice):
    """A Move whose transaction rolls back after the service returned."""
    game = selectors.get_game(game_id)
    move = next(a for a in get_game_engine().legal_actions(selectors.load_state(game)) if a["type"] == "move")
    with pytest.raises(RuntimeError), transaction.atomic():
        services.submit_action(game_id, alice, move, expected_seq=game.seq)
        raise RuntimeError("rolled back")
    return doorbells.flush(5)


@database_sync_to_async
def play(game_id, alice, actions: int) -> tuple[list[int], bool]:
    """Alice's actions (Moves and End Turns); her own view versions after each."""
    engine = get_game_engine()
    versions = []
    for _ in range(actions):
        game = selectors.get_game(game_id)
        if game.to_move != "black":
            break
        legal = engine.legal_actions(selectors.load_state(game))
        action = next((a for a in legal if a["type"] == "move"), legal[0])
        services.submit_action(game_id, alice, action, expected_seq=game.seq)
        versions.append(selectors.seat_by_color(selectors.get_game(game_id), "black").version)
    return versions, doorbells.flush(5)


@pytest.mark.asyncio
async def test_background_doorbells_ring_after_commit_in_order(client, alice, bob, settings, monkeypatch):
    settings.WEC_DOORBELLS_IN_BACKGROUND = True
    sent_here = []
    # The request's own thread never sends a doorbell: only the doorbell thread does.
    real = doorbells.async_to_sync
    monkeypatch.setattr(doorbells, "async_to_sync", lambda fn: sent_here.append(fn) or real(fn))
    game = await start(alice, bob)
    comm = WebsocketCommunicator(
        application, f"/ws/games/{game.pk}/", headers=await database_sync_to_async(session_headers)(client, alice)
    )
    connected, _ = await comm.connect(timeout=5)
    assert connected
    assert await rolled_back_move(game.pk, alice)
    assert await comm.receive_nothing(timeout=0.5)  # nothing announced that did not land
    versions, flushed = await play(game.pk, alice, 2)
    assert flushed and len(versions) == 2
    got = [await comm.receive_json_from(timeout=5) for _ in versions]
    assert got == [{"type": "changed", "version": v} for v in versions]
    assert sent_here == []
    await comm.disconnect()


def test_doorbells_are_sent_in_the_caller_without_the_background_thread(settings, monkeypatch):
    settings.WEC_DOORBELLS_IN_BACKGROUND = False
    sent = []

    class Layer:
        async def group_send(self, group, message):
            sent.append((group, message))

    monkeypatch.setattr(doorbells, "get_channel_layer", lambda: Layer())
    doorbells.ring("g", {"type": "x"})
    assert sent == [("g", {"type": "x"})]
