"""Per-colour view versions: a seat's version changes exactly when what that
player is shown changes (and on each of the player's own actions), never with
the enemy's unseen actions; the doorbell rings with it; lists show turn times."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from leak_worlds import END, EXCHANGE, SCENARIO, TORPEDO, legal, move

from games import selectors, services
from games.models import Game, Seat
from games.services import events

pytestmark = pytest.mark.django_db


@pytest.fixture
def hidden_game(alice, bob):
    """Alice Black, Bob White with a submerged Sub and stealthed AAAs (see leak_worlds)."""
    return services.create_game(
        creator=bob, opponent="user", username="alice", color="white", scenario=SCENARIO
    )


def versions(game) -> dict[str, int]:
    return dict(Seat.objects.filter(game=game).values_list("color", "version"))


def act(game, user, wanted, **tokens):
    g = selectors.get_game(game.pk)
    action = legal(selectors.load_state(g), wanted)
    return services.submit_action(game.pk, user, action, **tokens)


def test_versions_follow_each_colours_own_view(
    hidden_game, alice, bob, django_capture_on_commit_callbacks, monkeypatch
):
    rung = []
    bells = []
    monkeypatch.setattr(events, "broadcast_changed", lambda gid, color, v: bells.append((color, v)))

    def run(user, wanted):
        bells.clear()
        with django_capture_on_commit_callbacks(execute=True):
            act(hidden_game, user, wanted)
        # Doorbells after commit only, each colour's own new version.
        assert bells == [(c, v) for c, v in bells if versions(hidden_game)[c] == v]
        rung.append(len(bells))

    start = versions(hidden_game)
    run(alice, move((1, 1), (1, 2, "ground")))
    after_black_move = versions(hidden_game)
    assert after_black_move["black"] == start["black"] + 1  # own action
    assert after_black_move["white"] == start["white"] + 1  # White sees Black's King move
    run(alice, END)
    v = versions(hidden_game)
    # White's unseen Fire, Exchange and Move: Black's version stays, White's grows.
    for wanted in (TORPEDO, EXCHANGE, move((9, 9, "sub"), (8, 9, "sub"))):
        run(bob, wanted)
        now = versions(hidden_game)
        assert now["black"] == v["black"], wanted
        assert now["white"] == v["white"] + 1, wanted
        v = now
    # The end of White's turn rings Black.
    run(bob, END)
    assert versions(hidden_game)["black"] == v["black"] + 1
    # Doorbells after commit: two for each seen action, one for each unseen.
    assert rung[2:5] == [1, 1, 1] and rung[5] >= 2


def test_the_version_is_the_stale_and_double_submit_token(hidden_game, alice, bob):
    mine = versions(hidden_game)["black"]
    with pytest.raises(services.StaleState):
        act(hidden_game, alice, move((1, 1), (1, 2, "ground")), expected_version=mine - 1)
    act(hidden_game, alice, move((1, 1), (1, 2, "ground")), expected_version=mine)
    # The same page posting again (its version is now old) is refused.
    with pytest.raises(services.StaleState):
        act(hidden_game, alice, END, expected_version=mine)
    act(hidden_game, alice, END, expected_version=mine + 1)
    assert Game.objects.get(pk=hidden_game.pk).to_move == "white"


def test_the_game_list_shows_when_the_turn_passed_not_the_last_action(
    client, hidden_game, alice, bob, monkeypatch
):
    t0 = timezone.now().replace(microsecond=0) + timedelta(days=400)
    monkeypatch.setattr("django.utils.timezone.now", lambda: t0)
    act(hidden_game, alice, move((1, 1), (1, 2, "ground")))
    act(hidden_game, alice, END)
    turn_time = Game.objects.get(pk=hidden_game.pk).turn_started
    assert turn_time == t0
    later = t0 + timedelta(hours=5)
    monkeypatch.setattr("django.utils.timezone.now", lambda: later)
    act(hidden_game, bob, TORPEDO)  # unseen by Black
    game = Game.objects.get(pk=hidden_game.pk)
    assert game.updated == later and game.turn_started == t0
    client.force_login(alice)
    html = client.get(reverse("game_list"), HTTP_HX_REQUEST="true").content.decode()
    assert t0.isoformat() in html and later.isoformat() not in html


def test_pages_carry_no_action_count(client, hidden_game, alice, bob):
    act(hidden_game, alice, move((1, 1), (1, 2, "ground")))
    act(hidden_game, alice, END)
    act(hidden_game, bob, TORPEDO)
    client.force_login(alice)
    html = client.get(reverse("game_detail", args=[hidden_game.pk])).content.decode()
    assert 'name="seq"' not in html and "data-seq" not in html
    assert f'data-version="{versions(hidden_game)["black"]}"' in html
