"""What the views share: the game a signed-in player takes part in, and
the answer to a refused request (its own 4xx status, never a redirect
that hides it).

A game that someone may not see or act in is answered exactly as a game
that does not exist (Http404, the same page): a stranger cannot tell a
private challenge, or any game of others, from a missing id by the status,
the body or the headers.  Every endpoint of a game's players goes through
`participant` before anything else; accepting a seek, the one endpoint for
someone not yet seated, goes through `seek_taker`."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse

from games import selectors
from games.models import Game, Seat
from games.services import GameError, NotYourGame
from wecsite.ratelimit import target_key


def _found(game_id: int) -> Game:
    try:
        return selectors.get_game(game_id)
    except Game.DoesNotExist:
        raise Http404 from None


def participant(request, game_id: int) -> tuple[Game, Seat]:
    """The game and the requesting player's seat; a 404 for a game that does
    not exist and for anyone who does not play in it."""
    game = _found(game_id)
    seat = selectors.seat_for(game, request.user)
    if seat is None:
        raise Http404
    return game, seat


def seek_taker(request, game_id: int) -> Game:
    """The game whose seek the user would take: a 404 for a game that does
    not exist and for one the user may not know of (a challenge between
    others, a cancelled one); a public game (a seek, or one already taken)
    goes on to the service, which says why it cannot be taken."""
    game = _found(game_id)
    if not selectors.known_to(game, request.user):
        raise Http404
    return game


def refused(request, message: str, status: int, game_id: int | None = None):
    """A refused plain (non-htmx) POST: a small page saying why, with the
    refusal's own 4xx status (never a redirect that hides it)."""
    back_url = reverse("game_detail", args=[game_id]) if game_id is not None else ""
    return render(request, "games/refused.html", {"message": message, "back_url": back_url}, status=status)


def club_refused(request, exc: GameError, game_id: int | None = None):
    """A refused club request: the club's error partial for htmx, else the
    refusal page linking back to the game (or home).  A service's "not
    yours" (a game, or a chat line, that is not the user's; the views ask
    `participant` first, so only a race gets here) is a 404 like any
    missing object."""
    if isinstance(exc, NotYourGame):
        raise Http404
    back_url = reverse("game_detail", args=[game_id]) if game_id is not None else reverse("home")
    if request.htmx:
        return render(request, "games/partials/club_error.html", {"message": exc.message}, status=exc.status)
    return render(
        request, "games/refused.html", {"message": exc.message, "back_url": back_url}, status=exc.status
    )


def challenged_player(request) -> str | None:
    """The rate-limit key of a new game against a named player (scope
    "challenge_pair"): the challenger and the name typed, so that one
    player cannot fill another's inbox with challenges.  Other games are
    not counted."""
    if request.POST.get("opponent") != "user" or not request.user.is_authenticated:
        return None
    return f"{request.user.pk}:{target_key(request.POST.get('username', ''))}"
