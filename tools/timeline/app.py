"""The submit timeline's server side (its figures: docs/performance.md):
`wecsite.asgi:application` with timing marks around the phases of a
request, every SQL statement, every Redis command, every Celery enqueue,
every on_commit hook and the doorbell thread's work.  Each mark is
(perf_counter, thread CPU, thread name, B/E/I, label); perf_counter is
CLOCK_MONOTONIC, so the driver (tools/timeline/submit.py) lines the marks
up with its own send and receive times.  Marks go to
$WEC_TIMELINE_DIR/<pid>.jsonl.  Never used by the site: daphne loads it
only when the driver asks.  Importing it wraps Django, redis-py and the
site's functions for good, so only its own web processes may import it."""

from __future__ import annotations

import collections
import functools
import json
import os
import threading
import time

from wecsite.asgi import application as _application  # noqa: I001 (sets Django up first)
from wecsite.asgi import django_asgi_app

_EV: collections.deque = collections.deque()
_OUT = os.path.join(os.environ.get("WEC_TIMELINE_DIR", "/tmp"), f"{os.getpid()}.jsonl")


def mark(kind: str, label: str) -> None:
    _EV.append((time.perf_counter(), time.thread_time(), threading.current_thread().name, kind, label))


def _flush() -> None:
    out = []
    while _EV:
        out.append(_EV.popleft())
    if out:
        with open(_OUT, "a") as f:
            for e in out:
                f.write(json.dumps(e) + "\n")


def wrap(obj, attr: str, label: str | None = None, labeller=None) -> None:
    original = getattr(obj, attr)
    name = label or attr

    @functools.wraps(original)
    def wrapper(*args, **kwargs):
        lab = labeller(*args, **kwargs) if labeller else name
        mark("B", lab)
        try:
            return original(*args, **kwargs)
        finally:
            mark("E", lab)

    setattr(obj, attr, wrapper)


def _flusher() -> None:
    while True:
        time.sleep(1.0)
        _flush()


threading.Thread(target=_flusher, name="timeline-flush", daemon=True).start()

# --- SQL -------------------------------------------------------------------------------
from django.db.backends import utils as db_utils  # noqa: E402
from django.db.backends.base import base as db_base  # noqa: E402


def _sql_label(self, sql, *a, **k):
    s = " ".join(str(sql).split())[:70]
    return "sql " + s


wrap(db_utils.CursorWrapper, "_execute", labeller=_sql_label)
wrap(db_utils.CursorWrapper, "_executemany", labeller=_sql_label)
wrap(db_base.BaseDatabaseWrapper, "commit", "sql COMMIT")
wrap(db_base.BaseDatabaseWrapper, "_savepoint_commit", "sql savepoint commit")
from django.db.backends.postgresql import base as pg_base  # noqa: E402

wrap(pg_base.DatabaseWrapper, "is_usable", "sql health check")
wrap(db_base.BaseDatabaseWrapper, "connect", "sql connect")
wrap(db_base.BaseDatabaseWrapper, "run_and_clear_commit_hooks", "on_commit hooks")

_orig_on_commit = db_base.BaseDatabaseWrapper.on_commit


def _on_commit(self, func, robust=False):
    inner = func.func if isinstance(func, functools.partial) else func
    lab = "hook " + str(getattr(inner, "__qualname__", None) or repr(inner))

    def hooked():
        mark("B", lab)
        try:
            return func()
        finally:
            mark("E", lab)

    return _orig_on_commit(self, hooked, robust=robust)


db_base.BaseDatabaseWrapper.on_commit = _on_commit

# --- Redis, Celery ---------------------------------------------------------------------
import redis.client  # noqa: E402

wrap(redis.client.Redis, "execute_command", labeller=lambda self, *a, **k: f"redis {a[0]}")
wrap(redis.client.Pipeline, "execute", "redis pipeline")
try:
    from celery.app.task import Task  # noqa: E402

    wrap(Task, "apply_async", labeller=lambda self, *a, **k: f"celery {self.name}")
except ImportError:
    pass

# --- the service and the answer --------------------------------------------------------
from games import boardpatch, doorbells, services  # noqa: E402
from games.pages import board as board_page  # noqa: E402
from games.services import lifecycle, seen, submit, versions  # noqa: E402
from games.store import sql  # noqa: E402
from games.store import states as state_store  # noqa: E402
from games.ui import wec as wec_ui  # noqa: E402

# module or class, attribute: label
SPANS = """
services submit_action: service
submit locked_game: lock+load rows
submit load_state: load_state
submit legal_actions: legal_actions
versions settle_views: settle_views (views, digests)
seen note_shown_in_batch: note_shown (signature)
submit append_action: append_action
lifecycle schedule_ai_if_needed: schedule_ai
state_store save_state: save_state (state row)
sql.Batch flush: batch flush
board_page board_response: answer: board_response
board_page since_last: answer: since_last
board_page get_token: answer: csrf token
board_page history_fragment: answer: history_fragment
boardpatch digests: answer: part digests
boardpatch patch: answer: patch
wec_ui board_context: answer: board_context
wec_ui render_board: answer: render_board
doorbells._Bell _do: bell: _do
doorbells _send_now: bell: send doorbells
board_page _store: bell: render cache SET
"""
_owners = {"services": services, "submit": submit, "versions": versions, "seen": seen, "lifecycle": lifecycle,
           "state_store": state_store, "sql.Batch": sql.Batch,
           "board_page": board_page, "boardpatch": boardpatch, "wec_ui": wec_ui,
           "doorbells._Bell": doorbells._Bell, "doorbells": doorbells}  # fmt: skip
for line in SPANS.strip().splitlines():
    where, label = line.split(": ", 1)
    owner, attr = where.split()
    wrap(_owners[owner], attr, label)

# --- middleware and views --------------------------------------------------------------
from django.conf import settings  # noqa: E402
from django.core import signals  # noqa: E402


def _started(**kwargs):
    mark("I", "request_started (thread hop 1)")


signals.request_started.connect(_started, weak=False)


def _finished(**kwargs):
    mark("I", "request_finished (response.close hop)")


signals.request_finished.connect(_finished, weak=False)


def _marker(label: str):
    """A middleware class marking its span of the chain."""

    class Mark:
        def __init__(self, get_response):
            self.get_response = get_response

        def __call__(self, request):
            mark("B", label)
            try:
                return self.get_response(request)
            finally:
                mark("E", label)

    return Mark


OuterMark = _marker("middleware chain (thread hop 2)")
InnerMark = _marker("url+view")


settings.MIDDLEWARE = [f"{__name__}.OuterMark", *settings.MIDDLEWARE, f"{__name__}.InnerMark"]
django_asgi_app.load_middleware(is_async=True)


async def application(scope, receive, send):
    if scope["type"] != "http":
        return await _application(scope, receive, send)
    mark("B", f"asgi {scope['method']} {scope['path']}")

    async def rcv():
        m = await receive()
        if m.get("type") == "http.request":
            mark("I", "asgi body received")
        return m

    async def snd(message):
        kind = message.get("type")
        mark("B", f"send {kind}")
        try:
            await send(message)
        finally:
            mark("E", f"send {kind}")

    try:
        await _application(scope, rcv, snd)
    finally:
        mark("E", f"asgi {scope['method']} {scope['path']}")
