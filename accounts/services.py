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


def set_language(user, language: str) -> None:
    """Remember a signed-in user's interface language ("" = the browser's)."""
    from django.conf import settings

    if language and language not in dict(settings.LANGUAGES):
        raise ValueError(language)
    User.objects.filter(pk=user.pk).update(language=language)
    user.language = language


def detect_time_zone(user, zone: str) -> bool:
    """The browser's zone on a first visit: kept only while the user still has
    the default (UTC), so a zone chosen in the profile is never overwritten."""
    import zoneinfo

    if zone not in zoneinfo.available_timezones() or user.time_zone != "UTC":
        return False
    User.objects.filter(pk=user.pk, time_zone="UTC").update(time_zone=zone)
    user.time_zone = zone
    return True
