import zoneinfo
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .names import name_key


def default_vacation_days() -> int:
    return int(settings.WEC_VACATION_DAYS_PER_YEAR)


def current_year() -> int:
    return timezone.now().year


def timezone_choices():
    return [(name, name) for name in sorted(zoneinfo.available_timezones())]


class User(AbstractUser):
    """A site user.  `is_ai` marks the server's own AI player."""

    display_name = models.CharField(_("display name"), max_length=60, blank=True)
    # The folded forms of the username and display name (accounts.names.name_key),
    # kept by save(): one user per display key (a unique index), and the forms
    # keep a new name's key off every other user's keys of either kind.
    username_key = models.CharField(
        _("folded username"), max_length=255, blank=True, db_index=True, editable=False
    )
    display_key = models.CharField(_("folded display name"), max_length=255, blank=True, editable=False)
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    is_ai = models.BooleanField(_("AI player"), default=False)
    # Correspondence: vacation (see docs/playing.md, "Time-outs and vacation").
    # Automatic vacation days: when a clock of the user's runs out, a day of
    # the allowance is taken instead of losing on time (called `on_vacation`
    # before the explicit vacation below existed).
    auto_vacation = models.BooleanField(_("automatic vacation days"), default=False)
    vacation_days = models.PositiveSmallIntegerField(_("vacation days left"), default=default_vacation_days)
    # The year whose allowance the balance holds (topped up on 1 January, UTC).
    vacation_year = models.PositiveSmallIntegerField(_("vacation year"), default=current_year)
    # The end of the vacation time already paid for: one charged day covers
    # all of the user's games until then (automatic days and vacations alike).
    vacation_paid_until = models.DateTimeField(_("vacation paid until"), null=True, blank=True)
    # An explicit vacation (games.vacation): set while the user is on
    # vacation; every running clock of theirs is paused meanwhile.
    vacation_started = models.DateTimeField(_("on vacation since"), null=True, blank=True)
    # The vacation's planned end (None: until the user ends it or the
    # allowance runs out).
    vacation_until = models.DateTimeField(_("vacation planned until"), null=True, blank=True)
    email_on_turn = models.BooleanField(_("email me when it is my turn"), default=False)
    # The club: one email a day listing what happened, instead of
    # one per notification.
    email_digest = models.BooleanField(_("send one daily digest instead of an email per move"), default=False)
    # The interface language the user chose ("" = the browser's).
    language = models.CharField(_("language"), max_length=8, blank=True, default="")
    # Glicko-2 rating for competitive games (Glickman's scale: 1500 / 350 / 0.06).
    rating = models.FloatField(_("rating"), default=1500.0)
    rating_deviation = models.FloatField(_("rating deviation"), default=350.0)
    rating_volatility = models.FloatField(_("rating volatility"), default=0.06)

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        constraints = [
            models.UniqueConstraint(
                fields=["display_key"],
                condition=~models.Q(display_key=""),
                name="accounts_user_display_key_unique",
            ),
        ]

    def __str__(self):
        return self.shown_name

    def save(self, *args, **kwargs):
        self.username_key = name_key(self.username)
        self.display_key = name_key(self.display_name) if self.display_name else ""
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and {"username", "display_name"} & set(update_fields):
            kwargs["update_fields"] = set(update_fields) | {"username_key", "display_key"}
        super().save(*args, **kwargs)

    @property
    def on_vacation(self) -> bool:
        """On an explicit vacation now (every clock of the user's is paused)."""
        return self.vacation_started is not None

    @property
    def vacation_ends(self) -> datetime | None:
        """When the vacation ends at the latest: its planned end, or when the
        allowance runs out (the time paid for plus a day per day left), the
        earlier of the two; None when not on vacation.  Both players of a game
        see it ("on vacation until …")."""
        if self.vacation_started is None:
            return None
        paid = self.vacation_paid_until or self.vacation_started
        ends = paid + timedelta(days=int(self.vacation_days))
        if self.vacation_until is not None:
            ends = min(ends, self.vacation_until)
        return ends

    @property
    def shown_name(self) -> str:
        """How the user appears to others: the display name with the username,
        which is unique and cannot be chosen to look like someone else's, so a
        display name alone never stands for an identity."""
        if self.display_name:
            return f"{self.display_name} (@{self.username})"
        return self.username


class RatingChange(models.Model):
    """A user's rating after one rated game ended (the profile's plot)."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="rating_changes")
    game_id = models.PositiveIntegerField(_("game"))
    rating = models.FloatField(_("rating"))
    rating_deviation = models.FloatField(_("rating deviation"))
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["user", "created", "pk"]
        constraints = [models.UniqueConstraint(fields=["user", "game_id"], name="one_rating_change_per_game")]

    def __str__(self):
        return f"{self.user_id}@{self.game_id}={self.rating:.0f}"
