"""Reads of a user's notifications."""

from __future__ import annotations

from django.db.models import Prefetch

from games.models import Notification, Seat
from games.notifications import notification_text


def unread_notification_count(user) -> int:
    if user is None or not getattr(user, "is_authenticated", False):
        return 0
    return Notification.objects.filter(user=user, read=False).count()


def user_notifications(user, limit: int = 100) -> list[Notification]:
    """The user's latest notifications, newest first, each with `.text`."""
    notes = list(
        Notification.objects.filter(user=user)
        .select_related("game")
        .prefetch_related(Prefetch("game__seats", queryset=Seat.objects.select_related("user")))
        .order_by("-created", "-pk")[:limit]
    )
    for note in notes:
        other = next((s for s in note.game.seats.all() if s.user_id != user.pk), None)
        name = other.user.shown_name if other and other.user else ""
        note.text = notification_text(note.kind, note.game_id, name)
    return notes
