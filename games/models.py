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
        # A direct challenge waiting for the named player's answer: no clock
        # runs and nobody moves until it is accepted.
        CHALLENGE = "challenge", _("Challenge")
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
    # The club.  Competitive games have fixed options, censored
    # records and count for ratings; friendly ones allow undo requests.
    competitive = models.BooleanField(_("competitive"), default=True)
    # The server AI's strength for games against it: easy, normal or hard.
    ai_level = models.CharField(_("AI level"), max_length=16, blank=True, default="")
    # A pending change to a challenge's terms, waiting for the other player's
    # approval: {"by": colour, "options": {...}, "days_per_move": n|None, "swap": bool}.
    proposal = models.JSONField(_("proposed change"), null=True, blank=True)
    # The colour that offered a draw, while the offer stands ("" = none).
    draw_offer = models.CharField(_("draw offered by"), max_length=8, blank=True, default="")
    # The Turn (the engine's count of finished Turns) in which each colour last
    # offered a draw, {"black": n, ...}: one offer per player per Turn.
    draw_offer_turns = models.JSONField(_("Turn of each side's last draw offer"), default=dict, blank=True)
    # Bank-plus-increment clock (as Little Golem and SchemingMind): when
    # `increment_hours` is set, `days_per_move` is each player's starting bank;
    # a player's turn may use all of the bank, and each finished turn adds the
    # increment, up to `bank_cap_days`.  Unset: a plain per-move clock.
    increment_hours = models.PositiveSmallIntegerField(_("increment (hours)"), null=True, blank=True)
    bank_cap_days = models.PositiveSmallIntegerField(_("bank cap (days)"), null=True, blank=True)
    # The starting document when the game starts from a saved scenario.
    scenario = models.JSONField(_("starting scenario"), null=True, blank=True)
    # Friendly games: the colour that asked the opponent to undo its last
    # Turn, while the request stands ("" = none; games.services.takeback).
    undo_request = models.CharField(_("undo requested by"), max_length=8, blank=True, default="")
    # How many times a granted undo rolled back finished Turns: the Turn
    # records (GameTurn) past that point were replaced, so each process's
    # cached records are keyed by this number (games.store.states).
    history_epoch = models.PositiveIntegerField(_("history epoch"), default=0)

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

    @property
    def has_bank(self) -> bool:
        return self.days_per_move is not None and self.increment_hours is not None


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
    # Bank clocks: the time this player had left when their last turn ended
    # (the increment included); None before their first turn (a full bank).
    bank_seconds = models.PositiveIntegerField(_("bank left (seconds)"), null=True, blank=True)
    # The time left on this seat's clock, frozen while its player is on
    # vacation (games.vacation): set instead of `deadline` while the
    # clock would run; the clock resumes with it when the vacation ends.
    paused_seconds = models.PositiveIntegerField(_("paused with time left (seconds)"), null=True, blank=True)
    # This player muted the game's chat (they see no more of the other's messages).
    chat_muted = models.BooleanField(_("chat muted"), default=False)
    # The board this player was last shown ("changed since you last
    # looked"): {"v": view version, "sig": games.ui.wec.highlights.signature of
    # that view, "changed": [[row, col], ...] the Squares that differed from the
    # board shown before it}.  Written only from what this player was served.
    seen = models.JSONField(_("board last shown"), default=dict, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "color"], name="unique_seat_color")]
        ordering = ["game", "color"]
        indexes = [models.Index(fields=["deadline"], name="seat_deadline", condition=models.Q(deadline__isnull=False))]

    def __str__(self):
        return f"{self.game_id}:{self.color}={self.user_id}"


class GameAction(models.Model):
    """Append-only log of every action, numbered 1, 2, 3... per game.

    PostgreSQL refuses UPDATE and DELETE on these rows (a trigger; only
    games.store.action_log.purge_game may remove a whole game), and each row is
    chained to the one before by `hash` (see games.store.action_log)."""

    # No index of its own on game: unique_action_seq (game, seq) serves every
    # lookup by game.  With a second index on game alone, a planner that
    # expects one row for a game (a new game's id is never in the column's
    # statistics) took the narrower one and read the game's whole log to
    # find its last few actions (tests/site/test_site_perf_paths.py).
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions", db_index=False)
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

    Written as `dump_scenario(state, history=False)` with
    `turns` = how many finished Turns it has (their records are the first
    `turns` GameTurn rows), so a snapshot's size does not grow with the game.
    Older snapshots hold the whole `log` in `state` and have `turns` = None."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="snapshots", db_index=False)  # as GameAction
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
        CHALLENGE = "challenge", _("Challenge")
        CHALLENGE_ANSWER = "challenge_answer", _("Answer to a challenge")
        DRAW_OFFER = "draw_offer", _("Draw offer")
        CHAT = "chat", _("Chat message")
        REMINDER = "reminder", _("Time is running out")
        UNDO_REQUEST = "undo_request", _("Undo request")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    read = models.BooleanField(_("read"), default=False)
    # Set when the email went out (so a retried task does not send it twice).
    emailed = models.BooleanField(_("emailed"), default=False)

    class Meta:
        ordering = ["-created", "-pk"]
        indexes = [
            models.Index(fields=["user", "read", "-created"], name="notification_user_read"),
            # A new notice looks for the one it renews (games.services.events.notify).
            models.Index(fields=["user", "game", "kind", "-created"], name="notification_coalesce"),
        ]

    def __str__(self):
        return f"{self.user_id}:{self.kind}:{self.game_id}"


class GameTurn(models.Model):
    """The engine's record of one finished Turn (its notation, full, censored
    and as its side saw it, and in plain English), numbered 1, 2, 3... per
    game: the state's `log`, kept one row per Turn so that neither GameState
    nor a Snapshot carries the whole history.  Written in the same transaction
    as the action that ended the Turn, never changed; verify_games checks every
    row against a replay of the action log, which stays the source of truth."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="turn_records", db_index=False)  # as GameAction
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


class ChatMessage(models.Model):
    """One line of a game's chat: between the two players while the game runs;
    spectators may read it once the game has ended."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(_("text"), max_length=500)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    # Reported to the operators by the other player (they see it in the admin).
    reported = models.BooleanField(_("reported"), default=False)

    class Meta:
        ordering = ["game", "created", "pk"]

    def __str__(self):
        return f"{self.game_id}:{self.author_id}:{self.pk}"


class Scenario(models.Model):
    """A named starting position from the board editor (the engine's scenario
    document).  Private to its owner unless public."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="scenarios")
    name = models.CharField(_("name"), max_length=80)
    public = models.BooleanField(_("public"), default=False)
    document = models.JSONField(_("scenario document"))
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self):
        return self.name


class SetupFavourite(models.Model):
    """A player's saved favourite setup for a game with a setup phase (Marshal
    and Spy): one per player and engine, in the game package's own format."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="setup_favourites")
    engine = models.CharField(_("engine"), max_length=32)
    layout = models.JSONField(_("layout"))
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "engine"], name="one_setup_favourite_per_engine")]

    def __str__(self):
        return f"{self.user_id}:{self.engine}"


class GameRating(models.Model):
    """A player's Glicko-2 rating in one game other than the site's first
    (Wec keeps its rating on the User row, where it was before there were other games): one row per
    player and engine name, made at the player's first rated game of it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_ratings")
    engine = models.CharField(_("engine"), max_length=32)
    rating = models.FloatField(_("rating"), default=1500.0)
    rating_deviation = models.FloatField(_("rating deviation"), default=350.0)
    rating_volatility = models.FloatField(_("rating volatility"), default=0.06)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "engine"], name="one_rating_per_engine")]

    def __str__(self):
        return f"{self.user_id}:{self.engine}={self.rating:.0f}"
