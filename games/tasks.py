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
    """Periodic (Celery beat) scaffold for time controls and vacation.

    Games have no clocks yet; this counts the active games whose turn has
    waited longer than WEC_TURN_WARN_HOURS so the hook and the beat wiring
    are in place.  Returns that count."""
    from datetime import timedelta

    from django.conf import settings
    from django.utils import timezone

    from .models import Game

    hours = float(getattr(settings, "WEC_TURN_WARN_HOURS", 72))
    cutoff = timezone.now() - timedelta(hours=hours)
    waiting = Game.objects.filter(status=Game.Status.ACTIVE, updated__lt=cutoff).count()
    if waiting:
        logger.info("%d games have waited more than %s hours for a turn", waiting, hours)
    return waiting
