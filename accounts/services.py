"""Writes to accounts."""

from __future__ import annotations

from datetime import date

from django.conf import settings
from django.utils import timezone

from .models import User


def top_up_vacation(today: date | None = None) -> int:
    """The yearly vacation allowance: every user whose balance belongs to an
    earlier year gets WEC_VACATION_DAYS_PER_YEAR days (unused days do not carry
    over).  One conditional UPDATE, so it may run any number of times, even
    concurrently.  Returns the number of users topped up."""
    year = (today or timezone.now().date()).year
    return User.objects.filter(vacation_year__lt=year).update(
        vacation_days=int(settings.WEC_VACATION_DAYS_PER_YEAR), vacation_year=year
    )
