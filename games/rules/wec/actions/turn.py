"""The end of the Turn: projectiles fly, Transports advance, counters count
down, and the Turn is written to the Game History.

The side that just played sees its projectiles fly one Square, hitting what
they meet or homing on their target (l. 133-161, 602-616), its Transports
carry their Pieces one Square (l. 228-233), and its stun and rate-of-fire
counters count down (l. 121-124, 162-164). Then the Turn's notation is kept
(GAME HISTORY, l. 1755-1800) and the result fixed (l. 47-49, 1743-1747).
"""

from __future__ import annotations

import pickle
from typing import Any

from .. import fastpaths
from ..constants import LEVEL_INDEX, other, slot_of
from ..moves import Candidate, describe
from ..notation import sequence, turn_text
from ..plain import plain_text
from ..state import Game, empty_turn
from .common import IllegalAction, on_board, sign
from .effects import prune_locks, prune_revealed, settle_stranded
from .fire import hit_slot
from .move import own_candidates
from .record import decide, record, settle_since, turn_over
from .reinforce import track_reinforcements
from .transport import transport_step


def _fly(g: Game, proj: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any] | None:
    """One Turn of a projectile's flight; None once it hit or left the board."""
    level = LEVEL_INDEX[proj["level"]]
    row, col = proj["row"], proj["col"]
    board = g.board
    if not proj["fresh"]:
        slot = slot_of(row, col, level)
        if board[slot]:
            events.append({"kind": "projectile_hit", "projectile": proj["kind"], "slot": slot})
            hit_slot(g, slot, proj["kind"], proj["strength"], events)
            return None
    # A copy with ``fresh`` false, its keys in the same order.
    proj = proj.copy()
    proj["fresh"] = False
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
    if board[slot]:
        events.append({"kind": "projectile_hit", "projectile": proj["kind"], "slot": slot})
        hit_slot(g, slot, proj["kind"], proj["strength"], events)
        return None
    ev = {"kind": "flew", "projectile": proj["kind"], "slot": slot, "direction": list(proj["direction"])}
    if proj["target"] is not None:
        ev["target"] = describe(g.pieces[proj["target"]])
    events.append(ev)
    return proj


#: Finished Turns a game keeps unpacked at most (see PendingTurn).
MAX_PENDING = 2


class PendingTurn:
    """A finished Turn's record before its texts are written.

    Ending a Turn notes only its log entries; ``record()`` writes the record
    dict the first time the game's log is read and keeps it (every game that
    shares this Turn then reads the same dict). The dict is exactly what
    writing it at the end of the Turn gave: same keys, same order, same
    texts, a censored text equal to the full one being the same string.

    A game keeps its newest ``MAX_PENDING`` pending Turns as they are; older
    ones are packed (``pack``: the entries pickled, about 1 KB a Turn, less
    than the written record) until read, so that a long game nobody reads
    stays small without writing texts nobody asks for. The entries are
    plain dicts, lists, strings and numbers: unpickled they are equal, key
    order included, and the texts only read their values."""

    __slots__ = ("entries", "color", "number", "rule", "order", "done")

    def __init__(self, entries: tuple[dict[str, Any], ...], color: str, number: int, rule: str, order: str) -> None:
        self.entries: tuple[dict[str, Any], ...] | bytes = entries
        self.color = color
        self.number = number
        self.rule = rule
        self.order = order
        self.done: dict[str, Any] | None = None

    def pack(self) -> None:
        """Keep the entries pickled (nothing else changes; see the class)."""
        if self.done is None and self.entries.__class__ is tuple:
            self.entries = pickle.dumps(self.entries, protocol=pickle.HIGHEST_PROTOCOL)

    def record(self) -> dict[str, Any]:
        done = self.done
        if done is None:
            entries = self.entries
            if entries.__class__ is bytes:
                entries = pickle.loads(entries)  # noqa: S301 - our own bytes, made by pack()
            done = self.done = turn_record(list(entries), self.color, self.number, self.rule, self.order)
            self.entries = ()
        return done


def turn_record(entries: list[dict[str, Any]], color: str, number: int, rule: str, order: str) -> dict[str, Any]:
    """The record of a finished Turn: its notation (full, as the enemy saw
    it, as the acting side itself may read it) and the same in plain English,
    and the order its actions were taken in.

    Where nothing of the Turn was kept from a reader the censored texts are
    the full ones (the same string), without computing them again: the
    ``own`` texts leave out only events marked not ``own``; the enemy's
    plain text only entries and events not ``public``; its notation also
    drops the ``,SQ:`` order and writes a Piece's public ``#n`` mark, which
    only an acting Piece's description (``actor``, ``other``) can carry.
    A fast path of :func:`turn_record_by_rule`, which writes all six."""
    if not fastpaths.FAST_PATHS:
        return turn_record_by_rule(entries, color, number, rule, order)
    text, plain = turn_text(entries, restriction=rule), plain_text(entries, color=color)
    all_own = all_public = True
    marked = False
    for e in entries:
        if not e.get("public", True):
            all_public = False
        for key in ("actor", "other"):
            d = e.get(key)
            if d is not None and "mark" in d:
                marked = True
        for ev in e["events"]:
            if not ev.get("own", True):
                all_own = False
            if not ev.get("public", True):
                all_public = False
    if all_own:
        own, plain_own = text, plain
    else:
        own, plain_own = turn_text(entries, censored="own", restriction=rule), plain_text(entries, censored="own",
                                                                                           color=color)
    plain_censored = plain if all_public else plain_text(entries, censored=True, color=color)
    if all_public and not marked:
        tail = ",SQ:" + sequence(entries)
        censored = text[: -len(tail)] if text.endswith(tail) else text
    else:
        censored = turn_text(entries, censored=True)
    return _record(color, number, text, censored, plain, plain_censored, own, plain_own, order)


def turn_record_by_rule(entries: list[dict[str, Any]], color: str, number: int, rule: str, order: str
                        ) -> dict[str, Any]:
    """The record of a finished Turn (GAME HISTORY, l. 1755-1800): its
    notation in full, as the enemy may read it (censored, l. 340-347,
    1755-1760) and as the acting side itself may; the same three in plain
    English; and the order its actions were taken in."""
    return _record(color, number, turn_text(entries, restriction=rule), turn_text(entries, censored=True),
                   plain_text(entries, color=color), plain_text(entries, censored=True, color=color),
                   turn_text(entries, censored="own", restriction=rule),
                   plain_text(entries, censored="own", color=color), order)


def _record(color: str, number: int, text: str, censored: str, plain: str, plain_censored: str, own: str,
            plain_own: str, order: str) -> dict[str, Any]:
    """A Turn's record dict from its texts; a text equal to the full one is
    that same string."""
    return {
        "color": color,
        "number": number,
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
        "order": order,
    }


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
    # The side's own Pieces, in id order (Derived.sides), are all that is looked at.
    pieces = game.pieces
    moving = [i for i in game.derived.sides[color] if pieces[i].transport is not None]
    for pid in moving:
        q = game.pieces.get(pid)
        if q is None or q.transport is None or q.color != color:
            continue
        if q.transport[5]:
            game.update(pid, transport=q.transport[:5] + (False,))
        else:
            transport_step(game, pid, events)
    # Each step changes only its own Piece: the ones to count down can be
    # listed first (in id order: each touches at most its own Square, and
    # the Squares touched are read as a set).
    pieces = game.pieces
    for pid, q in [(i, q) for i in game.derived.sides[color] if (q := pieces[i]).cooldowns or q.stun]:
        cooldowns = tuple([(k, v - 1) for k, v in q.cooldowns if v > 1])
        if q.stun:
            game.update(pid, stun=max(0, q.stun - 1), cooldowns=cooldowns)
        else:
            game.cool(pid, cooldowns)
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
    events: list[dict[str, Any]] = []
    end_of_turn(g, events)
    settle_since(game, g, color)
    fallen = list(g.turn.get("fallen") or [])
    track_reinforcements(g)
    record(game, g, {"type": "end_turn"}, events, {})
    # A finished Turn is kept as its notation (full, and as each side saw it)
    # and in plain English, so the state stays small however long the game
    # runs; the texts are written when the log is first read (Game.log).
    g.pending = g.pending + (
        PendingTurn(g.turn_log, color, g.turn_number, game.options["action_restriction"], "".join(g.turn["sequence"])),
    )
    if len(g.pending) > MAX_PENDING:
        # A long game nobody reads: pack the Turn that has just grown older
        # than the newest MAX_PENDING (memory; its texts are written if and
        # when the log is read).
        g.pending[-MAX_PENDING - 1].pack()
    g.turn_log = ()
    # Sightings are a set; kept sorted so that the order the Turn's actions
    # were taken in (which the notation does not record) leaves no trace.
    g.revealed = tuple(sorted(g.revealed))
    g.turn = empty_turn()
    # The new Turn arms nothing yet: a reinforcement armed in the Turn just
    # ended may get ready without any Square touched, so the next action's
    # aftermath looks at everything again (Derived.calm).
    g.derived.unsettled()
    g.to_move = other(color)
    g.turn_number += 1
    decide(g, fallen, color)
    return g
