"""The Actions of a Turn (l. 57-75): applying them, and listing the legal ones.

One module per Action family: :mod:`.move` (the Move), :mod:`.fire` (Weapons
and projectiles), :mod:`.transport` (firing a Bike, Jump Pack or Scuba),
:mod:`.articles` (Pick-up, Drop, Exchange), :mod:`.reinforce` and :mod:`.turn`
(the end of the Turn). They share :mod:`.common` (errors, reading fields),
:mod:`.budget` (the Turn's budget and the Action Restriction, l. 57-59,
1960-1969), :mod:`.effects` (what a hit or a lost carrier leaves behind) and
:mod:`.record` (the Turn's log and its winner).

Every check runs before anything changes, and on a copy: a rejected action
leaves the game exactly as it was. Error messages speak only of what the
acting side can know.
"""

from __future__ import annotations

from typing import Any

from ..constants import GROUND, LEVELS, SIZE
from ..state import Game
from ..visibility import hidden_from, update_markers
from .articles import article_actions, do_drop, do_exchange, do_pickup
from .common import ACTION_TYPES, PLACES, IllegalAction
from .effects import prune_locks, prune_revealed, settle_stranded
from .fire import WEAPONS_BY_KEY, do_fire, fire_actions, weapons_of
from .move import apply_move, move_action, own_candidates
from .record import record, settle_since, turn_over
from .reinforce import do_reinforce, reinforce_actions, track_reinforcements
from .turn import apply_end_turn, end_turn_allowed

__all__ = [
    "IllegalAction",
    "apply",
    "end_turn_allowed",
    "legal_actions",
    "move_action",
    "other_actions",
    "own_candidates",
    "turn_over",
]

_HANDLERS = {"fire": do_fire, "pickup": do_pickup, "drop": do_drop, "exchange": do_exchange,
             "reinforce": do_reinforce}


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
    if kind != "end_turn" and game.turn.get("fallen"):  # turn_over(game), inlined
        raise IllegalAction("a primary government piece has fallen: only ending the Turn remains")
    if kind == "move":
        g = apply_move(game, action)
    elif kind == "end_turn":
        g = apply_end_turn(game)
    else:
        g = _apply_other(game, action)
    update_markers(game, g)
    return g


def _apply_other(game: Game, action: dict[str, Any]) -> Game:
    """A Fire, Pick-up, Drop, Exchange or Reinforce, with its aftermath."""
    handler = _HANDLERS[action["type"]]
    g = game.copy()
    events: list[dict[str, Any]] = []
    entry = handler(g, action, events)
    if g.calm == len(g.touched):
        # Settled before (Game.calm) and nothing touched since (a Pick-up,
        # Drop or Exchange, a Fire that hit nothing): no passenger can be
        # stranded, no sighting lapse, no reinforcement change (the three
        # below would return at once); a lock-on still may (its watcher gave
        # its Anti-Stealth away).
        prune_locks(g)
    else:
        settle_stranded(g, events)
        prune_locks(g)
        prune_revealed(g)
        track_reinforcements(g)
        # Settled here: the next action's aftermath looks only where it touches.
        g.calm = len(g.touched)
    record(game, g, entry.pop("action"), events, entry)
    settle_since(game, g, game.to_move)
    return g


def other_actions(game: Game, hidden: frozenset[int], out: list[dict[str, Any]] | None = None
                  ) -> list[dict[str, Any]]:
    """Every legal Fire, Pick-up, Drop, Exchange and Reinforce for the side to
    move, as that side knows the board: added to ``out`` when given (the
    listing's own list, not copied into it afterwards), and returned."""
    if out is None:
        out = []
    if game.options["action_restriction"] == "move_only":
        return out
    color = game.to_move
    # In id order (Game.sides keeps each side's ids so).
    own = list(map(game.pieces.__getitem__, game.sides[color]))
    can_fire = len(game.turn["fires"]) < 2
    ground = game.ground
    weapons = WEAPONS_BY_KEY.get
    bare = _BARE.get
    armed: tuple[str, ...] = ()
    # The listing's direction lists, shared by its direction Fires (see fire._add_directions).
    dirs: list[list[int]] = []
    memo = listing_memo(game, color)
    for p in own:
        # The Piece's fields at once (one unpacking, not an attribute lookup each).
        _, kind, _, row, col, level, _, arts, _, stun, _, transport = p
        if stun:
            continue
        # Most Pieces have no weapon to fire and nothing to pick up, drop or
        # give: they are passed over before anything is built for them.
        if can_fire:
            # weapons_of(p), its memo read here (a call per own Piece saved);
            # without Articles a Piece's weapons are its type's (a Transport
            # needs its Article), memoized by the type alone.
            armed = weapons((kind, arts, transport is None)) if arts else bare(kind)
            if armed is None:
                armed = weapons_of(p)
                if not arts:
                    _BARE[kind] = armed
        # The Articles on its ground (article_actions reads them too).
        here = ground[(row - 1) * SIZE + col - 1] if level == GROUND else ()
        if not (armed or arts or here):
            continue
        where = [row, col, LEVELS[level]]
        if armed:
            fire_actions(game, p, where, hidden, out, armed, dirs, memo)
        if arts or here:
            article_actions(game, p, own, where, out, here)
    reinforce_actions(game, out)
    return out


#: Piece type -> the weapons of a Piece of that type carrying no Article.
_BARE: dict[str, tuple[str, ...]] = {}

#: Whether listings hand out again the action dicts an earlier listing of
#: the same side built (``listing_memo``); off, every listing builds its
#: own (the tests compare the two).
MEMO_LISTINGS = True


def listing_memo(game: Game, color: str) -> dict[Any, Any] | None:
    """The listing memo of ``color`` (None when ``MEMO_LISTINGS`` is off).

    Between two listings of a side most of its action dicts come out the
    same: every Fire and Move of a Piece that did not move (a Fire, a
    Pick-up, the other side's Turn leave most Pieces where they were). The
    memo keeps, per Piece, the dicts last built with what they were built
    from; a listing that finds the same hands out the same dict objects
    again (listed actions are read only, docs/engine-api.md, wave 9). It is
    shared by the games copied from this one (``Game.lmemo``) and kept per
    colour: what one side's listings built never reaches the other's. Its
    entries hold nothing of the game but that side's own Pieces' ids,
    places and weapons, each entry checking what it was built for, so a
    game of another line that shares it gets the same actions."""
    if not MEMO_LISTINGS:
        return None
    memos = game.lmemo
    if memos is None:
        memos = game.lmemo = {"black": {}, "white": {}}
    return memos[color]


def legal_actions(game: Game) -> list[dict[str, Any]]:
    """Every action the side to move may take now, as that side knows the board.

    ``end_turn`` appears once the Turn's Move is made (or when no Move exists).
    Empty once the game is over.
    """
    if game.result:
        return []
    if turn_over(game):
        # A primary government Piece fell: the Turn only has its end left.
        return [{"type": "end_turn"}]
    out: list[dict[str, Any]] = []
    cands = {} if game.turn["moved"] else own_candidates(game, shared=True)
    pieces = game.pieces
    append = out.append
    memo = listing_memo(game, game.to_move) if cands else None
    for pid in sorted(cands):
        # move_action, inlined: this loop makes most of the actions listed.
        p = pieces[pid]
        moves = cands[pid]
        if memo is not None:
            # The Piece's Moves as the last listing built them when its
            # Candidate list is that one (the Move cache's entry, kept while
            # its Moves hold) and it stands where it stood.
            place = p[3:6]
            e = memo.get(pid)
            if e is not None and e[0] is moves and e[1] == place:
                out.extend(e[2])
                continue
            start = len(out)
        # Each Move is a copy of one dict with its own "to" set (cheaper than
        # a literal, keys in the same order); like a Piece's Fires, a Piece's
        # Moves share its "from" list within one listing.
        copy = {"type": "move", "piece": pid, "from": [p.row, p.col, LEVELS[p.level]], "to": None}.copy
        # A Candidate is (piece, path, kind, carry, doze, routes, dozing):
        # read by index (a NamedTuple unpacks through an iterator).
        for c in moves:
            a = copy()
            a["to"] = [*PLACES[c[1][-1]]]
            if c[3] is not None:
                a["carry"] = True
            if c[6]:
                a["doze"] = [[s // SIZE + 1, s % SIZE + 1] for s in c[4]]
            append(a)
        if memo is not None:
            memo[pid] = (moves, place, out[start:])
    other_actions(game, hidden_from(game, game.to_move), out)
    if end_turn_allowed(game, cands):
        out.append({"type": "end_turn"})
    return out
