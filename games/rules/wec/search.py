"""The searching AI (levels ``normal`` and ``hard``): determinized search over
whole Turns (a Turn as the manual builds it: one Move and the other Actions,
l. 57-58), from the side's own belief only (l. 340-347).

How a Turn is chosen (:func:`choose_turn`):

1. The belief (:mod:`games.rules.wec.belief`) gives a *base* game with only
   what the side sees, and a way to sample full positions consistent with it.
2. Candidate Turns are built on the base game, never by enumerating every
   combination: each of the best few Moves (scored cheaply, as the easy AI
   does), followed by the extra actions that pay on top of it (Fires that hit
   something, Pick-ups, Transports, Drops and Exchanges that arm a Piece, a
   ready Reinforce), picked greedily; the same with those extras taken before
   the Move; and a Move onto the enemy primary whenever there is one.
3. Each candidate Turn is played on each sampled position (determinization),
   the Turn is ended, and (``hard``) the enemy answers with its most damaging
   forcing reply there (a taking Move or a Fire that hits). The position is
   scored by :func:`evaluate`; a Turn's value is its mean over the samples.
   Samples are the outer loop, so stopping at any moment leaves every
   candidate scored on the same samples and the best Turn so far is at hand.
4. A hard limit on think time (``budget_s``, 5 s by default) and an optional
   limit on applied actions (``max_nodes``; tests use it, so that results do
   not depend on the machine's speed) stop the search; the best Turn found so
   far is returned. Before any candidate is scored the cheap ordering decides.

The plan is a list of actions; :func:`choose_action` returns its first one and
is called again for the rest (the site and the arena work that way), which
re-plans from what the side then sees: after the Move only the extras are left,
which is quick.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from . import ai
from .actions import IllegalAction, apply
from .ai import (
    CLEAR_GAIN,
    JITTER,
    PRIMARY_VALUE,
    WIN,
    Scorer,
    attack_map,
    effect,
    fire_gain,
    fire_may_hit,
    material,
    outcome_score,
    positional,
    project,
    sample_dozings,
    threat_penalty,
)
from .belief import build_belief
from .constants import LEVELS, PRIMARY, other, slot_of
from .moves import PEACEFUL, all_candidates
from .state import Game

__all__ = ["LEVELS_CONFIG", "choose_action", "choose_turn", "evaluate"]

TRANSPORT_WEAPONS = ("bike", "jump_pack", "scuba")
WEAPON_ARTICLES = frozenset({"flamer", "stunner", "conversion", "rocket_launcher", "sam_launcher",
                             "torpedo_launcher"})


@dataclass(frozen=True)
class Level:
    """A level's search shape: samples, candidate Moves kept, extras kept per
    greedy round, whether the enemy answers, and the default think time."""

    samples: int
    moves: int
    extras: int
    reply: bool
    budget_s: float
    #: Moves scored again (as the easy AI does) with the threats recomputed.
    refine: int = 8


LEVELS_CONFIG: dict[str, Level] = {
    "normal": Level(samples=2, moves=5, extras=16, reply=False, budget_s=2.0),
    "hard": Level(samples=2, moves=5, extras=12, reply=True, budget_s=5.0),
}


class OutOfBudget(Exception):
    """The think time or node budget ran out."""


class Budget:
    """Wall-time deadline and a count of applied actions (nodes)."""

    def __init__(self, seconds: float | None, nodes: int | None) -> None:
        # A scoring step after the last check can take a few tens of
        # milliseconds on a busy machine: keep a margin so the limit holds.
        self.deadline = None if seconds is None else time.perf_counter() + seconds - min(0.25, 0.05 * seconds)
        self.nodes_left = nodes
        self.nodes = 0

    def out(self) -> bool:
        return (self.nodes_left is not None and self.nodes_left < 0) or (
            self.deadline is not None and time.perf_counter() > self.deadline)

    def spend(self, n: int = 1) -> None:
        self.nodes += n
        if self.nodes_left is not None:
            self.nodes_left -= n
            if self.nodes_left < 0:
                raise OutOfBudget
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OutOfBudget


# --- evaluation -----------------------------------------------------------------------

def evaluate(g: Game, me: str, my_turn: bool) -> float:
    """``me``'s score of position ``g``: material (carried Articles included,
    stuns costing), the safety of both primaries (attacks on them, stuns),
    threats of weapons in range and projectiles in flight, what ``me`` could
    take or hit next, Articles that arm a Piece, mobility, and ready
    reinforcements. ``my_turn``: whether ``me`` moves next (threats then
    weigh less and chances more)."""
    out = outcome_score(g, me)
    if out is not None:
        return out
    enemy = other(me)
    own, their = material(g, me)
    score = own - their + positional(g, me, True)
    mine = all_candidates(g, me, frozenset())
    theirs = all_candidates(g, enemy, frozenset())
    enemy_attacks = attack_map(g, enemy, theirs)
    _move_then_fire(g, enemy, theirs, enemy_attacks)
    my_attacks = attack_map(g, me, mine)
    defended = {c.dest for cs in mine.values() for c in cs if c.kind != PEACEFUL}
    threat = threat_penalty(g, me, enemy_attacks, defended)
    score -= (0.8 if my_turn else 1.0) * threat
    best = check = 0.0
    for slot, hits in my_attacks.items():
        for i in g.board[slot]:
            q = g.pieces[i]
            if q.color == me:
                continue
            for attack, s, _ in hits:
                e = effect(q, attack, s, me)
                if e and q.type in PRIMARY:
                    if attack != "stunner":  # a stun does not finish it
                        check = max(check, 8.0 if q.stun else 3.0)
                elif e:
                    best = max(best, min(e, 20.0))
    score += (0.6 if my_turn else 0.15) * best + (2.0 if my_turn else 1.0) * check
    if my_turn:
        score += 0.5 * min(fire_gain(g, me), 20.0)
    # Primary safety: its stun, and how boxed in it is (no Move left).
    for p in g.pieces.values():
        if p.type in PRIMARY:
            sign = 1.0 if p.color == me else -1.0
            moves = mine.get(p.id) if p.color == me else theirs.get(p.id)
            if p.stun:
                score -= sign * 1.5 * p.stun
            if not moves:
                score -= sign * 0.5
    # Articles that arm a Piece: a weapon carried by a Piece that can fire it
    # anywhere is worth a little more than one lying idle.
    for p in g.pieces.values():
        if p.color == me and p.articles:
            score += 0.15 * sum(1 for a in p.articles if a in WEAPON_ARTICLES)
    # Ahead in material: close in on the enemy primary, so that a won game
    # gets finished rather than capped (the attackers nearest to it count).
    lead = own - their
    target = next((p for p in g.pieces.values() if p.color == enemy and p.type in PRIMARY), None)
    if lead > 2 and target is not None:
        push = min(lead / 8.0, 3.0)
        ds = sorted(max(abs(p.row - target.row), abs(p.col - target.col)) for p in g.pieces.values()
                    if p.color == me and _hunter(p))
        score -= 0.08 * push * sum(ds[:4])
        # The net closing in: the Squares around it (at its level) we attack.
        score += 0.25 * push * _net(target, my_attacks)
    # Mobility, small.
    score += 0.01 * (sum(len(v) for v in mine.values()) - sum(len(v) for v in theirs.values()))
    # Reinforcements ready to come in.
    for r in g.reinforcements:
        if r.ready:
            score += (0.4 if r.color == me else -0.4)
    return score


def _hunter(p: Any) -> bool:
    """A Piece that can finish the enemy primary: one whose Moves take (Pawns
    included) or that carries a Conversion, awake, not the primary itself
    (a Jet, AAA, Destroyer or Dozer closing in takes nothing)."""
    return (not p.stun and p.type not in PRIMARY
            and (p.type in ai.TAKERS or p.type in ai.PAWNS or "conversion" in p.abilities()))


def _net(p: Any, attacks: dict[int, list[tuple[str, int, float]]]) -> int:
    """How many of the Squares around ``p`` and its own (at its level) are in
    ``attacks``."""
    n = 0
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            r, c = p.row + dr, p.col + dc
            if 1 <= r <= 10 and 1 <= c <= 10 and slot_of(r, c, p.level) in attacks:
                n += 1
    return n


DIRECTIONS8 = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def _move_then_fire(g: Game, color: str, cands: dict[int, list[Any]],
                    out: dict[int, list[tuple[str, int, float]]]) -> None:
    """Add to ``out`` what ``color``'s Flamers, Stunners and Conversions could
    hit after their carrier's Move (a Turn may Move a Piece and then Fire it,
    the easy AI's favourite blow): the static map only aims from where the
    Pieces stand."""
    from .constants import SIZE  # noqa: PLC0415

    opts = g.options
    board = g.board
    for pid, moves in cands.items():
        p = g.pieces[pid]
        if p.stun:
            continue
        abilities = p.abilities()
        weapons = [(w, abilities.count(w)) for w in ("flamer", "stunner", "conversion") if w in abilities]
        if not weapons:
            continue
        av = ai.type_value(p.type)
        done: set[tuple[int, str]] = set()
        for c in moves:
            if c.dozing:
                continue
            sq, lv = divmod(c.dest, 3)
            row, col = divmod(sq, SIZE)
            for weapon, st in weapons:
                reach = opts["flamer_range"] if weapon == "flamer" else (
                    opts["stunner_range"] if weapon == "stunner" else 1)
                for dr, dc in DIRECTIONS8:
                    r, cc = row + dr, col + dc
                    for _ in range(reach):
                        if not (0 <= r < SIZE and 0 <= cc < SIZE):
                            break
                        sl = (r * SIZE + cc) * 3 + lv
                        if (sl, weapon) not in done:
                            done.add((sl, weapon))
                            out.setdefault(sl, []).append((weapon, st, av))
                        if weapon == "stunner" and board[sl]:
                            break
                        r, cc = r + dr, cc + dc


# --- candidate Turns -------------------------------------------------------------------

def _legal(g: Game) -> list[dict[str, Any]]:
    from . import legal_actions

    return legal_actions(g)


def _extra_actions(g: Game, me: str, rng: random.Random, cap: int, fires_only: bool = False
                   ) -> list[dict[str, Any]]:
    """The non-Move actions worth trying now: Fires that may hit a seen enemy,
    Transports that reach something (an Article to pick up, or the enemy
    primary's neighbourhood), Pick-ups, Drops, Exchanges, Reinforces (at most
    ``cap``, sampled with ``rng`` beyond that, Fires kept first)."""
    hot = frozenset(p.slot for p in g.pieces.values() if p.color != me)
    target = next((p for p in g.pieces.values() if p.color != me and p.type in PRIMARY), None)
    fires, others, transports = [], [], []
    seen_dest: set[tuple[int, Any]] = set()
    for a in _legal(g):
        kind = a["type"]
        if kind == "fire":
            if a["weapon"] in TRANSPORT_WEAPONS:
                r, c, _lv = a["to"]
                key = (a["piece"], (r, c, _lv))
                if key in seen_dest:
                    continue  # one path per destination
                near = target is not None and max(abs(r - target.row), abs(c - target.col)) <= 1
                if near or (_lv == "ground" and _ground_articles(g, r, c)):
                    seen_dest.add(key)
                    transports.append(a)
            elif fire_may_hit(g, a, hot):
                fires.append(a)
        elif kind == "drop":
            q = g.pieces.get(a.get("piece", -1))
            if q is not None and any(x != a["article"] for x in g.ground[q.sq]):
                fires.append(a)  # room for a better Article where it stands: always tried
            else:
                others.append(a)
        elif kind in ("pickup", "exchange", "reinforce"):
            others.append(a)
    if fires_only:
        fires = [a for a in fires if a["type"] == "fire"]
        return fires[:cap]
    if len(transports) > 4:
        transports = rng.sample(transports, 4)
    others += transports
    if len(fires) + len(others) > cap:
        room = max(0, cap - len(fires))
        others = rng.sample(others, min(room, len(others)))
    return (fires + others)[:max(cap, len(fires))]


def _ground_articles(g: Game, r: int, c: int) -> bool:
    from .constants import SIZE  # noqa: PLC0415

    return bool(g.ground[(r - 1) * SIZE + c - 1])


def _greedy_extras(g: Game, me: str, rng: random.Random, cap: int, budget: Budget,
                   rounds: int = 3, fires_only: bool = False) -> tuple[Game, list[dict[str, Any]]]:
    """Extras added one by one while one pays (a static look after the Turn's
    end, as the easy AI scores them); returns the game after them and them."""
    taken: list[dict[str, Any]] = []
    try:
        return _greedy_rounds(g, me, rng, cap, budget, rounds, taken, fires_only)
    except OutOfBudget:
        # Out of time: the extras found so far (each one already paid).
        for a in taken:
            g = apply(g, a)
        return g, taken


def _greedy_rounds(g: Game, me: str, rng: random.Random, cap: int, budget: Budget, rounds: int,
                   taken: list[dict[str, Any]], fires_only: bool = False) -> tuple[Game, list[dict[str, Any]]]:
    for _ in range(rounds):
        if g.result:
            break
        scorer = Scorer.__new__(Scorer)
        scorer.me, scorer.enemy = me, other(me)
        scorer.attacks = attack_map(g, scorer.enemy)
        scorer.defended = frozenset()
        base, base_own, base_enemy = scorer.static(project(g, always=True))
        best: tuple[float, list[dict[str, Any]], Game] | None = None
        for a in _extra_actions(g, me, rng, cap, fires_only):
            try:
                h = apply(g, a)
            except IllegalAction:
                continue
            budget.spend()
            kind = a["type"]
            steps = [a]
            if kind == "drop":
                if any(t["type"] == "pickup" for t in taken):
                    continue  # no dropping what this Turn picked up
                # A Drop that makes room: the same Piece picks up a better
                # Article lying where it stands.
                swap = _swap_pickup(h, a, scorer)
                if swap is None:
                    continue
                try:
                    h = apply(h, swap)
                except IllegalAction:
                    continue
                budget.spend()
                steps.append(swap)
            # No Pick-up bonus for Drops and Exchanges: a dropped Article would
            # otherwise look like one about to be picked up again.
            score, own, their = scorer.static(project(h, always=True),
                                              pickup_bonus=kind not in ("drop", "exchange"))
            if score >= WIN / 2:
                best = (score, steps, h)  # it wins the game
                break
            if score <= -WIN / 2:
                continue
            if a["type"] == "fire" and a["weapon"] not in TRANSPORT_WEAPONS and (
                    own < base_own - 1e-9 or their >= base_enemy - 1e-9):
                continue  # a Fire must hurt the enemy and spare our own
            gain = score - base + rng.random() * JITTER
            if kind in ("exchange", "drop"):
                arming = _arming(h, me) - _arming(g, me)
                if kind == "exchange" and arming <= 0:
                    continue  # an Exchange must arm a Piece better
                gain += arming
            if gain > CLEAR_GAIN and (best is None or gain > best[0]):
                best = (gain, steps, h)
        if best is None:
            break
        taken.extend(best[1])
        g = best[2]
    return g, taken


def _swap_pickup(h: Game, drop: dict[str, Any], scorer: Scorer) -> dict[str, Any] | None:
    """After ``drop``, the Pick-up by the same Piece of a more valuable Article
    lying on its Square, if any."""
    from .ai import ART_DEFAULT, ARTICLE_VALUES  # noqa: PLC0415

    p = h.pieces.get(drop["piece"])
    if p is None or h.turn["pickup"] or p.level != 0:
        return None
    dropped = drop["article"]
    worth = ARTICLE_VALUES.get(dropped, ART_DEFAULT)
    best, best_v = None, worth + 0.15
    for art in dict.fromkeys(h.ground[p.sq]):
        if art == dropped:
            continue
        v = ARTICLE_VALUES.get(art, ART_DEFAULT)
        if art in WEAPON_ARTICLES and p.type not in ai.PAWNS:
            v += 0.3
        if v > best_v:
            best, best_v = art, v
    if best is None:
        return None
    return {"type": "pickup", "from": list(drop["from"]), "piece": p.id, "article": best}


def _arming(g: Game, me: str) -> float:
    """How well ``me``'s weapon Articles are placed: on a Piece that can move
    toward the enemy (not a Pawn) and is not stunned."""
    score = 0.0
    for p in g.pieces.values():
        if p.color != me or p.stun:
            continue
        n = sum(1 for a in p.articles if a in WEAPON_ARTICLES)
        if n:
            score += n * (0.5 if p.type not in ai.PAWNS and p.type not in PRIMARY else 0.2)
    return score


def _approaches(b: Game, me: str, scored: list[tuple[float, dict[str, Any], Game]],
                kept: list[tuple[float, dict[str, Any], Game]], n: int = 2
                ) -> list[tuple[float, dict[str, Any], Game]]:
    """Ahead in material, up to ``n`` more Moves to compare: those that bring
    a fighter (not a Pawn or the primary) nearest the enemy primary, among
    the Moves scored within 1.5 of the best (the cheap score barely sees the
    hunt, which :func:`evaluate` rewards), so that a won game gets finished."""
    own, their = material(b, me)
    target = next((p for p in b.pieces.values() if p.color != me and p.type in PRIMARY), None)
    if own - their <= 4 or target is None or not scored:
        return []
    if own - their > 12:
        n += 1  # far ahead: finish it
    top = scored[0][0]
    have = [a for _, a, _ in kept]
    found = []
    for s0, a, h in scored:
        if s0 < top - 1.5 or "doze" in a or a in have:
            continue
        p = b.pieces.get(a.get("piece", -1))
        if p is None or not _hunter(p):
            continue
        before = max(abs(p.row - target.row), abs(p.col - target.col))
        after = max(abs(a["to"][0] - target.row), abs(a["to"][1] - target.col))
        if after < before:
            found.append((after, -s0, len(found), (s0, a, h)))
    found.sort(key=lambda x: x[:3])
    return [item for *_, item in found[:n]]


def _primary_in_danger(b: Game, me: str, scorer: Scorer) -> bool:
    """Whether an enemy Move or Fire seen from ``b`` (its attack map, and its
    Flamers, Stunners and Conversions after their carriers' Moves) could take
    or hit ``me``'s primary government Piece."""
    enemy = other(me)
    attacks = {k: list(v) for k, v in scorer.attacks.items()}
    _move_then_fire(b, enemy, all_candidates(b, enemy, frozenset()), attacks)
    for p in b.pieces.values():
        if p.color == me and p.type in PRIMARY:
            for attack, s, _ in attacks.get(p.slot, ()):
                if effect(p, attack, s, enemy):
                    return True
    return False


def candidate_turns(b: Game, me: str, rng: random.Random, level: Level, budget: Budget
                    ) -> list[list[dict[str, Any]]]:
    """Whole Turns to compare, on the base belief ``b``, best guess first."""
    turns: list[list[dict[str, Any]]] = []
    actions = _legal(b)
    if b.result or not actions:
        return turns
    moves = [a for a in actions if a["type"] == "move"]
    if b.turn["moved"] or not moves:
        # Only extras are left: end now, or the greedy extras.
        _, extras = _greedy_extras(b, me, rng, level.extras, budget)
        if extras:
            turns.append(extras)
        turns.append([])
        return turns
    # A Move onto the enemy primary: a Turn on its own.
    targets = {p.slot for p in b.pieces.values() if p.color != me and p.type in PRIMARY}
    for a in moves:
        if "doze" not in a and slot_of(*a["to"][:2], LEVELS.index(a["to"][2])) in targets:
            turns.append([a])
    scorer = Scorer(b, me)
    scored: list[tuple[float, dict[str, Any], Game]] = []
    # Every Move is scored cheaply, the best few again with the threats
    # recomputed: the easy AI's own ranking, so the easy AI's Move is always
    # among the candidates. This step is not cut by the budget (it costs what
    # one easy choice costs): a ranking cut short would leave only the Moves
    # that happen to be listed first.
    for a in sample_dozings(moves, rng):
        if budget.out():
            break  # the wall-time limit only (no node limit while building)
        try:
            h = apply(b, a)
        except IllegalAction:
            continue
        scored.append((scorer.static(project(h), pickup_bonus=True)[0] + rng.random() * JITTER, a, h))
    scored.sort(key=lambda x: -x[0])
    # In danger (the enemy could take or hit our primary next Turn, by the
    # look at its Moves and Fires from here) every Move is scored again: the
    # cheap score's threats are those of the position before the Move, so a
    # Move that blocks the attacker's path or takes it looks no better than
    # any other there.
    danger = _primary_in_danger(b, me, scorer)
    n_refine = len(scored) if danger else level.refine
    refined: list[tuple[float, dict[str, Any], Game]] = []
    for s0, a, h in scored[:n_refine]:
        ph = project(h)
        s1 = scorer.refined(ph) if s0 > -WIN / 2 else s0
        refined.append((s1 + rng.random() * JITTER, a, h))
    refined.sort(key=lambda x: -x[0])
    scored = refined + scored[n_refine:]
    # Keep the best few, but no more than two dozings of one Dozer: dozings
    # score alike and would crowd out everything else.
    kept: list[tuple[float, dict[str, Any], Game]] = []
    dozers: dict[int, int] = {}
    for item in scored:
        a = item[1]
        if "doze" in a:
            n = dozers.get(a.get("piece", 0), 0)
            if n >= 2:
                continue
            dozers[a.get("piece", 0)] = n + 1
        kept.append(item)
        if len(kept) >= level.moves + (3 if danger else 0):
            break
    kept.extend(_approaches(b, me, scored, kept) if not danger else [])
    # The best two Moves get every kind of extra; the others only the Fires
    # that hit (the extras cost a Turn's end each to score).
    for n, (_, a, h) in enumerate(kept):
        _, extras = _greedy_extras(h, me, rng, level.extras, budget, fires_only=n >= 2)
        turns.append([a] + extras)
    # Extras first, then the best Move from there (a Fire before its Piece Moves).
    if budget.out():
        return turns
    pre_g, pre = _greedy_extras(b, me, rng, level.extras, budget, rounds=1)
    if pre:
        pre_moves = [a for a in _legal(pre_g) if a["type"] == "move"]
        pre_scorer = Scorer(pre_g, me)
        best: tuple[float, dict[str, Any], Game] | None = None
        try:
            for a in sample_dozings(pre_moves, rng):
                try:
                    h = apply(pre_g, a)
                except IllegalAction:
                    continue
                s = pre_scorer.static(project(h), pickup_bonus=True)[0] + rng.random() * JITTER
                if best is None or s > best[0]:
                    best = (s, a, h)
                budget.spend()
        except OutOfBudget:
            pass
        if best is not None:
            _, post = _greedy_extras(best[2], me, rng, level.extras, budget, rounds=2, fires_only=True)
            turns.append(pre + [best[1]] + post)
    return turns


# --- playing a Turn on a sample --------------------------------------------------------

def _play(g: Game, turn: list[dict[str, Any]], budget: Budget) -> Game:
    """``turn`` on sample ``g`` (actions the sample refuses are skipped), ended."""
    for a in turn:
        if g.result:
            return g
        try:
            g = apply(g, a)
        except IllegalAction:
            continue
        budget.spend()
    if g.result:
        return g
    try:
        g = apply(g, {"type": "end_turn"})
    except IllegalAction:
        g = project(g, always=True)
    budget.spend()
    return g


def _reply_actions(g: Game, me: str) -> list[dict[str, Any]]:
    """The enemy's forcing actions on sample ``g`` (its Turn): Moves that
    take one of ``me``'s Pieces and Fires that may hit one; built from the
    Move candidates and the armed Pieces only, not from every legal action."""
    from .actions.fire import fire_aims, fire_block, weapons_of  # noqa: PLC0415
    from .actions.move import move_action, own_candidates  # noqa: PLC0415
    from .visibility import hidden_from  # noqa: PLC0415

    mine_slots = frozenset(p.slot for p in g.pieces.values() if p.color == me)
    out: list[dict[str, Any]] = []
    if not g.turn["moved"]:
        for moves in own_candidates(g).values():
            for c in moves:
                if c.kind != PEACEFUL and not c.dozing and c.dest in mine_slots:
                    out.append(move_action(g, c))
    if g.options["action_restriction"] == "move_only" or len(g.turn["fires"]) >= 2:
        return out
    hidden = hidden_from(g, g.to_move)
    for p in g.pieces.values():
        if p.color == me or p.stun:
            continue
        where = [p.row, p.col, LEVELS[p.level]]
        for weapon in weapons_of(p):
            # Transports never hit; only the weapons the rules let fire now.
            if weapon in TRANSPORT_WEAPONS or fire_block(g, p, weapon):
                continue
            for a in fire_aims(g, p, weapon, where, hidden):
                if fire_may_hit(g, a, mine_slots):
                    out.append(a)
    return out


#: Forcing replies tried per step (the likeliest to hurt first): each costs a
#: node, and the nodes saved buy more samples.
REPLY_TRIES = 6


def _likeliest(g: Game, actions: list[dict[str, Any]], me: str, k: int) -> list[dict[str, Any]]:
    """The ``k`` actions that would hit the most of ``me``'s material by a
    static look (what stands where a Move lands or a Fire first strikes;
    the enemy primary first), in that order (ties keep their order)."""
    if len(actions) <= k:
        return actions
    pieces = g.pieces
    board = g.board

    def worth(slot: int) -> float:
        return sum(ai.piece_value(pieces[i]) for i in board[slot] if pieces[i].color == me)

    keyed = []
    for n, a in enumerate(actions):
        v = 0.0
        if a["type"] == "move":
            r, c, lv = a["to"]
            v = worth(slot_of(r, c, LEVELS.index(lv)))
        elif "target" in a:
            r, c, lv = a["target"]
            v = worth(slot_of(r, c, LEVELS.index(lv)))
        elif "direction" in a:
            r, c, level = a["from"]
            dr, dc = a["direction"]
            weapon = a["weapon"]
            lv = ai.PROJECTILES[weapon][1] if weapon in ai.PROJECTILES else LEVELS.index(level)
            reach = g.options["flamer_range"] if weapon == "flamer" else (
                g.options["stunner_range"] if weapon == "stunner" else 1)
            for _ in range(reach):
                r, c = r + dr, c + dc
                if not (1 <= r <= 10 and 1 <= c <= 10):
                    break
                sl = slot_of(r, c, lv)
                v += worth(sl)
                if weapon == "stunner" and board[sl]:
                    break
            if weapon == "stunner":
                v *= 0.3
        keyed.append((-v, n, a))
    keyed.sort(key=lambda x: (x[0], x[1]))
    return [a for _, _, a in keyed[:k]]


def _end(g: Game) -> Game:
    """``g`` with its Turn ended (the Move taken as made)."""
    if g.result:
        return g
    h = g
    if not h.turn["moved"]:
        h = h.copy()
        h.turn["moved"] = True
        h.seal()
    try:
        return apply(h, {"type": "end_turn"})
    except IllegalAction:
        return project(g, always=True)


def _forcing_reply(g: Game, me: str, budget: Budget, steps: int = 2) -> Game:
    """The enemy's most damaging forcing answer on sample ``g`` (its Turn):
    up to ``steps`` actions, each a Move that takes or a Fire that hits one
    of ``me``'s Pieces, chosen greedily by the material it wins (counted
    after its Turn's end, so projectiles land); then its Turn is ended."""
    enemy = g.to_move
    if g.result or enemy == me:
        return g
    for _ in range(steps):
        base_own, base_their = material(project(g, always=True), enemy)
        best_val, best_g = 0.2, None
        for a in _likeliest(g, _reply_actions(g, me), me, REPLY_TRIES):
            try:
                h = apply(g, a)
            except IllegalAction:
                continue
            budget.spend()
            h2 = project(h, always=True)
            out = outcome_score(h2, enemy)
            if out is not None:
                val = out
            else:
                own, their = material(h2, enemy)
                val = (base_their - their) + (own - base_own)
            if val > best_val:
                best_val, best_g = val, h
        if best_g is None:
            break
        g = best_g
        if g.result:
            return g
    return _end(g)


def choose_turn(game: Game, level: str = "hard", seed: int | None = None, budget_s: float | None = None,
                max_nodes: int | None = None) -> list[dict[str, Any]]:
    """The rest of this Turn for the side to move, as a list of actions
    (empty: end the Turn now), from that side's knowledge only.

    ``budget_s``: hard limit on think time (None: the level's default; 0 or
    less: no wall-time limit, only ``max_nodes``). ``max_nodes``: limit on
    applied actions, for results that do not depend on the machine."""
    cfg = LEVELS_CONFIG[level]
    seconds = cfg.budget_s if budget_s is None else (budget_s if budget_s > 0 else None)
    # Building the candidates may take at most 40% of the limits; scoring
    # them on the samples gets the rest (and whatever building left over).
    start = time.perf_counter()
    # The node limit is for the scoring only: building the candidates costs
    # about what one easy choice costs, whatever the limit.
    budget = Budget(None if seconds is None else 0.35 * seconds, None)
    rng = random.Random(seed)
    me = game.to_move
    try:
        bel = build_belief(game, me)
        base = bel.base()
    except ValueError:
        return []
    turns: list[list[dict[str, Any]]] = []
    try:
        turns = candidate_turns(base, me, rng, cfg, budget)
    except OutOfBudget:
        pass
    if not turns:
        # Out of budget before any candidate: the easy AI's first action.
        a = ai.choose_action(game, seed)
        return [] if a is None or a["type"] == "end_turn" else [a]
    if len(turns) == 1:
        return turns[0]
    budget = Budget(None if seconds is None else seconds - (time.perf_counter() - start),
                    max_nodes)
    totals = [0.0] * len(turns)
    done = 0  # samples every Turn was scored on
    try:
        for k in range(cfg.samples + 1):
            # First the base belief (what is seen, nothing guessed), then samples.
            sample = base if k == 0 else bel.sample(rng)
            row = []
            for t in turns:
                if budget.out():
                    raise OutOfBudget
                g = _play(sample, t, budget)
                if cfg.reply and not g.result:
                    g = _forcing_reply(g, me, budget)
                    row.append(evaluate(g, me, my_turn=True))
                else:
                    row.append(evaluate(g, me, my_turn=False))
            for i, v in enumerate(row):
                totals[i] += v
            done += 1
    except OutOfBudget:
        pass
    if done == 0:
        return turns[0]
    best = max(range(len(turns)), key=lambda i: (totals[i], -i))
    return turns[best]


def choose_action(game: Game, rng_seed: int | None = None, level: str = "easy", budget_s: float | None = None,
                  max_nodes: int | None = None) -> dict[str, Any] | None:
    """One action for the side to move at ``level`` (``easy`` is the original
    one-action AI, unchanged); None when there is none."""
    if level == "easy" or level not in LEVELS_CONFIG:
        return ai.choose_action(game, rng_seed)
    legal = _legal(game)
    if not legal:
        return None
    plan = choose_turn(game, level, rng_seed, budget_s, max_nodes)
    end = {"type": "end_turn"}
    first = plan[0] if plan else end
    if first in legal:
        return first
    for a in plan[1:]:
        if a in legal:
            return a
    if end in legal and not any(a["type"] == "move" for a in legal):
        return end
    return ai.choose_action(game, rng_seed)


_ = PRIMARY_VALUE  # re-exported value scale (docs)


def follow_plan(game: Game, plan: list[dict[str, Any]], rng_seed: int | None = None
                ) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """The next action of a Turn planned by :func:`choose_turn`, and the plan
    left after it: the plan's first action still legal (those before it are
    dropped: something the side learned made them illegal); when none is,
    ``end_turn`` if allowed, else the easy AI's choice (the Move must be made).
    Playing a Turn this way costs one search per Turn."""
    legal = _legal(game)
    if not legal:
        return None, []
    for i, a in enumerate(plan):
        if a in legal:
            return a, plan[i + 1:]
    end = {"type": "end_turn"}
    if end in legal:
        return end, []
    return ai.choose_action(game, rng_seed), []
