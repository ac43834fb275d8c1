"""Notifications: rows, the header badge and page, emails (locmem) and the
per-user WebSocket group on the real Redis channel layer."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.core import mail
from django.urls import reverse

from games import selectors, services, tasks
from games.models import Game, Notification
from wecsite.asgi import application

pytestmark = pytest.mark.django_db

LOCMEM = "django.core.mail.backends.locmem.EmailBackend"


def state_of(game_id):
    return selectors.load_state(Game.objects.get(pk=game_id))


def kinds(user):
    return list(Notification.objects.filter(user=user).order_by("pk").values_list("kind", "game_id", "read"))


@pytest.fixture
def inline_email(monkeypatch):
    """The email task's body runs at once where the broker would get it."""
    monkeypatch.setattr(tasks.send_notification_email, "delay", lambda nid: tasks.send_notification_email(nid))


def end_alices_turn(game, alice, first_move):
    services.submit_action(game.pk, alice, first_move(state_of(game.pk)), expected_seq=0)
    services.submit_action(game.pk, alice, {"type": "end_turn"}, expected_seq=1)


def test_game_start_notifies_the_opponent(alice, bob):
    g1 = services.create_game(creator=alice, opponent="user", username="bob", color="black")
    g2 = services.create_game(creator=alice, opponent="user", username="bob", color="white")
    assert kinds(bob) == [("new_game", g1.pk, False), ("your_turn", g2.pk, False)]
    assert kinds(alice) == []  # the creator is not told about their own game


def test_turn_change_creates_a_notification(game, alice, bob, first_move):
    services.submit_action(game.pk, alice, first_move(state_of(game.pk)), expected_seq=0)
    assert Notification.objects.filter(kind="your_turn").count() == 0  # a Move inside the turn: nothing
    services.submit_action(game.pk, alice, {"type": "end_turn"}, expected_seq=1)
    assert kinds(bob)[-1] == ("your_turn", game.pk, False)
    assert kinds(alice) == []


def test_ai_move_notifies_the_human(alice, monkeypatch):
    monkeypatch.setattr(tasks.play_ai_turn, "delay", lambda gid: None)
    game = services.create_game(creator=alice, opponent="ai", color="white")
    assert kinds(alice) == []
    tasks.play_ai_turn(game.pk)
    assert kinds(alice) == [("your_turn", game.pk, False)]
    ai = Game.objects.get(pk=game.pk).seats.get(color="black").user
    assert not Notification.objects.filter(user=ai).exists()


def test_resignation_notifies_the_opponent(game, alice, bob):
    services.resign(game.pk, alice)
    assert kinds(bob)[-1] == ("game_over", game.pk, False)
    assert kinds(alice) == []


def test_email_when_opted_in_only_after_commit(
    game, alice, bob, first_move, settings, inline_email, django_capture_on_commit_callbacks
):
    settings.EMAIL_BACKEND = LOCMEM
    bob.email_on_turn = True
    bob.save()
    services.submit_action(game.pk, alice, first_move(state_of(game.pk)), expected_seq=0)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.submit_action(game.pk, alice, {"type": "end_turn"}, expected_seq=1)
    assert mail.outbox == []  # nothing before the commit
    for callback in callbacks:
        callback()
    [message] = mail.outbox
    assert message.to == ["bob@example.com"]
    assert message.subject == f"Wec Online: Your turn in game {game.pk} against alice"
    assert f"/games/{game.pk}/" in message.body
    assert "MV:" not in message.body and "moved" not in message.body  # nothing about the game itself
    note = Notification.objects.get(user=bob, kind="your_turn")
    assert note.emailed
    assert tasks.send_notification_email(note.pk) is False  # a retried task does not send it twice
    assert len(mail.outbox) == 1


def test_no_email_when_not_opted_in(game, alice, bob, first_move, settings, inline_email,
                                    django_capture_on_commit_callbacks):
    settings.EMAIL_BACKEND = LOCMEM
    with django_capture_on_commit_callbacks(execute=True):
        end_alices_turn(game, alice, first_move)
    assert Notification.objects.filter(user=bob, kind="your_turn").exists()
    assert mail.outbox == []


def test_game_over_email(game, alice, bob, settings, inline_email, django_capture_on_commit_callbacks):
    settings.EMAIL_BACKEND = LOCMEM
    bob.email_on_turn = True
    bob.save()
    with django_capture_on_commit_callbacks(execute=True):
        services.resign(game.pk, alice)
    [message] = mail.outbox
    assert message.subject == f"Wec Online: Game {game.pk} has ended"


def test_badge_page_and_reading(client, game, alice, bob, first_move):
    end_alices_turn(game, alice, first_move)
    g2 = services.create_game(creator=alice, opponent="user", username="bob", color="black")
    client.force_login(bob)
    html = client.get(reverse("notifications")).content.decode()
    assert f"Your turn in game {game.pk} against alice" in html
    assert f"alice started game {g2.pk} with you" in html
    assert 'class="badge notif-count" data-count="3"' in html  # the fixture game's start, its turn, g2
    badge = client.get(reverse("notification_badge")).content.decode()
    assert 'data-count="3"' in badge
    # Visiting a game marks its notifications read.
    client.get(reverse("game_detail", args=[game.pk]))
    assert kinds(bob) == [("new_game", game.pk, True), ("your_turn", game.pk, True), ("new_game", g2.pk, False)]
    assert 'data-count="1"' in client.get(reverse("notification_badge")).content.decode()
    response = client.post(reverse("notifications_read"))
    assert response.status_code == 302
    assert not Notification.objects.filter(user=bob, read=False).exists()
    assert "notif-count" not in client.get(reverse("notification_badge")).content.decode()
    # Someone else's notifications are not shown.
    client.force_login(alice)
    assert f"game {game.pk} against" not in client.get(reverse("notifications")).content.decode()


# --- the per-user WebSocket ---------------------------------------------------------------


def session_headers(client, user):
    client.force_login(user)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    return [(b"cookie", cookie.encode()), (b"origin", b"http://localhost"), (b"host", b"localhost")]


@database_sync_to_async
def start_game(alice):
    return services.create_game(creator=alice, opponent="user", username="bob", color="black")


@database_sync_to_async
def alice_plays_a_turn(game_id, alice):
    game = selectors.get_game(game_id)
    state = selectors.load_state(game)
    from games.engines import get_engine

    move = next(a for a in get_engine().legal_actions(state) if a["type"] == "move")
    services.submit_action(game_id, alice, move, expected_seq=game.seq)
    services.submit_action(game_id, alice, {"type": "end_turn"}, expected_seq=game.seq + 1)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_user_group_gets_your_turn(client, alice, bob):
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    game = await start_game(alice)
    bob_comm = WebsocketCommunicator(
        application, "/ws/notifications/", headers=await database_sync_to_async(session_headers)(client, bob)
    )
    connected, _ = await bob_comm.connect(timeout=5)
    assert connected
    alice_comm = WebsocketCommunicator(
        application, "/ws/notifications/", headers=await database_sync_to_async(session_headers)(client, alice)
    )
    connected, _ = await alice_comm.connect(timeout=5)
    assert connected
    await alice_plays_a_turn(game.pk, alice)
    message = await bob_comm.receive_json_from(timeout=5)
    assert message == {"type": "notify", "kind": "your_turn", "game": game.pk}  # and nothing else
    assert await alice_comm.receive_nothing(timeout=0.5)  # Alice is not told about Bob's turn
    await bob_comm.send_json_to({"type": "ping"})
    assert await bob_comm.receive_json_from(timeout=5) == {"type": "pong"}
    await bob_comm.disconnect()
    await alice_comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_user_socket_needs_a_signed_in_user():
    comm = WebsocketCommunicator(
        application, "/ws/notifications/", headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")]
    )
    connected, code = await comm.connect(timeout=5)
    assert not connected and code == 4401
