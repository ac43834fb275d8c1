"""Movement geometry, read off the manual's diagrams.

Every shape is written once from the Piece's own point of view as
``(forward, right)`` steps, then turned to the board for a colour: Black's
forward is +row and its right +col; White's are both negative (the board seen
from the other side). Tables are cached per (shape, colour, Square).

Paths list every Square a Piece passes through, its landing Square last. Tanks,
Clerics and the secondary government Piece land only at the end of a path that
is exactly as long as their range option (docs/rulings.md, "Path length").

Manual: the Piece Type Movement Definitions and their diagrams,
l. 775-1107 (and the other movements, l. 1108-1330).
"""

from __future__ import annotations

from functools import cache

from .constants import SIZE, forward

Step = tuple[int, int]  # (forward, right)


def turn_right(step: Step) -> Step:
    """A quarter turn clockwise as seen from above with forward up."""
    f, r = step
    return (-r, f)


def turn_left(step: Step) -> Step:
    f, r = step
    return (r, -f)


def _rotations(path: tuple[Step, ...]) -> list[tuple[Step, ...]]:
    out = [path]
    for _ in range(3):
        path = tuple(turn_right(s) for s in path)
        out.append(path)
    return out


def _mirror(path: tuple[Step, ...]) -> tuple[Step, ...]:
    return tuple((f, -r) for f, r in path)


# --- relative path shapes, forward-facing, for a right-handed piece ---------------

def _tank_weaponized(hand: str) -> tuple[Step, ...]:
    # Four Squares straight, then diagonally toward the hand for up to four more.
    side = 1 if hand == "right" else -1
    return tuple((k, 0) for k in range(1, 5)) + tuple((4 + k, side * k) for k in range(1, 5))


def _cleric_weaponized(hand: str) -> tuple[Step, ...]:
    # Five Squares diagonally forward-right, a quarter turn toward the hand for
    # two Squares, then one more Square in the first direction.
    d = (1, 1)
    t = turn_right(d) if hand == "right" else turn_left(d)
    steps = [(d[0] * k, d[1] * k) for k in range(1, 6)]
    f, r = steps[-1]
    for _ in range(2):
        f, r = f + t[0], r + t[1]
        steps.append((f, r))
    steps.append((f + d[0], r + d[1]))
    return tuple(steps)


def _tank_straight(hand: str) -> tuple[Step, ...]:
    return tuple((k, 0) for k in range(1, 9))


def _cleric_straight(hand: str) -> tuple[Step, ...]:
    return tuple((k, k) for k in range(1, 9))


_ZIGZAG = (1, 0, -1, 0, 1, 0, -1, 0)


def _tank_zigzag(hand: str) -> tuple[Step, ...]:
    side = 1 if hand == "right" else -1
    return tuple((k, side * _ZIGZAG[k - 1]) for k in range(1, 9))


# The left spiral as drawn in the Chess of Mass Destruction diagram; the right
# Cleric's is its mirror image.
_SPIRAL_LEFT: tuple[Step, ...] = ((-1, -1), (0, -2), (1, -3), (2, -3), (3, -3), (4, -2), (5, -1), (6, 0))


def _cleric_spiral(hand: str) -> tuple[Step, ...]:
    return _SPIRAL_LEFT if hand == "left" else _mirror(_SPIRAL_LEFT)


_SHAPES = {
    ("weaponized", "tank"): _tank_weaponized,
    ("weaponized", "cleric"): _cleric_weaponized,
    ("standard_chess", "tank"): _tank_straight,
    ("standard_chess", "cleric"): _cleric_straight,
    ("mass_destruction", "tank"): _tank_zigzag,
    ("mass_destruction", "cleric"): _cleric_spiral,
}


@cache
def relative_paths(movement: str, family: str, hand: str, length: int) -> tuple[tuple[Step, ...], ...]:
    """The four paths of a Tank or Cleric family shape, cut to ``length``."""
    base = _SHAPES[(movement, family)](hand)[:length]
    return tuple(_rotations(base))


@cache
def queen_relative_paths(movement: str, tank_length: int, cleric_length: int) -> tuple[tuple[Step, ...], ...]:
    """The secondary government Piece: the Tank and Cleric paths of both hands.

    Its diagrams mark where a left and a right path meet; with both ranges at 7
    each landing Square is the end of two paths (kept: either may be open).
    """
    out: list[tuple[Step, ...]] = []
    for hand in ("left", "right"):
        for p in relative_paths(movement, "tank", hand, tank_length):
            if p not in out:
                out.append(p)
        for p in relative_paths(movement, "cleric", hand, cleric_length):
            if p not in out:
                out.append(p)
    return tuple(out)


def to_board(color: str, sq: int, steps: tuple[Step, ...]) -> tuple[int, ...] | None:
    """Absolute Square indices of ``steps`` from ``sq``; None if any is off-board."""
    fw = forward(color)
    row, col = divmod(sq, SIZE)
    out = []
    for f, r in steps:
        rr, cc = row + f * fw, col + r * fw
        if not (0 <= rr < SIZE and 0 <= cc < SIZE):
            return None
        out.append(rr * SIZE + cc)
    return tuple(out)


@cache
def board_paths(kind: str, movement: str, hand: str | None, color: str, sq: int, ranges: tuple[int, int]) -> tuple[
    tuple[int, ...], ...
]:
    """Absolute paths for a Tank, Cleric or Queen standing on ``sq``.

    ``ranges`` is (tank-like range, cleric-like range); for a Tank only the
    first is used, for a Cleric only the second.
    """
    if kind == "tank":
        rel = relative_paths(movement, "tank", hand or "right", ranges[0])
    elif kind == "cleric":
        rel = relative_paths(movement, "cleric", hand or "right", ranges[1])
    else:
        rel = queen_relative_paths(movement, ranges[0], ranges[1])
    out = []
    for p in rel:
        b = to_board(color, sq, p)
        if b is not None:
            out.append(b)
    return tuple(out)


# --- Choppers -------------------------------------------------------------------

_CHOPPER_RIGHT = {
    "weaponized": ((2, -2), (2, 1), (2, 2), (1, -2), (-1, 2), (-2, -2), (-2, -1), (-2, 2)),
    "standard_chess": ((2, -1), (2, 1), (1, -2), (1, 2), (-1, -2), (-1, 2), (-2, -1), (-2, 1)),
    "mass_destruction": ((3, 1), (2, -2), (2, 2), (1, -3), (-1, 3), (-2, -2), (-2, 2), (-3, -1)),
}


def chopper_offsets(movement: str, hand: str) -> tuple[Step, ...]:
    base = _CHOPPER_RIGHT[movement]
    return base if hand == "right" else tuple(sorted(_mirror(base), reverse=True))


@cache
def chopper_routes(movement: str, hand: str, color: str, sq: int) -> tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]:
    """For each landing Square of a Chopper on ``sq``: the air routes to it.

    A route is the tuple of Squares flown over between the start and the
    landing Square, along a shortest chain of king steps (docs/rulings.md,
    "Chopper path"). Routes are in a fixed order; the first open one is flown.
    """
    fw = forward(color)
    r0, c0 = divmod(sq, SIZE)
    out = []
    for f, r in chopper_offsets(movement, hand):
        r1, c1 = r0 + f * fw, c0 + r * fw
        if not (0 <= r1 < SIZE and 0 <= c1 < SIZE):
            continue
        routes = _king_routes(r0, c0, r1, c1)
        out.append((r1 * SIZE + c1, routes))
    return tuple(out)


@cache
def _king_routes(r0: int, c0: int, r1: int, c1: int) -> tuple[tuple[int, ...], ...]:
    """Every shortest king-step chain from (r0,c0) to (r1,c1), without ends
    (memoized: the two sides' Choppers share most of their flights)."""
    n = max(abs(r1 - r0), abs(c1 - c0))
    routes: list[tuple[int, ...]] = []

    def walk(r: int, c: int, left: int, acc: tuple[int, ...]) -> None:
        if left == 0:
            if (r, c) == (r1, c1):
                routes.append(acc[:-1])
            return
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if dr == dc == 0:
                    continue
                nr, nc = r + dr, c + dc
                if max(abs(r1 - nr), abs(c1 - nc)) <= left - 1 and 0 <= nr < SIZE and 0 <= nc < SIZE:
                    walk(nr, nc, left - 1, acc + (nr * SIZE + nc,))

    walk(r0, c0, n, ())
    # Prefer routes that stay closest to the straight line (then board order).
    def deviation(route: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        dev = 0
        for i, s in enumerate(route, 1):
            rr, cc = divmod(s, SIZE)
            er, ec = r0 + (r1 - r0) * i / n, c0 + (c1 - c0) * i / n
            dev += abs(rr - er) + abs(cc - ec)
        return (int(dev * 1000), route)

    return tuple(sorted(routes, key=deviation))


@cache
def neighbours(sq: int) -> tuple[int, ...]:
    r0, c0 = divmod(sq, SIZE)
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == dc == 0:
                continue
            r, c = r0 + dr, c0 + dc
            if 0 <= r < SIZE and 0 <= c < SIZE:
                out.append(r * SIZE + c)
    return tuple(out)


def offset(color: str, sq: int, f: int, r: int) -> int | None:
    """Square at (forward f, right r) from ``sq`` for ``color``, or None."""
    fw = forward(color)
    row, col = divmod(sq, SIZE)
    rr, cc = row + f * fw, col + r * fw
    if 0 <= rr < SIZE and 0 <= cc < SIZE:
        return rr * SIZE + cc
    return None
