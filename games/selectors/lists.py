"""Reads of the lists a player's pages show: their games, the open seeks,
the board editor's scenarios."""

from __future__ import annotations

from django.db.models import F, Prefetch, Q

from games.models import Game, Scenario, Seat

from .games import seat_by_color, seat_for


def user_games(user):
    """The user's games, newest first, each with `.my_color`, `.opponent`,
    `.my_turn` and `.deadline` (when the side to move runs out of time, or None)."""
    games = (
        Game.objects.filter(seats__user=user)
        .exclude(status=Game.Status.CANCELLED)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .distinct()
        # By when the turn last passed, never by the last write: an enemy's
        # unseen action must not move a game up the list.
        .order_by(F("turn_started").desc(nulls_last=True), "-pk")
    )
    result = []
    for game in games:
        mine = seat_for(game, user)
        other = next((s for s in game.seats.all() if s.pk != mine.pk), None)
        game.my_color = mine.color
        game.opponent = other.user if other else None
        game.my_turn = game.status == Game.Status.ACTIVE and game.to_move == mine.color
        to_move = seat_by_color(game, game.to_move)
        game.deadline = to_move.deadline if to_move and game.status == Game.Status.ACTIVE else None
        # The side to move is on vacation: its clock is paused (no deadline).
        game.clock_paused = bool(
            to_move and game.status == Game.Status.ACTIVE and to_move.paused_seconds is not None
        )
        # "won" / "lost" / "drawn" for an ended game, from the user's side.
        game.my_outcome = ""
        if game.status == Game.Status.FINISHED and game.result:
            winner = game.result.get("winner")
            game.my_outcome = "drawn" if winner is None else ("won" if winner == mine.color else "lost")
        result.append(game)
    result.sort(key=lambda g: (not g.my_turn, g.status != Game.Status.ACTIVE))
    return result


def open_seeks(user=None):
    qs = (
        Game.objects.filter(status=Game.Status.OPEN)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by("-created")
    )
    seeks = []
    for game in qs:
        taken = next((s for s in game.seats.all() if s.user_id), None)
        if taken is None:
            continue
        game.seeker = taken.user
        game.seeker_color = taken.color
        game.is_mine = user is not None and user.is_authenticated and taken.user_id == user.pk
        # The taker accepts the seek's terms: an open record is one of them.
        game.record_open = bool((game.options or {}).get("open_record")) and not game.competitive
        seeks.append(game)
    return seeks


def scenarios_for(user) -> list:
    """Scenarios `user` may use: their own and everyone's public ones."""
    qs = Scenario.objects.select_related("owner")
    if user is not None and user.is_authenticated:
        qs = qs.filter(Q(public=True) | Q(owner=user))
    else:
        qs = qs.filter(public=True)
    return list(qs)
