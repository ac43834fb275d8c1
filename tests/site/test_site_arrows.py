"""From-to arrows and shot marks over the board (games/ui/wec/arrows.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import selectors, services
from games.engines import get_engine
from games.models import Game
from games.ui.wec import arrows

pytestmark = pytest.mark.django_db

OPEN = {
    "to_move": "black",
    "options": {"stealth_invisibility": False, "submersion_invisibility": False, "reinforcements": "none"},
    "pieces": [
        {"type": "king", "color": "black", "row": 1, "col": 1},
        {"type": "tank", "color": "black", "row": 3, "col": 5, "hand": "right"},
        {"type": "king", "color": "white", "row": 10, "col": 10},
        {"type": "tank", "color": "white", "row": 8, "col": 3, "hand": "left"},
    ],
    "articles": [],
}


def test_arrows_of_actions():
    got = arrows._arrows_of(
        [
            {"type": "move", "from": [1, 1, "ground"], "to": [2, 2, "ground"]},
            {"type": "move", "hidden": True},  # a censored MV:? gets nothing
            {"type": "fire", "from": [3, 5, "ground"], "weapon": "flamer", "direction": [1, 0]},
            {"type": "fire", "from": [4, 4, "air"], "weapon": "jet_rocket", "target": [6, 4, "ground"]},
            {"type": "fire", "from": [2, 2, "ground"], "weapon": "bike", "to": [2, 5, "ground"]},
            {"type": "pickup", "from": [2, 2, "ground"], "article": "bike"},
        ],
        "enemy",
    )
    assert [(a.kind, a.from_key, a.to_key) for a in got] == [
        ("move", "1-1-ground", "2-2-ground"),
        ("shot", "3-5-ground", "4-5-ground"),
        ("shot", "4-4-air", "6-4-ground"),
        ("move", "2-2-ground", "2-5-ground"),
    ]


def _king_move(state):
    return next(a for a in get_engine().legal_actions(state) if a["type"] == "move" and a["from"][:2] == [1, 1])


def test_own_arrows_while_moving_and_the_enemys_after_the_turn(client, alice, bob):
    game = services.create_game(creator=alice, opponent="user", username="bob", color="black", scenario=OPEN)
    move = _king_move(selectors.load_state(game))
    services.submit_action(game.pk, alice, move)
    key = "-".join(str(x) for x in move["to"])
    client.force_login(alice)
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert f'class="arrow arrow-own arrow-move" data-from="1-1-ground" data-to="{key}"' in html
    assert "Your actions this turn:" in html
    client.force_login(bob)
    assert "board-arrows" not in client.get(reverse("game_detail", args=[game.pk])).content.decode()
    services.submit_action(game.pk, alice, {"type": "end_turn"})
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert f'class="arrow arrow-enemy arrow-move" data-from="1-1-ground" data-to="{key}"' in html
    assert "last turn, as you saw it: moved from (1,1) to" in html
    # Alice no longer has actions this Turn, and her own last Turn is no enemy Turn.
    client.force_login(alice)
    assert "board-arrows" not in client.get(reverse("game_detail", args=[game.pk])).content.decode()


def test_an_unseen_move_gets_no_arrow(alice, bob):
    """The standard game: Black's first Moves are hidden from White, whose
    record says MV:? for them."""
    game = services.create_game(creator=alice, opponent="user", username="bob", color="black")
    engine = get_engine()
    state = selectors.load_state(game)
    white_before = engine.view(state, "white")
    unseen = next(
        a for a in engine.legal_actions(state)
        if a["type"] == "move" and engine.view(engine.apply(state, a), "white") == white_before
    )
    services.submit_action(game.pk, alice, unseen)
    services.submit_action(game.pk, alice, {"type": "end_turn"})
    game = Game.objects.get(pk=game.pk)
    state = selectors.load_state(game)
    history = selectors.history_lines(game, state, "white")
    assert "MV:?" in history["notation"][-1]
    got = arrows.for_player(game, "white", state, history["notation"])
    assert not [a for a in got["arrows"] if a.kind == "move"]
