"""The listing memo (``actions.MEMO_LISTINGS``, wave 9) changes nothing.

Listings hand out again the action dicts an earlier listing of the same side
built (listed actions are read only, docs/engine-api.md, wave 9). Seeded
random games (standard and crowded, random options, rarer actions played as
often as Moves) check at every step that the listing equals one built
without the memo, and at the end that every dict any listing handed out is
still what it was when listed (nothing in the engine changed a shared one)
and that the memo did hand out dicts again (so the test exercises it); the
games themselves play the same with the memo on and off.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from games.rules.wec import actions, apply, dump_scenario, history, legal_actions, view
from games.rules.wec.exactness import choose, random_options, start_position


def _fresh_listing(game: Any) -> list[dict[str, Any]]:
    actions.MEMO_LISTINGS = False
    try:
        return legal_actions(game)
    finally:
        actions.MEMO_LISTINGS = True


def _play(seed: int, crowded: bool, steps: int) -> tuple[list[Any], int]:
    """The trace of a game with the memo on, checked step by step against
    fresh listings; and how many listed dicts were ones listed before."""
    rng = random.Random(seed)
    opts = random_options(random.Random(seed ^ 0x5EED)) if seed % 2 else None
    if opts is None:
        from games.rules.wec import new_game

        game = new_game()
    else:
        game, _, _ = start_position(rng, opts, crowded)
    listed: list[tuple[list[dict[str, Any]], list[dict[str, Any]]]] = []
    seen: set[int] = set()
    again = 0
    trace: list[Any] = []
    for step in range(steps):
        acts = legal_actions(game)
        assert acts == _fresh_listing(game), f"seed {seed} step {step}: the memo's listing differs"
        again += sum(1 for a in acts if id(a) in seen)
        seen.update(id(a) for a in acts)
        listed.append((acts, copy.deepcopy(acts)))
        trace.append(acts)
        if not acts:
            break
        game = apply(game, choose(rng, acts))
        trace.append([view(game, "black"), view(game, "white")])
    trace.append([dump_scenario(game), history(game), history(game, "black"), history(game, "white")])
    for n, (acts, was) in enumerate(listed):
        assert acts == was, f"seed {seed}: a dict listed at step {n} was changed afterwards"
    return trace, again


def _plain_trace(seed: int, crowded: bool, steps: int) -> list[Any]:
    actions.MEMO_LISTINGS = False
    try:
        rng = random.Random(seed)
        opts = random_options(random.Random(seed ^ 0x5EED)) if seed % 2 else None
        if opts is None:
            from games.rules.wec import new_game

            game = new_game()
        else:
            game, _, _ = start_position(rng, opts, crowded)
        trace: list[Any] = []
        for _ in range(steps):
            acts = legal_actions(game)
            trace.append(acts)
            if not acts:
                break
            game = apply(game, choose(rng, acts))
            trace.append([view(game, "black"), view(game, "white")])
        trace.append([dump_scenario(game), history(game), history(game, "black"), history(game, "white")])
        return trace
    finally:
        actions.MEMO_LISTINGS = True


def test_listing_memo_changes_nothing() -> None:
    total = 0
    for seed in range(12):
        crowded = seed % 4 == 1
        memo, again = _play(seed, crowded, 90)
        total += again
        assert memo == _plain_trace(seed, crowded, 90), f"seed {seed}: the game differs without the memo"
    assert total > 1000, "the memo handed out few dicts again: the test hardly exercises it"


def test_memo_is_per_colour_and_carried_by_copies() -> None:
    from games.rules.wec import new_game

    game = new_game()
    acts = legal_actions(game)
    assert game.lmemo is not None and set(game.lmemo) == {"black", "white"}
    assert game.lmemo["white"] == {}
    after = apply(game, next(a for a in acts if a["type"] == "move"))
    assert after.lmemo is game.lmemo
    # Each new game has its own memo (what one game lists reaches no other).
    other = new_game()
    assert other.lmemo is not None and other.lmemo["black"] is not game.lmemo["black"]
