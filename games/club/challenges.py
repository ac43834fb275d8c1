"""Challenges and their terms: the challenged player accepts or declines, the
challenger withdraws, and either player proposes new terms that the other
approves or rejects.  Same conventions as games.services: every write
under the game row lock, refusals are GameError subclasses with an HTTP
status, side effects only after commit."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engines import get_engine
from games.models import Color, Game, Notification, Seat, Snapshot
from games.services import clocks, events, lifecycle, versions
from games.services.errors import GameNotActive, InvalidRequest
from games.services.locks import locked, player_seat


def _validated_options(
    game: Game, options: dict, competitive: bool | None = None, open_record: bool | None = None
) -> dict:
    """The options as the engine accepts them (ValueError -> 400 naming the
    option), for a competitive or friendly game (default: the game's kind),
    with the record term (None: as now, closed once the game turns
    competitive; an open record asked of a competitive game is a 400)."""
    engine = get_engine(game.engine)
    competitive = game.competitive if competitive is None else bool(competitive)
    if open_record is None:
        open_record = bool((game.options or {}).get("open_record")) and not competitive
    options = {
        **options,
        "competitive": competitive,
        **lifecycle.record_terms(game.engine, competitive, open_record),
    }
    try:
        engine.resolve_options(options)
    except ValueError as exc:
        raise InvalidRequest(_("Bad game options: %(error)s") % {"error": exc}) from None
    return options


def _open_challenge(game_id: int, user) -> tuple[Game, list[Seat], Seat]:
    """The locked challenge, its seats and the user's seat, for an answer
    (accept, decline or withdraw): refused once it was answered."""
    game, seats = locked(game_id, lock_seats=True)
    seat = player_seat(seats, user)
    if game.status != Game.Status.CHALLENGE:
        raise GameNotActive(_("This challenge was already answered or withdrawn."))
    return game, seats, seat


@transaction.atomic
def accept_challenge(*, game_id: int, user) -> Game:
    """The challenged player accepts the current terms: the game starts, and
    only now does the clock start."""
    game, seats, seat = _open_challenge(game_id, user)
    if game.created_by_id == user.pk:
        raise InvalidRequest(_("Only the challenged player can accept."))
    if game.proposal:
        raise GameNotActive(_("A change to the terms is waiting for an answer; answer it first."))
    game.status = Game.Status.ACTIVE
    game.turn_started = timezone.now()
    game.save(update_fields=["status", "turn_started", "updated"])
    clocks.set_clocks(game, seats)
    events.notify_start(game, seats, seat.user)
    versions.settle_views(game, seats)
    lifecycle.schedule_ai_if_needed(game)
    return game


@transaction.atomic
def decline_challenge(*, game_id: int, user) -> Game:
    """The challenged player declines, or the challenger withdraws: no game."""
    game, seats, seat = _open_challenge(game_id, user)
    lifecycle.cancel_challenge(game, seats, seat)
    return game


@transaction.atomic
def propose_change(
    *,
    game_id: int,
    user,
    options: dict,
    days_per_move,
    creator_color: str | None = None,
    competitive: bool | None = None,
    open_record: bool | None = None,
) -> Game:
    """Either player proposes new terms for a challenge: the options, the time
    per move, the challenger's colour ("black", "white" or "random"),
    whether the game is competitive (rated) or friendly (None: as now) and,
    for a friendly game, whether its record is open (None: as now).  The
    change waits for the other player's approval (answer_proposal)."""
    game, seats = locked(game_id, lock_seats=True)
    seat = player_seat(seats, user)
    if game.status != Game.Status.CHALLENGE:
        raise GameNotActive(_("The terms can only change before the game starts."))
    competitive = game.competitive if competitive is None else bool(competitive)
    options = _validated_options(game, dict(options or {}), competitive, open_record)
    days = lifecycle.resolve_days(days_per_move, "user")
    creator_seat = next(s for s in seats if s.user_id == game.created_by_id)
    if creator_color in (None, "", creator_seat.color):
        swap = False
    elif creator_color == "random":
        swap = secrets.choice([False, True])
    elif creator_color in (Color.BLACK, Color.WHITE):
        swap = True
    else:
        raise InvalidRequest(_("Unknown color: %(color)s") % {"color": creator_color})
    game.proposal = {
        "by": seat.color,
        "options": options,
        "days_per_move": days,
        "swap": swap,
        "competitive": competitive,
    }
    game.save(update_fields=["proposal", "updated"])
    other = next(s for s in seats if s.pk != seat.pk)
    events.notify(game, other.user, Notification.Kind.CHALLENGE)
    versions.settle_views(game, seats)
    return game


@transaction.atomic
def answer_proposal(*, game_id: int, user, approve: bool) -> Game:
    """The other player approves (the terms change) or rejects (they stay) a
    proposed change.  The proposer may also take it back (a rejection)."""
    game, seats = locked(game_id, lock_seats=True)
    seat = player_seat(seats, user)
    if game.status != Game.Status.CHALLENGE or not game.proposal:
        raise GameNotActive(_("There is no change waiting for an answer."))
    proposal = game.proposal
    if approve and proposal.get("by") == seat.color:
        raise InvalidRequest(_("The other player must approve your change."))
    game.proposal = None
    if approve:
        game.options = proposal["options"]
        game.days_per_move = proposal["days_per_move"]
        # Rated or friendly (a proposal made before this field existed keeps the kind).
        game.competitive = bool(proposal.get("competitive", game.competitive))
        game.options["competitive"] = game.competitive
        # A proposal made before the record term existed never opens the record.
        opened = bool(game.options.get("open_record")) and not game.competitive
        game.options.pop("open_record", None)
        game.options.update(lifecycle.record_terms(game.engine, game.competitive, opened))
        if proposal.get("swap"):
            # Swap the two players' colours (the seats' colours are unique).
            a, b = seats
            a_user, b_user = a.user, b.user
            Seat.objects.filter(pk=a.pk).update(user=None)
            Seat.objects.filter(pk=b.pk).update(user=a_user)
            Seat.objects.filter(pk=a.pk).update(user=b_user)
            a.user, b.user = b_user, a_user
            a.user_id, b.user_id = b_user.pk, a_user.pk
        # The starting position follows the new options.
        Snapshot.objects.filter(game=game, seq=0).delete()
        scenario = None
        if game.scenario is not None:
            scenario = {**game.scenario, "options": game.options}
            game.scenario = scenario
        lifecycle.initial_snapshot(game, scenario)
    game.save()
    other = next(s for s in seats if s.color != seat.color)
    events.notify(game, other.user, Notification.Kind.CHALLENGE_ANSWER)
    versions.settle_views(game, seats)
    return game
