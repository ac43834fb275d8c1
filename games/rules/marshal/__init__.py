"""Marshal and Spy: the rules engine's public facade.

A hidden-rank game of the Stratego family, after the seed
shared/seeds/002_87afa212f8c1bebd.txt (its rules, l. 2-22). Everything a caller needs is here; the
format of every value is in docs/engine-api.md ("Marshal and Spy engine") and
the open questions the seed leaves are settled in docs/rulings.md. A
:class:`Game` is immutable: ``apply`` returns a new one. All values crossing
this facade are plain JSON data. The package is pure: no Django, no I/O, no
clock, and randomness only from ``random.Random(n)`` with numbers the caller
passes.

>>> g = new_game(seed=1)
>>> g = apply(g, {"type": "setup", "color": "black", "random": 7})
>>> g = apply(g, {"type": "setup", "color": "white", "random": 8})
>>> to_move(g)
'black'
"""

from __future__ import annotations

from typing import Any

from .constants import ARMY, RANKS, TYPES, fight
from .engine import IllegalAction, apply, default_arrangement, legal_moves, new_game
from .options import DEFAULTS as DEFAULT_OPTIONS
from .scenario import dump_scenario, load_scenario
from .state import Game
from .view import history, view

__all__ = [
    "ARMY",
    "DEFAULT_OPTIONS",
    "RANKS",
    "TYPES",
    "Game",
    "IllegalAction",
    "apply",
    "choose_action",
    "dump_scenario",
    "fight",
    "history",
    "legal_actions",
    "load_scenario",
    "new_game",
    "outcome",
    "to_move",
    "view",
]

NAME = "marshal"


def legal_actions(game: Game) -> list[dict[str, Any]]:
    """During setup, one ``setup`` action with the default arrangement for each
    colour still to set up (any other valid arrangement is accepted too); in
    play, every move the side to move may make now; empty once over."""
    if game.phase == "setup":
        return [
            {"type": "setup", "color": c, "pieces": default_arrangement(game, c)}
            for c, done in zip(("black", "white"), game.ready, strict=True)
            if not done
        ]
    return legal_moves(game)


def outcome(game: Game) -> dict[str, Any] | None:
    """None while the game runs, else ``{"winner": color or None, "reason": str}``."""
    if game.result is None:
        return None
    return {"winner": game.result[0], "reason": game.result[1]}


def to_move(game: Game) -> str | None:
    """The colour to move; None during setup and once over."""
    return game.to_move if game.phase == "play" else None


def choose_action(game_or_view: Any, color: str, rng_seed: int = 0) -> dict[str, Any]:
    """The AI's action for ``color`` (see ai.py); it reads only ``color``'s view."""
    from .ai import choose_action as _choose

    return _choose(game_or_view, color, rng_seed)
