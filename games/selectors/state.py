"""Reads of a game's engine state and its legal actions."""

from __future__ import annotations

from games.models import Game
from games.store import states

# The legal actions of a state, made once per state object: the memo lives
# with the process's cache of committed states (games.store.states).
legal_actions = states.legal_actions


def load_state(game: Game, upto: int | None = None):
    """The engine game after action `upto` (default: the latest).  The latest
    comes from the game's current-state row (or this process's copy of it), so
    it costs the same however long the game; an earlier one from the newest
    snapshot at or before it and a replay of the actions after (see
    games.store.states)."""
    if upto is None or upto == game.seq:
        return states.load_current(game)
    return states.load_at(game, upto)
