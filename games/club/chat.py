"""A game's chat: the two players post, either may report a line or mute
the chat (they then see only their own lines and get no chat
notifications)."""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils.translation import gettext as _

from games.models import ChatMessage, Game, Notification, Seat
from games.services import events
from games.services.errors import GameNotActive, InvalidRequest, NotYourGame
from games.services.locks import locked, player_seat
from wecsite.inputs import text_problem

logger = logging.getLogger(__name__)

MAX_CHAT_CHARS = 500


@transaction.atomic
def post_chat(*, game_id: int, user, text: str) -> ChatMessage:
    """A chat line from one of the two players (never from spectators)."""
    game, seats = locked(game_id, lock_seats=True)
    seat = player_seat(seats, user)
    text = (text or "").strip()
    if not text:
        raise InvalidRequest(_("Write something first."))
    if len(text) > MAX_CHAT_CHARS:
        raise InvalidRequest(_("A chat message has at most %(n)d characters.") % {"n": MAX_CHAT_CHARS})
    problem = text_problem(text, joiners=True)  # one line; joiners for emoji and scripts that need them
    if problem is not None:
        raise InvalidRequest(problem)
    if game.status not in (Game.Status.ACTIVE, Game.Status.FINISHED, Game.Status.CHALLENGE):
        raise GameNotActive(_("This game has no chat."))
    message = ChatMessage.objects.create(game=game, author=seat.user, text=text)
    other = next((s for s in seats if s.pk != seat.pk), None)
    if other is not None and other.user is not None and not other.chat_muted and not other.user.is_ai:
        events.notify(game, other.user, Notification.Kind.CHAT)
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
    game, seats = locked(game_id, lock_seats=True)
    seat = player_seat(seats, user)
    Seat.objects.filter(pk=seat.pk).update(chat_muted=bool(muted))
