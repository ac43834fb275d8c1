"""The listing memo (``actions.MEMO_LISTINGS``, wave 9) changes nothing.

Listings hand out again the action dicts an earlier listing of the same side
built (listed actions are read only, docs/engine-api.md, wave 9). Seeded
random games (standard and crowded, random options, rarer actions played as
often as Moves) are played with the memo on and off and compared step by
step: every listing, both views after every action, the document and the
histories. The trace with the memo on holds every dict it listed, so a dict
changed after it was listed (by the engine, for a later listing or an
apply) would differ from the trace built without the memo, whose dicts are
never shared. The memo must also have handed out dicts again (so the test
exercises it).
"""

from __future__ import annotations

import random
from typing import Any

from games.rules.wec import actions, apply, legal_actions, new_game
from tools.engine.randomgames import random_options

from .test_engine_golden import _trace


def _memo_trace(seed: int, opts: dict[str, Any], crowded: bool, memo: bool) -> list[Any]:
    actions.MEMO_LISTINGS = memo
    try:
        return _trace(seed, opts, crowded, True, 90)
    finally:
        actions.MEMO_LISTINGS = True


def test_listing_memo_changes_nothing() -> None:
    again = 0
    for seed in range(12):
        opts = random_options(random.Random(seed ^ 0x5EED))
        crowded = seed % 3 != 0
        with_memo = _memo_trace(seed, opts, crowded, True)
        assert with_memo == _memo_trace(seed, opts, crowded, False), f"seed {seed}: the memo changes the game"
        # Every second entry is a listing (the trace keeps them all alive:
        # ids are unique among them).
        ids = [
            id(a) for acts in with_memo[0::2] if isinstance(acts, list) for a in acts if isinstance(a, dict)
        ]
        again += len(ids) - len(set(ids))
    assert again > 1000, "the memo handed out few dicts again: the test hardly exercises it"


def test_memo_is_per_colour_and_carried_by_copies() -> None:
    game = new_game()
    acts = legal_actions(game)
    assert game.lmemo is not None and set(game.lmemo) == {"black", "white"}
    assert game.lmemo["white"] == {}
    after = apply(game, next(a for a in acts if a["type"] == "move"))
    assert after.lmemo is game.lmemo
    # Each new game has its own memo (what one game lists reaches no other).
    other = new_game()
    assert other.lmemo is not None and other.lmemo["black"] is not game.lmemo["black"]
