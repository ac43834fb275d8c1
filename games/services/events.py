"""What the services tell the world, after commit: the Channels groups and
their doorbells (a colour's view changed, a notification arrived, the
lobby's seeks changed), Notification rows with their socket message and
email, and the Celery work queued once an answer is out.

Nothing is announced that did not land: every message and task goes from
`transaction.on_commit`.  The messages carry no game data (a version, a
kind and a game number).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import doorbells, queue
from games.models import Game, Notification, Seat
from games.store import sql

logger = logging.getLogger(__name__)


def group_name(game_id: int, color: str) -> str:
    """The Channels group of one colour's open pages of a game.  Each colour has
    its own, so that a doorbell rings only for the side whose view changed."""
    return f"{settings.WEC_REDIS_PREFIX}.game.{game_id}.{color}"


def broadcast_changed(game_id: int, color: str, version: int) -> None:
    """Tell `color`'s open pages of the game that its view changed (to
    `version`, that colour's own view version).  Nothing else goes out.
    Sent by this process's doorbell thread (games.doorbells): the request
    that rings it does not wait for Redis."""
    doorbells.ring(group_name(game_id, color), {"type": "game.changed", "version": version})


def ring_changed(game_id: int, versions: list[tuple[str, int]]) -> None:
    """After commit: each changed colour's doorbell (its own new version),
    in one Redis call."""
    with doorbells.together():
        for color, version in versions:
            broadcast_changed(game_id, color, version)


def user_group_name(user_id: int) -> str:
    return f"{settings.WEC_REDIS_PREFIX}.user.{user_id}"


def broadcast_notification(user_id: int, game_id: int, kind: str) -> None:
    """Tell the user's open pages that a notification arrived: only its kind
    and game number, nothing about the position."""
    doorbells.ring(user_group_name(user_id), {"type": "user.notify", "kind": kind, "game": game_id})


def lobby_group_name() -> str:
    return f"{settings.WEC_REDIS_PREFIX}.lobby"


def broadcast_lobby() -> None:
    """Tell every signed-in lobby page that the open seeks changed (seeks are
    public: the message carries nothing but its type)."""
    doorbells.ring(lobby_group_name(), {"type": "lobby.changed"})


def _enqueue_email(notification_id: int) -> None:
    try:
        queue.send_notification_email(notification_id)
    except Exception:  # a dead broker must not break a committed move
        logger.exception("could not queue the email for notification %s", notification_id)


def notify(game: Game, user, kind: str, batch: sql.Batch | None = None) -> Notification | None:
    """Inside the caller's transaction: a Notification row for a person (never
    the AI); the WebSocket message and the email go out only after commit.
    With a `batch` (games.store.sql.Batch), a row no email needs is written with it
    (then the returned one has no id).

    Coalesced per (recipient, game, kind): when the recipient has a notice of
    the same kind for the same game from within WEC_NOTICE_COALESCE_SECONDS,
    that one is renewed (its time now, unread again) instead of a row being
    added, and games.notifications sends at most one email per (recipient,
    game, kind) in that time.  What is coalesced depends only on the
    recipient's own notices, which name nothing they may not know."""
    if user is None or getattr(user, "is_ai", False):
        return None
    # A user who chose the daily digest gets one email a day instead (tasks.send_digests).
    wants_email = bool(user.email_on_turn and user.email and not getattr(user, "email_digest", False))
    user_id, game_id = user.pk, game.pk
    now = timezone.now()
    since = now - timedelta(seconds=settings.WEC_NOTICE_COALESCE_SECONDS)
    if batch is not None and not wants_email:
        note = Notification(user=user, game=game, kind=kind, created=now)
        sql.add_notification(batch, user_id, game_id, kind, now, since)
    else:
        note = (
            Notification.objects.filter(user_id=user_id, game_id=game_id, kind=kind, created__gte=since)
            .order_by("-created", "-pk")
            .first()
        )
        if note is None:
            note = Notification.objects.create(user=user, game=game, kind=kind)
        else:
            # Not emailed again: a new email task may claim it, and the
            # email's own once-an-hour mark decides whether it goes out.
            Notification.objects.filter(pk=note.pk).update(created=now, read=False, emailed=False)
            note.created, note.read, note.emailed = now, False, False
    note_id = note.pk
    transaction.on_commit(lambda: broadcast_notification(user_id, game_id, kind))
    if wants_email:
        enqueue_after_response(lambda: _enqueue_email(note_id))
    return note


def notify_start(game: Game, seats: list[Seat], actor) -> None:
    """A game began: whoever did not start it hears of it (as "your turn" when
    it is theirs)."""
    for seat in seats:
        if seat.user is None or (actor is not None and seat.user_id == actor.pk):
            continue
        kind = Notification.Kind.YOUR_TURN if seat.color == game.to_move else Notification.Kind.NEW_GAME
        notify(game, seat.user, kind)


def notify_end(game: Game, seats: list[Seat], actor=None) -> None:
    for seat in seats:
        if seat.user is not None and (actor is None or seat.user_id != actor.pk):
            notify(game, seat.user, Notification.Kind.GAME_OVER)


def enqueue_after_response(enqueue) -> None:
    """After commit, `enqueue()` (a Celery task's `delay`) on the doorbell
    thread once the answer is out (doorbells.later, after_response), not in
    the request: a `delay` is ~0.35 ms of CPU and a Redis round trip, and
    the first one of a process opens the broker connection (~200 ms)."""
    transaction.on_commit(lambda: doorbells.later(enqueue))
