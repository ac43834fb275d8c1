"""Marshal's own routes, included by games/urls.py through the registry."""

from django.urls import path

from . import views

urlpatterns = [
    path("games/<int:game_id>/setup-favourite/", views.save_favourite, name="setup_favourite"),
]
