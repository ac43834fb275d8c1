"""Ratings: Glicko-2 (games.glicko2), one rating period per game, for
competitive games between two people, when the game ends."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model

from accounts.models import RatingChange
from games import glicko2
from games.models import Game, GameRating, Seat, other_color


def rate_game(sender, game: Game, seats: list[Seat], **kwargs) -> None:
    """games.services.signals.game_ended, inside the transaction that ended
    the game: a competitive game between two people updates both Glicko-2
    ratings (one rating period per game) and records each new rating for
    the profile's plot."""
    if not game.competitive or not game.result:
        return
    users = {s.color: s.user for s in seats}
    if any(u is None or u.is_ai for u in users.values()) or len(users) != 2:
        return
    User = get_user_model()
    locked = {u.pk: u for u in User.objects.select_for_update().filter(pk__in=[u.pk for u in users.values()])}
    if game.engine != settings.WEC_ENGINE_NAME:
        # Ratings are kept per game: the site's first game on the User row,
        # every other game in a GameRating row of its own.
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
