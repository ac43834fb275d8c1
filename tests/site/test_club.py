"""The club: challenges with options, their answers and changes,
AI games without a clock, live seeks, draws, chat, ratings, game list rows,
links in emails.  Real PostgreSQL and Redis, as every site test."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse
from option_fields import options_post

from games import selectors, services
from games.club import challenges, draws, reminders
from games.club import selectors as club_selectors
from games.engines import get_engine
from games.models import ChatMessage, Game, Notification, Seat, Snapshot
from games.services import events

pytestmark = pytest.mark.django_db


def _challenge(client, alice, **extra) -> Game:
    client.force_login(alice)
    data = {"opponent": "user", "username": "bob", "color": "black", "days_per_move": "3", **extra}
    response = client.post(reverse("new_game"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Game.objects.latest("pk")


# --- challenges ----------------------------------------------------------------------


def test_challenge_waits_for_an_answer_and_the_clock_starts_at_accept(client, alice, bob):
    game = _challenge(client, alice, **options_post(tank_range=8, black_government="democracy"))
    assert game.status == Game.Status.CHALLENGE
    assert game.options == {"tank_range": 8, "black_government": "democracy", "competitive": True, "open_record": False}
    assert not Seat.objects.filter(game=game, deadline__isnull=False).exists()
    assert Notification.objects.filter(user=bob, game=game, kind="challenge").exists()
    # The game page of a challenge is the challenge page, with the terms in plain words.
    response = client.get(reverse("game_detail", args=[game.pk]))
    assert response.status_code == 302 and response.url == reverse("challenge_detail", args=[game.pk])
    client.force_login(bob)
    html = client.get(reverse("challenge_detail", args=[game.pk])).content.decode()
    assert "Tank range" in html and "Democracy (President and Prime Minister)" in html
    assert 'id="accept-challenge"' in html
    # Nobody may move before it is accepted.
    state = selectors.load_state(game)
    action = next(a for a in get_engine().legal_actions(state) if a["type"] == "move")
    with pytest.raises(services.GameNotActive):
        services.submit_action(game.pk, alice, action)
    # Alice cannot accept her own challenge.
    with pytest.raises(services.InvalidRequest):
        challenges.accept_challenge(game_id=game.pk, user=alice)
    response = client.post(reverse("challenge_answer", args=[game.pk]), {"answer": "accept"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    black = Seat.objects.get(game=game, color="black")
    assert black.user_id == alice.pk and black.deadline is not None
    # The engine plays the options agreed.
    assert get_engine().load_scenario(Snapshot.objects.get(game=game, seq=0).state) is not None
    assert Snapshot.objects.get(game=game, seq=0).state["options"]["tank_range"] == 8


def test_decline_and_withdraw(client, alice, bob):
    game = _challenge(client, alice)
    client.force_login(bob)
    response = client.post(reverse("challenge_answer", args=[game.pk]), {"answer": "decline"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED
    assert Notification.objects.filter(user=alice, game=game, kind="challenge_answer").exists()
    # Answering again is refused with a clear 4xx, and changes nothing.
    response = client.post(reverse("challenge_answer", args=[game.pk]), {"answer": "accept"})
    assert response.status_code == 409
    assert Game.objects.get(pk=game.pk).status == Game.Status.CANCELLED
    other = _challenge(client, alice)
    response = client.post(reverse("cancel_seek", args=[other.pk]))
    assert Game.objects.get(pk=other.pk).status == Game.Status.CANCELLED
    response = client.post(reverse("challenge_answer", args=[other.pk]), {"answer": "nonsense"})
    assert response.status_code in (400, 409)


def test_a_proposed_change_needs_the_other_players_approval(client, alice, bob):
    game = _challenge(client, alice)
    client.force_login(bob)
    data = {"days_per_move": "7", "creator_color": "white", **options_post(xxx_boxes="none", flamer_rate=6)}
    response = client.post(reverse("challenge_propose", args=[game.pk]), data)
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.proposal["by"] == "white" and game.options == {"competitive": True, "open_record": False}
    # While a change waits, the challenge cannot be accepted; the proposer cannot approve it.
    assert client.post(reverse("challenge_answer", args=[game.pk]), {"answer": "accept"}).status_code == 409
    assert client.post(reverse("challenge_answer", args=[game.pk]), {"answer": "approve"}).status_code == 400
    client.force_login(alice)
    html = client.get(reverse("challenge_detail", args=[game.pk])).content.decode()
    assert "Your opponent proposes a change" in html and "XXX boxes" in html
    assert client.post(reverse("challenge_answer", args=[game.pk]), {"answer": "approve"}).status_code == 302
    game.refresh_from_db()
    assert game.proposal is None and game.days_per_move == 7
    assert game.options == {"xxx_boxes": "none", "flamer_rate": 6, "competitive": True, "open_record": False}
    assert Seat.objects.get(game=game, color="white").user_id == alice.pk  # colours swapped
    assert Snapshot.objects.get(game=game, seq=0).state["options"]["xxx_boxes"] == "none"
    # A rejected change leaves the terms as they were.
    client.force_login(bob)
    client.post(reverse("challenge_propose", args=[game.pk]), {"days_per_move": "1", **options_post()})
    client.force_login(alice)
    client.post(reverse("challenge_answer", args=[game.pk]), {"answer": "reject"})
    game.refresh_from_db()
    assert game.proposal is None and game.days_per_move == 7


def test_competitive_or_friendly_is_a_change_the_other_player_approves(client, alice, bob):
    game = _challenge(client, alice)
    assert game.competitive is True
    client.force_login(bob)
    data = {"days_per_move": "3", "kind": "friendly", **options_post(flamer_rate=6)}
    assert client.post(reverse("challenge_propose", args=[game.pk]), data).status_code == 302
    game.refresh_from_db()
    assert game.proposal["competitive"] is False and game.proposal["options"]["competitive"] is False
    # Nothing changes before the approval; the proposer cannot approve it.
    assert game.competitive is True and game.options == {"competitive": True, "open_record": False}
    assert client.post(reverse("challenge_answer", args=[game.pk]), {"answer": "approve"}).status_code == 400
    client.force_login(alice)
    html = client.get(reverse("challenge_detail", args=[game.pk])).content.decode()
    assert 'id="proposal-kind"' in html and "Friendly (unrated)" in html
    assert client.post(reverse("challenge_answer", args=[game.pk]), {"answer": "approve"}).status_code == 302
    game.refresh_from_db()
    assert game.competitive is False and game.options == {"flamer_rate": 6, "competitive": False, "open_record": False}
    assert Snapshot.objects.get(game=game, seq=0).state["options"]["competitive"] is False
    # And back to competitive, rejected this time: it stays friendly.
    data = {"days_per_move": "3", "kind": "competitive", **options_post()}
    assert client.post(reverse("challenge_propose", args=[game.pk]), data).status_code == 302
    client.force_login(bob)
    client.post(reverse("challenge_answer", args=[game.pk]), {"answer": "reject"})
    game.refresh_from_db()
    assert game.competitive is False and game.proposal is None
    # "As now" (no kind) keeps it; a made-up kind is a 400 that changes nothing.
    assert client.post(reverse("challenge_propose", args=[game.pk]), {**data, "kind": ""}).status_code == 302
    game.refresh_from_db()
    assert game.proposal["competitive"] is False
    client.post(reverse("challenge_answer", args=[game.pk]), {"answer": "reject"})
    assert client.post(reverse("challenge_propose", args=[game.pk]), {**data, "kind": "rated!"}).status_code == 400
    game.refresh_from_db()
    assert game.proposal is None and game.competitive is False
    # Accepted as friendly: the game is unrated and keeps the engine's undo.
    client.force_login(bob)
    assert client.post(reverse("challenge_answer", args=[game.pk]), {"answer": "accept"}).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and not selectors.load_state(game).options["competitive"]


def test_an_impossible_option_set_is_a_400_that_changes_nothing(client, alice, bob):
    client.force_login(alice)
    data = {"opponent": "user", "username": "bob", "color": "black", **options_post(sub_jet_combat=True)}
    response = client.post(reverse("new_game"), data)
    assert response.status_code == 400 and "sub_jet_combat" in response.content.decode()
    bad = {"opponent": "user", "username": "bob", "color": "black", **options_post(), "opt_tank_range": "9"}
    assert client.post(reverse("new_game"), bad).status_code == 400
    assert not Game.objects.exists()


def test_friendly_games_are_not_competitive(client, alice, bob):
    game = _challenge(client, alice, kind="friendly")
    assert game.competitive is False and game.options["competitive"] is False


# --- the AI --------------------------------------------------------------------------


def test_naming_the_ai_gives_no_clock_unless_asked(client, alice, monkeypatch):
    from games import tasks

    monkeypatch.setattr(tasks.play_ai_turn, "delay", lambda gid: None)
    ai = services.ensure_ai_player()
    client.force_login(alice)
    client.post(reverse("new_game"), {"opponent": "user", "username": ai.username, "color": "black", "days_per_move": "3"})
    game = Game.objects.latest("pk")
    assert game.status == Game.Status.ACTIVE and game.days_per_move is None and game.ai_level == "easy"
    client.post(reverse("new_game"), {"opponent": "ai", "color": "black", "days_per_move": "3", "ai_clock": "on"})
    game = Game.objects.latest("pk")
    assert game.days_per_move == 3 and Seat.objects.get(game=game, color="black").deadline is not None


# --- the lobby -----------------------------------------------------------------------


def test_seek_changes_ring_the_lobby(alice, bob, monkeypatch, django_capture_on_commit_callbacks):
    rung = []
    monkeypatch.setattr(events, "broadcast_lobby", lambda: rung.append("lobby"))
    with django_capture_on_commit_callbacks(execute=True):
        seek = services.create_game(creator=alice, opponent="open")
    assert rung == ["lobby"]
    with django_capture_on_commit_callbacks(execute=True):
        services.accept_seek(game_id=seek.pk, user=bob)
    assert rung == ["lobby", "lobby"]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_notification_socket_carries_the_lobby_doorbell(client, alice):
    from channels.db import database_sync_to_async
    from channels.testing import WebsocketCommunicator
    from django.conf import settings as conf

    from wecsite.asgi import application

    def headers():
        client.force_login(alice)
        cookie = f"{conf.SESSION_COOKIE_NAME}={client.cookies[conf.SESSION_COOKIE_NAME].value}"
        return [(b"cookie", cookie.encode()), (b"origin", b"http://localhost"), (b"host", b"localhost")]

    comm = WebsocketCommunicator(application, "/ws/notifications/", headers=await database_sync_to_async(headers)())
    connected, _ = await comm.connect(timeout=5)
    assert connected
    await database_sync_to_async(events.broadcast_lobby)()
    assert await comm.receive_json_from(timeout=5) == {"type": "lobby"}
    await comm.disconnect()


# --- draws, ratings, game list ----------------------------------------------------


def test_draw_by_agreement_updates_ratings_and_the_game_list(client, game, alice, bob):
    with pytest.raises(services.GameNotActive):
        draws.answer_draw(game_id=game.pk, user=alice, accept=True)  # nothing offered yet
    versions = dict(Seat.objects.filter(game=game).values_list("color", "version"))
    draws.offer_draw(game_id=game.pk, user=alice)
    # The offer is part of both players' views: both doorbells ring.
    after = dict(Seat.objects.filter(game=game).values_list("color", "version"))
    assert all(after[c] == versions[c] + 1 for c in after)
    with pytest.raises(services.InvalidRequest):
        draws.answer_draw(game_id=game.pk, user=alice, accept=True)  # not her own
    client.force_login(bob)
    html = client.get(reverse("game_board", args=[game.pk])).content.decode()
    assert "Your opponent offers a draw." in html
    assert client.post(reverse("draw", args=[game.pk]), {"answer": "accept"}).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result == {"winner": None, "reason": "agreement"}
    alice.refresh_from_db()
    bob.refresh_from_db()
    # Equal players drawing stay at 1500; their deviation shrinks.
    assert round(alice.rating) == round(bob.rating) == 1500 and alice.rating_deviation < 350
    assert alice.rating_changes.count() == bob.rating_changes.count() == 1
    assert "Drawn" in client.get(reverse("game_list")).content.decode()


def test_resignation_rates_and_the_list_says_who_won(client, game, alice, bob):
    services.resign(game.pk, bob)
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert alice.rating > 1500 > bob.rating
    client.force_login(alice)
    assert "You won" in client.get(reverse("game_list")).content.decode()
    client.force_login(bob)
    html = client.get(reverse("game_list")).content.decode()
    assert "You lost" in html and "you play White" in html


def test_friendly_and_ai_games_are_not_rated(alice, bob, monkeypatch):
    from games import tasks

    monkeypatch.setattr(tasks.play_ai_turn, "delay", lambda gid: None)
    friendly = services.create_game(creator=alice, opponent="user", username="bob", competitive=False)
    services.resign(friendly.pk, bob)
    ai_game = services.create_game(creator=alice, opponent="ai")
    services.resign(ai_game.pk, alice)
    alice.refresh_from_db()
    assert alice.rating == 1500 and not alice.rating_changes.exists()


def test_a_draw_offer_lapses_when_the_other_side_plays_on(game, alice, bob):
    engine = get_engine()
    draws.offer_draw(game_id=game.pk, user=bob)  # White offers during Black's turn
    state = selectors.load_state(game)
    services.submit_action(game.pk, alice, next(a for a in engine.legal_actions(state) if a["type"] == "move"))
    assert Game.objects.get(pk=game.pk).draw_offer == "white"
    # Black ends the turn without answering: the offer lapses.
    services.submit_action(game.pk, alice, {"type": "end_turn"})
    assert Game.objects.get(pk=game.pk).draw_offer == ""


# --- chat ----------------------------------------------------------------------------


def test_chat_players_only_then_spectators_after_the_end(client, game, alice, bob, carol):
    client.force_login(alice)
    response = client.post(reverse("chat_post", args=[game.pk]), {"what": "post", "text": "good luck"})
    assert response.status_code == 302
    assert Notification.objects.filter(user=bob, game=game, kind="chat").exists()
    assert client.post(reverse("chat_post", args=[game.pk]), {"what": "post", "text": "  "}).status_code == 400
    assert client.post(reverse("chat_post", args=[game.pk]), {"what": "post", "text": "x" * 501}).status_code == 400
    client.force_login(carol)
    assert client.get(reverse("chat", args=[game.pk])).status_code == 404
    assert client.post(reverse("chat_post", args=[game.pk]), {"what": "post", "text": "hi"}).status_code == 404
    client.force_login(bob)
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "good luck" in html
    message = ChatMessage.objects.get()
    assert client.post(reverse("chat_post", args=[game.pk]), {"what": "report", "message": message.pk}).status_code == 302
    assert ChatMessage.objects.get().reported
    client.post(reverse("chat_post", args=[game.pk]), {"what": "mute"})
    assert "good luck" not in client.get(reverse("chat", args=[game.pk])).content.decode()
    services.resign(game.pk, bob)
    client.logout()
    assert "good luck" in client.get(reverse("chat", args=[game.pk])).content.decode()


# --- links in emails ---------------------------------------------------------------


def test_email_links_use_only_site_url(client, alice, bob, settings):
    """The links follow SITE_URL alone: the Host a request came with (here an
    allowed one, on another port) changes nothing."""
    settings.WEC_SITE_URL = "https://wec.example.org"
    from games.notifications import send_email_for

    bob.email_on_turn = True
    bob.save()
    client.force_login(alice)
    client.get(reverse("home"), HTTP_HOST="localhost:8123")
    game = services.create_game(creator=alice, opponent="user", username="bob", color="white")
    note = Notification.objects.filter(user=bob, game=game).latest("pk")
    assert send_email_for(note.pk)
    assert f"https://wec.example.org/games/{game.pk}/" in mail.outbox[-1].body
    assert "8123" not in mail.outbox[-1].body


def test_the_form_offers_a_bank_clock(client, alice, bob):
    game = _challenge(client, alice, increment_hours="12", bank_cap_days="5")
    assert (game.days_per_move, game.increment_hours, game.bank_cap_days) == (3, 12, 5)
    html = client.get(reverse("home")).content.decode()
    assert 'name="increment_hours"' in html
    client.force_login(alice)
    data = {"opponent": "user", "username": "bob", "color": "black", "days_per_move": "3", "bank_cap_days": "2", "increment_hours": "1"}
    assert client.post(reverse("new_game"), data).status_code == 400


# --- people ----------------------------------------------------------------------------


def test_profile_and_leaderboard(client, game, alice, bob, carol):
    services.resign(game.pk, bob)
    html = client.get(reverse("player_profile", args=["alice"])).content.decode()
    assert "Won 1, lost 0, drawn 0" in html and "<polyline" in html and "vacation days left" in html
    assert "<script" not in html.split("<main")[1].split("</main>")[0]
    board = client.get(reverse("leaderboard")).content.decode()
    assert board.index("/players/alice/") < board.index("/players/bob/") and "/players/carol/" not in board
    assert client.get(reverse("player_profile", args=["nobody"])).status_code == 404


def test_rating_plot_points():
    assert club_selectors.rating_plot([]) is None
    plot = club_selectors.rating_plot([1520.0, 1480.0])
    assert len(plot["points"].split()) == 3 and plot["low"] == 1480 and plot["high"] == 1520


# --- reminders and digests ---------------------------------------------------------------


def test_a_reminder_before_the_timeout_once_per_turn(game, alice, bob):
    from datetime import timedelta

    from django.utils import timezone

    alice.email_on_turn = True
    alice.save()
    mail.outbox = []
    assert reminders.send_reminders() == 0  # three days left
    Seat.objects.filter(game=game, color="black").update(deadline=timezone.now() + timedelta(hours=5))
    assert reminders.send_reminders() == 1
    assert reminders.send_reminders() == 0  # once per turn
    note = Notification.objects.get(user=alice, kind="reminder")
    assert note.game_id == game.pk and not Notification.objects.filter(user=bob, kind="reminder").exists()


def test_the_daily_digest_replaces_the_emails(game, alice, bob, django_capture_on_commit_callbacks):
    from games import tasks
    from games.notifications import send_digest_for

    bob.email_on_turn, bob.email_digest = True, True
    bob.save()
    engine = get_engine()
    mail.outbox = []
    with django_capture_on_commit_callbacks(execute=True):
        state = selectors.load_state(game)
        services.submit_action(game.pk, alice, next(a for a in engine.legal_actions(state) if a["type"] == "move"))
        services.submit_action(game.pk, alice, {"type": "end_turn"})
    assert mail.outbox == []  # no email per move
    assert tasks.send_digests() == 1
    assert len(mail.outbox) == 1 and f"/games/{game.pk}/" in mail.outbox[0].body
    assert send_digest_for(bob.pk) == 0  # nothing new
