from django.urls import path, re_path

from .consumers import GameConsumer, NoRouteConsumer, NotificationConsumer

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/notifications/", NotificationConsumer.as_asgi()),
    # Last: any other path is refused at the handshake (a non-numeric game id too).
    re_path(r"", NoRouteConsumer.as_asgi()),
]
