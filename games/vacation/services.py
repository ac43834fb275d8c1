"""Writes of the explicit vacation (as on online-go.com): a player
starts it and ends it on their profile; meanwhile every running clock of
theirs, in every game, is paused.

A paused clock keeps its time left in `Seat.paused_seconds` instead of a
`Seat.deadline` (so the clock check, the reminders and the game list, which
all read deadlines, see no clock running); when the vacation ends the
deadline becomes the end of the vacation plus that time, so the clock resumes
exactly where it stopped.  Days-per-move and bank clocks alike (a bank clock's
running deadline is its bank left).  A turn passed to a player on vacation
starts paused with its whole time (games.services.clocks.set_clocks).

Days are spent from the yearly allowance (`User.vacation_days`) a whole day
at a time, at the start and at each full 24 hours of the vacation (a started
day counts whole).  The end of the time paid is `User.vacation_paid_until`,
shared with the automatic day at a time-out (games.services.deadlines): time
paid and not used when a vacation ends early stays paid and covers a new
vacation, or an automatic day, until it runs out.  The vacation ends when the
player ends it, at its planned end (`User.vacation_until`), or when a day
falls due and none is left (Celery beat's check_clocks calls
`settle_vacations`).

Locks: the user's running games first (by id, the order every game write
takes them one at a time), then the user row, as enforce_deadline does
(game, then user), so the two never wait on each other in a cycle."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import Game, Seat
from games.services.errors import InvalidRequest
from games.services.versions import settle_views

from .selectors import due_vacation_user_ids

logger = logging.getLogger(__name__)

DAY = timedelta(days=1)


def _lock_games_then_user(user_id: int):
    """The user's running games (locked, by id) and the user row (locked)."""
    ids = sorted(
        set(
            Seat.objects.filter(user_id=user_id, game__status=Game.Status.ACTIVE).values_list("game_id", flat=True)
        )
    )
    games = list(Game.objects.select_for_update().filter(pk__in=ids).order_by("pk"))
    user = get_user_model().objects.select_for_update().get(pk=user_id)
    return games, user


def _pause(seat: Seat, now: datetime) -> bool:
    """Freeze a running clock: its time left is kept, its deadline cleared.
    A clock already run out is left for the clock check (it is due)."""
    if seat.deadline is None or seat.deadline <= now:
        return False
    left = int((seat.deadline - now).total_seconds())
    seat.deadline, seat.paused_seconds = None, left
    Seat.objects.filter(pk=seat.pk).update(deadline=None, paused_seconds=left)
    return True


def _resume(seat: Seat, at: datetime) -> bool:
    """Start a paused clock again at `at` with the time it had left."""
    if seat.paused_seconds is None:
        return False
    deadline = at + timedelta(seconds=int(seat.paused_seconds))
    seat.deadline, seat.paused_seconds = deadline, None
    Seat.objects.filter(pk=seat.pk).update(deadline=deadline, paused_seconds=None)
    return True


def _apply_to_games(games: list[Game], user_id: int, change) -> int:
    """Pause or resume (`change(seat)`) the user's seat in each running game
    and settle both players' views (the clocks and the vacation badge are
    part of what both see).  Returns how many clocks changed."""
    changed = 0
    for game in games:
        if game.status != Game.Status.ACTIVE:
            continue
        seats = list(Seat.objects.select_related("user").filter(game=game))
        mine = next((s for s in seats if s.user_id == user_id), None)
        if mine is not None and game.to_move == mine.color and change(mine):
            changed += 1
        settle_views(game, seats)
    return changed


def start_vacation(user, days: int | None = None, now: datetime | None = None):
    """Start `user`'s vacation now, for `days` days or (None) until they end
    it or the allowance runs out.  The first day is charged now unless time
    is already paid; every running clock of theirs is paused.  Raises
    InvalidRequest (nothing changes) when already on vacation, when no day is
    left, or for more days than are left."""
    now = now or timezone.now()
    with transaction.atomic():
        games, user = _lock_games_then_user(user.pk)
        if user.vacation_started is not None:
            raise InvalidRequest(_("You are already on vacation."))
        prepaid = user.vacation_paid_until is not None and user.vacation_paid_until > now
        if days is not None:
            days = int(days)
            if days < 1 or days > user.vacation_days:
                raise InvalidRequest(
                    ngettext(
                        "You have %(n)d vacation day left this year.",
                        "You have %(n)d vacation days left this year.",
                        user.vacation_days,
                    )
                    % {"n": user.vacation_days}
                )
        elif not prepaid and user.vacation_days <= 0:
            raise InvalidRequest(_("You have no vacation days left this year."))
        if not prepaid:
            user.vacation_days -= 1
            user.vacation_paid_until = now + DAY
        user.vacation_started = now
        user.vacation_until = now + days * DAY if days is not None else None
        user.save(update_fields=["vacation_days", "vacation_paid_until", "vacation_started", "vacation_until"])
        paused = _apply_to_games(games, user.pk, lambda seat: _pause(seat, now))
        logger.info("user %s on vacation (%s clocks paused)", user.pk, paused)
        return user


def end_vacation(user, at: datetime | None = None, now: datetime | None = None):
    """End `user`'s vacation at `at` (default now): every clock it paused
    starts again from there with the time it had left.  Days already charged
    are not given back; the time they paid stays in `vacation_paid_until`.
    Raises InvalidRequest when not on vacation."""
    now = now or timezone.now()
    with transaction.atomic():
        games, user = _lock_games_then_user(user.pk)
        if user.vacation_started is None:
            raise InvalidRequest(_("You are not on vacation."))
        return _end(games, user, at or now)


def _end(games: list[Game], user, at: datetime):
    user.vacation_started = None
    user.vacation_until = None
    user.save(update_fields=["vacation_started", "vacation_until"])
    resumed = _apply_to_games(games, user.pk, lambda seat: _resume(seat, at))
    logger.info("user %s back from vacation at %s (%s clocks resumed)", user.pk, at, resumed)
    return user


def settle_vacation(user_id: int, now: datetime | None = None) -> str:
    """The clock check's part for one user on vacation: charge the days that
    fell due (one per 24 hours, from the end of the time paid); end the
    vacation at its planned end, or at the end of the time paid when a day
    fell due and none was left.  Returns "ended", "charged" or "" (nothing)."""
    now = now or timezone.now()
    with transaction.atomic():
        games, user = _lock_games_then_user(user_id)
        if user.vacation_started is None:
            return ""
        paid = user.vacation_paid_until or user.vacation_started
        until = user.vacation_until
        charged = 0
        while paid <= now and (until is None or paid < until) and user.vacation_days > 0:
            user.vacation_days -= 1
            paid += DAY
            charged += 1
        if charged:
            user.vacation_paid_until = paid
            user.save(update_fields=["vacation_days", "vacation_paid_until"])
        if until is not None and until <= now:
            _end(games, user, min(until, paid))
            return "ended"
        if paid <= now:  # the allowance ran out
            _end(games, user, paid)
            return "ended"
        return "charged" if charged else ""


def repair_clocks(now: datetime | None = None) -> int:
    """Keep the pauses consistent with who is on vacation: a clock of a player
    on vacation that runs (a game that started at the very moment the
    vacation did) is paused, and a paused clock of a player who is not on
    vacation starts again now.  Normally there is nothing to do."""
    now = now or timezone.now()
    fixed = 0
    running = Seat.objects.filter(
        user__vacation_started__isnull=False, deadline__isnull=False, game__status=Game.Status.ACTIVE
    ).values_list("user_id", flat=True)
    stale = Seat.objects.filter(
        user__vacation_started__isnull=True, paused_seconds__isnull=False, game__status=Game.Status.ACTIVE
    ).values_list("user_id", flat=True)
    for user_id in sorted(set(running)):
        with transaction.atomic():
            games, user = _lock_games_then_user(user_id)
            if user.vacation_started is not None:
                fixed += _apply_to_games(games, user_id, lambda seat: _pause(seat, now))
    for user_id in sorted(set(stale)):
        with transaction.atomic():
            games, user = _lock_games_then_user(user_id)
            if user.vacation_started is None:
                fixed += _apply_to_games(games, user_id, lambda seat: _resume(seat, now))
    return fixed


def settle_vacations(now: datetime | None = None) -> int:
    """Celery beat (check_clocks): settle every vacation with a day due or
    its end reached, then repair stray clocks.  Returns how many vacations
    ended."""
    now = now or timezone.now()
    ended = 0
    for user_id in due_vacation_user_ids(now):
        try:
            if settle_vacation(user_id, now) == "ended":
                ended += 1
        except Exception:  # one user's trouble must not stop the others' clocks
            logger.exception("vacation check failed for user %s", user_id)
    try:
        repair_clocks(now)
    except Exception:
        logger.exception("repairing paused clocks failed")
    return ended
