"""Described positions for the engine's tests: scenario documents built from
a few Pieces and Articles, and the actions played on them (Fires, Articles,
Transports, Action Restrictions). Not collected by pytest itself.

Manual: shared/seeds/001_e7d07cd680448a43.txt; contract: docs/engine-api.md.
Squares are (row, col); Black moves first and its forward is +row, its left
-col. Each test scenario holds only the pieces it lists plus (by default) the
two kings, parked in the corners of column 1 and shuffled between two Squares
when a side needs a harmless Move.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import games.rules.wec as wec

# Every enemy in plain sight unless a test says otherwise.
VISIBLE = {"stealth_invisibility": False, "submersion_invisibility": False}
ENEMY = {"black": "white", "white": "black"}
# Each king shuffles between two Squares of its back row, far from the action.
KING_SQUARES = {"black": ((1, 1), (1, 2)), "white": ((10, 1), (10, 2))}


def P(kind: str, color: str, row: int, col: int, level: str = "ground", **extra: Any) -> dict:
    d = {"type": kind, "color": color, "row": row, "col": col, "level": level}
    d.update(extra)
    return d


def A(kind: str, row: int, col: int) -> dict:
    return {"type": kind, "row": row, "col": col}


def KINGS() -> list[dict]:
    return [P("king", "black", *KING_SQUARES["black"][0]), P("king", "white", *KING_SQUARES["white"][0])]


def make(pieces, articles=(), *, to_move="black", options=None, reinforcements=(), kings=True, visible=True):
    opts = dict(VISIBLE) if visible else {}
    opts.update(options or {})
    doc = {
        "to_move": to_move,
        "options": opts,
        "pieces": (KINGS() if kings else []) + list(pieces),
        "articles": list(articles),
        "reinforcements": list(reinforcements),
    }
    return wec.load_scenario(doc)


# --- actions ---------------------------------------------------------------------------


def place(row, col, level="ground") -> list:
    return [row, col, level]


def fire(frm, weapon, direction=None, *, target=None, to=None, path=None, piece=None) -> dict:
    a: dict[str, Any] = {"type": "fire", "from": list(frm), "weapon": weapon}
    if len(a["from"]) == 2:
        a["from"].append("ground")
    if direction is not None:
        a["direction"] = list(direction)
    if target is not None:
        a["target"] = list(target)
    if to is not None:
        a["to"] = list(to)
    if path is not None:
        a["path"] = path
    if piece is not None:
        a["piece"] = piece
    return a


def move(frm, to, **extra) -> dict:
    frm, to = list(frm), list(to)
    if len(frm) == 2:
        frm.append("ground")
    if len(to) == 2:
        to.append("ground")
    a = {"type": "move", "from": frm, "to": to}
    a.update(extra)
    return a


def pickup(frm, article, **extra) -> dict:
    frm = list(frm) + (["ground"] if len(frm) == 2 else [])
    return {"type": "pickup", "from": frm, "article": article, **extra}


def drop(frm, article, **extra) -> dict:
    frm = list(frm) + (["ground"] if len(frm) == 2 else [])
    return {"type": "drop", "from": frm, "article": article, **extra}


def exchange(frm, article, to, swap=None, **extra) -> dict:
    frm = list(frm) + (["ground"] if len(frm) == 2 else [])
    to = list(to) + (["ground"] if len(to) == 2 else [])
    a = {"type": "exchange", "from": frm, "article": article, "to": to, **extra}
    if swap is not None:
        a["swap"] = swap
    return a


def reinforce(row, col, piece_type) -> dict:
    return {"type": "reinforce", "to": [row, col], "piece_type": piece_type}


END = {"type": "end_turn"}


def apply(g, *actions):
    for a in actions:
        g = wec.apply(g, a)
    return g


def assert_illegal(g, action):
    """The action raises IllegalAction (a ValueError) and leaves the game as it was."""
    before = wec.dump_scenario(g)
    with pytest.raises(wec.IllegalAction):
        wec.apply(g, action)
    assert wec.dump_scenario(g) == before


# --- turns -----------------------------------------------------------------------------


def king_move(g) -> dict:
    """The side to move's king steps to its other parking Square."""
    color = wec.to_move(g)
    home, alt = KING_SQUARES[color]
    for p in wec.dump_scenario(g)["pieces"]:
        if p["type"] == "king" and p["color"] == color:
            here = (p["row"], p["col"])
            return move(here, alt if here == home else home)
    raise AssertionError(f"no {color} king")


def moved(g) -> bool:
    return wec.view(g, wec.to_move(g))["turn"]["moved"]


def finish(g):
    """Make the Turn's Move if it is not made yet (the king shuffles; if that
    is refused, the first legal Move), then end the Turn."""
    if not moved(g):
        try:
            g = wec.apply(g, king_move(g))
        except wec.IllegalAction:
            moves = [a for a in wec.legal_actions(g) if a["type"] == "move"]
            if moves:
                g = wec.apply(g, moves[0])
    return wec.apply(g, END)


def rounds(g, n=1):
    """n times: the side to move finishes its Turn, then the other side does."""
    for _ in range(n):
        g = finish(finish(g))
    return g


# --- reading the board -----------------------------------------------------------------


def pieces(g) -> list[dict]:
    return wec.dump_scenario(g)["pieces"]


def at(g, row, col, level="ground") -> list[tuple[str, str]]:
    """Sorted (type, color) of the Pieces at a place."""
    return sorted((p["type"], p["color"]) for p in pieces(g) if (p["row"], p["col"], p["level"]) == (row, col, level))


def find(g, kind, color=None) -> list[dict]:
    return [p for p in pieces(g) if p["type"] == kind and (color is None or p["color"] == color)]


def the(g, kind, color=None) -> dict:
    found = find(g, kind, color)
    assert len(found) == 1, found
    return found[0]


def where(p: dict) -> tuple:
    return (p["row"], p["col"], p["level"])


def pid(g, row, col, level, kind) -> int:
    """Id of the Piece of that type at that place."""
    found = [p for p in pieces(g) if (p["row"], p["col"], p["level"], p["type"]) == (row, col, level, kind)]
    assert len(found) == 1, found
    return found[0]["id"]


def by_id(g, ident) -> dict | None:
    for p in pieces(g):
        if p["id"] == ident:
            return p
    return None


def own_view(g, color, ident) -> dict:
    """The view entry of one of ``color``'s own Pieces (ids are in its view)."""
    for p in wec.view(g, color)["pieces"]:
        if p.get("id") == ident:
            return p
    raise AssertionError(f"piece {ident} not in {color}'s view")


def stun(g, ident) -> int:
    p = by_id(g, ident)
    return p.get("stun", 0) if p else None


def cooldown(g, ident, weapon) -> int:
    p = by_id(g, ident)
    color = p["color"]
    return own_view(g, color, ident)["cooldowns"].get(weapon, 0)


def ground(g) -> Counter:
    """Number of Articles lying at each Square."""
    return Counter((a["row"], a["col"]) for a in wec.dump_scenario(g)["articles"])


def ground_at(g, row, col) -> list[str]:
    return sorted(a["type"] for a in wec.dump_scenario(g)["articles"] if (a["row"], a["col"]) == (row, col))


def all_articles(g) -> Counter:
    doc = wec.dump_scenario(g)
    c = Counter(a["type"] for a in doc["articles"])
    for p in doc["pieces"]:
        c.update(p["articles"])
    return c


def turn(g) -> dict:
    return wec.view(g, wec.to_move(g))["turn"]
