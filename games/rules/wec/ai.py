"""A server AI player: one action at a time, from its own knowledge only.

:func:`choose_action` picks one action from ``legal_actions(game)`` for the
side to move. The site calls it again and again for one Turn until it returns
``end_turn``; it keeps no state between calls.

No peeking. Applying candidate actions to the true game would leak hidden
enemy Pieces (a Fire into an unseen Piece would look good), so every candidate
is tried on a *belief* game built from ``view(game, color)`` alone: the AI's
own Pieces in full, the enemy Pieces it sees (with fresh ids, marked as
revealed so that the belief sees them whatever their Stealth), the ground
Articles, its own reinforcements, the projectiles the view shows (an enemy
one's strength is unknown: taken as 1), and the Turn's bookkeeping. Some of
that bookkeeping is not in the view but is the AI's own knowledge of its own
Turn, so it is read from the true game, and only for its own side: which of
its Pieces fired which weapon this
Turn (``turn["fires"]``), which of its Pieces acted and in what order
(``turn["actors"]``, ``turn["sequence"]``, for the Action Restrictions), the
attack tally on its *own* Pieces (``turn["hits"]``), and whether its own
projectiles were launched this Turn (``fresh``). Tallies on enemy Pieces are
left out (they could name an unseen Piece); the belief may then think a
second attack is resisted when it is not, which only makes the AI cautious.

Choosing. A win (taking or converting the enemy primary in the belief) is
taken at once; anything that loses the own primary is never chosen while
anything else is left. Otherwise positions are scored by material (Piece and
carried Article values, stun), a few small positional terms, and a static
look at what the enemy's seen Pieces could take or hit next Turn (and what
the AI's could). Before its Move the AI takes a Fire, Pick-up or Reinforce
with a clear gain (a Fire must hit an enemy and no own Piece), then Moves
(every Move scored cheaply, the best few scored again with the threats
recomputed), then again takes such gains, then ends the Turn. Transports,
Drops and Exchanges are not used; a Dozer's dozings are sampled (12 at most).
Ties are broken by ``random.Random(rng_seed)``: the same game and seed give
the same action.

The computer opponent the manual mentions (glossary, l. 554-555) plays by the
same rules and sees only what its side may (l. 340-347).
"""

from __future__ import annotations

import random
from typing import Any

from .actions import IllegalAction, apply, legal_actions
from .actions.common import DIRECTIONS
from .actions.fire import ANTI, PROJECTILES, fire_block
from .constants import (
    GROUND,
    JET_ROCKET,
    LEVELS,
    NATIVE_LEVELS,
    PAWNS,
    PRIMARY,
    SECONDARY,
    SIZE,
    other,
    slot_of,
)
from .moves import PEACEFUL, all_candidates
from .scenario import load_scenario
from .state import Game, Piece
from .view import view

__all__ = ["choose_action"]

WIN = 1_000_000.0
PRIMARY_VALUE = 1000.0
VALUES: dict[str, float] = {
    "queen": 9, "assassin": 9, "acolyte": 9, "prime_minister": 9,
    "tank": 5, "cleric": 5,
    "chopper": 4, "jet": 4, "sub": 4, "destroyer": 4,
    "dozer": 3, "aaa": 3,
}
ARTICLE_VALUES: dict[str, float] = {
    "flamer": 0.8, "stunner": 0.7, "conversion": 0.8, "rocket_launcher": 0.7,
    "sam_launcher": 0.5, "torpedo_launcher": 0.5, "xxx": 0.6, "stealth": 0.6,
    "anti_stealth": 0.4, "bike": 0.3, "jump_pack": 0.3, "scuba": 0.3,
}
ART_DEFAULT = 0.5  # the Antis
#: Move-takers: the Pieces whose Moves take (Pawns take by their attack steps).
TAKERS = frozenset(PRIMARY) | frozenset(SECONDARY) | {"tank", "cleric", "chopper"}
CLEAR_GAIN = 0.25  # a Fire, Pick-up or Reinforce worth doing now
REFINE = 10  # Moves scored again with the threats recomputed
MAX_EXTRA_ACTIONS = 5  # non-Move actions per Turn at most
JITTER = 0.004
MAX_DOZINGS = 12  # dozings scored per Dozer at most


def type_value(kind: str) -> float:
    if kind in PRIMARY:
        return PRIMARY_VALUE
    return VALUES.get(kind, 1.0)  # Pawns 1


def piece_value(p: Piece) -> float:
    key = (p.type, p.articles)
    v = _PIECE_VALUES.get(key)
    if v is None:
        v = _PIECE_VALUES[key] = type_value(p.type) + sum(ARTICLE_VALUES.get(a, ART_DEFAULT) for a in p.articles)
    return v


#: (type, Articles) -> piece_value (a pure function; a few dozen keys a game).
_PIECE_VALUES: dict[tuple[str, tuple[str, ...]], float] = {}


def _stun_cost(p: Piece) -> float:
    if not p.stun:
        return 0.0
    if p.type in PRIMARY:
        return 1.0 * p.stun
    return (0.1 * min(type_value(p.type), 9.0) + 0.1) * p.stun


# --- the belief game --------------------------------------------------------------

def belief(game: Game, color: str) -> Game:
    """The game as ``color`` knows it (see the module docstring)."""
    v = view(game, color)
    full = belief_doc(game, v, color, enemies=True)
    try:
        return load_scenario(full)
    except ValueError:
        pass
    try:
        return load_scenario(belief_doc(game, v, color, enemies=False))
    except ValueError:
        doc = belief_doc(game, v, color, enemies=False)
        doc["turn"] = {k: doc["turn"][k] for k in ("moved", "fires", "pickup", "drop", "exchange", "reinforce")}
        doc["projectiles"] = []
        return load_scenario(doc)


def belief_doc(game: Game, v: dict[str, Any], color: str, enemies: bool) -> dict[str, Any]:
    own = [d for d in v["pieces"] if d["color"] == color]
    pieces = []
    for d in own:
        e = {k: d[k] for k in ("id", "type", "color", "row", "col", "level", "articles", "stun", "cooldowns")}
        for k in ("hand", "transport", "moved"):
            if k in d:
                e[k] = d[k]
        pieces.append(e)
    own_ids = {d["id"] for d in own}
    next_id = max(own_ids, default=0) + 1
    revealed = []
    at: dict[tuple[int, int, str], int] = {}
    if enemies:
        seen = [d for d in v["pieces"] if d["color"] != color]
        carriers = {(d["row"], d["col"], d["level"]) for d in seen
                    if (d["type"], d["level"]) in (("chopper", "air"), ("sub", "sub"))}
        for d in seen:
            e = {k: d[k] for k in ("type", "color", "row", "col", "level", "articles", "stun")}
            if "hand" in d:
                e["hand"] = d["hand"]
            e["id"] = next_id
            level = d["level"]
            if (level != "ground" and level not in [LEVELS[x] for x in NATIVE_LEVELS.get(d["type"], ())]
                    and (d["row"], d["col"], level) not in carriers):
                # Aloft or below without a seen carrier: it must be in Transport.
                e["transport"] = {"article": "jump_pack" if level == "air" else "scuba",
                                  "to": [d["row"], d["col"], "ground"]}
            pieces.append(e)
            slot = ((d["row"] - 1) * SIZE + d["col"] - 1) * 3 + LEVELS.index(level)
            revealed.append([next_id, slot])
            at.setdefault((d["row"], d["col"], level), next_id)
            next_id += 1
    # Own projectiles: the view gives all but whether each was launched this
    # Turn, which the AI knows of its own (read from its own projectiles).
    own_true = [p for p in game.projectiles if p["color"] == color]
    projectiles = []
    n = 0
    for d in v["projectiles"]:
        if d["color"] == color:
            fresh = bool(own_true[n]["fresh"]) if n < len(own_true) else False
            n += 1
            target = None
            if d.get("target") is not None:
                target = at.get(tuple(d["target"]))
            projectiles.append({"kind": d["kind"], "color": color, "row": d["row"], "col": d["col"],
                                "level": d["level"], "direction": list(d["direction"]), "target": target,
                                "strength": d["strength"], "fresh": fresh})
        elif enemies:
            projectiles.append({"kind": d["kind"], "color": d["color"], "row": d["row"], "col": d["col"],
                                "level": d["level"], "direction": list(d["direction"]), "target": None,
                                "strength": 1, "fresh": False})
    vt = v["turn"] or {}
    # The AI's own Turn bookkeeping (own piece ids only): see the module docstring.
    t = game.turn
    turn = {
        "moved": bool(vt.get("moved", False)),
        "fires": [list(f) for f in t["fires"]],
        "pickup": bool(vt.get("pickup", False)),
        "drop": bool(vt.get("drop", False)),
        "exchange": bool(vt.get("exchange", False)),
        "reinforce": bool(vt.get("reinforce", False)),
        "actors": [a for a in t["actors"] if a in own_ids],
        "sequence": list(t["sequence"]),
        "hits": [list(h) for h in t.get("hits", []) if h[0] in own_ids],
    }
    reinforcements = []
    for r in v["reinforcements"]:
        if r["color"] == color:
            reinforcements.append({k: r[k] for k in ("type", "color", "row", "col", "hand", "armed", "ready")
                                   if k in r})
    return {
        "to_move": v["to_move"],
        "turn_number": v["turn_number"],
        "options": dict(v["options"]),
        "pieces": pieces,
        "articles": [dict(a) for a in v["articles"]],
        "reinforcements": reinforcements,
        "turn": turn,
        "projectiles": projectiles,
        "revealed": revealed,
        "next_id": next_id,
    }


# --- what can hit what --------------------------------------------------------------

def _on(row: int, col: int) -> bool:
    return 1 <= row <= SIZE and 1 <= col <= SIZE


def _aims(g: Game, p: Piece, ready: bool) -> list[tuple[str, int, tuple[int, ...]]]:
    """Each Fire ``p`` could make next, as (attack, strength, slots it hits);
    projectiles count only for the Square they reach first. With ``ready``
    only weapons the rules let it fire now (own side to move)."""
    out: list[tuple[str, int, tuple[int, ...]]] = []
    if p.stun:
        return out
    abilities = p.abilities()
    opts = g.options
    board = g.board
    for weapon in ("flamer", "stunner", "conversion", "rocket_launcher", "sam_launcher", "torpedo_launcher"):
        s = abilities.count(weapon)
        if not s or (ready and fire_block(g, p, weapon)):
            continue
        for dr, dc in DIRECTIONS:
            r, c = p.row + dr, p.col + dc
            if not _on(r, c):
                continue
            if weapon == "flamer":
                slots = []
                for _ in range(opts["flamer_range"]):
                    if not _on(r, c):
                        break
                    slots.append(slot_of(r, c, p.level))
                    r, c = r + dr, c + dc
                out.append(("flamer", s, tuple(slots)))
            elif weapon == "stunner":
                for _ in range(opts["stunner_range"]):
                    if not _on(r, c):
                        break
                    sl = slot_of(r, c, p.level)
                    if board[sl]:
                        out.append(("stunner", s, (sl,)))
                        break
                    r, c = r + dr, c + dc
            elif weapon == "conversion":
                out.append(("conversion", s, (slot_of(r, c, p.level),)))
            else:
                kind, level = PROJECTILES[weapon]
                out.append((kind, s, (slot_of(r, c, level),)))
    if JET_ROCKET in abilities and not (ready and fire_block(g, p, JET_ROCKET)):
        s = 1 + p.articles.count("rocket_launcher")
        reach = opts["jet_rocket_range"]
        for r in range(max(1, p.row - reach), min(SIZE, p.row + reach) + 1):
            for c in range(max(1, p.col - reach), min(SIZE, p.col + reach) + 1):
                sl = slot_of(r, c, GROUND)
                if board[sl]:
                    out.append(("rocket", s, (sl,)))
    return out


def effect(q: Piece, attack: str, s: int, firer: str) -> float:
    """What ``q``'s side loses when ``attack`` of strength ``s`` hits it."""
    if attack == "conversion" and q.color == firer:
        return 0.0
    if attack != "take" and s <= q.abilities().count(ANTI[attack]):
        return 0.0
    v = piece_value(q)
    if q.type in PRIMARY:
        return PRIMARY_VALUE if attack != "stunner" else 15.0
    if attack == "conversion":
        return 2 * v
    if attack == "stunner":
        return 0.3 * type_value(q.type) + (v - type_value(q.type))
    return v


def attack_map(g: Game, color: str, cands: dict[int, list[Any]] | None = None
               ) -> dict[int, list[tuple[str, int, float]]]:
    """Slot -> the attacks ``color``'s Pieces could make there on their next
    Turn: (attack, strength, attacker value); a Move that takes is ``take``.
    ``cands``: that side's candidate Moves, when already known."""
    out: dict[int, list[tuple[str, int, float]]] = {}
    if cands is None:
        cands = all_candidates(g, color, frozenset())
    for pid, moves in cands.items():
        av = type_value(g.pieces[pid].type)
        for c in moves:
            if c.kind != PEACEFUL and not c.dozing:
                out.setdefault(c.dest, []).append(("take", 0, av))
    for p in g.pieces.values():
        if p.color != color or p.stun:
            continue
        av = type_value(p.type)
        for attack, s, slots in _aims(g, p, ready=False):
            for sl in slots:
                out.setdefault(sl, []).append((attack, s, av))
    for proj in g.projectiles:
        if proj["color"] != color:
            continue
        level = LEVELS.index(proj["level"])
        dr, dc = proj["direction"]
        if not proj["fresh"]:
            out.setdefault(slot_of(proj["row"], proj["col"], level), []).append((proj["kind"], proj["strength"], 0.0))
        if _on(proj["row"] + dr, proj["col"] + dc):
            sl = slot_of(proj["row"] + dr, proj["col"] + dc, level)
            out.setdefault(sl, []).append((proj["kind"], proj["strength"], 0.0))
    return out


def threat_penalty(g: Game, me: str, attacks: dict[int, list[tuple[str, int, float]]],
                   defended: set[int] | frozenset[int]) -> float:
    """What ``me`` stands to lose to ``attacks``: the worst threat counts most
    (the enemy has one Move and two Fires)."""
    enemy = other(me)
    losses = []
    for p in g.pieces.values():
        if p.color != me:
            continue
        hits = attacks.get(p.slot)
        if not hits:
            continue
        worst = 0.0
        for attack, s, av in hits:
            loss = effect(p, attack, s, enemy)
            if attack == "take" and p.type not in PRIMARY and p.slot in defended:
                loss = max(0.0, loss - av)
            worst = max(worst, loss)
        if worst:
            losses.append(worst)
    if not losses:
        return 0.0
    losses.sort(reverse=True)
    return 0.9 * losses[0] + 0.35 * sum(losses[1:3]) + 0.05 * sum(losses[3:])


def fire_gain(g: Game, me: str) -> float:
    """The best single Fire ``me`` can still make this Turn, by a static look
    (an aim that hits an own Piece counts as nothing)."""
    if g.options["action_restriction"] == "move_only" or len(g.turn["fires"]) >= 2:
        return 0.0
    best = 0.0
    pieces = g.pieces
    for p in list(pieces.values()):
        if p.color != me or p.stun:
            continue
        for attack, s, slots in _aims(g, p, ready=True):
            gain = 0.0
            bad = False
            for sl in slots:
                for i in g.board[sl]:
                    q = pieces[i]
                    e = effect(q, attack, s, me)
                    if q.color == me and e:
                        bad = True
                    elif q.color != me:
                        gain += e
            if not bad and gain > best:
                best = gain
    return best


# --- scoring ------------------------------------------------------------------------

def material(g: Game, me: str) -> tuple[float, float]:
    """(own, enemy) material as ``me`` knows it."""
    own = enemy = 0.0
    for p in g.pieces.values():
        v = piece_value(p) - _stun_cost(p)
        if p.color == me:
            own += v
        else:
            enemy += v
    return own, enemy


def _advance(p: Piece) -> int:
    return p.row - 1 if p.color == "black" else SIZE - p.row


def positional(g: Game, me: str, pickup_bonus: bool = False) -> float:
    """Small terms: Pawns and fighters forward, the primary home, takers near
    the enemy primary; with ``pickup_bonus``, a Piece standing on an Article
    it may still pick up this Turn."""
    score = 0.0
    target = None
    for p in g.pieces.values():
        if p.color != me and p.type in PRIMARY:
            target = p
    for p in g.pieces.values():
        if p.color != me:
            continue
        adv = _advance(p)
        if p.type in PRIMARY:
            score -= 0.05 * adv
        elif p.type in PAWNS:
            score += 0.03 * adv
        else:
            score += 0.01 * min(adv, 6)
            if target is not None and (p.type in TAKERS or "conversion" in p.abilities()):
                score -= 0.02 * max(abs(p.row - target.row), abs(p.col - target.col))
        if pickup_bonus and p.level == GROUND and not p.articles and g.ground[p.sq] and not g.turn["pickup"]:
            # Standing on an Article it can still pick up this Turn.
            score += 0.6 * max(ARTICLE_VALUES.get(a, ART_DEFAULT) for a in g.ground[p.sq])
    return score


def project(g: Game, always: bool = False) -> Game:
    """The belief game after this Turn's end (own projectiles fly, Transports
    go on, counters count down): always, or when anything of ours is in
    flight; else ``g`` itself."""
    me = g.to_move
    if g.result:
        return g
    if not always and not (any(p["color"] == me for p in g.projectiles)
                           or any(p.transport is not None and p.color == me for p in g.pieces.values())):
        return g
    h = g.copy()
    h.turn["moved"] = True
    h.seal()
    try:
        return apply(h, {"type": "end_turn"})
    except IllegalAction:
        return g


def outcome_score(g: Game, me: str) -> float | None:
    if not g.result and g.turn.get("fallen"):
        # A primary fell this Turn: the result is fixed when the Turn ends.
        g = project(g, always=True)
    if not g.result:
        return None
    winner = g.result.get("winner")
    return WIN if winner == me else -WIN


class Scorer:
    def __init__(self, b: Game, me: str) -> None:
        self.me = me
        self.enemy = other(me)
        self.attacks = attack_map(b, self.enemy)
        self.defended = frozenset(c.dest for cs in all_candidates(b, me, frozenset()).values() for c in cs
                                  if c.kind != PEACEFUL)

    def static(self, g: Game, pickup_bonus: bool = False) -> tuple[float, float, float]:
        """(score, own material, enemy material) with the pre-move threats."""
        out = outcome_score(g, self.me)
        if out is not None:
            return out, 0.0, 0.0
        own, enemy = material(g, self.me)
        score = (own - enemy + positional(g, self.me, pickup_bonus)
                 - threat_penalty(g, self.me, self.attacks, self.defended))
        return score, own, enemy

    def refined(self, g: Game) -> float:
        """The score with the enemy's threats and our chances recomputed."""
        out = outcome_score(g, self.me)
        if out is not None:
            return out
        own, enemy = material(g, self.me)
        attacks = attack_map(g, self.enemy)
        mine = all_candidates(g, self.me, frozenset())
        defended = {c.dest for cs in mine.values() for c in cs if c.kind != PEACEFUL}
        score = own - enemy + positional(g, self.me, True) - threat_penalty(g, self.me, attacks, defended)
        # What we could take or hit on our next Turn (the enemy may answer
        # first): the best of it, and more when it is the enemy primary.
        best = check = 0.0
        for slot, hits in attack_map(g, self.me, mine).items():
            for i in g.board[slot]:
                q = g.pieces[i]
                if q.color == self.me:
                    continue
                for attack, s, _ in hits:
                    e = effect(q, attack, s, self.me)
                    if e and q.type in PRIMARY:
                        # A stunned primary cannot step away.
                        check = max(check, 8.0 if q.stun else 3.0)
                    else:
                        best = max(best, min(e, 20.0))
        return score + 0.6 * min(fire_gain(g, self.me), 20.0) + 0.1 * best + check


# --- choosing -----------------------------------------------------------------------

def choose_action(game: Game, rng_seed: int | None = None) -> dict[str, Any] | None:
    """One action from ``legal_actions(game)`` for the side to move, chosen
    from that side's knowledge only; None when there is none."""
    actions = legal_actions(game)
    if not actions:
        return None
    rng = random.Random(rng_seed)
    me = game.to_move
    end = next((a for a in actions if a["type"] == "end_turn"), None)
    try:
        b = belief(game, me)
    except ValueError:
        b = None
    if b is None or b.result:
        return end or rng.choice(actions)
    scorer = Scorer(b, me)
    # Every non-Move action is scored after the Turn's end (a launched
    # projectile flies at once), so the baseline is too.
    base, base_own, base_enemy = scorer.static(project(b, always=True))
    extra_done = len(b.turn["sequence"]) - (1 if b.turn["moved"] else 0)
    restriction = b.options["action_restriction"]

    # A Move onto the enemy primary wins at once (checked on the belief).
    if not b.turn["moved"]:
        targets = {p.slot for p in b.pieces.values() if p.color != me and p.type in PRIMARY}
        for a in actions:
            if a["type"] == "move" and "doze" not in a and slot_of(*a["to"][:2], LEVELS.index(a["to"][2])) in targets:
                try:
                    g = apply(b, a)
                except IllegalAction:
                    continue
                if outcome_score(g, me) == WIN:
                    return a

    # Non-Move actions worth a look: Fires that could hit a seen enemy, Pick-ups, Reinforces.
    extras: list[tuple[float, dict[str, Any]]] = []
    if extra_done < MAX_EXTRA_ACTIONS:
        hot = _hot_slots(b, me)
        for a in actions:
            kind = a["type"]
            if kind == "fire":
                if not fire_may_hit(b, a, hot):
                    continue
            elif kind not in ("pickup", "reinforce"):
                continue
            try:
                g = apply(b, a)
            except IllegalAction:
                continue
            out = outcome_score(g, me)
            if out is not None:
                if out > 0:
                    return a
                continue
            g = project(g, always=True)
            out = outcome_score(g, me)
            if out is not None:
                if out > 0:
                    return a
                continue
            score, own, enemy = scorer.static(g)
            if kind == "fire" and (own < base_own - 1e-9 or enemy >= base_enemy - 1e-9):
                continue  # a Fire must hurt the enemy and spare our own
            gain = score - base
            if gain > CLEAR_GAIN:
                extras.append((gain + rng.random() * JITTER, a))
    extras.sort(key=lambda x: -x[0])

    if b.turn["moved"] or not any(a["type"] == "move" for a in actions):
        if extras:
            return extras[0][1]
        return end or rng.choice(actions)
    if extras and restriction != "12dpxmr_one_piece":
        return extras[0][1]  # clear gains first; the Move stays open

    # The Move.
    scored: list[tuple[float, dict[str, Any], Game]] = []
    for a in sample_dozings(actions, rng):
        try:
            g = project(apply(b, a))
        except IllegalAction:
            continue
        score = scorer.static(g, pickup_bonus=True)[0]
        scored.append((score + rng.random() * JITTER, a, g))
    if not scored:
        if extras:
            return extras[0][1]
        moves = [a for a in actions if a["type"] == "move"]
        return rng.choice(moves) if moves else (end or rng.choice(actions))
    scored.sort(key=lambda x: -x[0])
    best_score, best = None, None
    for static_score, a, g in scored[:REFINE]:
        score = scorer.refined(g) if static_score > -WIN / 2 else static_score
        score += rng.random() * JITTER
        if best_score is None or score > best_score:
            best_score, best = score, a
    assert best is not None and best_score is not None
    if extras and extras[0][0] >= best_score - base:
        # Under 12DPXMR-one-piece the first action binds the Turn to its
        # Piece: another action first only when it is worth more than the Move.
        return extras[0][1]
    return best


def sample_dozings(actions: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    """The Moves to score: every plain Move, and at most ``MAX_DOZINGS`` of each
    Dozer's dozings (each costs a fresh listing of that Dozer's dozings)."""
    moves = [a for a in actions if a["type"] == "move"]
    by_dozer: dict[int, list[int]] = {}
    for n, a in enumerate(moves):
        if "doze" in a:
            by_dozer.setdefault(a["piece"], []).append(n)
    drop: set[int] = set()
    for ns in by_dozer.values():
        if len(ns) > MAX_DOZINGS:
            drop.update(set(ns) - set(rng.sample(ns, MAX_DOZINGS)))
    return [a for n, a in enumerate(moves) if n not in drop]


def _hot_slots(b: Game, me: str) -> frozenset[int]:
    """Slots holding an enemy Piece the AI sees (everything enemy in the belief)."""
    return frozenset(p.slot for p in b.pieces.values() if p.color != me)


def fire_may_hit(b: Game, a: dict[str, Any], hot: frozenset[int]) -> bool:
    """A cheap filter before trying a Fire: could it hit a seen enemy this Turn?"""
    weapon = a["weapon"]
    if weapon in ("bike", "jump_pack", "scuba"):
        return False
    if "target" in a:
        r, c, lv = a["target"]
        if weapon == JET_ROCKET:
            return slot_of(r, c, GROUND) in hot
        fr, fc, _ = a["from"]
        return max(abs(r - fr), abs(c - fc)) <= 1
    r, c, level = a["from"]
    dr, dc = a["direction"]
    lv = LEVELS.index(level)
    if weapon in PROJECTILES:
        lv = PROJECTILES[weapon][1]
        reach = 1
    elif weapon == "flamer":
        reach = b.options["flamer_range"]
    elif weapon == "stunner":
        reach = b.options["stunner_range"]
    else:
        reach = 1
    for _ in range(reach):
        r, c = r + dr, c + dc
        if not _on(r, c):
            return False
        sl = slot_of(r, c, lv)
        if sl in hot:
            return True
        if weapon == "stunner" and b.board[sl]:
            return False
    return False

