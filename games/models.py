from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Color(models.TextChoices):
    BLACK = "black", _("Black")
    WHITE = "white", _("White")


def other_color(color: str) -> str:
    return Color.WHITE if color == Color.BLACK else Color.BLACK


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Open seek")
        ACTIVE = "active", _("In progress")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    engine = models.CharField(_("engine"), max_length=32, default="wec")
    options = models.JSONField(_("options"), default=dict, blank=True)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.ACTIVE)
    # Number of actions applied so far (the seq of the last GameAction, 0 at the start).
    seq = models.PositiveIntegerField(_("last action number"), default=0)
    to_move = models.CharField(_("to move"), max_length=8, choices=Color.choices, default=Color.BLACK)
    result = models.JSONField(_("result"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["-updated"]
        indexes = [models.Index(fields=["status", "-updated"])]

    def __str__(self):
        return f"Game {self.pk} ({self.engine}, {self.status})"

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    color = models.CharField(_("color"), max_length=8, choices=Color.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "color"], name="unique_seat_color")]
        ordering = ["game", "color"]

    def __str__(self):
        return f"{self.game_id}:{self.color}={self.user_id}"


class GameAction(models.Model):
    """Append-only log of every action, numbered 1, 2, 3... per game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField(_("number"))
    seat = models.ForeignKey(Seat, on_delete=models.PROTECT, related_name="actions")
    action = models.JSONField(_("action"))
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="unique_action_seq")]
        ordering = ["game", "seq"]

    def __str__(self):
        return f"{self.game_id}#{self.seq}"


class Snapshot(models.Model):
    """The engine's dump_scenario() after action `seq` (0 = the start)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="snapshots")
    seq = models.PositiveIntegerField(_("after action number"))
    state = models.JSONField(_("state"))
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="unique_snapshot_seq")]
        ordering = ["game", "-seq"]

    def __str__(self):
        return f"{self.game_id}@{self.seq}"
