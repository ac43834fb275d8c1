"""Rules engines for the games Wec Online hosts.

Everything below ``games.rules`` is pure Python: no Django, no I/O, no clock, no
randomness. The site reaches an engine only through :func:`get_engine`, so a
second game is added by writing its package and registering it here, without
touching the site.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

#: engine name -> module path. Each module exposes the facade described in
#: docs/engine-api.md (new_game, legal_actions, apply, view, ...).
REGISTRY: dict[str, str] = {
    "wec": "games.rules.wec",
    "marshal": "games.rules.marshal",
}


def get_engine(name: str) -> ModuleType:
    """Return the engine module registered under ``name``.

    Raises ``KeyError`` naming the unknown engine.
    """
    try:
        path = REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown game engine {name!r}; known: {sorted(REGISTRY)}") from None
    return import_module(path)


def register(name: str, module_path: str) -> None:
    """Register another engine (used by tests and future games)."""
    REGISTRY[name] = module_path
