"""Bank-plus-increment clocks (as Little Golem and SchemingMind), alone and
under vacation."""

from datetime import timedelta

import pytest
from clock_steps import DAY, HOUR, T0, bank_game, seats, turn

from games import services, tasks
from games.models import Game

pytestmark = pytest.mark.django_db

def test_bank_after_turn_arithmetic():
    game = Game(days_per_move=3, increment_hours=24, bank_cap_days=5)
    deadline = T0 + 3 * DAY
    assert services.bank_after_turn(game, 3 * 86400, deadline, T0 + HOUR) == int((3 * DAY - HOUR + DAY).total_seconds())
    # The cap.
    assert services.bank_after_turn(game, 5 * 86400, T0 + 5 * DAY, T0) == 5 * 86400
    # Overrun covered by vacation: the bank at the turn's start was used up (0).
    assert services.bank_after_turn(game, 0, T0 + DAY, T0) == 86400
    # No cap.
    game.bank_cap_days = None
    assert services.bank_after_turn(game, 9 * 86400, T0 + 9 * DAY, T0) == 10 * 86400


def test_the_bank_runs_and_grows_by_the_increment_up_to_the_cap(alice, bob, clock):
    game = bank_game(alice, bank_cap_days=4)
    assert game.has_bank
    s = seats(game.pk)
    assert s["black"].deadline == T0 + 3 * DAY and s["white"].deadline is None
    clock["t"] = T0 + 2 * HOUR
    turn(game.pk, alice)  # used 2 h of 3 days; +24 h
    s = seats(game.pk)
    assert s["black"].deadline is None and s["black"].bank_seconds == int((4 * DAY - 2 * HOUR).total_seconds())
    assert s["white"].deadline == T0 + 2 * HOUR + 3 * DAY  # White's full starting bank
    clock["t"] += HOUR
    turn(game.pk, bob)
    clock["t"] += HOUR
    # Black's next turn: the banked time is its deadline.
    assert seats(game.pk)["black"].deadline == clock["t"] - HOUR + 4 * DAY - 2 * HOUR
    turn(game.pk, alice)  # 4 days - 2 h - 1 h + 1 day > the 4 days cap
    assert seats(game.pk)["black"].bank_seconds == 4 * 86400


def test_an_empty_bank_loses_on_time(alice, bob, clock):
    game = bank_game(alice)
    clock["t"] = T0 + 3 * DAY - timedelta(minutes=1)
    assert tasks.check_clocks() == 0  # the bank still holds a minute
    clock["t"] = T0 + 3 * DAY + timedelta(minutes=1)
    assert tasks.check_clocks() == 1
    assert Game.objects.get(pk=game.pk).result == {"winner": "white", "reason": "timeout"}


def test_vacation_covers_an_empty_bank_and_leaves_only_the_increment(alice, bob, clock):
    alice.auto_vacation, alice.vacation_days = True, 2
    alice.save()
    game = bank_game(alice)
    seat_id = seats(game.pk)["black"].pk
    passed = T0 + 3 * DAY
    clock["t"] = passed + timedelta(minutes=5)
    assert services.enforce_deadline(seat_id, now=clock["t"]) == "vacation"
    s = seats(game.pk)
    assert s["black"].deadline == passed + DAY and s["black"].bank_seconds == 0
    alice.refresh_from_db()
    assert alice.vacation_days == 1
    # Back from vacation within the paid day: the vacation paid for the
    # overrun, so the bank holds only the increment (not the vacation day left).
    clock["t"] = passed + 3 * HOUR
    turn(game.pk, alice)
    assert seats(game.pk)["black"].bank_seconds == 86400
    # The opponent's clock was untouched by Black's vacation.
    assert seats(game.pk)["white"].deadline == passed + 3 * HOUR + 3 * DAY


def test_vacation_pauses_nothing_while_the_bank_lasts(alice, bob, clock):
    """Vacation days are charged only when a deadline passes: a player on
    vacation with bank left keeps the bank, and no day is charged."""
    alice.auto_vacation, alice.vacation_days = True, 2
    alice.save()
    game = bank_game(alice)
    clock["t"] = T0 + DAY
    assert services.enforce_deadline(seats(game.pk)["black"].pk, now=clock["t"]) == "not_due"
    alice.refresh_from_db()
    assert alice.vacation_days == 2
    turn(game.pk, alice)
    assert seats(game.pk)["black"].bank_seconds == 3 * 86400  # 2 days left + 1 day


def test_bad_bank_settings_are_refused(alice, bob):
    with pytest.raises(services.InvalidRequest):
        bank_game(alice, increment_hours=-1)
    with pytest.raises(services.InvalidRequest):
        bank_game(alice, bank_cap_days=2)  # below the starting bank
    assert not Game.objects.exists()
