"""`manage.py bench_review`: a benchmark, not a test.  Builds a finished game
of --actions quiet actions (tools.site.benchkit), then measures the CPU time
(time.process_time, so other load on the machine does not count) of stepping
its review through the replay endpoint: every step rendered on demand (a
cold cache: the process's review frames and the render cache emptied)
against every step after games.pages.review.precompute (what the Celery task
does when a game ends).  Prints the figures; --keep leaves the game in the
database."""

from __future__ import annotations

import statistics
import time

from django.conf import settings
from django.core.management.base import BaseCommand
from django.test import Client

from games import selectors, services
from games.engines import get_engine
from games.pages import review as review_page
from games.store import render_cache
from games.store.action_log import purge_game
from games.ui.wec import review  # the bench game is a Wec game: its review's process caches
from tools.site import benchkit


class Command(BaseCommand):
    help = "Benchmark: CPU time per review step, rendered on demand and precomputed."

    def add_arguments(self, parser):
        parser.add_argument("--actions", type=int, default=300)
        parser.add_argument("--steps", type=int, default=12, help="how many steps to time")
        parser.add_argument("--keep", action="store_true")

    def _step_cpu(self, client, game_id: int, steps: list[int]) -> list[float]:
        out = []
        for at in steps:
            t = time.process_time()
            response = client.get(f"/games/{game_id}/replay/?at={at}", HTTP_HX_REQUEST="true", HTTP_HOST="127.0.0.1")
            out.append(time.process_time() - t)
            assert response.status_code == 200, response.status_code
        return out

    def handle(self, *args, **options):
        engine = get_engine()
        bg = benchkit.new_bench_game(f"rv{int(time.time()) % 100000}", 0, 1)
        n = benchkit.build_long_game(bg, engine, options["actions"])
        services.resign(bg.game_id, bg.players["white"].user)
        game = selectors.get_game(bg.game_id)
        frames = selectors.replay_frames(game)
        steps = [round(i * (len(frames) - 1) / max(1, options["steps"] - 1)) for i in range(options["steps"])]
        client = Client()
        client.force_login(bg.players["black"].user)
        try:
            cache = render_cache.cache()
            # On demand: each step rendered for the first time (the frames computed once per process).
            review._CACHE.clear()
            review._SUMMARIES.clear()
            cold = self._step_cpu(client, game.pk, steps)
            for seat in game.seats.all():
                for at in range(len(frames)):
                    cache.delete(review_page.review_key(game, seat, at))
            review._CACHE.clear()
            review._SUMMARIES.clear()
            t = time.process_time()
            rendered = review_page.precompute(game.pk)
            pre = time.process_time() - t
            warm = self._step_cpu(client, game.pk, steps)
        finally:
            if not options["keep"]:
                purge_game(bg.game_id)
        self.stdout.write(
            f"bench_review: {n} actions, {len(frames)} review steps, {len(steps)} timed "
            f"(render cache {settings.WEC_RENDER_CACHE})\n"
            f"  on demand: first step {cold[0] * 1000:.0f} ms CPU (frames computed), then median "
            f"{statistics.median(cold[1:]) * 1000:.0f} ms CPU per step\n"
            f"  precompute: {rendered} step renders in {pre:.2f} s CPU (once per ended game, in Celery)\n"
            f"  precomputed: median {statistics.median(warm) * 1000:.1f} ms CPU per step "
            f"({statistics.median(cold[1:]) / max(statistics.median(warm), 1e-6):.0f}x less than on demand)"
        )
