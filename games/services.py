"""Writes.  Every change to a game goes through here.

Side effects (WebSocket broadcasts, Celery tasks) are only sent from
`transaction.on_commit`, so nothing is announced that did not land.
"""

from __future__ import annotations

import logging
import secrets

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from .engine import get_game_engine
from .models import Color, Game, GameAction, Seat, Snapshot, other_color
from .selectors import load_state

logger = logging.getLogger(__name__)


class GameError(Exception):
    """A request the site refuses; `status` is the HTTP status to answer with."""

    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotYourGame(GameError):
    status = 403


class GameNotActive(GameError):
    status = 409


class NotYourTurn(GameError):
    status = 409


class StaleState(GameError):
    status = 409


class MalformedAction(GameError):
    status = 400


class IllegalMove(GameError):
    status = 422


class InvalidRequest(GameError):
    status = 400


def group_name(game_id: int) -> str:
    return f"{settings.WEC_REDIS_PREFIX}.game.{game_id}"


def broadcast_changed(game_id: int, seq: int) -> None:
    """Tell the game's open pages that something changed.  Nothing else goes out."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group_name(game_id), {"type": "game.changed", "seq": seq})
    except Exception:  # a dead socket layer must not break a committed move
        logger.exception("broadcast for game %s failed", game_id)


def _schedule_ai_if_needed(game: Game) -> None:
    """After commit, wake the AI if it is to move in this game."""
    if game.status != Game.Status.ACTIVE:
        return
    seat = next((s for s in game.seats.all() if s.color == game.to_move), None)
    if seat is None or seat.user is None or not seat.user.is_ai:
        return
    game_id = game.pk

    def enqueue():
        from .tasks import play_ai_turn

        play_ai_turn.delay(game_id)

    transaction.on_commit(enqueue)


def _resolve_color(color: str) -> str:
    if color in (Color.BLACK, Color.WHITE):
        return color
    if color in ("random", "", None):
        return secrets.choice([Color.BLACK, Color.WHITE])
    raise InvalidRequest(_("Unknown color: %(color)s") % {"color": color})


def _initial_snapshot(game: Game, scenario: dict | None = None) -> None:
    engine = get_game_engine(game.engine)
    try:
        if scenario is not None:
            state = engine.load_scenario(scenario)
        else:
            state = engine.new_game(game.options or None)
    except ValueError as exc:
        raise InvalidRequest(_("Bad game setup: %(error)s") % {"error": exc}) from exc
    Snapshot.objects.create(game=game, seq=0, state=engine.dump_scenario(state))
    game.to_move = engine.to_move(state)


def get_ai_user():
    User = get_user_model()
    user = User.objects.filter(is_ai=True).order_by("pk").first()
    if user is None:
        user = ensure_ai_player()
    return user


def ensure_ai_player():
    """Create (or repair) the server's AI account.  Idempotent."""
    User = get_user_model()
    user, created = User.objects.get_or_create(
        username=settings.WEC_AI_USERNAME,
        defaults={"display_name": "Wec AI", "is_ai": True, "email": ""},
    )
    changed = False
    if not user.is_ai:
        user.is_ai = True
        changed = True
    if user.has_usable_password():
        user.set_unusable_password()
        changed = True
    if changed or created:
        user.save()
    return user


@transaction.atomic
def create_game(
    *, creator, opponent: str, color: str = "random", username: str = "", options=None, scenario=None
) -> Game:
    """Start a game.  `opponent` is "user" (with `username`), "open" (a seek) or "ai".

    `scenario` (optional) is a board-editor document for the engine's
    load_scenario; without it the standard game with `options` is set up."""
    User = get_user_model()
    options = dict(options or {})
    my_color = _resolve_color(color)
    opponent_user = None
    if opponent == "user":
        username = (username or "").strip()
        opponent_user = User.objects.filter(username__iexact=username, is_active=True).first()
        if opponent_user is None:
            raise InvalidRequest(_("There is no player called “%(name)s”.") % {"name": username})
        if opponent_user.pk == creator.pk:
            raise InvalidRequest(_("You cannot challenge yourself."))
    elif opponent == "ai":
        opponent_user = get_ai_user()
    elif opponent != "open":
        raise InvalidRequest(_("Choose an opponent."))

    if scenario is not None and not options:
        options = dict(scenario.get("options") or {})
    # Correspondence games are competitive: options are fixed, there is no
    # Undo, and each player's history leaves out what that player never saw.
    options["competitive"] = True
    if scenario is not None:
        scenario = {**scenario, "options": {**(scenario.get("options") or {}), "competitive": True}}
    game = Game.objects.create(
        engine=settings.WEC_ENGINE_NAME,
        options=options,
        status=Game.Status.OPEN if opponent == "open" else Game.Status.ACTIVE,
        created_by=creator,
    )
    Seat.objects.create(game=game, color=my_color, user=creator)
    Seat.objects.create(game=game, color=other_color(my_color), user=opponent_user)
    _initial_snapshot(game, scenario)
    game.save()
    game = Game.objects.prefetch_related("seats__user").get(pk=game.pk)
    _schedule_ai_if_needed(game)
    return game


@transaction.atomic
def accept_seek(*, game_id: int, user) -> Game:
    game = Game.objects.select_for_update().get(pk=game_id)
    if game.status != Game.Status.OPEN:
        raise GameNotActive(_("This seek was already taken or withdrawn."))
    seats = list(Seat.objects.select_for_update().filter(game=game))
    if any(s.user_id == user.pk for s in seats):
        raise InvalidRequest(_("You cannot accept your own seek."))
    empty = next((s for s in seats if s.user_id is None), None)
    if empty is None:
        raise GameNotActive(_("This seek was already taken or withdrawn."))
    empty.user = user
    empty.save(update_fields=["user"])
    game.status = Game.Status.ACTIVE
    game.save(update_fields=["status", "updated"])
    seq = game.seq
    transaction.on_commit(lambda: broadcast_changed(game_id, seq))
    game = Game.objects.prefetch_related("seats__user").get(pk=game.pk)
    _schedule_ai_if_needed(game)
    return game


@transaction.atomic
def cancel_seek(*, game_id: int, user) -> None:
    game = Game.objects.select_for_update().get(pk=game_id)
    if game.status != Game.Status.OPEN or not game.seats.filter(user=user).exists():
        raise InvalidRequest(_("You can only withdraw your own open seek."))
    game.status = Game.Status.CANCELLED
    game.save(update_fields=["status", "updated"])


def _validate_action(action) -> dict:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise MalformedAction(_("That is not a valid action."))
    return action


# Keys a player may leave out when only one of their pieces fits.
_OPTIONAL_IDS = ("piece", "to_piece")


def normalise_action(action) -> object:
    """An action in one canonical form for comparison: lists for tuples, no
    None values, no `carry: false`, a Transport's default `path`, dozed Squares
    sorted."""

    def norm(value):
        if isinstance(value, (list, tuple)):
            return [norm(v) for v in value]
        if isinstance(value, dict):
            return {str(k): norm(v) for k, v in value.items() if v is not None}
        return value

    out = norm(action)
    if not isinstance(out, dict):
        return out
    if out.get("carry") is False:
        del out["carry"]
    if out.get("type") == "fire" and "to" in out and "path" not in out:
        out["path"] = "beeline"
    if isinstance(out.get("doze"), list):
        out["doze"] = sorted(out["doze"], key=repr)
    return out


def match_legal_action(action: dict, legal: list[dict]) -> dict:
    """The entry of `legal` (the player's legal_actions) that `action` is, after
    normalising; an action leaving out `piece` / `to_piece` matches when exactly
    one entry fits.  Raises IllegalMove (nothing else fits) or MalformedAction
    (several of the player's pieces could do it)."""
    wanted = normalise_action(action)
    for candidate in legal:
        if normalise_action(candidate) == wanted:
            return candidate
    left_out = [k for k in _OPTIONAL_IDS if k not in wanted]
    if left_out:
        fits = {}
        for candidate in legal:
            norm = normalise_action(candidate)
            for key in left_out:
                norm.pop(key, None)
            if norm == wanted:
                fits[repr(normalise_action(candidate))] = candidate
        if len(fits) == 1:
            return next(iter(fits.values()))
        if len(fits) > 1:
            raise MalformedAction(_("Several of your pieces could do that; choose one of them first."))
    kind = action.get("type")
    if kind == "end_turn" and legal:
        raise IllegalMove(_("Make your Move before you end your turn."))
    if kind not in _ACTION_TYPES:
        raise IllegalMove(_("There is no such action."))
    raise IllegalMove(_("That action is not allowed now."))


_ACTION_TYPES = ("move", "end_turn", "fire", "pickup", "drop", "exchange", "reinforce")


def submit_action(game_id: int, user, action, expected_seq: int | None) -> GameAction:
    """Apply one action for `user` in game `game_id`.

    Locks the game row, checks that it is the user's game and turn and that
    `expected_seq` (the seq the player's page showed) is still current, asks the
    engine to apply the action, appends it to the log and updates the game.
    Raises a GameError subclass (nothing changed) when any of that fails."""
    action = _validate_action(action)
    with transaction.atomic():
        try:
            game = Game.objects.select_for_update().get(pk=game_id)
        except Game.DoesNotExist:
            raise NotYourGame(_("There is no such game.")) from None
        seats = list(Seat.objects.select_related("user").filter(game=game))
        seat = next((s for s in seats if user is not None and s.user_id == getattr(user, "pk", None)), None)
        if seat is None:
            raise NotYourGame(_("You are not playing in this game."))
        if game.status != Game.Status.ACTIVE:
            raise GameNotActive(_("This game is not in progress."))
        if expected_seq is not None and int(expected_seq) != game.seq:
            raise StaleState(_("The board changed since you looked at it. Please look again."))
        engine = get_game_engine(game.engine)
        state = load_state(game)
        if engine.to_move(state) != seat.color:
            raise NotYourTurn(_("It is not your turn."))
        # Only what the engine lists for the player is accepted, in the engine's
        # own form (so the log holds exactly the actions legal_actions gave).
        action = match_legal_action(action, engine.legal_actions(state))
        try:
            new_state = engine.apply(state, action)
        except ValueError as exc:  # the engine's IllegalAction is a ValueError
            raise IllegalMove(str(exc) or _("That action is not allowed.")) from exc
        except (KeyError, TypeError, IndexError) as exc:
            raise MalformedAction(_("That is not a valid action.")) from exc

        game.seq += 1
        entry = GameAction.objects.create(game=game, seq=game.seq, seat=seat, action=action)
        every = max(1, int(settings.WEC_SNAPSHOT_EVERY))
        if game.seq % every == 0:
            Snapshot.objects.create(game=game, seq=game.seq, state=engine.dump_scenario(new_state))
        previous_to_move = game.to_move
        game.to_move = engine.to_move(new_state)
        result = engine.outcome(new_state)
        if result is not None:
            game.status = Game.Status.FINISHED
            game.result = result
        game.save(update_fields=["seq", "to_move", "status", "result", "updated"])

        seq = game.seq
        transaction.on_commit(lambda: broadcast_changed(game_id, seq))
        if game.to_move != previous_to_move or not seat.user.is_ai:
            # The AI is woken when the turn passes to it (its own actions inside
            # its turn are made by the running task).
            if not (seat.user and seat.user.is_ai and game.to_move == seat.color):
                game._prefetched_objects_cache = {"seats": seats}
                _schedule_ai_if_needed(game)
        return entry


def resign(game_id: int, user) -> Game:
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        seat = Seat.objects.filter(game=game, user=user).first()
        if seat is None:
            raise NotYourGame(_("You are not playing in this game."))
        if game.status != Game.Status.ACTIVE:
            raise GameNotActive(_("This game is not in progress."))
        game.status = Game.Status.FINISHED
        game.result = {"winner": other_color(seat.color), "reason": "resignation"}
        game.save(update_fields=["status", "result", "updated"])
        seq = game.seq
        transaction.on_commit(lambda: broadcast_changed(game_id, seq))
        return game
