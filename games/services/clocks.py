"""The clocks: days per move or a bank per player, started for the side to
move and stopped for the other whenever the turn passes, frozen while the
player is on an explicit vacation (games.vacation)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from games.models import Game, Seat


def _paused_by_vacation(seat: Seat) -> bool:
    """Whether this seat's clock must not run now: its player is on an
    explicit vacation (games.vacation)."""
    user = seat.user if seat.user_id else None
    return user is not None and user.vacation_started is not None


def _store_clock(seat: Seat, **values) -> None:
    """Write the clock fields that changed (deadline, paused_seconds, bank_seconds)."""
    changed = {k: v for k, v in values.items() if getattr(seat, k) != v}
    if changed:
        for key, value in changed.items():
            setattr(seat, key, value)
        Seat.objects.filter(pk=seat.pk).update(**changed)


def set_clocks(game: Game, seats: list[Seat], now: datetime | None = None) -> None:
    """The side to move's deadline starts now (days_per_move from now); the
    other side has none.  A game without a clock, or not in progress, has none.
    A player on vacation gets the whole time frozen (`paused_seconds`)
    instead of a deadline: the clock starts when the vacation ends."""
    now = now or timezone.now()
    if game.has_bank:
        _set_bank_clocks(game, seats, now)
        return
    for seat in seats:
        running = game.status == Game.Status.ACTIVE and game.has_clock and seat.color == game.to_move
        paused = running and _paused_by_vacation(seat)
        _store_clock(
            seat,
            deadline=now + timedelta(days=game.days_per_move) if running and not paused else None,
            paused_seconds=int(game.days_per_move) * 86400 if paused else None,
        )


def bank_after_turn(game: Game, bank_at_start: int | None, deadline: datetime, now: datetime) -> int:
    """The bank (seconds) a player keeps after ending a turn at `now` whose
    time ran out at `deadline`: what was left plus the increment, at most the
    cap.  What is left is never more than the bank the turn started with
    (`bank_at_start`): when vacation moved the deadline past an exhausted bank
    (enforce_deadline sets that bank to 0), the vacation days paid for the
    overrun and the player keeps only the increment."""
    return bank_after_left(game, bank_at_start, max(0, int((deadline - now).total_seconds())))


def bank_after_left(game: Game, bank_at_start: int | None, left: int) -> int:
    """The bank after a turn that ended with `left` seconds on the clock (a
    running clock's time to its deadline, or a paused clock's frozen time)."""
    left = max(0, int(left))
    if bank_at_start is not None:
        left = min(left, int(bank_at_start))
    bank = left + int(game.increment_hours or 0) * 3600
    if game.bank_cap_days is not None:
        bank = min(bank, int(game.bank_cap_days) * 86400)
    return bank


def _set_bank_clocks(game: Game, seats: list[Seat], now: datetime) -> None:
    """Bank clocks: the side that just ended its turn banks its time left plus
    the increment; the side to move gets its whole bank as its deadline (or,
    on vacation, frozen as `paused_seconds`)."""
    active = game.status == Game.Status.ACTIVE
    for seat in seats:
        running = active and seat.color == game.to_move
        bank, deadline, paused = seat.bank_seconds, seat.deadline, seat.paused_seconds
        if not running:
            if active and deadline is not None:
                bank = bank_after_turn(game, bank, deadline, now)
            elif active and paused is not None:  # a turn played while on vacation
                bank = bank_after_left(game, bank, paused)
            deadline = paused = None
        elif deadline is None and paused is None:
            if bank is None:
                bank = int(game.days_per_move) * 86400
            if _paused_by_vacation(seat):
                paused = bank
            else:
                deadline = now + timedelta(seconds=bank)
        _store_clock(seat, bank_seconds=bank, deadline=deadline, paused_seconds=paused)
