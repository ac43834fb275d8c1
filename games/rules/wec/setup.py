"""The standard game's starting charts, written from Black's side.

Black's rows 1 and 2 are given below; White's position is the same turned half
a circle: Black's (row, col) is White's (11 - row, 11 - col). Each Tank and
Cleric gets the hand whose one path that stays on the board from the back row
ends in the enemy half (row 8) rather than back in its own: the left-wing Tank
is right-handed, the left-wing Cleric left-handed, the right wing mirrored.
Choppers follow the Tanks (docs/rulings.md, "Starting hands").

Manual: the Standard Game charts, l. 679-751.
"""

from __future__ import annotations

from typing import Any

from .constants import GOVERNMENTS, WEAPONS

# (row, col) -> list of (type, hand) for Black. "primary"/"secondary" stand for
# the government's two Pieces.
BLACK_PIECES: dict[tuple[int, int], list[tuple[str, str | None]]] = {
    (1, 1): [("tank", "right")],
    (1, 2): [("dozer", None), ("sub", None)],
    (1, 3): [("cleric", "left")],
    (1, 4): [("chopper", "right"), ("jet", None)],
    (1, 5): [("primary", None)],
    (1, 6): [("secondary", None)],
    (1, 7): [("chopper", "left"), ("jet", None)],
    (1, 8): [("cleric", "right")],
    (1, 9): [("dozer", None), ("sub", None)],
    (1, 10): [("tank", "left")],
    (2, 1): [("rocket_pawn", None)],
    (2, 2): [("stunner_pawn", None)],
    (2, 3): [("flamer_pawn", None), ("aaa", None)],
    (2, 4): [("conversion_pawn", None), ("destroyer", None)],
    (2, 5): [("stealth_pawn", None)],
    (2, 6): [("xxx_pawn", None)],
    (2, 7): [("conversion_pawn", None), ("destroyer", None)],
    (2, 8): [("flamer_pawn", None), ("aaa", None)],
    (2, 9): [("stunner_pawn", None)],
    (2, 10): [("rocket_pawn", None)],
}

# Articles on the ground, rows 3..5 (Black's half); rows 6..8 are the same
# turned half a circle. Read off the manual's Article chart.
BLACK_HALF_ARTICLES: dict[tuple[int, int], list[str]] = {
    (3, 1): ["anti_stealth"],
    (3, 2): ["torpedo_launcher"],
    (3, 3): ["bike", "sam_launcher"],
    (3, 4): ["jump_pack"],
    (3, 5): ["scuba"],
    (3, 6): ["scuba"],
    (3, 7): ["jump_pack"],
    (3, 8): ["bike", "sam_launcher"],
    (3, 9): ["torpedo_launcher"],
    (3, 10): ["stealth"],
    (4, 1): ["anti_torpedo"],
    (4, 2): ["anti_stealth"],
    (4, 3): ["sam_launcher"],
    (4, 4): ["anti_stunner"],
    (4, 5): ["anti_flamer"],
    (4, 6): ["anti_rocket"],
    (4, 7): ["anti_conversion"],
    (4, 8): ["sam_launcher"],
    (4, 9): ["anti_stealth"],
    (4, 10): ["anti_torpedo"],
    (5, 1): ["torpedo_launcher"],
    (5, 2): ["stealth"],
    (5, 3): ["anti_sam"],
    (5, 4): ["stunner"],
    (5, 5): ["xxx", "flamer"],
    (5, 6): ["xxx", "rocket_launcher"],
    (5, 7): ["conversion"],
    (5, 8): ["anti_sam"],
    (5, 9): ["stealth"],
    (5, 10): ["torpedo_launcher"],
}

# Reinforcements and their activation Squares, for Black, in White's half: the
# manual only says "deep within enemy territory" (docs/rulings.md,
# "Reinforcement activation Squares").
BLACK_REINFORCEMENTS: list[tuple[str, str | None, tuple[int, int]]] = [
    ("tank", "right", (8, 1)),
    ("sub", None, (8, 2)),
    ("jet", None, (8, 3)),
    ("aaa", None, (8, 4)),
    ("secondary", None, (8, 5)),
    ("dozer", None, (8, 6)),
    ("destroyer", None, (8, 7)),
    ("jet", None, (8, 8)),
    ("sub", None, (8, 9)),
    ("cleric", "left", (8, 10)),
]


def _mirror(rc: tuple[int, int]) -> tuple[int, int]:
    return (11 - rc[0], 11 - rc[1])


def _gov(kind: str, government: str) -> str:
    primary, secondary = GOVERNMENTS[government]
    return {"primary": primary, "secondary": secondary}.get(kind, kind)


def standard_document(options: dict[str, Any]) -> dict[str, Any]:
    """The scenario document of the standard game for the given options."""
    pieces = []
    articles = []
    reinforcements = []
    for color in ("black", "white"):
        government = options[f"{color}_government"]
        for rc, stack in BLACK_PIECES.items():
            row, col = rc if color == "black" else _mirror(rc)
            for kind, hand in stack:
                p: dict[str, Any] = {
                    "type": _gov(kind, government),
                    "color": color,
                    "row": row,
                    "col": col,
                    "level": "ground",
                    "articles": [],
                }
                if hand:
                    p["hand"] = hand
                pieces.append(p)
        if options["reinforcements"] == "normal":
            for kind, hand, rc in BLACK_REINFORCEMENTS:
                row, col = rc if color == "black" else _mirror(rc)
                r: dict[str, Any] = {"type": _gov(kind, government), "color": color, "row": row, "col": col}
                if hand:
                    r["hand"] = hand
                reinforcements.append(r)
    for rc, stack in BLACK_HALF_ARTICLES.items():
        for place in (rc, _mirror(rc)):
            for kind in stack:
                if kind in WEAPONS and options["weapon_articles"] == "none":
                    continue
                if kind == "xxx" and options["xxx_boxes"] == "none":
                    continue
                articles.append({"type": kind, "row": place[0], "col": place[1]})
    # The two Stealth Pawns start locked on to each other (Anti-Stealth lock-on).
    return {
        "to_move": "black",
        "options": dict(options),
        "pieces": pieces,
        "articles": articles,
        "reinforcements": reinforcements,
        "locks": [
            {"watcher": [2, 5, "ground"], "watched": [9, 6, "ground"]},
            {"watcher": [9, 6, "ground"], "watched": [2, 5, "ground"]},
        ],
    }
