"""The Marshal and Spy AI: plays from its own view, never from the true state.

``choose_action(game_or_view, color, rng_seed)`` reads only ``view(game, color)``
(its pieces, the places of enemy pieces, the types its Spies revealed and its
censored history). From the history it keeps a belief over every unknown enemy
piece, as a set of types it may still be:

- a piece that moved is not a Mine or the Headquarters (l. 16-17);
- a fight tells ranks: an enemy that beat my captain attacking it is a
  captain, a colonel or a general (a Sapper or a Spy would have died); one my
  captain died attacking is a colonel, a general or a Mine; and so on, always
  by the combat table (``constants.fight``).

It then samples determinizations: types for the unknown pieces drawn from what
is left of the enemy army (Mines and the Headquarters only among pieces that
never moved), consistent with each piece's set. Each legal move is scored by
its expected result over the samples (a fight's gain or loss, the
Headquarters' capture), the danger of standing next to an enemy that would
beat the piece, how much closer it brings the piece to enemies it can take, and
what a Spy would reveal. Ties break by ``random.Random`` seeded from
``rng_seed`` and the turn, so the choice depends on nothing but the view and
the seed: two worlds the side cannot tell apart give the same choice.
"""

from __future__ import annotations

import random
import re
from typing import Any

from .constants import ARMY, DIES, HQ_TAKEN, IMMOBILE, LETTER, TYPE_OF_LETTER, TYPES, WINS, fight
from .state import Square, around, neighbours, zone

VALUE: dict[str, float] = {
    "corporal": 1.0,
    "lieutenant": 2.0,
    "captain": 3.0,
    "colonel": 4.5,
    "general": 6.0,
    "spy": 2.0,
    "sapper": 3.0,
    "mine": 1.5,
    "hq": 1000.0,
}
SAMPLES = 12
ALL = frozenset(TYPES)
MOVABLE = frozenset(TYPES) - IMMOBILE

_TURN = re.compile(r"^\d+\. ([BW]): (.*?)(?: \{.*\})?$")
_MOVE = re.compile(r"([0-9SPMH?])\((\d+),(\d+)\)(?:-\((\d+),(\d+)\)|x([0-9SPMH?])\((\d+),(\d+)\)([+\-#]))")


def _beats(attacker: str, defender: str) -> bool:
    return fight(attacker, defender) in (WINS, HQ_TAKEN)


def beliefs(v: dict[str, Any]) -> dict[Square, frozenset[str]]:
    """For every enemy piece on the board: the types it may still be."""
    me = v["color"]
    evidence: dict[Square, frozenset[str]] = {}
    lines = list(v["history"])
    if v["turn"] and v["turn"].get("notation"):
        # the moves already made in this turn are not in the history yet
        lines.append(f"{v['turn_number']}. {'B' if me == 'black' else 'W'}: {', '.join(v['turn']['notation'])}")
    for line in lines:
        m = _TURN.match(line)
        if not m:
            continue
        mover = "black" if m.group(1) == "B" else "white"
        for mv in _MOVE.finditer(m.group(2)):
            letter, ar, ac = mv.group(1), int(mv.group(2)), int(mv.group(3))
            a = (ar, ac)
            if mv.group(4):  # a plain step
                b = (int(mv.group(4)), int(mv.group(5)))
                if mover != me:
                    evidence[b] = evidence.pop(a, ALL) & MOVABLE
                continue
            b = (int(mv.group(7)), int(mv.group(8)))
            other_letter, result = mv.group(6), mv.group(9)
            if mover != me:
                ev = evidence.pop(a, ALL) & MOVABLE
                mine = TYPE_OF_LETTER.get(other_letter)
                if mine is None:
                    continue
                if result == WINS:
                    evidence.pop(b, None)
                    evidence[b] = frozenset(t for t in ev if fight(t, mine) == WINS) or ev
                # a dead attacker leaves nothing to remember
            else:
                mine = TYPE_OF_LETTER.get(letter)
                if mine is None:
                    continue
                ev = evidence.get(b, ALL)
                if result == DIES:
                    evidence[b] = frozenset(t for t in ev if fight(mine, t) == DIES) or ev
                else:
                    evidence.pop(b, None)
    out: dict[Square, frozenset[str]] = {}
    for p in v["pieces"]:
        if p["color"] == me:
            continue
        s = (p["row"], p["col"])
        out[s] = frozenset({p["type"]}) if p["type"] != "unknown" else evidence.get(s, ALL)
    return out


def sample_types(
    v: dict[str, Any], belief: dict[Square, frozenset[str]], rng: random.Random
) -> dict[Square, str]:
    """One determinization: a type for every enemy piece, consistent with the belief."""
    me = v["color"]
    enemy = "white" if me == "black" else "black"
    pool = dict(ARMY)
    for kind in v["lost"][enemy]:
        if kind != "unknown":
            pool[kind] -= 1
    out: dict[Square, str] = {}
    unknown = []
    for s, kinds in sorted(belief.items()):
        if len(kinds) == 1:
            (kind,) = kinds
            out[s] = kind
            pool[kind] = max(0, pool[kind] - 1)
        else:
            unknown.append(s)
    rng.shuffle(unknown)
    # Mines and the Headquarters first, among pieces that may be them (never moved).
    for kind in ("hq", "mine"):
        for _ in range(pool[kind]):
            free = [s for s in unknown if s not in out and kind in belief[s]]
            if not free:
                break
            out[rng.choice(free)] = kind
            pool[kind] -= 1
    # The rest, tightest sets first, drawn in proportion to what is left.
    rest = sorted((s for s in unknown if s not in out), key=lambda s: len(belief[s]))
    for s in rest:
        kinds = [k for k in sorted(belief[s]) if k not in IMMOBILE and pool[k] > 0]
        if not kinds:
            kinds = [k for k in sorted(belief[s]) if k not in IMMOBILE] or ["corporal"]
            out[s] = rng.choice(kinds)
            continue
        kind = rng.choices(kinds, weights=[pool[k] for k in kinds])[0]
        out[s] = kind
        pool[kind] -= 1
    return out


def _legal(v: dict[str, Any]) -> list[tuple[dict[str, Any], Square, Square]]:
    o = v["options"]
    rows = 2 * o["setup_rows"] + o["neutral_rows"]
    volcanoes = {tuple(s) for s in v["volcanoes"]}
    me = v["color"]
    own = {(p["row"], p["col"]) for p in v["pieces"] if p["color"] == me}
    moved = set(v["turn"]["moved"])
    out = []
    for p in v["pieces"]:
        if p["color"] != me or p["type"] in IMMOBILE or p["id"] in moved:
            continue
        a = (p["row"], p["col"])
        nr = tuple(p["no_return"]) if p["no_return"] else None
        for b in neighbours(a, rows, o["columns"]):
            if b not in volcanoes and b not in own and b != nr:
                out.append((p, a, b))
    return out


def _setup(v: dict[str, Any], color: str, rng: random.Random) -> dict[str, Any]:
    """Headquarters in the back row away from the edges, Mines beside and in front of it."""
    o = v["options"]
    rows = 2 * o["setup_rows"] + o["neutral_rows"]
    squares = zone(color, rows, o["columns"], o["setup_rows"])
    back = squares[-1][0]
    front_step = 1 if color == "black" else -1
    col = rng.randint(2, o["columns"] - 1)
    placed: dict[Square, str] = {(back, col): "hq"}
    for s in ((back, col - 1), (back, col + 1), (back + front_step, col)):
        placed[s] = "mine"
    free_back = [s for s in squares if s[0] in (back, back + front_step) and s not in placed]
    placed[rng.choice(free_back)] = "mine"
    army = [t for t in TYPES for _ in range(ARMY[t]) if t not in IMMOBILE]
    rest = [s for s in squares if s not in placed]
    rng.shuffle(army)
    for s, kind in zip(rng.sample(rest, len(army)), army, strict=True):
        placed[s] = kind
    return {
        "type": "setup",
        "color": color,
        "pieces": [{"type": t, "row": r, "col": c} for (r, c), t in sorted(placed.items())],
    }


def choose_action(game_or_view: Any, color: str, rng_seed: int = 0) -> dict[str, Any]:
    """The AI's next action for ``color``: a setup during setup, else one move."""
    if isinstance(game_or_view, dict):
        v = game_or_view
        if v.get("color") != color:
            raise ValueError("the view is not that colour's")
    else:
        from .view import view

        v = view(game_or_view, color)
    rng = random.Random(
        rng_seed * 1_000_003 + v["turn_number"] * 7 + (len(v["turn"]["moved"]) if v["turn"] else 0)
    )
    if v["phase"] == "setup":
        if v["ready"][color]:
            raise ValueError(f"{color} is already set up")
        return _setup(v, color, rng)
    if v["phase"] != "play" or v["to_move"] != color:
        raise ValueError(f"it is not {color}'s move")
    moves = _legal(v)
    if not moves:
        raise ValueError("no legal move")
    belief = beliefs(v)
    samples = [sample_types(v, belief, rng) for _ in range(SAMPLES)]
    enemy_squares = sorted(belief)
    o = v["options"]
    rows = 2 * o["setup_rows"] + o["neutral_rows"]
    columns = o["columns"]

    ev_cache: dict[tuple[str, Square], tuple[float, float]] = {}

    def attack(kind: str, s: Square) -> tuple[float, float]:
        """(expected gain, chance of winning) of ``kind`` attacking the enemy on ``s``."""
        key = (kind, s)
        if key not in ev_cache:
            gain = wins = 0.0
            for sample in samples:
                res = fight(kind, sample[s])
                if res == HQ_TAKEN:
                    gain += VALUE["hq"]
                    wins += 1
                elif res == WINS:
                    gain += VALUE[sample[s]]
                    wins += 1
                else:
                    gain -= VALUE[kind]
            ev_cache[key] = (gain / len(samples), wins / len(samples))
        return ev_cache[key]

    def danger(kind: str, s: Square, ignore: Square | None) -> float:
        """Expected loss from the enemy next to ``s`` that would beat ``kind``."""
        worst = 0.0
        for n in neighbours(s, rows, columns):
            if n not in belief or n == ignore:
                continue
            hits = sum(1 for sample in samples if sample[n] not in IMMOBILE and _beats(sample[n], kind))
            worst = max(worst, hits / len(samples))
        return VALUE[kind] * 0.6 * worst

    def pull(kind: str, s: Square, ignore: Square | None) -> float:
        """How strongly targets worth attacking draw ``kind`` standing on ``s``."""
        best = 0.0
        for e in enemy_squares:
            if e == ignore:
                continue
            gain, _ = attack(kind, e)
            if gain > 0:
                d = abs(e[0] - s[0]) + abs(e[1] - s[1])
                best = max(best, min(gain, 12.0) / (1 + d))
        return best

    scored = []
    for p, a, b in moves:
        kind = p["type"]
        if b in belief:
            gain, win = attack(kind, b)
            score = gain - win * danger(kind, b, b)
        else:
            score = 0.8 * (pull(kind, b, None) - pull(kind, a, None))
            score += 0.5 * danger(kind, a, None) - danger(kind, b, None)
            if kind == "spy":
                unseen = sum(1 for n in around(b, rows, columns) if n in belief and len(belief[n]) > 1)
                score += 0.25 * unseen
            # drift toward the enemy so that the game moves on
            forward = 1 if color == "black" else -1
            score += 0.02 * forward * (b[0] - a[0])
        scored.append((score + rng.random() * 1e-3, p["row"], p["col"], b))
    scored.sort(key=lambda t: (-t[0], t[1], t[2], t[3]))
    _, r, c, b = scored[0]
    return {"type": "move", "from": [r, c], "to": [b[0], b[1]]}


def greedy_action(v: dict[str, Any], color: str, rng: random.Random) -> dict[str, Any]:
    """The benchmark's greedy one-ply player: it takes the move whose immediate
    fight pays most on average over the whole army (no belief), else a random one."""
    if v["phase"] == "setup":
        return {"type": "setup", "color": color, "random": rng.randrange(1 << 30)}
    enemy = {(p["row"], p["col"]): p["type"] for p in v["pieces"] if p["color"] != color}
    total = sum(ARMY.values())
    best: list[tuple[float, dict[str, Any]]] = []
    for p, _a, b in _legal(v):
        score = rng.random() * 1e-3
        if b in enemy:
            kinds = [enemy[b]] if enemy[b] != "unknown" else [k for k in TYPES for _ in range(ARMY[k])]
            gain = 0.0
            for k in kinds:
                res = fight(p["type"], k)
                gain += VALUE[k] if res != DIES else -VALUE[p["type"]]
            score += gain / (len(kinds) if enemy[b] != "unknown" else total)
        best.append((score, {"type": "move", "from": [p["row"], p["col"]], "to": list(b)}))
    return max(best, key=lambda t: t[0])[1]


__all__ = ["LETTER", "beliefs", "choose_action", "greedy_action", "sample_types"]
