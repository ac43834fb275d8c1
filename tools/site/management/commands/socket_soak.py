"""Keep a notification websocket open for a long time and report what happened.

A soak check of the Channels + Redis plumbing (not a test: it takes as long as
asked, 30 minutes by default).  It runs the real NotificationConsumer on the
configured Redis channel layer, as a stand-in user that exists nowhere (so it
writes nothing to the database), keeps the socket idle, and every
`--check-every` seconds rings the user's doorbell through the layer and pings
the socket.  Any close (e.g. 1011 from a Redis read timeout), any crash of the
consumer, any doorbell or pong not answered within 5 s is counted.  Exit status
1 if anything went wrong.

    python manage.py socket_soak --minutes 30
"""

from __future__ import annotations

import asyncio
import secrets
import time

from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from games import doorbells
from games.consumers import NotificationConsumer
from games.services import user_group_name


class _SoakUser:
    """Signed in as far as the consumer can tell; in no table."""

    is_authenticated = True

    def __init__(self):
        # A negative id no real user can have.
        self.pk = -secrets.randbelow(10**9) - 1


class Command(BaseCommand):
    help = _("Keep a websocket open on the real channel layer for N minutes and report drops.")

    def add_arguments(self, parser):
        parser.add_argument("--minutes", type=float, default=30.0)
        parser.add_argument(
            "--check-every", type=float, default=60.0, help=_("seconds between doorbell checks")
        )

    def handle(self, *args, minutes: float, check_every: float, **options):
        report = asyncio.run(self.soak(minutes * 60, check_every))
        for key, value in report.items():
            self.stdout.write(f"{key}: {value}")
        if report["failures"]:
            raise SystemExit(1)

    async def soak(self, seconds: float, check_every: float) -> dict:
        user = _SoakUser()
        layer = get_channel_layer()
        comm = WebsocketCommunicator(NotificationConsumer.as_asgi(), "/ws/notifications/")
        comm.scope["user"] = user
        connected, code = await comm.connect(timeout=10)
        report = {
            "layer": type(layer).__name__,
            "doorbells_sent_by": doorbells.sent_by(layer),
            "planned_seconds": round(seconds),
            "open_seconds": 0,
            "checks": 0,
            "doorbells_received": 0,
            "pongs_received": 0,
            "unexpected_frames": 0,
            "closed_with": None,
            "failures": [],
        }
        if not connected:
            report["closed_with"] = code
            report["failures"].append(f"could not connect ({code})")
            return report
        start = time.monotonic()
        try:
            while time.monotonic() - start < seconds:
                idle = min(check_every, seconds - (time.monotonic() - start))
                # Idle: nothing may come in, and the consumer must not end.
                if not await comm.receive_nothing(timeout=max(idle, 0.1), interval=0.5):
                    frame = await comm.receive_output(timeout=1)
                    if frame.get("type") == "websocket.close":
                        report["closed_with"] = frame.get("code")
                        report["failures"].append(
                            f"closed with {frame.get('code')} after {time.monotonic() - start:.0f} s"
                        )
                        break
                    report["unexpected_frames"] += 1
                if comm.future.done():
                    exc = comm.future.exception()
                    report["failures"].append(
                        f"consumer ended after {time.monotonic() - start:.0f} s: {exc!r}"
                    )
                    break
                report["checks"] += 1
                # Rung as the site rings it (games.doorbells), here and now.
                await asyncio.to_thread(
                    doorbells.send_now,
                    [(user_group_name(user.pk), {"type": "user.notify", "kind": "soak", "game": 0})],
                )
                try:
                    msg = await comm.receive_json_from(timeout=5)
                    if msg.get("type") == "notify":
                        report["doorbells_received"] += 1
                    else:
                        report["unexpected_frames"] += 1
                    await comm.send_json_to({"type": "ping"})
                    if (await comm.receive_json_from(timeout=5)).get("type") == "pong":
                        report["pongs_received"] += 1
                except Exception as exc:  # a timeout, or the consumer's crash
                    report["failures"].append(f"check {report['checks']} failed: {exc!r}")
                    break
                self.stderr.write(f"{time.monotonic() - start:7.0f} s: check {report['checks']} ok")
        finally:
            report["open_seconds"] = round(time.monotonic() - start)
            if not comm.future.done():
                await comm.disconnect()
        return report
