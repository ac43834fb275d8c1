"""The engine plays exactly as it did before its speed work (issue 15, Speed).

Seeded random games (the standard game or a crowded scenario, under random
option sets, rarer action types chosen as often as Moves) are played through
the public facade. At every step the legal actions (their order and key order
included) are folded into a running digest, with both colours' views every
ten actions; at the end the scenario document, both views and every history
(notation and plain English, full and censored for each colour) are folded in.
``data/engine_golden.json`` holds those digests as the engine computed them
before its Move cache and fast paths (recorded with main's code at commit
20fe7c1); any difference in what the engine offers, does or shows fails here.

A second test plays random games twice, with the per-Piece Move cache
(``moves.CACHE_MOVES``) on and off, and compares everything step by step.

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
    from games.rules.wec.exactness import choose, start_position

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


def _trace(seed: int, opts: dict[str, Any], crowded: bool, cached: bool, steps: int) -> list[Any]:
    from games.rules.wec import apply, dump_scenario, history, legal_actions, moves, view
    from games.rules.wec.exactness import choose, start_position

    moves.CACHE_MOVES = cached
    try:
        rng = random.Random(seed)
        game, _, _ = start_position(rng, opts, crowded)
        out: list[Any] = []
        for _ in range(steps):
            acts = legal_actions(game)
            out.append(acts)
            if not acts:
                break
            game = apply(game, choose(rng, acts))
            out.append([view(game, "black"), view(game, "white")])
        out.append([dump_scenario(game), history(game), history(game, "black"), history(game, "white")])
        return out
    finally:
        moves.CACHE_MOVES = True


if "pytest" in sys.modules:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from games.rules.wec.exactness import random_options

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(seed=st.integers(0, 2**32 - 1), crowded=st.booleans())
    def test_move_cache_changes_nothing(seed: int, crowded: bool) -> None:
        opts = random_options(random.Random(seed ^ 0x5EED))
        cached = _trace(seed, opts, crowded, True, 80)
        plain = _trace(seed, opts, crowded, False, 80)
        for n, (a, b) in enumerate(zip(cached, plain, strict=False)):
            assert a == b, f"step {n // 2} differs"
        assert len(cached) == len(plain)
