"""Reads of the club: a game's chat, challenges, the spectators' lists, a
player's record and rating plot, the leaderboard."""

from __future__ import annotations

from types import SimpleNamespace

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import F, Prefetch

from games.models import ChatMessage, Game, GameRating, Seat
from games.selectors import seat_for


def chat_messages(game: Game, user) -> list:
    """The game's chat as `user` may read it: the players always (a player who
    muted the chat sees only their own lines); anyone else only once the game
    has ended.  None when `user` may not read it."""
    seat = seat_for(game, user)
    if seat is None and game.status != Game.Status.FINISHED:
        return None
    qs = ChatMessage.objects.filter(game=game).select_related("author")
    if seat is not None and seat.chat_muted:
        qs = qs.filter(author_id=user.pk)
    return list(qs)


def challenges_for(user) -> list:
    """Challenges waiting for `user`'s answer or for their opponent's."""
    games = (
        Game.objects.filter(status=Game.Status.CHALLENGE, seats__user=user)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .distinct()
        .order_by("-created")
    )
    out = []
    for game in games:
        mine = seat_for(game, user)
        other = next((s for s in game.seats.all() if s.pk != mine.pk), None)
        game.my_color = mine.color
        game.opponent = other.user if other else None
        game.incoming = game.created_by_id != user.pk
        out.append(game)
    return out


def _games_with_players(status: str, limit: int) -> list:
    """Games in `status`, the latest turn change first, each with `.players`
    ({colour: user}); ordered by turn-level time only, like every list."""
    games = (
        Game.objects.filter(status=status)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by(F("turn_started").desc(nulls_last=True), "-pk")[:limit]
    )
    out = []
    for game in games:
        game.players = {s.color: s.user for s in game.seats.all()}
        out.append(game)
    return out


def archive(limit: int = 100) -> list:
    """Finished games, newest first, with both players."""
    return _games_with_players(Game.Status.FINISHED, limit)


def watchable_games(limit: int = 100) -> list:
    """Running games anyone may watch."""
    return _games_with_players(Game.Status.ACTIVE, limit)


def player_record(user) -> dict:
    """A player's finished games and results (won / lost / drawn) and rating history."""
    finished = Game.objects.filter(seats__user=user, status=Game.Status.FINISHED).prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user"))
    ).distinct().order_by(F("turn_started").desc(nulls_last=True), "-pk")
    counts = {"won": 0, "lost": 0, "drawn": 0}
    games = []
    for game in finished:
        mine = seat_for(game, user)
        winner = (game.result or {}).get("winner")
        outcome = "drawn" if winner is None else ("won" if winner == mine.color else "lost")
        counts[outcome] += 1
        other = next((s for s in game.seats.all() if s.pk != mine.pk), None)
        game.my_color, game.my_outcome, game.opponent = mine.color, outcome, other.user if other else None
        games.append(game)
    running = Game.objects.filter(seats__user=user, status=Game.Status.ACTIVE).distinct().count()
    history = list(user.rating_changes.order_by("created", "pk").values_list("rating", flat=True))
    return {"games": games[:50], "counts": counts, "running": running, "ratings": history}


def rating_plot(ratings: list[float], width: int = 320, height: int = 120) -> dict | None:
    """The points of an SVG polyline for a rating history (drawn server-side:
    no scripts), with the axis labels.  None when there is nothing to draw."""
    if not ratings:
        return None
    values = [1500.0, *ratings]
    low, high = min(values), max(values)
    span = max(high - low, 1.0)
    pad = 6
    step = (width - 2 * pad) / max(len(values) - 1, 1)
    points = " ".join(
        f"{pad + i * step:.1f},{pad + (high - v) / span * (height - 2 * pad):.1f}" for i, v in enumerate(values)
    )
    return {"points": points, "width": width, "height": height, "low": round(low), "high": round(high)}


def leaderboard(limit: int = 100, engine: str | None = None) -> list:
    """Players with at least one rated game, best rating first: in the site's
    first game (the rating on the User row), or in the game `engine` (its
    GameRating rows)."""
    if engine and engine != settings.WEC_ENGINE_NAME:
        rows = (
            GameRating.objects.filter(engine=engine, user__is_active=True, user__is_ai=False)
            .select_related("user")
            .order_by("-rating", "rating_deviation", "user__username")[:limit]
        )
        return [
            SimpleNamespace(
                username=r.user.username, shown_name=r.user.shown_name, rating=r.rating,
                rating_deviation=r.rating_deviation,
            )
            for r in rows
        ]
    User = get_user_model()
    return list(
        User.objects.filter(is_active=True, is_ai=False, rating_changes__isnull=False)
        .distinct()
        .order_by("-rating", "rating_deviation", "username")[:limit]
    )
