"""Each step of an ended game's review, rendered once and kept.

A finished game never changes, so the replay partial of every step (per
viewing side, for its board orientation, and per language) is rendered once
and then served from the render cache.  When a game ends, a Celery task
(`games.tasks.precompute_review`) renders every step for both players in
their own languages, so even the first look at a step is a cache read; a step
not rendered yet (another language, a cache that was cleared) is rendered on
demand and kept."""

from __future__ import annotations

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import get_language

from games import selectors
from games.models import Game, Seat
from games.registry import get_ui
from games.store import render_cache


def review_key(game, seat, at: int | None) -> str:
    """The cache key of one step of an ended game's review, as `seat` sees it
    (its board orientation).  The game's last action number and history epoch
    are in it: a finished game has no more, so the entry never goes stale."""
    return ":".join(
        [
            settings.WEC_REDIS_PREFIX,
            "review",
            str(game.pk),
            str(game.seq),
            str(getattr(game, "history_epoch", 0)),
            game.status,
            seat.color,
            "end" if at is None else str(int(at)),
            get_language() or "",  # the partial shows no times: no time zone
        ]
    )


def clamp(game: Game, at: int | None) -> int:
    last = len(selectors.replay_frames(game)) - 1
    return last if at is None else max(0, min(int(at), last))


def step_html(game: Game, seat: Seat, at: int | None) -> str:
    """The replay partial of step `at` (clamped; None = the end) for `seat`."""
    ui = get_ui(game.engine)
    at = clamp(game, at)
    key = review_key(game, seat, at)
    cache = render_cache.cache()
    html = cache.get(key)
    if html is None:
        html = render_to_string(
            ui.REPLAY_TEMPLATE,
            {"game": game, "color": seat.color, "review": ui.review_context(game, seat, at)},
        )
        cache.set(key, html)
    return html


def precompute(game_id: int) -> int:
    """Render every step of an ended game's review for both players, each in
    their own language; returns how many steps were rendered now."""
    game = selectors.get_game(game_id)
    if not selectors.is_review(game):
        return 0
    steps = len(selectors.replay_frames(game))
    cache = render_cache.cache()
    done = 0
    for seat in game.seats.all():
        if seat.user is None or getattr(seat.user, "is_ai", False):
            continue
        with translation.override(seat.user.language or settings.LANGUAGE_CODE):
            for at in range(steps):
                if cache.get(review_key(game, seat, at)) is None:
                    step_html(game, seat, at)
                    done += 1
    return done
