"""The Move: the one Move each Turn must make (l. 57, 60-65, glossary l. 558-559).

Where each Piece may go is the movement rules of :mod:`..moves` (l. 81-95 and
each Piece type's rules), as its side knows the board; here a Move is
checked against those candidates and the Action Restriction, then carried
out: Pieces taken, a passenger carried (l. 196-200), Pieces dozed
(l. 201-205).
"""

from __future__ import annotations

from typing import Any

from ..constants import LEVELS, SIZE, slot_of
from ..moves import Candidate, all_candidates, describe, resolve
from ..state import Game, Piece
from ..visibility import hidden_from
from .budget import movers_allowed, restriction_error
from .common import IllegalAction, place_json, read_place
from .effects import prune_revealed, reveal, settle_stranded
from .record import record, settle_since
from .reinforce import track_reinforcements


def move_action(game: Game, c: Candidate) -> dict[str, Any]:
    """The action dict for a candidate Move."""
    p = game.pieces[c.piece]
    a: dict[str, Any] = {
        "type": "move",
        "piece": p.id,
        "from": [p.row, p.col, LEVELS[p.level]],
        "to": place_json(c.dest),
    }
    if c.carry is not None:
        a["carry"] = True
    if c.dozing:
        a["doze"] = [[s // SIZE + 1, s % SIZE + 1] for s in c.doze]
    return a


def own_candidates(game: Game, only: list[Piece] | None = None, shared: bool = False) -> dict[int, list[Candidate]]:
    """The side to move's candidate Moves, as it knows the board, narrowed by
    the Action Restriction (a Piece that already acted may be barred);
    ``shared`` as for ``all_candidates`` (the lists only to be read)."""
    color = game.to_move
    cands = all_candidates(game, color, hidden_from(game, color), only=only, shared=shared)
    allowed = movers_allowed(game)
    if allowed is not None:
        cands = {pid: c for pid, c in cands.items() if pid in allowed}
    return cands


def apply_move(game: Game, action: dict[str, Any]) -> Game:
    """The game after a ``move`` action."""
    color = game.to_move
    if game.turn["moved"]:
        raise IllegalAction("you have already made this Turn's Move")
    src = read_place(action.get("from"), "from")
    dst = read_place(action.get("to"), "to")
    carry = action.get("carry", False)
    if not isinstance(carry, bool):
        raise IllegalAction("'carry' must be true or false")
    doze = action.get("doze")
    doze_set: tuple[int, ...] | None = None
    if doze is not None:
        if not isinstance(doze, list) or not all(
            isinstance(x, (list, tuple)) and len(x) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in x)
            for x in doze
        ):
            raise IllegalAction("'doze' must be a list of [row, col] Squares")
        doze_set = tuple(sorted((r - 1) * SIZE + c - 1 for r, c in doze))
    src_slot = slot_of(*src)
    dst_slot = slot_of(*dst)
    pieces = game.pieces
    own = [pieces[i] for i in game.board[src_slot] if pieces[i].color == color]
    if not own:
        raise IllegalAction(f"you have no piece at ({src[0]}, {src[1]}, {LEVELS[src[2]]})")
    wanted = action.get("piece")
    if wanted is not None:
        own = [p for p in own if p.id == wanted]
        if not own:
            raise IllegalAction(f"piece {wanted!r} of yours is not at ({src[0]}, {src[1]}, {LEVELS[src[2]]})")
    allowed = own_candidates(game, only=own)
    matches: list[Candidate] = []
    for p in own:
        for c in allowed.get(p.id, ()):
            if c.path[-1] != dst_slot or (c.carry is not None) != carry:
                continue
            if (doze_set is None) != (not c.dozing):
                continue
            if doze_set is not None and c.doze != doze_set:
                continue
            matches.append(c)
    if not matches:
        why = next((restriction_error(game, "M", p.id) for p in own if restriction_error(game, "M", p.id)), None)
        if why and not any(allowed.values()):
            raise IllegalAction(why)
        raise IllegalAction(
            f"that piece cannot Move from ({src[0]}, {src[1]}, {LEVELS[src[2]]}) "
            f"to ({dst[0]}, {dst[1]}, {LEVELS[dst[2]]}) now"
        )
    if len(matches) == 1:
        cand = matches[0]
    else:
        movers = {c.piece for c in matches}
        if len(movers) > 1:
            kinds = {(game.pieces[i].type, game.pieces[i].hand, game.pieces[i].articles) for i in movers}
            if len(kinds) > 1:
                raise IllegalAction("two of your pieces there can make that Move; say which with 'piece'")
        cand = min(matches, key=lambda c: c.piece)
    g = game.copy()
    events: list[dict[str, Any]] = []
    # The notation names the passenger and the dozed Pieces as they stood.
    if cand.carry is not None:
        events.append({"kind": "carried", "piece": describe(game.pieces[cand.carry])})
    if cand.dozing:
        home = game.pieces[cand.piece].sq
        events.extend({"kind": "dozed_piece", "piece": describe(game.pieces[i])}
                      for s in (home,) + cand.doze for i in game.board[s * 3] if i != cand.piece)
    resolve(g, cand, events)
    for e in events:
        if e["kind"] == "taken":
            # A Piece that takes gives itself away where it now stands.
            reveal(g, cand.piece)
            break
    settle_stranded(g, events)
    prune_revealed(g)
    turn = g.turn
    turn["moved"] = True
    turn["actors"].append(cand.piece)
    turn["sequence"].append("M")
    track_reinforcements(g)
    # Settled here: the next action's aftermath looks only where it touches.
    g.derived.settled()
    record(game, g, move_action(game, cand), events, {"actor": describe(pieces[cand.piece])})
    settle_since(game, g, color)
    return g
