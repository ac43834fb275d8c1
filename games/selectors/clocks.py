"""Reads of the clocks: both seats' clocks as a page shows them, and the
seats whose deadline has passed."""

from __future__ import annotations

from dataclasses import dataclass

from games.models import Game, Seat

from .games import seat_by_color


def due_seat_ids(now) -> list[int]:
    """Seats of running games whose deadline has passed (for check_clocks;
    services.enforce_deadline re-checks each under the game's lock)."""
    return list(
        Seat.objects.filter(deadline__lte=now, game__status=Game.Status.ACTIVE)
        .order_by("deadline")
        .values_list("pk", flat=True)
    )


@dataclass
class Clock:
    color: str
    user: object
    deadline: object  # datetime or None
    running: bool
    on_vacation: bool
    # Paused by the player's vacation: the time it has left (seconds), else None.
    paused_seconds: int | None = None
    # While the player is on vacation: when it ends at the latest.
    vacation_until: object = None


def game_clocks(game: Game) -> list[Clock]:
    """Both seats' clocks, Black first: the side to move has the deadline, or
    its time left frozen while its player is on vacation."""
    clocks = []
    for color in ("black", "white"):
        seat = seat_by_color(game, color)
        if seat is None:
            continue
        active = game.status == Game.Status.ACTIVE and game.to_move == color
        running = active and seat.deadline is not None
        on_vacation = bool(seat.user and seat.user.on_vacation)
        clocks.append(
            Clock(
                color=color,
                user=seat.user,
                deadline=seat.deadline if running else None,
                running=running,
                on_vacation=on_vacation,
                paused_seconds=seat.paused_seconds if active else None,
                vacation_until=seat.user.vacation_ends if on_vacation else None,
            )
        )
    return clocks
