"""Fire: the Weapons, their projectiles, and what their hits do.

The Weapons (l. 116-164, 180-182, glossary l. 586-616): the Flamer, Stunner
and Conversion strike at once; the Rocket, SAM and Torpedo Launchers launch
projectiles (directional or homing) that fly at the end of the Turn (see
:mod:`.turn`); the restricted Rocket of a Jet or Sub strikes a seen ground
Square. Each Anti holds off one attack of its kind (l. 167-175), counted per
Turn; each Weapon fires at its rate (l. 162-164). Firing a Transport Article
hands over to :mod:`.transport`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from .. import fastpaths
from ..constants import (
    AIR,
    GROUND,
    JET_ROCKET,
    LEVELS,
    NATIVE_LEVELS,
    SIZE,
    SUB,
    TRANSPORTS,
    WEAPONS,
    other,
    slot_of,
)
from ..moves import describe, drop_article, remove_piece
from ..state import Game, Piece
from ..visibility import hidden_from
from .budget import fire_code, note_action, restriction_error
from .common import DIRECTIONS, acting_piece, dist, illegal, on_board, read_direction, read_place, sign
from .effects import come_down, reveal, stranded
from .transport import PATHS, TRANSPORT_LEVEL, check_transport_dest, start_transport, transport_start_ok

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


def strength(p: Piece, weapon: str) -> int:
    """How many abilities fire together when ``p`` fires ``weapon``."""
    key = (p.type, p.articles, weapon)
    s = _STRENGTH.get(key)
    if s is None:
        if weapon == JET_ROCKET:
            s = (1 + p.articles.count("rocket_launcher")) if JET_ROCKET in p.abilities() else 0
        elif weapon in TRANSPORT_LEVEL:
            s = 1 if weapon in p.articles else 0
        else:
            s = p.abilities().count(weapon)
        _STRENGTH[key] = s
    return s


# (type, Articles, weapon) -> strength: a handful of keys in any game.
_STRENGTH: dict[tuple[str, tuple[str, ...], str], int] = {}


def cooldown_key(weapon: str) -> str:
    """The rate-of-fire counter a weapon uses (a Jet's Rocket shares its Launcher's)."""
    return "rocket_launcher" if weapon == JET_ROCKET else weapon


def cooldown(p: Piece, key: str) -> int:
    """Turns left before ``p`` may fire ``key`` again."""
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


def do_fire(g: Game, action: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    """Carry out a ``fire`` action on ``g``; its log entry."""
    weapon = action.get("weapon")
    if weapon not in FIRE_WEAPONS:
        raise illegal(f"'weapon' must be one of {', '.join(FIRE_WEAPONS)}")
    p = acting_piece(g, action, wants=lambda q: strength(q, weapon) > 0)
    why = fire_block(g, p, weapon)
    if why:
        raise illegal(why)
    s = strength(p, weapon)
    out: dict[str, Any] = {"type": "fire", "from": [p.row, p.col, LEVELS[p.level]], "piece": p.id, "weapon": weapon}
    firer = describe(p)
    record: dict[str, Any] = {"actor": firer}
    code = fire_code(g)
    if weapon in TRANSPORT_LEVEL:
        dest = read_place(action.get("to"), "to")
        path = action.get("path", "beeline")
        if path not in PATHS:
            raise illegal("'path' must be beeline, port or starboard")
        check_transport_dest(g, p, weapon, dest)
        out.update(to=[dest[0], dest[1], LEVELS[dest[2]]], path=path)
        start_transport(g, p, weapon, dest, path, events)
    elif weapon in ("flamer", "stunner", "conversion", "rocket_launcher") or (
        weapon in ("sam_launcher", "torpedo_launcher") and "target" not in action
    ):
        d = read_direction(action.get("direction"))
        if not on_board(p.row + d[0], p.col + d[1]):
            raise illegal("that direction leads straight off the board")
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
        d = (sign(target.row - p.row), sign(target.col - p.col))
        _launch(g, p, weapon, d, target.id, s, events)
    else:  # the restricted Rocket of a Jet or Sub
        target = _seen_target(g, p, action.get("target"), GROUND, g.options["jet_rocket_range"], enemy_only=False)
        out["target"] = [target.row, target.col, "ground"]
        record["target"] = describe(target)
        events.append({"kind": "rocket_hit", "slot": target.slot})
        hit_slot(g, target.slot, "rocket", s, events)
    key = cooldown_key(weapon)
    g.turn["fires"].append([p.id, key])
    if weapon in RATE or weapon == JET_ROCKET:
        rate = g.options[RATE[key]]
        q = g.pieces.get(p.id)
        if q is not None:
            # Only the cooldowns change: Game.cool (nothing else depends on them).
            g.cool(p.id, tuple(sorted([(k, v) for k, v in q.cooldowns if k != key] + [(key, rate)])))
    note_action(g, code, p.id)
    if g.options["seen_when_firing"]:
        reveal(g, p.id)
    record["action"] = out
    return record


def _seen_target(g: Game, p: Piece, value: Any, level: int, reach: int, enemy_only: bool) -> Piece:
    row, col, lv = read_place(value, "target")
    if lv != level:
        raise illegal(f"that weapon can only aim at {LEVELS[level]} level")
    if dist((p.row, p.col), (row, col)) > reach:
        raise illegal(f"({row}, {col}) is beyond that weapon's reach of {reach}")
    hidden = hidden_from(g, p.color)
    seen = [
        g.pieces[i]
        for i in g.board[slot_of(row, col, lv)]
        if i not in hidden and i != p.id and (not enemy_only or g.pieces[i].color != p.color)
    ]
    if not seen:
        kind = "enemy piece" if enemy_only else "piece"
        raise illegal(f"you see no {kind} to aim at at ({row}, {col}, {LEVELS[lv]})")
    return min(seen, key=lambda q: (q.color == p.color, q.id))


def _ray(p: Piece, d: tuple[int, int], reach: int) -> list[tuple[int, int]]:
    out = []
    r, c = p.row, p.col
    for _ in range(reach):
        r, c = r + d[0], c + d[1]
        if not on_board(r, c):
            break
        out.append((r, c))
    return out


def _flame(g: Game, p: Piece, d: tuple[int, int], s: int, events: list[dict[str, Any]]) -> None:
    for r, c in _ray(p, d, g.options["flamer_range"]):
        hit_slot(g, slot_of(r, c, p.level), "flamer", s, events)


def _stun_fire(g: Game, p: Piece, d: tuple[int, int], s: int, events: list[dict[str, Any]]) -> None:
    for r, c in _ray(p, d, g.options["stunner_range"]):
        slot = slot_of(r, c, p.level)
        if g.board[slot]:
            hit_slot(g, slot, "stunner", s, events)
            return


def _convert_fire(g: Game, p: Piece, d: tuple[int, int], s: int, events: list[dict[str, Any]]) -> None:
    slot = slot_of(p.row + d[0], p.col + d[1], p.level)
    hit_slot(g, slot, "conversion", s, events, convert_to=p.color)


def _launch(g: Game, p: Piece, weapon: str, d: tuple[int, int], target: int | None, s: int,
            events: list[dict[str, Any]]) -> None:
    kind, level = PROJECTILES[weapon]
    proj = {"kind": kind, "color": p.color, "row": p.row, "col": p.col, "level": LEVELS[level],
            "direction": list(d), "target": target, "strength": s, "fresh": True}
    g.projectiles = g.projectiles + (proj,)
    events.append({"kind": "launched", "projectile": kind, "slot": slot_of(p.row, p.col, level)})


def tally(g: Game, pid: int, attack: str, s: int) -> int:
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


def hit_slot(g: Game, slot: int, attack: str, s: int, events: list[dict[str, Any]],
              convert_to: str | None = None) -> None:
    """Attack every Piece at ``slot`` (a Conversion only the firer's enemies)."""
    victims = []
    for pid in g.board[slot]:
        q = g.pieces[pid]
        if convert_to is not None and q.color == convert_to:
            continue
        total = tally(g, pid, attack, s)
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
    """Turn a Piece to ``color`` (a Conversion hit)."""
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
        if stranded(g, q):
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


def fire_actions(game: Game, p: Piece, where: list[Any], hidden: frozenset[int], out: list[dict[str, Any]],
                 weapons: tuple[str, ...] | None = None, dirs: list[list[int]] | None = None,
                 memo: dict[Any, Any] | None = None) -> None:
    """Add every legal Fire of ``p`` (not stunned) to ``out``, as its side
    knows the board: each weapon :func:`fire_block` lets it fire now (its
    plain rule, inlined here: a fast path) at each aim (``fire_aims``);
    ``weapons``, when the caller has them, are ``p``'s
    that are not cooling down (``ready_weapons(_weapons(p), p.cooldowns)``);
    ``dirs``, the listing's direction lists (see ``_add_directions``; one
    list for the whole listing); ``memo``, the
    side's listing memo (see ``_memo_aims``): the Fires that depend on the
    Piece's id and place only are handed out again from it."""
    fires = game.turn["fires"]
    if len(fires) >= 2:
        return
    pid = p.id
    free = game.options["action_restriction"] == "none"
    aloft = p.level != GROUND
    if dirs is None:
        dirs = []
    if weapons is None:
        weapons = ready_weapons(_weapons(p), p.cooldowns)
    for weapon in weapons:
        # fire_block, inlined for the weapons _weapons lists (each has a
        # strength; Transports only while the Piece is in none) that are not
        # cooling down.
        if fires and [pid, "rocket_launcher" if weapon == JET_ROCKET else weapon] in fires:
            continue
        if aloft and weapon in TRANSPORT_LEVEL and not transport_start_ok(game, p, weapon):
            continue
        if not free and restriction_error(game, fire_code(game), pid):
            continue
        if memo is not None and weapon not in _TARGETED:
            _memo_aims(game, p, weapon, where, hidden, out, dirs, memo)
        elif weapon == JET_ROCKET:
            # Its seen targets only (what _add_aims would list, a call saved).
            _add_targets(game, p, weapon, where, hidden, out)
        elif weapon in _AIMED:
            _add_aims(game, p, weapon, where, hidden, out, dirs)
        else:
            # _fire_aims for a weapon fired in a direction (most of them).
            _add_directions(out, where, pid, weapon, _AIMS[p.row * 16 + p.col], dirs)


@dataclass(slots=True)
class Aims:
    """The Fires of one weapon of one Piece that depend only on its id,
    place and the options, as a listing built them (kept in the listing
    memo under ``(piece id, weapon)``)."""

    #: What they were built for: the Piece's row, column and level (and for
    #: a Transport the ``transport_ground_to_ground_only`` option).
    place: tuple[Any, ...]
    #: The action dicts.
    actions: list[dict[str, Any]]


def _memo_aims(game: Game, p: Piece, weapon: str, where: list[Any], hidden: frozenset[int],
               out: list[dict[str, Any]], dirs: list[list[int]], memo: dict[Any, Any]) -> None:
    """Add the Fires of ``weapon`` by ``p`` to ``out`` as ``_add_aims`` does,
    the ones that depend only on the Piece's id, place and the options (every
    direction Fire, every Transport aim) from ``memo``: the dicts built for
    the same Piece, weapon and place in an earlier listing of this side,
    handed out again (read only, see docs/engine-api.md). A Piece
    that did not move since its side's last listing (nearly all of them)
    gets the same dicts; the Sam and Torpedo targets, which depend on what
    the side sees, are built each time. One entry per Piece and weapon (the
    last place): a side's memo stays as small as its armoury."""
    pid = p.id
    if weapon in TRANSPORT_LEVEL:
        place = (p.row, p.col, p.level, game.options["transport_ground_to_ground_only"])
    else:
        place = (p.row, p.col, p.level)
        if weapon in _AIMED:
            # The seen targets first, as _add_aims lists them.
            _add_targets(game, p, weapon, where, hidden, out)
    key = (pid, weapon)
    e = memo.get(key)
    if e is not None and e.place == place:
        out.extend(e.actions)
        return
    made: list[dict[str, Any]] = []
    if weapon in TRANSPORT_LEVEL:
        _add_aims(game, p, weapon, where, hidden, made, dirs)
    else:
        _add_directions(made, where, pid, weapon, _AIMS[p.row * 16 + p.col], dirs)
    memo[key] = Aims(place, made)
    out.extend(made)


def _add_directions(out: list[dict[str, Any]], where: list[Any], pid: int, weapon: str,
                    aims: tuple[int, ...], dirs: list[list[int]]) -> None:
    """Add a Fire of ``weapon`` in each direction of ``aims`` (indexes into
    ``DIRECTIONS``) to ``out``.

    Each is a copy of one dict with the direction set last: copying a dict
    (its keys come along as a block) costs less than building the same
    five-key literal, and the keys keep their order (type, from, piece,
    weapon, direction). Each aim gets its own dict; its direction list is
    ``dirs[i]``, one list per direction for a whole listing (filled here on
    first need), as a Piece's actions share their "from" list: a listing
    holds about 24 direction Fires and only 8 directions, and every list
    made is also one more object for the cyclic collector to walk."""
    if not dirs:
        dirs += [[d0, d1] for d0, d1 in DIRECTIONS]
    copy = {"type": "fire", "from": where, "piece": pid, "weapon": weapon, "direction": None}.copy
    append = out.append
    for i in aims:
        a = copy()
        a["direction"] = dirs[i]
        append(a)


def _weapons(p: Piece) -> tuple[str, ...]:
    key = (p.type, p.articles, p.transport is None)
    found = _WEAPONS.get(key)
    if found is None:
        abilities = p.abilities()
        out = [w for w in FIRE_WEAPONS if w in abilities and w != JET_ROCKET and w not in TRANSPORT_LEVEL]
        if JET_ROCKET in abilities:
            out.append(JET_ROCKET)
        if p.transport is None:
            out.extend(w for w in ("bike", "jump_pack", "scuba") if w in p.articles)
        found = _WEAPONS[key] = tuple(out)
    return found


# (type, Articles, not in Transport) -> the weapons it may fire.
_WEAPONS: dict[tuple[str, tuple[str, ...], bool], tuple[str, ...]] = {}


def ready_weapons(weapons: tuple[str, ...], cooldowns: tuple[tuple[str, int], ...]) -> tuple[str, ...]:
    """Those of ``weapons`` that are not cooling down under ``cooldowns``
    (a Piece's: ``cooldown`` is 0 for each), memoized by the pair: a
    handful of weapon lists and of cooldowns in any game."""
    if not cooldowns:
        return weapons
    key = (weapons, cooldowns)
    found = _READY.get(key)
    if found is None:
        # cooldown(p, key) of each: the turns left of the first pair for its key.
        found = _READY[key] = tuple(w for w in weapons
                                    if not next((v for k, v in cooldowns if k == cooldown_key(w)), 0))
    return found


# (weapons, cooldowns) -> those not cooling down.
_READY: dict[tuple[tuple[str, ...], tuple[tuple[str, int], ...]], tuple[str, ...]] = {}


def _transport_aims(weapon: str, row: int, col: int, level: int, ground_only: bool
                    ) -> tuple[tuple[int, int, str, bool], ...]:
    """The (row, col, level name, straight) of every place a Piece at (row,
    col, level) may start a Transport with ``weapon`` to: ``straight`` when
    only the beeline leads there, else every path of ``PATHS`` does
    (memoized: a pure function)."""
    key = (weapon, row, col, level, ground_only)
    found = _TRANSPORT_AIMS.get(key)
    if found is None:
        lv = TRANSPORT_LEVEL[weapon]
        levels = [GROUND] if ground_only or lv == GROUND else [GROUND, lv]
        found = ()
        if weapon == "bike" or level in (GROUND, lv):
            named = [(x, LEVELS[x]) for x in levels]
            bike = weapon == "bike"
            # Every Square in board order with whether it is on a beeline
            # from (row, col), shared by the weapons, levels and options.
            found = tuple([(r, c, name, straight) for r, c, straight in _beelines(row, col) for x, name in named
                           if not (r == row and c == col and (bike or x == level))])
        _TRANSPORT_AIMS[key] = found
    return found


@cache
def _beelines(row: int, col: int) -> tuple[tuple[int, int, bool], ...]:
    """(r, c, straight) for every Square in board order: ``straight`` when it
    is on a line or diagonal through (row, col) (memoized: geometry only)."""
    return tuple((r, c, r == row or c == col or abs(r - row) == abs(c - col))
                 for r in range(1, SIZE + 1) for c in range(1, SIZE + 1))


_TRANSPORT_AIMS: dict[tuple[str, int, int, int, bool], tuple[tuple[int, int, str, bool], ...]] = {}


def _fire_aims(game: Game, p: Piece, weapon: str, where: list[Any], hidden: frozenset[int]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    _add_aims(game, p, weapon, where, hidden, out, [])
    return out


def _add_aims(game: Game, p: Piece, weapon: str, where: list[Any], hidden: frozenset[int],
              out: list[dict[str, Any]], dirs: list[list[int]]) -> None:
    """Add the Fires of ``weapon`` by ``p`` (``_fire_aims``) to ``out``, in
    order: fire_actions lists them straight into its listing (no list made
    and copied per weapon)."""
    # Each aim is a new dict with the keys in the order type, from, piece,
    # weapon, then the aim (the order every caller has always seen).
    pid = p.id
    if weapon in TRANSPORT_LEVEL:
        # Copies of one dict per path, as in _add_directions (a Transport has
        # hundreds of aims): only "to" is set on each.
        beeline, port, starboard = (
            {"type": "fire", "from": where, "piece": pid, "weapon": weapon, "to": None, "path": path}.copy
            for path in PATHS)
        append = out.append
        for r, c, name, straight in _transport_aims(
                weapon, p.row, p.col, p.level, game.options["transport_ground_to_ground_only"]):
            # The paths to one place share its "to" list (within this
            # listing only, as a Piece's actions share "from").
            to = [r, c, name]
            a = beeline()
            a["to"] = to
            append(a)
            if not straight:
                a = port()
                a["to"] = to
                append(a)
                a = starboard()
                a["to"] = to
                append(a)
        return
    if weapon == JET_ROCKET or (weapon in ("sam_launcher", "torpedo_launcher")):
        _add_targets(game, p, weapon, where, hidden, out)
        if weapon == JET_ROCKET:
            return
    _add_directions(out, where, pid, weapon, _AIMS[p.row * 16 + p.col], dirs)


def _add_targets(game: Game, p: Piece, weapon: str, where: list[Any], hidden: frozenset[int],
                 out: list[dict[str, Any]]) -> None:
    """Add the Fires of ``weapon`` (a Jet's Rocket, a Sam or Torpedo
    Launcher) at each Piece its side sees in reach to ``out``, in the
    board's order (``_add_aims``). A homing target at the air or sub level
    is sought (a fast path) only on the Squares where a Piece is aloft, not
    on every Square in reach (:func:`_squares_by_rule`)."""
    pid = p.id
    board = game.board
    pieces = game.pieces
    row, col = p.row, p.col
    if weapon == JET_ROCKET:
        reach = game.options["jet_rocket_range"]
        if not reach:
            # Its own Square only (the default): any Piece seen there but itself.
            for i in board[((row - 1) * SIZE + col - 1) * 3 + GROUND]:
                if i in hidden or i == pid:
                    continue
                out.append({"type": "fire", "from": where, "piece": pid, "weapon": weapon,
                            "target": [row, col, "ground"]})
                break
            return
        level = GROUND
        any_colour = True
    else:
        if not game.derived.aloft and fastpaths.FAST_PATHS:
            # Nothing away from the ground: no air or sub level holds a Piece.
            return
        level = PROJECTILES[weapon][1]
        reach = game.options["homing_range"]
        any_colour = False
    name = LEVELS[level]
    color = p.color
    # The Squares in reach (max and min, as conditionals: no calls).
    r0 = row - reach if row > reach else 1
    r1 = row + reach if row + reach < SIZE else SIZE
    c0 = col - reach if col > reach else 1
    c1 = col + reach if col + reach < SIZE else SIZE
    if level == GROUND:
        # (_squares_by_rule, inline: a ground target is sought Square by Square.)
        squares: Any = ((r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1))
    elif fastpaths.FAST_PATHS:
        # Only the Pieces away from the ground (Derived.aloft) can be at the
        # air or sub level: their Squares in reach, in the board's order
        # (what scanning every Square in reach would meet).
        squares = sorted({(q.row, q.col) for q in map(pieces.__getitem__, game.derived.aloft)
                          if q.level == level and r0 <= q.row <= r1 and c0 <= q.col <= c1})
    else:
        squares = _squares_by_rule(r0, r1, c0, c1)
    for r, c in squares:
        for i in board[((r - 1) * SIZE + c - 1) * 3 + level]:
            if i in hidden or i == pid or (not any_colour and pieces[i].color == color):
                continue
            out.append({"type": "fire", "from": where, "piece": pid, "weapon": weapon,
                        "target": [r, c, name]})
            break


def _squares_by_rule(r0: int, r1: int, c0: int, c1: int) -> Any:
    """The Squares (row, col) from rows ``r0`` to ``r1`` and columns ``c0``
    to ``c1``, in the board's order: where a target in reach may stand."""
    return ((r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1))


#: The weapons whose aims are more than a direction (see _fire_aims).
_AIMED = frozenset(TRANSPORT_LEVEL) | {JET_ROCKET, "sam_launcher", "torpedo_launcher"}

#: The weapons whose every aim is a seen target (no listing memo for them).
_TARGETED = frozenset((JET_ROCKET,))

# The directions that stay on the board, from each Square (keyed row * 16 +
# col), as indexes into DIRECTIONS (see _add_directions).
_AIMS = {
    r * 16 + c: tuple(i for i, d in enumerate(DIRECTIONS) if on_board(r + d[0], c + d[1]))
    for r in range(1, SIZE + 1)
    for c in range(1, SIZE + 1)
}


# Public names for the search (games/rules/wec/search.py builds the enemy's
# forcing replies from them without asking for every legal action).
weapons_of = _weapons
AIMED = _AIMED
memo_aims = _memo_aims
fire_aims = _fire_aims
