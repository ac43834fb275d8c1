"""Take-backs and undo requests in friendly games.

The action log is append-only (games.store.action_log), so neither ever
removes a row: each appends a *withdrawal*, `{"type": "withdraw", "steps":
n, "why": ...}`, which cancels the last `n` actions still in effect.
Replaying it is the engine's own undo (a replay from the game's start), so
every reader of the log (games.store.states, verify_games, the review)
gets the same state by calling `action_log.apply_entry`.

* A take-back (`why` "take_back"): the side to move cancels actions of the
  Turn in progress, before ending it.
* A granted undo (`why` "undo"): after a player ended a Turn, they may ask the
  opponent to undo it; the opponent, whose turn it now is, grants it, and the
  game goes back to the start of the asker's Turn (the opponent's own actions
  of the Turn in progress are cancelled with it).

Competitive games have neither: a Fire may have revealed something, and
taking it back would keep the knowledge and lose the cost.

What the opponent sees (docs/board.md, "Take-backs and undo requests"): only
its own view of the position after the withdrawal, as after any other action.
If the cancelled actions were unseen, that view is unchanged and the opponent
hears nothing at all (no doorbell, no version change); if they were seen, the
opponent sees the position go back, which tells it nothing it had not seen.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engines import UndoEngine
from games.models import Game, GameAction, Notification, Seat
from games.selectors.takeback import undo_engine_of
from games.store import states
from games.store.action_log import WITHDRAW, append_action

from . import clocks, events, versions
from .errors import GameError, GameNotActive, IllegalMove, InvalidRequest, NotYourTurn, StaleState
from .locks import locked, player_seat


class NotFriendly(GameError):
    """Take-backs and undo requests exist only in friendly games."""

    status = 403


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
    game, seats = locked(game_id)
    seat = player_seat(seats, user)
    engine = _check_friendly(game)
    _check_version(seat, expected_version)
    state = states.load_current(game)
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
    states.save_state(game, new_state, turns_before=engine.turn_count(state))
    game.save(update_fields=["seq", "updated"])
    versions.settle_views(game, seats, new_state, actor_color=seat.color)
    return entry


def _opponent(seats: list[Seat], seat: Seat) -> Seat:
    return next(s for s in seats if s.pk != seat.pk)


@transaction.atomic
def request_undo(game_id: int, user) -> Game:
    """After ending a Turn, ask the opponent to undo it (a friendly game only;
    while it is the opponent's turn)."""
    game, seats = locked(game_id)
    seat = player_seat(seats, user)
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
    if engine.turn_count(states.load_current(game)) < 1:
        raise InvalidRequest(_("There is no turn of yours to undo yet."))
    game.undo_request = seat.color
    game.save(update_fields=["undo_request", "updated"])
    events.notify(game, other.user, Notification.Kind.UNDO_REQUEST)
    versions.settle_views(game, seats)
    return game


@transaction.atomic
def answer_undo(game_id: int, user, grant: bool) -> Game:
    """The opponent grants the standing undo request (the game goes back to
    the start of the asker's last Turn) or declines it; the asker may withdraw
    it (a decline)."""
    game, seats = locked(game_id)
    seat = player_seat(seats, user)
    engine = _check_friendly(game)
    if not game.undo_request:
        raise GameNotActive(_("There is no undo request to answer."))
    if not grant:
        game.undo_request = ""
        game.save(update_fields=["undo_request", "updated"])
        versions.settle_views(game, seats)
        return game
    if game.undo_request == seat.color:
        raise InvalidRequest(_("Your opponent must grant your undo request."))
    state = states.load_current(game)
    if engine.to_move(state) != seat.color:  # the request lapses when the turn passes
        raise GameNotActive(_("There is no undo request to answer."))
    steps = engine.steps_back_to_turn(state, 1)
    new_state = engine.undo(state, steps)
    _append_withdrawal(game, seat, steps, "undo")
    # Finished Turns are rolled back: their stored records go (the log keeps every row).
    states.save_rolled_back(game, new_state)
    asker = _opponent(seats, seat)
    game.to_move = engine.to_move(new_state)
    game.undo_request = ""
    game.turn_started = timezone.now()
    game.save(update_fields=["seq", "to_move", "undo_request", "turn_started", "history_epoch", "updated"])
    clocks.set_clocks(game, seats)
    events.notify(game, asker.user, Notification.Kind.YOUR_TURN)
    versions.settle_views(game, seats, new_state, actor_color=seat.color)
    return game
