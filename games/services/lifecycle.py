"""A game's life outside its moves: creating it (a game, a seek, a
challenge, a game against the AI), accepting a seek, withdrawing a seek or
a challenge, resigning, the end of a game without a move (resignation,
time, agreement) and what every end brings, and the AI player's account
and its wake-up call."""

from __future__ import annotations

import logging
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import close_old_connections, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import doorbells, queue
from games.engines import get_engine
from games.models import Color, Game, Notification, Seat, other_color
from games.registry import UI_REGISTRY, get_ui
from games.store import states

from . import clocks, events, signals, versions
from .errors import EngineFault, GameNotActive, InvalidRequest, NotYourGame, new_incident
from .locks import player_seat

logger = logging.getLogger(__name__)


def schedule_ai_if_needed(game: Game) -> None:
    """After commit, wake the AI if it is to move in this game."""
    if game.status != Game.Status.ACTIVE:
        return
    seat = next((s for s in game.seats.all() if s.color == game.to_move), None)
    if seat is None or seat.user is None or not seat.user.is_ai:
        return
    game_id = game.pk

    def enqueue():
        try:
            queue.play_ai_turn(game_id)
        except Exception:  # a dead broker must not turn a committed action into an error page
            logger.exception("could not queue the AI turn for game %s", game_id)
            if doorbells.in_background():
                # On the doorbell thread, whose connection no request checks.
                close_old_connections()
            Game.objects.filter(pk=game_id).update(
                needs_attention=True, attention_note="the AI's turn could not be queued"
            )

    events.enqueue_after_response(enqueue)


def _resolve_color(color: str) -> str:
    if color in (Color.BLACK, Color.WHITE):
        return color
    if color in ("random", "", None):
        return secrets.choice([Color.BLACK, Color.WHITE])
    raise InvalidRequest(_("Unknown color: %(color)s") % {"color": color})


def initial_snapshot(game: Game, scenario: dict | None = None):
    engine = get_engine(game.engine)
    try:
        if scenario is not None:
            state = engine.load_scenario(scenario)
        else:
            state = engine.new_game(get_ui(game.engine).engine_options(game.options or {}) or None)
        to_move = engine.to_move(state)
    except ValueError as exc:
        raise InvalidRequest(_("Bad game setup: %(error)s") % {"error": exc}) from exc
    except Exception as exc:  # an engine bug: the caller's transaction rolls back
        incident = new_incident()
        logger.exception("engine fault %s while setting up game %s", incident, game.pk)
        raise EngineFault(incident) from exc
    # The start is always a snapshot (verify_games replays from it).
    states.save_state(game, state, turns_before=None, snapshot=True)
    game.to_move = to_move
    return state


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


_DEFAULT = object()


def resolve_days(days_per_move, opponent: str) -> int | None:
    if opponent == "ai":
        return None  # the AI answers at once; the person plays at leisure
    if days_per_move is _DEFAULT:
        return int(settings.WEC_DEFAULT_DAYS_PER_MOVE)
    if days_per_move in (None, "", "none"):
        return None
    try:
        days = int(days_per_move)
    except (TypeError, ValueError):
        days = -1
    if days not in settings.WEC_DAYS_PER_MOVE_CHOICES:
        raise InvalidRequest(_("Choose one of the offered times per move."))
    return days


def _resolve_increment(hours) -> int | None:
    if hours in (None, ""):
        return None
    try:
        hours = int(hours)
    except (TypeError, ValueError):
        hours = -1
    if not 0 <= hours <= 24 * 14:
        raise InvalidRequest(_("The increment must be between 0 and 336 hours."))
    return hours


def _resolve_cap(days, bank_days: int) -> int | None:
    if days in (None, ""):
        return None
    try:
        days = int(days)
    except (TypeError, ValueError):
        days = -1
    if not bank_days <= days <= 60:
        raise InvalidRequest(_("The bank cap must be at least the starting bank and at most 60 days."))
    return days


def record_terms(engine: str, competitive: bool, open_record) -> dict:
    """The record term of a game's options: ``{"open_record": bool}`` for a
    game whose package has an open record (False unless agreed), nothing for
    one that has none.  An open record asked of a competitive game, or of a
    game without one, is refused (400) rather than dropped."""
    if isinstance(open_record, str) or not isinstance(open_record, (bool, type(None))):
        raise InvalidRequest(_("Choose whether the record is open."))
    if open_record and competitive:
        raise InvalidRequest(_("An open record is for friendly games only."))
    if not get_ui(engine).OPEN_RECORD:
        if open_record:
            raise InvalidRequest(_("This game has no open record."))
        return {}
    return {"open_record": bool(open_record)}


@transaction.atomic
def create_game(
    *,
    creator,
    opponent: str,
    color: str = "random",
    username: str = "",
    options=None,
    scenario=None,
    days_per_move=_DEFAULT,
    as_challenge: bool = False,
    competitive: bool = True,
    open_record: bool = False,
    increment_hours: int | None = None,
    bank_cap_days: int | None = None,
    ai_level: str = "easy",
    ai_clock: bool = False,
    engine: str | None = None,
) -> Game:
    """Start a game.  `opponent` is "user" (with `username`), "open" (a seek) or "ai".

    `days_per_move` is the clock: one of WEC_DAYS_PER_MOVE_CHOICES, or None for
    no clock (default WEC_DEFAULT_DAYS_PER_MOVE; games against the AI never
    have one).  `scenario` (optional) is a board-editor document for the
    engine's load_scenario; without it the standard game with `options` is set up.

    `as_challenge` (the lobby's direct challenges): the named player must
    accept first (status CHALLENGE, no clock running until then; see
    games.club.challenges).  `competitive` False makes a friendly game;
    `open_record` (friendly games of a game that has one only, else a 400)
    is the term both players agreed to: every hidden action shows in both
    records while the game runs.  Against
    the AI (also when it is named as the user) there is no clock unless
    `ai_clock`; `ai_level` is stored for the AI task.  `engine` names the game
    (games.registry.UI_REGISTRY; default WEC_ENGINE_NAME)."""
    User = get_user_model()
    # Options given with a scenario replace the scenario's own (the start form
    # showed them filled in); None keeps the scenario's.
    if scenario is not None and options is None:
        options = scenario.get("options") or {}
    options = dict(options or {})
    engine = engine or settings.WEC_ENGINE_NAME
    if engine not in UI_REGISTRY:
        raise InvalidRequest(_("Unknown game: %(name)s") % {"name": engine})
    my_color = _resolve_color(color)
    opponent_user = None
    if opponent == "user":
        username = (username or "").strip()
        opponent_user = User.objects.filter(username__iexact=username, is_active=True).first()
        if opponent_user is None:
            raise InvalidRequest(_("There is no player called “%(name)s”.") % {"name": username})
        if opponent_user.pk == creator.pk:
            raise InvalidRequest(_("You cannot challenge yourself."))
        if opponent_user.is_ai:
            # Naming the AI account is a game against the AI, with its rules.
            opponent = "ai"
            as_challenge = False
    if opponent == "ai" and ai_clock:
        days = resolve_days(days_per_move, "user")
    else:
        days = resolve_days(days_per_move, opponent)
    if opponent == "ai":
        opponent_user = get_ai_user()
    elif opponent not in ("open", "user"):
        raise InvalidRequest(_("Choose an opponent."))

    # Correspondence games are competitive: options are fixed, there is no
    # Undo, and each player's history leaves out what that player never saw.
    # A friendly game (competitive=False) keeps the engine's undo.
    competitive = bool(competitive)
    options["competitive"] = competitive
    # Friendly means unrated, options changeable by agreement and take-backs
    # allowed, nothing more: the record stays censored like a competitive
    # game's unless both players agreed to the open record (docs/rulings.md,
    # "Open record").  The game's rules engine reads the term.
    options.update(record_terms(engine, competitive, open_record))
    if scenario is not None:
        scenario = {**scenario, "options": dict(options)}
    if opponent == "open":
        status = Game.Status.OPEN
    elif as_challenge and opponent == "user":
        status = Game.Status.CHALLENGE
    else:
        status = Game.Status.ACTIVE
    game = Game.objects.create(
        engine=engine,
        options=options,
        status=status,
        created_by=creator,
        days_per_move=days,
        increment_hours=_resolve_increment(increment_hours) if days is not None else None,
        bank_cap_days=_resolve_cap(bank_cap_days, days) if days is not None and increment_hours is not None else None,
        competitive=competitive,
        ai_level=(ai_level or "easy") if opponent == "ai" else "",
        scenario=scenario,
    )
    seats = [
        Seat.objects.create(game=game, color=my_color, user=creator),
        Seat.objects.create(game=game, color=other_color(my_color), user=opponent_user),
    ]
    state = initial_snapshot(game, scenario)
    game.turn_started = timezone.now()
    game.save()
    if game.status == Game.Status.ACTIVE:
        clocks.set_clocks(game, seats)
        events.notify_start(game, seats, creator)
    elif game.status == Game.Status.CHALLENGE:
        events.notify(game, opponent_user, Notification.Kind.CHALLENGE)
    else:
        transaction.on_commit(events.broadcast_lobby)
    versions.settle_views(game, seats, state)
    game = Game.objects.prefetch_related("seats__user").get(pk=game.pk)
    schedule_ai_if_needed(game)
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
    game.turn_started = timezone.now()
    game.save(update_fields=["status", "turn_started", "updated"])
    seats = list(Seat.objects.select_related("user").filter(game=game))
    clocks.set_clocks(game, seats)
    events.notify_start(game, seats, user)
    versions.settle_views(game, seats)
    transaction.on_commit(events.broadcast_lobby)
    game = Game.objects.prefetch_related("seats__user").get(pk=game.pk)
    schedule_ai_if_needed(game)
    return game


@transaction.atomic
def cancel_seek(*, game_id: int, user) -> None:
    game = Game.objects.select_for_update().get(pk=game_id)
    if game.status == Game.Status.CHALLENGE and game.created_by_id == getattr(user, "pk", None):
        # The challenger withdraws a challenge not yet answered.
        seats = list(Seat.objects.select_related("user").select_for_update(of=("self",)).filter(game=game))
        cancel_challenge(game, seats, player_seat(seats, user))
        return
    if game.status != Game.Status.OPEN or not game.seats.filter(user=user).exists():
        raise InvalidRequest(_("You can only withdraw your own open seek."))
    game.status = Game.Status.CANCELLED
    game.save(update_fields=["status", "updated"])
    transaction.on_commit(events.broadcast_lobby)


def cancel_challenge(game: Game, seats: list[Seat], seat: Seat) -> None:
    """Under the caller's lock of the challenge `game` and its `seats`: no
    game (declined by the challenged player, or withdrawn by the
    challenger, `seat`); the other player hears of it."""
    game.status = Game.Status.CANCELLED
    game.proposal = None
    game.save(update_fields=["status", "proposal", "updated"])
    other = next((s for s in seats if s.pk != seat.pk), None)
    if other is not None:
        events.notify(game, other.user, Notification.Kind.CHALLENGE_ANSWER)


def announce_end(game: Game, seats: list[Seat]) -> None:
    """Inside the ending transaction: whoever listens hears of the end
    (signals.game_ended: the club rates competitive games and lets a
    standing draw offer lapse), and the review is rendered after commit."""
    signals.game_ended.send(sender=Game, game=game, seats=seats)
    events.enqueue_after_response(lambda game_id=game.pk: _enqueue_review(game_id))


def _enqueue_review(game_id: int) -> None:
    """After a game ended: render its review's steps in the background."""
    try:
        queue.precompute_review(game_id)
    except Exception:  # the review is then rendered step by step on demand
        logger.exception("could not queue the review of game %s", game_id)


def finish(game: Game, seats: list[Seat], result: dict, actor=None) -> None:
    """End a game without touching the engine state (resignation, time, an
    agreed draw): the result goes on the Game, the clocks stop, the players
    are told after commit.  The caller holds the game row lock."""
    game.status = Game.Status.FINISHED
    game.result = result
    game.turn_started = timezone.now()
    game.save(update_fields=["status", "result", "turn_started", "updated"])
    clocks.set_clocks(game, seats)
    events.notify_end(game, seats, actor=actor)
    announce_end(game, seats)
    versions.settle_views(game, seats)


def resign(game_id: int, user) -> Game:
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        seats = list(Seat.objects.select_related("user").filter(game=game))
        seat = next((s for s in seats if s.user_id == getattr(user, "pk", None)), None)
        if seat is None:
            raise NotYourGame(_("You are not playing in this game."))
        if game.status != Game.Status.ACTIVE:
            raise GameNotActive(_("This game is not in progress."))
        finish(game, seats, {"winner": other_color(seat.color), "reason": "resignation"}, actor=user)
        return game
