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

from dataclasses import dataclass
from typing import Any

from .. import fastpaths
from ..constants import GROUND, LEVELS, SIZE
from ..moves import Candidate
from ..state import Game, Piece
from ..visibility import hidden_from, update_markers
from .articles import article_actions, article_actions_by_rule, do_drop, do_exchange, do_pickup
from .common import ACTION_TYPES, PLACES, IllegalAction
from .effects import prune_locks, prune_revealed, settle_stranded
from .fire import AIMED, do_fire, fire_actions, fire_aims, fire_block, memo_aims, ready_weapons, weapons_of
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
    if kind != "end_turn" and turn_over(game):
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
    d = g.derived
    if fastpaths.FAST_PATHS and d.calm == len(d.touched):
        # Settled before (Derived.calm) and nothing touched since (a Pick-up,
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
        g.derived.settled()
    record(game, g, entry.pop("action"), events, entry)
    settle_since(game, g, game.to_move)
    return g


def other_actions(game: Game, hidden: frozenset[int], out: list[dict[str, Any]] | None = None
                  ) -> list[dict[str, Any]]:
    """:func:`other_actions_by_rule` with the listing memo (a fast path):
    each Piece's standing entry (``_standing``) and its direction Fires and
    Transport aims handed out again while it is the same tuple, and
    ``article_actions`` inlined for a Piece carrying nothing."""
    if out is None:
        out = []
    if not fastpaths.FAST_PATHS:
        return other_actions_by_rule(game, hidden, out)
    if game.options["action_restriction"] == "move_only":
        return out
    color = game.to_move
    turn = game.turn
    can_fire = len(turn["fires"]) < 2
    # What is left of the Turn's budget for Pick-up, Drop and Exchange
    # (l. 57-59): with the Pick-up made the ground under a Piece gives it
    # nothing; with the Drop and the Exchange made its own Articles give it
    # nothing (article_actions would list nothing for them).
    pick = not turn["pickup"]
    give = not (turn["drop"] and turn["exchange"])
    if not (can_fire or pick or give):
        reinforce_actions(game, out)
        return out
    # In id order (Derived.sides keeps each side's ids so).
    own = list(map(game.pieces.__getitem__, game.derived.sides[color]))
    ground = game.ground
    fires = turn["fires"]
    # The one Piece that may have fired this Turn while a Fire is left.
    firer = fires[0][0] if fires else None
    memo = listing_memo(game, color)
    # The listing memo's entries, when a Piece's direction Fires (the
    # Flamer's, Stunner's, Conversion's, Launchers') may be handed out here,
    # without a fire_actions call (most armed Pieces): with no Action
    # Restriction, fire_block leaves only "already fired this Turn" to ask
    # of them (cooling down: see ready_weapons).
    unrestricted = game.options["action_restriction"] == "none"
    free = memo is not None and unrestricted
    # The Pieces' _standing entries.
    stands = standing_memo(memo)
    seen = stands.get
    # The listing's direction lists, shared by its direction Fires (see fire._add_directions).
    dirs: list[list[int]] = []
    for p in own:
        pid = p.id
        e = seen(pid)
        if e is None or e.piece is not p:
            e = stands[pid] = _standing(p)
        armed = e.armed
        plain = e.fires
        where = None
        if can_fire and armed:
            if free and plain is not None and pid != firer:
                if plain is False:
                    # Its direction Fires, once for this Piece (the same as
                    # long as it is the same tuple: see _standing).
                    where = [p.row, p.col, LEVELS[p.level]]
                    plain = []
                    for weapon in armed:
                        memo_aims(game, p, weapon, where, hidden, plain, dirs, memo)
                    stands[pid] = Standing(p, armed, plain, e.trade, e.ground)
                out.extend(plain)
            else:
                where = [p.row, p.col, LEVELS[p.level]]
                fire_actions(game, p, where, hidden, out, armed, dirs, memo)
        # The Articles on its ground, while a Pick-up is left (article_actions reads them too).
        sq = e.ground
        here = ground[sq] if pick and sq >= 0 else ()
        if (give and e.trade) or here:
            if where is None:
                where = [p.row, p.col, LEVELS[p.level]]
            if p.articles or not unrestricted:
                article_actions(game, p, own, where, out, here)
            else:
                # article_actions for a Piece carrying nothing (most of its
                # calls): a Pick-up of each Article under it (any Piece has
                # room for one), the two alike listed once.
                for art in here if len(here) < 2 or here[0] != here[1] else here[:1]:
                    out.append({"type": "pickup", "from": where, "piece": pid, "article": art})
    reinforce_actions(game, out)
    return out


def other_actions_by_rule(game: Game, hidden: frozenset[int], out: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every legal Fire, Pick-up, Drop, Exchange and Reinforce for the side to
    move, as that side knows the board (l. 57-75): added to ``out`` and
    returned. Piece by Piece in id order (a stunned Piece does nothing, l.
    121-124): each weapon it may fire now (:func:`fire_block`) at each aim,
    then its Pick-ups, Drops and Exchanges (``article_actions_by_rule``);
    then the Reinforces. None but the Move under the move-only Action
    Restriction (l. 328-330)."""
    if game.options["action_restriction"] == "move_only":
        return out
    color = game.to_move
    own = [game.pieces[i] for i in sorted(game.pieces) if game.pieces[i].color == color]
    for p in own:
        if p.stun:
            continue
        where = [p.row, p.col, LEVELS[p.level]]
        for weapon in weapons_of(p):
            if fire_block(game, p, weapon) is None:
                out.extend(fire_aims(game, p, weapon, where, hidden))
        article_actions_by_rule(game, p, own, where, out)
    reinforce_actions(game, out)
    return out


@dataclass(slots=True)
class Standing:
    """What a listing reads of a Piece alone (``_standing``), kept in the
    listing memo while the Piece is the same tuple (a changed Piece is a
    new one: its place, Articles, cooldowns, stun and Transport are all in
    it)."""

    #: The Piece it was made for.
    piece: Piece
    #: Its weapons not cooling down (none when it is stunned: it does
    #: nothing, and ``trade`` and ``ground`` say so too).
    armed: tuple[str, ...]
    #: False when each of ``armed`` fires in a direction only (its Fires
    #: then depend on nothing but the Piece: the list of them takes this
    #: place once a listing builds it); None when one aims at more (Sam and
    #: Torpedo targets, a Jet's Rocket, a Transport: ``fire_actions`` each
    #: listing).
    fires: list[dict[str, Any]] | bool | None
    #: Whether it carries an Article it could drop or give (not only the one
    #: driving its Transport).
    trade: bool
    #: Its Square when at ground level (a Pick-up's ground), else -1.
    ground: int


@dataclass(slots=True)
class Standings:
    """The ``Standing`` entries of one side's Pieces by id, kept in that
    side's listing memo under the key ``"pieces"`` with the ``id`` of the
    memo they were made for (``owner``; see :func:`standing_memo`)."""

    owner: int
    entries: dict[int, Standing]


def standing_memo(memo: dict[Any, Any] | None) -> dict[int, Standing]:
    """Each Piece's ``_standing`` entry by id, for the side whose listing
    memo is ``memo`` (a new dict each listing when it is None).

    Kept in that memo under the key ``"pieces"``, with the ``id`` of the
    memo it was made for (not the memo itself: a cycle would keep every
    finished game's memo for the cyclic collector, 0.5 % of the playout's
    instructions): the games copied from one game share it, as they share
    the memo; a game given a copy of another's memo (``new_game``) copies
    it on first use, so no two games write to one. (Were an id ever
    reused, two games would share entries, which stay right: an entry is
    only ever read for the very Piece tuple it was made for.)"""
    if memo is None:
        return {}
    kept = memo.get("pieces")
    if kept is not None and kept.owner == id(memo):
        return kept.entries
    stands: dict[int, Standing] = {} if kept is None else dict(kept.entries)
    memo["pieces"] = Standings(id(memo), stands)
    return stands


def _standing(p: Piece) -> Standing:
    """What a listing reads of ``p`` alone (see :class:`Standing`)."""
    pid, _, _, row, col, level, _, arts, _, stun, cools, transport = p
    if stun:
        # Nothing to fire, give or pick up.
        return Standing(p, (), None, False, -1)
    armed = weapons_of(p)
    if cools:
        armed = ready_weapons(armed, cools)
    # (A set method, not a generator: a Piece gets a new entry each time it
    # changes, its cooldowns every Turn.)
    plain = False if AIMED.isdisjoint(armed) else None
    trade = bool(arts) and not (transport is not None and len(arts) == 1 and transport[0] == arts[0])
    return Standing(p, armed, plain, trade, (row - 1) * SIZE + col - 1 if level == GROUND else -1)


@dataclass(slots=True)
class ListedMoves:
    """A Piece's Moves as a listing built them (kept in the listing memo
    under the Piece's id)."""

    #: The Candidate list they were built from (the Move cache's entry).
    candidates: list[Candidate]
    #: The Piece they were built for.
    piece: Piece
    #: The action dicts.
    actions: list[dict[str, Any]]


def listing_memo(game: Game, color: str) -> dict[Any, Any] | None:
    """The listing memo of ``color`` (None while ``fastpaths.MEMO_LISTINGS``
    or the fast paths are off).

    Between two listings of a side most of its action dicts come out the
    same: every Fire and Move of a Piece that did not move (a Fire, a
    Pick-up, the other side's Turn leave most Pieces where they were). The
    memo keeps, per Piece, the dicts last built with what they were built
    from; a listing that finds the same hands out the same dict objects
    again (listed actions are read only, docs/engine-api.md). It is
    shared by the games copied from this one (``Derived.listings``) and kept per
    colour: what one side's listings built never reaches the other's. Its
    entries hold nothing of the game but that side's own Pieces' ids,
    places and weapons, each entry checking what it was built for, so a
    game of another line that shares it gets the same actions."""
    if not (fastpaths.MEMO_LISTINGS and fastpaths.FAST_PATHS):
        return None
    d = game.derived
    memos = d.listings
    if memos is None:
        memos = d.listings = {"black": {}, "white": {}}
    return memos[color]


def legal_actions(game: Game) -> list[dict[str, Any]]:
    """Every action the side to move may take now, as that side knows the board.

    ``end_turn`` appears once the Turn's Move is made (or when no Move exists).
    Empty once the game is over.

    :func:`legal_actions_by_rule` with ``move_action`` inlined and the
    listing memo handing out a Piece's Move dicts again (a fast path).
    """
    if not fastpaths.FAST_PATHS:
        return legal_actions_by_rule(game)
    if game.result:
        return []
    if turn_over(game):
        # A primary government Piece fell: the Turn only has its end left.
        return [{"type": "end_turn"}]
    out: list[dict[str, Any]] = []
    cands = {} if game.turn["moved"] else own_candidates(game, shared=True)
    pieces = game.pieces
    append = out.append
    # With the memo off, a dict of this listing's own (nothing found in it).
    memo = listing_memo(game, game.to_move) if cands else None
    if memo is None:
        memo = {}
    kept = memo.get
    for pid in sorted(cands):
        # move_action, inlined: this loop makes most of the actions listed.
        p = pieces[pid]
        moves = cands[pid]
        # The Piece's Moves as the last listing built them when its
        # Candidate list is that one (the Move cache's entry, kept while
        # its Moves hold) and it stands where it stood: the entry's Piece
        # itself (most often) or one at the same place.
        e = kept(pid)
        if e is not None and e.candidates is moves:
            if e.piece is p:
                out.extend(e.actions)
                continue
            q = e.piece
            if q.row == p.row and q.col == p.col and q.level == p.level:
                # (The entry now for this tuple: found by identity next time.)
                memo[pid] = ListedMoves(moves, p, e.actions)
                out.extend(e.actions)
                continue
        start = len(out)
        # Each Move is a copy of one dict with its own "to" set (cheaper than
        # a literal, keys in the same order); like a Piece's Fires, a Piece's
        # Moves share its "from" list within one listing.
        copy = {"type": "move", "piece": pid, "from": [p.row, p.col, LEVELS[p.level]], "to": None}.copy
        for c in moves:
            a = copy()
            a["to"] = [*PLACES[c.path[-1]]]
            if c.carry is not None:
                a["carry"] = True
            if c.dozing:
                a["doze"] = [[s // SIZE + 1, s % SIZE + 1] for s in c.doze]
            append(a)
        memo[pid] = ListedMoves(moves, p, out[start:])
    other_actions(game, hidden_from(game, game.to_move), out)
    if end_turn_allowed(game, cands):
        out.append({"type": "end_turn"})
    return out


def legal_actions_by_rule(game: Game) -> list[dict[str, Any]]:
    """Every action the side to move may take now, as that side knows the
    board (l. 57-75): none once the game is over; only ``end_turn`` once a
    primary government Piece has fallen this Turn (l. 47-49); else the
    Moves of each Piece in id order while the Turn's Move is not made (l.
    57, 60-65), the other Actions (:func:`other_actions_by_rule`), and
    ``end_turn`` once the Move is made or when no Move exists."""
    if game.result:
        return []
    if turn_over(game):
        return [{"type": "end_turn"}]
    cands = {} if game.turn["moved"] else own_candidates(game)
    out = [move_action(game, c) for pid in sorted(cands) for c in cands[pid]]
    other_actions_by_rule(game, hidden_from(game, game.to_move), out)
    if end_turn_allowed(game, cands):
        out.append({"type": "end_turn"})
    return out
