"""Celery tasks queued by name.

The services queue the site's background work (the AI's turn, a
notification's email, an ended game's review) through this module, which
finds each task by its registered name in the Celery app's registry
(`current_app.tasks[name]`) instead of importing games.tasks: the tasks
call the services, so the services importing the tasks would be an import
cycle.  Looking the task up by name still gives the task object itself, so
`CELERY_TASK_ALWAYS_EAGER` and a test's monkeypatched `delay` apply as
before.  Every process registers the tasks when Django starts
(games.apps.GamesConfig.ready imports games.tasks), and the worker by
Celery's autodiscovery.
"""

from __future__ import annotations

from celery import current_app

PLAY_AI_TURN = "games.tasks.play_ai_turn"
RESUME_AI_TURNS = "games.tasks.resume_ai_turns"
CHECK_CLOCKS = "games.tasks.check_clocks"
TOP_UP_VACATION = "games.tasks.top_up_vacation"
SEND_NOTIFICATION_EMAIL = "games.tasks.send_notification_email"
SEND_REMINDERS = "games.tasks.send_reminders"
SEND_DIGESTS = "games.tasks.send_digests"
PRECOMPUTE_REVIEW = "games.tasks.precompute_review"


def task(name: str):
    """The registered task `name` (KeyError when no such task is registered)."""
    return current_app.tasks[name]


def play_ai_turn(game_id: int) -> None:
    """Queue the AI's turn in the game."""
    task(PLAY_AI_TURN).delay(game_id)


def send_notification_email(notification_id: int) -> None:
    """Queue the email of one notification."""
    task(SEND_NOTIFICATION_EMAIL).delay(notification_id)


def precompute_review(game_id: int) -> None:
    """Queue the rendering of an ended game's review steps."""
    task(PRECOMPUTE_REVIEW).delay(game_id)
