"""Engine speed, wave 4 (issue 15): the shortcuts give what the long way gives.

Two shortcuts reuse earlier work when their inputs are unchanged: a side's
hidden set after an action (``visibility.same_sight``), and a Piece's
Moves once the questions it asked of the touched Squares answer as before
(``moves._same_answers``). Here every state of seeded games under random
options, from the standard position or a crowded scenario, is checked
against the same thing worked out from scratch.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules.wec import apply, legal_actions
from games.rules.wec.moves import Knowledge, all_candidates, piece_candidates
from games.rules.wec.visibility import _hidden_from, hidden_from
from tools.engine.randomgames import choose, random_options, start_position


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), crowded=st.booleans())
def test_reused_hidden_sets_and_moves_are_the_fresh_ones(seed: int, crowded: bool) -> None:
    rng = random.Random(seed)
    game, _, _ = start_position(rng, random_options(random.Random(seed ^ 0xA11)), crowded)
    for step in range(70):
        acts = legal_actions(game)
        for color in ("black", "white"):
            # The set a state keeps (often reused from the state before)...
            kept = hidden_from(game, color)
            # ...is the one worked out from the board.
            assert kept == _hidden_from(game, color), f"step {step}: {color}'s hidden set"
        color = game.to_move
        hidden = hidden_from(game, color)
        cached = all_candidates(game, color, hidden)
        kn = Knowledge(game, color, hidden)
        fresh = {p.id: piece_candidates(game, p, kn) for p in game.pieces.values() if p.color == color}
        for pid, cands in cached.items():
            assert cands == fresh[pid], f"step {step}: Moves of piece {pid}"
        if not acts:
            break
        game = apply(game, choose(rng, acts))
