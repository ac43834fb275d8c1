"""What each side knows: ``view`` and the (censored) ``history``.

A side sees every piece's place; it knows the type of its own pieces, of
enemy pieces its Spies revealed (l. 4, 14), and, once the game is over, of
every piece. Nothing here reads an enemy type unless that type is revealed
to the reader, so two games that differ only in such types read the same.
"""

from __future__ import annotations

from typing import Any

from .constants import LETTER, RANKS
from .state import Game, LoggedMove, Piece, Turn


def _knows(game: Game, piece: Piece, color: str | None) -> bool:
    return color is None or game.phase == "over" or piece.color == color or piece.revealed


def _piece_view(game: Game, p: Piece, color: str) -> dict[str, Any]:
    if p.color == color:
        out: dict[str, Any] = {"id": p.id, "color": p.color, "type": p.type}
        if p.type in RANKS:
            out["rank"] = RANKS[p.type]
        out.update(
            row=p.row,
            col=p.col,
            revealed=p.revealed,
            no_return=list(p.no_return) if p.no_return else None,
        )
        return out
    if _knows(game, p, color):
        out = {"color": p.color, "type": p.type}
        if p.type in RANKS:
            out["rank"] = RANKS[p.type]
        out.update(row=p.row, col=p.col, revealed=p.revealed)
        return out
    return {"color": p.color, "type": "unknown", "row": p.row, "col": p.col}


def view(game: Game, color: str) -> dict[str, Any]:
    """What ``color`` knows (format in docs/engine-api.md)."""
    if color not in ("black", "white"):
        raise ValueError(f"unknown colour {color!r}")
    both_ready = all(game.ready)
    shown = [p for p in game.pieces if p.color == color or both_ready]
    pieces = [_piece_view(game, p, color) for p in sorted(shown, key=lambda p: p.square)]
    # Pieces each side has lost, as the reader knows them: its own by type,
    # the enemy's by type only where revealed (else "unknown").
    lost: dict[str, list[str]] = {"black": [], "white": []}
    for p in game.removed:
        lost[p.color].append(p.type if _knows(game, p, color) else "unknown")
    for kinds in lost.values():
        kinds.sort()
    turn = None
    if game.phase == "play" and game.to_move == color:
        turn = {
            "moves": len(game.moved),
            "moved": list(game.moved),
            # the running turn's moves so far, as the mover itself made them
            "notation": [move_text(game, m, color) for m in game.current],
        }
    return {
        "color": color,
        "phase": game.phase,
        "to_move": game.to_move,
        "turn_number": game.turn_number,
        "options": game.opts,
        "ready": {"black": game.ready[0], "white": game.ready[1]},
        "turn": turn,
        "volcanoes": [list(v) for v in game.volcanoes],
        "pieces": pieces,
        "lost": lost,
        "outcome": None if game.result is None else {"winner": game.result[0], "reason": game.result[1]},
        "history": history(game, color),
    }


def _letter(game: Game, piece_id: int, color: str | None) -> str:
    p = game.piece_by_id(piece_id)
    return LETTER[p.type] if _knows(game, p, color) else "?"


def move_text(game: Game, move: LoggedMove, color: str | None) -> str:
    """One move in the notation: ``3(4,5)-(5,5)`` or ``3(4,5)x?(5,5)+``."""
    pid, a, b, defender, result = move
    text = f"{_letter(game, pid, color)}({a[0]},{a[1]})"
    if defender is None:
        return f"{text}-({b[0]},{b[1]})"
    return f"{text}x{_letter(game, defender, color)}({b[0]},{b[1]}){result}"


def turn_text(game: Game, turn: Turn, color: str | None) -> str:
    moves = ", ".join(move_text(game, m, color) for m in turn.moves)
    return f"{turn.number}. {'B' if turn.color == 'black' else 'W'}: {moves}"


def history(game: Game, color: str | None = None) -> list[str]:
    """One string per finished turn (and the turn the game ended in), censored
    for ``color`` while the game runs; complete for ``color=None`` and once over."""
    if color is not None and color not in ("black", "white"):
        raise ValueError(f"unknown colour {color!r}")
    out = [turn_text(game, t, color) for t in game.log]
    if game.result is not None and out:
        winner, reason = game.result
        out[-1] += f" {{{'draw' if winner is None else winner + ' wins'}: {reason}}}"
    return out
