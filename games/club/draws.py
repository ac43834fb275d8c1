"""Draw offers: a player offers, the other accepts (the game ends drawn) or
declines, the offerer may withdraw; an offer lapses when the other side
ends a turn without answering (games.services.submit) and when the game
ends (`offer_lapses`, on games.services.signals.game_ended)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from games.models import Game, Notification, Seat
from games.services import events, lifecycle, versions
from games.services.errors import GameNotActive, InvalidRequest
from games.services.locks import locked, player_seat


@transaction.atomic
def offer_draw(*, game_id: int, user) -> Game:
    game, seats = locked(game_id, lock_seats=True)
    seat = player_seat(seats, user)
    if game.status != Game.Status.ACTIVE:
        raise GameNotActive(_("This game is not in progress."))
    if game.draw_offer == seat.color:
        raise InvalidRequest(_("You already offered a draw."))
    if game.draw_offer:
        raise InvalidRequest(_("Your opponent already offered a draw: accept or decline it."))
    game.draw_offer = seat.color
    game.save(update_fields=["draw_offer", "updated"])
    other = next(s for s in seats if s.pk != seat.pk)
    events.notify(game, other.user, Notification.Kind.DRAW_OFFER)
    versions.settle_views(game, seats)
    return game


@transaction.atomic
def answer_draw(*, game_id: int, user, accept: bool) -> Game:
    """The other player accepts (the game ends drawn) or declines a draw
    offer; the one who offered may withdraw it (a decline)."""
    game, seats = locked(game_id, lock_seats=True)
    seat = player_seat(seats, user)
    if game.status != Game.Status.ACTIVE or not game.draw_offer:
        raise GameNotActive(_("There is no draw offer to answer."))
    if accept and game.draw_offer == seat.color:
        raise InvalidRequest(_("Your opponent must accept your draw offer."))
    game.draw_offer = ""
    game.save(update_fields=["draw_offer", "updated"])
    if accept:
        lifecycle.finish(game, seats, {"winner": None, "reason": "agreement"}, actor=user)
    else:
        versions.settle_views(game, seats)
    return game


def offer_lapses(sender, game: Game, seats: list[Seat], **kwargs) -> None:
    """games.services.signals.game_ended: a standing draw offer lapses."""
    if game.draw_offer:
        Game.objects.filter(pk=game.pk).update(draw_offer="")
        game.draw_offer = ""
