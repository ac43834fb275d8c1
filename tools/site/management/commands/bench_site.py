"""`manage.py bench_site` (or `./wec bench`): every figure of the site's
speed (docs/performance.md) next to its bare-view baseline, measured in one
run against the real stack.

Starts `--workers` daphne processes (the `./wec serve` layout, one shared
socket) on this settings' PostgreSQL and Redis with the bare baseline views
routed (tools/site/views.py), creates bench players and games in the
database, then measures over loopback HTTP and websockets:

* submit latency (htmx action POST) against a bare view doing one INSERT;
* submits per second with 1 and with N concurrent clients, against the bare view;
* the board partial (time and bytes) against a bare view returning as many bytes;
* loading a game's state at 50 and at --long actions (in this process);
* the websocket doorbell delay, against a ping/pong round trip on the same socket;
* the opponent's page refresh p95 with both players' pages live.

No Celery worker is needed: every game is person against person.  Prints
figures; asserts none.  Bounded: each timed phase runs --seconds at most.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import close_old_connections, connection

from games import selectors
from games.engines import get_engine
from games.management.commands.verify_games import verify_game
from games.models import Game, Seat
from games.store import states as state_store
from tools.site import benchkit
from tools.site.benchkit import Http, WebSocket, med, pct
from tools.site.views import BENCH_TABLE


class Command(BaseCommand):
    help = "Benchmark the site against bare views; prints figures."

    def add_arguments(self, parser):
        parser.add_argument("--workers", type=int, default=2, help="web processes")
        parser.add_argument("--clients", type=int, default=4, help="concurrent clients for the N-client figures")
        parser.add_argument("--submits", type=int, default=60, help="sequential submits timed")
        parser.add_argument("--seconds", type=float, default=8.0, help="length of each throughput phase")
        parser.add_argument("--long", type=int, default=3000, help="actions in the long game")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--pause", type=float, default=0.03,
            help="seconds of quiet before each timed request of the latency phases (0: none)")

    def out(self, text: str) -> None:
        self.stdout.write(text)
        self.stdout.flush()

    def handle(self, *args, workers, clients, submits, seconds, long, seed, pause, **options):
        self.pause = pause
        # Signing the bench players in is not news.
        logging.getLogger("axes").setLevel(logging.WARNING)
        engine = get_engine()
        tag = secrets.token_hex(3)
        with connection.cursor() as cursor:
            cursor.execute(f"CREATE TABLE IF NOT EXISTS {BENCH_TABLE} (id bigserial primary key, n int)")
        self.out(f"bench_site: {workers} web processes, {clients} concurrent clients, phases of {seconds:.0f} s")
        t0 = time.perf_counter()
        long_game = benchkit.new_bench_game(tag, 0, seed)
        benchkit.build_long_game(long_game, engine, long)
        short_game = benchkit.new_bench_game(tag, 1, seed + 1)
        benchkit.build_long_game(short_game, engine, 50)
        for bg in (long_game, short_game):  # built by bulk writes: prove them the replay of their logs
            problem = verify_game(Game.objects.get(pk=bg.game_id))[0]
            if problem:
                raise CommandError(f"bench game {bg.game_id}: {problem}")
        self.out(f"  set-up: games of {Game.objects.get(pk=long_game.game_id).seq} and 50 actions "
                 f"in {time.perf_counter() - t0:.0f} s")
        rows = []

        def row(name, value, base, unit, target=""):
            ratio = value / base if base else float("nan")
            rows.append((name, value, base, ratio, unit, target))
            self.out(f"  {name:<44} {value:10.2f} {unit:<6} bare {base:10.2f}  ratio {ratio:6.2f}  {target}")

        # --- load time (in process) -----------------------------------------------
        def load_times(game_id: int, mode: str) -> float:
            game = Game.objects.get(pk=game_id)
            times = []
            for _ in range(15):
                if mode == "row":
                    state_store.forget_state(game_id)  # another process wrote the state
                elif mode == "cold":
                    state_store.clear_caches()  # a process that never saw the game
                t = time.perf_counter()
                selectors.load_state(game)
                times.append(time.perf_counter() - t)
            return med(times) * 1000

        self.out("load time (ms, median of 15)")
        n_long = Game.objects.get(pk=long_game.game_id).seq
        for mode, label in (("row", "state row + Turn records known"), ("cold", "first load in a process"),
                            ("hit", "process cache")):
            short_ms, long_ms = load_times(short_game.game_id, mode), load_times(long_game.game_id, mode)
            row(f"load {label} at {n_long} vs 50", long_ms, short_ms, "ms", "target <= 1.5" if mode == "row" else "")

        stack = benchkit.Stack(workers)
        try:
            self._http_figures(stack, engine, tag, seed, clients, submits, seconds, long_game, row)
        finally:
            rss = stack.rss_mb()
            stack.stop()
        self.out(f"memory per web process (RSS MB): {', '.join(f'{m:.0f}' for m in rss)}")

    def _quiet(self) -> None:
        # Latency is a request's own: what the request before it left for
        # after its answer (doorbells, cache copies, the since-last record)
        # must not be counted in the next one, site's or bare alike.  The
        # throughput phases run without pauses, so that work is paid there.
        if self.pause > 0:
            time.sleep(self.pause)

    def _http_figures(self, stack, engine, tag, seed, clients, submits, seconds, long_game, row):
        port = stack.port
        http = Http(port)
        bg = benchkit.new_bench_game(tag, 2, seed + 2)
        player = bg.players["black"]
        # --- submit latency --------------------------------------------------------
        for _ in range(5):  # warm both paths on every process
            benchkit.submit(http, engine, bg)
            http.post_form("/bench/insert/", player, {})
        lat, bare = [], []
        for _ in range(submits):
            if engine.outcome(bg.state) is not None:
                bg = benchkit.new_bench_game(tag, 3, seed + 3)
            self._quiet()
            took, status, _a, _b = benchkit.submit(http, engine, bg)
            if status == 200:
                lat.append(took)
            self._quiet()
            t = time.perf_counter()
            http.post_form("/bench/insert/", player, {})
            bare.append(time.perf_counter() - t)
        self.out("submit (ms, median; p95 in brackets)")
        row("submit latency", med(lat) * 1000, med(bare) * 1000, "ms", "target <= 2")
        self.out(f"    p95 {pct(lat, 95) * 1000:.1f} ms, bare p95 {pct(bare, 95) * 1000:.1f} ms")

        # --- throughput ------------------------------------------------------------
        def throughput(n: int, bare_view: bool) -> float:
            games = [benchkit.new_bench_game(tag, 10 + i + (100 if bare_view else 0), seed + i) for i in range(n)]
            counts = [0] * n
            stop = time.monotonic() + seconds

            def client(i):
                h = Http(port)
                g = games[i]
                while time.monotonic() < stop:
                    if bare_view:
                        status, _b, _r = h.post_form("/bench/insert/", g.players["black"], {})
                    else:
                        if engine.outcome(g.state) is not None:
                            break
                        _t, status, _a, _b = benchkit.submit(h, engine, g)
                    if status == 200:
                        counts[i] += 1
                close_old_connections()

            threads = [threading.Thread(target=client, args=(i,)) for i in range(n)]
            start = time.monotonic()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            return sum(counts) / (time.monotonic() - start)

        self.out("submits per second")
        for n in (1, clients):
            site, base = throughput(n, False), throughput(n, True)
            row(f"submits/s with {n} client(s)", site, base, "/s", "target >= 0.5")

        # --- board partial ---------------------------------------------------------
        self.out("board partial of the long game (live page holding the whole record)")
        black = long_game.players["black"]
        path = f"/games/{long_game.game_id}/board/"
        status, full, _r = http.request("GET", path, black.headers())
        header = benchkit.history_header(full, None)
        hit, miss, sizes = [], [], []
        for i in range(20):
            if i % 2:
                # a new view version (what a real change does): the next fetch renders
                Seat.objects.filter(game_id=long_game.game_id, color="black").update(version=models_F("version") + 1)
            h = black.headers()
            h["X-Wec-History"] = header
            self._quiet()
            t = time.perf_counter()
            status, body, resp = http.request("GET", path, h)
            took = time.perf_counter() - t
            (hit if resp.getheader("X-Wec-Board-Cache") == "hit" else miss).append(took)
            sizes.append(len(body))
        size = int(med(sizes))
        bare = []
        for _ in range(20):
            self._quiet()
            t = time.perf_counter()
            http.request("GET", f"/bench/bytes/?n={size}", black.headers())
            bare.append(time.perf_counter() - t)
        row("board partial, rendered (cache miss)", med(miss) * 1000, med(bare) * 1000, "ms", "target <= 2")
        row("board partial, from the render cache", med(hit) * 1000, med(bare) * 1000, "ms", "target <= 2")
        self.out(f"    bytes: {size} per board update; {len(full)} with the whole record "
                 f"(first load of a page; the record alone {len(full) - size} bytes)")

        # --- websocket doorbell -----------------------------------------------------
        self.out("websocket doorbell")
        g = benchkit.new_bench_game(tag, 50, seed + 50)
        sockets = {c: WebSocket(port, f"/ws/games/{g.game_id}/", p.cookie) for c, p in g.players.items()}
        delays, pings = [], []
        for _ in range(30):
            ws = sockets["white"]
            t = time.perf_counter()
            ws.send_text('{"type":"ping"}')
            while (msg := ws.recv(5)) is not None and msg.get("type") != "pong":
                pass
            pings.append(time.perf_counter() - t)
        for _ in range(min(30, submits)):
            if engine.outcome(g.state) is not None:
                break
            mover = engine.to_move(g.state)
            other = "white" if mover == "black" else "black"
            for ws in sockets.values():  # drain
                while ws.recv(0.001) is not None:
                    pass
            took, status, action, _b = benchkit.submit(http, engine, g)
            sent_done = time.perf_counter()
            if action["type"] != "end_turn" or status != 200:
                continue
            msg = sockets[other].recv(5)
            if msg and msg.get("type") == "changed":
                delays.append(time.perf_counter() - sent_done + took)
        for ws in sockets.values():
            ws.close()
        row("doorbell: submit start to opponent's ring", med(delays) * 1000, med(lat) * 1000, "ms",
            "(bare = the submit itself)")
        self.out(f"    socket ping/pong round trip {med(pings) * 1000:.2f} ms")

        # --- live pages -------------------------------------------------------------
        self.out(f"both players' pages live, {clients} games at once, no think time")
        refresh, submit_times, errors = self._live(port, engine, tag, seed, clients, seconds)
        base = []
        stop = time.monotonic() + seconds / 2
        while time.monotonic() < stop:
            t = time.perf_counter()
            http.request("GET", f"/bench/bytes/?n={size}", black.headers())
            base.append(time.perf_counter() - t)
        row("opponent refresh p95 (submit done to board in)", pct(refresh, 95) * 1000, pct(base, 95) * 1000,
            "ms", "target p95 < 1000 ms")
        self.out(f"    live submits/s {len(submit_times) / seconds:.1f}, refreshes {len(refresh)}, errors {errors}")

    def _live(self, port, engine, tag, seed, n, seconds):
        games = [benchkit.new_bench_game(tag, 200 + i, seed + 200 + i) for i in range(n)]
        refresh, submit_times = [], []
        errors = [0]
        stop = time.monotonic() + seconds

        def client(i):
            g = games[i]
            h = Http(port)
            sockets = {c: WebSocket(port, f"/ws/games/{g.game_id}/", p.cookie) for c, p in g.players.items()}
            try:
                while time.monotonic() < stop and engine.outcome(g.state) is None:
                    mover = engine.to_move(g.state)
                    other = "white" if mover == "black" else "black"
                    took, status, action, body = benchkit.submit(h, engine, g)
                    if status != 200:
                        errors[0] += 1
                        continue
                    submit_times.append(took)
                    # (submit() kept the mover's X-Wec-History up to date)
                    done = time.perf_counter()
                    # The opponent's page: on its ring (sure when the turn passed), fetch the board.
                    wait = 5 if action["type"] == "end_turn" else 0.002
                    until = time.perf_counter() + wait
                    msg = sockets[other].recv(wait)
                    # Like the page, a ring for the version it already shows is
                    # passed over (doorbells go out after commit, beside the
                    # answer, so one may come a little after the answer).
                    while (msg and msg.get("type") == "changed" and msg["version"] == g.shown.get(other)
                           and time.perf_counter() < until):
                        msg = sockets[other].recv(max(0.001, until - time.perf_counter()))
                    if msg and msg.get("type") == "changed" and msg["version"] != g.shown.get(other):
                        hh = g.players[other].headers()
                        hh.update(benchkit.board_headers(g, other))
                        status, body, r = h.request("GET", f"/games/{g.game_id}/board/", hh)
                        if status != 200:
                            errors[0] += 1
                        else:
                            refresh.append(time.perf_counter() - done)
                            body = benchkit.take_board(g, other, body, r.getheader("X-Wec-Patch"),
                                                       r.getheader("X-Wec-Parts"))
                            g.history[other] = benchkit.history_header(body, g.history.get(other))
                            m = benchkit.VERSION_RE.search(body)
                            g.shown[other] = int(m.group(1)) if m else g.shown.get(other)
                    elif action["type"] == "end_turn":
                        errors[0] += 1  # the ring did not come
                    # The mover's own page already shows its new version: its ring asks nothing.
                    while sockets[mover].recv(0.001) is not None:
                        pass
            finally:
                for ws in sockets.values():
                    ws.close()
                close_old_connections()

        threads = [threading.Thread(target=client, args=(i,)) for i in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return refresh, submit_times, errors[0]


def models_F(name):
    from django.db.models import F

    return F(name)
