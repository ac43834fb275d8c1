"""The Marshal and Spy board as the template draws it, built from one side's
``view`` only (plus that side's own legal moves when it is to move).

Orientation: each side sees its own zone at the bottom.  Black's back row is
row 1, so Black's screen shows rows R..1 top to bottom and columns 1..C left
to right; White's screen is that turned 180 degrees."""

from __future__ import annotations

from django.utils.translation import gettext as _

from .words import PIECE_MARKS, piece_name

Square = tuple[int, int]


def parse_square(text) -> Square | None:
    """'r-c' -> (r, c), or None for anything else."""
    if not text:
        return None
    parts = str(text).split("-")
    if len(parts) != 2:
        return None
    try:
        row, col = int(parts[0]), int(parts[1])
    except ValueError:
        return None
    if not (1 <= row <= 30 and 1 <= col <= 30):
        return None
    return row, col


def square_key(square: Square) -> str:
    return f"{square[0]}-{square[1]}"


def board_size(view: dict) -> tuple[int, int]:
    o = view["options"]
    return 2 * o["setup_rows"] + o["neutral_rows"], o["columns"]


def zone_rows(view: dict, color: str) -> range:
    rows, _cols = board_size(view)
    n = view["options"]["setup_rows"]
    return range(1, n + 1) if color == "black" else range(rows - n + 1, rows + 1)


def token(piece: dict, viewer: str) -> dict:
    """What a square shows of a piece: never more than the view holds."""
    kind = piece.get("type", "unknown")
    own = piece.get("color") == viewer
    out = {
        "color": piece.get("color"),
        "type": kind,
        "mark": PIECE_MARKS.get(kind, "?"),
        "name": piece_name(kind),
        "own": own,
        # Own pieces: the enemy knows its type.  Enemy pieces: shown by type
        # because one of our Spies revealed it.
        "revealed": bool(piece.get("revealed")),
    }
    return out


def build_board(view: dict, viewer: str, *, selected: Square | None = None, targets=(), movable=(),
                setup: bool = False) -> dict:
    """Rows of squares in screen order for `viewer` (spectators: "black")."""
    rows, cols = board_size(view)
    volcanoes = {tuple(v) for v in view.get("volcanoes", [])}
    pieces = {(p["row"], p["col"]): p for p in view.get("pieces", [])}
    targets = set(targets)
    movable = set(movable)
    zone = set(zone_rows(view, viewer)) if setup else set()
    row_order = range(rows, 0, -1) if viewer != "white" else range(1, rows + 1)
    col_order = list(range(1, cols + 1)) if viewer != "white" else list(range(cols, 0, -1))
    grid = []
    for r in row_order:
        squares = []
        for c in col_order:
            sq = (r, c)
            piece = pieces.get(sq)
            squares.append({
                "row": r,
                "col": c,
                "key": square_key(sq),
                "volcano": sq in volcanoes,
                "piece": token(piece, viewer) if piece else None,
                "selected": sq == selected,
                "target": sq in targets,
                "movable": sq in movable,
                "zone": r in zone,
            })
        grid.append({"row": r, "squares": squares})
    return {"grid": grid, "columns": col_order, "rows": rows, "cols": cols}


def lost_summary(view: dict, viewer: str) -> dict:
    """Pieces each side has lost, as the viewer knows them: own losses by
    type, the enemy's by type where revealed (else "unknown")."""
    out = {}
    for color in ("black", "white"):
        counts: dict[str, int] = {}
        for kind in view.get("lost", {}).get(color, []):
            counts[kind] = counts.get(kind, 0) + 1
        out["own" if color == viewer else "enemy"] = [
            {"type": k, "name": piece_name(k), "mark": PIECE_MARKS.get(k, "?"), "count": n}
            for k, n in sorted(counts.items())
        ]
    return out


def known_to_enemy(view: dict, viewer: str) -> list[dict]:
    """The viewer's pieces whose type the enemy knows."""
    return [
        {"name": piece_name(p["type"]), "mark": PIECE_MARKS.get(p["type"], "?"), "square": f"{p['row']},{p['col']}"}
        for p in view.get("pieces", [])
        if p.get("color") == viewer and p.get("revealed")
    ]


def turn_hint(view: dict) -> str:
    turn = view.get("turn") or {}
    per_turn = view["options"]["moves_per_turn"]
    done = turn.get("moves", 0)
    if per_turn == 1:
        return _("Move one piece.")
    if done == 0:
        return _("Move two different pieces, one after the other.")
    return _("One more move, with a different piece.")
