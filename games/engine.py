"""The one place the site reaches the rules engine: the registry in games.rules
(through games.ui.site_engine, which puts a site adapter in front of an engine
that needs one)."""

from django.conf import settings


def get_game_engine(name: str | None = None):
    from games.ui import site_engine

    return site_engine(name or settings.WEC_ENGINE_NAME)
