"""The game WebSocket on the real Redis channel layer."""

import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings

from games import selectors, services
from games.engines import get_engine
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
    engine = get_engine()
    move = next(a for a in engine.legal_actions(selectors.load_state(game)) if a["type"] == "move")
    services.submit_action(game_id, user, move, expected_seq=game.seq)


@sync_to_async
def end_turn(game_id, user):
    game = selectors.get_game(game_id)
    services.submit_action(game_id, user, {"type": "end_turn"}, expected_seq=game.seq)


@pytest.mark.asyncio
async def test_participants_get_changed_notices_only(client, alice, bob):
    game = await start_game(alice, bob)
    headers = await sync_to_async(session_headers)(client, bob)
    comm = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
    connected, _ = await comm.connect(timeout=5)
    assert connected
    version = await sync_to_async(lambda: selectors.get_game(game.pk).seats.get(color="white").version)()
    await play_first_move(game.pk, alice)
    # Black's Move is visible to White only if White can see it; whatever
    # happens, White hears its own view version, never the action count.
    await end_turn(game.pk, alice)
    messages = [await comm.receive_json_from(timeout=5)]
    while not await comm.receive_nothing(timeout=1):
        messages.append(await comm.receive_json_from(timeout=1))
    assert all(m["type"] == "changed" and set(m) == {"type", "version"} for m in messages)
    # One ring per change of White's view, numbered by White's own versions.
    now = await sync_to_async(lambda: selectors.get_game(game.pk).seats.get(color="white").version)()
    assert [m["version"] for m in messages] == list(range(version + 1, now + 1))
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


IDLE_SECONDS = 65


@pytest.mark.asyncio
async def test_idle_sockets_stay_open_for_a_minute(client, alice, bob):
    """An idle game socket and an idle notification socket, on the real Redis
    layer, stay open for over a minute: the layer's blocking read outlives the
    Redis client's read timeout (channels_redis#422), so no 1011 and no need to
    reconnect.  Then both still answer and still ring."""
    game = await start_game(alice, bob)
    headers = await sync_to_async(session_headers)(client, bob)
    game_comm = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
    note_comm = WebsocketCommunicator(application, "/ws/notifications/", headers=headers)
    assert (await game_comm.connect(timeout=5))[0]
    assert (await note_comm.connect(timeout=5))[0]
    # Nothing at all arrives while idle (a crash of the consumer would end
    # its future with the Redis TimeoutError, a close would be an output).
    assert await game_comm.receive_nothing(timeout=IDLE_SECONDS, interval=0.5)
    assert await note_comm.receive_nothing(timeout=0.1)
    for comm in (game_comm, note_comm):
        assert not comm.future.done(), "the consumer ended while idle"
        await comm.send_json_to({"type": "ping"})
        assert await comm.receive_json_from(timeout=5) == {"type": "pong"}
    # And the same sockets still get their doorbells.
    await play_first_move(game.pk, alice)
    await end_turn(game.pk, alice)
    assert (await game_comm.receive_json_from(timeout=5))["type"] == "changed"
    assert (await note_comm.receive_json_from(timeout=5))["kind"] == "your_turn"
    await game_comm.disconnect()
    await note_comm.disconnect()
