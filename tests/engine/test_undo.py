"""Undo and option changes: non-competitive games step back any number of
actions; competitive games have neither Undo nor option changes."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.rules.wec as wec


def _play(seed: int, n: int, options: dict | None = None):
    rng = random.Random(seed)
    g = wec.new_game(options)
    states = [g]
    for _ in range(n):
        acts = wec.legal_actions(g)
        if not acts:
            break
        others = [a for a in acts if a["type"] not in ("move", "end_turn")]
        a = rng.choice(others) if others and rng.random() < 0.3 else rng.choice(acts)
        g = wec.apply(g, a)
        states.append(g)
    return states


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 60))
def test_undo_gives_back_the_exact_earlier_game(seed, back):
    states = _play(seed, 60)
    back = min(back, len(states) - 1)
    assert wec.undo(states[-1], back) == states[-1 - back]


def test_undo_zero_is_the_same_game_and_undo_all_is_the_start():
    states = _play(7, 30)
    assert wec.undo(states[-1], 0) is states[-1]
    assert wec.undo(states[-1], len(states) - 1) == wec.new_game()


def test_undo_past_the_start_or_with_bad_steps_is_refused():
    states = _play(8, 5)
    for steps in (len(states), -1, 1.5, True, "2"):
        with pytest.raises(wec.IllegalAction):
            wec.undo(states[-1], steps)


def test_no_undo_in_a_competitive_game():
    states = _play(9, 6, {"competitive": True})
    with pytest.raises(wec.IllegalAction, match="competitive"):
        wec.undo(states[-1], 1)


def test_undo_works_from_a_scenario_start():
    doc = {"to_move": "white", "pieces": [
        {"type": "king", "color": "black", "row": 1, "col": 1},
        {"type": "king", "color": "white", "row": 10, "col": 10},
        {"type": "tank", "color": "white", "row": 9, "col": 5, "hand": "left"},
    ]}
    g0 = wec.load_scenario(doc)
    g1 = wec.apply(g0, {"type": "fire", "from": [9, 5, "ground"], "weapon": "flamer", "direction": [-1, 0]})
    g2 = wec.apply(g1, {"type": "move", "from": [10, 10, "ground"], "to": [9, 9, "ground"]})
    g3 = wec.apply(g2, {"type": "end_turn"})
    assert wec.undo(g3, 1) == g2
    assert wec.undo(g3, 2) == g1
    assert wec.undo(g3, 3) == g0
    # A reloaded dump keeps its start, so Undo still works.
    assert wec.undo(wec.load_scenario(wec.dump_scenario(g3)), 3) == g0


def test_options_change_before_the_first_action_only():
    g = wec.new_game()
    g2 = wec.change_options(g, {"flamer_range": 1})
    assert g2.options["flamer_range"] == 1 and g.options["flamer_range"] == 2
    after = wec.apply(g2, wec.legal_actions(g2)[0])
    with pytest.raises(wec.IllegalAction, match="before the first action"):
        wec.change_options(after, {"flamer_range": 2})
    with pytest.raises(wec.IllegalAction):
        wec.change_options(g, {"no_such_option": 1})
    # Turning competitive is allowed at any time, and is for good.
    comp = wec.change_options(after, {"competitive": True})
    assert comp.options["competitive"] is True
    with pytest.raises(wec.IllegalAction, match="fixed"):
        wec.change_options(comp, {"competitive": False})
    with pytest.raises(wec.IllegalAction, match="competitive"):
        wec.undo(comp, 1)


def test_steps_back_to_turn_and_turn_actions():
    """The site's take-back and undo requests (games.services.takeback) count actions
    with these: back to the start of the Turn in progress, or of an earlier one."""
    import games.rules.wec as wec

    g = wec.new_game({"competitive": False})
    assert wec.steps_back_to_turn(g, 0) == 0 and wec.turn_actions(g) == [] and wec.actions_this_turn(g) == 0
    move = next(a for a in wec.legal_actions(g) if a["type"] == "move")
    g = wec.apply(g, move)
    assert wec.turn_actions(g) == [move] and wec.actions_this_turn(g) == 1
    assert wec.steps_back_to_turn(g, 0) == 1
    g = wec.apply(g, {"type": "end_turn"})
    assert wec.steps_back_to_turn(g, 0) == 0 and wec.steps_back_to_turn(g, 1) == 2
    g2 = wec.apply(g, next(a for a in wec.legal_actions(g) if a["type"] == "move"))
    assert wec.steps_back_to_turn(g2, 1) == 3
    back = wec.undo(g2, wec.steps_back_to_turn(g2, 1))
    assert wec.to_move(back) == "black" and wec.turn_count(back) == 0
    assert wec.view(back, "black") == wec.view(wec.new_game({"competitive": False}), "black")
    with pytest.raises(wec.IllegalAction):
        wec.steps_back_to_turn(g2, 2)
