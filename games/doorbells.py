"""Ringing doorbells (Channels group messages) without holding the request.

A doorbell is a tiny message to a Channels group ("colour X's view of game N
changed to version V").  The callers ring only from `transaction.on_commit`,
so nothing is announced that did not land, and each process has one
background thread that sends them, one after the other in the order they
were rung (a page ignores a version it already shows, but an older version
must never arrive after a newer one), so the request does not wait for Redis.
What is lost when a process dies with doorbells queued is what a dead socket
layer loses: every page refetches its board when its socket reconnects
(static/js/game.js).

How a doorbell is sent: through the channel layer's public `group_send`,
nothing else (no copy of any layer's storage format, so any layer and any
version of it that Channels accepts works).  The thread keeps one event
loop of its own for its whole life, so channels_redis keeps its connection
pool for that loop and a doorbell costs its round trips only, no new
connection; the doorbells handed over together (`together`, and whatever
was rung while the thread was busy) go in one run of that loop, each
`group_send` awaited before the next one starts, so they reach Redis, and
every socket, in the order rung.

The same thread also does the request's best-effort cache writes that
nothing in the answer waits for (`later`): the render cache's copy of the
board a submit has just answered with, and the views kept at a Turn's end
for the highlights.

Nothing of it starts before the answer is out (`after_response`, entered
by wecsite/asgi.py around each HTTP request): the thread shares the
interpreter lock with the request, and handed its work at commit it ran
while the request rendered its answer (docs/performance.md).  What a
request rings or hands over is kept, in order, and given to the thread once
its answer has been sent (the response closed).  The keeping is
process-wide and in ring order: when any request's answer is out,
everything kept so far goes, and a ring outside a request first sends what
is kept, so the thread still sends in the order rung.

`WEC_DOORBELLS_IN_BACKGROUND` (default on, off under pytest, where tests
check the messages right after the call) sends them in the caller's thread
instead (`async_to_sync(group_send)`).  `flush()` waits until the queue is
empty (at exit, and for tests).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import contextvars
import logging
import os
import queue
import threading

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

logger = logging.getLogger(__name__)


async def _group_send_all(layer, doorbells: list[tuple[str, dict]]) -> None:
    """Each (group, message) through `layer.group_send`, one after the other:
    a message is in its members' queues before the next one is sent, so a
    socket in several of the groups gets them in the order rung."""
    for group, message in doorbells:
        await layer.group_send(group, message)


def _send_now(doorbells: list[tuple[str, dict]], bell: _Bell | None = None) -> None:
    """Send the doorbells, in order, through this process's channel layer:
    on the bell thread's own event loop when `bell` is given, else in the
    caller's thread.  Raises what the layer raises (the rest of the list is
    then not sent: a layer that failed one would fail the next)."""
    layer = get_channel_layer()
    if layer is None:
        return
    if bell is not None:
        if bell.loop is None:
            bell.loop = asyncio.new_event_loop()
        bell.loop.run_until_complete(_group_send_all(layer, doorbells))
    else:
        async_to_sync(_group_send_all)(layer, doorbells)


def send_now(doorbells: list[tuple[str, dict]]) -> None:
    """Send the doorbells, in order, in the caller's thread (raises what the
    layer raises; `manage.py socket_soak`)."""
    _send_now(doorbells)


def sent_by(layer) -> str:
    """How doorbells go out through `layer`: always its own "group_send"."""
    return "group_send"


_CHORE = object()


class _Bell:
    """One process's sending thread and its queue."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        self.pending = 0
        self.idle = threading.Condition()
        self.loop: asyncio.AbstractEventLoop | None = None  # made on the thread's first doorbells
        self.thread = threading.Thread(target=self._run, name="wec-doorbells", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while True:
            work = [self.queue.get()]
            while True:  # what was rung meanwhile goes along (one run of the loop for the doorbells in a row)
                try:
                    work.append(self.queue.get_nowait())
                except queue.Empty:
                    break
            try:
                self._do(work)
            finally:
                with self.idle:
                    self.pending -= len(work)
                    self.idle.notify_all()

    def _do(self, work: list) -> None:
        """Each chore in turn; the doorbells between two chores in one run of the loop."""
        doorbells: list[tuple[str, dict]] = []
        for item, kind in [*work, (None, _CHORE)]:
            if kind is not _CHORE:
                doorbells.extend(item)
                continue
            if doorbells:
                try:
                    _send_now(doorbells, self)
                except Exception:  # a dead socket layer must not stop the work after it
                    logger.exception("doorbells failed: %r", [g for g, _ in doorbells])
                doorbells = []
            if item is not None:
                try:
                    item()
                except Exception:  # a dead cache must not stop the work after it
                    logger.exception("background work failed: %r", item)

    def put(self, item, kind) -> None:
        """Hand over a list of doorbells (`kind` None) or a chore (`_CHORE`)."""
        self.put_all([(item, kind)])

    def put_all(self, items: list) -> None:
        """Hand over several, in order."""
        with self.idle:
            self.pending += len(items)
        for item in items:
            self.queue.put(item)

    def flush(self, timeout: float) -> bool:
        with self.idle:
            return self.idle.wait_for(lambda: self.pending == 0, timeout)


_bell: _Bell | None = None
_bell_lock = threading.Lock()


def _get_bell() -> _Bell:
    global _bell
    bell = _bell
    if bell is None or bell.pid != os.getpid():  # none yet, or inherited through a fork
        with _bell_lock:
            if _bell is None or _bell.pid != os.getpid():
                _bell = _Bell()
            bell = _bell
    return bell


def in_background() -> bool:
    return bool(getattr(settings, "WEC_DOORBELLS_IN_BACKGROUND", False))


_held = threading.local()

# Whether the current request's answer is still to be sent (set by
# `after_response` in the request's context, which asgiref copies into the
# thread that runs the view), and what was rung or handed over meanwhile by
# any request of this process, in order (see the module docstring).
_answering: contextvars.ContextVar[bool] = contextvars.ContextVar("wec_doorbells_answering", default=False)
_kept: list = []
_kept_lock = threading.Lock()


def _hand_over(item, kind) -> None:
    """Give (doorbells, None) or (chore, _CHORE) to the thread: kept while
    this request's answer is not sent yet; else after anything kept."""
    bell = _get_bell()
    if _answering.get():
        with _kept_lock:
            _kept.append((item, kind))
        return
    with _kept_lock:
        items = [*_kept, (item, kind)]
        _kept.clear()
        bell.put_all(items)


def _release() -> None:
    """Everything kept so far to the thread, in order."""
    with _kept_lock:
        if not _kept:
            return
        items = list(_kept)
        _kept.clear()
        bell = _get_bell()
        bell.put_all(items)


@contextlib.asynccontextmanager
async def after_response():
    """Around the handling of one HTTP request (wecsite/asgi.py): what it
    rings or hands to the doorbell thread waits until it is done, i.e. its
    answer has been sent, and then goes at once.  Only when doorbells are
    sent in the background."""
    if not in_background():
        yield
        return
    token = _answering.set(True)
    try:
        yield
    finally:
        _answering.reset(token)
        try:
            _release()
        except Exception:  # the thread could not be started: nothing else would send them
            logger.exception("doorbell thread unavailable; sending what was kept in the request")
            with _kept_lock:
                items = list(_kept)
                _kept.clear()
            for item, kind in items:
                _do_here(item, kind)


def _do_here(item, kind) -> None:
    try:
        if kind is _CHORE:
            item()
        else:
            _send_now(item)
    except Exception:
        logger.exception("doorbells or chore %r failed", item)


def ring(group: str, message: dict) -> None:
    """Send `message` to the Channels group `group`: handed to this process's
    doorbell thread, or sent now when doorbells are not sent in the background.
    Never raises (a dead socket layer must not break a committed action)."""
    held = getattr(_held, "doorbells", None)
    if held is not None:
        held.append((group, message))
        return
    _ring_all([(group, message)])


@contextlib.contextmanager
def together():
    """The doorbells rung inside go out together, in the order rung, in one
    hand-over to the thread and one run of its loop (an action's doorbells to
    both colours), when the block ends."""
    if getattr(_held, "doorbells", None) is not None:  # inside another: that one sends them
        yield
        return
    held = _held.doorbells = []
    try:
        yield
    finally:
        _held.doorbells = None
        if held:
            _ring_all(held)


def _ring_all(doorbells: list[tuple[str, dict]]) -> None:
    if in_background():
        try:
            _hand_over(doorbells, None)
            return
        except Exception:  # the thread could not be started: send them here
            logger.exception(
                "doorbell thread unavailable; ringing %s in the request", [g for g, _ in doorbells]
            )
    try:
        _send_now(doorbells)
    except Exception:
        logger.exception("doorbells to %s failed", [g for g, _ in doorbells])


def later(chore, after_answer: bool = True) -> None:
    """Run `chore()` (a small, best-effort write to a cache: the render cache's
    copy of a board just sent, the views kept for highlights) on this
    process's doorbell thread, after the doorbells rung before it, instead
    of in the request; at once when doorbells are not sent in the
    background.  A chore that fails is logged, never raised.
    `after_answer=False`: handed to the thread now even while the request
    answers (see `after_response`), ahead of what is kept: for a copy the
    next request may look for (a board fetch's render, which a request
    right after it would otherwise render again)."""
    if in_background():
        try:
            if not after_answer and _answering.get():
                _get_bell().put(chore, _CHORE)
            else:
                _hand_over(chore, _CHORE)
            return
        except Exception:
            logger.exception("doorbell thread unavailable; doing %r in the request", chore)
    try:
        chore()
    except Exception:
        logger.exception("chore %r failed", chore)


def flush(timeout: float = 5.0) -> bool:
    """Wait until every doorbell rung in this process so far was sent (True),
    or `timeout` seconds passed (False)."""
    if _kept and not _answering.get():
        _release()
    bell = _bell
    if bell is None or bell.pid != os.getpid():
        return True
    return bell.flush(timeout)


atexit.register(flush, 2.0)
