"""Deadlines: a seat whose time ran out either spends the player's automatic
vacation days (the deadline moves on) or loses on time (Celery beat's
check_clocks, games.tasks)."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.models import Game, Seat, other_color

from . import lifecycle, versions

logger = logging.getLogger(__name__)


class DeadlineOutcome:
    BUSY = "busy"  # someone else holds the game row: try again next time
    NOT_DUE = "not_due"  # nothing to do (already handled, moved in time, game over)
    VACATION = "vacation"  # vacation time covered it: the deadline moved on
    TIMEOUT = "timeout"  # the player lost on time


def _vacation_cover(user, deadline: datetime, now: datetime) -> datetime | None:
    """The end of the user's paid vacation time covering `now`, charging whole
    days as needed (the user row is locked by the caller), or None when the
    balance cannot cover `now`.

    One charged day covers *all* the user's games: the paid time runs from
    `vacation_paid_until` (or from the deadline that passed, if later) a day
    at a time."""
    day = timedelta(days=1)
    paid = user.vacation_paid_until
    if paid is None or paid < deadline:
        paid = deadline
    charged = 0
    while paid <= now and user.vacation_days > 0:
        user.vacation_days -= 1
        paid += day
        charged += 1
    if charged:
        user.vacation_paid_until = paid
        user.save(update_fields=["vacation_days", "vacation_paid_until"])
    return paid if paid > now else None


def enforce_deadline(seat_id: int, now: datetime | None = None) -> str:
    """Deal with one seat whose deadline may have passed (Celery beat's
    check_clocks calls this for every due seat).

    Under the game row lock (the same lock submit_action takes; a row another
    worker or a player holds is skipped, not waited for) and re-reading the
    seat: if its deadline really passed while it is that seat's turn, a player
    with automatic vacation days (`auto_vacation`) and time paid or days left
    gets the deadline moved to the end of the paid vacation time; anyone else loses on time (result
    {"winner": other colour, "reason": "timeout"}; the engine state is not
    changed).  Running it twice, or twice at once, changes nothing more."""
    now = now or timezone.now()
    User = get_user_model()
    with transaction.atomic():
        game_id = Seat.objects.filter(pk=seat_id).values_list("game_id", flat=True).first()
        if game_id is None:
            return DeadlineOutcome.NOT_DUE
        game = Game.objects.select_for_update(skip_locked=True).filter(pk=game_id).first()
        if game is None:
            return DeadlineOutcome.BUSY
        seats = list(Seat.objects.select_related("user").filter(game=game))
        seat = next(s for s in seats if s.pk == seat_id)
        if (
            game.status != Game.Status.ACTIVE
            or seat.deadline is None
            or seat.deadline > now
            or seat.color != game.to_move
        ):
            return DeadlineOutcome.NOT_DUE
        user = User.objects.select_for_update().get(pk=seat.user_id) if seat.user_id else None
        if user is not None and user.auto_vacation:
            until = _vacation_cover(user, seat.deadline, now)
            if until is not None:
                seat.deadline = until
                Seat.objects.filter(pk=seat.pk).update(deadline=until)
                if game.has_bank:
                    # The bank ran out; the vacation pays for the overrun.
                    seat.bank_seconds = 0
                    Seat.objects.filter(pk=seat.pk).update(bank_seconds=0)
                versions.settle_views(game, seats)  # both clocks show the new deadline
                logger.info("game %s: %s on vacation until %s", game_id, seat.color, until)
                return DeadlineOutcome.VACATION
        lifecycle.finish(game, seats, {"winner": other_color(seat.color), "reason": "timeout"})
        logger.info("game %s: %s lost on time", game_id, seat.color)
        return DeadlineOutcome.TIMEOUT
