"""Random playouts over random option sets: no legal action raises, the game
passed in never changes, scenarios round-trip and bad actions only ever raise
IllegalAction."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .helpers import OPTIONS, M


def _probe(rng: random.Random, rows: int, columns: int) -> dict:
    """A move, most often illegal: anywhere to anywhere near, sometimes off the board or malformed."""
    r, c = rng.randint(0, rows + 1), rng.randint(0, columns + 1)
    choice = rng.random()
    if choice < 0.05:
        return {"type": "move", "from": [r, c]}
    if choice < 0.1:
        return {"type": rng.choice(["end_turn", "fire", None]), "from": [r, c], "to": [r, c]}
    return {"type": "move", "from": [r, c], "to": [r + rng.randint(-2, 2), c + rng.randint(-2, 2)]}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), options=OPTIONS)
def test_random_playouts(seed: int, options: dict) -> None:
    rng = random.Random(seed)
    g = M.new_game(options, seed=seed)
    o = M.view(g, "black")["options"]
    rows = 2 * o["setup_rows"] + o["neutral_rows"]
    for color in rng.sample(["black", "white"], 2):
        how = rng.choice(["random", "default"])
        if how == "random":
            g = M.apply(g, {"type": "setup", "color": color, "random": rng.randrange(1 << 30)})
        else:
            g = M.apply(g, next(a for a in M.legal_actions(g) if a["color"] == color))
    steps = 0
    while M.outcome(g) is None and steps < 400:
        legal = M.legal_actions(g)
        assert legal, "a running game always has a legal action"
        before = M.dump_scenario(g)
        for _ in range(3):
            probe = _probe(rng, rows, o["columns"])
            try:
                M.apply(g, probe)
            except M.IllegalAction as e:
                assert str(e)
                assert probe not in legal
            else:
                assert probe in legal, "apply accepted a move legal_actions does not list"
        action = rng.choice(legal)
        g2 = M.apply(g, action)
        assert M.dump_scenario(g) == before, "apply must not change its argument"
        g = g2
        if steps % 25 == 0:
            assert M.load_scenario(M.dump_scenario(g)) == g
        for color in ("black", "white"):
            v = M.view(g, color)
            places = [(p["row"], p["col"]) for p in v["pieces"]]
            assert places == sorted(places) and len(set(places)) == len(places)
            assert all("id" not in p for p in v["pieces"] if p["color"] != color)
        steps += 1
    assert M.load_scenario(M.dump_scenario(g)) == g
    if M.outcome(g) is not None:
        assert M.legal_actions(g) == [] and M.to_move(g) is None
        assert M.history(g, "black") == M.history(g, "white") == M.history(g)
