"""The one place the site reaches the rules engine: the registry in games.rules."""

from django.conf import settings


def get_game_engine(name: str | None = None):
    from games.rules import get_engine

    return get_engine(name or settings.WEC_ENGINE_NAME)
