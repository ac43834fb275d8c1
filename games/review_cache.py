"""Each step of an ended game's review, rendered once and kept (issue 13).

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

from . import boardcache, selectors
from .models import Game, Seat
from .store import render_cache


def clamp(game: Game, at: int | None) -> int:
    last = len(selectors.replay_frames(game)) - 1
    return last if at is None else max(0, min(int(at), last))


def step_html(game: Game, seat: Seat, at: int | None) -> str:
    """The replay partial of step `at` (clamped; None = the end) for `seat`."""
    from .registry import get_ui

    ui = get_ui(game.engine)
    at = clamp(game, at)
    key = boardcache.review_key(game, seat, at)
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
                if cache.get(boardcache.review_key(game, seat, at)) is None:
                    step_html(game, seat, at)
                    done += 1
    return done
