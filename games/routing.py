from django.urls import path

from .consumers import GameConsumer, NotificationConsumer

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/notifications/", NotificationConsumer.as_asgi()),
]
