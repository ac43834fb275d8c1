"""`manage.py bench_cpu`: CPU time and queries per request in one process,
the steadier figures on a shared machine.

Through Django's test client (the whole middleware stack, no HTTP server),
on this settings' PostgreSQL and Redis:

* htmx submits of a fresh game (the bench's action mix) and of a long game
  (`--long` actions): CPU per submit (`time.process_time`) and queries;
* the long game's board partial rendered (cache miss) and from the render
  cache: CPU and queries;
* the first board refresh of a live page (it holds the record) of the long
  and of the 50-action game in a process that never saw them (the process
  caches cleared).

`--profile FILE` also writes a cProfile of the fresh game's submits (read
it with `python -m pstats FILE`), `--top N` prints its N costliest entries.
Prints figures; asserts none.
"""

from __future__ import annotations

import cProfile
import gc
import json
import logging
import pstats
import secrets
import statistics
import time

from django.core.management.base import BaseCommand
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import doorbells
from games.engines import get_engine
from games.models import Game, Seat
from games.store import states as state_store
from tools.site import benchkit


def _client(player) -> Client:
    client = Client(HTTP_HOST="localhost")
    client.force_login(player.user)
    return client


class _NoQueries:
    captured_queries = ()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _bell_cpu() -> float:
    """CPU seconds used so far by this process's doorbell thread (0 when it
    has not started): its work runs beside the requests, so `process_time`
    around one request catches only the part that overlaps it."""
    bell = getattr(doorbells, "_bell", None)
    thread = getattr(bell, "thread", None)
    if thread is None or thread.ident is None or not thread.is_alive():
        return 0.0
    try:
        return time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
    except (AttributeError, OSError):  # not Linux
        return 0.0


def _submit(client: Client, engine, bg, color: str, count: bool = False) -> tuple[float, int, int, int]:
    """One htmx submit like the page's; (CPU seconds, status, queries, bytes).
    Queries are counted only when asked (counting them costs CPU itself)."""
    action = bg.choose(engine)
    headers = {"HTTP_HX_REQUEST": "true"}
    # The page's headers: the record it holds, the parts of the board it shows.
    for name, value in benchkit.board_headers(bg, color).items():
        headers["HTTP_" + name.upper().replace("-", "_")] = value
    with CaptureQueriesContext(connection) if count else _NoQueries() as queries:
        t = time.process_time()
        response = client.post(f"/games/{bg.game_id}/act/", {"action": json.dumps(action)}, **headers)
        took = time.process_time() - t
    if response.status_code == 200:
        bg.state = engine.apply(bg.state, action)
        body = benchkit.take_board(bg, color, response.content, response.get("X-Wec-Patch"), response.get("X-Wec-Parts"))
        bg.history[color] = benchkit.history_header(body, bg.history.get(color))
    return took, response.status_code, len(queries.captured_queries), len(response.content)


class Command(BaseCommand):
    help = "CPU time and queries per submit and board fetch in one process."

    def add_arguments(self, parser):
        parser.add_argument("--submits", type=int, default=60)
        parser.add_argument("--long", type=int, default=3000)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--profile", default="", help="write a cProfile of the fresh game's submits here")
        parser.add_argument("--top", type=int, default=0, help="print this many costliest profile entries")

    def out(self, text: str) -> None:
        self.stdout.write(text)
        self.stdout.flush()

    def handle(self, *args, submits, long, seed, profile, top, **options):
        logging.getLogger("axes").setLevel(logging.WARNING)
        engine = get_engine()
        tag = secrets.token_hex(3)
        self.out(f"bench_cpu: {submits} submits, long game of {long} actions")
        # --- submits of a fresh game ------------------------------------------------
        bg = benchkit.new_bench_game(tag, 0, seed)
        clients = {c: _client(p) for c, p in bg.players.items()}
        for _ in range(5):  # warm up (templates, translations, connections)
            _submit(clients[engine.to_move(bg.state)], engine, bg, engine.to_move(bg.state))
        # As a web process does after start-up (wecsite/asgi.py): without it the
        # collector's full passes over all of Django land on random submits.
        gc.collect()
        gc.freeze()
        prof = cProfile.Profile() if (profile or top) else None
        cpu, queries, sizes = [], [], []
        doorbells.flush()
        bell0, process0, thread0, done = _bell_cpu(), time.process_time(), time.thread_time(), 0
        for _ in range(submits):
            if engine.outcome(bg.state) is not None:
                bg = benchkit.new_bench_game(tag, 1, seed + 1)
                clients = {c: _client(p) for c, p in bg.players.items()}
            color = engine.to_move(bg.state)
            if prof:
                prof.enable()
            counted = not prof and len(cpu) % 4 == 3
            took, status, n, size = _submit(clients[color], engine, bg, color, count=counted)
            if prof:
                prof.disable()
            if status == 200:
                if counted:
                    queries.append(n)
                else:
                    cpu.append(took)
                sizes.append(size)
                done += 1
        doorbells.flush()
        bell1, process1, thread1 = _bell_cpu(), time.process_time(), time.thread_time()
        queries = queries or [0]
        self.out(
            f"  fresh game: CPU per submit {statistics.mean(cpu) * 1000:.1f} ms mean, "
            f"{statistics.median(cpu) * 1000:.1f} ms median; queries {min(queries)}-{max(queries)}; "
            f"answer {int(statistics.median(sizes))} bytes median"
        )
        if done:
            self.out(
                f"  fresh game, whole loop per submit (harness included, doorbells flushed): "
                f"process {(process1 - process0) / done * 1000:.2f} ms, "
                f"main thread {(thread1 - thread0) / done * 1000:.2f} ms, "
                f"doorbell thread {(bell1 - bell0) / done * 1000:.2f} ms CPU"
            )
        if prof and profile:
            prof.dump_stats(profile)
        if prof and top:
            pstats.Stats(prof, stream=self.stdout).sort_stats("cumulative").print_stats(top)

        # --- the long game ----------------------------------------------------------
        t0 = time.perf_counter()
        lg = benchkit.new_bench_game(tag, 2, seed + 2)
        benchkit.build_long_game(lg, engine, long)
        short = benchkit.new_bench_game(tag, 3, seed + 3)
        benchkit.build_long_game(short, engine, 50)
        self.out(f"  set-up of the long game: {time.perf_counter() - t0:.0f} s")
        clients = {c: _client(p) for c, p in lg.players.items()}
        cpu, queries = [], []
        for i in range(min(submits, 30)):
            if engine.outcome(lg.state) is not None:
                break
            color = engine.to_move(lg.state)
            counted = i % 4 == 3
            took, status, n, _size = _submit(clients[color], engine, lg, color, count=counted)
            if status == 200 and i >= 2:
                (queries if counted else cpu).append(n if counted else took)
        if cpu:
            self.out(
                f"  long game: CPU per submit {statistics.mean(cpu) * 1000:.1f} ms mean, "
                f"{statistics.median(cpu) * 1000:.1f} ms median; queries {min(queries)}-{max(queries)}"
            )

        # --- board partial of the long game ------------------------------------------
        black = clients["black"]
        path = f"/games/{lg.game_id}/board/"
        full = black.get(path, HTTP_HX_REQUEST="true").content
        header = benchkit.history_header(full, None)
        hit, miss, q_hit, q_miss = [], [], [0], [0]
        for i in range(24):
            if i % 2:
                Seat.objects.filter(game_id=lg.game_id, color="black").update(version=models_f("version") + 1)
            counted = i >= 20
            with CaptureQueriesContext(connection) if counted else _NoQueries() as q:
                t = time.process_time()
                response = black.get(path, HTTP_HX_REQUEST="true", HTTP_X_WEC_HISTORY=header)
                took = time.process_time() - t
            is_hit = response["X-Wec-Board-Cache"] == "hit"
            if counted:
                (q_hit if is_hit else q_miss).append(len(q.captured_queries))
            else:
                (hit if is_hit else miss).append(took)
        self.out(
            f"  long game board: miss {statistics.median(miss) * 1000:.1f} ms CPU ({max(q_miss)} queries), "
            f"hit {statistics.median(hit) * 1000:.1f} ms CPU ({max(q_hit)} queries), {len(response.content)} bytes"
        )

        # --- first load in a fresh process -------------------------------------------
        def first(game_id: int, client: Client) -> tuple[float, int]:
            """A live page's board refresh (it holds the record) served by a
            process that never saw the game."""
            page = client.get(f"/games/{game_id}/board/", HTTP_HX_REQUEST="true").content
            has = benchkit.history_header(page, None)
            times, counts = [], [0]
            for i in range(9):
                state_store.clear_caches()
                Seat.objects.filter(game_id=game_id, color="black").update(version=models_f("version") + 1)
                with CaptureQueriesContext(connection) if i >= 7 else _NoQueries() as q:
                    t = time.process_time()
                    client.get(f"/games/{game_id}/board/", HTTP_HX_REQUEST="true", HTTP_X_WEC_HISTORY=has)
                    took = time.process_time() - t
                if i >= 7:
                    counts.append(len(q.captured_queries))
                else:
                    times.append(took)
            return statistics.median(times), max(counts)

        short_client = _client(short.players["black"])
        (long_t, long_q), (short_t, short_q) = first(lg.game_id, black), first(short.game_id, short_client)
        n_long = Game.objects.get(pk=lg.game_id).seq
        self.out(
            f"  first board in a fresh process: {n_long} actions {long_t * 1000:.1f} ms CPU ({long_q} queries), "
            f"50 actions {short_t * 1000:.1f} ms CPU ({short_q} queries), ratio {long_t / short_t:.2f}"
        )


def models_f(name):
    from django.db.models import F

    return F(name)
