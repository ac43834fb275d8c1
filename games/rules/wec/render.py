"""A plain-text picture of the board, for debugging and the docs.

Each Square is drawn as three cells, ``air/ground/sub``; a Piece is its
notation code, upper case for Black and lower case for White, with ``<`` or
``>`` for a left or right hand. Row 10 is at the top, as Black sees the board.

It draws the Board of l. 41-43 with its three levels (l. 183-186) and the
Piece codes of the Game History (l. 1755-1800).
"""

from __future__ import annotations

from .constants import AIR, GROUND, PIECE_CODES, SIZE, SUB
from .state import Game


def _code(game: Game, slot: int) -> str:
    parts = []
    for pid in game.board[slot]:
        p = game.pieces[pid]
        code = PIECE_CODES[p.type]
        code = code if p.color == "black" else code.lower()
        if p.hand:
            code += "<" if p.hand == "left" else ">"
        parts.append(code)
    return "+".join(parts)


def render(game: Game, articles: bool = True) -> str:
    """The whole board as text: one line per row and level, row 10 on top."""
    width = 9
    lines = ["     " + "".join(f"{c:^{width}}" for c in range(1, SIZE + 1))]
    for row in range(SIZE, 0, -1):
        for level, tag in ((AIR, "^"), (GROUND, " "), (SUB, "v")):
            cells = []
            for col in range(1, SIZE + 1):
                sq = (row - 1) * SIZE + col - 1
                cells.append(f"{_code(game, sq * 3 + level) or '.':^{width}}")
            label = f"{row:>3}{tag} " if level == GROUND else f"   {tag} "
            lines.append(label + "".join(cells))
        if articles:
            arts = []
            for col in range(1, SIZE + 1):
                sq = (row - 1) * SIZE + col - 1
                arts.append(f"{','.join(a[:4] for a in game.ground[sq]):^{width}}")
            lines.append("   _ " + "".join(arts))
    lines.append(f"{game.to_move} to move, turn {game.turn_number}")
    return "\n".join(lines)
