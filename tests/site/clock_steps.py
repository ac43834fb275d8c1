"""Steps the clock tests share (bank clocks, vacations): a fixed start time,
whole turns and the games they play. The `clock` fixture that moves the
services' time by hand is in conftest.py."""

from datetime import UTC, datetime, timedelta

from games import selectors, services
from games.engines import get_engine
from games.models import Game, Seat

DAY = timedelta(days=1)
HOUR = timedelta(hours=1)
T0 = datetime(2030, 3, 1, 12, 0, tzinfo=UTC)


def seats(game_id):
    return {s.color: s for s in Seat.objects.filter(game_id=game_id).select_related("user")}


def turn(game_id, user):
    """A whole turn: the first legal Move, then End Turn."""
    state = selectors.load_state(Game.objects.get(pk=game_id))
    move = next(a for a in get_engine().legal_actions(state) if a["type"] == "move")
    services.submit_action(game_id, user, move)
    services.submit_action(game_id, user, {"type": "end_turn"})


def bank_game(alice, **extra):
    """A game against bob on a bank clock: 3 days, +24 h a turn, a cap of 5 days (unless `extra` says)."""
    return services.create_game(
        creator=alice, opponent="user", username="bob", color="black", days_per_move=3,
        increment_hours=extra.pop("increment_hours", 24), bank_cap_days=extra.pop("bank_cap_days", 5), **extra,
    )
