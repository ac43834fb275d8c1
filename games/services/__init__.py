"""Writes.  Every change to a game goes through here.

The modules hold the writes by subject (`lifecycle`: creating, accepting,
withdrawing, resigning, ending a game, the AI player; `submit`: an action;
`deadlines`; `takeback`; `seen`; `notifications`), on the shared parts
below them (`errors`, `events`: groups, doorbells and notifications,
`versions`: the view versions, `clocks`, `locks`, `signals`).  Side effects
(WebSocket messages, Celery tasks) are only sent from
`transaction.on_commit`, so nothing is announced that did not land.  This
package gives the public names in one place, so
`from games import services; services.submit_action(...)` reads as before.
"""

from . import takeback
from .clocks import bank_after_left, bank_after_turn
from .deadlines import DeadlineOutcome, enforce_deadline
from .errors import (
    EngineFault,
    GameError,
    GameNotActive,
    IllegalMove,
    InvalidRequest,
    MalformedAction,
    NotYourGame,
    NotYourTurn,
    StaleState,
)
from .events import group_name, lobby_group_name, user_group_name
from .lifecycle import accept_seek, cancel_seek, create_game, ensure_ai_player, get_ai_user, resign
from .notifications import mark_notifications_read, open_game
from .seen import note_board_shown
from .submit import locked_game, submit_action
from .versions import settle_views

__all__ = [
    "DeadlineOutcome",
    "EngineFault",
    "GameError",
    "GameNotActive",
    "IllegalMove",
    "InvalidRequest",
    "MalformedAction",
    "NotYourGame",
    "NotYourTurn",
    "StaleState",
    "accept_seek",
    "bank_after_left",
    "bank_after_turn",
    "cancel_seek",
    "create_game",
    "enforce_deadline",
    "ensure_ai_player",
    "get_ai_user",
    "group_name",
    "lobby_group_name",
    "locked_game",
    "mark_notifications_read",
    "note_board_shown",
    "open_game",
    "resign",
    "settle_views",
    "submit_action",
    "takeback",
    "user_group_name",
]
