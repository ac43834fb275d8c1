"""A game's row locked for a write, and the player's own seat in it."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.models import Game, Seat

from .errors import NotYourGame


def locked(game_id: int, lock_seats: bool = False) -> tuple[Game, list[Seat]]:
    """The game row, locked FOR UPDATE for this transaction, and its seats
    with their users (the seat rows locked too with `lock_seats`).  Raises
    NotYourGame for a game that does not exist."""
    try:
        game = Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise NotYourGame(_("There is no such game.")) from None
    seats = Seat.objects.select_related("user")
    if lock_seats:
        seats = seats.select_for_update(of=("self",))
    return game, list(seats.filter(game=game))


def player_seat(seats: list[Seat], user) -> Seat:
    """`user`'s seat among `seats`; NotYourGame when they do not play."""
    seat = next((s for s in seats if user is not None and s.user_id == getattr(user, "pk", None)), None)
    if seat is None:
        raise NotYourGame(_("You are not playing in this game."))
    return seat
