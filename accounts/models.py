import zoneinfo

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


def default_vacation_days() -> int:
    return int(settings.WEC_VACATION_DAYS_PER_YEAR)


def current_year() -> int:
    return timezone.now().year


def timezone_choices():
    return [(name, name) for name in sorted(zoneinfo.available_timezones())]


class User(AbstractUser):
    """A site user.  `is_ai` marks the server's own AI player."""

    display_name = models.CharField(_("display name"), max_length=60, blank=True)
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    is_ai = models.BooleanField(_("AI player"), default=False)
    # Correspondence: vacation (see docs/site.md, "Clocks and vacation").
    on_vacation = models.BooleanField(_("on vacation"), default=False)
    vacation_days = models.PositiveSmallIntegerField(_("vacation days left"), default=default_vacation_days)
    # The year whose allowance the balance holds (topped up on 1 January, UTC).
    vacation_year = models.PositiveSmallIntegerField(_("vacation year"), default=current_year)
    # The end of the vacation time already paid for: one charged day covers
    # all of the user's games until then.
    vacation_paid_until = models.DateTimeField(_("vacation paid until"), null=True, blank=True)
    email_on_turn = models.BooleanField(_("email me when it is my turn"), default=False)

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")

    def __str__(self):
        return self.display_name or self.username

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username
