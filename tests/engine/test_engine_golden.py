"""The engine plays exactly as recorded before its fast paths.

Seeded random games (the standard game or a crowded scenario, under random
option sets, rarer action types chosen as often as Moves) are played through
the public facade. At every step the legal actions (their order and key order
included) are folded into a running digest, with both colours' views every
ten actions; at the end the scenario document, both views and every history
(notation and plain English, full and censored for each colour) are folded in.
``data/engine_golden.json`` holds those digests as the engine computed them
before its Move cache and fast paths (recorded at commit 20fe7c1); any
difference in what the engine offers, does or shows fails here. (The fast
paths are compared with the plain rules step by step in
test_fast_paths.py.)

Regenerate (only when a rule deliberately changes) with the old code first on
the path: ``PYTHONPATH=<tree> python tests/engine/test_engine_golden.py``.
It covers the whole manual's Actions (l. 57-75) as the facade offers them.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

GOLDEN = Path(__file__).parent / "data" / "engine_golden.json"
CASES = 48
CAP = 120
EVERY = 20


def _fold(h: Any, value: Any) -> None:
    h.update(json.dumps(value, separators=(",", ":"), default=repr).encode())
    h.update(b"\n")


def play_case(seed: int) -> list[str]:
    """The checkpoint digests of the seeded game ``seed``."""
    from games.rules.wec import apply, dump_scenario, history, legal_actions, plain_history, view
    from tools.engine.randomgames import choose, start_position

    rng = random.Random(seed)
    game, _, opts = start_position(rng)
    h = hashlib.sha256()
    _fold(h, opts)
    out = []
    for step in range(CAP):
        acts = legal_actions(game)
        _fold(h, acts)
        if step % 10 == 0:
            _fold(h, [view(game, "black"), view(game, "white")])
        if step % EVERY == 0:
            out.append(h.hexdigest()[:16])
        if not acts:
            break
        game = apply(game, choose(rng, acts))
    _fold(h, dump_scenario(game))
    _fold(h, [view(game, "black"), view(game, "white")])
    for color in (None, "black", "white"):
        _fold(h, [history(game, color), plain_history(game, color)])
    out.append(h.hexdigest()[:16])
    return out


def test_games_play_exactly_as_recorded() -> None:
    golden = json.loads(GOLDEN.read_text())
    assert len(golden["cases"]) == CASES
    for seed, expected in enumerate(golden["cases"]):
        got = play_case(seed)
        first = next((n for n, (a, b) in enumerate(zip(got, expected, strict=False)) if a != b), None)
        assert got == expected, f"seed {seed}: first differs at checkpoint {first} (step {(first or 0) * EVERY})"


if __name__ == "__main__":
    import games

    print("engine from", games.__file__, file=sys.stderr)
    GOLDEN.write_text(json.dumps({"cap": CAP, "cases": [play_case(s) for s in range(CASES)]}, indent=0) + "\n")
