"""Celery tasks: the AI player and the periodic clock check."""

from __future__ import annotations

import logging
import random

from celery import shared_task

logger = logging.getLogger(__name__)

MAX_ACTIONS_PER_TURN = 30


def choose_ai_action(actions: list[dict], moved: bool, rng: random.Random) -> dict | None:
    """Pick the AI's next action from what it may legally do: a random Move
    (other actions now and then) until it has moved, then end the turn."""
    if not actions:
        return None
    end = [a for a in actions if a.get("type") == "end_turn"]
    if end and moved:
        return end[0]
    moves = [a for a in actions if a.get("type") == "move"]
    others = [a for a in actions if a.get("type") not in ("move", "end_turn")]
    if moves and (not others or rng.random() < 0.8):
        return rng.choice(moves)
    if others:
        return rng.choice(others)
    return end[0] if end else None


@shared_task(name="games.tasks.play_ai_turn", ignore_result=True)
def play_ai_turn(game_id: int) -> int:
    """Play one whole turn for the AI seat of `game_id`, through the same
    service a person's clicks go through.  Returns the number of actions made."""
    from .engine import get_game_engine
    from .models import Game
    from .selectors import load_state, seat_by_color
    from .services import GameError, submit_action

    rng = random.Random()
    made = 0
    moved = False
    for _ in range(MAX_ACTIONS_PER_TURN):
        game = Game.objects.prefetch_related("seats__user").get(pk=game_id)
        if game.status != Game.Status.ACTIVE:
            break
        seat = seat_by_color(game, game.to_move)
        if seat is None or seat.user is None or not seat.user.is_ai:
            break
        engine = get_game_engine(game.engine)
        state = load_state(game)
        actions = engine.legal_actions(state)
        if not moved:
            moved = any(a.get("type") == "end_turn" for a in actions)
        chooser = getattr(engine, "choose_action", None)
        if chooser is not None:
            # The engine's own AI plays from its view of the game, never the true state.
            action = chooser(state, rng.randrange(2**31))
        else:
            action = choose_ai_action(actions, moved, rng)
        if action is None:
            logger.warning("AI has no legal action in game %s", game_id)
            break
        try:
            submit_action(game_id, seat.user, action, expected_seq=game.seq)
        except GameError as exc:
            logger.info("AI action refused in game %s: %s", game_id, exc.message)
            continue
        made += 1
        if action.get("type") == "move":
            moved = True
        if action.get("type") == "end_turn":
            break
    return made


@shared_task(name="games.tasks.check_clocks", ignore_result=True)
def check_clocks() -> int:
    """Periodic (Celery beat, every WEC_CLOCK_CHECK_SECONDS): every seat whose
    deadline has passed in a running game is handed to
    services.enforce_deadline, which either spends vacation time or ends the
    game on time.  Safe to run concurrently: each game is handled under its
    row lock (rows another worker holds are skipped until the next run).
    Returns how many seats it acted on (vacation used or time out)."""
    from django.utils import timezone

    from .selectors import due_seat_ids
    from .services import DeadlineOutcome, enforce_deadline

    now = timezone.now()
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


@shared_task(name="games.tasks.top_up_vacation", ignore_result=True)
def top_up_vacation() -> int:
    """Periodic (Celery beat, hourly): the yearly vacation allowance (a no-op
    except in the first run of a new year)."""
    from accounts.services import top_up_vacation as top_up

    return top_up()


@shared_task(
    name="games.tasks.send_notification_email",
    ignore_result=True,
    autoretry_for=(OSError,),
    retry_backoff=60,
    max_retries=5,
)
def send_notification_email(notification_id: int) -> bool:
    """Email one notification to its user, if they still want such emails.
    Says only which game and what happened (your turn / new game / game over),
    never anything about the position.  Returns whether a mail went out."""
    from .notifications import send_email_for

    return send_email_for(notification_id)
