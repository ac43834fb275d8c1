"""Reinforce: bringing a waiting reinforcement onto its activation Square.

A reinforcement is armed when a friendly Piece stands at ground level on its
activation Square and ready once that Square is left empty on a later Turn;
the Reinforce Action then places it there (l. 281-290, 578-585, one per Turn,
l. 57-59), where the side knows there is room.
"""

from __future__ import annotations

from typing import Any

from .. import fastpaths
from ..constants import GROUND, SIZE, slot_of
from ..moves import PEACEFUL, Knowledge, can_land, describe, mixed_square, remove_piece
from ..state import Game, Piece, Reinforcement
from ..visibility import hidden_from
from .budget import check_budget, note_action, restriction_error
from .common import illegal, read_square


def track_reinforcements(game: Game) -> None:
    """:func:`track_reinforcements_by_rule`, doing nothing (a fast path) when
    no Square was touched since the game was last settled, or when no
    reinforcement would change."""
    if not fastpaths.FAST_PATHS:
        track_reinforcements_by_rule(game)
        return
    waiting = game.reinforcements
    if not waiting:
        return
    d = game.derived
    if d.calm == len(d.touched):
        # Tracked when the game was last settled (Derived.calm), and no Square
        # touched since: no Piece came to or left any activation Square.
        return
    board = game.board
    pieces = game.pieces
    # The cases that change nothing, as below (most of them, most of the
    # time): when every reinforcement is one, nothing is rebuilt.
    unarmed, armed, _ = _watch(waiting)
    for base, color in unarmed:
        for i in board[base]:
            if pieces[i].color == color:
                break
        else:
            continue
        # A friendly Piece on its ground arms it.
        break
    else:
        for base, where in armed:
            # Its Square left empty, and not armed this Turn: it gets ready.
            if not (board[base] or board[base + 1] or board[base + 2] or where in game.turn.get("armed", ())):
                break
        else:
            return
    track_reinforcements_by_rule(game)


def track_reinforcements_by_rule(game: Game) -> None:
    """Arm a reinforcement when a friendly Piece stands on its activation
    Square at ground level; make it ready once that Square is left empty
    (no Piece at any level, l. 680-681) on a later Turn than the one it was
    armed in (l. 581-584): arriving and leaving within one Turn readies
    nothing. The Squares armed during the Turn in progress are kept in
    ``game.turn["armed"]`` (docs/rulings.md, "Readying a reinforcement")."""
    changed = False
    out = []
    armed_now = game.turn.get("armed", ())
    board = game.board
    pieces = game.pieces
    for r in game.reinforcements:
        if r.ready and r.armed:
            # Nothing more can change for it.
            out.append(r)
            continue
        base = ((r.row - 1) * SIZE + r.col - 1) * 3
        ids = board[base]
        if not r.armed and not ids:
            # Unarmed, nobody on its ground: nothing changes (most of them).
            out.append(r)
            continue
        if not r.armed and ids and any(pieces[i].color == r.color for i in ids):
            r = r._replace(armed=True)
            where = [r.row, r.col]
            if where not in armed_now:
                armed_now = [*armed_now, where]
                game.turn["armed"] = armed_now
            changed = True
        elif (
            r.armed
            and not r.ready
            and not ids
            and not game.board[base + 1]
            and not game.board[base + 2]
            and [r.row, r.col] not in armed_now
        ):
            r = r._replace(ready=True)
            changed = True
        out.append(r)
    if changed:
        game.reinforcements = tuple(out)


def _watch(waiting: tuple[Reinforcement, ...]) -> tuple[tuple[tuple[int, str], ...], tuple[tuple[int, list[int]], ...],
                                                         tuple[Reinforcement, ...]]:
    """What ``track_reinforcements`` looks at to see that nothing can change:
    the ground slot and colour of each unarmed reinforcement, and the
    ground slot and ``[row, col]`` of each armed one not yet ready; and the
    ready ones, in order (``reinforce_actions``). Worked out once per tuple
    of reinforcements (games share it until one changes): the last one asked
    is kept, by identity."""
    last = _WATCH[0]  # one read: (tuple, answer) is replaced as a whole
    if last[0] is waiting:
        return last[1]
    unarmed = tuple((((r.row - 1) * SIZE + r.col - 1) * 3, r.color) for r in waiting if not r.armed)
    armed = tuple((((r.row - 1) * SIZE + r.col - 1) * 3, [r.row, r.col]) for r in waiting if r.armed and not r.ready)
    ready = tuple(r for r in waiting if r.ready)
    if waiting.__class__ is tuple:  # (never changed in place: safe to keep)
        _WATCH[0] = (waiting, (unarmed, armed, ready))
    return unarmed, armed, ready


#: The reinforcements ``_watch`` was last asked about (held, so that the
#: identity check cannot meet another tuple at the same address) with its
#: answer, as one pair (threads see the pair or the one before, never a mix).
_WATCH: list[Any] = [(None, None)]


def do_reinforce(g: Game, action: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    """Carry out a ``reinforce`` action on ``g``; its log entry."""
    row, col = read_square(action.get("to"), "to")
    kind = action.get("piece_type")
    check_budget(g, "reinforce", "R", None)
    color = g.to_move
    waiting = [
        (i, r) for i, r in enumerate(g.reinforcements)
        if r.color == color and (r.row, r.col) == (row, col) and (kind is None or r.type == kind)
    ]
    if not waiting:
        raise illegal(f"you have no reinforcement {'' if kind is None else kind + ' '}waiting at ({row}, {col})")
    ready = [(i, r) for i, r in waiting if r.ready]
    if not ready:
        raise illegal(f"the reinforcement at ({row}, {col}) is not ready: a piece of yours must stand there at ground "
                   "level and then leave")
    i, r = ready[0]
    new = Piece(id=0, type=r.type, color=color, row=row, col=col, level=GROUND, hand=r.hand)
    if not reinforce_fits(g, new):
        raise illegal(f"there is no room for the reinforcement at ({row}, {col})")
    slot = slot_of(row, col, GROUND)
    for j in [j for j in g.board[slot] if g.pieces[j].color != color]:
        # Only an enemy its side could not see can be standing there.
        events.append({"kind": "taken", "piece": describe(g.pieces[j]), "slot": slot})
        remove_piece(g, j)
    placed = g.add(new)
    g.reinforcements = g.reinforcements[:i] + g.reinforcements[i + 1:]
    g.turn["reinforce"] = True
    note_action(g, "R", None)
    events.append({"kind": "reinforced", "piece": describe(placed)})
    return {"action": {"type": "reinforce", "to": [row, col], "piece_type": r.type}, "actor": describe(placed)}


def reinforce_fits(g: Game, new: Piece) -> bool:
    """Whether a reinforcement can appear on its ground place, as its side
    knows the board (like a non-combat landing)."""
    kn = Knowledge(g, new.color, hidden_from(g, new.color))
    # A Square holding a mixed pair admits no newcomer (l. 1914-1917).
    return not mixed_square(kn, new.sq) and can_land(kn, new.slot, [new], PEACEFUL)


def reinforce_actions(game: Game, out: list[dict[str, Any]]) -> None:
    """:func:`reinforce_actions_by_rule` with the ready reinforcements kept
    per tuple of reinforcements (``_watch``: a fast path)."""
    if not fastpaths.FAST_PATHS:
        reinforce_actions_by_rule(game, out)
        return
    color = game.to_move
    turn = game.turn
    if not turn["reinforce"] and not restriction_error(game, "R", None):
        seen = set()
        for r in _watch(game.reinforcements)[2]:  # the ready ones, in order
            if r.color == color and (r.row, r.col, r.type) not in seen:
                seen.add((r.row, r.col, r.type))
                if reinforce_fits(game, Piece(0, r.type, color, r.row, r.col, GROUND, r.hand)):
                    out.append({"type": "reinforce", "to": [r.row, r.col], "piece_type": r.type})


def reinforce_actions_by_rule(game: Game, out: list[dict[str, Any]]) -> None:
    """Add every legal Reinforce of the side to move to ``out`` (one a Turn,
    l. 57-59, as the Action Restriction allows): each ready reinforcement of
    its side (l. 578-585), a type on a Square once, where its side knows
    there is room (``reinforce_fits``)."""
    color = game.to_move
    if game.turn["reinforce"] or restriction_error(game, "R", None):
        return
    seen = set()
    for r in game.reinforcements:
        if r.ready and r.color == color and (r.row, r.col, r.type) not in seen:
            seen.add((r.row, r.col, r.type))
            if reinforce_fits(game, Piece(0, r.type, color, r.row, r.col, GROUND, r.hand)):
                out.append({"type": "reinforce", "to": [r.row, r.col], "piece_type": r.type})
