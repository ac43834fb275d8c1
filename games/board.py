"""Turns an engine view (what one side knows) into template data for the board.

Only `view(game, color)` goes in, so nothing the player may not know can come out."""

from __future__ import annotations

from .selectors import LEVELS, MoveOptions

# Top to bottom inside a square.
BAND_ORDER = ("air", "ground", "sub")


def parse_place(text: str | None):
    """'r-c-level' -> (r, c, level) or None."""
    if not text:
        return None
    try:
        row, col, level = text.split("-", 2)
        row, col = int(row), int(col)
    except ValueError:
        return None
    if not (1 <= row <= 10 and 1 <= col <= 10) or level not in LEVELS:
        return None
    return (row, col, level)


def place_key(place) -> str:
    return f"{place[0]}-{place[1]}-{place[2]}"


def build_board(view: dict, color: str, options: MoveOptions | None = None, can_select: bool = False):
    rows = list(range(10, 0, -1)) if color == "black" else list(range(1, 11))
    cols = list(range(1, 11)) if color == "black" else list(range(10, 0, -1))
    by_square: dict[tuple[int, int], dict] = {}

    def square(r, c):
        return by_square.setdefault(
            (r, c),
            {"pieces": {lvl: [] for lvl in LEVELS}, "articles": [], "markers": [], "projectiles": [], "reinf": []},
        )

    for piece in view.get("pieces", []):
        r, c = piece.get("row"), piece.get("col")
        level = piece.get("level", "ground")
        if r is None or c is None:
            continue
        entry = dict(piece)
        entry["own"] = piece.get("color") == color
        square(r, c)["pieces"].setdefault(level, []).append(entry)
    for article in view.get("articles", []):
        if article.get("row") is not None:
            square(article["row"], article["col"])["articles"].append(article)
    for marker in view.get("markers", []) or []:
        if isinstance(marker, dict) and marker.get("row") is not None:
            square(marker["row"], marker["col"])["markers"].append(marker)
    for proj in view.get("projectiles", []) or []:
        if isinstance(proj, dict) and proj.get("row") is not None:
            square(proj["row"], proj["col"])["projectiles"].append(proj)

    for waiting in view.get("reinforcements", []) or []:
        if isinstance(waiting, dict) and waiting.get("row") is not None:
            square(waiting["row"], waiting["col"])["reinf"].append(waiting)

    origin = options.origin if options else None
    targets = options.targets if options else {}
    grid = []
    for r in rows:
        line = []
        for c in cols:
            data = by_square.get((r, c)) or {
                "pieces": {}, "articles": [], "markers": [], "projectiles": [], "reinf": []
            }
            bands = []
            for level in BAND_ORDER:
                pieces = data["pieces"].get(level, [])
                place = (r, c, level)
                choices = targets.get(place, [])
                bands.append(
                    {
                        "level": level,
                        "pieces": pieces,
                        "key": place_key(place),
                        "selectable": can_select and any(p["own"] for p in pieces),
                        "selected": origin == place,
                        "choices": choices,
                        "single": choices[0] if len(choices) == 1 else None,
                    }
                )
            line.append(
                {
                    "row": r,
                    "col": c,
                    "dark": (r + c) % 2 == 0,
                    "bands": bands,
                    "articles": data["articles"],
                    "markers": data["markers"],
                    "projectiles": data["projectiles"],
                    "reinf": data["reinf"],
                    "is_target": any(b["choices"] for b in bands),
                }
            )
        grid.append({"row": r, "squares": line})
    return {"grid": grid, "cols": cols, "rows": rows}
