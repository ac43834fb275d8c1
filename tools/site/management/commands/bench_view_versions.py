"""Benchmark: what the per-colour view versions cost per action.

Plays a random competitive game in memory (no database), and times
`selectors.view_digest` for both colours (what `services.settle_views` adds to
every submit) against the engine's own `apply`.  Prints figures; asserts none.

    python manage.py bench_view_versions --actions 300
"""

from __future__ import annotations

import random
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from games import selectors
from games.engines import get_engine
from games.models import Game, Seat


class Command(BaseCommand):
    help = _("Time the view digests behind the per-colour view versions.")

    def add_arguments(self, parser):
        parser.add_argument("--actions", type=int, default=300)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, actions: int, seed: int, **options):
        engine = get_engine()
        rng = random.Random(seed)
        game = Game(engine=settings.WEC_ENGINE_NAME, options={"competitive": True}, status=Game.Status.ACTIVE)
        # Unsaved players: the digest reads each seat's user (its vacation), and
        # this benchmark touches no database.
        User = get_user_model()
        seats = [Seat(color=color, user=User(pk=pk, username=f"bench-{color}"))
                 for pk, color in ((1, "black"), (2, "white"))]
        state = engine.new_game({"competitive": True})
        apply_s = digest_s = 0.0
        done = changed = 0
        last = {}
        while done < actions and engine.outcome(state) is None:
            legal = engine.legal_actions(state)
            ends = [a for a in legal if a["type"] == "end_turn"]
            action = ends[0] if ends and rng.random() < 0.6 else rng.choice(legal)
            t = time.perf_counter()
            state = engine.apply(state, action)
            apply_s += time.perf_counter() - t
            game.to_move = engine.to_move(state)
            t = time.perf_counter()
            digests = {c: selectors.view_digest(game, seats, state, c) for c in ("black", "white")}
            digest_s += time.perf_counter() - t
            changed += sum(1 for c, d in digests.items() if last.get(c) != d)
            last = digests
            done += 1
        self.stdout.write(f"actions: {done}")
        self.stdout.write(f"engine apply: {apply_s / done * 1000:.2f} ms/action")
        self.stdout.write(f"view digests (both colours): {digest_s / done * 1000:.2f} ms/action")
        self.stdout.write(f"views changed: {changed} of {2 * done} (colour, action) pairs")
