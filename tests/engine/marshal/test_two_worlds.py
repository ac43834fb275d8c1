"""Two worlds a side cannot tell apart give it the same view, history, legal
actions, error messages and AI choice (contract "View").

Pairs are made two ways: by exchanging the types of two enemy pieces not
revealed to the reader in a dump, and by replaying one game's actions from two
setups that exchange two unrevealed non-spy enemy pieces, as long as every
fight ends alike (the same results, the same pieces removed) and neither piece
gets revealed. The figures (pairs compared, pairs that differed) are printed
with ``pytest -s``.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules.marshal import ai

from .helpers import OPTIONS, M, started

OPTION_SETS = [
    {},
    {"moves_per_turn": 1},
    {"no_return": "until_moved"},
    {"columns": 12, "setup_rows": 4, "neutral_rows": 2, "volcanoes": 3},
]


def _probes(g: Any, color: str) -> list[dict]:
    """Moves from every square of the board to every neighbour and two squares away."""
    v = M.view(g, color)
    o = v["options"]
    rows = 2 * o["setup_rows"] + o["neutral_rows"]
    out = []
    for p in v["pieces"]:
        r, c = p["row"], p["col"]
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1), (2, 0), (1, 1)):
            out.append({"type": "move", "from": [r, c], "to": [r + dr, c + dc]})
    out.append({"type": "move", "from": [rows, o["columns"]], "to": [rows + 1, o["columns"]]})
    return out


def _answer(g: Any, action: dict) -> str:
    try:
        M.apply(g, action)
    except M.IllegalAction as e:
        return f"illegal: {e}"
    return "legal"


def compare(a: Any, b: Any, color: str, ai_seed: int | None) -> list[str]:
    """Every way ``color`` could tell ``a`` from ``b``; empty when it cannot."""
    diffs = []
    if M.view(a, color) != M.view(b, color):
        diffs.append("view")
    if M.history(a, color) != M.history(b, color):
        diffs.append("history")
    if M.to_move(a) == color:
        if M.legal_actions(a) != M.legal_actions(b):
            diffs.append("legal_actions")
        for probe in _probes(a, color):
            if _answer(a, probe) != _answer(b, probe):
                diffs.append(f"answer to {probe}")
                break
        if ai_seed is not None and ai.choose_action(a, color, ai_seed) != ai.choose_action(b, color, ai_seed):
            diffs.append("AI choice")
    return diffs


def _swap_pair(seed: int) -> tuple[Any, Any, str] | None:
    rng = random.Random(seed)
    g = started(seed, OPTION_SETS[seed % len(OPTION_SETS)])
    for _ in range(rng.randrange(0, 120)):
        if M.outcome(g) is not None:
            break
        g = M.apply(g, rng.choice(M.legal_actions(g)))
    if M.outcome(g) is not None:
        return None
    reader = rng.choice(["black", "white"])
    d = M.dump_scenario(g)
    hidden = [p for p in d["pieces"] if p["color"] != reader and not p["revealed"]]
    rng.shuffle(hidden)
    for x in hidden:
        for y in hidden:
            if x["type"] == y["type"]:
                continue
            # load_scenario refuses a mine or hq with a no_return
            if (x["no_return"] and y["type"] in ("mine", "hq")) or (
                y["no_return"] and x["type"] in ("mine", "hq")
            ):
                continue
            x["type"], y["type"] = y["type"], x["type"]
            return g, M.load_scenario(d), reader
    return None


def test_dump_swapped_pairs_are_indistinguishable() -> None:
    compared = differing = 0
    for seed in range(160):
        pair = _swap_pair(seed)
        if pair is None:
            continue
        a, b, reader = pair
        assert M.dump_scenario(a) != M.dump_scenario(b)
        diffs = compare(a, b, reader, ai_seed=seed if seed % 4 == 0 else None)
        compared += 1
        differing += bool(diffs)
        assert not diffs, (seed, diffs)
    print(f"\ndump-swap pairs compared: {compared}, differing: {differing}")
    assert compared >= 120


def _setup_of(g: Any, color: str) -> list[dict]:
    return [
        {"type": p["type"], "row": p["row"], "col": p["col"]}
        for p in M.view(g, color)["pieces"]
        if p["color"] == color
    ]


def _alike(a: Any, b: Any, watched: set[int], reader: str) -> bool:
    """Same fights (results and removed pieces) and neither exchanged piece revealed."""
    da, db = M.dump_scenario(a), M.dump_scenario(b)
    if da["log"] != db["log"] or da["current"] != db["current"] or da["outcome"] != db["outcome"]:
        return False
    if [p["id"] for p in da["removed"]] != [p["id"] for p in db["removed"]]:
        return False
    return not any(p["revealed"] for p in da["pieces"] + da["removed"] if p["id"] in watched) and not any(
        p["revealed"] for p in db["pieces"] + db["removed"] if p["id"] in watched
    )


def test_replayed_pairs_are_indistinguishable() -> None:
    pairs = steps_compared = differing = 0
    for seed in range(48):
        rng = random.Random(seed)
        options = OPTION_SETS[seed % len(OPTION_SETS)]
        reader = "black" if seed % 2 == 0 else "white"
        enemy = "white" if reader == "black" else "black"
        base = M.new_game(options, seed=seed)
        placed = base
        for color in ("black", "white"):
            placed = M.apply(placed, {"type": "setup", "color": color, "random": rng.randrange(1 << 30)})
        theirs = _setup_of(placed, enemy)
        # exchange two non-spy pieces of different types
        candidates = [i for i, p in enumerate(theirs) if p["type"] != "spy"]
        i = rng.choice(candidates)
        j = rng.choice([k for k in candidates if theirs[k]["type"] != theirs[i]["type"]])
        swapped = [dict(p) for p in theirs]
        swapped[i]["type"], swapped[j]["type"] = theirs[j]["type"], theirs[i]["type"]
        worlds = []
        for arrangement in (theirs, swapped):
            g = M.apply(base, {"type": "setup", "color": reader, "pieces": _setup_of(placed, reader)})
            worlds.append(M.apply(g, {"type": "setup", "color": enemy, "pieces": arrangement}))
        a, b = worlds
        squares = {(theirs[i]["row"], theirs[i]["col"]), (theirs[j]["row"], theirs[j]["col"])}
        watched = {p["id"] for p in M.dump_scenario(a)["pieces"] if (p["row"], p["col"]) in squares}
        compared_here = 0
        for step in range(100):
            if M.outcome(a) is not None or not _alike(a, b, watched, reader):
                break
            diffs = compare(a, b, reader, ai_seed=seed * 1000 + step if step % 10 == 0 else None)
            compared_here += 1
            differing += bool(diffs)
            assert not diffs, (seed, step, diffs)
            action = rng.choice(M.legal_actions(a))
            try:
                b = M.apply(b, action)
            except M.IllegalAction:
                # only the enemy's own moves may differ between the worlds
                assert M.to_move(a) == enemy
                break
            a = M.apply(a, action)
        pairs += compared_here > 0
        steps_compared += compared_here
    print(f"\nreplayed pairs: {pairs}, positions compared: {steps_compared}, differing: {differing}")
    assert pairs >= 40 and steps_compared >= 800


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), options=OPTIONS, steps=st.integers(0, 150))
def test_dump_swaps_over_random_options(seed: int, options: dict, steps: int) -> None:
    rng = random.Random(seed)
    g = started(seed, options)
    for _ in range(steps):
        if M.outcome(g) is not None:
            return
        g = M.apply(g, rng.choice(M.legal_actions(g)))
    if M.outcome(g) is not None:
        return
    for reader in ("black", "white"):
        d = M.dump_scenario(g)
        hidden = [p for p in d["pieces"] if p["color"] != reader and not p["revealed"] and not p["no_return"]]
        kinds = {p["type"] for p in hidden}
        if len(kinds) < 2:
            continue
        x = rng.choice(hidden)
        y = rng.choice([p for p in hidden if p["type"] != x["type"]])
        x["type"], y["type"] = y["type"], x["type"]
        assert compare(g, M.load_scenario(d), reader, ai_seed=seed) == []
