"""Take-backs and undo requests in friendly games: a
withdrawal entry in the append-only log, honoured by every reader of it."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection
from django.urls import reverse

from games import selectors, services
from games.engines import get_engine
from games.management.commands.verify_games import verify_game
from games.models import Game, GameAction, GameTurn, Notification, Seat
from games.services import takeback
from games.store import action_log
from games.store import states as state_store

pytestmark = pytest.mark.django_db


@pytest.fixture
def friendly(alice, bob):
    """Alice (Black, to move) against Bob (White), a friendly game."""
    return services.create_game(creator=alice, opponent="user", username="bob", color="black", competitive=False)


def _moves(game) -> list[dict]:
    state = selectors.load_state(Game.objects.get(pk=game.pk))
    return [a for a in get_engine().legal_actions(state) if a["type"] == "move"]


def _play(game, user, action):
    services.submit_action(game.pk, user, action)


def _view(game, color):
    game = Game.objects.get(pk=game.pk)
    return get_engine().view(selectors.load_state(game), color)


def _versions(game) -> dict:
    return dict(Seat.objects.filter(game=game).values_list("color", "version"))


def _fresh_load(game):
    """The current state as another process would load it (no process cache)."""
    state_store.clear_caches()
    return selectors.load_state(Game.objects.get(pk=game.pk))


# --- take-backs ---------------------------------------------------------------------


def test_a_take_back_cancels_the_last_action_of_the_turn_as_a_new_log_row(friendly, alice, bob):
    engine = get_engine()
    before = _view(friendly, "black")
    move = _moves(friendly)[0]
    _play(friendly, alice, move)
    assert _view(friendly, "black") != before
    entry = takeback.take_back(friendly.pk, alice)
    assert entry.action == {"type": "withdraw", "steps": 1, "why": "take_back"}
    game = Game.objects.get(pk=friendly.pk)
    assert game.seq == 2 and game.to_move == "black"
    assert _view(friendly, "black") == before
    # Every store agrees: a fresh load, a replay to the latest action, verify_games.
    assert engine.view(_fresh_load(friendly), "black") == before
    assert engine.view(state_store.load_at(game, 2), "black") == before
    assert verify_game(game)[0] is None
    # The log kept both rows; the database still refuses to change them.
    assert list(GameAction.objects.filter(game=game).values_list("seq", flat=True)) == [1, 2]
    # And the Move can be played again (or another one), then the Turn ended.
    _play(friendly, alice, move)
    _play(friendly, alice, {"type": "end_turn"})
    game = Game.objects.get(pk=friendly.pk)
    assert game.to_move == "white" and verify_game(game)[0] is None
    assert GameTurn.objects.filter(game=game).count() == 1


def test_a_take_back_may_cancel_several_actions_but_never_a_finished_turn(friendly, alice, bob):
    _play(friendly, alice, _moves(friendly)[0])
    with pytest.raises(services.InvalidRequest):
        takeback.take_back(friendly.pk, alice, steps=2)
    _play(friendly, alice, {"type": "end_turn"})
    # Bob has taken nothing this Turn: nothing to take back, and Alice's turn is over.
    with pytest.raises(services.IllegalMove):
        takeback.take_back(friendly.pk, bob)
    with pytest.raises(services.NotYourTurn):
        takeback.take_back(friendly.pk, alice)
    assert Game.objects.get(pk=friendly.pk).seq == 2


def test_competitive_games_have_no_take_back(game, alice, client):
    _play(game, alice, _moves(game)[0])
    with pytest.raises(takeback.NotFriendly):
        takeback.take_back(game.pk, alice)
    client.force_login(alice)
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'id="take-back"' not in html and 'id="request-undo"' not in html
    response = client.post(reverse("take_back", args=[game.pk]), {"steps": "1"})
    assert response.status_code == 403
    assert Game.objects.get(pk=game.pk).seq == 1


def test_the_take_back_button_and_post(client, friendly, alice, bob):
    client.force_login(alice)
    url = reverse("game_detail", args=[friendly.pk])
    assert 'id="take-back"' not in client.get(url).content.decode()  # nothing to take back yet
    _play(friendly, alice, _moves(friendly)[0])
    html = client.get(url).content.decode()
    assert 'id="take-back"' in html
    version = Seat.objects.get(game=friendly, color="black").version
    # A stale version is refused (409) and changes nothing.
    response = client.post(reverse("take_back", args=[friendly.pk]), {"version": version - 1}, HTTP_HX_REQUEST="true")
    assert response.status_code == 409 and Game.objects.get(pk=friendly.pk).seq == 1
    # Bad input is a 4xx, never a 500.
    assert client.post(reverse("take_back", args=[friendly.pk]), {"steps": "x"}).status_code == 400
    assert client.post(reverse("take_back", args=[friendly.pk]), {"steps": "5"}).status_code == 400
    response = client.post(reverse("take_back", args=[friendly.pk]), {"version": version}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert 'id="take-back"' not in response.content.decode()
    assert Game.objects.get(pk=friendly.pk).seq == 2
    # Bob is not to move: refused.
    client.force_login(bob)
    assert client.post(reverse("take_back", args=[friendly.pk])).status_code == 409


def test_a_take_back_of_an_unseen_action_rings_nothing_for_the_opponent(friendly, alice, bob):
    """Black's first Move from the back row is out of White's sight at the
    start: taking it back leaves White's view, version and notifications as
    they were."""
    engine = get_engine()
    state = selectors.load_state(friendly)
    white_before = engine.view(state, "white")
    unseen = next(
        a for a in _moves(friendly) if engine.view(engine.apply(state, a), "white") == white_before
    )
    versions = _versions(friendly)
    notes = Notification.objects.filter(user=bob).count()
    _play(friendly, alice, unseen)
    takeback.take_back(friendly.pk, alice)
    after = _versions(friendly)
    assert after["white"] == versions["white"]
    assert after["black"] == versions["black"] + 2
    assert Notification.objects.filter(user=bob).count() == notes
    assert _view(friendly, "white") == white_before


# --- undo requests ------------------------------------------------------------------


def _one_turn(game, user):
    _play(game, user, _moves(game)[0])
    _play(game, user, {"type": "end_turn"})


def test_an_undo_request_granted_rolls_back_the_askers_last_turn(client, friendly, alice, bob):
    engine = get_engine()
    _one_turn(friendly, alice)  # Black's Turn 1
    _one_turn(friendly, bob)  # White's Turn 1
    black_before = _view(friendly, "black")  # at the start of Black's Turn 2
    _one_turn(friendly, alice)  # Black's Turn 2: now Alice asks to undo it
    _play(friendly, bob, _moves(friendly)[0])  # Bob has already moved this turn
    with pytest.raises(services.InvalidRequest):
        takeback.request_undo(friendly.pk, bob)  # Bob has not ended his turn
    versions = _versions(friendly)
    client.force_login(alice)
    assert client.post(reverse("undo_request", args=[friendly.pk]), {"answer": "request"}).status_code == 302
    game = Game.objects.get(pk=friendly.pk)
    assert game.undo_request == "black"
    # Both players see the request (live: both doorbells ring).
    after = _versions(friendly)
    assert all(after[c] == versions[c] + 1 for c in after)
    assert Notification.objects.filter(user=bob, kind="undo_request").exists()
    from games.notifications import notification_text

    assert notification_text("undo_request", friendly.pk).startswith("Your opponent asks you to undo")
    assert "You asked your opponent to undo your last turn." in client.get(
        reverse("game_board", args=[friendly.pk])
    ).content.decode()
    # Alice cannot grant her own request.
    assert client.post(reverse("undo_request", args=[friendly.pk]), {"answer": "grant"}).status_code == 400
    client.force_login(bob)
    html = client.get(reverse("game_board", args=[friendly.pk])).content.decode()
    assert 'id="grant-undo"' in html
    seq = game.seq
    assert client.post(reverse("undo_request", args=[friendly.pk]), {"answer": "grant"}).status_code == 302
    game = Game.objects.get(pk=friendly.pk)
    assert game.seq == seq + 1 and game.to_move == "black" and game.undo_request == ""
    assert game.history_epoch == 1
    row = GameAction.objects.get(game=game, seq=game.seq)
    assert row.action == {"type": "withdraw", "steps": 3, "why": "undo"} and row.seat.color == "white"
    assert _view(friendly, "black") == black_before
    assert GameTurn.objects.filter(game=game).count() == 2
    assert engine.view(_fresh_load(friendly), "black") == black_before
    assert verify_game(game)[0] is None
    assert Notification.objects.filter(user=alice, kind="your_turn").exists()
    # Alice plays her Turn 2 again (a different Move), and the records follow.
    moves = _moves(friendly)
    _play(friendly, alice, moves[-1])
    _play(friendly, alice, {"type": "end_turn"})
    game = Game.objects.get(pk=friendly.pk)
    assert game.to_move == "white" and GameTurn.objects.filter(game=game).count() == 3
    assert verify_game(game)[0] is None
    # The highlights and the review frames count only Turns in effect.
    assert [c for _s, c in action_log.turn_ends(game)] == ["black", "white", "black"]
    assert len(selectors.replay_frames(game)) == 4
    call_command("verify_games", game=[game.pk])


def test_a_stale_process_cache_is_not_used_after_an_undo(friendly, alice, bob):
    """Another process cached the Turn records before the undo: its history
    epoch tells it they are stale."""
    engine = get_engine()
    _one_turn(friendly, alice)
    _one_turn(friendly, bob)
    _one_turn(friendly, alice)
    state_store.clear_caches()
    state_store.turn_records(friendly.pk, 3, 0)  # this "other process" has all three
    takeback.request_undo(friendly.pk, alice)
    takeback.answer_undo(friendly.pk, bob, grant=True)
    moves = _moves(friendly)
    _play(friendly, alice, moves[-1])
    _play(friendly, alice, {"type": "end_turn"})
    with state_store._lock:
        state_store._states.clear()  # only the states: the records cache stays
    game = Game.objects.get(pk=friendly.pk)
    state = selectors.load_state(game)
    records = list(GameTurn.objects.filter(game=game).order_by("number").values_list("entry", flat=True))
    assert engine.turn_records(state) == records


def test_declining_and_lapsing_undo_requests(friendly, alice, bob):
    _one_turn(friendly, alice)
    with pytest.raises(services.InvalidRequest):
        takeback.request_undo(friendly.pk, bob)  # his turn: nothing of his to undo
    takeback.request_undo(friendly.pk, alice)
    with pytest.raises(services.InvalidRequest):
        takeback.request_undo(friendly.pk, alice)  # twice
    takeback.answer_undo(friendly.pk, bob, grant=False)
    game = Game.objects.get(pk=friendly.pk)
    assert game.undo_request == "" and game.to_move == "white" and game.seq == 2
    # A request lapses when the opponent ends the turn instead.
    takeback.request_undo(friendly.pk, alice)
    _one_turn(friendly, bob)
    assert Game.objects.get(pk=friendly.pk).undo_request == ""
    with pytest.raises(services.GameNotActive):
        takeback.answer_undo(friendly.pk, bob, grant=True)


def test_competitive_games_refuse_undo_requests_with_a_4xx(client, game, alice, bob):
    _one_turn(game, alice)
    client.force_login(alice)
    response = client.post(reverse("undo_request", args=[game.pk]), {"answer": "request"})
    assert response.status_code == 403
    assert Game.objects.get(pk=game.pk).undo_request == ""
    assert client.post(reverse("undo_request", args=[game.pk]), {"answer": "bogus"}).status_code in (400, 403)


def test_no_undo_request_against_the_ai(alice):
    game = services.create_game(creator=alice, opponent="ai", color="black", competitive=False)
    with pytest.raises(services.InvalidRequest):
        takeback.request_undo(game.pk, alice)


def test_the_log_stays_append_only(friendly, alice):
    _play(friendly, alice, _moves(friendly)[0])
    takeback.take_back(friendly.pk, alice)
    from django.db import DatabaseError, transaction

    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM games_gameaction WHERE game_id = %s", [friendly.pk])
    assert GameAction.objects.filter(game=friendly).count() == 2
