"""The review's "nearest to a win": after each Turn, could a piece
hidden from a side actually take or hit that side's primary piece on its next
Turn?  The engine answers on the true position (its legal Moves and Fires,
applied), not a king-step distance: a hidden Tank two Squares from the King in
a straight line burns it; the same Tank as near but off every line it can
fire along, or a hidden piece further away, does not."""

import html as htmllib
import re

import pytest
from django.urls import reverse

from games import selectors, services
from games.models import Game
from games.ui.wec import review

pytestmark = pytest.mark.django_db


def scenario(hidden: dict) -> dict:
    """Black's King at (5,5); a White piece `hidden` from Black (Stealth,
    detection range 0: unseen even next to Black's pieces)."""
    return {
        "to_move": "black",
        "options": {"reinforcements": "none", "stealth_detection_range": 0},
        "pieces": [
            {"type": "king", "color": "black", "row": 5, "col": 5, "id": 1},
            {"type": "dozer", "color": "black", "row": 1, "col": 9, "id": 2},
            {"type": "king", "color": "white", "row": 10, "col": 10, "id": 3},
            dict(hidden, color="white", id=4),
        ],
    }


PAWN_IN_FRONT = {"type": "stealth_pawn", "row": 6, "col": 5}
PAWN_BESIDE = {"type": "stealth_pawn", "row": 6, "col": 6}
CLERIC_BESIDE = {"type": "cleric", "row": 6, "col": 6, "hand": "right", "articles": ["stealth"]}
TANK_IN_LINE = {"type": "tank", "row": 7, "col": 5, "hand": "right", "articles": ["stealth"]}


def ended_game(alice, bob, hidden):
    """Black moves its Dozer and ends the Turn; White resigns."""
    game = services.create_game(creator=alice, opponent="user", username="bob", color="black",
                                scenario=scenario(hidden))
    services.submit_action(game.pk, alice, {"type": "move", "piece": 2, "from": [1, 9, "ground"],
                                            "to": [2, 9, "ground"]}, expected_seq=0)
    services.submit_action(game.pk, alice, {"type": "end_turn"}, expected_seq=1)
    services.resign(game.pk, bob)
    return Game.objects.get(pk=game.pk)


def frames(game):
    return review.frames_of(game, selectors.replay_frames(game))


def test_a_hidden_pawn_could_take_the_king_and_a_hidden_cleric_convert_it(alice, bob):
    game = ended_game(alice, bob, PAWN_IN_FRONT)
    fs = frames(game)
    # After Black's Turn (White to move: the true position as it stood) and at
    # the start (Black to move: the position handed to White as it stands).
    assert len(fs) == 2
    for frame in fs:
        t = review.threat(frame, "black")
        assert t.danger and t.takes == (("stealth_pawn", 6, 5, "ground"),) and not t.hits and t.steps == 1
    # Black has nothing hidden from White.
    assert not review.threat(fs[1], "white").danger and review.threat(fs[1], "white").square is None
    stats = review.summary(game, selectors.replay_frames(game))
    assert stats["nearest"]["black"]["danger"] == [0, 1] and stats["nearest"]["black"]["frames"] == [0, 1]

    game = ended_game(alice, bob, CLERIC_BESIDE)
    t = review.threat(frames(game)[1], "black")
    assert t.danger and t.hits == (("cleric", 6, 6, "ground"),)


def test_near_is_not_dangerous_when_the_rules_say_so(alice, bob):
    # A Pawn one king step away that cannot step onto the King's Square (the
    # old king-step measure called this the nearest call possible).
    game = ended_game(alice, bob, PAWN_BESIDE)
    for frame in frames(game):
        t = review.threat(frame, "black")
        assert not t.danger and t.steps == 1 and t.square == (6, 6)
    stats = review.summary(game, selectors.replay_frames(game))
    assert stats["nearest"]["black"]["danger"] == [] and stats["nearest"]["black"]["distance"] == 1
    # A Tank whose Flamer points straight at the King: the King's own
    # Anti-Flamer resists one Flamer, so no danger either.
    game = ended_game(alice, bob, TANK_IN_LINE)
    t = review.threat(frames(game)[1], "black")
    assert not t.danger and t.steps == 2


def test_the_review_page_says_so(client, alice, bob):
    game = ended_game(alice, bob, PAWN_IN_FRONT)
    client.force_login(alice)
    html = htmllib.unescape(client.get(reverse("game_detail", args=[game.pk]), {"at": 1}).content.decode())
    black = html.split('data-board="black"', 1)[1].split('data-board="white"', 1)[0]
    assert "In danger from a hidden enemy on its next turn: Stealth pawn at (6,5) could take it with a Move." in black
    assert re.search(r"could have taken or hit Black.s primary piece on its next turn after turn\(s\):", html)

    calm = ended_game(alice, bob, PAWN_BESIDE)
    html = htmllib.unescape(client.get(reverse("game_detail", args=[calm.pk]), {"at": 1}).content.decode())
    black = html.split('data-board="black"', 1)[1].split('data-board="white"', 1)[0]
    assert "No hidden enemy could take or hit its primary piece on its next turn (the nearest was 1 step(s) away)." in black
