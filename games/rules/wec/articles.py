"""Actions besides the Move, and what happens between Turns (engine part 2).

Part 1 of the engine knows only Moves: every other action type is refused with
a clear message, and nothing happens between Turns yet.
"""

from __future__ import annotations

from typing import Any

from .state import Game


def apply_action(game: Game, action: dict[str, Any]) -> Game:
    from .actions import IllegalAction

    raise IllegalAction(f"the {action.get('type')} action is not available in this version")


def end_of_turn(game: Game, events: list[dict[str, Any]]) -> None:
    """Advance projectiles and transports and count down stun and rate-of-fire
    counters when a Turn ends (engine part 2)."""
