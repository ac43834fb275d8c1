"""Ringing doorbells (Channels group messages) without holding the request
(issue 12).

A doorbell is a tiny message to a Channels group ("colour X's view of game N
changed to version V").  Sending one through channels_redis is several Redis
round trips (trim the group, read its members, trim each channel, a Lua
script); sent from a sync view with `async_to_sync`, the request waited for
all of them, after its commit, before answering the player.

Here each web (or Celery) process has one background thread running its own
event loop, which sends the doorbells handed to it, one after the other in
the order they were rung (a page ignores a version it already shows, but an
older version must never arrive after a newer one).  The callers still ring
only from `transaction.on_commit`, so nothing is announced that did not land;
they just no longer wait for Redis.  What is lost when a process dies with
doorbells queued is what a dead socket layer loses today: every page
refetches its board when its socket reconnects (static/js/game.js).

The same thread also does the request's best-effort cache writes that
nothing in the answer waits for (`later`): the render cache's copy of the
board a submit has just answered with (100 KB to pickle and send), and the
views kept at a Turn's end for the highlights.

`WEC_DOORBELLS_IN_BACKGROUND` (default on, off under pytest, where tests
check the messages right after the call) sends them in the caller's thread
instead.  `flush()` waits until the queue is empty (at exit, and for tests).
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import os
import threading

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

logger = logging.getLogger(__name__)


class _Bell:
    """One process's sending thread and its queue."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.loop = asyncio.new_event_loop()
        self.pending = 0
        self.idle = threading.Condition()
        self.queue: asyncio.Queue | None = None
        ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(ready,), name="wec-doorbells", daemon=True)
        self.thread.start()
        ready.wait(5)

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        self.queue = asyncio.Queue()
        self.loop.call_soon(ready.set)
        self.loop.run_until_complete(self._send_all())

    async def _send_all(self) -> None:
        while True:
            group, message = await self.queue.get()
            try:
                if callable(group):  # a chore (see `later`)
                    group()
                else:
                    layer = get_channel_layer()
                    if layer is not None:
                        await layer.group_send(group, message)
            except Exception:  # a dead socket layer or cache must not stop the work after it
                logger.exception("background work failed: %r", group)
            finally:
                with self.idle:
                    self.pending -= 1
                    self.idle.notify_all()

    def ring(self, group, message: dict | None) -> None:
        with self.idle:
            self.pending += 1
        self.loop.call_soon_threadsafe(self.queue.put_nowait, (group, message))

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


def ring(group: str, message: dict) -> None:
    """Send `message` to the Channels group `group`: handed to this process's
    doorbell thread, or sent now when doorbells are not sent in the background.
    Never raises (a dead socket layer must not break a committed action)."""
    if in_background():
        try:
            _get_bell().ring(group, message)
            return
        except Exception:  # the thread could not be started: send it here
            logger.exception("doorbell thread unavailable; ringing %s in the request", group)
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:
        logger.exception("doorbell to %s failed", group)


def later(chore) -> None:
    """Run `chore()` (a small, best-effort write to a cache: the render cache's
    copy of a board just sent, the views kept for highlights) on this
    process's doorbell thread, after the doorbells rung before it, instead
    of in the request; at once when doorbells are not sent in the
    background.  A chore that fails is logged, never raised."""
    if in_background():
        try:
            _get_bell().ring(chore, None)
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
    bell = _bell
    if bell is None or bell.pid != os.getpid():
        return True
    return bell.flush(timeout)


atexit.register(flush, 2.0)
