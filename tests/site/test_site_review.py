"""The game record while a game runs (censored, the player's own) and the
review once it has ended (complete, plain English and notation, replay)."""

import html as htmllib
import re

import pytest
from django.urls import reverse

from games import selectors, services
from games.models import Game

pytestmark = pytest.mark.django_db


def state_of(game_id):
    return selectors.load_state(Game.objects.get(pk=game_id))


def page(client, user, game_id, name="game_detail", **params):
    client.force_login(user)
    response = client.get(reverse(name, args=[game_id]), params)
    return response.status_code, htmllib.unescape(response.content.decode())


def history_lists(html):
    plain = re.search(r"<ol class=\"hist-plain\"[^>]*>(.*?)</ol>", html, re.S).group(1)
    notation = re.search(r"<ol class=\"hist-notation\"[^>]*>(.*?)</ol>", html, re.S).group(1)
    return re.findall(r"<li>(.*?)</li>", plain), re.findall(r"<li>(.*?)</li>", notation)


def truth_board(html):
    """The review's true board (the first of its three boards)."""
    return html.split('data-board="truth"', 1)[1].split('class="review-board"', 1)[0]


@pytest.fixture
def hidden_move_game(game, alice, engine):
    """Black moves a stealthed AAA White cannot see, and ends the turn."""
    state = state_of(game.pk)
    aaa = next(p["id"] for p in engine.view(state, "black")["pieces"] if p["type"] == "aaa" and p["col"] == 3)
    move = next(
        a for a in engine.legal_actions(state)
        if a["type"] == "move" and a["piece"] == aaa and a["to"] == [3, 4, "ground"]
    )
    services.submit_action(game.pk, alice, move, expected_seq=0)
    services.submit_action(game.pk, alice, {"type": "end_turn"}, expected_seq=1)
    return game


def test_running_game_shows_only_the_players_censored_record(client, hidden_move_game, alice, bob, engine):
    game = hidden_move_game
    state = state_of(game.pk)
    assert engine.history(state, "white") == ["MV:?"]
    for name in ("game_detail", "game_board"):
        status, html = page(client, bob, game.pk, name)
        assert status == 200
        plain, notation = history_lists(html)
        assert plain == engine.plain_history(state, "white") == ["Black moved a piece out of sight."]
        assert notation == ["MV:?"]
        # Nothing of the uncensored record, no review, no true board.
        for secret in engine.history(state) + engine.plain_history(state):
            assert secret not in html
        assert "AAA (2,3)" not in html and 'id="replay"' not in html
        assert "Moves so far (as you saw them)" in html
    # Alice saw her own move: her record has it.
    _, html = page(client, alice, game.pk)
    assert history_lists(html) == (engine.plain_history(state, "black"), engine.history(state, "black"))
    # The replay of a running game does not exist (its positions would leak).
    assert page(client, bob, game.pk, "game_replay", at=1)[0] == 404
    assert page(client, alice, game.pk, "game_replay", at=0)[0] == 404


def test_plain_english_is_the_default(client, hidden_move_game, alice):
    _, html = page(client, alice, hidden_move_game.pk)
    assert re.search(r'id="hist-plain" value="plain" checked', html)
    assert not re.search(r'id="hist-notation" value="notation" checked', html)


def test_ended_game_shows_the_complete_record_and_true_board(client, hidden_move_game, alice, bob, engine):
    game = hidden_move_game
    services.resign(game.pk, bob)
    state = state_of(game.pk)
    status, html = page(client, bob, game.pk)
    assert status == 200
    plain, notation = history_lists(html)
    assert plain == engine.plain_history(state) == ["Black AAA (2,3) moved to (3,4)."]
    assert notation == engine.history(state) == ["MV:AAA(2,3)->(3,4)"]
    assert "Complete game record" in html and 'id="replay"' in html
    # The review board is the true board: every piece of both sides.
    board = truth_board(html)
    true_pieces = engine.dump_scenario(state)["pieces"]
    for side in ("black", "white"):
        shown = len(re.findall(rf'class="tok tok-{side} lvl-', board))
        assert shown == sum(1 for p in true_pieces if p["color"] == side)
    assert "After turn 1 of 1: Black AAA (2,3) moved to (3,4)." in html
    assert 'max="1"' in board or 'max="1"' in html


def test_replay_steps_through_turns(client, game, alice, bob, engine, first_move):
    players = {"black": alice, "white": bob}
    for _ in range(3):
        g = Game.objects.get(pk=game.pk)
        state = state_of(game.pk)
        user = players[engine.to_move(state)]
        services.submit_action(game.pk, user, first_move(state), expected_seq=g.seq)
        services.submit_action(game.pk, user, {"type": "end_turn"}, expected_seq=g.seq + 1)
    # Bob (White, to move) makes a Move and then resigns inside his turn.
    g = Game.objects.get(pk=game.pk)
    services.submit_action(game.pk, bob, first_move(state_of(game.pk)), expected_seq=g.seq)
    services.resign(game.pk, bob)
    game = Game.objects.get(pk=game.pk)
    assert selectors.replay_frames(game) == [0, 2, 4, 6, 7]
    final = state_of(game.pk)
    plain = engine.plain_history(final)
    for at, seq in enumerate([0, 2, 4, 6, 7]):
        status, html = page(client, bob, game.pk, "game_replay", at=at)
        assert status == 200
        position = selectors.load_state(game, upto=seq)
        pieces = engine.dump_scenario(position)["pieces"]
        for side in ("black", "white"):
            shown = len(re.findall(rf'class="tok tok-{side} lvl-', truth_board(html)))
            assert shown == sum(1 for p in pieces if p["color"] == side), (at, side)
        assert f'value="{at}"' in html
        if at == 0:
            assert "Start position." in html
        elif at <= 3:
            assert f"After turn {at} of 4: {plain[at - 1]}" in html
        else:
            assert "the game ended during this turn" in html
    # Out-of-range frames are clamped, not errors; the board is White's way up.
    status, html = page(client, bob, game.pk, "game_replay", at=99)
    assert status == 200 and 'value="4"' in html and "board board-white" in html
    # Only the players may look.
    client.force_login(type(alice).objects.create_user("eve", password="pw-Wec-12345"))
    assert client.get(reverse("game_replay", args=[game.pk]), {"at": 0}).status_code == 404
