"""A stranger (a signed-in user with no seat) learns nothing from the ids of
games they may not act in: every endpoint for a game's players answers a
stranger exactly as it answers for a game that does not exist (status,
body, the headers that matter), and changes nothing.  The same for
someone who is not the seek's creator accepting something that is not an
open seek.  tests/site/test_site_fuzz_strangers.py walks every route; these
are the cases found by hand."""

from __future__ import annotations

import pytest
from django.test import Client
from strangers import compare, missing_game_id, snapshot

from games import services
from games.models import ChatMessage, Game, Notification


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def challenge(alice, bob):
    """A private challenge: Alice challenges Bob, not yet answered."""
    return services.create_game(
        creator=alice, opponent="user", username="bob", color="black", as_challenge=True
    )


@pytest.fixture
def running(alice, bob):
    return services.create_game(creator=alice, opponent="user", username="bob", color="black")


def _same_as_missing(client, path: str, game_id: int, data: dict | None = None) -> None:
    missing = missing_game_id()
    before = snapshot()
    seen = client.post(path.format(game_id), data or {})
    after = snapshot()
    nothing = client.post(path.format(missing), data or {})
    assert seen.status_code == 404, (path, seen.status_code, seen.content[:300])
    compare(seen, nothing, game_id, missing)
    assert after == before


@pytest.mark.django_db
@pytest.mark.parametrize("answer", ["offer", "accept", "decline"])
def test_draw_answers_a_stranger_as_a_missing_game(carol, running, answer):
    _same_as_missing(_client(carol), "/games/{}/draw/", running.pk, {"answer": answer})


@pytest.mark.django_db
@pytest.mark.parametrize("answer", ["accept", "decline", "approve", "reject"])
def test_challenge_answer_answers_a_stranger_as_a_missing_game(carol, challenge, answer):
    _same_as_missing(_client(carol), "/games/{}/challenge/answer/", challenge.pk, {"answer": answer})


@pytest.mark.django_db
@pytest.mark.parametrize("what", ["post", "mute", "unmute", "report"])
def test_chat_post_answers_a_stranger_as_a_missing_game(carol, challenge, running, what):
    for game in (challenge, running):
        _same_as_missing(
            _client(carol), "/games/{}/chat/post/", game.pk, {"what": what, "text": "hi", "message": "1"}
        )
    assert not ChatMessage.objects.exists()


@pytest.mark.django_db
def test_accept_answers_a_game_the_user_may_not_know_of_as_a_missing_game(
    alice, bob, carol, challenge, running
):
    """A challenge between others, and a withdrawn one, are missing games to
    a stranger; a public game (a seek already taken) keeps its answer."""
    withdrawn = services.create_game(creator=alice, opponent="user", username="bob", as_challenge=True)
    services.cancel_seek(game_id=withdrawn.pk, user=alice)
    for game in (challenge, withdrawn):
        _same_as_missing(_client(carol), "/games/{}/accept/", game.pk)
    assert Game.objects.get(pk=challenge.pk).status == Game.Status.CHALLENGE
    assert _client(carol).post(f"/games/{running.pk}/accept/").status_code == 409


@pytest.mark.django_db
def test_chat_report_of_another_games_line_is_a_missing_line(alice, bob, carol, running):
    """Bob reports, through his own game, a line of a game he does not play
    in: as for a line that does not exist."""
    other = services.create_game(creator=alice, opponent="user", username="carol", color="black")
    from games.club import chat

    line = chat.post_chat(game_id=other.pk, user=alice, text="hello carol")
    client = _client(bob)
    seen = client.post(f"/games/{running.pk}/chat/post/", {"what": "report", "message": str(line.pk)})
    nothing = client.post(
        f"/games/{running.pk}/chat/post/", {"what": "report", "message": str(line.pk + 1000)}
    )
    compare(seen, nothing, line.pk, line.pk + 1000)
    assert not ChatMessage.objects.get(pk=line.pk).reported


@pytest.mark.django_db
def test_the_players_still_get_their_answers(alice, bob, challenge, running):
    """Not a 404 for the players themselves: their refusals keep their status."""
    assert (
        _client(alice).post(f"/games/{challenge.pk}/challenge/answer/", {"answer": "accept"}).status_code
        == 400
    )
    assert _client(alice).post(f"/games/{running.pk}/draw/", {"answer": "accept"}).status_code == 409
    assert _client(alice).post(f"/games/{running.pk}/accept/").status_code == 409
    response = _client(bob).post(f"/games/{running.pk}/draw/", {"answer": "offer"})
    assert response.status_code == 302
    assert Notification.objects.filter(user=alice, kind=Notification.Kind.DRAW_OFFER).count() == 1
    response = _client(bob).post(f"/games/{challenge.pk}/challenge/answer/", {"answer": "accept"})
    assert response.status_code == 302 and Game.objects.get(pk=challenge.pk).status == Game.Status.ACTIVE


@pytest.mark.django_db
def test_withdrawing_someone_elses_challenge_or_seek_is_a_missing_game(alice, carol, challenge):
    seek = services.create_game(creator=alice, opponent="open", color="black")
    for game in (challenge, seek):
        _same_as_missing(_client(carol), "/games/{}/cancel/", game.pk)
    assert Game.objects.get(pk=seek.pk).status == Game.Status.OPEN
