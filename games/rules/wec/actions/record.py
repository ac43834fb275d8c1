"""The Turn's record and its winner.

Every action ends by logging what happened with who saw it (:func:`record`),
so that a censored Game History tells a side nothing its view does not
(l. 340-347, 1755-1760). A primary government Piece destroyed or converted
ends the game at the end of that Turn; the side that lost its own that Turn
loses (l. 47-49, 1743-1747).
"""

from __future__ import annotations

from typing import Any

from ..constants import SIZE, other
from ..notation import mark_alike
from ..state import Game
from ..visibility import hidden_after, hidden_from, same_sight, sees_sub


def primaries(game: Game) -> dict[str, set[int]]:
    """The ids of each side's primary government Pieces."""
    out: dict[str, set[int]] = {"black": set(), "white": set()}
    pieces = game.pieces
    for pid in game.prims:  # the board primitives keep this index
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
    """:func:`settle` for ``game``, made from ``start`` (unchanged) by an
    action. A primary government Piece can only fall by being removed (which
    replaces ``Game.prims``) or converted (which counts in ``Game.census``):
    when neither moved, nothing fell and the primaries need not be listed."""
    if game.census != start.census or game.prims is not start.prims:
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


def record(before: Game, g: Game, action: dict[str, Any], events: list[dict[str, Any]], **extra: Any) -> None:
    """Log an action of the Turn in progress with who saw what of it.

    ``public`` (on the entry and on each event) says whether the enemy of the
    acting side may read it; ``own`` (on events) whether the acting side may.
    Censored history keeps only those; together they make sure a history
    tells a side nothing its view does not.
    """
    # Logging is the last step of every action: the pieces, locks and
    # sightings are final, so the game's hidden sets may be kept from here on
    # (update_markers and the next legal_actions reuse them).
    g.hidden_cache = {}
    actor_color = before.to_move
    enemy = other(actor_color)
    # ``g`` is a copy of ``before`` changed by the board primitives only
    # (every caller makes it so): while they changed nothing that sight
    # reads (Game.sight), the Pieces need not be compared. Once they did,
    # the hidden sets are worked out again without comparing first (the
    # comparison found them alike in under a tenth of those actions).
    same = g.sight == 0 and same_sight(before, g, True)
    # Each side's hidden set before and after the action (worked out in this
    # order, as always; the after sets are kept on ``g``). When sight may
    # have changed each set is worked out again (comparing what one side's
    # set reads first cost more than it spared).
    actor_before = hidden_from(before, actor_color)
    actor_after = hidden_after(before, g, actor_color, same)
    enemy_before = hidden_from(before, enemy)
    enemy_after = hidden_after(before, g, enemy, same)
    old, new = before.pieces, g.pieces

    def enemy_saw(pid: int | None, moving: bool = False) -> bool:
        if pid is None:
            return True
        was = pid in old and pid not in enemy_before
        now = pid in new and pid not in enemy_after
        if moving:
            # Seen leaving is not seen arriving: both, or gone in plain sight.
            return (was and now) or (was and pid not in new) or (now and pid not in old)
        return was or now

    def event_seen(color: str, piece: dict[str, Any], hidden_before: frozenset[int],
                   hidden_now: frozenset[int]) -> bool:
        if piece["color"] == color:
            return True
        pid = piece.get("id")
        if pid in new:
            return pid not in hidden_now
        return pid in old and pid not in hidden_before

    actor = extra.get("actor")
    kind = action["type"]
    moving = kind == "move" or (kind == "fire" and action.get("weapon") in ("bike", "jump_pack", "scuba"))
    extra["public"] = actor is None or enemy_saw(actor.get("id"), moving)
    # Which of two alike Pieces on one place acted (issue 17): the notation
    # writes a "#n" marker, counted among the Pieces each reader can see.
    if actor is not None:
        mark_alike(before, actor, enemy_before)
    if "other" in extra:
        mark_alike(before, extra["other"], enemy_before)
        # An Exchange shows both its Pieces: it is told only if both were seen.
        extra["public"] = extra["public"] and enemy_saw(extra["other"].get("id"))
    for ev in events:
        piece = ev.get("piece")
        if piece is not None:
            ev["public"] = event_seen(enemy, piece, enemy_before, enemy_after)
            ev["own"] = event_seen(actor_color, piece, actor_before, actor_after)
        elif ev.get("projectile") == "torpedo" and before.options["submersion_invisibility"]:
            # A torpedo is as hidden as a Piece below: told only where a
            # side's Torpedo Launchers would see it (the firer knows its own).
            slot = ev.get("slot")
            ev["public"] = slot is not None and sees_sub(g, enemy, slot // 3 // SIZE + 1, slot // 3 % SIZE + 1)
        elif "slot" in ev or "projectile" in ev:
            ev["public"] = True
    g.turn_log = g.turn_log + ({"action": action, "events": events, **extra},)
