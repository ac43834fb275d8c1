"""What every Action shares: the error a rejected action raises, and reading an
action's fields (places, Squares, directions, Articles, the acting Piece).

The Actions themselves are listed in l. 57-75 of the manual (a Move, up to two
Fires, a Pick-up, a Drop, an Exchange and a Reinforce per Turn); a stunned
Piece may not act (l. 119-124). Error messages speak only of what the acting
side can know.
"""

from __future__ import annotations

from typing import Any

from ..constants import ARTICLE_TYPES, KING_STEPS, LEVEL_INDEX, LEVELS, SIZE, slot_of
from ..state import Game, Piece


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message is for the player."""


ACTION_TYPES = ("move", "fire", "pickup", "drop", "exchange", "reinforce", "end_turn")


DIRECTIONS: tuple[tuple[int, int], ...] = tuple((f, r) for f, r in KING_STEPS)  # (row step, col step)


def illegal(message: str) -> Exception:
    """The :class:`IllegalAction` to raise with ``message``."""
    return IllegalAction(message)


def sign(x: int) -> int:
    """-1, 0 or 1: the sign of ``x`` (a step toward a Square)."""
    return (x > 0) - (x < 0)


def on_board(row: int, col: int) -> bool:
    """Whether (row, col) is a Square of the Board."""
    return 1 <= row <= SIZE and 1 <= col <= SIZE


def dist(a: tuple[int, int], b: tuple[int, int]) -> int:
    """The distance in king steps between two Squares."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def read_place(value: Any, what: str) -> tuple[int, int, int]:
    """An action's ``[row, col, level]`` field as (row, col, level index)."""
    if value.__class__ is list and len(value) == 3:
        # The usual form (a listed action's): plain ints on the board and a
        # level name, accepted at once; anything else goes through the
        # checks below, which decide it (and word the error).
        row, col, level = value
        if row.__class__ is int and col.__class__ is int and 1 <= row <= SIZE and 1 <= col <= SIZE:
            index = LEVEL_INDEX.get(level)
            if index is not None:
                return row, col, index
    # The checks in the order they always ran (a level is looked up only
    # once row and column are whole numbers), without a generator: every
    # applied action reads a place or two.
    if not (isinstance(value, (list, tuple)) and len(value) == 3):
        raise IllegalAction(f"'{what}' must be [row, col, level] with level ground, air or sub")
    row, col, level = value
    if not (
        isinstance(row, int) and not isinstance(row, bool)
        and isinstance(col, int) and not isinstance(col, bool)
        and level in LEVEL_INDEX
    ):
        raise IllegalAction(f"'{what}' must be [row, col, level] with level ground, air or sub")
    if not (1 <= row <= SIZE and 1 <= col <= SIZE):
        raise IllegalAction(f"'{what}' ({row}, {col}) is off the board")
    return row, col, LEVEL_INDEX[level]


def place_json(slot: int) -> list[Any]:
    """The ``[row, col, level]`` of a board slot."""
    return list(PLACES[slot])


#: slot -> (row, col, level name), for :func:`place_json`.
PLACES = tuple((sq // SIZE + 1, sq % SIZE + 1, LEVELS[lv]) for sq in range(SIZE * SIZE) for lv in range(3))


def read_square(value: Any, what: str) -> tuple[int, int]:
    """An action's ``[row, col]`` field (a level, if given, is ignored)."""
    if (
        not isinstance(value, (list, tuple))
        or len(value) not in (2, 3)
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value[:2])
    ):
        raise illegal(f"'{what}' must be [row, col]")
    row, col = value[0], value[1]
    if not on_board(row, col):
        raise illegal(f"'{what}' ({row}, {col}) is off the board")
    return row, col


def read_direction(value: Any) -> tuple[int, int]:
    """An action's ``direction``: a king step as (row step, column step)."""
    if value.__class__ is list and len(value) == 2:
        # The usual form, two plain ints (a listed Fire's), accepted without
        # the generic checks below (which decide everything else).
        dr, dc = value
        if dr.__class__ is int and dc.__class__ is int and -1 <= dr <= 1 and -1 <= dc <= 1 and (dr or dc):
            return dr, dc
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) and -1 <= v <= 1 for v in value)
        or value[0] == value[1] == 0
    ):
        raise illegal("'direction' must be [row step, column step], each -1, 0 or 1, not both 0")
    return value[0], value[1]


def read_article(action: dict[str, Any], key: str = "article") -> str:
    """An action's Article type field."""
    art = action.get(key)
    if art not in ARTICLE_TYPES:
        raise illegal(f"'{key}' must be an Article type")
    return art


def acting_piece(game: Game, action: dict[str, Any], key: str = "from", piece_key: str = "piece",
           wants: Any = None) -> Piece:
    """The acting own Piece named by a place (and optionally an id)."""
    row, col, level = read_place(action.get(key), key)
    color = game.to_move
    pieces = game.pieces
    own = [pieces[i] for i in game.board[slot_of(row, col, level)] if pieces[i].color == color]
    if not own:
        raise illegal(f"you have no piece at ({row}, {col}, {LEVELS[level]})")
    wanted = action.get(piece_key)
    if wanted is not None:
        own = [p for p in own if p.id == wanted]
        if not own:
            raise illegal(f"piece {wanted!r} of yours is not at ({row}, {col}, {LEVELS[level]})")
    if len(own) == 1:
        return own[0]
    if wants is not None:
        fitting = [p for p in own if wants(p)]
        if fitting:
            own = fitting
    return min(own, key=lambda p: p.id)


def check_awake(p: Piece) -> None:
    """Reject an action by a stunned Piece (l. 119-124)."""
    if p.stun > 0:
        raise illegal(f"that {p.type.replace('_', ' ')} is stunned and cannot act")
