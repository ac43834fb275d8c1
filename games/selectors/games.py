"""Reads of a game and its seats.  Nothing here writes to the database."""

from __future__ import annotations

from django.db.models import QuerySet

from games.models import Game, Seat
from games.store import sql

_ENGINE_OF: dict[int, str] = {}


def engine_name(game_id: int) -> str | None:
    """The engine a game is played with (None: no such game).  A game's engine
    never changes, so each process keeps the names it has read."""
    name = _ENGINE_OF.get(game_id)
    if name is None:
        name = Game.objects.filter(pk=game_id).values_list("engine", flat=True).first()
        if name is not None:
            if len(_ENGINE_OF) > 10_000:
                _ENGINE_OF.clear()
            _ENGINE_OF[game_id] = name
    return name


def get_game(game_id: int) -> Game:
    """The game with its seats (and their users), in one query.

    The seats and the game row are read together, on purpose: a seat's view
    version and the game's `seq` change in one transaction, so one snapshot
    of both guarantees the state loaded for `game.seq` is the one a page is
    stamped with the version for.  (Read as two queries, a commit landing
    between them could stamp a board with the wrong version; the two used to
    be read seats first for that reason.)  Every page and board fetch starts
    here, so the statement is written out (games.store.sql): the ORM took longer
    to build it than the database to answer it."""
    return game_from_rows(sql.game_rows(game_id), game_id)


def game_from_rows(found: list[tuple], game_id: int) -> Game:
    """The game of `sql.game_rows`' rows (seat, user, game), with its seats."""
    if not found:  # a game without seats (none today): the row alone
        return with_seats(Game.objects.get(pk=game_id), [])
    game = found[0][2]
    seats = []
    for seat, user, _game in found:
        seat.user = user
        seats.append(seat)
    return with_seats(game, seats)


def with_seats(game: Game, seats) -> Game:
    """`game` with `seats` (a list or an evaluated QuerySet of its seats) as
    its prefetched `game.seats`, each seat's `.game` being `game` itself: how
    a service hands the game it has just written to the view that answers
    (no second read)."""
    if not isinstance(seats, QuerySet):
        # The filter is deferred as Django's related managers defer theirs
        # (applied only if something builds SQL from this queryset, which
        # a prefetched result never needs): building it was ~0.3 ms a submit.
        ordered = Seat.objects.order_by("color")
        ordered._defer_next_filter = True
        ordered = ordered.filter(game_id=game.pk)
        ordered._result_cache = sorted(seats, key=lambda s: s.color)
        ordered._prefetch_done = True
        seats = ordered
    for seat in seats:
        seat.game = game
    game._prefetched_objects_cache = {"seats": seats}
    return game


def seat_for(game: Game, user) -> Seat | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    for seat in game.seats.all():
        if seat.user_id == user.pk:
            return seat
    return None


def known_to(game: Game, user) -> bool:
    """Whether `user` may know that `game` exists: its players always, anyone
    once it is public (an open seek in the lobby, a game under way or ended,
    which spectators watch), nobody else (a challenge between two others, a
    cancelled seek or challenge)."""
    public = (Game.Status.OPEN, Game.Status.ACTIVE, Game.Status.FINISHED)
    return game.status in public or seat_for(game, user) is not None


def seat_by_color(game: Game, color: str) -> Seat | None:
    for seat in game.seats.all():
        if seat.color == color:
            return seat
    return None
