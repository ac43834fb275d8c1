"""Submitting an action: the one write of a game's moves.

Under the game row lock (one statement reads the row, its seats and the
hash of its last log row), the player's turn and page version are
checked, the engine applies the action, and the log row, the state row,
the game row and the seats' view versions go to the database together;
the clocks, the notifications and the end of a game follow.  A refusal is
a GameError and changes nothing; anything else the engine raises is an
EngineFault (the transaction rolled back).  The doorbells ring after
commit (games.services.events).
"""

from __future__ import annotations

import logging

from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import doorbells
from games.engines import get_engine
from games.models import Game, GameAction, Notification, Seat
from games.registry import get_ui
from games.selectors import legal_actions, load_state, with_seats
from games.store import sql, states
from games.store.action_log import WITHDRAW, append_action

from . import clocks, events, lifecycle, seen, versions
from .errors import (
    EngineFault,
    GameError,
    GameNotActive,
    IllegalMove,
    MalformedAction,
    NotYourGame,
    NotYourTurn,
    StaleState,
    new_incident,
)

logger = logging.getLogger(__name__)


def _validate_action(action) -> dict:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise MalformedAction(_("That is not a valid action."))
    return action


def submit_action(
    game_id: int,
    user,
    action,
    expected_seq: int | None = None,
    expected_version: int | None = None,
    note_shown: bool = False,
) -> GameAction:
    """Apply one action for `user` in game `game_id` (see _submit_action).
    `note_shown`: the caller answers with the player's new board (an htmx
    submit), so the seat's record of what it was shown (note_board_shown,
    quiet) is written with the action, in its batch, not by a statement
    of its own afterwards.

    Any exception other than a refusal (GameError) or a database outage
    (DatabaseError, answered as a 503 by the middleware) is an engine fault:
    the transaction has rolled back, so nothing changed; the full trace is
    logged and the player gets EngineFault's plain message."""
    try:
        # Every doorbell its commit rings (both colours' views, the next
        # player's notice) in one Redis call, after the commit's other work.
        with doorbells.together():
            return _submit_action(game_id, user, action, expected_seq, expected_version, note_shown)
    except (GameError, DatabaseError):
        raise
    except Exception as exc:
        incident = new_incident()
        logger.exception(
            "engine fault %s in game %s: user %s, action %r",
            incident,
            game_id,
            getattr(user, "pk", None),
            action,
        )
        raise EngineFault(incident) from exc


def _save_game_row(batch: sql.Batch, game: Game) -> None:
    """What `game.save(update_fields=...)` of an action writes, as a statement
    of `batch`."""
    game.updated = timezone.now()
    sql.add_game_row(batch, game)


def _carry_turn_ends(game: Game, seats: list[Seat], rung: list[str], kind: str, actor: str) -> None:
    """After commit: each rung colour's Turn ends (for its highlights) follow
    from those of its previous view version (GameUI.carry_ends)."""
    if kind == WITHDRAW:
        return
    carry_ends = get_ui(game.engine).carry_ends
    for seat in seats:
        if seat.color in rung:
            transaction.on_commit(
                lambda c=seat.color, v=seat.version, s=game.seq: carry_ends(game, c, v, s, kind, actor)
            )


def locked_game(game_id: int) -> tuple[Game, list[Seat]]:
    """The game row, locked for this transaction (FOR UPDATE OF the game row
    only), with the hash of its last action row as `last_action_hash` (None
    before the first), and its seats with their users (by colour): one
    statement, one round trip (games.store.sql.locked_game_rows).  The next
    action row is chained to that hash (games.store.action_log)."""
    found = sql.locked_game_rows(game_id)
    if not found:
        raise Game.DoesNotExist(f"no game {game_id}")
    game = found[0][0]
    game.last_action_hash = found[0][3]
    seats = []
    for _game, seat, user, _hash in found:
        if seat is not None:
            seat.user = user
            seats.append(seat)
    return game, seats


def _submit_action(
    game_id: int, user, action, expected_seq: int | None, expected_version: int | None, note_shown: bool = False
) -> GameAction:
    """Apply one action for `user` in game `game_id`.

    Locks the game row, checks that it is the user's game and turn and that the
    caller's token is still current, asks the engine to apply the action,
    appends it to the log and updates the game.  The token is
    `expected_version` (the player's own view version, which their page
    showed: the one players send) or `expected_seq` (the game's global action
    count: for server-side callers only, as it counts unseen enemy actions).
    Raises a GameError subclass (nothing changed) when any of that fails."""
    action = _validate_action(action)
    with transaction.atomic():
        try:
            game, seats = locked_game(game_id)
        except Game.DoesNotExist:
            raise NotYourGame(_("There is no such game.")) from None
        seat = next((s for s in seats if user is not None and s.user_id == getattr(user, "pk", None)), None)
        if seat is None:
            raise NotYourGame(_("You are not playing in this game."))
        if game.status != Game.Status.ACTIVE:
            raise GameNotActive(_("This game is not in progress."))
        if (expected_seq is not None and int(expected_seq) != game.seq) or (
            expected_version is not None and int(expected_version) != seat.version
        ):
            raise StaleState(_("The board changed since you looked at it. Please look again."))
        engine = get_engine(game.engine)
        ui = get_ui(game.engine)
        state = load_state(game)
        if not ui.actor(engine, state, seat.color):
            raise NotYourTurn(_("It is not your turn."))
        # Only what the engine lists for the player is accepted, in the engine's
        # own form (so the log holds exactly the actions legal_actions gave);
        # the game's site package says how a posted action is matched.
        action = ui.accepts(engine, state, seat.color, action, legal_actions(engine, state))
        try:
            new_state = engine.apply(state, action)
        except ValueError as exc:  # the engine's IllegalAction is a ValueError
            raise IllegalMove(ui.refusal(str(exc)) or _("That action is not allowed.")) from exc
        # Anything else the engine raises on one of its own legal actions is a
        # bug on our side: submit_action reports it as an EngineFault.

        # The log row, the state row, the game row and the seats' versions go
        # to the database together (games.store.sql.Batch), at the flushes below.
        batch = sql.Batch()
        game.seq += 1
        # Hash-chained to the row before.
        entry = append_action(game, seat, action, prev=game.last_action_hash, batch=batch)
        game.last_action_type = action.get("type")  # for the game's after_settle (Turn-end views)
        # The current-state row (and a snapshot when due) in this same
        # transaction: the next load reads one row instead of replaying.
        states.save_state(game, new_state, turns_before=engine.turn_count(state), batch=batch)
        previous_to_move = game.to_move
        game.to_move = engine.to_move(new_state)
        result = engine.outcome(new_state)
        if result is not None:
            game.status = Game.Status.FINISHED
            game.result = result
        if result is not None or game.to_move != previous_to_move:
            game.turn_started = timezone.now()
        if game.draw_offer and game.to_move != previous_to_move and game.to_move == game.draw_offer:
            game.draw_offer = ""  # the other side played on instead of answering: the offer lapsed
        if game.undo_request and game.to_move != previous_to_move:
            game.undo_request = ""  # the opponent ended its turn instead of granting: the request lapsed
        _save_game_row(batch, game)
        if result is not None:
            batch.flush()  # the club's bookkeeping below reads the database
            clocks.set_clocks(game, seats)  # clears them
            events.notify_end(game, seats, actor=seat.user)
            lifecycle.announce_end(game, seats)
        elif game.to_move != previous_to_move:
            # The turn passed: the mover's clock stops, the other's starts.
            # (Writes only, none reading what the batch holds.)
            clocks.set_clocks(game, seats)
            nxt = next((s for s in seats if s.color == game.to_move), None)
            if nxt is not None:
                events.notify(game, nxt.user, Notification.Kind.YOUR_TURN, batch=batch)

        rung = versions.settle_views(game, seats, new_state, actor_color=seat.color, batch=batch)
        if note_shown:
            seen.note_shown_in_batch(game, seat, batch)
        batch.flush()
        _carry_turn_ends(game, seats, rung, action.get("type"), seat.color)
        # The game as written, with its seats (their new view versions): the
        # view answers from it instead of reading the game again.
        entry.game = with_seats(game, seats)
        if game.to_move != previous_to_move or not seat.user.is_ai:
            # The AI is woken when the turn passes to it (its own actions inside
            # its turn are made by the running task).
            if not (seat.user and seat.user.is_ai and game.to_move == seat.color):
                lifecycle.schedule_ai_if_needed(game)
        return entry
