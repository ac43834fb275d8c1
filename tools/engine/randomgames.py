"""Random games for the engine's tools and tests.

Random valid option sets (every option drawn from all its values), crowded
scenarios (pairs of alike Pieces on one place, a crowd of random Pieces and
Articles in the middle), a random start from either, and a choice of action
that picks an action type first so that the rarer ones (Drops, Exchanges,
Reinforces, Transports) are played as often as Moves.

Both the tools (:mod:`tools.engine.exactness`, :mod:`tools.engine.identity_hash`)
and the engine's tests (``tests/engine``, ``tests/site``) play such games, so
the helpers live here, apart from the engine: they are no rule of the game
and no part of its facade. Every draw is made in a fixed order from the
``random.Random`` passed in: a seed plays the same game on any engine that
offers the same actions (the identity hash relies on it).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.rules.wec import (
    dump_scenario,
    history,
    legal_actions,
    load_scenario,
    new_game,
    plain_history,
    view,
)
from games.rules.wec.constants import COEXIST, HANDED, NATIVE_LEVELS
from games.rules.wec.options import SPEC, TERMS

_ARTICLES = ["flamer", "stunner", "conversion", "rocket_launcher", "sam_launcher", "torpedo_launcher", "stealth",
             "anti_flamer", "anti_stunner", "anti_conversion", "anti_rocket", "anti_sam", "anti_torpedo",
             "anti_stealth", "bike", "jump_pack", "scuba", "xxx"]
_GROUND_TYPES = ["queen", "tank", "dozer", "destroyer", "aaa", "cleric", "rocket_pawn", "stunner_pawn",
                 "flamer_pawn", "conversion_pawn", "stealth_pawn", "xxx_pawn", "sam_torpedo_pawn", "jet", "chopper",
                 "sub"]


def option_values(name: str) -> list[Any]:
    """Every value the option ``name`` may take."""
    allowed = (SPEC[name] if name in SPEC else TERMS[name])[1]
    if allowed is bool:
        return [False, True]
    return list(allowed)


def random_options(
    rng: random.Random, pinned: dict[str, Any] | None = None, terms: bool = False
) -> dict[str, Any]:
    """A random valid option set: every option drawn from all its values
    (those in ``pinned`` kept), then the one combination rule of
    ``options.resolve`` honoured by changing an option that is not pinned.
    A game term (``options.TERMS``) is drawn only when ``terms`` is set
    (else only a pinned one is kept): the seeded games of the identity hash
    draw the manual's options alone, as they always have."""
    pinned = pinned or {}
    opts = {name: pinned[name] if name in pinned else rng.choice(option_values(name)) for name in SPEC}
    for name in TERMS:
        if name in pinned:
            opts[name] = pinned[name]
        elif terms:
            opts[name] = rng.choice(option_values(name))
    if opts["sub_jet_combat"] and (opts["movement"] == "weaponized" or opts["action_restriction"] != "move_only"):
        if "sub_jet_combat" not in pinned and (pinned.keys() & {"movement", "action_restriction"}
                                               or rng.random() < 0.5):
            opts["sub_jet_combat"] = False
        else:
            if opts["movement"] == "weaponized":
                opts["movement"] = rng.choice(["standard_chess", "mass_destruction"])
            opts["action_restriction"] = "move_only"
    return opts


def _capacity(kind: str, articles: list[str]) -> int:
    if kind == "xxx_pawn":
        return 2
    return 3 if "xxx" in articles else 1


def _random_piece(rng: random.Random, kind: str, color: str, row: int, col: int, level: str) -> dict[str, Any]:
    d: dict[str, Any] = {"type": kind, "color": color, "row": row, "col": col, "level": level}
    if kind in HANDED:
        d["hand"] = rng.choice(["left", "right"])
    n = rng.choice([0, 0, 1, 1, 2])
    arts = [rng.choice(_ARTICLES) for _ in range(n)]
    if n > 1 and kind != "xxx_pawn":
        arts[0] = "xxx"
    d["articles"] = arts[: _capacity(kind, arts)]
    return d


def crowded_scenario(rng: random.Random, opts: dict[str, Any]) -> dict[str, Any]:
    """Kings in the corners, a crowd of random Pieces and Articles in the
    middle, and two to four pairs of alike Pieces sharing one place each."""
    pieces = [{"type": "king", "color": "black", "row": 1, "col": 1},
              {"type": "king", "color": "white", "row": 10, "col": 10}]
    used: set[tuple[int, int, str]] = set()
    for _ in range(rng.randint(2, 4)):
        kind = rng.choice(sorted(COEXIST))
        level = rng.choice(sorted({"ground"} | {("air", "sub")[lv - 1] for lv in NATIVE_LEVELS.get(kind, ()) if lv}))
        row, col = rng.randint(3, 8), rng.randint(2, 9)
        if (row, col, level) in used:
            continue
        used.add((row, col, level))
        one = _random_piece(rng, kind, rng.choice(["black", "white"]), row, col, level)
        pieces += [one, dict(one, articles=list(one["articles"]))]
    for _ in range(rng.randint(6, 16)):
        kind = rng.choice(_GROUND_TYPES)
        level = "ground"
        if kind in ("jet", "chopper") and rng.random() < 0.5:
            level = "air"
        if kind == "sub" and rng.random() < 0.5:
            level = "sub"
        row, col = rng.randint(3, 8), rng.randint(2, 9)
        if (row, col, level) in used:
            continue
        used.add((row, col, level))
        pieces.append(_random_piece(rng, kind, rng.choice(["black", "white"]), row, col, level))
    ground: Counter[tuple[int, int]] = Counter()
    articles = []
    for _ in range(rng.randint(4, 16)):
        row, col = rng.randint(2, 9), rng.randint(2, 9)
        if ground[(row, col)] < 2:
            ground[(row, col)] += 1
            articles.append({"type": rng.choice(_ARTICLES), "row": row, "col": col})
    return {"to_move": rng.choice(["black", "white"]), "options": opts, "pieces": pieces, "articles": articles,
            "reinforcements": [{"type": "jet", "color": "black", "row": 7, "col": 5},
                               {"type": "sub", "color": "white", "row": 4, "col": 6}]}


def start_position(rng: random.Random, options: dict[str, Any] | None = None, crowded: bool | None = None,
                   ) -> tuple[Any, dict[str, Any] | None, dict[str, Any]]:
    """A random starting game, its scenario document (None for a standard
    game) and its options (``options`` if given, else random ones); a
    crowded scenario or not as ``crowded`` says, else at random."""
    opts = random_options(rng) if options is None else options
    if crowded is None:
        crowded = rng.random() < 0.6
    if crowded:
        for _ in range(50):
            doc = crowded_scenario(rng, opts)
            try:
                return load_scenario(doc), doc, opts
            except ValueError:
                continue
    return new_game(opts), None, opts


def choose(rng: random.Random, actions: list[dict[str, Any]]) -> dict[str, Any]:
    """An action type first, then an action of that type, so that rarer
    actions (Drops, Exchanges, Reinforces) get played as well as Moves."""
    by_type: dict[str, list[dict[str, Any]]] = {}
    for a in actions:
        by_type.setdefault(a.get("weapon", a["type"]), []).append(a)
    return rng.choice(by_type[rng.choice(sorted(by_type))])


def snapshot(game: Any) -> tuple[Any, ...]:
    """What must match for two games to count as equal: the document, both
    views and the legal actions."""
    return (dump_scenario(game), view(game, "black"), view(game, "white"), legal_actions(game))


def histories(game: Any) -> tuple[Any, ...]:
    """Every history of a game: full and per colour, notation and plain English."""
    return tuple((history(game, c), plain_history(game, c)) for c in (None, "black", "white"))
