"""The end of the Turn: projectiles fly, Transports advance, counters count
down, and the Turn is written to the Game History.

The side that just played sees its projectiles fly one Square, hitting what
they meet or homing on their target (l. 133-161, 602-616), its Transports
carry their Pieces one Square (l. 228-233), and its stun and rate-of-fire
counters count down (l. 121-124, 162-164). Then the Turn's notation is kept
(GAME HISTORY, l. 1755-1800) and the result fixed (l. 47-49, 1743-1747).
"""

from __future__ import annotations

from typing import Any

from ..constants import LEVEL_INDEX, other, slot_of
from ..moves import Candidate, describe
from ..notation import turn_text
from ..plain import plain_text
from ..state import Game, empty_turn
from .common import IllegalAction, on_board, sign
from .effects import prune_locks, prune_revealed, settle_stranded
from .fire import hit_slot
from .move import own_candidates
from .record import decide, primaries, record, settle, turn_over
from .reinforce import track_reinforcements
from .transport import transport_step


def _fly(g: Game, proj: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any] | None:
    """One Turn of a projectile's flight; None once it hit or left the board."""
    level = LEVEL_INDEX[proj["level"]]
    row, col = proj["row"], proj["col"]
    if not proj["fresh"] and g.board[slot_of(row, col, level)]:
        events.append({"kind": "projectile_hit", "projectile": proj["kind"], "slot": slot_of(row, col, level)})
        hit_slot(g, slot_of(row, col, level), proj["kind"], proj["strength"], events)
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
            hit_slot(g, t.slot, proj["kind"], proj["strength"], events)
            return None
        else:
            proj["direction"] = [sign(t.row - row), sign(t.col - col)]
    dr, dc = proj["direction"]
    row, col = row + dr, col + dc
    if not on_board(row, col):
        events.append({"kind": "projectile_gone", "projectile": proj["kind"]})
        return None
    proj["row"], proj["col"] = row, col
    slot = slot_of(row, col, level)
    if g.board[slot]:
        events.append({"kind": "projectile_hit", "projectile": proj["kind"], "slot": slot})
        hit_slot(g, slot, proj["kind"], proj["strength"], events)
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


def end_turn_allowed(game: Game, candidates: dict[int, list[Candidate]] | None = None) -> bool:
    """``end_turn`` is open once the Move is made, or when no Move is possible
    (docs/rulings.md, "No Move"). ``candidates``, when the caller already has
    the side's Moves, saves computing them again."""
    if game.result:
        return False
    if game.turn["moved"] or turn_over(game):
        return True
    if candidates is None:
        candidates = own_candidates(game)
    return not candidates


def apply_end_turn(game: Game) -> Game:
    """The game after ``end_turn``: the end of the Turn, its record, the other side to move."""
    if not end_turn_allowed(game):
        raise IllegalAction("make your Move before ending the Turn")
    color = game.to_move
    g = game.copy()
    before = primaries(g)
    events: list[dict[str, Any]] = []
    end_of_turn(g, events)
    settle(g, before, color)
    fallen = list(g.turn.get("fallen") or [])
    track_reinforcements(g)
    record(game, g, {"type": "end_turn"}, events)
    entries = list(g.turn_log)
    # A finished Turn is kept as its notation (full, and as the enemy saw it)
    # and in plain English, so the state stays small however long the game
    # runs; a censored text equal to the full one is the same string object.
    rule = game.options["action_restriction"]
    text, plain = turn_text(entries, restriction=rule), plain_text(entries, color=color)
    censored, plain_censored = turn_text(entries, censored=True), plain_text(entries, censored=True, color=color)
    own, plain_own = turn_text(entries, censored="own", restriction=rule), plain_text(entries, censored="own", color=color)
    g.log = g.log + (
        {
            "color": color,
            "number": g.turn_number,
            "text": text,
            "censored": text if censored == text else censored,
            "plain": plain,
            "plain_censored": plain if plain_censored == plain else plain_censored,
            # What the acting side itself may read (its hits on Pieces it
            # cannot see are left out).
            "own": text if own == text else own,
            "plain_own": plain if plain_own == plain else plain_own,
            # The order the actions were taken in (12DPXMR letters), which the
            # notation does not keep: Undo replays the Turn in that order.
            "order": "".join(g.turn["sequence"]),
        },
    )
    g.turn_log = ()
    # Sightings are a set; kept sorted so that the order the Turn's actions
    # were taken in (which the notation does not record) leaves no trace.
    g.revealed = tuple(sorted(g.revealed))
    g.turn = empty_turn()
    g.to_move = other(color)
    g.turn_number += 1
    decide(g, fallen, color)
    return g
