"""What a player may take back in a friendly game: the take-back and undo
controls the game page shows (the writes are games.services.takeback)."""

from __future__ import annotations

from dataclasses import dataclass

from games.engines import UndoEngine, undo_engine
from games.models import Game, Seat


def undo_engine_of(game: Game) -> UndoEngine | None:
    """The game's engine when the game may take actions back: friendly, and
    an engine that can (games.engines.UndoEngine); else None."""
    return None if game.competitive else undo_engine(game.engine)


@dataclass
class Controls:
    """What the take-back partial shows one player."""

    can_take_back: bool
    can_request: bool
    requested_by_me: bool
    requested_by_opponent: bool
    can_grant: bool


def controls(game: Game, seat: Seat | None, state) -> Controls | None:
    """The player's take-back and undo controls, or None (competitive games,
    spectators, games not in progress).  Uses only what the player sees:
    whose turn it is, its own actions this Turn, and the standing request."""
    engine = undo_engine_of(game)
    if seat is None or game.status != Game.Status.ACTIVE or engine is None:
        return None
    my_turn = game.to_move == seat.color
    opponent = next((s for s in game.seats.all() if s.pk != seat.pk), None)
    against_ai = opponent is not None and opponent.user is not None and opponent.user.is_ai
    return Controls(
        can_take_back=my_turn and engine.actions_this_turn(state) > 0,
        can_request=(
            not my_turn and not game.undo_request and not against_ai and engine.turn_count(state) >= 1
        ),
        requested_by_me=game.undo_request == seat.color,
        requested_by_opponent=bool(game.undo_request) and game.undo_request != seat.color,
        can_grant=bool(game.undo_request) and game.undo_request != seat.color and my_turn,
    )
