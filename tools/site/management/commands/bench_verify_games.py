"""`manage.py bench_verify_games`: a benchmark, not a test.  Plays --games
human-against-human games of --turns turns each with random legal actions
through services.submit_action (so the log, hash chain and snapshots are
written exactly as in play), then times verify_games over them and prints the
figures.  --purge removes the games afterwards (through purge_game)."""

from __future__ import annotations

import random
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from games import selectors, services
from games.engines import get_engine
from games.management.commands.verify_games import verify_game
from games.models import Game
from games.store.action_log import purge_game


class Command(BaseCommand):
    help = "Benchmark: play random games through the site's services, then time verify_games over them."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=10)
        parser.add_argument("--turns", type=int, default=10)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--purge", action="store_true")

    def handle(self, *args, **options):
        rng = random.Random(options["seed"])
        engine = get_engine()
        User = get_user_model()
        players = []
        for name in ("bench-black", "bench-white"):
            user, _ = User.objects.get_or_create(username=name, defaults={"email": f"{name}@example.invalid"})
            players.append(user)
        ids = []
        started = time.perf_counter()
        actions = 0
        for _ in range(options["games"]):
            game = services.create_game(
                creator=players[0],
                opponent="user",
                username=players[1].username,
                color="black",
                days_per_move=None,
            )
            ids.append(game.pk)
            who = {"black": players[0], "white": players[1]}
            for _turn in range(options["turns"]):
                for _step in range(12):
                    g = Game.objects.get(pk=game.pk)
                    if g.status != Game.Status.ACTIVE:
                        break
                    legal = engine.legal_actions(selectors.load_state(g))
                    if not legal:
                        break
                    moved_already = any(a["type"] == "end_turn" for a in legal)
                    pick = {"type": "end_turn"} if moved_already and rng.random() < 0.6 else rng.choice(legal)
                    services.submit_action(game.pk, who[g.to_move], pick, expected_seq=g.seq)
                    actions += 1
                    if pick["type"] == "end_turn":
                        break
        played = time.perf_counter() - started
        started = time.perf_counter()
        checked = problems = 0
        for game in Game.objects.filter(pk__in=ids).order_by("pk"):
            problem, n, _snaps = verify_game(game)
            checked += n
            problems += bool(problem)
            if problem:
                self.stderr.write(f"game {game.pk}: {problem}")
        verified = time.perf_counter() - started
        self.stdout.write(
            f"played {len(ids)} games, {actions} actions in {played:.1f} s ({actions / played:.0f} submits/s); "
            f"verify_games checked {checked} actions in {verified:.2f} s ({checked / max(verified, 1e-9):.0f} actions/s); "
            f"{problems} games with problems"
        )
        if options["purge"]:
            for pk in ids:
                purge_game(pk)
