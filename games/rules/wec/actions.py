"""Applying actions: the Turn's bookkeeping, the Move, ``end_turn``, winning.

Every check runs before anything changes, and on a copy: a rejected action
leaves the game exactly as it was. Error messages speak only of what the acting
side can know.
"""

from __future__ import annotations

from typing import Any

from .constants import LEVEL_INDEX, LEVELS, PRIMARY, SIZE, other, slot_of
from .moves import Candidate, all_candidates, describe, resolve
from .notation import mark_alike, turn_text
from .state import Game, Piece, empty_turn
from .visibility import hidden_from, sees_sub, update_markers


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message is for the player."""


ACTION_TYPES = ("move", "fire", "pickup", "drop", "exchange", "reinforce", "end_turn")


def _place(value: Any, what: str) -> tuple[int, int, int]:
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 3
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value[:2])
        or value[2] not in LEVEL_INDEX
    ):
        raise IllegalAction(f"'{what}' must be [row, col, level] with level ground, air or sub")
    row, col, level = value
    if not (1 <= row <= SIZE and 1 <= col <= SIZE):
        raise IllegalAction(f"'{what}' ({row}, {col}) is off the board")
    return row, col, LEVEL_INDEX[level]


def _place_json(slot: int) -> list[Any]:
    sq, lv = divmod(slot, 3)
    return [sq // SIZE + 1, sq % SIZE + 1, LEVELS[lv]]


def move_action(game: Game, c: Candidate) -> dict[str, Any]:
    """The action dict for a candidate Move."""
    p = game.pieces[c.piece]
    a: dict[str, Any] = {
        "type": "move",
        "piece": p.id,
        "from": [p.row, p.col, LEVELS[p.level]],
        "to": _place_json(c.dest),
    }
    if c.carry is not None:
        a["carry"] = True
    if c.dozing:
        a["doze"] = [[s // SIZE + 1, s % SIZE + 1] for s in c.doze]
    return a


def own_candidates(game: Game, only: list[Piece] | None = None) -> dict[int, list[Candidate]]:
    """The side to move's candidate Moves, as it knows the board, narrowed by
    the Action Restriction (a Piece that already acted may be barred)."""
    color = game.to_move
    cands = all_candidates(game, color, hidden_from(game, color), only=only)
    from .articles import movers_allowed

    allowed = movers_allowed(game)
    if allowed is not None:
        cands = {pid: c for pid, c in cands.items() if pid in allowed}
    return cands


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


def apply(game: Game, action: dict[str, Any]) -> Game:
    """The game after ``action``; ``game`` itself is not changed.

    Raises :class:`IllegalAction` (a ``ValueError``) when the action is
    malformed or not allowed now.
    """
    if not isinstance(action, dict):
        raise IllegalAction("an action must be an object with a 'type'")
    kind = action.get("type")
    if kind not in ACTION_TYPES:
        raise IllegalAction(f"unknown action type {kind!r}")
    if game.result:
        raise IllegalAction("the game is over")
    if kind != "end_turn" and turn_over(game):
        raise IllegalAction("a primary government piece has fallen: only ending the Turn remains")
    if kind == "move":
        g = _apply_move(game, action)
    elif kind == "end_turn":
        g = _apply_end_turn(game)
    else:
        from . import articles as _articles

        g = _articles.apply_action(game, action)
    update_markers(game, g)
    return g


def _primaries(game: Game) -> dict[str, set[int]]:
    out: dict[str, set[int]] = {"black": set(), "white": set()}
    for p in game.pieces.values():
        if p.type in PRIMARY:
            out[p.color].add(p.id)
    return out


def settle(game: Game, before: dict[str, set[int]], actor: str) -> None:
    """Note a primary government Piece destroyed or converted during the Turn.

    The result is fixed only when the Turn ends (:func:`decide`): a King taken
    wins only if the taker's own King survives that same Turn (l. 48-49,
    456-458, 1745-1747). Once one has fallen the Turn is over but for its end
    (docs/rulings.md, "The end of the game").
    """
    after = _primaries(game)
    lost = [c for c in ("black", "white") if before[c] - after[c]]
    if lost:
        fallen = game.turn.get("fallen") or []
        game.turn["fallen"] = sorted(set(fallen) | set(lost))


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


def track_reinforcements(game: Game) -> None:
    """Arm a reinforcement when a friendly Piece stands on its activation
    Square at ground level; make it ready once that Square is left empty
    (no Piece at any level, l. 680-681) on a later Turn than the one it was
    armed in (l. 581-584): arriving and leaving within one Turn readies
    nothing. The Squares armed during the Turn in progress are kept in
    ``game.turn["armed"]`` (docs/rulings.md, "Readying a reinforcement")."""
    if not game.reinforcements:
        return
    changed = False
    out = []
    armed_now = game.turn.get("armed", ())
    for r in game.reinforcements:
        base = slot_of(r.row, r.col, 0)
        ids = game.board[base]
        if not r.armed and any(game.pieces[i].color == r.color for i in ids):
            r = r._replace(armed=True)
            where = [r.row, r.col]
            if where not in armed_now:
                armed_now = [*armed_now, where]
                game.turn["armed"] = armed_now
            changed = True
        elif (
            r.armed
            and not r.ready
            and not ids
            and not game.board[base + 1]
            and not game.board[base + 2]
            and [r.row, r.col] not in armed_now
        ):
            r = r._replace(ready=True)
            changed = True
        out.append(r)
    if changed:
        game.reinforcements = tuple(out)


def _record(before: Game, g: Game, action: dict[str, Any], events: list[dict[str, Any]], **extra: Any) -> None:
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
    hidden = {
        (c, when): hidden_from(game, c)
        for c in (actor_color, enemy)
        for when, game in (("before", before), ("after", g))
    }

    def seen_by(color: str, pid: int | None, moving: bool = False) -> bool:
        if pid is None:
            return True
        was = pid in before.pieces and pid not in hidden[(color, "before")]
        now = pid in g.pieces and pid not in hidden[(color, "after")]
        if moving:
            # Seen leaving is not seen arriving: both, or gone in plain sight.
            return (was and now) or (was and pid not in g.pieces) or (now and pid not in before.pieces)
        return was or now

    def event_seen(color: str, piece: dict[str, Any]) -> bool:
        if piece["color"] == color:
            return True
        pid = piece.get("id")
        if pid in g.pieces:
            return pid not in hidden[(color, "after")]
        return pid in before.pieces and pid not in hidden[(color, "before")]

    actor = extra.get("actor")
    kind = action["type"]
    moving = kind == "move" or (kind == "fire" and action.get("weapon") in ("bike", "jump_pack", "scuba"))
    extra["public"] = actor is None or seen_by(enemy, actor.get("id"), moving)
    # Which of two alike Pieces on one place acted (issue 17): the notation
    # writes a "#n" marker, counted among the Pieces each reader can see.
    for key in ("actor", "other"):
        if key in extra:
            mark_alike(before, extra[key], hidden[(enemy, "before")])
    if "other" in extra:
        # An Exchange shows both its Pieces: it is told only if both were seen.
        extra["public"] = extra["public"] and seen_by(enemy, extra["other"].get("id"))
    for ev in events:
        piece = ev.get("piece")
        if piece is not None:
            ev["public"] = event_seen(enemy, piece)
            ev["own"] = event_seen(actor_color, piece)
        elif ev.get("projectile") == "torpedo" and before.options["submersion_invisibility"]:
            # A torpedo is as hidden as a Piece below: told only where a
            # side's Torpedo Launchers would see it (the firer knows its own).
            slot = ev.get("slot")
            ev["public"] = slot is not None and sees_sub(g, enemy, slot // 3 // SIZE + 1, slot // 3 % SIZE + 1)
        elif "slot" in ev or "projectile" in ev:
            ev["public"] = True
    g.turn_log = g.turn_log + ({"action": action, "events": events, **extra},)


def _apply_move(game: Game, action: dict[str, Any]) -> Game:
    color = game.to_move
    if game.turn["moved"]:
        raise IllegalAction("you have already made this Turn's Move")
    src = _place(action.get("from"), "from")
    dst = _place(action.get("to"), "to")
    carry = action.get("carry", False)
    if not isinstance(carry, bool):
        raise IllegalAction("'carry' must be true or false")
    doze = action.get("doze")
    doze_set: tuple[int, ...] | None = None
    if doze is not None:
        if not isinstance(doze, list) or not all(
            isinstance(x, (list, tuple)) and len(x) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in x)
            for x in doze
        ):
            raise IllegalAction("'doze' must be a list of [row, col] Squares")
        doze_set = tuple(sorted((r - 1) * SIZE + c - 1 for r, c in doze))
    src_slot = slot_of(*src)
    dst_slot = slot_of(*dst)
    own = [game.pieces[i] for i in game.board[src_slot] if game.pieces[i].color == color]
    if not own:
        raise IllegalAction(f"you have no piece at ({src[0]}, {src[1]}, {LEVELS[src[2]]})")
    wanted = action.get("piece")
    if wanted is not None:
        own = [p for p in own if p.id == wanted]
        if not own:
            raise IllegalAction(f"piece {wanted!r} of yours is not at ({src[0]}, {src[1]}, {LEVELS[src[2]]})")
    allowed = own_candidates(game, only=own)
    matches: list[Candidate] = []
    for p in own:
        for c in allowed.get(p.id, ()):
            if c.dest != dst_slot or (c.carry is not None) != carry:
                continue
            if (doze_set is None) != (not c.dozing):
                continue
            if doze_set is not None and c.doze != doze_set:
                continue
            matches.append(c)
    if not matches:
        from .articles import restriction_error

        why = next((restriction_error(game, "M", p.id) for p in own if restriction_error(game, "M", p.id)), None)
        if why and not any(allowed.values()):
            raise IllegalAction(why)
        raise IllegalAction(
            f"that piece cannot Move from ({src[0]}, {src[1]}, {LEVELS[src[2]]}) "
            f"to ({dst[0]}, {dst[1]}, {LEVELS[dst[2]]}) now"
        )
    movers = {c.piece for c in matches}
    if len(movers) > 1:
        kinds = {(game.pieces[i].type, game.pieces[i].hand, game.pieces[i].articles) for i in movers}
        if len(kinds) > 1:
            raise IllegalAction("two of your pieces there can make that Move; say which with 'piece'")
    cand = min(matches, key=lambda c: c.piece)
    g = game.copy()
    before = _primaries(g)
    events: list[dict[str, Any]] = []
    # The notation names the passenger and the dozed Pieces as they stood.
    if cand.carry is not None:
        events.append({"kind": "carried", "piece": describe(game.pieces[cand.carry])})
    if cand.dozing:
        home = game.pieces[cand.piece].sq
        events.extend({"kind": "dozed_piece", "piece": describe(game.pieces[i])}
                      for s in (home,) + cand.doze for i in game.board[s * 3] if i != cand.piece)
    resolve(g, cand, events)
    from .articles import prune_revealed, reveal, settle_stranded

    if any(e["kind"] == "taken" for e in events):
        # A Piece that takes gives itself away where it now stands.
        reveal(g, cand.piece)
    settle_stranded(g, events)
    prune_revealed(g)
    g.turn["moved"] = True
    g.turn["actors"].append(cand.piece)
    g.turn["sequence"].append("M")
    track_reinforcements(g)
    _record(game, g, move_action(game, cand), events, actor=describe(game.pieces[cand.piece]))
    settle(g, before, color)
    return g


def _apply_end_turn(game: Game) -> Game:
    if not end_turn_allowed(game):
        raise IllegalAction("make your Move before ending the Turn")
    color = game.to_move
    g = game.copy()
    before = _primaries(g)
    events: list[dict[str, Any]] = []
    from . import articles as _articles  # engine part 2: projectiles, transport, counters

    _articles.end_of_turn(g, events)
    settle(g, before, color)
    fallen = list(g.turn.get("fallen") or [])
    track_reinforcements(g)
    _record(game, g, {"type": "end_turn"}, events)
    entries = list(g.turn_log)
    from .notation import plain_text

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
