"""Texts of notifications, and their emails.

A notification names a game and what happened (your turn, a new game, the end)
and nothing else: no move, no position, no result."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from wecsite.ratelimit import first_in, forget
from wecsite.siteurl import site_url

from .models import Notification

logger = logging.getLogger(__name__)


def notification_text(kind: str, game_id: int, opponent_name: str = "") -> str:
    if kind == Notification.Kind.YOUR_TURN:
        if opponent_name:
            return _("Your turn in game %(id)s against %(name)s") % {"id": game_id, "name": opponent_name}
        return _("Your turn in game %(id)s") % {"id": game_id}
    if kind == Notification.Kind.NEW_GAME:
        if opponent_name:
            return _("%(name)s started game %(id)s with you") % {"id": game_id, "name": opponent_name}
        return _("Game %(id)s started") % {"id": game_id}
    if kind == Notification.Kind.GAME_OVER:
        return _("Game %(id)s has ended") % {"id": game_id}
    if kind == Notification.Kind.CHALLENGE:
        return _("A challenge (game %(id)s) waits for your answer") % {"id": game_id}
    if kind == Notification.Kind.CHALLENGE_ANSWER:
        return _("Your challenge (game %(id)s) was answered") % {"id": game_id}
    if kind == Notification.Kind.DRAW_OFFER:
        return _("A draw is offered in game %(id)s") % {"id": game_id}
    if kind == Notification.Kind.REMINDER:
        return _("Your time in game %(id)s runs out soon") % {"id": game_id}
    if kind == Notification.Kind.UNDO_REQUEST:
        return _("Your opponent asks you to undo their last turn in game %(id)s") % {"id": game_id}
    if kind == Notification.Kind.CHAT:
        return _("A new chat message in game %(id)s") % {"id": game_id}
    return _("Something happened in game %(id)s") % {"id": game_id}


def _opponent_name(note: Notification) -> str:
    seat = note.game.seats.exclude(user_id=note.user_id).select_related("user").first()
    return seat.user.shown_name if seat and seat.user else ""


def send_email_for(notification_id: int) -> bool:
    """Send the email of one notification if its user (still) wants it and it
    was not sent before.  Returns whether it went out."""
    note = Notification.objects.select_related("user", "game").filter(pk=notification_id).first()
    if note is None or not note.user.email_on_turn or not note.user.email or note.user.is_ai:
        return False
    if note.user.email_digest:
        return False  # the daily digest carries it
    # Claim it first, so that a retried or duplicated task sends it only once.
    if not Notification.objects.filter(pk=note.pk, emailed=False).update(emailed=True):
        return False
    # One email per (recipient, game, kind) within the coalescing time: a
    # renewed notice (games.services.events.notify) is not emailed again.
    mark = f"{note.user_id}:{note.game_id}:{note.kind}"
    if not first_in("notice-email", mark, settings.WEC_NOTICE_COALESCE_SECONDS):
        return False
    try:
        with translation.override(settings.LANGUAGE_CODE):
            subject = notification_text(note.kind, note.game_id, _opponent_name(note))
            base = site_url()
            game_url = base + reverse("game_detail", args=[note.game_id])
            profile_url = base + reverse("profile")
            body = _(
                "%(subject)s.\n\nOpen the game: %(url)s\n\n"
                "You get these emails because you asked for them; you can turn them off in your profile: %(profile)s\n"
            ) % {"subject": subject, "url": game_url, "profile": profile_url}
            send_mail(_("Wec Online: %(subject)s") % {"subject": subject}, body, None, [note.user.email])
    except Exception:
        Notification.objects.filter(pk=note.pk).update(emailed=False)
        forget("notice-email", mark)  # a retry may send it
        logger.exception("email for notification %s failed", note.pk)
        raise
    return True


def send_digest_for(user_id: int) -> int:
    """One email listing the user's unread notifications not emailed yet (the
    daily digest).  Returns how many it listed (0: no email)."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None or not user.email or not user.email_digest or user.is_ai:
        return 0
    notes = list(Notification.objects.filter(user=user, read=False, emailed=False).order_by("created", "pk"))
    if not notes:
        return 0
    # Claim them first, so a retried task does not send them twice.
    claimed = Notification.objects.filter(pk__in=[n.pk for n in notes], emailed=False).update(emailed=True)
    if claimed != len(notes):
        return 0
    try:
        with translation.override(user.language or settings.LANGUAGE_CODE):
            base = site_url()
            lines = [
                f"- {notification_text(n.kind, n.game_id)}: {base}{reverse('game_detail', args=[n.game_id])}"
                for n in notes
            ]
            body = _("What happened in your games since the last digest:") + "\n\n" + "\n".join(lines) + "\n"
            send_mail(_("Wec Online: your daily digest"), body, None, [user.email])
    except Exception:
        Notification.objects.filter(pk__in=[n.pk for n in notes]).update(emailed=False)
        logger.exception("digest for user %s failed", user_id)
        raise
    return len(notes)
