import threading

import pytest
from django.db import connections

from games import selectors, services
from games.engines import get_engine
from games.models import Game, GameAction, Snapshot
from games.services import events

pytestmark = pytest.mark.django_db


def state_of(game_id):
    return selectors.load_state(Game.objects.get(pk=game_id))


def test_create_game_seats_and_initial_snapshot(game, alice, bob):
    assert game.status == Game.Status.ACTIVE
    seats = {s.color: s.user for s in game.seats.all()}
    assert seats == {"black": alice, "white": bob}
    assert game.seq == 0 and game.to_move == "black"
    assert Snapshot.objects.filter(game=game, seq=0).exists()


def test_create_game_errors(alice):
    with pytest.raises(services.InvalidRequest):
        services.create_game(creator=alice, opponent="user", username="nobody")
    with pytest.raises(services.InvalidRequest):
        services.create_game(creator=alice, opponent="user", username="alice")
    with pytest.raises(services.InvalidRequest):
        services.create_game(creator=alice, opponent="user", username="bob", color="green")


def test_random_color_is_resolved(alice, bob):
    game = services.create_game(creator=alice, opponent="user", username="bob", color="random")
    assert {s.color for s in game.seats.all()} == {"black", "white"}


def test_move_then_end_turn(game, alice, bob, engine, first_move):
    move = first_move(state_of(game.pk))
    entry = services.submit_action(game.pk, alice, move, expected_seq=0)
    assert entry.seq == 1
    game.refresh_from_db()
    assert game.seq == 1 and game.to_move == "black"
    services.submit_action(game.pk, alice, {"type": "end_turn"}, expected_seq=1)
    game.refresh_from_db()
    assert game.seq == 2 and game.to_move == "white"
    assert list(GameAction.objects.filter(game=game).values_list("seq", flat=True)) == [1, 2]
    # Now Bob may move.
    services.submit_action(game.pk, bob, first_move(state_of(game.pk)), expected_seq=2)


@pytest.mark.parametrize(
    "who, action, seq, error",
    [
        ("bob", None, 0, services.NotYourTurn),
        ("carol", None, 0, services.NotYourGame),
        ("alice", None, 5, services.StaleState),
        ("alice", "not a dict", 0, services.MalformedAction),
        ("alice", {"type": 7}, 0, services.MalformedAction),
        ("alice", {"type": "end_turn"}, 0, services.IllegalMove),
        ("alice", {"type": "move", "from": [1, 1, "ground"], "to": [9, 9, "air"]}, 0, services.IllegalMove),
        ("alice", {"type": "warp"}, 0, services.IllegalMove),
    ],
)
def test_bad_submissions_change_nothing(game, alice, bob, carol, first_move, who, action, seq, error):
    user = {"alice": alice, "bob": bob, "carol": carol}[who]
    if action is None:
        action = first_move(state_of(game.pk))
    with pytest.raises(error) as info:
        services.submit_action(game.pk, user, action, expected_seq=seq)
    assert info.value.message
    assert 400 <= info.value.status < 500
    game.refresh_from_db()
    assert game.seq == 0 and game.to_move == "black"
    assert not GameAction.objects.filter(game=game).exists()


def test_finished_game_refuses_actions(game, alice, first_move):
    services.resign(game.pk, alice)
    with pytest.raises(services.GameNotActive):
        services.submit_action(game.pk, alice, first_move(state_of(game.pk)), expected_seq=0)
    game.refresh_from_db()
    assert game.result == {"winner": "white", "reason": "resignation"}


def test_snapshots_every_n_and_replay_matches(game, alice, bob, engine, first_move, settings):
    settings.WEC_SNAPSHOT_EVERY = 2
    players = {"black": alice, "white": bob}
    state = state_of(game.pk)
    for _ in range(3):  # three whole turns: move + end_turn each
        color = engine.to_move(state)
        move = first_move(state)
        g = Game.objects.get(pk=game.pk)
        services.submit_action(game.pk, players[color], move, expected_seq=g.seq)
        services.submit_action(game.pk, players[color], {"type": "end_turn"}, expected_seq=g.seq + 1)
        state = engine.apply(engine.apply(state, move), {"type": "end_turn"})
    assert set(Snapshot.objects.filter(game=game).values_list("seq", flat=True)) == {0, 2, 4, 6}
    g = Game.objects.get(pk=game.pk)
    assert engine.dump_scenario(selectors.load_state(g)) == engine.dump_scenario(state)
    # Replaying from the start snapshot gives the same game as from the latest one.
    Snapshot.objects.filter(game=game, seq__gt=0).delete()
    assert engine.dump_scenario(selectors.load_state(g)) == engine.dump_scenario(state)


def test_broadcast_only_after_commit(game, alice, first_move, monkeypatch, django_capture_on_commit_callbacks):
    sent = []
    monkeypatch.setattr(events, "broadcast_changed", lambda gid, color, v: sent.append((gid, color, v)))
    before = {s.color: s.version for s in game.seats.all()}
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.submit_action(game.pk, alice, first_move(state_of(game.pk)), expected_seq=0)
    assert sent == []
    for callback in callbacks:
        callback()
    # The mover (Black) always hears of its own action, with its own new version.
    assert (game.pk, "black", before["black"] + 1) in sent
    assert all(color in ("black", "white") for _, color, _ in sent)


def test_failed_submit_schedules_nothing(game, bob, first_move, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        with pytest.raises(services.NotYourTurn):
            services.submit_action(game.pk, bob, first_move(state_of(game.pk)), expected_seq=0)
    assert callbacks == []


def test_ai_is_woken_when_turn_passes_to_it(alice, monkeypatch, django_capture_on_commit_callbacks, first_move):
    from games import tasks

    queued = []
    monkeypatch.setattr(tasks.play_ai_turn, "delay", lambda gid: queued.append(gid))
    # Human plays Black: the AI is not woken at the start, only after End Turn.
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(creator=alice, opponent="ai", color="black")
    assert queued == []
    with django_capture_on_commit_callbacks(execute=True):
        services.submit_action(game.pk, alice, first_move(state_of(game.pk)), expected_seq=0)
    assert queued == []
    with django_capture_on_commit_callbacks(execute=True):
        services.submit_action(game.pk, alice, {"type": "end_turn"}, expected_seq=1)
    assert queued == [game.pk]
    # Human plays White: the AI (Black) is woken at once.
    with django_capture_on_commit_callbacks(execute=True):
        game2 = services.create_game(creator=alice, opponent="ai", color="white")
    assert queued == [game.pk, game2.pk]


def test_ai_task_plays_a_whole_legal_turn(alice, monkeypatch, engine):
    from games import tasks

    monkeypatch.setattr(tasks.play_ai_turn, "delay", lambda gid: None)
    game = services.create_game(creator=alice, opponent="ai", color="white")
    made = tasks.play_ai_turn(game.pk)  # called directly: the task body, no broker
    game.refresh_from_db()
    assert made >= 2
    assert game.to_move == "white"
    kinds = [a["type"] for a in GameAction.objects.filter(game=game).values_list("action", flat=True)]
    assert "move" in kinds and kinds[-1] == "end_turn"
    assert tasks.play_ai_turn(game.pk) == 0  # not its turn: does nothing


def test_open_seek_accept_and_cancel(alice, bob, carol):
    seek = services.create_game(creator=alice, opponent="open", color="white")
    assert seek.status == Game.Status.OPEN
    assert [g.pk for g in selectors.open_seeks(bob)] == [seek.pk]
    with pytest.raises(services.InvalidRequest):
        services.accept_seek(game_id=seek.pk, user=alice)
    accepted = services.accept_seek(game_id=seek.pk, user=bob)
    assert accepted.status == Game.Status.ACTIVE
    assert {s.color: s.user for s in accepted.seats.all()} == {"white": alice, "black": bob}
    with pytest.raises(services.GameNotActive):
        services.accept_seek(game_id=seek.pk, user=carol)
    other = services.create_game(creator=alice, opponent="open")
    with pytest.raises(services.InvalidRequest):
        services.cancel_seek(game_id=other.pk, user=bob)
    services.cancel_seek(game_id=other.pk, user=alice)
    assert Game.objects.get(pk=other.pk).status == Game.Status.CANCELLED


def test_user_games_marks_your_turn(game, alice, bob):
    [mine] = selectors.user_games(alice)
    [theirs] = selectors.user_games(bob)
    assert mine.my_turn and not theirs.my_turn
    assert mine.opponent == bob and theirs.my_color == "white"


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_submits_exactly_one_lands(alice, bob, first_move):
    game = services.create_game(creator=alice, opponent="user", username="bob", color="black")
    state = state_of(game.pk)
    moves = [a for a in get_engine().legal_actions(state) if a["type"] == "move"][:2]
    barrier = threading.Barrier(2)
    results = [None, None]

    def play(index):
        try:
            barrier.wait(timeout=10)
            services.submit_action(game.pk, alice, moves[index], expected_seq=0)
            results[index] = "ok"
        except services.GameError as exc:
            results[index] = type(exc).__name__
        finally:
            connections.close_all()

    threads = [threading.Thread(target=play, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(results) == ["StaleState", "ok"], results
    assert GameAction.objects.filter(game=game).count() == 1
    assert Game.objects.get(pk=game.pk).seq == 1
