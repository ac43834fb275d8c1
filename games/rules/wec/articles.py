"""Every Action besides the Move, and what happens when a Turn ends.

Fire, Pick-up, Drop, Exchange and Reinforce are checked against the Turn's
budget and the Action Restriction option, then carried out on a copy of the
game (a rejected action changes nothing). Weapons hit the true board: a Fire
does not care what its side can see, only a homing or targeted shot must be
aimed at something seen. Attacks are tallied per Piece and weapon for the whole
Turn, so a single Anti beaten by two attacks in one Turn no longer protects.

Between Turns (:func:`end_of_turn`) the side that just played sees its
projectiles fly one Square, its Transports carry their Pieces one Square, and
its stun and rate-of-fire counters count down.
"""

from __future__ import annotations

from typing import Any

from .constants import (
    AIR,
    GROUND,
    JET_ROCKET,
    KING_STEPS,
    LEVEL_INDEX,
    LEVELS,
    NATIVE_LEVELS,
    SECONDARY,
    SIZE,
    SUB,
    TRANSPORTS,
    WEAPONS,
    other,
    slot_of,
)
from .moves import (
    PEACEFUL,
    Knowledge,
    _can_land,
    describe,
    drop_article,
    drop_order,
    mixed_square,
    remove_piece,
)
from .scenario import capacity
from .state import Game, Piece

# Fireable abilities: what a ``fire`` action names in ``weapon``.
FIRE_WEAPONS = (*WEAPONS, JET_ROCKET, *TRANSPORTS)
#: Projectile launchers: the projectile and the level it always flies at.
PROJECTILES = {"rocket_launcher": ("rocket", GROUND), "sam_launcher": ("sam", AIR), "torpedo_launcher": ("torpedo", SUB)}
#: Attack kind -> the Anti that counts against it.
ANTI = {
    "flamer": "anti_flamer",
    "stunner": "anti_stunner",
    "conversion": "anti_conversion",
    "rocket": "anti_rocket",
    "sam": "anti_sam",
    "torpedo": "anti_torpedo",
}
#: Weapon (cooldown key) -> the option giving its rate of fire.
RATE = {
    "flamer": "flamer_rate",
    "stunner": "stunner_rate",
    "conversion": "conversion_rate",
    "rocket_launcher": "rocket_rate",
    "sam_launcher": "sam_rate",
    "torpedo_launcher": "torpedo_rate",
}
TRANSPORT_LEVEL = {"bike": GROUND, "jump_pack": AIR, "scuba": SUB}
PATHS = ("beeline", "port", "starboard")
#: The 12DPXMR order of a Turn's actions.
ORDER = "12DPXMR"
_CODE_NAME = {"1": "Fire", "2": "Fire", "D": "Drop", "P": "Pick-up", "X": "Exchange", "M": "Move", "R": "Reinforce"}
DIRECTIONS: tuple[tuple[int, int], ...] = tuple((f, r) for f, r in KING_STEPS)  # (row step, col step)


def _err(message: str) -> Exception:
    from .actions import IllegalAction

    return IllegalAction(message)


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _on_board(row: int, col: int) -> bool:
    return 1 <= row <= SIZE and 1 <= col <= SIZE


def _dist(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


# --- the Turn's budget and the Action Restriction ------------------------------

def fire_code(game: Game) -> str:
    return "1" if not game.turn["fires"] else "2"


def restriction_error(game: Game, code: str, pid: int | None) -> str | None:
    """Why the Action Restriction forbids an action now (None if it allows it).

    ``code`` is the action's letter in 12DPXMR; ``pid`` the acting Piece
    (None for a Reinforce, which no Piece performs).
    """
    rule = game.options["action_restriction"]
    if rule == "none":
        return None
    if rule == "move_only":
        return None if code == "M" else "only the Move is allowed in this game"
    turn = game.turn
    if rule == "one_action_per_piece":
        if pid is not None and pid in turn["actors"]:
            return "that piece has already acted this Turn"
        return None
    seq = turn["sequence"]
    if code == "R" and not turn["moved"]:
        return "in 12DPXMR order the Reinforce comes after the Move"
    if seq and ORDER.index(code) <= ORDER.index(seq[-1]):
        return f"in 12DPXMR order a {_CODE_NAME[code]} cannot follow this Turn's {_CODE_NAME[seq[-1]]}"
    if rule == "12dpxmr_one_piece" and pid is not None and turn["actors"] and pid != turn["actors"][0]:
        return "only the piece that acted first may act this Turn"
    return None


def movers_allowed(game: Game) -> set[int] | None:
    """The ids of Pieces the Action Restriction still lets Move (None: any)."""
    rule = game.options["action_restriction"]
    actors = game.turn["actors"]
    if not actors:
        return None
    if rule == "one_action_per_piece":
        return {pid for pid, p in game.pieces.items() if p.color == game.to_move and pid not in actors}
    if rule == "12dpxmr_one_piece":
        return {actors[0]}
    return None


def _note_action(game: Game, code: str, pid: int | None) -> None:
    if pid is not None:
        game.turn["actors"].append(pid)
    game.turn["sequence"].append(code)


# --- reading an action's fields ----------------------------------------------------

def _place(value: Any, what: str) -> tuple[int, int, int]:
    from .actions import _place as place

    return place(value, what)


def _square(value: Any, what: str) -> tuple[int, int]:
    if (
        not isinstance(value, (list, tuple))
        or len(value) not in (2, 3)
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value[:2])
    ):
        raise _err(f"'{what}' must be [row, col]")
    row, col = value[0], value[1]
    if not _on_board(row, col):
        raise _err(f"'{what}' ({row}, {col}) is off the board")
    return row, col


def _direction(value: Any) -> tuple[int, int]:
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) and -1 <= v <= 1 for v in value)
        or value[0] == value[1] == 0
    ):
        raise _err("'direction' must be [row step, column step], each -1, 0 or 1, not both 0")
    return value[0], value[1]


def _actor(game: Game, action: dict[str, Any], key: str = "from", piece_key: str = "piece",
           wants: Any = None) -> Piece:
    """The acting own Piece named by a place (and optionally an id)."""
    row, col, level = _place(action.get(key), key)
    color = game.to_move
    own = [game.pieces[i] for i in game.board[slot_of(row, col, level)] if game.pieces[i].color == color]
    where = f"({row}, {col}, {LEVELS[level]})"
    if not own:
        raise _err(f"you have no piece at {where}")
    wanted = action.get(piece_key)
    if wanted is not None:
        own = [p for p in own if p.id == wanted]
        if not own:
            raise _err(f"piece {wanted!r} of yours is not at {where}")
    if wants is not None and len(own) > 1:
        fitting = [p for p in own if wants(p)]
        if fitting:
            own = fitting
    return min(own, key=lambda p: p.id)


def _awake(p: Piece) -> None:
    if p.stun > 0:
        raise _err(f"that {p.type.replace('_', ' ')} is stunned and cannot act")


# --- dispatch -----------------------------------------------------------------------

def apply_action(game: Game, action: dict[str, Any]) -> Game:
    kind = action["type"]
    handler = {"fire": _fire, "pickup": _pickup, "drop": _drop, "exchange": _exchange, "reinforce": _reinforce}[kind]
    from .actions import _primaries, _record, settle, track_reinforcements

    g = game.copy()
    before = _primaries(g)
    events: list[dict[str, Any]] = []
    record = handler(g, action, events)
    settle_stranded(g, events)
    prune_locks(g)
    prune_revealed(g)
    track_reinforcements(g)
    _record(game, g, record.pop("action"), events, **record)
    settle(g, before, game.to_move)
    return g


# --- Fire ---------------------------------------------------------------------------

def strength(p: Piece, weapon: str) -> int:
    """How many abilities fire together when ``p`` fires ``weapon``."""
    if weapon == JET_ROCKET:
        return (1 + p.articles.count("rocket_launcher")) if JET_ROCKET in p.abilities() else 0
    if weapon in TRANSPORT_LEVEL:
        return 1 if weapon in p.articles else 0
    return p.abilities().count(weapon)


def cooldown_key(weapon: str) -> str:
    return "rocket_launcher" if weapon == JET_ROCKET else weapon


def cooldown(p: Piece, key: str) -> int:
    for k, v in p.cooldowns:
        if k == key:
            return v
    return 0


def fire_block(game: Game, p: Piece, weapon: str) -> str | None:
    """Why ``p`` cannot fire ``weapon`` now, whatever it aims at (None if it can)."""
    if strength(p, weapon) == 0:
        return f"that {p.type.replace('_', ' ')} has no {weapon.replace('_', ' ')}"
    if p.stun > 0:
        return f"that {p.type.replace('_', ' ')} is stunned and cannot act"
    if len(game.turn["fires"]) >= 2:
        return "you have already made two Fires this Turn"
    key = cooldown_key(weapon)
    if [p.id, key] in game.turn["fires"]:
        return f"that {weapon.replace('_', ' ')} has already fired this Turn"
    left = cooldown(p, key)
    if left:
        return f"that {weapon.replace('_', ' ')} can fire again in {left} Turn(s)"
    if weapon in TRANSPORT_LEVEL:
        if p.transport is not None:
            return "that piece is already in Transport"
        if not transport_start_ok(game, p, weapon):
            return f"that piece cannot start a {weapon.replace('_', ' ')} Transport from where it is"
    return restriction_error(game, fire_code(game), p.id)


def transport_start_ok(game: Game, p: Piece, article: str) -> bool:
    if p.level == GROUND:
        return True
    # Off the ground only a passenger of a Sub or Chopper may start one, and
    # only with the option, and only into the level it is already at.
    if not game.options["transport_from_carrier"]:
        return False
    if TRANSPORT_LEVEL[article] != p.level or p.level in NATIVE_LEVELS.get(p.type, ()):
        return False
    carrier = "chopper" if p.level == AIR else "sub"
    return any(game.pieces[i].type == carrier and game.pieces[i].color == p.color for i in game.board[p.slot])


def _fire(g: Game, action: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    weapon = action.get("weapon")
    if weapon not in FIRE_WEAPONS:
        raise _err(f"'weapon' must be one of {', '.join(FIRE_WEAPONS)}")
    p = _actor(g, action, wants=lambda q: strength(q, weapon) > 0)
    why = fire_block(g, p, weapon)
    if why:
        raise _err(why)
    s = strength(p, weapon)
    out: dict[str, Any] = {"type": "fire", "from": [p.row, p.col, LEVELS[p.level]], "piece": p.id, "weapon": weapon}
    firer = describe(p)
    record: dict[str, Any] = {"actor": firer}
    code = fire_code(g)
    if weapon in TRANSPORT_LEVEL:
        dest = _place(action.get("to"), "to")
        path = action.get("path", "beeline")
        if path not in PATHS:
            raise _err("'path' must be beeline, port or starboard")
        _check_transport_dest(g, p, weapon, dest)
        out.update(to=[dest[0], dest[1], LEVELS[dest[2]]], path=path)
        _start_transport(g, p, weapon, dest, path, events)
    elif weapon in ("flamer", "stunner", "conversion", "rocket_launcher") or (
        weapon in ("sam_launcher", "torpedo_launcher") and "target" not in action
    ):
        d = _direction(action.get("direction"))
        if not _on_board(p.row + d[0], p.col + d[1]):
            raise _err("that direction leads straight off the board")
        out["direction"] = list(d)
        if weapon == "flamer":
            _flame(g, p, d, s, events)
        elif weapon == "stunner":
            _stun_fire(g, p, d, s, events)
        elif weapon == "conversion":
            _convert_fire(g, p, d, s, events)
        else:
            _launch(g, p, weapon, d, None, s, events)
    elif weapon in ("sam_launcher", "torpedo_launcher"):
        target = _seen_target(g, p, action.get("target"), PROJECTILES[weapon][1], g.options["homing_range"],
                              enemy_only=True)
        out["target"] = [target.row, target.col, LEVELS[target.level]]
        record["target"] = describe(target)
        d = (_sign(target.row - p.row), _sign(target.col - p.col))
        _launch(g, p, weapon, d, target.id, s, events)
    else:  # the restricted Rocket of a Jet or Sub
        target = _seen_target(g, p, action.get("target"), GROUND, g.options["jet_rocket_range"], enemy_only=False)
        out["target"] = [target.row, target.col, "ground"]
        record["target"] = describe(target)
        events.append({"kind": "rocket_hit", "slot": target.slot})
        _hitslot_of(g, target.slot, "rocket", s, events)
    g.turn["fires"].append([p.id, cooldown_key(weapon)])
    if weapon in RATE or weapon == JET_ROCKET:
        key = cooldown_key(weapon)
        rate = g.options[RATE[key]]
        if p.id in g.pieces:
            q = g.pieces[p.id]
            g.update(p.id, cooldowns=tuple(sorted([(k, v) for k, v in q.cooldowns if k != key] + [(key, rate)])))
    _note_action(g, code, p.id)
    if g.options["seen_when_firing"]:
        reveal(g, p.id)
    record["action"] = out
    return record


def _seen_target(g: Game, p: Piece, value: Any, level: int, reach: int, enemy_only: bool) -> Piece:
    from .visibility import hidden_from

    row, col, lv = _place(value, "target")
    if lv != level:
        raise _err(f"that weapon can only aim at {LEVELS[level]} level")
    if _dist((p.row, p.col), (row, col)) > reach:
        raise _err(f"({row}, {col}) is beyond that weapon's reach of {reach}")
    hidden = hidden_from(g, p.color)
    seen = [
        g.pieces[i]
        for i in g.board[slot_of(row, col, lv)]
        if i not in hidden and i != p.id and (not enemy_only or g.pieces[i].color != p.color)
    ]
    if not seen:
        kind = "enemy piece" if enemy_only else "piece"
        raise _err(f"you see no {kind} to aim at at ({row}, {col}, {LEVELS[lv]})")
    return min(seen, key=lambda q: (q.color == p.color, q.id))


def _ray(p: Piece, d: tuple[int, int], reach: int) -> list[tuple[int, int]]:
    out = []
    r, c = p.row, p.col
    for _ in range(reach):
        r, c = r + d[0], c + d[1]
        if not _on_board(r, c):
            break
        out.append((r, c))
    return out


def _flame(g: Game, p: Piece, d: tuple[int, int], s: int, events: list[dict[str, Any]]) -> None:
    for r, c in _ray(p, d, g.options["flamer_range"]):
        _hitslot_of(g, slot_of(r, c, p.level), "flamer", s, events)


def _stun_fire(g: Game, p: Piece, d: tuple[int, int], s: int, events: list[dict[str, Any]]) -> None:
    for r, c in _ray(p, d, g.options["stunner_range"]):
        slot = slot_of(r, c, p.level)
        if g.board[slot]:
            _hitslot_of(g, slot, "stunner", s, events)
            return


def _convert_fire(g: Game, p: Piece, d: tuple[int, int], s: int, events: list[dict[str, Any]]) -> None:
    slot = slot_of(p.row + d[0], p.col + d[1], p.level)
    _hitslot_of(g, slot, "conversion", s, events, convert_to=p.color)


def _launch(g: Game, p: Piece, weapon: str, d: tuple[int, int], target: int | None, s: int,
            events: list[dict[str, Any]]) -> None:
    kind, level = PROJECTILES[weapon]
    proj = {"kind": kind, "color": p.color, "row": p.row, "col": p.col, "level": LEVELS[level],
            "direction": list(d), "target": target, "strength": s, "fresh": True}
    g.projectiles = g.projectiles + (proj,)
    events.append({"kind": "launched", "projectile": kind, "slot": slot_of(p.row, p.col, level)})


# --- hits and their effects ------------------------------------------------------

def _tally(g: Game, pid: int, attack: str, s: int) -> int:
    """Add ``s`` attacks of ``attack`` on ``pid`` to this Turn's tally; the total."""
    hits = g.turn.setdefault("hits", [])
    for n, h in enumerate(hits):
        if h[0] == pid and h[1] == attack:
            # A new entry, not an update in place: the list is shared with
            # the game this one was copied from.
            hits[n] = [pid, attack, h[2] + s]
            return h[2] + s
    hits.append([pid, attack, s])
    return s


def _hitslot_of(g: Game, slot: int, attack: str, s: int, events: list[dict[str, Any]],
              convert_to: str | None = None) -> None:
    """Attack every Piece at ``slot`` (a Conversion only the firer's enemies)."""
    victims = []
    for pid in g.board[slot]:
        q = g.pieces[pid]
        if convert_to is not None and q.color == convert_to:
            continue
        total = _tally(g, pid, attack, s)
        defence = q.abilities().count(ANTI[attack])
        if total > defence:
            victims.append(pid)
        else:
            events.append({"kind": "resisted", "attack": attack, "piece": describe(q)})
    if attack == "conversion":
        for pid in victims:
            convert(g, pid, convert_to or other(g.pieces[pid].color), events)
        conversion_kills(g, slot, events)
        return
    for pid in victims:
        if pid not in g.pieces:
            continue
        if attack == "stunner":
            stun(g, pid, events)
        else:
            events.append({"kind": "destroyed", "by": attack, "piece": describe(g.pieces[pid])})
            remove_piece(g, pid)


def convert(g: Game, pid: int, color: str, events: list[dict[str, Any]]) -> None:
    q = g.pieces[pid]
    events.append({"kind": "converted", "piece": describe(q)})
    g.update(pid, color=color)


def conversion_kills(g: Game, slot: int, events: list[dict[str, Any]]) -> None:
    """A passenger whose carrier is now its enemy (either one converted)
    cannot stay aloft or below: it is conversion killed."""
    if slot % 3 == GROUND:
        return
    for i in list(g.board[slot]):
        q = g.pieces[i]
        if _stranded(g, q):
            events.append({"kind": "destroyed", "by": "conversion_kill", "piece": describe(q)})
            remove_piece(g, i)


def stun(g: Game, pid: int, events: list[dict[str, Any]]) -> None:
    """Stun a Piece: it drops every carried Article and, if away from the
    ground in the air or by Transport, comes down or is destroyed."""
    q = g.pieces[pid]
    events.append({"kind": "stunned", "piece": describe(q)})
    g.update(pid, stun=g.options["stun_turns"], articles=(), transport=None)
    for art in q.articles:
        drop_article(g, q, art)
    if q.level == AIR or (q.level == SUB and SUB not in NATIVE_LEVELS.get(q.type, ())):
        come_down(g, pid, events, "stunner_kill")


def _true_board(g: Game, color: str) -> Knowledge:
    """The board as it really is, for the landing rules of ``moves``: what
    happens to a Piece is decided on the true board, not on what its side saw."""
    return Knowledge(g, color, frozenset())


def come_down(g: Game, pid: int, events: list[dict[str, Any]], cause: str) -> None:
    """Bring a Piece to the ground of its Square; destroyed if it cannot land
    there (enemies on that ground, or no room beside the friends there)."""
    q = g.pieces[pid]
    if not _can_land(_true_board(g, q.color), q.slot - q.level, [q], PEACEFUL):
        events.append({"kind": "destroyed", "by": cause, "piece": describe(q)})
        remove_piece(g, pid)
        return
    g.place(pid, q.row, q.col, GROUND, transport=None)
    events.append({"kind": "landed", "piece": describe(g.pieces[pid])})


def _stranded(g: Game, q: Piece) -> bool:
    """A Piece away from the ground that cannot stay there: not native to the
    level, not in Transport, and no friendly Sub or Chopper carrying it."""
    if q.level == GROUND or q.level in NATIVE_LEVELS.get(q.type, ()) or q.transport is not None:
        return False
    carrier = "chopper" if q.level == AIR else "sub"
    return not any(
        g.pieces[i].type == carrier and g.pieces[i].color == q.color and i != q.id for i in g.board[q.slot]
    )


def settle_stranded(g: Game, events: list[dict[str, Any]]) -> None:
    """Passengers left without their carrier (it was destroyed or fell) come
    down to the ground of their Square, or are destroyed if they cannot."""
    for pid in [i for i, q in g.pieces.items() if q.level != GROUND]:
        if pid in g.pieces and _stranded(g, g.pieces[pid]):
            come_down(g, pid, events, "crash")


def prune_locks(g: Game) -> None:
    """A lock-on lasts while its watcher lives and still has an Anti-Stealth."""
    if g.locks:
        keep = tuple(
            (a, b) for a, b in g.locks if a in g.pieces and b in g.pieces and g.pieces[a].has("anti_stealth")
        )
        if keep != g.locks:
            g.locks = keep


def prune_revealed(g: Game) -> None:
    """Forget sightings of Pieces that have moved on (or are gone)."""
    if g.revealed:
        keep = tuple(r for r in g.revealed if r[0] in g.pieces and g.pieces[r[0]].slot == r[1])
        if keep != g.revealed:
            g.revealed = keep


def reveal(g: Game, pid: int) -> None:
    """Mark a Piece as seen by the enemy where it stands (it fired or took)."""
    if pid in g.pieces:
        q = g.pieces[pid]
        g.revealed = tuple(r for r in g.revealed if r[0] != pid) + ((pid, q.slot),)


# --- Transport -------------------------------------------------------------------

def _check_transport_dest(g: Game, p: Piece, article: str, dest: tuple[int, int, int]) -> None:
    lv = TRANSPORT_LEVEL[article]
    row, col, level = dest
    if level != GROUND and (g.options["transport_ground_to_ground_only"] or level != lv):
        allowed = "ground" if g.options["transport_ground_to_ground_only"] else f"ground or {LEVELS[lv]}"
        raise _err(f"a {article.replace('_', ' ')} Transport must end at {allowed} level")
    if (row, col) == (p.row, p.col) and (article == "bike" or level == p.level):
        raise _err("a Transport must go somewhere else")
    if article != "bike" and p.level != GROUND and p.level != lv:
        raise _err("that piece cannot start this Transport from where it is")


def route_step(row: int, col: int, to_row: int, to_col: int, path: str) -> tuple[int, int]:
    """The next Square from (row, col) toward (to_row, to_col) by king steps.

    The shortest routes mix diagonal and straight steps; ``beeline`` keeps
    them interleaved, ``port`` and ``starboard`` take first the kind of step
    that bends the route to the left or the right of the straight line.
    """
    dr, dc = to_row - row, to_col - col
    sr, sc = _sign(dr), _sign(dc)
    if dr == 0 or dc == 0 or abs(dr) == abs(dc):
        return row + sr, col + sc
    diag = (sr, sc)
    straight = (sr, 0) if abs(dr) > abs(dc) else (0, sc)
    n_diag = min(abs(dr), abs(dc))
    n_straight = max(abs(dr), abs(dc)) - n_diag
    if path == "beeline":
        step = diag if n_diag >= n_straight else straight
    else:
        # Left of the heading (dr, dc) is (dc, -dr) in (row, col) terms.
        bulge = (diag[0] - straight[0]) * dc + (diag[1] - straight[1]) * -dr
        diag_first = (bulge > 0) == (path == "port")
        step = diag if diag_first else straight
    return row + step[0], col + step[1]


def _start_transport(g: Game, p: Piece, article: str, dest: tuple[int, int, int], path: str,
                     events: list[dict[str, Any]]) -> None:
    lv = TRANSPORT_LEVEL[article]
    t = (article, dest[0], dest[1], dest[2], path, True)
    g.update(p.id, transport=t)
    events.append({"kind": "transport", "article": article, "piece": describe(p)})
    if article == "bike":
        transport_step(g, p.id, events)
    elif p.level != lv:
        _enter(g, p.id, slot_of(p.row, p.col, lv), events)


def _enter(g: Game, pid: int, slot: int, events: list[dict[str, Any]]) -> bool:
    """Take a Piece in Transport into ``slot``; False if it crashed."""
    q = g.pieces[pid]
    # Movement by Transport is non-combat (l. 510-513): a place holding
    # enemies stops the Piece just as a place it cannot share with friends
    # does; nothing is taken (docs/rulings.md, "Transports").
    if not _can_land(_true_board(g, q.color), slot, [q], PEACEFUL):
        events.append({"kind": "crashed", "piece": describe(q)})
        g.update(pid, transport=None)
        if q.level != GROUND:
            come_down(g, pid, events, "crash")
        return False
    sq, level = divmod(slot, 3)
    g.place(pid, sq // SIZE + 1, sq % SIZE + 1, level)
    return True


def transport_step(g: Game, pid: int, events: list[dict[str, Any]]) -> None:
    """One Square of a Transport (and the landing or surfacing on arrival)."""
    q = g.pieces[pid]
    article, to_row, to_col, to_level, path, _fresh = q.transport
    if (q.row, q.col) != (to_row, to_col):
        r, c = route_step(q.row, q.col, to_row, to_col, path)
        if not _enter(g, pid, slot_of(r, c, q.level), events):
            return
        q = g.pieces[pid]
        events.append({"kind": "transported", "piece": describe(q)})
    if (q.row, q.col) == (to_row, to_col):
        if q.level != to_level and not _enter(g, pid, slot_of(to_row, to_col, to_level), events):
            return
        if pid in g.pieces and g.pieces[pid].transport is not None:
            g.update(pid, transport=None)
            events.append({"kind": "arrived", "piece": describe(g.pieces[pid])})


# --- Pick-up, Drop, Exchange, Reinforce ------------------------------------------

def _article(action: dict[str, Any], key: str = "article") -> str:
    from .constants import ARTICLE_TYPES

    art = action.get(key)
    if art not in ARTICLE_TYPES:
        raise _err(f"'{key}' must be an Article type")
    return art


def _budget(g: Game, flag: str, code: str, pid: int | None) -> None:
    if g.turn[flag]:
        raise _err(f"you have already made this Turn's {_CODE_NAME[code]}")
    why = restriction_error(g, code, pid)
    if why:
        raise _err(why)


def _pickup(g: Game, action: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    art = _article(action)
    p = _actor(g, action, wants=lambda q: len(q.articles) < capacity(q.type, q.articles + (art,)))
    _awake(p)
    _budget(g, "pickup", "P", p.id)
    if p.level != GROUND:
        raise _err("only a piece at ground level can pick up an Article")
    if art not in g.ground[p.sq]:
        raise _err(f"there is no {art.replace('_', ' ')} on the ground at ({p.row}, {p.col})")
    new = p.articles + (art,)
    if len(new) > capacity(p.type, new):
        raise _err("that piece has no room for another Article")
    arts = list(g.ground[p.sq])
    arts.remove(art)
    g.ground[p.sq] = tuple(arts)
    g.update(p.id, articles=new)
    g.turn["pickup"] = True
    _note_action(g, "P", p.id)
    if art == "anti_stealth":
        lock_on(g, g.pieces[p.id])
    return {"action": {"type": "pickup", "from": [p.row, p.col, "ground"], "piece": p.id, "article": art},
            "actor": describe(p)}


def lock_on(g: Game, watcher: Piece) -> None:
    """An Anti-Stealth just picked up locks on to the nearest enemy Piece with
    Stealth that its side cannot see (lock-on mode), if there is one."""
    from .visibility import hidden_from, is_stealthed

    if not g.options["stealth_lock_on"]:
        return
    hidden = hidden_from(g, watcher.color)
    candidates = [g.pieces[i] for i in hidden if is_stealthed(g, g.pieces[i])]
    if not candidates:
        return
    # Ties go to the lowest row, then column, then level as Black numbers them:
    # a fixed rule that uses nothing but the board.
    target = min(candidates, key=lambda q: (_dist((q.row, q.col), (watcher.row, watcher.col)), q.row, q.col, q.level,
                                             q.type))
    g.locks = g.locks + ((watcher.id, target.id),)


def _drop(g: Game, action: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    art = _article(action)
    p = _actor(g, action, wants=lambda q: art in q.articles)
    _awake(p)
    _budget(g, "drop", "D", p.id)
    if art not in p.articles:
        raise _err(f"that piece carries no {art.replace('_', ' ')}")
    if p.transport is not None and p.transport[0] == art and p.articles.count(art) == 1:
        raise _err("that Article is driving the piece's Transport")
    # Where the ground of the Square is full, the Article goes where a
    # stunned-off one would (l. 311-313, 1923-1939; docs/rulings.md, "Dropping
    # onto a full Square").
    where = drop_square(g, p)
    if where is None:
        raise _err("there is no room left on the board's ground for another Article")
    arts = list(p.articles)
    arts.remove(art)
    if len(arts) > capacity(p.type, arts):
        raise _err("without that XXX box the piece could not hold its other Articles; drop them first")
    g.update(p.id, articles=tuple(arts))
    g.ground[where] = g.ground[where] + (art,)
    g.turn["drop"] = True
    _note_action(g, "D", p.id)
    return {"action": {"type": "drop", "from": [p.row, p.col, LEVELS[p.level]], "piece": p.id, "article": art},
            "actor": describe(p)}


def drop_square(g: Game, p: Piece) -> int | None:
    """The Square an Article dropped by ``p`` lands on: its own if the ground
    there has room, else the first with room in the stunned-off order."""
    if len(g.ground[p.sq]) < 2:
        return p.sq
    for s in drop_order(p.color, p.sq):
        if len(g.ground[s]) < 2:
            return s
    return None


def _locked_article(p: Piece, art: str) -> bool:
    return p.transport is not None and p.transport[0] == art and p.articles.count(art) == 1


def exchange_reach(a: Piece, b: Piece) -> bool:
    return a.type in SECONDARY or b.type in SECONDARY or _dist((a.row, a.col), (b.row, b.col)) <= 1


def _exchange(g: Game, action: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    art = _article(action)
    swap = _article(action, "swap") if action.get("swap") is not None else None
    a = _actor(g, action, wants=lambda q: art in q.articles)
    b = _actor(g, action, key="to", piece_key="to_piece",
               wants=(lambda q: swap in q.articles) if swap else (lambda q: q.id != a.id))
    _awake(a)
    _awake(b)
    _budget(g, "exchange", "X", a.id)
    if a.id == b.id:
        raise _err("an Exchange needs two different pieces")
    if not exchange_reach(a, b):
        raise _err("those pieces are too far apart to Exchange (only the secondary government piece reaches any "
                   "distance)")
    if art not in a.articles:
        raise _err(f"the giving piece carries no {art.replace('_', ' ')}")
    if _locked_article(a, art) or (swap and _locked_article(b, swap)):
        raise _err("an Article driving a Transport cannot be exchanged")
    a_arts = list(a.articles)
    a_arts.remove(art)
    b_arts = list(b.articles)
    if swap is not None:
        if swap not in b.articles:
            raise _err(f"the other piece carries no {swap.replace('_', ' ')}")
        b_arts.remove(swap)
        a_arts.append(swap)
    b_arts.append(art)
    for q, arts in ((a, a_arts), (b, b_arts)):
        if len(arts) > capacity(q.type, arts):
            raise _err("that Exchange would leave a piece carrying more Articles than it can")
    g.update(a.id, articles=tuple(a_arts))
    g.update(b.id, articles=tuple(b_arts))
    g.turn["exchange"] = True
    _note_action(g, "X", a.id)
    out = {"type": "exchange", "from": [a.row, a.col, LEVELS[a.level]], "piece": a.id, "article": art,
           "to": [b.row, b.col, LEVELS[b.level]], "to_piece": b.id}
    if swap is not None:
        out["swap"] = swap
    return {"action": out, "actor": describe(a), "other": describe(b)}


def _reinforce(g: Game, action: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    row, col = _square(action.get("to"), "to")
    kind = action.get("piece_type")
    _budget(g, "reinforce", "R", None)
    color = g.to_move
    waiting = [
        (i, r) for i, r in enumerate(g.reinforcements)
        if r.color == color and (r.row, r.col) == (row, col) and (kind is None or r.type == kind)
    ]
    if not waiting:
        raise _err(f"you have no reinforcement {'' if kind is None else kind + ' '}waiting at ({row}, {col})")
    ready = [(i, r) for i, r in waiting if r.ready]
    if not ready:
        raise _err(f"the reinforcement at ({row}, {col}) is not ready: a piece of yours must stand there at ground "
                   "level and then leave")
    i, r = ready[0]
    new = Piece(id=0, type=r.type, color=color, row=row, col=col, level=GROUND, hand=r.hand)
    if not reinforce_fits(g, new):
        raise _err(f"there is no room for the reinforcement at ({row}, {col})")
    slot = slot_of(row, col, GROUND)
    for j in [j for j in g.board[slot] if g.pieces[j].color != color]:
        # Only an enemy its side could not see can be standing there.
        events.append({"kind": "taken", "piece": describe(g.pieces[j]), "slot": slot})
        remove_piece(g, j)
    placed = g.add(new)
    g.reinforcements = g.reinforcements[:i] + g.reinforcements[i + 1:]
    g.turn["reinforce"] = True
    _note_action(g, "R", None)
    events.append({"kind": "reinforced", "piece": describe(placed)})
    return {"action": {"type": "reinforce", "to": [row, col], "piece_type": r.type}, "actor": describe(placed)}


def reinforce_fits(g: Game, new: Piece) -> bool:
    """Whether a reinforcement can appear on its ground place, as its side
    knows the board (like a non-combat landing)."""
    from .visibility import hidden_from

    kn = Knowledge(g, new.color, hidden_from(g, new.color))
    # A Square holding a mixed pair admits no newcomer (l. 1914-1917).
    return not mixed_square(kn, new.sq) and _can_land(kn, new.slot, [new], PEACEFUL)


# --- between Turns ---------------------------------------------------------------------

def _fly(g: Game, proj: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any] | None:
    """One Turn of a projectile's flight; None once it hit or left the board."""
    level = LEVEL_INDEX[proj["level"]]
    row, col = proj["row"], proj["col"]
    if not proj["fresh"] and g.board[slot_of(row, col, level)]:
        events.append({"kind": "projectile_hit", "projectile": proj["kind"], "slot": slot_of(row, col, level)})
        _hitslot_of(g, slot_of(row, col, level), proj["kind"], proj["strength"], events)
        return None
    proj = dict(proj, fresh=False)
    target = proj.get("target")
    if target is not None:
        t = g.pieces.get(target)
        if t is None or t.level != level or t.color == proj["color"]:
            # The target landed, surfaced, died or changed sides: the lock breaks.
            proj["target"] = None
            events.append({"kind": "lock_lost", "projectile": proj["kind"]})
            if not any(proj["direction"]):
                # Launched at a Piece straight above or below and never moved:
                # no heading to fly on as a directional projectile, so it is
                # spent (docs/rulings.md, "A homing projectile whose target is gone").
                events.append({"kind": "projectile_spent", "projectile": proj["kind"]})
                return None
        elif (t.row, t.col) == (row, col):
            events.append({"kind": "projectile_hit", "projectile": proj["kind"], "slot": t.slot})
            _hitslot_of(g, t.slot, proj["kind"], proj["strength"], events)
            return None
        else:
            proj["direction"] = [_sign(t.row - row), _sign(t.col - col)]
    dr, dc = proj["direction"]
    row, col = row + dr, col + dc
    if not _on_board(row, col):
        events.append({"kind": "projectile_gone", "projectile": proj["kind"]})
        return None
    proj["row"], proj["col"] = row, col
    slot = slot_of(row, col, level)
    if g.board[slot]:
        events.append({"kind": "projectile_hit", "projectile": proj["kind"], "slot": slot})
        _hitslot_of(g, slot, proj["kind"], proj["strength"], events)
        return None
    ev = {"kind": "flew", "projectile": proj["kind"], "slot": slot, "direction": list(proj["direction"])}
    if proj["target"] is not None:
        ev["target"] = describe(g.pieces[proj["target"]])
    events.append(ev)
    return proj


def end_of_turn(game: Game, events: list[dict[str, Any]]) -> None:
    """Projectiles fly, Transports advance, counters count down (for the side
    whose Turn is ending, on ``game``, a fresh copy)."""
    color = game.to_move
    if game.projectiles:
        kept = []
        for proj in game.projectiles:
            if proj["color"] == color:
                moved = _fly(game, proj, events)
                if moved is not None:
                    kept.append(moved)
            else:
                kept.append(proj)
        game.projectiles = tuple(kept)
    for pid in sorted(i for i, q in game.pieces.items() if q.color == color and q.transport is not None):
        q = game.pieces.get(pid)
        if q is None or q.transport is None or q.color != color:
            continue
        if q.transport[5]:
            game.update(pid, transport=q.transport[:5] + (False,))
        else:
            transport_step(game, pid, events)
    for pid, q in list(game.pieces.items()):
        if q.color != color or not (q.stun or q.cooldowns):
            continue
        game.update(
            pid,
            stun=max(0, q.stun - 1),
            cooldowns=tuple((k, v - 1) for k, v in q.cooldowns if v > 1),
        )
    settle_stranded(game, events)
    prune_locks(game)
    prune_revealed(game)


# --- listing every legal action ----------------------------------------------------

def other_actions(game: Game, hidden: frozenset[int]) -> list[dict[str, Any]]:
    """Every legal Fire, Pick-up, Drop, Exchange and Reinforce for the side to
    move, as that side knows the board."""
    if game.options["action_restriction"] == "move_only":
        return []
    color = game.to_move
    turn = game.turn
    own = [p for p in game.pieces.values() if p.color == color]
    own.sort(key=lambda p: p.id)
    out: list[dict[str, Any]] = []
    for p in own:
        if p.stun:
            continue
        where = [p.row, p.col, LEVELS[p.level]]
        if len(turn["fires"]) < 2:
            for weapon in _weapons(p):
                if fire_block(game, p, weapon):
                    continue
                out.extend(_fire_aims(game, p, weapon, where, hidden))
        if not turn["pickup"] and p.level == GROUND and game.ground[p.sq] and not restriction_error(game, "P", p.id):
            for art in dict.fromkeys(game.ground[p.sq]):
                new = p.articles + (art,)
                if len(new) <= capacity(p.type, new):
                    out.append({"type": "pickup", "from": where, "piece": p.id, "article": art})
        if (not turn["drop"] and p.articles and not restriction_error(game, "D", p.id)
                and drop_square(game, p) is not None):
            for art in dict.fromkeys(p.articles):
                rest = list(p.articles)
                rest.remove(art)
                if not _locked_article(p, art) and len(rest) <= capacity(p.type, rest):
                    out.append({"type": "drop", "from": where, "piece": p.id, "article": art})
        if not turn["exchange"] and p.articles and not restriction_error(game, "X", p.id):
            for q in own:
                if q.id == p.id or q.stun or not exchange_reach(p, q):
                    continue
                to = [q.row, q.col, LEVELS[q.level]]
                for art in dict.fromkeys(p.articles):
                    if _locked_article(p, art):
                        continue
                    rest = list(p.articles)
                    rest.remove(art)
                    if len(q.articles) + 1 <= capacity(q.type, list(q.articles) + [art]) and len(rest) <= capacity(
                        p.type, rest
                    ):
                        out.append({"type": "exchange", "from": where, "piece": p.id, "article": art, "to": to,
                                    "to_piece": q.id})
                    for swap in dict.fromkeys(q.articles):
                        if swap == art or _locked_article(q, swap):
                            continue
                        mine = rest + [swap]
                        theirs = [a for a in q.articles]
                        theirs.remove(swap)
                        theirs.append(art)
                        if len(mine) <= capacity(p.type, mine) and len(theirs) <= capacity(q.type, theirs):
                            out.append({"type": "exchange", "from": where, "piece": p.id, "article": art, "to": to,
                                        "to_piece": q.id, "swap": swap})
    if not turn["reinforce"] and not restriction_error(game, "R", None):
        seen = set()
        for r in game.reinforcements:
            if r.color == color and r.ready and (r.row, r.col, r.type) not in seen:
                seen.add((r.row, r.col, r.type))
                if reinforce_fits(game, Piece(0, r.type, color, r.row, r.col, GROUND, r.hand)):
                    out.append({"type": "reinforce", "to": [r.row, r.col], "piece_type": r.type})
    return out


def _weapons(p: Piece) -> list[str]:
    abilities = p.abilities()
    out = [w for w in FIRE_WEAPONS if w in abilities and w != JET_ROCKET and w not in TRANSPORT_LEVEL]
    if JET_ROCKET in abilities:
        out.append(JET_ROCKET)
    if p.transport is None:
        out.extend(w for w in ("bike", "jump_pack", "scuba") if w in p.articles)
    return out


def _fire_aims(game: Game, p: Piece, weapon: str, where: list[Any], hidden: frozenset[int]) -> list[dict[str, Any]]:
    base = {"type": "fire", "from": where, "piece": p.id, "weapon": weapon}
    out = []
    if weapon in TRANSPORT_LEVEL:
        lv = TRANSPORT_LEVEL[weapon]
        levels = [GROUND] if game.options["transport_ground_to_ground_only"] or lv == GROUND else [GROUND, lv]
        if weapon != "bike" and p.level not in (GROUND, lv):
            return []
        for r in range(1, SIZE + 1):
            for c in range(1, SIZE + 1):
                for level in levels:
                    if (r, c) == (p.row, p.col) and (weapon == "bike" or level == p.level):
                        continue
                    straight = r == p.row or c == p.col or abs(r - p.row) == abs(c - p.col)
                    for path in ("beeline",) if straight else PATHS:
                        out.append(dict(base, to=[r, c, LEVELS[level]], path=path))
        return out
    if weapon == JET_ROCKET or (weapon in ("sam_launcher", "torpedo_launcher")):
        level = GROUND if weapon == JET_ROCKET else PROJECTILES[weapon][1]
        reach = game.options["jet_rocket_range"] if weapon == JET_ROCKET else game.options["homing_range"]
        for r in range(max(1, p.row - reach), min(SIZE, p.row + reach) + 1):
            for c in range(max(1, p.col - reach), min(SIZE, p.col + reach) + 1):
                slot = slot_of(r, c, level)
                for i in game.board[slot]:
                    q = game.pieces[i]
                    if i in hidden or i == p.id or (weapon != JET_ROCKET and q.color == p.color):
                        continue
                    out.append(dict(base, target=[r, c, LEVELS[level]]))
                    break
        if weapon == JET_ROCKET:
            return out
    for d in _AIMS[(p.row, p.col)]:
        aim = dict(base)
        aim["direction"] = [d[0], d[1]]
        out.append(aim)
    return out


# The directions that stay on the board, from each Square.
_AIMS = {
    (r, c): tuple(d for d in DIRECTIONS if _on_board(r + d[0], c + d[1]))
    for r in range(1, SIZE + 1)
    for c in range(1, SIZE + 1)
}
