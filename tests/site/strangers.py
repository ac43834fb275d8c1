"""What the strangers' tests share: the database's state (a refused request
changes nothing), a game id that does not exist, and the comparison of two
answers, one about an object the requester may not see and one about a
missing object, after masking what legitimately differs (the id itself,
the CSRF token)."""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model

from games.models import ChatMessage, Game, GameAction, Notification, Scenario, Seat, Snapshot

# Headers whose difference would tell the two answers apart; the rest
# (Date, Content-Length: the body is compared) say nothing about the object.
HEADERS = (
    "Content-Type",
    "Location",
    "Content-Disposition",
    "Retry-After",
    "Allow",
    "Vary",
    "Cache-Control",
    "X-Frame-Options",
    "Content-Security-Policy",
    "HX-Redirect",
    "HX-Refresh",
    "HX-Trigger",
)
CSRF = re.compile(rb'(name="csrfmiddlewaretoken" value=")[^"]*(")|("X-CSRFToken": ")[^"]*(")')


def snapshot() -> tuple:
    """Every row a request for a game, a chat line, a notification or a
    scenario could change."""
    return (
        list(
            Game.objects.order_by("pk").values_list(
                "pk", "seq", "status", "result", "draw_offer", "undo_request", "proposal", "updated"
            )
        ),
        list(Seat.objects.order_by("pk").values_list("pk", "user_id", "deadline", "chat_muted")),
        list(GameAction.objects.order_by("pk").values_list("pk", "hash")),
        list(Snapshot.objects.order_by("pk").values_list("pk", "seq")),
        list(Notification.objects.order_by("pk").values_list("pk", "read", "emailed")),
        list(ChatMessage.objects.order_by("pk").values_list("pk", "text", "reported")),
        list(Scenario.objects.order_by("pk").values_list("pk", "name", "public")),
        list(get_user_model().objects.order_by("pk").values_list("pk", "password", "email", "is_active")),
    )


def missing_game_id() -> int:
    """A game id no game has, with as many digits as the ids in use (the
    masked bodies then compare byte for byte)."""
    top = Game.objects.order_by("-pk").values_list("pk", flat=True).first() or 1
    return 10 ** len(str(top)) - 1 if 10 ** len(str(top)) - 1 > top else 10 ** (len(str(top)) + 1) - 1


def _masked(data: bytes, masks: list[str]) -> bytes:
    data = CSRF.sub(
        lambda m: m.group(1) + b"<csrf>" + m.group(2) if m.group(1) else m.group(3) + b"<csrf>" + m.group(4),
        data,
    )
    for text in sorted(masks, key=len, reverse=True):
        # A number only where it stands alone (12 is not masked inside 3124).
        edge = rb"(?<![0-9])%s(?![0-9])" if text.isdigit() else rb"%s"
        data = re.sub(edge % re.escape(text.encode()), b"<id>", data)
    return data


def body_of(response) -> bytes:
    """The response's body, a streamed one read once and kept."""
    if not getattr(response, "streaming", False):
        return response.content
    if not hasattr(response, "read_body"):
        response.read_body = b"".join(response.streaming_content)
    return response.read_body


def masked_answer(response, masks: list[str]) -> tuple:
    """(status, body, headers that matter) with `masks` (the ids, as they
    appear in the path and the page) and the CSRF token masked."""
    body = body_of(response)
    headers = tuple(
        (name, _masked(response[name].encode(), masks)) for name in HEADERS if response.has_header(name)
    )
    return response.status_code, _masked(body, masks), headers


def compare(seen, nothing, seen_id, missing_id) -> None:
    """The answer about the object the requester may not see equals the
    answer about the missing one."""
    masks = [str(seen_id), str(missing_id)]
    a, b = masked_answer(seen, masks), masked_answer(nothing, masks)
    assert a == b, (a[0], b[0], a[1][:400], b[1][:400], a[2], b[2])
