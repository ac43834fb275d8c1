"""Writes of the club (issue 14): challenges and their terms, draw offers,
chat, ratings.  Same conventions as games.services: every write under the
game row lock, errors are GameError subclasses with an HTTP status, side
effects only after commit."""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from . import glicko2
from .models import ChatMessage, Color, Game, Notification, Seat, Snapshot, other_color
from .services import (
    GameError,
    GameNotActive,
    InvalidRequest,
    NotYourGame,
    _finish,
    _initial_snapshot,
    _notify,
    _notify_start,
    _resolve_days,
    _schedule_ai_if_needed,
    _set_clocks,
    settle_views,
)

logger = logging.getLogger(__name__)

MAX_CHAT_CHARS = 500


def _locked(game_id: int) -> tuple[Game, list[Seat]]:
    try:
        game = Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise NotYourGame(_("There is no such game.")) from None
    seats = list(Seat.objects.select_related("user").select_for_update(of=("self",)).filter(game=game))
    return game, seats


def _my_seat(seats: list[Seat], user) -> Seat:
    seat = next((s for s in seats if user is not None and s.user_id == getattr(user, "pk", None)), None)
    if seat is None:
        raise NotYourGame(_("You are not playing in this game."))
    return seat


def _validated_options(game: Game, options: dict, competitive: bool | None = None) -> dict:
    """The options as the engine accepts them (ValueError -> 400 naming the
    option), for a competitive or friendly game (default: the game's kind)."""
    from .engines import get_engine

    engine = get_engine(game.engine)
    options = {**options, "competitive": game.competitive if competitive is None else bool(competitive)}
    try:
        engine.resolve_options(options)
    except ValueError as exc:
        raise InvalidRequest(_("Bad game options: %(error)s") % {"error": exc}) from None
    return options


# --- challenges ---------------------------------------------------------------


def _open_challenge(game_id: int, user) -> tuple[Game, list[Seat], Seat]:
    """The locked challenge, its seats and the user's seat, for an answer
    (accept, decline or withdraw): refused once it was answered."""
    game, seats = _locked(game_id)
    seat = _my_seat(seats, user)
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
    _set_clocks(game, seats)
    _notify_start(game, seats, seat.user)
    settle_views(game, seats)
    _schedule_ai_if_needed(game)
    return game


@transaction.atomic
def decline_challenge(*, game_id: int, user) -> Game:
    """The challenged player declines, or the challenger withdraws: no game."""
    game, seats, seat = _open_challenge(game_id, user)
    game.status = Game.Status.CANCELLED
    game.proposal = None
    game.save(update_fields=["status", "proposal", "updated"])
    other = next((s for s in seats if s.pk != seat.pk), None)
    if other is not None:
        _notify(game, other.user, Notification.Kind.CHALLENGE_ANSWER)
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
) -> Game:
    """Either player proposes new terms for a challenge: the options, the time
    per move, the challenger's colour ("black", "white" or "random") and
    whether the game is competitive (rated) or friendly (None: as now).  The
    change waits for the other player's approval (answer_proposal)."""
    game, seats = _locked(game_id)
    seat = _my_seat(seats, user)
    if game.status != Game.Status.CHALLENGE:
        raise GameNotActive(_("The terms can only change before the game starts."))
    competitive = game.competitive if competitive is None else bool(competitive)
    options = _validated_options(game, dict(options or {}), competitive)
    days = _resolve_days(days_per_move, "user")
    creator_seat = next(s for s in seats if s.user_id == game.created_by_id)
    if creator_color in (None, "", creator_seat.color):
        swap = False
    elif creator_color == "random":
        import secrets

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
    _notify(game, other.user, Notification.Kind.CHALLENGE)
    settle_views(game, seats)
    return game


@transaction.atomic
def answer_proposal(*, game_id: int, user, approve: bool) -> Game:
    """The other player approves (the terms change) or rejects (they stay) a
    proposed change.  The proposer may also take it back (a rejection)."""
    game, seats = _locked(game_id)
    seat = _my_seat(seats, user)
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
        _initial_snapshot(game, scenario)
    game.save()
    other = next(s for s in seats if s.color != seat.color)
    _notify(game, other.user, Notification.Kind.CHALLENGE_ANSWER)
    settle_views(game, seats)
    return game


# --- draws ------------------------------------------------------------------------


@transaction.atomic
def offer_draw(*, game_id: int, user) -> Game:
    game, seats = _locked(game_id)
    seat = _my_seat(seats, user)
    if game.status != Game.Status.ACTIVE:
        raise GameNotActive(_("This game is not in progress."))
    if game.draw_offer == seat.color:
        raise InvalidRequest(_("You already offered a draw."))
    if game.draw_offer:
        raise InvalidRequest(_("Your opponent already offered a draw: accept or decline it."))
    game.draw_offer = seat.color
    game.save(update_fields=["draw_offer", "updated"])
    other = next(s for s in seats if s.pk != seat.pk)
    _notify(game, other.user, Notification.Kind.DRAW_OFFER)
    settle_views(game, seats)
    return game


@transaction.atomic
def answer_draw(*, game_id: int, user, accept: bool) -> Game:
    """The other player accepts (the game ends drawn) or declines a draw
    offer; the one who offered may withdraw it (a decline)."""
    game, seats = _locked(game_id)
    seat = _my_seat(seats, user)
    if game.status != Game.Status.ACTIVE or not game.draw_offer:
        raise GameNotActive(_("There is no draw offer to answer."))
    if accept and game.draw_offer == seat.color:
        raise InvalidRequest(_("Your opponent must accept your draw offer."))
    game.draw_offer = ""
    game.save(update_fields=["draw_offer", "updated"])
    if accept:
        _finish(game, seats, {"winner": None, "reason": "agreement"}, actor=user)
    else:
        settle_views(game, seats)
    return game


# --- chat ------------------------------------------------------------------------------


@transaction.atomic
def post_chat(*, game_id: int, user, text: str) -> ChatMessage:
    """A chat line from one of the two players (never from spectators)."""
    game, seats = _locked(game_id)
    seat = _my_seat(seats, user)
    text = (text or "").strip()
    if not text:
        raise InvalidRequest(_("Write something first."))
    if len(text) > MAX_CHAT_CHARS:
        raise InvalidRequest(_("A chat message has at most %(n)d characters.") % {"n": MAX_CHAT_CHARS})
    if game.status not in (Game.Status.ACTIVE, Game.Status.FINISHED, Game.Status.CHALLENGE):
        raise GameNotActive(_("This game has no chat."))
    message = ChatMessage.objects.create(game=game, author=seat.user, text=text)
    other = next((s for s in seats if s.pk != seat.pk), None)
    if other is not None and other.user is not None and not other.chat_muted and not other.user.is_ai:
        _notify(game, other.user, Notification.Kind.CHAT)
    return message


@transaction.atomic
def report_chat(*, message_id: int, user) -> None:
    message = ChatMessage.objects.select_related("game").filter(pk=message_id).first()
    if message is None or not Seat.objects.filter(game=message.game, user=user).exists():
        raise NotYourGame(_("There is no such message."))
    if message.author_id == user.pk:
        raise InvalidRequest(_("You cannot report your own message."))
    ChatMessage.objects.filter(pk=message.pk).update(reported=True)
    logger.warning("chat message %s in game %s reported by user %s", message.pk, message.game_id, user.pk)


@transaction.atomic
def set_chat_muted(*, game_id: int, user, muted: bool) -> None:
    game, seats = _locked(game_id)
    seat = _my_seat(seats, user)
    Seat.objects.filter(pk=seat.pk).update(chat_muted=bool(muted))


# --- the end of a game: ratings --------------------------------------------------


def game_ended(game: Game, seats: list[Seat]) -> None:
    """Called inside the transaction that ended the game.  A competitive game
    between two people updates both Glicko-2 ratings (one rating period per
    game) and records each new rating for the profile's plot."""
    if game.draw_offer:
        Game.objects.filter(pk=game.pk).update(draw_offer="")
        game.draw_offer = ""
    if not game.competitive or not game.result:
        return
    users = {s.color: s.user for s in seats}
    if any(u is None or u.is_ai for u in users.values()) or len(users) != 2:
        return
    from accounts.models import RatingChange

    User = get_user_model()
    locked = {u.pk: u for u in User.objects.select_for_update().filter(pk__in=[u.pk for u in users.values()])}
    if game.engine != settings.WEC_ENGINE_NAME:
        # Ratings are kept per game: the site's first game on the User row,
        # every other game in a GameRating row of its own (issue 18).
        from .models import GameRating

        for user_id in list(locked):
            GameRating.objects.get_or_create(user_id=user_id, engine=game.engine)
        locked = {
            r.user_id: r
            for r in GameRating.objects.select_for_update().filter(user_id__in=list(locked), engine=game.engine)
        }
    before = {
        color: glicko2.Rating(locked[u.pk].rating, locked[u.pk].rating_deviation, locked[u.pk].rating_volatility)
        for color, u in users.items()
    }
    winner = game.result.get("winner")
    for color, u in users.items():
        score = 0.5 if winner is None else (1.0 if winner == color else 0.0)
        after = glicko2.rate(before[color], [(before[other_color(color)], score)], tau=settings.WEC_GLICKO_TAU)
        row = locked[u.pk]
        row.rating, row.rating_deviation, row.rating_volatility = after.rating, after.deviation, after.volatility
        row.save(update_fields=["rating", "rating_deviation", "rating_volatility"])
        RatingChange.objects.get_or_create(
            user_id=u.pk, game_id=game.pk, defaults={"rating": after.rating, "rating_deviation": after.deviation}
        )


__all__ = [
    "GameError",
    "accept_challenge",
    "answer_draw",
    "answer_proposal",
    "decline_challenge",
    "game_ended",
    "offer_draw",
    "post_chat",
    "propose_change",
    "report_chat",
    "set_chat_muted",
]


# --- reminders -------------------------------------------------------------------------


def send_reminders(now=None) -> int:
    """Remind each player whose deadline falls within WEC_REMINDER_HOURS (in
    the site and, as they chose, by email), once per turn.  The moment depends
    only on the deadline, which both players see."""
    from datetime import timedelta

    now = now or timezone.now()
    horizon = now + timedelta(hours=float(settings.WEC_REMINDER_HOURS))
    sent = 0
    due = (
        Seat.objects.filter(deadline__gt=now, deadline__lte=horizon, game__status=Game.Status.ACTIVE)
        .select_related("user", "game")
        .exclude(user__isnull=True)
        .exclude(user__is_ai=True)
    )
    for seat in due:
        game = seat.game
        if seat.color != game.to_move:
            continue
        with transaction.atomic():
            already = Notification.objects.filter(
                user=seat.user, game=game, kind=Notification.Kind.REMINDER, created__gte=game.turn_started
            ).exists()
            if already:
                continue
            _notify(game, seat.user, Notification.Kind.REMINDER)
            sent += 1
    return sent
