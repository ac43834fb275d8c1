"""Nobody can flood another player's inbox: every endpoint that notifies
someone else is called in a loop by one player (the production rate limits,
one rate window), and the other user's notices and emails stay bounded.

Bounds (per endpoint, for LOOPS rounds in one window):
- a running game's endpoints (draw, chat, undo, resign, moves) and a
  challenge's (proposals, answers, withdrawing, accepting a seek): at most one
  notice and one email, since notices of one kind for one game are coalesced
  (games.services.events.notify) and a draw is offered once per Turn;
- new games against the other player (the new-game form, a scenario's
  start): at most WEC_RATE_LIMIT_DEFAULTS["challenge_pair"] notices and
  emails, each game being a game of its own;
- a password reset for the other user's address: no notice, one email.

Every endpoint of the URL conf is either in NOTIFYING (driven here) or in
SILENT (with the reason), so a new endpoint must be classified before the
suite passes; every NOTIFYING one carries the "notify" rate limit (or is in
NOTIFY_SCOPE_EXEMPT with the reason); and a notice sent during a request of
an endpoint not in NOTIFYING fails the test.  The figures (requests,
refusals, 5xx, notices, emails) are printed per endpoint (pytest -s) and kept
in docs/security.md.  WEC_FUZZ_NOTICE_LOOPS sets the rounds (default 40)."""

from __future__ import annotations

import contextvars
import json
import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from types import SimpleNamespace

import pytest
from django.conf import settings as django_settings
from django.core import mail
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse
from django.utils import timezone
from option_fields import options_post  # every option field with its default

from games import selectors, services, tasks
from games.club import challenges
from games.engines import get_engine
from games.models import Game, Notification
from games.services import events
from wecsite import ratelimit

LOOPS = int(os.environ.get("WEC_FUZZ_NOTICE_LOOPS", "40"))

# The endpoint whose request is being answered (set by Probe.post), to tell
# which endpoint sent a notice.
_ENDPOINT: contextvars.ContextVar[str] = contextvars.ContextVar("endpoint", default="")


# --- the classification ---------------------------------------------------------------------

SILENT = {
    # accounts
    "signup": "creates the requester's own account (limited per address)",
    "set_language": "the requester's own preference",
    "detect_time_zone": "the requester's own preference",
    "profile": "the requester's own profile",
    "vacation": "pauses the requester's clocks; the opponents get no notice",
    "login": "the requester's session (django-axes lockout)",
    "logout": "the requester's session",
    "password_change": "the requester's own password",
    "password_change_done": "a page",
    "password_reset_done": "a page",
    "password_reset_confirm": "sets a password with a token from the owner's email",
    "password_reset_complete": "a page",
    # pages and partials (GET)
    "home": "a page",
    "healthz": "a probe",
    "game_list": "a page",
    "game_detail": "a page (marks the reader's own notices read)",
    "game_board": "a partial",
    "game_clocks": "a partial",
    "game_replay": "a partial",
    "challenge_detail": "a page",
    "chat": "a partial",
    "watch": "a page",
    "watch_board": "a partial",
    "watch_replay": "a partial",
    "archive": "a page",
    "player_profile": "a page",
    "leaderboard": "a page",
    "export_record": "a download",
    "export_record_wec": "a download",
    "export_scenario": "a download",
    "notifications": "a page",
    "notification_badge": "a partial",
    "notifications_read": "marks the reader's own notices read",
    "help": "a page",
    "scenario_editor": "the requester's own scenarios",
    "sandbox": "the requester's own sandbox",
    "sandbox_start": "the requester's own sandbox",
    "sandbox_act": "the requester's own sandbox",
    "sandbox_import": "the requester's own sandbox",
    "setup_favourite": "the requester's own favourite setup",
    # a running game, without a notice
    "take_back": "takes back the requester's own action inside their own Turn",
}

# Notifying endpoints without the "notify" rate scope, and why their notices
# are bounded all the same.
NOTIFY_SCOPE_EXEMPT = {
    "game_act": "a player's Turn ends once before the opponent's Turn (limited by 'submit')",
    "password_reset": "anonymous: limited per address and per address typed, one email per account per 15 minutes",
}


@dataclass
class Probe:
    """One endpoint's run: the attacker's client and what came back."""

    name: str
    client: Client
    attacker: object
    victim: object
    capture: Callable
    statuses: list[int] = field(default_factory=list)
    started: datetime | None = None  # the first request's time
    # (endpoint answering, recipient) of every notice sent
    senders: list[tuple[str, int]] = field(default_factory=list)

    def post(self, url: str, data: dict | None = None, **extra) -> int:
        if self.started is None:
            self.started = timezone.now()
        token = _ENDPOINT.set(resolve(url).url_name)
        try:
            with self.capture(execute=True):
                response = self.client.post(url, data or {}, **extra)
        finally:
            _ENDPOINT.reset(token)
        self.statuses.append(response.status_code)
        return response.status_code


def _game(attacker, victim, **kwargs) -> Game:
    return services.create_game(
        creator=attacker, opponent="user", username=victim.username, color="black", **kwargs
    )


def _end_turn(game: Game, user) -> None:
    """`user` (to move) makes a Move and ends the Turn, through the services."""
    game = Game.objects.get(pk=game.pk)
    state = selectors.load_state(game)
    move = next(a for a in get_engine(game.engine).legal_actions(state) if a["type"] == "move")
    services.submit_action(game.pk, user, move, expected_seq=game.seq)
    services.submit_action(game.pk, user, {"type": "end_turn"}, expected_seq=game.seq + 1)


def drive_draw(p: Probe) -> None:
    url = reverse("draw", args=[_game(p.attacker, p.victim).pk])
    for _ in range(LOOPS):
        p.post(url, {"answer": "offer"})
        p.post(url, {"answer": "decline"})  # withdrawn


def drive_chat(p: Probe) -> None:
    url = reverse("chat_post", args=[_game(p.attacker, p.victim).pk])
    for i in range(LOOPS):
        p.post(url, {"what": "post", "text": f"hello {i}"})


def drive_undo(p: Probe) -> None:
    game = _game(p.attacker, p.victim, competitive=False)
    _end_turn(game, p.attacker)
    url = reverse("undo_request", args=[game.pk])
    for _ in range(LOOPS):
        p.post(url, {"answer": "request"})
        p.post(url, {"answer": "decline"})  # withdrawn


def drive_resign(p: Probe) -> None:
    url = reverse("resign", args=[_game(p.attacker, p.victim).pk])
    for _ in range(LOOPS):
        p.post(url)


def drive_moves(p: Probe) -> None:
    game = _game(p.attacker, p.victim)
    url = reverse("game_act", args=[game.pk])
    for _ in range(LOOPS):
        current = Game.objects.get(pk=game.pk)
        legal = get_engine(current.engine).legal_actions(selectors.load_state(current))
        action = next((a for a in legal if a["type"] == "end_turn"), None) or (
            legal[0] if legal else {"type": "end_turn"}
        )
        p.post(url, {"action": json.dumps(action), "seq": str(current.seq)})


def drive_propose(p: Probe) -> None:
    url = reverse("challenge_propose", args=[_game(p.attacker, p.victim, as_challenge=True).pk])
    for i in range(LOOPS):
        p.post(url, {"days_per_move": ["1", "3"][i % 2], **options_post()})


def drive_answer(p: Probe) -> None:
    """The victim challenged the attacker and proposes changes; the attacker
    answers (rejects) again and again, then declines."""
    game = _game(p.victim, p.attacker, as_challenge=True)
    url = reverse("challenge_answer", args=[game.pk])
    for i in range(LOOPS):
        if i % 2 == 0:
            try:
                challenges.propose_change(
                    game_id=game.pk, user=p.victim, options=None, days_per_move=[1, 3][i % 4 // 2],
                    creator_color=None, competitive=None,
                )  # fmt: skip
            except services.GameError:
                pass
        p.post(url, {"answer": "reject" if i < LOOPS - 1 else "decline"})


def drive_new_game(p: Probe) -> None:
    for _ in range(LOOPS):
        p.post(reverse("new_game"), {"opponent": "user", "username": p.victim.username, "color": "black"})


def drive_scenario_start(p: Probe) -> None:
    data = {"source": "shipped:standard", "opponent": "user", "username": p.victim.username, "color": "black"}
    for _ in range(LOOPS):
        p.post(reverse("scenario_start"), {**data, "days_per_move": "3"})


def drive_accept_seek(p: Probe) -> None:
    seek = services.create_game(creator=p.victim, opponent="open", color="black")
    for _ in range(LOOPS):
        p.post(reverse("accept_seek", args=[seek.pk]))


def drive_cancel(p: Probe) -> None:
    url = reverse("cancel_seek", args=[_game(p.attacker, p.victim, as_challenge=True).pk])
    for _ in range(LOOPS):
        p.post(url)


def drive_password_reset(p: Probe) -> None:
    p.client.logout()
    address = "10.9." + ".".join(str(secrets.randbelow(254) + 1) for _ in range(2))
    for _ in range(LOOPS):
        p.post(reverse("password_reset"), {"email": p.victim.email}, REMOTE_ADDR=address)


# New games against one player: at most this many per window (the production limit).
PAIR = ratelimit.parse_rate(django_settings.WEC_RATE_LIMIT_DEFAULTS["challenge_pair"]).count

# endpoint -> (how one player drives it, most notices, most emails the other user gets)
NOTIFYING: dict[str, tuple[Callable[[Probe], None], int, int]] = {
    "draw": (drive_draw, 1, 1),
    "chat_post": (drive_chat, 1, 1),
    "undo_request": (drive_undo, 1, 1),
    "resign": (drive_resign, 1, 1),
    "game_act": (drive_moves, 1, 1),
    "challenge_propose": (drive_propose, 1, 1),
    "challenge_answer": (drive_answer, 1, 1),
    "new_game": (drive_new_game, PAIR, PAIR),
    "scenario_start": (drive_scenario_start, PAIR, PAIR),
    "accept_seek": (drive_accept_seek, 1, 1),
    "cancel_seek": (drive_cancel, 1, 1),
    "password_reset": (drive_password_reset, 0, 1),
}


# --- the URL conf ---------------------------------------------------------------------------


def _endpoints(patterns=None, namespace: str | None = None):
    """(name, view) of every named URL pattern outside the admin."""
    for p in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(p, URLResolver):
            if (p.namespace or namespace) != "admin":
                yield from _endpoints(p.url_patterns, p.namespace or namespace)
        elif isinstance(p, URLPattern) and p.name:
            yield p.name, p.callback


def test_every_endpoint_is_classified():
    """A new endpoint fails here until it is driven in NOTIFYING or listed,
    with its reason, in SILENT."""
    names = {name for name, _view in _endpoints()}
    assert not set(NOTIFYING) & set(SILENT)
    assert names - set(NOTIFYING) - set(SILENT) == set(), "classify these endpoints"
    assert (set(NOTIFYING) | set(SILENT)) - names == set(), "endpoints that are gone"


def test_notifying_endpoints_carry_the_notify_limit():
    views = dict(_endpoints())
    for name in NOTIFYING:
        scopes = getattr(views[name], "rate_limit_scopes", ())
        assert "notify" in scopes or name in NOTIFY_SCOPE_EXEMPT, name


# --- the loops ------------------------------------------------------------------------------


@pytest.fixture
def probe(client, make_user, settings, monkeypatch, django_capture_on_commit_callbacks):
    settings.WEC_RATE_LIMITS = dict(settings.WEC_RATE_LIMIT_DEFAULTS)
    # One rate window for the whole loop, the limiter's worst case for the victim.
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: 1_800_000_000.5))
    monkeypatch.setattr(
        tasks.send_notification_email, "delay", lambda nid: tasks.send_notification_email(nid)
    )
    attacker = make_user(f"mallory{secrets.token_hex(3)}")
    victim = make_user(f"victim{secrets.token_hex(3)}", email_on_turn=True)
    p = Probe("", client, attacker, victim, django_capture_on_commit_callbacks)
    real_notify = events.notify

    def recording_notify(game, user, kind, batch=None):
        if user is not None:
            p.senders.append((_ENDPOINT.get(), user.pk))
        return real_notify(game, user, kind, batch=batch)

    monkeypatch.setattr(events, "notify", recording_notify)
    client.force_login(attacker)
    return p


FIGURES: dict[str, dict] = {}


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(NOTIFYING))
def test_a_notifying_endpoint_in_a_loop_cannot_flood_the_other_user(probe, name):
    drive, most_notices, most_emails = NOTIFYING[name]
    probe.name = name
    mail.outbox = []
    drive(probe)  # sets up what it needs (the game, a seek...), then loops
    # Rows added or renewed (unread again) since the loop began: what the victim's badge counts.
    notices = Notification.objects.filter(user=probe.victim, created__gte=probe.started, read=False).count()
    emails = sum(1 for m in mail.outbox if probe.victim.email in m.to)
    figures = {
        "requests": len(probe.statuses),
        "refused_4xx": sum(1 for s in probe.statuses if 400 <= s < 500 and s != 429),
        "refused_429": probe.statuses.count(429),
        "5xx": sum(1 for s in probe.statuses if s >= 500),
        "notices": notices,
        "emails": emails,
    }
    FIGURES[name] = figures
    print(f"\n[notice fuzz] {name}: {figures}")
    assert figures["5xx"] == 0
    assert any(200 <= s < 400 for s in probe.statuses), (name, probe.statuses[:6])  # the loop did reach it
    assert notices <= most_notices, figures
    assert emails <= most_emails, figures
    # Only the endpoint under test sent notices during its requests, and only NOTIFYING ones do.
    assert {endpoint for endpoint, _user in probe.senders if endpoint} <= {name}
