"""Nobody can flood another player's inbox or poison the site's links:
SITE_URL alone makes the links in emails (and the site refuses to run
without it when DEBUG is off), sign-up and password reset are limited per
client address and per address typed, a player offers a draw at most once
per Turn, and notices of one kind for one game are coalesced."""

from __future__ import annotations

import re
import secrets
import subprocess
import sys
import time

import pytest
from childenv import ROOT, production_env
from django.conf import settings as django_settings
from django.core import mail
from django.urls import reverse
from leak_worlds import TIMELINE, challenge_to_the_scenario, legal  # the leak tests' worlds

from accounts.models import User
from games import selectors, services, tasks
from games.club import chat as club_chat
from games.club import draws
from games.models import Game, Notification
from games.services import events
from wecsite import ratelimit, siteurl

PASSWORD = "pw-Wec-12345"


@pytest.fixture
def inline_email(monkeypatch):
    """The email task's body runs at once where the broker would get it."""
    monkeypatch.setattr(
        tasks.send_notification_email, "delay", lambda nid: tasks.send_notification_email(nid)
    )


@pytest.fixture
def frozen_clock(monkeypatch):
    """The rate limiter's clock stands still inside one window."""
    from types import SimpleNamespace

    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: 1_800_000_000.5))


def an_address() -> str:
    """A client address no other test uses (the limits' windows live in the
    run's Redis, shared by every test)."""
    return "10." + ".".join(str(secrets.randbelow(254) + 1) for _ in range(3))


# --- SITE_URL ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_no_request_changes_the_links_in_emails(
    client, alice, bob, inline_email, django_capture_on_commit_callbacks
):
    """An anonymous probe with a Host on another port, then a draw email; a
    signed-in request on another allowed Host, then another: every link in
    both is SITE_URL's."""
    bob.email_on_turn = True
    bob.save()
    games = [
        services.create_game(creator=alice, opponent="user", username="bob", color="black") for _ in range(2)
    ]
    mail.outbox = []
    assert client.get("/healthz", HTTP_HOST="localhost:31337").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        draws.offer_draw(game_id=games[0].pk, user=alice)
    client.force_login(alice)
    assert client.get(reverse("home"), HTTP_HOST="[::1]:8443").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        draws.offer_draw(game_id=games[1].pk, user=alice)
    assert len(mail.outbox) == 2
    for message in mail.outbox:
        links = re.findall(r"https?://\S+", message.body)
        assert links
        assert all(link.startswith(django_settings.WEC_SITE_URL + "/") for link in links), links
        assert "31337" not in message.body and "8443" not in message.body


def test_site_url_is_required_with_debug_off(settings):
    settings.DEBUG, settings.WEC_SITE_URL = False, ""
    assert [e.id for e in siteurl.check_site_url()] == ["wecsite.E001"]
    settings.WEC_SITE_URL = "https://wec.example.org"
    assert siteurl.check_site_url() == []
    settings.DEBUG, settings.WEC_SITE_URL = True, ""
    assert siteurl.check_site_url() == []


def test_manage_check_refuses_a_production_site_without_site_url():
    env = production_env()
    del env["SITE_URL"]
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode != 0
    assert "wecsite.E001" in result.stdout + result.stderr


def test_development_address_comes_from_host_and_port():
    assert siteurl.dev_site_url(None, None) == "http://127.0.0.1:8000"
    assert siteurl.dev_site_url("0.0.0.0", "9000") == "http://127.0.0.1:9000"
    assert siteurl.dev_site_url("localhost", 8123) == "http://localhost:8123"
    assert siteurl.dev_site_url("::1", "8000") == "http://[::1]:8000"


# --- sign-up and password reset ------------------------------------------------------------


def signup_data(name: str) -> dict:
    return {"username": name, "email": f"{name}@example.com", "password1": PASSWORD, "password2": PASSWORD}


@pytest.mark.django_db
def test_signups_from_one_address_are_limited(client, settings, frozen_clock):
    settings.WEC_RATE_LIMITS = {**settings.WEC_RATE_LIMITS, "signup": "10/3600"}
    prefix = f"su{secrets.token_hex(3)}"
    address = an_address()
    statuses = []
    for i in range(12):
        response = client.post(reverse("signup"), signup_data(f"{prefix}{i}"), REMOTE_ADDR=address)
        statuses.append(response.status_code)
        client.logout()
    assert statuses == [302] * 10 + [429] * 2
    assert 1 <= int(response["Retry-After"]) <= 3600
    assert "too often" in response.content.decode()
    assert User.objects.filter(username__startswith=prefix).count() == 10
    # Showing the form is not counted, and another address is not affected.
    assert client.get(reverse("signup"), REMOTE_ADDR=address).status_code == 200
    response = client.post(reverse("signup"), signup_data(f"{prefix}x"), REMOTE_ADDR=an_address())
    assert response.status_code == 302


@pytest.mark.django_db
def test_behind_a_proxy_the_forwarded_address_is_counted(client, settings, frozen_clock):
    settings.BEHIND_PROXY = True
    settings.WEC_RATE_LIMITS = {**settings.WEC_RATE_LIMITS, "signup": "1/3600"}
    prefix = f"px{secrets.token_hex(3)}"
    proxy = an_address()
    first, second = an_address(), an_address()
    post = client.post
    assert (
        post(
            reverse("signup"), signup_data(f"{prefix}1"), REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR=first
        ).status_code
        == 302
    )
    client.logout()
    # A forged left-hand entry does not make a new address; the proxy's own (right-most) one counts.
    forged = f"{an_address()}, {first}"
    assert (
        post(
            reverse("signup"), signup_data(f"{prefix}2"), REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR=forged
        ).status_code
        == 429
    )
    assert (
        post(
            reverse("signup"), signup_data(f"{prefix}3"), REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR=second
        ).status_code
        == 302
    )


@pytest.mark.django_db
def test_reset_requests_for_one_account_send_one_email(client, alice, settings, frozen_clock):
    """10 requests for one user: the first 5 are answered as usual (one email
    only), the rest get 429; an unknown address is answered exactly alike."""
    settings.WEC_RATE_LIMITS = {**settings.WEC_RATE_LIMITS, "reset": "10/3600", "reset_target": "5/3600"}
    mail.outbox = []

    def ten(email: str) -> list[tuple[int, str | None]]:
        address = an_address()
        out = []
        for _ in range(10):
            response = client.post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=address)
            out.append((response.status_code, response.get("Location")))
        return out

    known = ten(" Alice@Example.com ")  # typed differently: the same target
    assert [status for status, _ in known] == [302] * 5 + [429] * 5
    assert len(mail.outbox) == 1
    unknown = ten(f"nobody-{secrets.token_hex(4)}@example.com")
    assert unknown == known
    assert len(mail.outbox) == 1


@pytest.mark.django_db
def test_reset_requests_from_one_address_are_limited(client, settings, frozen_clock):
    settings.WEC_RATE_LIMITS = {**settings.WEC_RATE_LIMITS, "reset": "3/3600"}
    address = an_address()
    statuses = [
        client.post(
            reverse("password_reset"),
            {"email": f"x{i}-{secrets.token_hex(3)}@example.com"},
            REMOTE_ADDR=address,
        ).status_code
        for i in range(4)
    ]
    assert statuses == [302, 302, 302, 429]


@pytest.mark.django_db
def test_one_reset_email_per_account_per_period(client, alice, settings):
    settings.WEC_RESET_EMAIL_SECONDS = 1
    mail.outbox = []
    for _ in range(3):
        response = client.post(
            reverse("password_reset"), {"email": "alice@example.com"}, REMOTE_ADDR=an_address()
        )
        assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    time.sleep(1.2)  # the period is over: the next request sends again
    client.post(reverse("password_reset"), {"email": "alice@example.com"}, REMOTE_ADDR=an_address())
    assert len(mail.outbox) == 2
    # The reset link is SITE_URL's, never the request's Host.
    assert all(django_settings.WEC_SITE_URL + "/accounts/reset/" in m.body for m in mail.outbox)


# --- draw offers: one per player per Turn ----------------------------------------------------


def unread(user, game) -> int:
    return Notification.objects.filter(user=user, game=game, read=False).count()


@pytest.mark.django_db
@pytest.mark.parametrize("engine_name", ["wec", "marshal"])
def test_one_draw_offer_per_player_per_turn(client, alice, bob, engine_name):
    game = services.create_game(
        creator=alice, opponent="user", username="bob", color="black", engine=engine_name
    )
    client.force_login(alice)
    url = reverse("draw", args=[game.pk])
    assert client.post(url, {"answer": "offer"}).status_code == 302
    assert client.post(url, {"answer": "decline"}).status_code == 302  # withdrawn
    response = client.post(url, {"answer": "offer"})
    assert response.status_code == 400
    assert "already offered a draw in this Turn" in response.content.decode()
    stored = Game.objects.get(pk=game.pk)
    assert stored.draw_offer == ""
    assert Notification.objects.filter(user=bob, game=game, kind=Notification.Kind.DRAW_OFFER).count() == 1
    # Declined by the other side: the same.
    client.force_login(bob)
    assert client.post(url, {"answer": "offer"}).status_code == 302
    client.force_login(alice)
    assert client.post(url, {"answer": "decline"}).status_code == 302
    client.force_login(bob)
    assert client.post(url, {"answer": "offer"}).status_code == 400


@pytest.mark.django_db
def test_a_new_turn_allows_a_new_offer(client, alice, bob, game, first_move):
    """`game`: Alice (Black) to move.  After her Turn ends she may offer again."""
    client.force_login(alice)
    url = reverse("draw", args=[game.pk])
    assert client.post(url, {"answer": "offer"}).status_code == 302
    assert client.post(url, {"answer": "decline"}).status_code == 302
    assert client.post(url, {"answer": "offer"}).status_code == 400
    services.submit_action(game.pk, alice, first_move(selectors.load_state(game)), expected_seq=0)
    services.submit_action(game.pk, alice, {"type": "end_turn"}, expected_seq=1)
    assert client.post(url, {"answer": "offer"}).status_code == 302
    assert Game.objects.get(pk=game.pk).draw_offer == "black"


# --- coalesced notices and emails -------------------------------------------------------------


@pytest.mark.django_db
def test_notices_of_one_kind_for_one_game_are_coalesced(
    alice, bob, carol, settings, inline_email, django_capture_on_commit_callbacks
):
    bob.email_on_turn = True
    bob.save()
    game = services.create_game(creator=alice, opponent="user", username="bob", color="black")
    other = services.create_game(creator=carol, opponent="user", username="bob", color="black")
    mail.outbox = []
    Notification.objects.filter(user=bob).update(read=True)
    for _ in range(5):
        with django_capture_on_commit_callbacks(execute=True):
            events.notify(game, bob, Notification.Kind.CHAT)
    notes = list(Notification.objects.filter(user=bob, game=game, kind=Notification.Kind.CHAT))
    assert len(notes) == 1 and not notes[0].read
    assert len(mail.outbox) == 1
    # Read, then renewed: unread again, its time the latest, still no second email.
    Notification.objects.filter(pk=notes[0].pk).update(read=True)
    with django_capture_on_commit_callbacks(execute=True):
        events.notify(game, bob, Notification.Kind.CHAT)
    renewed = Notification.objects.get(pk=notes[0].pk)
    assert not renewed.read and renewed.created > notes[0].created
    assert len(mail.outbox) == 1
    # Another kind, another game: notices and emails of their own.
    with django_capture_on_commit_callbacks(execute=True):
        events.notify(game, bob, Notification.Kind.DRAW_OFFER)
        events.notify(other, bob, Notification.Kind.CHAT)
    assert Notification.objects.filter(user=bob, read=False).count() == 3
    assert len(mail.outbox) == 3
    # After the coalescing time a notice is new again (and emailed).
    settings.WEC_NOTICE_COALESCE_SECONDS = 1
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            events.notify(game, bob, Notification.Kind.UNDO_REQUEST)
        time.sleep(1.2)
    assert Notification.objects.filter(user=bob, game=game, kind=Notification.Kind.UNDO_REQUEST).count() == 2
    assert len(mail.outbox) == 5


@pytest.mark.django_db
def test_your_turn_notices_written_with_a_batch_are_coalesced(alice, bob, first_move):
    """The submit path writes a notice inside its statement batch
    (games.store.sql.add_notification): coalesced the same way."""
    game = services.create_game(
        creator=alice, opponent="user", username="bob", color="black", days_per_move=None
    )
    for _ in range(2):
        g = Game.objects.get(pk=game.pk)
        mover = alice if g.to_move == "black" else bob
        state = selectors.load_state(g)
        services.submit_action(g.pk, mover, first_move(state), expected_seq=g.seq)
        services.submit_action(g.pk, mover, {"type": "end_turn"}, expected_seq=g.seq + 1)
    g = Game.objects.get(pk=game.pk)
    services.submit_action(g.pk, alice, first_move(selectors.load_state(g)), expected_seq=g.seq)
    services.submit_action(g.pk, alice, {"type": "end_turn"}, expected_seq=g.seq + 1)
    kinds = list(Notification.objects.filter(user=bob, game=game).values_list("kind", flat=True))
    assert kinds.count(Notification.Kind.YOUR_TURN) == 1


# --- two worlds ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_draw_refusals_and_coalesced_notices_look_alike_in_both_worlds(
    client, alice, bob, settings, inline_email, django_capture_on_commit_callbacks
):
    """Two games that differ only in White's unseen actions (tests/site/leak_worlds.py):
    Black's answers to draw offers and withdrawals (the one-per-Turn refusal
    included), and Black's notices and emails while White chats and offers
    draws (coalesced), are the same, byte for byte but for the game number."""
    settings.WEC_SITE_URL = "http://testserver"
    alice.email_on_turn = True
    alice.save()
    client.force_login(alice)
    worlds = []
    for world in (1, 2):
        mail.outbox = []
        # The header's badge counts this world's notices only.
        Notification.objects.filter(user=alice).update(read=True)
        game = challenge_to_the_scenario(bob, days_per_move=None)
        url = reverse("draw", args=[game.pk])

        def same(text: str, pk: int = game.pk) -> str:
            """The text with the game's number and the per-response CSRF mask left out."""
            text = re.sub(rf"(/games/|[Gg]ame ){pk}\b", r"\1N", text)
            return re.sub(r'(csrfmiddlewaretoken" value=|"X-CSRFToken": )"[^"]*"', r"\1", text)

        got = []
        for who, *actions in TIMELINE:
            for wanted in actions[world - 1]:
                current = Game.objects.get(pk=game.pk)
                action = legal(selectors.load_state(current), wanted)
                services.submit_action(
                    game.pk, alice if who == "black" else bob, action, expected_seq=current.seq
                )
            with django_capture_on_commit_callbacks(execute=True):
                club_chat.post_chat(game_id=game.pk, user=bob, text="hello")
                try:
                    draws.offer_draw(game_id=game.pk, user=bob)
                except services.GameError as exc:
                    got.append(("white's offer refused", str(exc.message)))
            for answer in ("decline", "offer", "decline", "offer", "decline"):
                with django_capture_on_commit_callbacks(execute=True):
                    response = client.post(url, {"answer": answer})
                got.append(
                    (
                        answer,
                        response.status_code,
                        same(response.get("Location", "")),
                        same(response.content.decode()),
                    )
                )
            notices = Notification.objects.filter(user=alice, game=game).order_by("pk")
            got.append([(n.kind, n.read, n.emailed) for n in notices])
        got.append([(same(m.subject), same(m.body), m.to) for m in mail.outbox])
        worlds.append(got)
    assert worlds[0] == worlds[1]
    # The worlds did exercise the rules: refusals, coalesced notices, emails.
    assert any(entry[1] == 400 for entry in worlds[0] if isinstance(entry, tuple) and len(entry) == 4)
    assert len(worlds[0][-1]) >= 2


@pytest.mark.django_db
def test_a_failed_email_is_sent_by_the_retry(alice, bob, monkeypatch):
    """The once-an-hour mark is dropped when sending fails, so the retried task sends it."""
    from games import notifications

    bob.email_on_turn = True
    bob.save()
    game = services.create_game(creator=alice, opponent="user", username="bob", color="black")
    note = events.notify(game, bob, Notification.Kind.CHAT)
    real_send = notifications.send_mail

    def broken(*args, **kwargs):
        raise ConnectionError("smtp down")

    monkeypatch.setattr(notifications, "send_mail", broken)
    with pytest.raises(ConnectionError):
        notifications.send_email_for(note.pk)
    monkeypatch.setattr(notifications, "send_mail", real_send)
    mail.outbox = []
    assert notifications.send_email_for(note.pk)
    assert len(mail.outbox) == 1
