"""What an Action leaves behind for Pieces besides its target: coming down to the
ground, passengers stranded, sightings and lock-ons that lapse.

A stunned Piece in the air or by Transport below comes down to the ground or
is destroyed (l. 597-601); a Piece carried by a Sub or Chopper (l. 196-200)
cannot stay when its carrier is gone; a Piece that fires gives itself away
(l. 493-495); an Anti-Stealth lock-on lasts while its watcher keeps the
Article (l. 488-492).
"""

from __future__ import annotations

from typing import Any

from .. import fastpaths
from ..constants import AIR, GROUND, NATIVE_LEVELS, SIZE
from ..moves import PEACEFUL, Knowledge, can_land, describe, remove_piece
from ..state import Game, Piece


def true_board(g: Game, color: str) -> Knowledge:
    """The board as it really is, for the landing rules of ``moves``: what
    happens to a Piece is decided on the true board, not on what its side saw."""
    return Knowledge(g, color, frozenset())


def come_down(g: Game, pid: int, events: list[dict[str, Any]], cause: str) -> None:
    """Bring a Piece to the ground of its Square; destroyed if it cannot land
    there (enemies on that ground, or no room beside the friends there)."""
    q = g.pieces[pid]
    if not can_land(true_board(g, q.color), q.slot - q.level, [q], PEACEFUL):
        events.append({"kind": "destroyed", "by": cause, "piece": describe(q)})
        remove_piece(g, pid)
        return
    g.place(pid, q.row, q.col, GROUND, transport=None)
    events.append({"kind": "landed", "piece": describe(g.pieces[pid])})


def stranded(g: Game, q: Piece) -> bool:
    """A Piece away from the ground that cannot stay there: not native to the
    level, not in Transport, and no friendly Sub or Chopper carrying it."""
    if q.level == GROUND or q.level in NATIVE_LEVELS.get(q.type, ()) or q.transport is not None:
        return False
    carrier = "chopper" if q.level == AIR else "sub"
    return not any(
        g.pieces[i].type == carrier and g.pieces[i].color == q.color and i != q.id for i in g.board[q.slot]
    )


def settle_stranded(g: Game, events: list[dict[str, Any]]) -> None:
    """:func:`settle_stranded_by_rule`, looking only at the Pieces away from
    the ground (``Derived.aloft``) and, once the game was settled, only at
    those on Squares touched since (a fast path)."""
    if not fastpaths.FAST_PATHS:
        settle_stranded_by_rule(g, events)
        return
    aloft = g.derived.aloft
    if not aloft:
        return
    pieces = g.pieces
    since = g.derived.touched_since_settled()
    if since is not None:
        # Settled before (Derived.calm): a Piece aloft can only have become
        # stranded where a Square was touched since (its carrier left or
        # fell, or it moved or changed itself: the board primitives note
        # those Squares), so only the Pieces aloft there are looked at.
        if not since:
            return
        look: Any = []
        for pid in aloft:
            q = pieces.get(pid)
            if q is not None and (q.row - 1) * SIZE + q.col - 1 in since:
                look.append(pid)
    else:
        look = aloft
    for pid in look:
        q = pieces.get(pid)
        if q is not None and stranded(g, q):
            break
    else:
        # Nobody is stranded (nearly always): the loop below would change nothing.
        return
    # The Pieces away from the ground, in the board's order.
    for pid in [i for i in g.pieces if i in aloft]:
        if pid in g.pieces and stranded(g, g.pieces[pid]):
            come_down(g, pid, events, "crash")


def settle_stranded_by_rule(g: Game, events: list[dict[str, Any]]) -> None:
    """Passengers left without their carrier (it was destroyed or fell) come
    down to the ground of their Square, or are destroyed if they cannot
    (l. 196-200, 597-601): every Piece, in the board's order."""
    for pid in list(g.pieces):
        if pid in g.pieces and stranded(g, g.pieces[pid]):
            come_down(g, pid, events, "crash")


def prune_locks(g: Game) -> None:
    """A lock-on lasts while its watcher lives and still has an Anti-Stealth."""
    if g.locks:
        keep = tuple(
            (a, b) for a, b in g.locks if a in g.pieces and b in g.pieces and g.pieces[a].has("anti_stealth")
        )
        if keep != g.locks:
            g.locks = keep


def prune_revealed(g: Game) -> None:
    """:func:`prune_revealed_by_rule`, rebuilding nothing (a fast path) when
    no Square was touched since the game was settled or every sighting
    still holds."""
    if not fastpaths.FAST_PATHS:
        prune_revealed_by_rule(g)
        return
    revealed = g.revealed
    if revealed:
        since = g.derived.touched_since_settled()
        if since is not None and not since:
            # Settled before (Derived.calm) and nothing touched since: every
            # sighting held then, and one lapses only when its Piece leaves
            # or changes level, which touches the Square it was seen on.
            return
        # A sighting (id, slot) holds while that Piece is at that slot: while
        # the board lists the id there (the board primitives keep the two
        # alike), which is cheaper to ask than working the Piece's slot out.
        board = g.board
        slots = len(board)
        if since is not None:
            # Settled before: every sighting held then, so its slot is on the board.
            for pid, slot in revealed:
                if pid not in board[slot]:
                    break
            else:
                # All still hold (most of the time): nothing is rebuilt.
                return
        else:
            # (A loaded document's sighting may name a slot off the board: it
            # never holds.)
            for pid, slot in revealed:
                if not (0 <= slot < slots and pid in board[slot]):
                    break
            else:
                return
        keep = [r for r in revealed if 0 <= r[1] < slots and r[0] in board[r[1]]]
        if len(keep) != len(revealed):
            g.revealed = tuple(keep)


def prune_revealed_by_rule(g: Game) -> None:
    """Forget sightings of Pieces that have moved on or are gone: a sighting
    holds while its Piece stays where it was seen (l. 493-495)."""
    keep = tuple(r for r in g.revealed if r[0] in g.pieces and g.pieces[r[0]].slot == r[1])
    if keep != g.revealed:
        g.revealed = keep


def reveal(g: Game, pid: int) -> None:
    """Mark a Piece as seen by the enemy where it stands (it fired or took)."""
    q = g.pieces.get(pid)
    if q is not None:
        revealed = [r for r in g.revealed if r[0] != pid]
        revealed.append((pid, ((q[3] - 1) * SIZE + q[4] - 1) * 3 + q[5]))
        g.revealed = tuple(revealed)
