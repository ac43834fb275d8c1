"""The point-and-click board editor: one click, one change to the position.

The position lives in the editor's text (games/scenario_text.py), which the
page posts with every click: the server parses it, makes the change, checks the
result with the engine's own ``load_scenario`` and renders the editor again
with the new text.  So the text form stays the single source of truth, works
without scripts (each Square is a submit button of the same form), and a click
keeps nothing on the server.  Comments in the text are not kept by a click.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from games.engines import get_engine

from .scenario_text import COLORS, LEVELS, ScenarioTextError, check, parse, to_text

_VOCABULARY = get_engine("wec").vocabulary()
PIECE_TYPES: tuple[str, ...] = tuple(_VOCABULARY["pieces"])
ARTICLE_TYPES: tuple[str, ...] = tuple(_VOCABULARY["articles"])
GOVERNMENTS: dict[str, list[str]] = _VOCABULARY["governments"]
HANDED = frozenset(_VOCABULARY["handed"])

KINDS = ("piece", "article", "reinforcement")
TOOLS = ("place", "remove", "move")
GOVERNMENT_NAMES = tuple(GOVERNMENTS)


@dataclass
class Palette:
    """What a click on a Square does, as the form sent it."""

    tool: str = "place"
    kind: str = "piece"
    piece: str = "king"
    article: str = "bike"
    color: str = "black"
    level: str = "ground"
    hand: str = "right"
    held: str = ""  # "pieces:3": the thing picked up by the move tool

    @classmethod
    def from_post(cls, data) -> Palette:
        def pick(name: str, allowed, default: str) -> str:
            value = data.get(name, default)
            return value if value in allowed else default

        return cls(
            tool=pick("tool", TOOLS, "place"),
            kind=pick("kind", KINDS, "piece"),
            piece=pick("piece", PIECE_TYPES, "king"),
            article=pick("article", ARTICLE_TYPES, "bike"),
            color=pick("color", COLORS, "black"),
            level=pick("level", LEVELS, "ground"),
            hand=pick("hand", ("left", "right"), "right"),
            held=data.get("held", "")[:20],
        )


class EditorError(ValueError):
    def __init__(self, message: str, square: tuple[int, int] | None = None):
        super().__init__(message)
        self.message, self.square = message, square


def parse_square(value: str) -> tuple[int, int]:
    try:
        row, col = (int(x) for x in value.split(","))
    except ValueError:
        raise EditorError(_("That is not a Square of the board.")) from None
    if not (1 <= row <= 10 and 1 <= col <= 10):
        raise EditorError(_("That is not a Square of the board."))
    return row, col


def _at(doc: dict, key: str, row: int, col: int) -> list[int]:
    return [n for n, item in enumerate(doc.get(key, [])) if (item["row"], item["col"]) == (row, col)]


def _first_here(doc: dict, row: int, col: int, level: str) -> tuple[str, int] | None:
    """The thing a remove or a pick-up takes from a Square: a piece at the
    palette's level first, then any piece, a reinforcement, an Article."""
    pieces = _at(doc, "pieces", row, col)
    same_level = [n for n in pieces if doc["pieces"][n].get("level", "ground") == level]
    for key, found in (("pieces", same_level), ("pieces", pieces), ("reinforcements", _at(doc, "reinforcements", row, col)),
                       ("articles", _at(doc, "articles", row, col))):
        if found:
            return key, found[0]
    return None


def click(doc: dict, palette: Palette, square: tuple[int, int]) -> tuple[dict, str]:
    """The position after a click on ``square``, and the new ``held`` value."""
    row, col = square
    doc = {**doc, "pieces": list(doc.get("pieces", [])), "articles": list(doc.get("articles", [])),
           "reinforcements": list(doc.get("reinforcements", []))}
    if palette.tool == "remove":
        found = _first_here(doc, row, col, palette.level)
        if found is None:
            raise EditorError(_("There is nothing here to remove."), square)
        del doc[found[0]][found[1]]
        return doc, ""
    if palette.tool == "move":
        if not palette.held:
            found = _first_here(doc, row, col, palette.level)
            if found is None:
                raise EditorError(_("There is nothing here to pick up."), square)
            return doc, f"{found[0]}:{found[1]}"
        key, _sep, index = palette.held.partition(":")
        try:
            item = doc[key][int(index)] if key in ("pieces", "articles", "reinforcements") else None
        except (ValueError, IndexError):
            item = None
        if item is None:
            raise EditorError(_("The piece picked up is no longer there; pick it up again."), square)
        doc[key][int(index)] = {**item, "row": row, "col": col}
        return doc, ""
    if palette.kind == "article":
        doc["articles"].append({"type": palette.article, "row": row, "col": col})
    else:
        item = {"type": palette.piece, "color": palette.color, "row": row, "col": col}
        if palette.piece in HANDED:
            item["hand"] = palette.hand
        if palette.kind == "piece":
            item.update(level=palette.level, articles=[])
            doc["pieces"].append(item)
        else:
            doc["reinforcements"].append(item)
    return doc, ""


def government_of(doc: dict, color: str) -> str:
    """The side's government, read from its primary or secondary piece."""
    types = {p["type"] for p in doc.get("pieces", []) + doc.get("reinforcements", []) if p["color"] == color}
    for name, members in GOVERNMENTS.items():
        if types & set(members):
            return name
    return "monarchy"


def set_government(doc: dict, color: str, government: str) -> dict:
    """Every primary and secondary piece of ``color`` becomes the new
    government's (a King becomes a Dictator, a Queen an Assassin, ...)."""
    if government not in GOVERNMENTS:
        raise EditorError(_("Unknown government."))
    new = GOVERNMENTS[government]
    swap = {old[i]: new[i] for old in GOVERNMENTS.values() for i in (0, 1)}

    def change(items: list) -> list:
        return [{**p, "type": swap.get(p["type"], p["type"])} if p["color"] == color else p for p in items]

    return {**doc, "pieces": change(doc.get("pieces", [])), "reinforcements": change(doc.get("reinforcements", []))}


def squares(doc: dict, held: str = "") -> list[list[dict]]:
    """The editor's grid, row 10 at the top (Black's side at the bottom, as
    the game board shows it to Black): each Square with what stands on it."""
    grid = []
    for row in range(10, 0, -1):
        line = []
        for col in range(1, 11):
            here = {
                "row": row, "col": col,
                "pieces": [doc["pieces"][n] for n in _at(doc, "pieces", row, col)],
                "articles": [doc["articles"][n] for n in _at(doc, "articles", row, col)],
                "reinforcements": [doc["reinforcements"][n] for n in _at(doc, "reinforcements", row, col)],
            }
            here["held"] = bool(held) and any(
                f"{key}:{n}" == held for key in ("pieces", "articles", "reinforcements") for n in _at(doc, key, row, col)
            )
            line.append(here)
        grid.append(line)
    return grid


def edit(text: str, data) -> tuple[str, str, EditorError | None]:
    """Apply the posted click (or government change) to the text.  Returns
    the new text, the new ``held``, and the engine's complaint about the
    result (the change is kept: a position is often wrong half-way through)."""
    palette = Palette.from_post(data)
    try:
        doc = parse(text)
    except ScenarioTextError as exc:
        raise EditorError(exc.message) from None
    held = palette.held
    if data.get("what") == "government":
        for color in COLORS:
            wanted = data.get(f"government_{color}")
            if wanted is not None and wanted != government_of(doc, color):
                doc = set_government(doc, color, wanted)
        held = ""
    elif data.get("square"):
        doc, held = click(doc, palette, parse_square(data["square"]))
    problem = None
    try:
        check(doc)
    except ScenarioTextError as exc:
        problem = EditorError(exc.message, exc.square)
    return to_text(doc), held, problem
