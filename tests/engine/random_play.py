"""Random play for the engine's property tests: crowded scenarios drawn from
a ``random.Random``, and the hypothesis settings those tests share.

Each crowded scenario puts the kings in the corners and a dozen or two
random Pieces (with random Articles within their capacity, l. 105-107, 179)
and Articles in the middle of the board, with two reinforcements waiting;
a document the engine rejects is simply drawn again by the caller.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, Phase, settings

COLORS = ("black", "white")
HANDED = {"tank", "cleric", "chopper"}
ARTICLES = ["flamer", "stunner", "conversion", "rocket_launcher", "sam_launcher", "torpedo_launcher", "stealth",
            "anti_flamer", "anti_stunner", "anti_conversion", "anti_rocket", "anti_sam", "anti_torpedo",
            "anti_stealth", "bike", "jump_pack", "scuba", "xxx"]
GROUND_TYPES = ["queen", "tank", "dozer", "destroyer", "aaa", "cleric", "rocket_pawn", "stunner_pawn",
                "flamer_pawn", "conversion_pawn", "stealth_pawn", "xxx_pawn", "sam_torpedo_pawn", "jet", "chopper",
                "sub"]


def capacity(kind, articles):
    if kind == "xxx_pawn":
        return 2
    return 3 if "xxx" in articles else 1


def crowd(rng: random.Random, opts: dict[str, Any]) -> dict[str, Any]:
    """A crowded scenario document under ``opts`` (see the module)."""
    pieces = [{"type": "king", "color": "black", "row": 1, "col": 1},
              {"type": "king", "color": "white", "row": 10, "col": 10}]
    used = set()
    for _ in range(rng.randint(8, 22)):
        kind = rng.choice(GROUND_TYPES)
        color = rng.choice(COLORS)
        level = "ground"
        if kind in ("jet", "chopper") and rng.random() < 0.5:
            level = "air"
        if kind == "sub" and rng.random() < 0.5:
            level = "sub"
        row, col = rng.randint(3, 8), rng.randint(2, 9)
        if (row, col, level) in used:
            continue
        used.add((row, col, level))
        d = {"type": kind, "color": color, "row": row, "col": col, "level": level}
        if kind in HANDED:
            d["hand"] = rng.choice(["left", "right"])
        n = rng.choice([0, 0, 1, 1, 2, 3])
        arts = [rng.choice(ARTICLES) for _ in range(n)]
        if n > 1 and kind != "xxx_pawn":
            arts[0] = "xxx"
        if len(arts) > capacity(kind, arts):
            arts = arts[:1] if kind != "xxx_pawn" else arts[:2]
        d["articles"] = arts
        pieces.append(d)
    ground = Counter()
    articles = []
    for _ in range(rng.randint(5, 30)):
        row, col = rng.randint(2, 9), rng.randint(2, 9)
        if ground[(row, col)] < 2:
            ground[(row, col)] += 1
            articles.append({"type": rng.choice(ARTICLES), "row": row, "col": col})
    return {"to_move": rng.choice(COLORS), "options": opts, "pieces": pieces, "articles": articles,
            "reinforcements": [{"type": "jet", "color": "black", "row": 7, "col": 5},
                               {"type": "sub", "color": "white", "row": 4, "col": 6}]}


def property_settings(examples: int) -> Any:
    """The hypothesis settings of the engine's random-play property tests."""
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
        phases=[Phase.explicit, Phase.reuse, Phase.generate],
    )
