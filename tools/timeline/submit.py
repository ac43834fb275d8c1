"""The submit timeline's driver: starts the bench_site layout
(tools.site.benchkit.Stack) with daphne serving tools/timeline/app.py (the
site with timing marks), plays sequential htmx submits of a fresh bench game
interleaved with the bare INSERT view, and writes the client's send and
receive times and the server's marks (one monotonic clock) to all.json in a
new directory, whose path it prints.  tools/timeline/report.py turns that
into the table: per phase, the median wall and thread-CPU milliseconds of
one submit.

    DATABASE_URL=... REDIS_URL=... WEC_TESTING=1 python -m tools.timeline.submit [N] [WORKERS]
    python -m tools.timeline.report /tmp/wec-timeline-*/all.json

TIMELINE_PAUSE (seconds, default 0.03) is the quiet before each request.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
import tempfile
import time
from pathlib import Path
from unittest import mock

# The server side of the timeline: the app daphne serves instead of the site's.
APP = "tools.timeline.app:application"


def run(n: int, workers: int, pause: float = 0.03) -> Path:
    """Play `n` submits (each followed by a bare INSERT) against `workers`
    web processes; returns the path of all.json."""
    from django.db import connection

    from games.engines import get_engine
    from tools.site import benchkit
    from tools.site.views import BENCH_TABLE
    from wecsite import layout

    out_dir = Path(tempfile.mkdtemp(prefix="wec-timeline-"))
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE IF NOT EXISTS {BENCH_TABLE} (id bigserial primary key, n int)")
    engine = get_engine()
    tag = secrets.token_hex(3)
    sent: list[tuple[float, float]] = []

    class TimedHttp(benchkit.Http):
        """Notes when each request left and when its answer was in."""

        def request(self, *args, **kwargs):
            t = time.perf_counter()
            try:
                return super().request(*args, **kwargs)
            finally:
                sent.append((t, time.perf_counter()))

    web_command = layout.web_command

    def timeline_command(fd, bin_dir=None, access_log=False):
        return [APP if a == "wecsite.asgi:application" else a for a in web_command(fd, bin_dir, access_log)]

    # Only the processes started here serve the marked app.
    with mock.patch.object(layout, "web_command", timeline_command):
        stack = benchkit.Stack(workers, out_dir / "web.log", extra_env={"WEC_TIMELINE_DIR": str(out_dir)})
    client = []  # (kind, t0, t1, status, action type)
    try:
        http = TimedHttp(stack.port)
        bg = benchkit.new_bench_game(tag, 0, 7)
        player = bg.players["black"]
        for _ in range(6):
            benchkit.submit(http, engine, bg)
            http.post_form("/bench/insert/", player, {})
        time.sleep(1.2)  # the marks are flushed every second
        for f in out_dir.glob("*.jsonl"):  # the warm-up's marks
            f.unlink()
        k = 0
        for _i in range(n):
            if engine.outcome(bg.state) is not None:
                k += 1
                bg = benchkit.new_bench_game(tag, k, 7 + k)
            _took, status, action, _b = benchkit.submit(http, engine, bg)
            client.append(("submit", *sent[-1], status, action["type"]))
            time.sleep(pause)  # let the doorbell thread finish, as between a person's clicks
            http.post_form("/bench/insert/", player, {})
            client.append(("bare", *sent[-1], 200, ""))
            time.sleep(pause)
        time.sleep(2.5)  # the last marks flushed
    finally:
        stack.stop()

    events = []
    for f in out_dir.glob("*.jsonl"):
        pid = f.stem
        for line in f.read_text().splitlines():
            t, cpu, thread, kind, label = json.loads(line)
            events.append((t, cpu, thread, kind, label, pid))
    events.sort()
    out = out_dir / "all.json"
    out.write_text(json.dumps({"client": client, "events": events}))
    return out


def main(argv: list[str]) -> int:
    n = int(argv[0]) if argv else 60
    workers = int(argv[1]) if len(argv) > 1 else 2
    out = run(n, workers, float(os.environ.get("TIMELINE_PAUSE", "0.03")))
    print("marks in", out)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wecsite.settings")
    import django

    django.setup()
    sys.exit(main(sys.argv[1:]))
