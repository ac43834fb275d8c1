"""The Marshal and Spy AI: legal, reads only its view, and its belief follows the combat table."""

from __future__ import annotations

import random

import pytest

from games.rules.marshal import ai

from .helpers import KEEP, M, game, move, started


@pytest.mark.parametrize(
    "options", [{}, {"moves_per_turn": 1, "columns": 11}, {"setup_rows": 4, "no_return": "until_moved"}]
)
def test_choices_are_legal_and_come_from_the_view(options: dict) -> None:
    g = M.new_game(options, seed=3)
    for color in ("white", "black"):
        action = M.choose_action(g, color, 5)
        assert action["type"] == "setup" and action["color"] == color
        g = M.apply(g, action)
    rng = random.Random(1)
    for step in range(60):
        if M.outcome(g) is not None:
            break
        color = M.to_move(g)
        action = M.choose_action(g, color, step)
        assert action in M.legal_actions(g)
        assert ai.choose_action(M.view(g, color), color, step) == action
        g = M.apply(g, action if step % 3 else rng.choice(M.legal_actions(g)))


def test_ai_refuses_a_view_of_the_wrong_colour() -> None:
    g = started(2)
    with pytest.raises(ValueError):
        ai.choose_action(M.view(g, "white"), "black", 0)
    with pytest.raises(ValueError):
        ai.choose_action(g, "white", 0)  # not White's move


def test_belief_moved_pieces_are_not_mines_or_hq() -> None:
    g = game(
        [("black", "captain", 4, 4), ("white", "colonel", 7, 7), *KEEP],
        to_move="white",
        options={"moves_per_turn": 1},
    )
    g = move(g, (7, 7), (6, 7))
    belief = ai.beliefs(M.view(g, "black"))
    assert belief[(6, 7)] == frozenset(M.TYPES) - {"mine", "hq"}
    assert belief[(10, 10)] == frozenset(M.TYPES)


def test_belief_from_a_lost_attack() -> None:
    # Black's captain dies attacking: the defender is a colonel, a general or a Mine.
    g = game([("black", "captain", 5, 5), ("white", "general", 6, 5), ("black", "corporal", 2, 2), *KEEP])
    g = move(g, (5, 5), (6, 5))
    # known within the turn already (from the view's turn notation), and after it (from the history)
    assert M.view(g, "black")["turn"]["notation"] == ["3(5,5)x?(6,5)-"]
    assert ai.beliefs(M.view(g, "black"))[(6, 5)] == {"colonel", "general", "mine"}
    g = move(g, (2, 2), (3, 2))
    assert ai.beliefs(M.view(g, "black"))[(6, 5)] == {"colonel", "general", "mine"}


def test_belief_from_an_enemy_win() -> None:
    # White's piece takes Black's captain: it is a captain, a colonel or a general.
    g = game(
        [("black", "captain", 5, 5), ("white", "colonel", 6, 5), *KEEP],
        to_move="white",
        options={"moves_per_turn": 1},
    )
    g = move(g, (6, 5), (5, 5))
    assert ai.beliefs(M.view(g, "black"))[(5, 5)] == {"captain", "colonel", "general"}


def test_ai_takes_the_hq_when_it_can() -> None:
    g = game(
        [
            ("black", "corporal", 9, 9),
            ("black", "general", 4, 4),
            ("white", "hq", 10, 9),
            ("black", "hq", 1, 1),
            ("white", "corporal", 10, 1),
        ]
    )
    # the HQ is revealed, so the AI knows it
    d = M.dump_scenario(g)
    for p in d["pieces"]:
        if p["type"] == "hq" and p["color"] == "white":
            p["revealed"] = True
    g = M.load_scenario(d)
    assert M.choose_action(g, "black", 0) == {"type": "move", "from": [9, 9], "to": [10, 9]}


def test_ai_setup_guards_its_hq() -> None:
    g = M.new_game(seed=1)
    action = M.choose_action(g, "black", 9)
    where = {(p["row"], p["col"]): p["type"] for p in action["pieces"]}
    (hq,) = [s for s, t in where.items() if t == "hq"]
    assert hq[0] == 1
    assert where[(2, hq[1])] == "mine"
