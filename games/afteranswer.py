"""Writes that a request makes after its answer has left.

A board fetch that renders a new view version writes one row nothing in its
answer reads back: the seat's record of the board it was shown
(services.note_board_shown, "changed since you last looked").  Written
before the answer, that statement's round trip and commit were ~0.5 ms of
a render-cache miss's wall time on a quiet machine (1-3 ms on a busy
disk), spent waiting.  (The render cache's copy of the board stays with
the doorbell thread, handed over while the board is rendered: handed over
after the answer, its pickling and sending fell on a request that came
right after, a cache hit 12% slower, for ~0.1 ms less on the miss.)

`after_answer(chore)` runs `chore()` once the request's response is closed:
Django closes it after handing the body to the server (ASGI and WSGI alike;
the test client too) and sends `request_finished` then, also when the
client went away before the answer.  The chores run on the thread that
gave them (the process's one thread for synchronous code under
wecsite.asgi, so the same database connection), in the order given; and
every chore still pending runs when that thread's next request starts,
before its view reads anything, so a player's next request in the same
process never reads a record older than the answer before it.  Outside a
request (tasks, commands, tests calling services directly) a chore runs at
once.  A chore that fails is logged, never raised: the answer has gone.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from django.core.signals import request_finished, request_started

logger = logging.getLogger(__name__)


class _ThreadState(threading.local):
    def __init__(self) -> None:
        self.depth = 0  # requests started and not finished on this thread
        self.pending: list[Callable[[], object]] = []


_state = _ThreadState()


def after_answer(chore: Callable[[], object]) -> None:
    """Run `chore()` after this thread's current request has been answered
    (at once when no request is in progress on this thread)."""
    if _state.depth > 0:
        _state.pending.append(chore)
        return
    _run(chore)


def run_pending() -> None:
    """Run this thread's pending chores now, oldest first."""
    pending = _state.pending
    while pending:
        _run(pending.pop(0))


def _run(chore: Callable[[], object]) -> None:
    try:
        chore()
    except Exception:
        logger.exception("after-answer chore %r failed", chore)


def _started(**kwargs) -> None:
    # Whatever an earlier request left (its answer not yet closed: requests
    # of an ASGI process interleave between their views) runs before this
    # request reads.
    run_pending()
    _state.depth += 1


def _finished(**kwargs) -> None:
    _state.depth = max(0, _state.depth - 1)
    run_pending()


request_started.connect(_started, dispatch_uid="games.afteranswer.started")
request_finished.connect(_finished, dispatch_uid="games.afteranswer.finished")
