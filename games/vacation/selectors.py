"""Reads of the explicit vacation."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Q


def due_vacation_user_ids(now) -> list[int]:
    """Users on vacation with a day due or the planned end reached (for
    check_clocks; games.vacation.services.settle_vacation re-checks each under lock)."""
    return list(
        get_user_model()
        .objects.filter(vacation_started__isnull=False)
        .filter(Q(vacation_paid_until__isnull=True) | Q(vacation_paid_until__lte=now) | Q(vacation_until__lte=now))
        .order_by("pk")
        .values_list("pk", flat=True)
    )
