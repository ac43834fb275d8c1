"""Small builders for Marshal and Spy tests: they go through the public facade only."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from games.rules import get_engine

M = get_engine("marshal")

#: Random option sets (any subset of the options, each with a random value).
OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "columns": st.integers(10, 12),
        "setup_rows": st.sampled_from([3, 4]),
        "neutral_rows": st.integers(2, 6),
        "volcanoes": st.integers(0, 9),
        "moves_per_turn": st.sampled_from([1, 2]),
        "no_return": st.sampled_from(["next_turn", "until_moved"]),
        "turn_limit": st.sampled_from([0, 0, 5, 40]),
    },
)


def doc(pieces: list[tuple[str, str, int, int]], **extra: Any) -> dict[str, Any]:
    """A play-phase scenario document from (color, type, row, col) tuples."""
    d: dict[str, Any] = {"pieces": [{"color": c, "type": t, "row": r, "col": col} for c, t, r, col in pieces]}
    d.update(extra)
    return d


def game(pieces: list[tuple[str, str, int, int]], **extra: Any) -> Any:
    return M.load_scenario(doc(pieces, **extra))


#: Pieces far from the action that keep both sides alive and able to move.
KEEP = [
    ("black", "hq", 1, 1),
    ("black", "corporal", 1, 10),
    ("white", "hq", 10, 10),
    ("white", "corporal", 10, 1),
]


def at(g: Any, row: int, col: int, color: str = "black") -> dict[str, Any] | None:
    """The piece on (row, col) as ``color``'s view shows it, or None."""
    for p in M.view(g, color)["pieces"]:
        if (p["row"], p["col"]) == (row, col):
            return p
    return None


def move(g: Any, a: tuple[int, int], b: tuple[int, int]) -> Any:
    return M.apply(g, {"type": "move", "from": list(a), "to": list(b)})


def started(seed: int, options: dict[str, Any] | None = None) -> Any:
    """A game past setup, both armies placed at random from ``seed``."""
    rng = random.Random(seed)
    g = M.new_game(options, seed=seed)
    for color in ("black", "white"):
        g = M.apply(g, {"type": "setup", "color": color, "random": rng.randrange(1 << 30)})
    return g
