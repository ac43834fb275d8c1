"""Take-backs and undo requests in friendly games (issues 13 and 14).

The action log is append-only (games.integrity), so neither ever removes a
row: each appends a *withdrawal*, `{"type": "withdraw", "steps": n, "why": ...}`,
which cancels the last `n` actions still in effect.  Replaying it is the
engine's own undo (a replay from the game's start; games.rules.wec.undo), so
every reader of the log (games.state_store, verify_games, the review) gets
the same state by calling `state_store.apply_entry`.

* A take-back (`why` "take_back"): the side to move cancels actions of the
  Turn in progress, before ending it.
* A granted undo (`why` "undo"): after a player ended a Turn, they may ask the
  opponent to undo it; the opponent, whose turn it now is, grants it, and the
  game goes back to the start of the asker's Turn (the opponent's own actions
  of the Turn in progress are cancelled with it).

Competitive games have neither: a Fire may have revealed something, and
taking it back would keep the knowledge and lose the cost.

What the opponent sees (docs/site.md, "Take-backs and undo requests"): only
its own view of the position after the withdrawal, as after any other action.
If the cancelled actions were unseen, that view is unchanged and the opponent
hears nothing at all (no doorbell, no version change); if they were seen, the
opponent sees the position go back, which tells it nothing it had not seen.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .engines import UndoEngine, undo_engine
from .models import Game, GameAction, Notification, Seat
from .services import (
    GameError,
    GameNotActive,
    IllegalMove,
    InvalidRequest,
    NotYourGame,
    NotYourTurn,
    StaleState,
    _notify,
    _set_clocks,
    settle_views,
)
from .store import states as state_store
from .store.action_log import WITHDRAW, append_action


class NotFriendly(GameError):
    """Take-backs and undo requests exist only in friendly games."""

    status = 403


def _locked(game_id: int) -> tuple[Game, list[Seat]]:
    try:
        game = Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise NotYourGame(_("There is no such game.")) from None
    seats = list(Seat.objects.select_related("user").filter(game=game))
    return game, seats


def _my_seat(seats: list[Seat], user) -> Seat:
    seat = next((s for s in seats if user is not None and s.user_id == getattr(user, "pk", None)), None)
    if seat is None:
        raise NotYourGame(_("You are not playing in this game."))
    return seat


def undo_engine_of(game: Game) -> UndoEngine | None:
    """The game's engine when the game may take actions back: friendly, and
    an engine that can (games.engines.UndoEngine); else None."""
    return None if game.competitive else undo_engine(game.engine)


def _check_friendly(game: Game) -> UndoEngine:
    """The game's engine, for a game in progress that may take actions back."""
    if game.status != Game.Status.ACTIVE:
        raise GameNotActive(_("This game is not in progress."))
    engine = undo_engine_of(game)
    if engine is None:
        raise NotFriendly(_("Competitive games have no take-backs and no undo."))
    return engine


def _check_version(seat: Seat, expected_version: int | None) -> None:
    if expected_version is not None and int(expected_version) != seat.version:
        raise StaleState(_("The board changed since you looked at it. Please look again."))


def _append_withdrawal(game: Game, seat: Seat, steps: int, why: str) -> GameAction:
    game.seq += 1
    return append_action(game, seat, {"type": WITHDRAW, "steps": int(steps), "why": why})


@transaction.atomic
def take_back(game_id: int, user, steps: int = 1, expected_version: int | None = None) -> GameAction:
    """The side to move cancels its last `steps` actions of the Turn in
    progress (a friendly game only).  Raises a GameError, changing nothing,
    when that is not possible."""
    game, seats = _locked(game_id)
    seat = _my_seat(seats, user)
    engine = _check_friendly(game)
    _check_version(seat, expected_version)
    state = state_store.load_current(game)
    if engine.to_move(state) != seat.color:
        raise NotYourTurn(_("It is not your turn."))
    try:
        steps = int(steps)
    except (TypeError, ValueError):
        raise InvalidRequest(_("Say how many actions to take back.")) from None
    available = engine.actions_this_turn(state)
    if available == 0:
        raise IllegalMove(_("You have no action to take back this turn."))
    if not 1 <= steps <= available:
        raise InvalidRequest(
            _("You can take back between 1 and %(n)d actions of this turn.") % {"n": available}
        )
    new_state = engine.undo(state, steps)
    entry = _append_withdrawal(game, seat, steps, "take_back")
    state_store.save_state(game, new_state, turns_before=engine.turn_count(state))
    game.save(update_fields=["seq", "updated"])
    settle_views(game, seats, new_state, actor_color=seat.color)
    return entry


def _opponent(seats: list[Seat], seat: Seat) -> Seat:
    return next(s for s in seats if s.pk != seat.pk)


@transaction.atomic
def request_undo(game_id: int, user) -> Game:
    """After ending a Turn, ask the opponent to undo it (a friendly game only;
    while it is the opponent's turn)."""
    game, seats = _locked(game_id)
    seat = _my_seat(seats, user)
    engine = _check_friendly(game)
    other = _opponent(seats, seat)
    if other.user is not None and other.user.is_ai:
        raise InvalidRequest(_("The AI does not grant undo requests."))
    if game.undo_request == seat.color:
        raise InvalidRequest(_("You already asked for an undo."))
    if game.undo_request:
        raise InvalidRequest(_("Your opponent asked for an undo: grant or decline it first."))
    if game.to_move == seat.color:
        raise InvalidRequest(_("You can ask for an undo only after ending your turn, before your opponent ends theirs."))
    if engine.turn_count(state_store.load_current(game)) < 1:
        raise InvalidRequest(_("There is no turn of yours to undo yet."))
    game.undo_request = seat.color
    game.save(update_fields=["undo_request", "updated"])
    _notify(game, other.user, Notification.Kind.UNDO_REQUEST)
    settle_views(game, seats)
    return game


@transaction.atomic
def answer_undo(game_id: int, user, grant: bool) -> Game:
    """The opponent grants the standing undo request (the game goes back to
    the start of the asker's last Turn) or declines it; the asker may withdraw
    it (a decline)."""
    game, seats = _locked(game_id)
    seat = _my_seat(seats, user)
    engine = _check_friendly(game)
    if not game.undo_request:
        raise GameNotActive(_("There is no undo request to answer."))
    if not grant:
        game.undo_request = ""
        game.save(update_fields=["undo_request", "updated"])
        settle_views(game, seats)
        return game
    if game.undo_request == seat.color:
        raise InvalidRequest(_("Your opponent must grant your undo request."))
    state = state_store.load_current(game)
    if engine.to_move(state) != seat.color:  # the request lapses when the turn passes
        raise GameNotActive(_("There is no undo request to answer."))
    steps = engine.steps_back_to_turn(state, 1)
    new_state = engine.undo(state, steps)
    _append_withdrawal(game, seat, steps, "undo")
    # Finished Turns are rolled back: their stored records go (the log keeps every row).
    state_store.save_rolled_back(game, new_state)
    asker = _opponent(seats, seat)
    game.to_move = engine.to_move(new_state)
    game.undo_request = ""
    game.turn_started = timezone.now()
    game.save(update_fields=["seq", "to_move", "undo_request", "turn_started", "history_epoch", "updated"])
    _set_clocks(game, seats)
    _notify(game, asker.user, Notification.Kind.YOUR_TURN)
    settle_views(game, seats, new_state, actor_color=seat.color)
    return game


# --- reads ---------------------------------------------------------------------------


@dataclass
class Controls:
    """What the take-back partial shows one player."""

    can_take_back: bool
    can_request: bool
    requested_by_me: bool
    requested_by_opponent: bool
    can_grant: bool


def controls(game: Game, seat: Seat | None, state) -> Controls | None:
    """The player's take-back and undo controls, or None (competitive games,
    spectators, games not in progress).  Uses only what the player sees:
    whose turn it is, its own actions this Turn, and the standing request."""
    engine = undo_engine_of(game)
    if seat is None or game.status != Game.Status.ACTIVE or engine is None:
        return None
    my_turn = game.to_move == seat.color
    opponent = next((s for s in game.seats.all() if s.pk != seat.pk), None)
    against_ai = opponent is not None and opponent.user is not None and opponent.user.is_ai
    return Controls(
        can_take_back=my_turn and engine.actions_this_turn(state) > 0,
        can_request=(
            not my_turn and not game.undo_request and not against_ai and engine.turn_count(state) >= 1
        ),
        requested_by_me=game.undo_request == seat.color,
        requested_by_opponent=bool(game.undo_request) and game.undo_request != seat.color,
        can_grant=bool(game.undo_request) and game.undo_request != seat.color and my_turn,
    )
