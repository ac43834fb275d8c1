"""The engine's fast paths: the switch that turns them off, and their list.

A fast path answers a question the rules ask (what a side cannot see, where
a Piece may Move, which actions are legal, what an action leaves behind)
faster than the rule as the manual words it: by reusing an answer worked out
for an earlier state while nothing it read has changed, by looking only at
the Pieces an index says can matter, or by a copy of a rule inlined into a
hot loop. Each must give exactly what its plain rule gives; the plain rules
are in the engine beside them, written for clarity and citing the manual
(the Move l. 57-65, each Piece's movement l. 775-1330, sight l. 108-112,
146-153, 488-495, the Actions of a Turn l. 57-75, 567-585, the Game History
l. 1755-1800).

``FAST_PATHS`` turns all of them off at once: the engine then answers every
question by its plain rule (slower, the same games). ``CACHE_MOVES`` and
``MEMO_LISTINGS`` turn off only the Move cache or only the listing memo
(each is also off while ``FAST_PATHS`` is). The switches are read when a
question is asked, so a test may flip them between two games (with
:func:`switched`); games made under one setting play on under the other.
``tests/engine/test_fast_paths.py`` plays random games under random option
sets both ways and compares every listing, view, history, outcome and
document; it also breaks a fast path on purpose to see the comparison fail.

:data:`PATHS` lists every fast path with the plain rule it must equal.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple

#: Every fast path on (the engine's normal setting); off, the plain rules.
FAST_PATHS = True
#: The Move cache (``Derived.moves``, see :mod:`.moves`) alone.
CACHE_MOVES = True
#: The listing memo (``Derived.listings``, see :mod:`.actions`) alone.
MEMO_LISTINGS = True


class FastPath(NamedTuple):
    """A fast path (``fast``, a function of the engine by its dotted name
    under ``games.rules.wec``) and the plain rule it must equal (``plain``),
    with what it saves."""

    fast: str
    plain: str
    saves: str


PATHS: tuple[FastPath, ...] = (
    FastPath("visibility.hidden_from", "visibility.hidden_by_rule",
             "the hidden sets kept on a game once it is handed out (Derived.hidden)"),
    FastPath("visibility.hidden_both", "visibility.hidden_by_rule",
             "both sides' hidden sets in one pass over the Pieces that may hide or find (Derived.special), "
             "is_stealthed and Piece.has inlined"),
    FastPath("visibility.same_sight", "visibility.hidden_by_rule",
             "an action's hidden sets taken from the state before when nothing sight reads changed"),
    FastPath("visibility.sees_sub", "visibility.sees_sub_by_rule",
             "only the Pieces that may find hidden ones looked at, Piece.has inlined"),
    FastPath("visibility.update_markers", "visibility.update_markers_by_rule",
             "nothing done when no Piece came into or went out of sight"),
    FastPath("moves.all_candidates", "moves.piece_candidates",
             "the Move cache: a Piece's Moves kept while the Squares they read answer as before"),
    FastPath("state.same_moves", "state.moves_key", "moves_key compared without building the keys"),
    FastPath("moves._try_all", "moves._try_all_by_rule",
             "Knowledge.empty and can_land inlined, the questions logged for the Move cache"),
    FastPath("moves._chopper", "moves._chopper_by_rule",
             "Knowledge.empty and can_land inlined, the questions logged for the Move cache"),
    FastPath("moves._dozings", "moves._dozings_by_rule",
             "each direction worked out once, the combinations memoized by local layout"),
    FastPath("actions.legal_actions", "actions.legal_actions_by_rule",
             "move_action inlined; the listing memo hands out a Piece's Move dicts again"),
    FastPath("actions.other_actions", "actions.other_actions_by_rule",
             "the listing memo (a Piece's direction Fires and Transport aims handed out again, "
             "its standing entry), article_actions inlined for a Piece carrying nothing"),
    FastPath("actions.fire.fire_actions", "actions.fire.fire_block",
             "fire_block inlined for the weapons a Piece may fire"),
    FastPath("actions.fire._add_targets", "actions.fire._squares_by_rule",
             "a homing target's Squares found among the Pieces away from the ground (Derived.aloft)"),
    FastPath("actions.articles.article_actions", "actions.articles.article_actions_by_rule",
             "capacity, locked_article, drop_square and exchange_reach inlined"),
    FastPath("actions.reinforce.track_reinforcements", "actions.reinforce.track_reinforcements_by_rule",
             "nothing looked at when no Square was touched since the game was last settled (Derived.calm)"),
    FastPath("actions.reinforce.reinforce_actions", "actions.reinforce.reinforce_actions_by_rule",
             "the ready reinforcements kept per tuple of reinforcements"),
    FastPath("actions.effects.settle_stranded", "actions.effects.settle_stranded_by_rule",
             "only the Pieces aloft on Squares touched since the game was last settled looked at"),
    FastPath("actions.effects.prune_revealed", "actions.effects.prune_revealed_by_rule",
             "nothing rebuilt when no Square was touched since the game was last settled"),
    FastPath("actions.record.settle_since", "actions.record.settle",
             "the primaries not listed when none was removed or converted (Derived.prims, Derived.census)"),
    FastPath("actions.turn.turn_record", "actions.turn.turn_record_by_rule",
             "a censored text taken from the full one where nothing was kept from its reader"),
    FastPath("state.Game.cool", "state.Game.update", "a change of cooldowns alone touches no index"),
)


@contextmanager
def switched(fast_paths: bool = True, cache_moves: bool = True, memo_listings: bool = True) -> Iterator[None]:
    """The switches set as given for the ``with`` block, then as they were."""
    global FAST_PATHS, CACHE_MOVES, MEMO_LISTINGS
    saved = FAST_PATHS, CACHE_MOVES, MEMO_LISTINGS
    FAST_PATHS, CACHE_MOVES, MEMO_LISTINGS = fast_paths, cache_moves, memo_listings
    try:
        yield
    finally:
        FAST_PATHS, CACHE_MOVES, MEMO_LISTINGS = saved
