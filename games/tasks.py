"""Celery tasks: the AI player, the periodic clock check, emails, reminders,
digests and an ended game's review.  Each is registered under the name
games.queue gives it; the services queue them through games.queue, by
name, never by importing this module (it calls them)."""

from __future__ import annotations

import logging
import random
import time
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DatabaseError
from django.utils import timezone

from accounts.services import top_up_vacation as top_up

from . import queue
from .club.reminders import send_reminders as remind
from .engines import get_engine
from .models import Game
from .notifications import send_digest_for, send_email_for
from .pages.review import precompute
from .registry import get_ui
from .selectors import due_seat_ids, load_state, seat_by_color
from .services import DeadlineOutcome, GameError, enforce_deadline, submit_action
from .store import sql
from .vacation.services import settle_vacations

logger = logging.getLogger(__name__)

MAX_ACTIONS_PER_TURN = 30
#: Celery time limits of one AI Turn (seconds): the search itself stops at
#: WEC_AI_THINK_SECONDS (5 by default); the soft limit only catches a stuck
#: run, which then retries like any other failure (the task is idempotent).
AI_SOFT_TIME_LIMIT = 120
AI_TIME_LIMIT = 150
AI_LEVELS = ("easy", "normal", "hard")


def ai_level(game) -> str:
    """The AI level stored for `game`: a model field when there is one, else
    the game's options, else "easy" (today's AI)."""
    level = getattr(game, "ai_level", None) or (game.options or {}).get("ai_level") or "easy"
    return level if level in AI_LEVELS else "easy"


class AITurnUnfinished(Exception):
    """The AI's turn did not end although it is still the AI's turn."""


def _ai_lock_key(game_id: int) -> int:
    # A fixed namespace in the high bits keeps these advisory locks apart from
    # any other use of pg_advisory_lock on the same database.
    return (0x57EC << 40) | int(game_id)


def _flag_attention(game_id: int, note: str) -> None:
    Game.objects.filter(pk=game_id).update(needs_attention=True, attention_note=note[:200])


def _clear_attention(game_id: int) -> None:
    Game.objects.filter(pk=game_id, needs_attention=True).update(needs_attention=False, attention_note="")


@shared_task(
    name=queue.PLAY_AI_TURN,
    bind=True,
    ignore_result=True,
    # Acknowledged only when it returns, and given back to the broker when the
    # worker process dies (SIGKILL, OOM), so a killed worker's turn is redone
    # by another; the advisory lock and the "is it still the AI's turn" check
    # make that second run (or any duplicate delivery) add nothing twice.
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=3,
    soft_time_limit=AI_SOFT_TIME_LIMIT,
    time_limit=AI_TIME_LIMIT,
)
def play_ai_turn(self, game_id: int) -> int:
    """Play one whole turn for the AI seat of `game_id`, through the same
    service a person's clicks go through.  Returns the number of actions made.

    Idempotent per game and turn: only one run at a time plays a game (a
    PostgreSQL session advisory lock, freed by the server if the worker dies),
    and a run that finds it is no longer the AI's turn does nothing.  An
    unexpected error is logged and retried (WEC_AI_MAX_RETRIES times,
    WEC_AI_RETRY_SECONDS apart); after the last one the game is flagged
    `needs_attention` for the operators instead of hanging silently."""
    key = _ai_lock_key(game_id)
    if not sql.try_advisory_lock(key):
        logger.info("AI turn for game %s is already being played; this delivery does nothing", game_id)
        return 0
    try:
        made = _play_ai_turn(game_id)
    except Exception as exc:
        retries = int(getattr(settings, "WEC_AI_MAX_RETRIES", 3))
        if self.request.retries < retries:
            logger.warning(
                "AI turn in game %s failed (attempt %s of %s); retrying",
                game_id,
                self.request.retries + 1,
                retries + 1,
                exc_info=True,
            )
            raise self.retry(
                exc=exc, countdown=float(getattr(settings, "WEC_AI_RETRY_SECONDS", 5)), max_retries=retries
            ) from exc
        logger.error("AI turn in game %s failed for good; flagged for the operators", game_id, exc_info=True)
        _flag_attention(game_id, f"{AI_FAILED_NOTE}: {type(exc).__name__}")
        return 0
    finally:
        try:
            sql.advisory_unlock(key)
        except DatabaseError:  # the connection is gone, and its lock with it
            logger.warning("could not release the AI lock of game %s", game_id, exc_info=True)
    _clear_attention(game_id)
    return made


def _ai_delay() -> None:
    """Test-only pause before each AI action (WEC_AI_ACTION_DELAY seconds, 0 in
    production), so the fault tests can kill a worker in the middle of a turn."""
    delay = float(getattr(settings, "WEC_AI_ACTION_DELAY", 0) or 0)
    if delay > 0:
        time.sleep(delay)


def _play_ai_turn(game_id: int) -> int:
    rng = random.Random()
    made = 0
    memo: dict = {}  # the game's AI keeps what it planned for this Turn here
    think = float(getattr(settings, "WEC_AI_THINK_SECONDS", 5.0))
    for _ in range(MAX_ACTIONS_PER_TURN):
        game = Game.objects.prefetch_related("seats__user").get(pk=game_id)
        if game.status != Game.Status.ACTIVE:
            return made
        seat = seat_by_color(game, game.to_move)
        if seat is None or seat.user is None or not seat.user.is_ai:
            return made  # not (or no longer) the AI's turn: a duplicate run ends here
        engine = get_engine(game.engine)
        state = load_state(game)
        # The game's own AI chooses, from the AI side's view of the game only.
        action = get_ui(game.engine).ai_action(engine, state, ai_level(game), rng, memo, think)
        if action is None:
            raise AITurnUnfinished(f"no legal action in game {game_id}")
        _ai_delay()
        try:
            submit_action(game_id, seat.user, action, expected_seq=game.seq)
        except GameError as exc:
            if exc.status >= 500:
                raise  # an engine fault: let the task retry, then flag the game
            logger.info("AI action refused in game %s: %s", game_id, exc.message)
            continue
        made += 1
        # Whether that action ended the AI's turn is seen at the top of the
        # next round (the game row names the side to move).
    game = Game.objects.prefetch_related("seats__user").get(pk=game_id)
    seat = seat_by_color(game, game.to_move)
    if game.status == Game.Status.ACTIVE and seat is not None and seat.user is not None and seat.user.is_ai:
        raise AITurnUnfinished(
            f"the AI did not finish its turn in game {game_id} in {MAX_ACTIONS_PER_TURN} tries"
        )
    return made


AI_FAILED_NOTE = "AI turn failed"


@shared_task(name=queue.RESUME_AI_TURNS, ignore_result=True)
def resume_ai_turns() -> int:
    """Periodic (Celery beat, every WEC_AI_RESUME_SECONDS): queue play_ai_turn
    again for every running game where the AI is to move and nothing happened
    for WEC_AI_STALL_SECONDS (a lost message, a broker that was down when the
    turn passed, a worker killed while the visibility timeout still runs).
    Safe because play_ai_turn is idempotent per game and turn.  Games whose AI
    turn failed for good are left to the operators.  Returns how many it queued."""
    since = timezone.now() - timedelta(seconds=float(getattr(settings, "WEC_AI_STALL_SECONDS", 120)))
    stalled = (
        Game.objects.filter(status=Game.Status.ACTIVE, updated__lt=since, seats__user__is_ai=True)
        .exclude(needs_attention=True, attention_note__startswith=AI_FAILED_NOTE)
        .prefetch_related("seats__user")
        .distinct()
    )
    queued = 0
    for game in stalled:
        if any(s.color == game.to_move and s.user is not None and s.user.is_ai for s in game.seats.all()):
            play_ai_turn.delay(game.pk)
            queued += 1
    if queued:
        logger.warning("resumed %s stalled AI turn(s)", queued)
    return queued


@shared_task(name=queue.CHECK_CLOCKS, ignore_result=True)
def check_clocks() -> int:
    """Periodic (Celery beat, every WEC_CLOCK_CHECK_SECONDS): every seat whose
    deadline has passed in a running game is handed to
    games.services.deadlines.enforce_deadline, which either spends vacation time or ends the
    game on time.  Before that, the explicit vacations: days that fell due
    are charged, and a vacation whose planned end came or whose allowance ran
    out ends, starting its player's paused clocks again
    (games.vacation.services.settle_vacations).  Safe to run concurrently: each game
    is handled under its row lock (rows another worker holds are skipped until
    the next run).  Returns how many seats it acted on (vacation used or time
    out)."""
    now = timezone.now()
    ended = settle_vacations(now)
    if ended:
        logger.info("%s vacation(s) ended", ended)
    acted = 0
    for seat_id in due_seat_ids(now):
        try:
            outcome = enforce_deadline(seat_id, now=now)
        except Exception:  # one broken game must not stop the others' clocks
            logger.exception("clock check failed for seat %s", seat_id)
            continue
        if outcome in (DeadlineOutcome.VACATION, DeadlineOutcome.TIMEOUT):
            acted += 1
    return acted


@shared_task(name=queue.TOP_UP_VACATION, ignore_result=True)
def top_up_vacation() -> int:
    """Periodic (Celery beat, hourly): the yearly vacation allowance (a no-op
    except in the first run of a new year)."""
    return top_up()


@shared_task(
    name=queue.SEND_NOTIFICATION_EMAIL,
    ignore_result=True,
    autoretry_for=(OSError,),
    retry_backoff=60,
    max_retries=5,
)
def send_notification_email(notification_id: int) -> bool:
    """Email one notification to its user, if they still want such emails.
    Says only which game and what happened (your turn / new game / game over),
    never anything about the position.  Returns whether a mail went out."""
    return send_email_for(notification_id)


@shared_task(name=queue.SEND_REMINDERS, ignore_result=True)
def send_reminders() -> int:
    """Beat, hourly: remind players whose time runs out soon."""
    return remind()


@shared_task(name=queue.SEND_DIGESTS, ignore_result=True)
def send_digests() -> int:
    """Beat, daily: one email per user who chose the digest, listing what happened."""
    users = get_user_model().objects.filter(email_digest=True, is_ai=False).exclude(email="").values_list("pk", flat=True)
    return sum(1 for pk in users if send_digest_for(pk))


@shared_task(name=queue.PRECOMPUTE_REVIEW, ignore_result=True)
def precompute_review(game_id: int) -> int:
    """A game ended: render every step of its review once (games.pages.review)."""
    return precompute(game_id)
