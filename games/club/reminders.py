"""Reminders: a player whose deadline comes within WEC_REMINDER_HOURS hears of
it once per turn (Celery beat's send_reminders, hourly)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.models import Game, Notification, Seat
from games.services import events


def send_reminders(now=None) -> int:
    """Remind each player whose deadline falls within WEC_REMINDER_HOURS (in
    the site and, as they chose, by email), once per turn.  The moment depends
    only on the deadline, which both players see."""
    now = now or timezone.now()
    horizon = now + timedelta(hours=float(settings.WEC_REMINDER_HOURS))
    sent = 0
    due = (
        Seat.objects.filter(deadline__gt=now, deadline__lte=horizon, game__status=Game.Status.ACTIVE)
        .select_related("user", "game")
        .exclude(user__isnull=True)
        .exclude(user__is_ai=True)
    )
    for seat in due:
        game = seat.game
        if seat.color != game.to_move:
            continue
        with transaction.atomic():
            already = Notification.objects.filter(
                user=seat.user, game=game, kind=Notification.Kind.REMINDER, created__gte=game.turn_started
            ).exists()
            if already:
                continue
            events.notify(game, seat.user, Notification.Kind.REMINDER)
            sent += 1
    return sent
