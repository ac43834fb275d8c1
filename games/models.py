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
    # Correspondence clock: days for each turn; None = no clock.
    days_per_move = models.PositiveSmallIntegerField(_("days per move"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)
    # Touched by every write, hidden ones included: for the operator only,
    # never shown to a player (it would tell when an unseen action happened).
    updated = models.DateTimeField(_("updated"), auto_now=True)
    # When the turn last passed (or the game started or ended): the only game
    # time players see in lists, since both sides see every turn change.
    turn_started = models.DateTimeField(_("turn started"), null=True, blank=True)
    # Set when the server AI could not play its turn after its retries: the
    # operators must look (admin filter), and the players see a neutral notice.
    needs_attention = models.BooleanField(_("needs attention"), default=False)
    attention_note = models.CharField(_("attention note"), max_length=200, blank=True, default="")

    class Meta:
        ordering = ["-updated"]
        indexes = [models.Index(fields=["status", "-updated"])]

    def __str__(self):
        return f"Game {self.pk} ({self.engine}, {self.status})"

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def has_clock(self) -> bool:
        return self.days_per_move is not None


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    color = models.CharField(_("color"), max_length=8, choices=Color.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    # When this seat's turn runs out: set when its turn starts, cleared when
    # it ends (None while it is not this seat's turn, or without a clock).
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True)
    # This seat's view version: bumped exactly when what this player is shown
    # of the game (board, panels, history, clocks, status) changes, and on each
    # of the player's own actions.  Pages, forms and socket messages carry it
    # instead of the game's global `seq`, which counts the enemy's unseen
    # actions too.  `view_digest` is the hash of what the player was last shown.
    version = models.PositiveIntegerField(_("view version"), default=0)
    view_digest = models.CharField(_("view digest"), max_length=64, blank=True, default="")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "color"], name="unique_seat_color")]
        ordering = ["game", "color"]
        indexes = [models.Index(fields=["deadline"], name="seat_deadline", condition=models.Q(deadline__isnull=False))]

    def __str__(self):
        return f"{self.game_id}:{self.color}={self.user_id}"


class GameAction(models.Model):
    """Append-only log of every action, numbered 1, 2, 3... per game.

    PostgreSQL refuses UPDATE and DELETE on these rows (a trigger; only
    games.integrity.purge_game may remove a whole game), and each row is
    chained to the one before by `hash` (see games.integrity)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField(_("number"))
    seat = models.ForeignKey(Seat, on_delete=models.PROTECT, related_name="actions")
    action = models.JSONField(_("action"))
    created = models.DateTimeField(_("created"), auto_now_add=True)
    prev_hash = models.CharField(_("previous row's hash"), max_length=64, default="", blank=True)
    hash = models.CharField(_("hash"), max_length=64, default="", blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="unique_action_seq")]
        ordering = ["game", "seq"]

    def __str__(self):
        return f"{self.game_id}#{self.seq}"


class Snapshot(models.Model):
    """The engine's state after action `seq` (0 = the start).

    Written since issue 12 as `dump_scenario(state, history=False)` with
    `turns` = how many finished Turns it has (their records are the first
    `turns` GameTurn rows), so a snapshot's size does not grow with the game.
    Older snapshots hold the whole `log` in `state` and have `turns` = None."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="snapshots")
    seq = models.PositiveIntegerField(_("after action number"))
    state = models.JSONField(_("state"))
    turns = models.PositiveIntegerField(_("finished turns"), null=True, blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="unique_snapshot_seq")]
        ordering = ["game", "-seq"]

    def __str__(self):
        return f"{self.game_id}@{self.seq}"


class Notification(models.Model):
    """Something a user should look at: their turn, a new game, a finished game.

    Says only which game and what kind; never anything about the position."""

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", _("Your turn")
        NEW_GAME = "new_game", _("New game")
        GAME_OVER = "game_over", _("Game over")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    read = models.BooleanField(_("read"), default=False)
    # Set when the email went out (so a retried task does not send it twice).
    emailed = models.BooleanField(_("emailed"), default=False)

    class Meta:
        ordering = ["-created", "-pk"]
        indexes = [models.Index(fields=["user", "read", "-created"], name="notification_user_read")]

    def __str__(self):
        return f"{self.user_id}:{self.kind}:{self.game_id}"


class GameTurn(models.Model):
    """The engine's record of one finished Turn (its notation, full, censored
    and as its side saw it, and in plain English), numbered 1, 2, 3... per
    game: the state's `log`, kept one row per Turn so that neither GameState
    nor a Snapshot carries the whole history.  Written in the same transaction
    as the action that ended the Turn, never changed; verify_games checks every
    row against a replay of the action log, which stays the source of truth."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="turn_records")
    number = models.PositiveIntegerField(_("turn record number"))
    entry = models.JSONField(_("record"))

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="unique_turn_record")]
        ordering = ["game", "number"]

    def __str__(self):
        return f"{self.game_id}:turn{self.number}"


class GameState(models.Model):
    """The game's latest engine state (one row per game), stamped with the
    action number `seq` it follows and updated in the transaction of every
    action, so loading a game never replays the log.  Holds
    `dump_scenario(state, history=False)`; the first `turns` GameTurn rows are
    its history."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="current_state")
    seq = models.PositiveIntegerField(_("after action number"))
    turns = models.PositiveIntegerField(_("finished turns"), default=0)
    state = models.JSONField(_("state"))

    def __str__(self):
        return f"{self.game_id}@{self.seq}"
