"""A player's saved favourite Marshal setup (one per player).  Stored as the
player sees it from Black's side (back row 1, leftmost column 1), so the same
favourite serves both colours; it is offered only when the game's board width
and zone depth match the ones it was saved for."""

from __future__ import annotations

from games.models import SetupFavourite

from .board import board_size

ENGINE = "marshal"


def _to_black(pieces: list[dict], color: str, rows: int, cols: int) -> list[dict]:
    if color == "black":
        return [{"type": p["type"], "row": p["row"], "col": p["col"]} for p in pieces]
    return [{"type": p["type"], "row": rows + 1 - p["row"], "col": cols + 1 - p["col"]} for p in pieces]


def arrangement_for(user, view: dict, color: str) -> list[dict] | None:
    if user is None or not getattr(user, "pk", None):
        return None
    fav = SetupFavourite.objects.filter(user=user, engine=ENGINE).first()
    if fav is None:
        return None
    rows, cols = board_size(view)
    data = fav.layout
    if data.get("cols") != cols or data.get("setup_rows") != view["options"]["setup_rows"]:
        return None
    return _to_black(data.get("pieces", []), color, rows, cols)  # the same flip both ways


def save(user, view: dict, color: str, pieces: list[dict]) -> None:
    rows, cols = board_size(view)
    layout = {"cols": cols, "setup_rows": view["options"]["setup_rows"], "pieces": _to_black(pieces, color, rows, cols)}
    SetupFavourite.objects.update_or_create(user=user, engine=ENGINE, defaults={"layout": layout})
