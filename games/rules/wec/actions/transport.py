"""Transport: moving (not Moving) a Piece by firing its Bike, Jump Pack or Scuba.

The Transport Articles (l. 176-178) carry their Piece one Square per Turn,
at ground, air or sub level, toward a destination chosen when fired, the
Jump Pack and Scuba rising or diving on the first Turn and landing or
surfacing on arrival (l. 206-233). Movement by Transport is non-combat
(l. 508-513); a passenger of a Sub or Chopper may start one where the options
allow (l. 519-521).
"""

from __future__ import annotations

from typing import Any

from ..constants import AIR, GROUND, LEVELS, NATIVE_LEVELS, SIZE, SUB, slot_of
from ..moves import PEACEFUL, can_land, describe
from ..state import Game, Piece
from .common import illegal, sign
from .effects import come_down, true_board

TRANSPORT_LEVEL = {"bike": GROUND, "jump_pack": AIR, "scuba": SUB}


PATHS = ("beeline", "port", "starboard")


def transport_start_ok(game: Game, p: Piece, article: str) -> bool:
    """Whether ``p`` may start a Transport by ``article`` from where it is."""
    if p.level == GROUND:
        return True
    # Off the ground only a passenger of a Sub or Chopper may start one, and
    # only with the option, and only into the level it is already at.
    if not game.options["transport_from_carrier"]:
        return False
    if TRANSPORT_LEVEL[article] != p.level or p.level in NATIVE_LEVELS.get(p.type, ()):
        return False
    carrier = "chopper" if p.level == AIR else "sub"
    return any(game.pieces[i].type == carrier and game.pieces[i].color == p.color for i in game.board[p.slot])


def check_transport_dest(g: Game, p: Piece, article: str, dest: tuple[int, int, int]) -> None:
    """Reject a Transport destination the options or the Article do not allow."""
    lv = TRANSPORT_LEVEL[article]
    row, col, level = dest
    if level != GROUND and (g.options["transport_ground_to_ground_only"] or level != lv):
        allowed = "ground" if g.options["transport_ground_to_ground_only"] else f"ground or {LEVELS[lv]}"
        raise illegal(f"a {article.replace('_', ' ')} Transport must end at {allowed} level")
    if (row, col) == (p.row, p.col) and (article == "bike" or level == p.level):
        raise illegal("a Transport must go somewhere else")
    if article != "bike" and p.level != GROUND and p.level != lv:
        raise illegal("that piece cannot start this Transport from where it is")


def route_step(row: int, col: int, to_row: int, to_col: int, path: str) -> tuple[int, int]:
    """The next Square from (row, col) toward (to_row, to_col) by king steps.

    The shortest routes mix diagonal and straight steps; ``beeline`` keeps
    them interleaved, ``port`` and ``starboard`` take first the kind of step
    that bends the route to the left or the right of the straight line.
    """
    dr, dc = to_row - row, to_col - col
    sr, sc = sign(dr), sign(dc)
    if dr == 0 or dc == 0 or abs(dr) == abs(dc):
        return row + sr, col + sc
    diag = (sr, sc)
    straight = (sr, 0) if abs(dr) > abs(dc) else (0, sc)
    n_diag = min(abs(dr), abs(dc))
    n_straight = max(abs(dr), abs(dc)) - n_diag
    if path == "beeline":
        step = diag if n_diag >= n_straight else straight
    else:
        # Left of the heading (dr, dc) is (dc, -dr) in (row, col) terms.
        bulge = (diag[0] - straight[0]) * dc + (diag[1] - straight[1]) * -dr
        diag_first = (bulge > 0) == (path == "port")
        step = diag if diag_first else straight
    return row + step[0], col + step[1]


def start_transport(g: Game, p: Piece, article: str, dest: tuple[int, int, int], path: str,
                     events: list[dict[str, Any]]) -> None:
    """Set ``p`` off by ``article``: a Bike takes its first step now, a Jump Pack or
    Scuba rises or dives."""
    lv = TRANSPORT_LEVEL[article]
    t = (article, dest[0], dest[1], dest[2], path, True)
    g.update(p.id, transport=t)
    events.append({"kind": "transport", "article": article, "piece": describe(p)})
    if article == "bike":
        transport_step(g, p.id, events)
    elif p.level != lv:
        enter(g, p.id, slot_of(p.row, p.col, lv), events)


def enter(g: Game, pid: int, slot: int, events: list[dict[str, Any]]) -> bool:
    """Take a Piece in Transport into ``slot``; False if it crashed."""
    q = g.pieces[pid]
    # Movement by Transport is non-combat (l. 510-513): a place holding
    # enemies stops the Piece just as a place it cannot share with friends
    # does; nothing is taken (docs/rulings.md, "Transports").
    if not can_land(true_board(g, q.color), slot, [q], PEACEFUL):
        events.append({"kind": "crashed", "piece": describe(q)})
        g.update(pid, transport=None)
        if q.level != GROUND:
            come_down(g, pid, events, "crash")
        return False
    sq, level = divmod(slot, 3)
    g.place(pid, sq // SIZE + 1, sq % SIZE + 1, level)
    return True


def transport_step(g: Game, pid: int, events: list[dict[str, Any]]) -> None:
    """One Square of a Transport (and the landing or surfacing on arrival)."""
    q = g.pieces[pid]
    article, to_row, to_col, to_level, path, _fresh = q.transport
    if (q.row, q.col) != (to_row, to_col):
        r, c = route_step(q.row, q.col, to_row, to_col, path)
        if not enter(g, pid, slot_of(r, c, q.level), events):
            return
        q = g.pieces[pid]
        events.append({"kind": "transported", "piece": describe(q)})
    if (q.row, q.col) == (to_row, to_col):
        if q.level != to_level and not enter(g, pid, slot_of(to_row, to_col, to_level), events):
            return
        if pid in g.pieces and g.pieces[pid].transport is not None:
            g.update(pid, transport=None)
            events.append({"kind": "arrived", "piece": describe(g.pieces[pid])})
