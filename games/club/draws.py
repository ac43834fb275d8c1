"""Draw offers: a player offers, the other accepts (the game ends drawn) or
declines, the offerer may withdraw; an offer lapses when the other side
ends a turn without answering (games.services.submit) and when the game
ends (`offer_lapses`, on games.services.signals.game_ended).  Each player
may offer once per Turn (as on lichess and OGS): an offer withdrawn or
declined cannot be made again, and so notify the opponent again, until
the next Turn."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from games import selectors
from games.engines import get_engine
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
    # The Turn is counted by the game's own engine (its finished Turns), so
    # the rule holds for every game the site hosts.
    turn = get_engine(game.engine).turn_count(selectors.load_state(game))
    offered = dict(game.draw_offer_turns or {})
    if offered.get(seat.color) == turn:
        raise InvalidRequest(
            _("You have already offered a draw in this Turn. You may offer again in a later Turn.")
        )
    offered[seat.color] = turn
    game.draw_offer = seat.color
    game.draw_offer_turns = offered
    game.save(update_fields=["draw_offer", "draw_offer_turns", "updated"])
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
