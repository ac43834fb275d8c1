"""The one place the site reaches the rules engine.

The site always goes through the registry: `games.rules.get_engine(name)`.
`settings.WEC_ENGINE_MODULE` (empty in normal use) may name a module with
the same facade, which lets tests run before the engine exists.
"""

import importlib

from django.conf import settings


def get_game_engine(name: str | None = None):
    override = getattr(settings, "WEC_ENGINE_MODULE", "")
    if override:
        return importlib.import_module(override)
    from games.rules import get_engine

    return get_engine(name or settings.WEC_ENGINE_NAME)


def illegal_action_types(engine) -> tuple[type[BaseException], ...]:
    """Exceptions meaning 'that action is not allowed' (IllegalAction is a ValueError)."""
    illegal = getattr(engine, "IllegalAction", ValueError)
    return (illegal, ValueError)
