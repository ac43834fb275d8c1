"""Notifications read: the ones of a game a player opens, or all of them."""

from __future__ import annotations

from games.models import Game, Notification
from games.selectors import game_from_rows
from games.store import sql


def open_game(game_id: int, user) -> Game:
    """What a player's board fetch reads and writes, in one statement: the
    game with its seats and their users (selectors.get_game), and `user`'s
    unread notifications of it marked read (the page shows the game).  A
    stranger has no notifications of the game, so marks nothing; the caller
    still checks the seat.  Raises Game.DoesNotExist."""
    return game_from_rows(sql.open_game_rows(user.pk, game_id), game_id)


def mark_notifications_read(user, game_id: int | None = None) -> int:
    """Mark the user's unread notifications read (those of one game, or all)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return 0
    if game_id is not None:
        return sql.mark_game_notifications_read(user.pk, game_id)
    return Notification.objects.filter(user=user, read=False).update(read=True)
