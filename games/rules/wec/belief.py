"""What a side believes about the enemy Pieces it cannot see, and full
positions sampled from that belief (determinization), for the searching AI.
What a side may know is the manual's (l. 340-347); the last-seen markers are
its "continue to see" option (l. 1720).

Fairness is the point of this module: everything here is built from
``view(game, color)`` (which includes the censored history and the
last-seen markers) plus the same own-Turn bookkeeping the easy AI already
reads (:func:`games.rules.wec.ai.belief_doc`), never from the enemy side of
the true game. Two games that give ``color`` the same view give the same
:class:`Belief`, and so the same samples for the same seed.

Where an unseen enemy Piece may be:

- a *marker* (the view's "continue to see" entry) says where a Piece of a
  known type went out of sight; it may have moved on since, so each sample
  puts it on a free place within :data:`MARKER_RADIUS` king steps of it, at
  the marker's level or the level its kind hides at;
- *Pieces known to exist*: the enemy's standard line-up (for the game's
  options) tells how many Stealth and Sub Pieces it started with; those not
  seen and not marked are placed near their starting Squares early in the
  game, and, as the game goes on, each is left out with a growing chance
  (it may have been taken where the side could not see it);
- every other unseen slot is taken as empty: a visible Piece that is not in
  the view is not on the board.

Samples that break the rules on loading (three Pieces at one level, say) drop
the offending guesses rather than fail.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from .ai import belief_doc
from .constants import LEVELS, NATIVE_LEVELS, SIZE
from .scenario import load_scenario
from .state import Game
from .view import view

__all__ = ["Belief", "Guess", "build_belief"]

#: How far (king steps) a marked Piece may have gone since it was last seen.
MARKER_RADIUS = 2
#: Types that hide by Stealth (inherently) and the level they hide at.
STEALTHY = {"aaa": "ground", "stealth_pawn": "ground", "sub": "sub"}
#: After this many Turns an unmarked unseen Piece may have been taken unseen.
EARLY_TURNS = 8


@dataclass(frozen=True)
class Guess:
    """One unseen enemy Piece: its type and the places it may be, best first;
    ``keep`` is the chance it is on the board at all."""

    type: str
    places: tuple[tuple[int, int, str], ...]
    keep: float = 1.0


@dataclass
class Belief:
    """The base belief document (seen things only) and the unseen guesses."""

    color: str
    doc: dict[str, Any]
    guesses: list[Guess] = field(default_factory=list)

    def base(self) -> Game:
        """The belief game with no guessed Pieces."""
        return load_scenario(self.doc)

    def sample(self, rng: random.Random) -> Game:
        """One full position consistent with the belief."""
        doc = dict(self.doc)
        pieces = list(doc["pieces"])
        taken = _occupancy(pieces)
        next_id = int(doc["next_id"])
        added: list[dict[str, Any]] = []
        for g in self.guesses:
            if g.keep < 1.0 and rng.random() >= g.keep:
                continue
            free = [pl for pl in g.places if taken.get(pl, 0) == 0]
            if not free:
                continue
            # Nearer places (listed first) are likelier: a triangular pick.
            r, c, lv = free[min(int(rng.random() * rng.random() * len(free)), len(free) - 1)]
            e = {"id": next_id, "type": g.type, "color": _other(self.color), "row": r, "col": c,
                 "level": lv, "articles": [], "stun": 0}
            if g.type in ("tank", "cleric", "chopper"):
                e["hand"] = "right"
            next_id += 1
            taken[(r, c, lv)] = taken.get((r, c, lv), 0) + 1
            added.append(e)
        while True:
            doc = dict(self.doc, pieces=pieces + added, next_id=next_id)
            try:
                return load_scenario(doc)
            except ValueError:
                if not added:
                    return self.base()
                added.pop()


def _other(color: str) -> str:
    return "white" if color == "black" else "black"


def _occupancy(pieces: list[dict[str, Any]]) -> dict[tuple[int, int, str], int]:
    out: dict[tuple[int, int, str], int] = {}
    for d in pieces:
        k = (d["row"], d["col"], d["level"])
        out[k] = out.get(k, 0) + 1
    return out


def _around(row: int, col: int, level: str, radius: int) -> tuple[tuple[int, int, str], ...]:
    """Places within ``radius`` king steps, nearest first (a fixed order)."""
    out = []
    for r in range(max(1, row - radius), min(SIZE, row + radius) + 1):
        for c in range(max(1, col - radius), min(SIZE, col + radius) + 1):
            out.append((max(abs(r - row), abs(c - col)), r, c))
    out.sort()
    return tuple((r, c, level) for _, r, c in out)


def build_belief(game: Game, color: str) -> Belief:
    """The belief of ``color`` in ``game``, from its view (and own Turn) only."""
    v = view(game, color)
    doc = belief_doc(game, v, color, enemies=True)
    try:
        load_scenario(doc)
    except ValueError:
        doc = belief_doc(game, v, color, enemies=False)
    enemy = _other(color)
    seen: dict[str, int] = {}
    for d in v["pieces"]:
        if d["color"] == enemy:
            seen[d["type"]] = seen.get(d["type"], 0) + 1
    guesses: list[Guess] = []
    marked: dict[str, int] = {}
    for m in v.get("markers") or []:
        kind = m.get("type")
        if not kind:
            continue
        marked[kind] = marked.get(kind, 0) + 1
        level = m["level"] if m["level"] in LEVELS else "ground"
        if level != "ground" and level not in [LEVELS[x] for x in NATIVE_LEVELS.get(kind, ())]:
            # Seen aloft or below only in a carrier or a Transport: guess ground.
            level = "ground"
        guesses.append(Guess(kind, _around(m["row"], m["col"], level, MARKER_RADIUS)))
    # Pieces known to exist: the enemy's line-up for these options.
    try:
        from . import new_game

        start = new_game({k: val for k, val in v["options"].items()})
        lineup = [p for p in start.pieces.values() if p.color == enemy and p.type in STEALTHY]
    except ValueError:
        lineup = []
    turn = int(v.get("turn_number") or 1)
    keep = 1.0 if turn <= EARLY_TURNS else max(0.3, 1.0 - 0.03 * (turn - EARLY_TURNS))
    radius = min(4, 1 + turn // 3)
    counts: dict[str, int] = {}
    for p in lineup:
        counts[p.type] = counts.get(p.type, 0) + 1
        # The n-th Piece of a type is unaccounted for once fewer than n are seen or marked.
        if counts[p.type] <= seen.get(p.type, 0) + marked.get(p.type, 0):
            continue
        guesses.append(Guess(p.type, _around(p.row, p.col, STEALTHY[p.type], radius), keep))
    return Belief(color, doc, guesses)
