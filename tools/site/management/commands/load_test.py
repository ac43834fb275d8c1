"""`manage.py load_test`: many concurrent games with think time against the
real stack for a bounded time, then every game's log checked.

Starts `--workers` web processes (the `./wec serve` layout) on this settings'
PostgreSQL and Redis; each of `--games` games gets a thread playing both
sides over HTTP with both players' websockets open, waiting a random think
time (up to `--think` seconds) before each action.  When `--seconds` are up
every game is replayed and checked by verify_games' own check (no turn lost or
doubled: the log, the hash chain, the snapshots, the state row and the Turn
records all agree with the replay, and the number of actions the server
accepted is the number in the log).  Prints turns per second, submit latency
p50/p95/p99, the doorbell delay, errors and memory per web process.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import close_old_connections

from games.engines import get_engine
from games.management.commands.verify_games import verify_game
from games.models import Game
from tools.site import benchkit
from tools.site.benchkit import Http, WebSocket, pct


class Command(BaseCommand):
    help = "Concurrent games with think time against the real stack; then every game's log is checked."

    def add_arguments(self, parser):
        parser.add_argument("--workers", type=int, default=2)
        parser.add_argument("--games", type=int, default=20)
        parser.add_argument("--seconds", type=float, default=30.0)
        parser.add_argument("--think", type=float, default=1.0, help="longest think time before an action (s)")
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, workers, games, seconds, think, seed, **options):
        logging.getLogger("axes").setLevel(logging.WARNING)
        engine = get_engine()
        tag = secrets.token_hex(3)
        bench_games = [benchkit.new_bench_game(tag, i, seed + i) for i in range(games)]
        stack = benchkit.Stack(workers)
        latencies, rings, accepted = [], [], {g.game_id: 0 for g in bench_games}
        turns = [0]
        errors: list[str] = []
        lock = threading.Lock()
        stop = time.monotonic() + seconds

        def player(g):
            h = Http(stack.port)
            sockets = {}
            try:
                sockets = {c: WebSocket(stack.port, f"/ws/games/{g.game_id}/", p.cookie) for c, p in g.players.items()}
                while time.monotonic() < stop and engine.outcome(g.state) is None:
                    time.sleep(g.rng.random() * think)
                    mover = engine.to_move(g.state)
                    other = "white" if mover == "black" else "black"
                    took, status, action, body = benchkit.submit(h, engine, g)
                    done = time.perf_counter()
                    with lock:
                        if status != 200:
                            errors.append(f"game {g.game_id}: HTTP {status}: {body[:120]!r}")
                            continue
                        latencies.append(took)
                        accepted[g.game_id] += 1
                        turns[0] += action["type"] == "end_turn"
                    if action["type"] == "end_turn":
                        msg = sockets[other].recv(10)
                        while msg is not None and msg.get("type") != "changed":
                            msg = sockets[other].recv(10)
                        with lock:
                            if msg is None:
                                errors.append(f"game {g.game_id}: no doorbell for {other} within 10 s")
                            else:
                                rings.append(time.perf_counter() - done + took)
                    for ws in sockets.values():
                        while ws.recv(0.001) is not None:
                            pass
            except Exception as exc:  # a crashed client is an error to report, not a crash of the run
                with lock:
                    errors.append(f"game {g.game_id}: {type(exc).__name__}: {exc}")
            finally:
                for ws in sockets.values():
                    ws.close()
                close_old_connections()

        started = time.monotonic()
        threads = [threading.Thread(target=player, args=(g,)) for g in bench_games]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.monotonic() - started
        rss = stack.rss_mb()
        stack.stop()

        problems = 0
        for g in bench_games:
            game = Game.objects.get(pk=g.game_id)
            problem, checked, _snaps = verify_game(game)
            if problem is None and game.seq != accepted[g.game_id]:
                problem = f"the server accepted {accepted[g.game_id]} actions but the log has {game.seq}"
            if problem:
                problems += 1
                self.stderr.write(f"game {g.game_id}: {problem}")
        ms = 1000
        self.stdout.write(f"load_test: {games} games, {workers} web processes, think <= {think} s, {elapsed:.0f} s")
        self.stdout.write(f"  actions {len(latencies)} ({len(latencies) / elapsed:.1f}/s), turns {turns[0]} "
                          f"({turns[0] / elapsed:.2f}/s)")
        self.stdout.write(f"  submit latency p50 {pct(latencies, 50) * ms:.0f} ms, p95 {pct(latencies, 95) * ms:.0f} ms, "
                          f"p99 {pct(latencies, 99) * ms:.0f} ms")
        self.stdout.write(f"  doorbell (submit start to opponent's ring) p50 {pct(rings, 50) * ms:.0f} ms, "
                          f"p95 {pct(rings, 95) * ms:.0f} ms")
        self.stdout.write(f"  errors {len(errors)}" + "".join(f"\n    {e}" for e in errors[:10]))
        self.stdout.write(f"  memory per web process (RSS MB): {', '.join(f'{m:.0f}' for m in rss)}")
        self.stdout.write(f"  verify: {games - problems} of {games} games whole and true")
        if problems or errors:
            raise CommandError(f"{problems} game(s) failed verification, {len(errors)} error(s)")
