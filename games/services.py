"""Writes.  Every change to a game goes through here.

Side effects (WebSocket broadcasts, Celery tasks) are only sent from
`transaction.on_commit`, so nothing is announced that did not land.
"""

from __future__ import annotations

import functools
import logging
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DatabaseError, close_old_connections, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from . import afteranswer, doorbells, queue
from .engines import get_engine
from .models import Color, Game, GameAction, Notification, Seat, other_color
from .registry import UI_REGISTRY, get_ui
from .selectors import legal_actions, load_state, with_seats
from .store import sql
from .store import states as state_store
from .store.action_log import WITHDRAW, append_action
from .store.sql import Batch, json_value

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


class EngineFault(GameError):
    """The rules engine raised on a request that got past every check: a bug on
    our side, not the player's.  Answered as a 500 with this message (never a
    bare error page); the trace goes to the log under `incident`, which the
    message quotes so a player's report can be matched to it."""

    status = 500

    def __init__(self, incident: str):
        super().__init__(
            _(
                "Something went wrong on our side while playing that. Nothing was changed, "
                "and the operators have been told (reference %(incident)s)."
            )
            % {"incident": incident}
        )
        self.incident = incident


def new_incident() -> str:
    """A short random reference that ties a player's error message to the log."""
    return secrets.token_hex(4)


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


def _ring_changed(game_id: int, versions: list[tuple[str, int]]) -> None:
    """After commit: each changed colour's doorbell (its own new version),
    in one Redis call."""
    with doorbells.together():
        for color, version in versions:
            broadcast_changed(game_id, color, version)


def settle_views(
    game: Game, seats: list[Seat], state=None, actor_color: str | None = None, batch: Batch | None = None
) -> list[str]:
    """Inside the caller's transaction (holding the game row lock), after a
    change to the game: bump the view version of every seat whose view changed,
    and ring its doorbell after commit.  The actor's version is bumped on each
    of its own actions even when its view did not change (it knows it acted),
    so a page's version is also a double-submit token.  A seat whose view did
    not change hears nothing: an enemy's unseen action leaves no trace.
    Returns the colours rung."""
    from .selectors import load_state, view_digest

    if state is None:
        state = load_state(game)
    engine = get_engine(game.engine)
    views = {}
    changed = []
    for seat in seats:
        views[seat.color] = engine.view(state, seat.color, history=False)
        digest = view_digest(game, seats, state, seat.color, view=views[seat.color])
        if digest == seat.view_digest and seat.color != actor_color:
            continue
        seat.version += 1
        seat.view_digest = digest
        changed.append(seat)
    if actor_color in views:
        # The actor's new view, for the answer to this very action (the
        # view that answers builds its board from it: games.ui.wec.context).
        # Only the actor's: nothing computed for the other side is reused.
        game.actor_view = {"color": actor_color, "seq": game.seq, "view": views[actor_color]}
    if views:
        # The game's own use of the views just computed (Wec keeps them at a
        # Turn boundary for its highlights), registered before the doorbells
        # so that the refreshes they cause find them.
        get_ui(game.engine).after_settle(game, views)
    if changed:
        transaction.on_commit(functools.partial(_ring_changed, game.pk, [(s.color, s.version) for s in changed]))
    rung = [seat.color for seat in changed]
    if changed:  # one statement for both seats
        own = batch is None
        batch = Batch() if own else batch
        sql.add_seat_versions(batch, changed)
        if own:
            batch.flush()
    return rung


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


def _notify(game: Game, user, kind: str, batch: Batch | None = None) -> Notification | None:
    """Inside the caller's transaction: a Notification row for a person (never
    the AI); the WebSocket message and the email go out only after commit.
    With a `batch` (games.writes), a row no email needs is written with it
    (then the returned one has no id)."""
    if user is None or getattr(user, "is_ai", False):
        return None
    # A user who chose the daily digest gets one email a day instead (tasks.send_digests).
    wants_email = bool(user.email_on_turn and user.email and not getattr(user, "email_digest", False))
    user_id, game_id = user.pk, game.pk
    if batch is not None and not wants_email:
        note = Notification(user=user, game=game, kind=kind, created=timezone.now())
        sql.add_notification(batch, user_id, game_id, kind, note.created)
    else:
        note = Notification.objects.create(user=user, game=game, kind=kind)
    note_id = note.pk
    transaction.on_commit(lambda: broadcast_notification(user_id, game_id, kind))
    if wants_email:
        _enqueue_after_response(lambda: _enqueue_email(note_id))
    return note


def _notify_start(game: Game, seats: list[Seat], actor) -> None:
    """A game began: whoever did not start it hears of it (as "your turn" when
    it is theirs)."""
    for seat in seats:
        if seat.user is None or (actor is not None and seat.user_id == actor.pk):
            continue
        kind = Notification.Kind.YOUR_TURN if seat.color == game.to_move else Notification.Kind.NEW_GAME
        _notify(game, seat.user, kind)


def _notify_end(game: Game, seats: list[Seat], actor=None) -> None:
    for seat in seats:
        if seat.user is not None and (actor is None or seat.user_id != actor.pk):
            _notify(game, seat.user, Notification.Kind.GAME_OVER)


def _paused_by_vacation(seat: Seat) -> bool:
    """Whether this seat's clock must not run now: its player is on an
    explicit vacation (games.services_vacation)."""
    user = seat.user if seat.user_id else None
    return user is not None and user.vacation_started is not None


def _store_clock(seat: Seat, **values) -> None:
    """Write the clock fields that changed (deadline, paused_seconds, bank_seconds)."""
    changed = {k: v for k, v in values.items() if getattr(seat, k) != v}
    if changed:
        for key, value in changed.items():
            setattr(seat, key, value)
        Seat.objects.filter(pk=seat.pk).update(**changed)


def _set_clocks(game: Game, seats: list[Seat], now: datetime | None = None) -> None:
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


def _schedule_ai_if_needed(game: Game) -> None:
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

    _enqueue_after_response(enqueue)


def _enqueue_after_response(enqueue) -> None:
    """After commit, `enqueue()` (a Celery task's `delay`) on the doorbell
    thread once the answer is out (doorbells.later, after_response), not in
    the request: a `delay` is ~0.35 ms of CPU and a Redis round trip, and
    the first one of a process opens the broker connection (~200 ms)."""
    transaction.on_commit(lambda: doorbells.later(enqueue))


def _resolve_color(color: str) -> str:
    if color in (Color.BLACK, Color.WHITE):
        return color
    if color in ("random", "", None):
        return secrets.choice([Color.BLACK, Color.WHITE])
    raise InvalidRequest(_("Unknown color: %(color)s") % {"color": color})


def _initial_snapshot(game: Game, scenario: dict | None = None):
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
    state_store.save_state(game, state, turns_before=None, snapshot=True)
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


def _resolve_days(days_per_move, opponent: str) -> int | None:
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
    games.services_club).  `competitive` False makes a friendly game.  Against
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
        days = _resolve_days(days_per_move, "user")
    else:
        days = _resolve_days(days_per_move, opponent)
    if opponent == "ai":
        opponent_user = get_ai_user()
    elif opponent not in ("open", "user"):
        raise InvalidRequest(_("Choose an opponent."))

    # Correspondence games are competitive: options are fixed, there is no
    # Undo, and each player's history leaves out what that player never saw.
    # A friendly game (competitive=False) keeps the engine's undo.
    competitive = bool(competitive)
    options["competitive"] = competitive
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
    state = _initial_snapshot(game, scenario)
    game.turn_started = timezone.now()
    game.save()
    if game.status == Game.Status.ACTIVE:
        _set_clocks(game, seats)
        _notify_start(game, seats, creator)
    elif game.status == Game.Status.CHALLENGE:
        _notify(game, opponent_user, Notification.Kind.CHALLENGE)
    else:
        transaction.on_commit(broadcast_lobby)
    settle_views(game, seats, state)
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
    game.turn_started = timezone.now()
    game.save(update_fields=["status", "turn_started", "updated"])
    seats = list(Seat.objects.select_related("user").filter(game=game))
    _set_clocks(game, seats)
    _notify_start(game, seats, user)
    settle_views(game, seats)
    transaction.on_commit(broadcast_lobby)
    game = Game.objects.prefetch_related("seats__user").get(pk=game.pk)
    _schedule_ai_if_needed(game)
    return game


@transaction.atomic
def cancel_seek(*, game_id: int, user) -> None:
    game = Game.objects.select_for_update().get(pk=game_id)
    if game.status == Game.Status.CHALLENGE and game.created_by_id == getattr(user, "pk", None):
        # The challenger withdraws a challenge not yet answered.
        from .services_club import decline_challenge

        decline_challenge(game_id=game_id, user=user)
        return
    if game.status != Game.Status.OPEN or not game.seats.filter(user=user).exists():
        raise InvalidRequest(_("You can only withdraw your own open seek."))
    game.status = Game.Status.CANCELLED
    game.save(update_fields=["status", "updated"])
    transaction.on_commit(broadcast_lobby)


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


def _save_game_row(batch: Batch, game: Game) -> None:
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
    statement, one round trip (it was two, the lock and then the seats).
    The next action row is chained to that hash (games.integrity).
    Written out: the ORM's select_for_update with a subquery cost three
    times as much CPU as the statement."""
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
        # to the database together (games.writes), at the flushes below.
        batch = Batch()
        game.seq += 1
        # Hash-chained to the row before.
        entry = append_action(game, seat, action, prev=game.last_action_hash, batch=batch)
        game._last_action_type = action.get("type")  # for settle_views (Turn-end views)
        # The current-state row (and a snapshot when due) in this same
        # transaction: the next load reads one row instead of replaying.
        state_store.save_state(game, new_state, turns_before=engine.turn_count(state), batch=batch)
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
            _set_clocks(game, seats)  # clears them
            _notify_end(game, seats, actor=seat.user)
            _game_ended(game, seats)
        elif game.to_move != previous_to_move:
            # The turn passed: the mover's clock stops, the other's starts.
            # (Writes only, none reading what the batch holds.)
            _set_clocks(game, seats)
            nxt = next((s for s in seats if s.color == game.to_move), None)
            if nxt is not None:
                _notify(game, nxt.user, Notification.Kind.YOUR_TURN, batch=batch)

        rung = settle_views(game, seats, new_state, actor_color=seat.color, batch=batch)
        if note_shown:
            _note_shown_in_batch(game, seat, batch)
        batch.flush()
        _carry_turn_ends(game, seats, rung, action.get("type"), seat.color)
        # The game as written, with its seats (their new view versions): the
        # view answers from it instead of reading the game again.
        entry.game = with_seats(game, seats)
        if game.to_move != previous_to_move or not seat.user.is_ai:
            # The AI is woken when the turn passes to it (its own actions inside
            # its turn are made by the running task).
            if not (seat.user and seat.user.is_ai and game.to_move == seat.color):
                _schedule_ai_if_needed(game)
        return entry


def _note_shown_in_batch(game: Game, seat: Seat, batch: Batch) -> None:
    """What note_board_shown(quiet=True) will write when the answer to this
    action is served (the actor's board of its new view version, nothing new
    to them), written now with the action's other rows: one statement less
    per submit.  The answer then finds the record current and writes nothing."""
    ui = get_ui(game.engine)
    shown = getattr(game, "actor_view", None)
    if (
        not ui.SINCE_LAST
        or shown is None
        or shown["color"] != seat.color
        or game.status != Game.Status.ACTIVE
        or seat.user_id is None
    ):
        return
    # The package may keep what it worked out for the signature in `shown`
    # (Wec: the Squares map its board_context reuses), and the hashes of the
    # player's Squares in that player's memo.
    shown["signature"] = ui.view_signature(shown["view"], owner=(game.pk, str(game.created), seat.color), scratch=shown)
    seat.seen = {"v": seat.version, "sig": shown["signature"], "changed": []}
    sql.add_seat_seen(batch, seat.pk, seat.seen)


def _game_ended(game: Game, seats: list[Seat]) -> None:
    """Inside the ending transaction: what the club does when a game ends
    (ratings of competitive games, a standing draw offer lapses)."""
    from .services_club import game_ended

    game_ended(game, seats)
    _enqueue_after_response(lambda game_id=game.pk: _enqueue_review(game_id))


def _enqueue_review(game_id: int) -> None:
    """After a game ended: render its review's steps in the background."""
    try:
        queue.precompute_review(game_id)
    except Exception:  # the review is then rendered step by step on demand
        logger.exception("could not queue the review of game %s", game_id)


def _finish(game: Game, seats: list[Seat], result: dict, actor=None) -> None:
    """End a game without touching the engine state (resignation, time): the
    result goes on the Game, the clocks stop, the players are told after commit.
    The caller holds the game row lock."""
    game.status = Game.Status.FINISHED
    game.result = result
    game.turn_started = timezone.now()
    game.save(update_fields=["status", "result", "turn_started", "updated"])
    _set_clocks(game, seats)
    _notify_end(game, seats, actor=actor)
    _game_ended(game, seats)
    settle_views(game, seats)


def resign(game_id: int, user) -> Game:
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        seats = list(Seat.objects.select_related("user").filter(game=game))
        seat = next((s for s in seats if s.user_id == getattr(user, "pk", None)), None)
        if seat is None:
            raise NotYourGame(_("You are not playing in this game."))
        if game.status != Game.Status.ACTIVE:
            raise GameNotActive(_("This game is not in progress."))
        _finish(game, seats, {"winner": other_color(seat.color), "reason": "resignation"}, actor=user)
        return game


# --- clocks and vacation -------------------------------------------------------------


class DeadlineOutcome:
    BUSY = "busy"  # someone else holds the game row: try again next time
    NOT_DUE = "not_due"  # nothing to do (already handled, moved in time, game over)
    VACATION = "vacation"  # vacation time covered it: the deadline moved on
    TIMEOUT = "timeout"  # the player lost on time


def _vacation_cover(user, deadline: datetime, now: datetime) -> datetime | None:
    """The end of the user's paid vacation time covering `now`, charging whole
    days as needed (the user row is locked by the caller), or None when the
    balance cannot cover `now`.

    One charged day covers *all* the user's games: the paid time runs from
    `vacation_paid_until` (or from the deadline that passed, if later) a day
    at a time."""
    day = timedelta(days=1)
    paid = user.vacation_paid_until
    if paid is None or paid < deadline:
        paid = deadline
    charged = 0
    while paid <= now and user.vacation_days > 0:
        user.vacation_days -= 1
        paid += day
        charged += 1
    if charged:
        user.vacation_paid_until = paid
        user.save(update_fields=["vacation_days", "vacation_paid_until"])
    return paid if paid > now else None


def enforce_deadline(seat_id: int, now: datetime | None = None) -> str:
    """Deal with one seat whose deadline may have passed (Celery beat's
    check_clocks calls this for every due seat).

    Under the game row lock (the same lock submit_action takes; a row another
    worker or a player holds is skipped, not waited for) and re-reading the
    seat: if its deadline really passed while it is that seat's turn, a player
    with automatic vacation days (`auto_vacation`) and time paid or days left
    gets the deadline moved to the end of the paid vacation time; anyone else loses on time (result
    {"winner": other colour, "reason": "timeout"}; the engine state is not
    changed).  Running it twice, or twice at once, changes nothing more."""
    now = now or timezone.now()
    User = get_user_model()
    with transaction.atomic():
        game_id = Seat.objects.filter(pk=seat_id).values_list("game_id", flat=True).first()
        if game_id is None:
            return DeadlineOutcome.NOT_DUE
        game = Game.objects.select_for_update(skip_locked=True).filter(pk=game_id).first()
        if game is None:
            return DeadlineOutcome.BUSY
        seats = list(Seat.objects.select_related("user").filter(game=game))
        seat = next(s for s in seats if s.pk == seat_id)
        if (
            game.status != Game.Status.ACTIVE
            or seat.deadline is None
            or seat.deadline > now
            or seat.color != game.to_move
        ):
            return DeadlineOutcome.NOT_DUE
        user = User.objects.select_for_update().get(pk=seat.user_id) if seat.user_id else None
        if user is not None and user.auto_vacation:
            until = _vacation_cover(user, seat.deadline, now)
            if until is not None:
                seat.deadline = until
                Seat.objects.filter(pk=seat.pk).update(deadline=until)
                if game.has_bank:
                    # The bank ran out; the vacation pays for the overrun.
                    seat.bank_seconds = 0
                    Seat.objects.filter(pk=seat.pk).update(bank_seconds=0)
                settle_views(game, seats)  # both clocks show the new deadline
                logger.info("game %s: %s on vacation until %s", game_id, seat.color, until)
                return DeadlineOutcome.VACATION
        _finish(game, seats, {"winner": other_color(seat.color), "reason": "timeout"})
        logger.info("game %s: %s lost on time", game_id, seat.color)
        return DeadlineOutcome.TIMEOUT


# --- notifications ---------------------------------------------------------------------


def open_game(game_id: int, user) -> Game:
    """What a player's board fetch reads and writes, in one statement: the
    game with its seats and their users (selectors.get_game), and `user`'s
    unread notifications of it marked read (the page shows the game).  A
    stranger has no notifications of the game, so marks nothing; the caller
    still checks the seat.  Raises Game.DoesNotExist."""
    from .selectors import game_from_rows

    return game_from_rows(sql.open_game_rows(user.pk, game_id), game_id)


def note_board_shown(game: Game, seat: Seat, signature: str | None, quiet: bool = False) -> list[list[int]]:
    """The Squares that changed since the board this player was shown before
    the current one ("changed since you last looked"), remembering the current
    one.  Called each time a player is served their board at view version
    `seat.version`, whose view has `signature` (highlights.signature; None
    when the caller does not have it).  Serving the same version again
    returns the same Squares, so a selection or a refresh keeps them.
    `quiet`: the player's own action made this board (the act and take-back
    answers), so nothing is new to them.  It reads and writes only this
    seat's record of what it was served: nothing of the other side's.
    Only for a game whose site package has SINCE_LAST (games.registry.GameUI)."""
    if game.status != Game.Status.ACTIVE or seat.user_id is None:
        return []
    seen = seat.seen or {}
    if seen.get("v") == seat.version:
        return list(seen.get("changed") or [])
    if signature is None:
        return []
    # The signature's format is the game's (its site package compares them).
    changed = [] if quiet or not seen.get("sig") else get_ui(game.engine).signature_changes(seen["sig"], signature)
    seat.seen = {"v": seat.version, "sig": signature, "changed": changed}
    # Nothing in this answer reads the record back: it is written once the
    # answer has left (games.afteranswer), before this thread's next request.
    afteranswer.after_answer(functools.partial(sql.write_seen, seat.pk, json_value(seat.seen), seat.version))
    return changed


def mark_notifications_read(user, game_id: int | None = None) -> int:
    """Mark the user's unread notifications read (those of one game, or all)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return 0
    if game_id is not None:
        return sql.mark_game_notifications_read(user.pk, game_id)
    return Notification.objects.filter(user=user, read=False).update(read=True)
