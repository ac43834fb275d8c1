"""WebSocket: tells a game's participant that their view of it changed.

The socket carries only {"type": "changed", "version": V}, where V is the
player's own view version (see Seat.version); each page then asks for its own
view over HTTP, so no hidden information ever travels here.  Each colour
listens to its own group and is rung only when its own view changed: an
enemy's unseen action sends nothing, so neither the content nor the count nor
the timing of the frames depends on it."""

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from wecsite.inputs import JSONInputError, read_json

from .models import Seat
from .services.events import group_name, lobby_group_name, user_group_name

MAX_FRAME_CHARS = 1000
MAX_FRAME_DEPTH = 4


@database_sync_to_async
def seat_color(game_id: int, user) -> str | None:
    """The colour `user` plays in the game, or None for anyone else."""
    if user is None or not user.is_authenticated:
        return None
    return Seat.objects.filter(game_id=game_id, user_id=user.pk).values_list("color", flat=True).first()


class _GroupConsumer(AsyncJsonWebsocketConsumer):
    """A socket that listens to one Channels group and only answers pings."""

    group: str | None = None

    async def disconnect(self, code):
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        # The browser only ever sends small JSON pings.  Anything else (binary,
        # not JSON, absurdly deep or long) is dropped here instead of raising
        # inside the consumer, which would kill the socket.
        if text_data is None:
            return
        try:
            content = read_json(text_data, max_chars=MAX_FRAME_CHARS, max_depth=MAX_FRAME_DEPTH)
        except JSONInputError:
            return
        await self.receive_json(content)

    async def receive_json(self, content, **kwargs):
        # The browser has nothing to say; moves go over HTTP.
        if isinstance(content, dict) and content.get("type") == "ping":
            await self.send_json({"type": "pong"})


class GameConsumer(_GroupConsumer):
    async def connect(self):
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.group = None
        color = await seat_color(self.game_id, self.scope.get("user"))
        if color is None:  # spectators do not exist (yet): only the two players
            await self.close(code=4403)
            return
        self.group = group_name(self.game_id, color)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def game_changed(self, event):
        await self.send_json({"type": "changed", "version": int(event["version"])})


class NotificationConsumer(_GroupConsumer):
    """`/ws/notifications/`: the signed-in user's own notices.  Each message
    says only what kind of thing happened in which game:
    {"type": "notify", "kind": "your_turn" | "new_game" | "game_over", "game": N}."""

    async def connect(self):
        self.group = None
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.group = user_group_name(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        # Also the lobby: open seeks are public, and the message says only
        # that they changed ({"type": "lobby"}).
        await self.channel_layer.group_add(lobby_group_name(), self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await super().disconnect(code)
        if self.group:
            await self.channel_layer.group_discard(lobby_group_name(), self.channel_name)

    async def user_notify(self, event):
        await self.send_json({"type": "notify", "kind": str(event["kind"]), "game": int(event["game"])})

    async def lobby_changed(self, event):
        await self.send_json({"type": "lobby"})


class NoRouteConsumer(AsyncJsonWebsocketConsumer):
    """Every WebSocket path that names no socket (`/ws/games/abc/`): the
    handshake is refused, as a page that does not exist is a 404, instead of
    the router's "No route found" error (an HTTP 500)."""

    async def connect(self):
        await self.close(code=4404)
