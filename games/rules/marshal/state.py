"""The immutable game value and the board geometry derived from its options.

The board holds the two armies (l. 12) and the volcanoes (l. 18); a piece
steps to an orthogonal neighbour (l. 6) and a Spy sees the squares around it
(l. 14)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

Square = tuple[int, int]

#: One move as the log keeps it: (piece id, from, to, defender id or None, result).
#: The result is "" for a plain step, else constants.WINS / DIES / HQ_TAKEN.
LoggedMove = tuple[int, Square, Square, "int | None", str]


@dataclass(frozen=True, slots=True)
class Piece:
    """One piece. ``revealed`` means the enemy knows its type (a Spy saw it).

    ``no_return`` is the square it may not step straight back to; under the
    ``next_turn`` option ``no_return_until`` is the last turn number in which
    that holds (None: until the piece moves elsewhere).
    """

    id: int
    color: str
    type: str
    row: int
    col: int
    revealed: bool = False
    no_return: Square | None = None
    no_return_until: int | None = None

    @property
    def square(self) -> Square:
        return (self.row, self.col)


@dataclass(frozen=True, slots=True)
class Turn:
    """A finished (or, as ``Game.current``, running) Turn: who moved and how."""

    number: int
    color: str
    moves: tuple[LoggedMove, ...]


@dataclass(frozen=True)
class Game:
    """A game of Marshal and Spy. Opaque to callers; ``apply`` returns a new one."""

    options: tuple[tuple[str, Any], ...]
    phase: str  # "setup", "play" or "over"
    ready: tuple[bool, bool]  # (black, white) has set up
    to_move: str | None
    turn_number: int
    moved: tuple[int, ...]  # ids the side to move has moved this Turn
    volcanoes: tuple[Square, ...]
    pieces: tuple[Piece, ...]  # on the board, sorted by id
    removed: tuple[Piece, ...] = ()  # taken or fallen, where they last stood
    log: tuple[Turn, ...] = ()
    current: tuple[LoggedMove, ...] = ()  # moves of the running Turn
    result: tuple[str | None, str] | None = None  # (winner, reason)
    _cache: dict[str, Any] = field(default_factory=dict, init=False, compare=False, repr=False, hash=False)

    @property
    def opts(self) -> dict[str, Any]:
        """The options as a fresh dict (callers may keep or change it)."""
        return dict(self.options)

    def opt(self, name: str) -> Any:
        o = self._cache.get("opts")
        if o is None:
            o = self._cache["opts"] = dict(self.options)
        return o[name]

    @property
    def rows(self) -> int:
        return 2 * self.opt("setup_rows") + self.opt("neutral_rows")

    @property
    def columns(self) -> int:
        return self.opt("columns")

    def board(self) -> dict[Square, Piece]:
        """Square -> piece on it (cached: the game never changes)."""
        b = self._cache.get("board")
        if b is None:
            b = {p.square: p for p in self.pieces}
            self._cache["board"] = b
        return b

    def volcano_set(self) -> frozenset[Square]:
        v = self._cache.get("volcanoes")
        if v is None:
            v = frozenset(self.volcanoes)
            self._cache["volcanoes"] = v
        return v

    def type_of(self, piece_id: int) -> str:
        """The type of any piece the game ever had, on the board or removed."""
        types = self._cache.get("types")
        if types is None:
            types = {p.id: p.type for p in self.pieces + self.removed}
            self._cache["types"] = types
        return types[piece_id]

    def piece_by_id(self, piece_id: int) -> Piece:
        ids = self._cache.get("ids")
        if ids is None:
            ids = {p.id: p for p in self.pieces + self.removed}
            self._cache["ids"] = ids
        return ids[piece_id]


def zone_rows(color: str, rows: int, setup_rows: int) -> range:
    """The rows of ``color``'s setup zone: Black's from row 1, White's the last ones."""
    if color == "black":
        return range(1, setup_rows + 1)
    return range(rows - setup_rows + 1, rows + 1)


def zone(color: str, rows: int, columns: int, setup_rows: int) -> list[Square]:
    """The zone's squares, front row first (the row nearest the enemy), then by column."""
    rs = list(zone_rows(color, rows, setup_rows))
    if color == "black":
        rs.reverse()
    cols = range(1, columns + 1) if color == "black" else range(columns, 0, -1)
    return [(r, c) for r in rs for c in cols]


@lru_cache(maxsize=16)
def _neighbour_table(rows: int, columns: int) -> dict[Square, tuple[Square, ...]]:
    table = {}
    for r in range(1, rows + 1):
        for c in range(1, columns + 1):
            table[(r, c)] = tuple(
                (r + dr, c + dc)
                for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                if 1 <= r + dr <= rows and 1 <= c + dc <= columns
            )
    return table


def neighbours(square: Square, rows: int, columns: int) -> tuple[Square, ...]:
    """The orthogonal neighbours on the board (one step, l. 6)."""
    found = _neighbour_table(rows, columns).get(square)
    if found is None:  # off the board: no neighbours on it are needed by callers
        return ()
    return found


def around(square: Square, rows: int, columns: int) -> list[Square]:
    """The up to 8 squares around ``square`` (a Spy's sight, l. 14)."""
    r, c = square
    return [
        (r + dr, c + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 1 <= r + dr <= rows and 1 <= c + dc <= columns
    ]


def other(color: str) -> str:
    return "white" if color == "black" else "black"
