"""The Turn's record and its winner.

Every action ends by logging what happened with who saw it (:func:`record`),
so that a censored Game History tells a side nothing its view does not
(l. 340-347, 1755-1760). A primary government Piece destroyed or converted
ends the game at the end of that Turn; the side that lost its own that Turn
loses (l. 47-49, 1743-1747).
"""

from __future__ import annotations

from typing import Any

from .. import fastpaths
from ..constants import PRIMARY, SIZE, other
from ..notation import mark_alike
from ..state import Game
from ..visibility import hidden_both, hidden_from, same_sight, sees_sub


def primaries(game: Game) -> dict[str, set[int]]:
    """The ids of each side's primary government Pieces."""
    out: dict[str, set[int]] = {"black": set(), "white": set()}
    pieces = game.pieces
    if not fastpaths.FAST_PATHS:
        for pid, p in pieces.items():
            if p.type in PRIMARY:
                out[p.color].add(pid)
        return out
    for pid in game.derived.prims:  # the board primitives keep this index
        out[pieces[pid].color].add(pid)
    return out


def settle(game: Game, before: dict[str, set[int]], actor: str) -> None:
    """Note a primary government Piece destroyed or converted during the Turn.

    The result is fixed only when the Turn ends (:func:`decide`): a King taken
    wins only if the taker's own King survives that same Turn (l. 48-49,
    456-458, 1745-1747). Once one has fallen the Turn is over but for its end
    (docs/rulings.md, "The end of the game").
    """
    after = primaries(game)
    lost = [c for c in ("black", "white") if before[c] - after[c]]
    if lost:
        fallen = game.turn.get("fallen") or []
        game.turn["fallen"] = sorted(set(fallen) | set(lost))


def settle_since(start: Game, game: Game, actor: str) -> None:
    """:func:`settle` (its plain rule) for ``game``, made from ``start``
    (unchanged) by an action. A primary government Piece can only fall by
    being removed (which replaces ``Derived.prims``) or converted (which
    counts in ``Derived.census``): when neither moved, nothing fell and the
    primaries need not be listed (a fast path)."""
    if (not fastpaths.FAST_PATHS or game.derived.census != start.derived.census
            or game.derived.prims is not start.derived.prims):
        settle(game, primaries(start), actor)


def decide(game: Game, fallen: list[str], actor: str) -> None:
    """Fix the result at the end of ``actor``'s Turn from the sides that lost
    a primary government Piece during it: if the actor lost one it loses (even
    if the enemy lost one too), otherwise it wins."""
    if not fallen:
        return
    if actor in fallen:
        game.result = {"winner": other(actor), "reason": "primary_lost" if len(fallen) == 1 else "both_primaries_lost"}
    else:
        game.result = {"winner": actor, "reason": "primary_taken"}


def turn_over(game: Game) -> bool:
    """Whether a primary government Piece fell this Turn, so that only
    ``end_turn`` remains."""
    return bool(game.turn.get("fallen"))


def record(before: Game, g: Game, action: dict[str, Any], events: list[dict[str, Any]], extra: dict[str, Any]) -> None:
    """Log an action of the Turn in progress with who saw what of it.

    ``public`` (on the entry and on each event) says whether the enemy of the
    acting side may read it; ``own`` (on events) whether the acting side may.
    Censored history keeps only those; together they make sure a history
    tells a side nothing its view does not.

    ``extra`` holds the entry's other fields (``actor``, ``other``,
    ``target``), in the order the entry lists them; ``public`` is added to
    it (the dict becomes part of the entry: a fresh one from each caller).
    """
    # Logging is the last step of every action: the pieces, locks and
    # sightings are final, so the game's hidden sets may be kept from here on
    # (update_markers and the next legal_actions reuse them).
    actor_color = before.to_move
    enemy = other(actor_color)
    # Each side's hidden set before the action, then after it (kept on
    # ``g``, the acting side's first). ``g`` is a copy of ``before`` changed
    # by the board primitives only (every caller makes it so): while they
    # changed nothing that sight reads (Derived.sight), the Pieces need not be
    # compared (visibility.same_sight), and when the rest is alike too the
    # sets are the ones before. Once they did, both sides' sets are worked
    # out again in one pass without comparing first (the comparison found
    # them alike in under a tenth of those actions).
    actor_before = hidden_from(before, actor_color)
    enemy_before = hidden_from(before, enemy)
    if g.derived.sight == 0 and same_sight(before, g, True):
        actor_after, enemy_after = actor_before, enemy_before
    else:
        black, white = hidden_both(g)
        actor_after, enemy_after = (black, white) if actor_color == "black" else (white, black)
        # A set equal to the one before is that same object (nearly always
        # for the acting side), so that the Move cache's identity test
        # (moves._move_source) still answers at once.
        if actor_after == actor_before:
            actor_after = actor_before
        if enemy_after == enemy_before:
            enemy_after = enemy_before
    g.derived.hidden = {actor_color: actor_after, enemy: enemy_after}
    old, new = before.pieces, g.pieces
    actor = extra.get("actor")
    if actor is None:
        extra["public"] = True
    else:
        # Seen acting by the enemy (the Piece seen before or after the
        # action); a Piece that moves (a Move, or a Fire of a Bike, Jump
        # Pack or Scuba) must be seen leaving and arriving, or leave or
        # arrive in plain sight.
        pid = actor.get("id")
        if pid is None:
            extra["public"] = True
        else:
            was, now = _seen(pid, old, new, enemy_before, enemy_after)
            kind = action["type"]
            if kind == "move" or (kind == "fire" and action.get("weapon") in _MOVING_WEAPONS):
                extra["public"] = (was and now) or (was and pid not in new) or (now and pid not in old)
            else:
                extra["public"] = was or now
        # Which of two alike Pieces on one place acted: the
        # notation writes a "#n" marker, counted among the Pieces each reader
        # can see (mark_alike, called only where the place holds two).
        p = old.get(pid) if pid is not None else None
        if p is not None and len(before.board[((p[3] - 1) * SIZE + p[4] - 1) * 3 + p[5]]) > 1:
            mark_alike(before, actor, enemy_before)
    if "other" in extra:
        mate = extra["other"]
        mark_alike(before, mate, enemy_before)
        # An Exchange shows both its Pieces: it is told only if both were seen.
        pid = mate.get("id")
        extra["public"] = extra["public"] and (pid is None or any(_seen(pid, old, new, enemy_before, enemy_after)))
    # An event about a Piece is told to a side (``public``: the enemy;
    # ``own``: the acting side) that saw the Piece: its own, or one it saw
    # after the action (or before it, when the Piece is gone).
    readers = (("public", enemy, enemy_before, enemy_after), ("own", actor_color, actor_before, actor_after))
    for ev in events:
        piece = ev.get("piece")
        if piece is not None:
            pid = piece.get("id")
            for key, side, hidden_then, hidden_now in readers:
                if piece["color"] == side:
                    ev[key] = True
                elif pid in new:
                    ev[key] = pid not in hidden_now
                else:
                    ev[key] = pid in old and pid not in hidden_then
        elif ev.get("projectile") == "torpedo" and before.options["submersion_invisibility"]:
            # A torpedo is as hidden as a Piece below: told only where a
            # side's Torpedo Launchers would see it (the firer knows its own).
            slot = ev.get("slot")
            ev["public"] = slot is not None and sees_sub(g, enemy, slot // 3 // SIZE + 1, slot // 3 % SIZE + 1)
        elif "slot" in ev or "projectile" in ev:
            ev["public"] = True
    g.turn_log = g.turn_log + ({"action": action, "events": events, **extra},)


def _seen(pid: int, old: dict[int, Any], new: dict[int, Any], hidden_before: frozenset[int],
          hidden_after: frozenset[int]) -> tuple[bool, bool]:
    """Whether a side saw Piece ``pid`` before the action (in ``old``,
    not in ``hidden_before``) and after it (in ``new``, not in
    ``hidden_after``)."""
    return pid in old and pid not in hidden_before, pid in new and pid not in hidden_after


#: The Fires that move their Piece (a Transport started by a Bike, Jump Pack or Scuba).
_MOVING_WEAPONS = ("bike", "jump_pack", "scuba")
