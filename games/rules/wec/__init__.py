"""Weaponized Chess (Wec): the rules engine's public facade.

Everything a caller needs is here; the format of every value is in
docs/engine-api.md. A :class:`Game` is immutable from the outside: ``apply``
returns a new one. All values crossing this facade are plain JSON data.

>>> g = new_game()
>>> to_move(g)
'black'
>>> g = apply(g, {"type": "move", "from": [2, 1, "ground"], "to": [3, 2, "ground"]})
>>> g = apply(g, {"type": "end_turn"})
>>> to_move(g)
'white'

It drives the whole manual: a Turn of Actions (l. 57-75), the Board of
three levels (l. 183-200), the Game History (l. 1755-1800). Which module
implements which part is in docs/engine-api.md ("Module map").
"""

from __future__ import annotations

from typing import Any

from .actions import (
    IllegalAction,
    apply,
    legal_actions,
    own_candidates,
    turn_over,
)
from .actions import (
    end_turn_allowed as end_turn_allowed,
)
from .actions import (
    move_action as move_action,
)
from .actions import (
    other_actions as other_actions,
)
from .ai import choose_action as choose_action
from .constants import ARTICLE_TYPES, GOVERNMENTS, HANDED, LEVEL_INDEX, LEVELS, PIECE_TYPES, SIZE
from .moves import Knowledge, piece_candidates
from .notation import censors, history
from .options import DEFAULTS as DEFAULT_OPTIONS
from .options import resolve as resolve_options
from .plain import plain_history
from .public import public_view
from .reader import parse_turn
from .render import render
from .replay import RecordError, record_steps, replay
from .scenario import dump_scenario, load_scenario, turn_count, turn_records
from .setup import standard_document
from .state import Game
from .undo import actions_this_turn, change_options, steps_back_to_turn, turn_actions, undo
from .view import view
from .visibility import hidden_from

__all__ = [
    "DEFAULT_OPTIONS",
    "actions_this_turn",
    "Game",
    "IllegalAction",
    "apply",
    "censors",
    "change_options",
    "dump_scenario",
    "history",
    "legal_actions",
    "load_scenario",
    "move_targets",
    "new_game",
    "outcome",
    "parse_turn",
    "RecordError",
    "plain_history",
    "public_view",
    "record_steps",
    "render",
    "replay",
    "steps_back_to_turn",
    "to_move",
    "turn_count",
    "turn_actions",
    "turn_records",
    "undo",
    "view",
    "vocabulary",
]

NAME = "wec"


def new_game(options: dict[str, Any] | None = None) -> Game:
    """The standard game, Black to move; ``options`` override the defaults.

    The standard position of each option set is built once, with Black's
    Moves worked out (the Move cache), and each call hands out a copy of it:
    a game is immutable, its options and start document shared, never changed."""
    opts = resolve_options(options)
    key = tuple(sorted(opts.items()))
    template = _STANDARD.get(key)
    if template is None:
        template = load_scenario(standard_document(opts))
        legal_actions(template)  # fills the Move cache the copies inherit
        if len(_STANDARD) >= 64:
            _STANDARD.clear()
        _STANDARD[key] = template
    game = template.copy()
    game.seal()
    # The listing memo is per game: each gets its own, starting from what
    # the template's listing built (the same for every game of these options).
    memo = template.derived.listings
    game.derived.listings = None if memo is None else {c: dict(m) for c, m in memo.items()}
    return game


#: Option set (sorted items) -> its standard game, as new_game built it.
_STANDARD: dict[tuple[tuple[str, Any], ...], Game] = {}


def vocabulary() -> dict[str, Any]:
    """The names a board editor offers: Piece and Article types, levels, the
    governments (primary and secondary type of each) and the handed types."""
    return {
        "pieces": list(PIECE_TYPES),
        "articles": list(ARTICLE_TYPES),
        "levels": list(LEVELS),
        "governments": {name: list(types) for name, types in GOVERNMENTS.items()},
        "handed": sorted(HANDED),
    }


def to_move(game: Game) -> str:
    """The colour whose Turn it is."""
    return game.to_move


def outcome(game: Game) -> dict[str, Any] | None:
    """None while the game runs, else ``{"winner": color or None, "reason": str}``."""
    return dict(game.result) if game.result else None


def move_targets(game: Game, row: int, col: int, level: str, piece: int | None = None) -> set[tuple[int, int, str]]:
    """Where the side to move's Piece at (row, col, level) may Move now.

    Where two friendly Pieces share that place the result is the union of
    both; pass ``piece`` (an id from ``view``) to ask for one of them.
    Unknown places, enemy places and a Turn whose Move is made give an empty set.
    """
    if game.result or game.turn["moved"] or turn_over(game) or level not in LEVEL_INDEX:
        return set()
    if not (1 <= row <= SIZE and 1 <= col <= SIZE):
        return set()
    color = game.to_move
    slot = ((row - 1) * SIZE + col - 1) * 3 + LEVEL_INDEX[level]
    own = [game.pieces[i] for i in game.board[slot] if game.pieces[i].color == color]
    if piece is not None:
        own = [p for p in own if p.id == piece]
    if not own:
        return set()
    allowed = own_candidates(game, only=own)
    out = set()
    for pid in allowed:
        for c in allowed[pid]:
            sq, lv = divmod(c.dest, 3)
            out.add((sq // SIZE + 1, sq % SIZE + 1, LEVELS[lv]))
    return out


__all__ += ["Knowledge", "piece_candidates", "hidden_from"]
