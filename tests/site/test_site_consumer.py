"""The game WebSocket on the real Redis channel layer."""

import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings

from games import selectors, services
from games.engine import get_game_engine
from wecsite.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


def test_layer_is_redis():
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "channels_redis.core.RedisChannelLayer"


def session_headers(client, user):
    client.force_login(user)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    return [(b"cookie", cookie.encode()), (b"origin", b"http://localhost"), (b"host", b"localhost")]


@sync_to_async
def start_game(alice, bob):
    return services.create_game(creator=alice, opponent="user", username="bob", color="black")


@sync_to_async
def play_first_move(game_id, user):
    game = selectors.get_game(game_id)
    engine = get_game_engine()
    move = next(a for a in engine.legal_actions(selectors.load_state(game)) if a["type"] == "move")
    services.submit_action(game_id, user, move, expected_seq=game.seq)


@pytest.mark.asyncio
async def test_participants_get_changed_notices_only(client, alice, bob):
    game = await start_game(alice, bob)
    headers = await sync_to_async(session_headers)(client, bob)
    comm = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
    connected, _ = await comm.connect(timeout=5)
    assert connected
    await play_first_move(game.pk, alice)
    message = await comm.receive_json_from(timeout=5)
    assert message == {"type": "changed", "seq": 1}
    await comm.send_json_to({"type": "ping"})
    assert await comm.receive_json_from(timeout=5) == {"type": "pong"}
    await comm.disconnect()


@pytest.mark.asyncio
async def test_outsiders_and_anonymous_are_refused(client, alice, bob, carol):
    game = await start_game(alice, bob)
    headers = await sync_to_async(session_headers)(client, carol)
    comm = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
    connected, code = await comm.connect(timeout=5)
    assert not connected and code == 4403
    comm = WebsocketCommunicator(
        application, f"/ws/games/{game.pk}/", headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")]
    )
    connected, _ = await comm.connect(timeout=5)
    assert not connected


@pytest.mark.asyncio
async def test_foreign_origin_is_refused(client, alice, bob):
    game = await start_game(alice, bob)
    headers = await sync_to_async(session_headers)(client, alice)
    headers = [h for h in headers if h[0] != b"origin"] + [(b"origin", b"http://evil.example")]
    comm = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
    connected, _ = await comm.connect(timeout=5)
    assert not connected
