"""Scratch driver for the submit timeline (docs/performance.md, seventh
round): starts the bench_site layout (benchkit.Stack) with daphne serving
scripts/timeline_app.py, plays sequential htmx submits of a fresh bench game
interleaved with the bare INSERT view, and prints, per phase, the median
wall and thread-CPU milliseconds of one submit, the client's send and
receive lined up with the server's marks (one monotonic clock).

    DATABASE_URL=... REDIS_URL=... WEC_TESTING=1 .venv/bin/python scripts/submit_timeline.py [N] [WORKERS]
"""

from __future__ import annotations

import json
import os
import secrets
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wecsite.settings")
import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

from games import benchkit  # noqa: E402
from games.bench_views import BENCH_TABLE  # noqa: E402
from games.engines import get_engine  # noqa: E402
from wecsite import layout  # noqa: E402

N = int(sys.argv[1]) if len(sys.argv) > 1 else 60
WORKERS = int(sys.argv[2]) if len(sys.argv) > 2 else 2
out_dir = tempfile.mkdtemp(prefix="wec-timeline-")
os.environ["WEC_TIMELINE_DIR"] = out_dir
os.environ["PYTHONPATH"] = f"{ROOT / 'scripts'}:{ROOT}"
_web = layout.web_command
layout.web_command = lambda fd, bin_dir=None, access_log=False: [
    a if a != "wecsite.asgi:application" else "timeline_app:application"
    for a in _web(fd, bin_dir, access_log)
]

with connection.cursor() as cursor:
    cursor.execute(f"CREATE TABLE IF NOT EXISTS {BENCH_TABLE} (id bigserial primary key, n int)")
engine = get_engine()
tag = secrets.token_hex(3)
_request = benchkit.Http.request
sent = []


def _timed_request(self, *a, **k):
    t = time.perf_counter()
    try:
        return _request(self, *a, **k)
    finally:
        sent.append((t, time.perf_counter()))


benchkit.Http.request = _timed_request
PAUSE = float(os.environ.get("TIMELINE_PAUSE", "0.03"))
stack = benchkit.Stack(WORKERS, Path(out_dir) / "web.log")
client = []  # (kind, t0, t1, status)
try:
    http = benchkit.Http(stack.port)
    bg = benchkit.new_bench_game(tag, 0, 7)
    player = bg.players["black"]
    for _ in range(6):
        benchkit.submit(http, engine, bg)
        http.post_form("/bench/insert/", player, {})
    time.sleep(1.2)
    for f in Path(out_dir).glob("*.jsonl"):  # the warm-up's marks
        f.unlink()
    k = 0
    for _i in range(N):
        if engine.outcome(bg.state) is not None:
            k += 1
            bg = benchkit.new_bench_game(tag, k, 7 + k)
        took, status, action, _b = benchkit.submit(http, engine, bg)
        client.append(("submit", *sent[-1], status, action["type"]))
        time.sleep(PAUSE)  # 0.03: let the doorbell thread finish, as between a person's clicks
        http.post_form("/bench/insert/", player, {})
        client.append(("bare", *sent[-1], 200, ""))
        time.sleep(PAUSE)
    time.sleep(2.5)
finally:
    stack.stop()

events = []
for f in Path(out_dir).glob("*.jsonl"):
    pid = f.stem
    for line in f.read_text().splitlines():
        t, cpu, thread, kind, label = json.loads(line)
        events.append((t, cpu, thread, kind, label, pid))
events.sort()
json.dump({"client": client, "events": events}, open(Path(out_dir) / "all.json", "w"))
print("marks in", out_dir)
