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


def _trace(seed: int, opts: dict[str, Any], crowded: bool, cached: bool, steps: int) -> list[Any]:
    from games.rules.wec import apply, dump_scenario, history, legal_actions, moves, view
    from tools.engine.randomgames import choose, start_position

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

    from tools.engine.randomgames import random_options

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(seed=st.integers(0, 2**32 - 1), crowded=st.booleans())
    def test_move_cache_changes_nothing(seed: int, crowded: bool) -> None:
        opts = random_options(random.Random(seed ^ 0x5EED))
        cached = _trace(seed, opts, crowded, True, 80)
        plain = _trace(seed, opts, crowded, False, 80)
        for n, (a, b) in enumerate(zip(cached, plain, strict=False)):
            assert a == b, f"step {n // 2} differs"
        assert len(cached) == len(plain)


def _dozings_reference(game: Any, dozer: Any, kn: Any) -> list[Any]:
    """Dozing as the engine worked it out before issue 15: every combination
    of groups, every direction, Square by Square."""
    from itertools import combinations

    from games.rules.wec.constants import GROUND, SIZE
    from games.rules.wec.geometry import neighbours
    from games.rules.wec.moves import PEACEFUL, Candidate, mixed_square

    sq = dozer.sq
    here = [game.pieces[i] for i in game.board[sq * 3 + GROUND] if i != dozer.id]
    if not [q for q in here if q.color == dozer.color]:
        return []
    groups = []
    for n in neighbours(sq):
        known = kn.known(n * 3 + GROUND)
        if not known or (not game.options["doze_enemies"] and any(q.color != dozer.color for q in known)):
            continue
        groups.append((n, len(known)))
    out = []
    row0, col0 = divmod(sq, SIZE)
    for size in range(0, 5):
        for combo in combinations(groups, size):
            if sum(c for _, c in combo) > 4:
                continue
            squares = (sq,) + tuple(s for s, _ in combo)
            moving = set(squares)
            for dr, dc in ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)):
                ok = True
                for s in squares:
                    r, c = divmod(s, SIZE)
                    r, c = r + dr, c + dc
                    if not (0 <= r < SIZE and 0 <= c < SIZE):
                        ok = False
                        break
                    d = r * SIZE + c
                    if d not in moving and (not kn.empty(d * 3 + GROUND) or mixed_square(kn, d)):
                        ok = False
                        break
                if ok:
                    dest = (row0 + dr) * SIZE + (col0 + dc)
                    out.append(Candidate(dozer.id, (dest * 3 + GROUND,), PEACEFUL,
                                         doze=tuple(sorted(s for s, _ in combo)), dozing=True))
    return out


def test_dozing_matches_the_reference_on_crowded_boards() -> None:
    # Crowded scenarios put Pieces side by side, so Dozers have many groups to
    # push and many directions blocked by other groups (the bit-mask path).
    from games.rules.wec import apply, legal_actions
    from games.rules.wec.moves import Knowledge, _dozings
    from games.rules.wec.visibility import hidden_from
    from tools.engine.randomgames import choose, random_options, start_position

    checked = 0
    for seed in range(60):
        rng = random.Random(seed)
        game, _, _ = start_position(rng, random_options(rng), crowded=True)
        for _ in range(30):
            for p in list(game.pieces.values()):
                if p.type == "dozer" and p.level == 0:
                    for hidden in (hidden_from(game, p.color), frozenset()):
                        kn = Knowledge(game, p.color, hidden)
                        found = _dozings(game, p, kn)
                        assert found == _dozings_reference(game, p, kn)
                        checked += len(found) > 1
            acts = legal_actions(game)
            if not acts:
                break
            game = apply(game, choose(rng, acts))
    assert checked > 200, checked  # positions with more than one dozing
