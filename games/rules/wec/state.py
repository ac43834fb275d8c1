"""The game state: a compact, copy-on-write model of the board.

A :class:`Game` is never changed once handed out: :func:`games.rules.wec.apply`
copies it (cheap: a dict of immutable :class:`Piece` tuples and two flat lists)
and changes the copy. Pieces are value types; a change makes a new tuple.

Manual: the Board of Squares and levels it models, l. 41-43 and 183-200;
the Turn's bookkeeping of l. 57-59.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from . import fastpaths
from .constants import COEXIST, INHERENT, PAWNS, PRIMARY, SECONDARY, SIZE
from .document import dump_scenario


class Piece(NamedTuple):
    """One Piece on the board.

    ``level`` is 0 ground, 1 air, 2 sub. ``moved`` is only meaningful for
    Pawns: it turns true once the Pawn has left its starting Square, which ends
    its two-square first Move. ``stun`` counts the Turns left until the Piece
    may Move again; ``cooldowns`` holds ``(weapon, turns_left)`` pairs;
    ``transport`` is the Transport in progress, if any: ``(article,
    to_row, to_col, to_level, path, fresh)``, ``fresh`` while it was started
    this Turn.
    """

    id: int
    type: str
    color: str
    row: int
    col: int
    level: int
    hand: str | None = None
    articles: tuple[str, ...] = ()
    moved: bool = False
    stun: int = 0
    cooldowns: tuple[tuple[str, int], ...] = ()
    transport: tuple[Any, ...] | None = None

    @property
    def sq(self) -> int:
        return (self.row - 1) * SIZE + (self.col - 1)

    @property
    def slot(self) -> int:
        return ((self.row - 1) * SIZE + (self.col - 1)) * 3 + self.level

    def abilities(self) -> tuple[str, ...]:
        """Inherent abilities followed by carried Articles (both count alike)."""
        return INHERENT[self.type] + self.articles

    def has(self, ability: str) -> bool:
        return ability in INHERENT[self.type] or ability in self.articles

    @property
    def coexists(self) -> bool:
        return self.type in COEXIST

    @property
    def is_primary(self) -> bool:
        return self.type in PRIMARY

    @property
    def is_secondary(self) -> bool:
        return self.type in SECONDARY


class Reinforcement(NamedTuple):
    """A Piece waiting off-board for its activation Square.

    ``armed`` turns true once a friendly Piece has stood at ground level on the
    activation Square; ``ready`` once that Piece has left it (Reinforce then
    brings the Piece in).
    """

    type: str
    color: str
    row: int
    col: int
    hand: str | None = None
    armed: bool = False
    ready: bool = False


#: Where each field sits in a Piece (for _changed).
_FIELD = {name: i for i, name in enumerate(Piece._fields)}
_COOLDOWNS = _FIELD["cooldowns"]


def _changed(p: Piece, changes: dict[str, Any]) -> Piece:
    """``p._replace(**changes)`` without its generic machinery (the board
    primitives make a new Piece for every change)."""
    values = list(p)
    for name, value in changes.items():
        values[_FIELD[name]] = value
    return tuple.__new__(Piece, values)


def moves_key(p: Piece) -> tuple[Any, ...]:
    """Everything about a Piece that any Piece's Moves depend on (its
    Articles, cooldowns and the count of its stun do not): a change to
    anything else leaves every Move as it was (see ``Derived.touched``)."""
    return (p.type, p.color, p.row, p.col, p.level, p.hand, p.moved, p.stun > 0, p.transport is None)


def same_moves(a: Piece, b: Piece) -> bool:
    """A fast path: ``moves_key(a) == moves_key(b)`` (its plain rule)
    without building the two keys (the Move cache asks this of every Piece
    whose tuple was replaced, ``Derived.changed`` of every change): type,
    colour, row, column, level and hand (fields 1 to 6), ``moved`` (8),
    stunned or not (9), in Transport or not (11)."""
    return (a[1:7] == b[1:7] and a[8] == b[8] and (a[9] > 0) == (b[9] > 0)
            and (a[11] is None) == (b[11] is None))


#: Piece types that may hide (Stealth of their own) or find hidden Pieces
#: (a Torpedo Launcher or Anti-Stealth of their own), and such Articles.
SPECIAL_TYPES = frozenset(t for t, a in INHERENT.items() if {"stealth", "torpedo_launcher", "anti_stealth"} & set(a))
SPECIAL_ARTICLES = frozenset(("stealth", "torpedo_launcher", "anti_stealth"))


def is_special(p: Piece) -> bool:
    """Whether a Piece may matter to who sees what: it may hide (Stealth, or
    at sub level) or find a hidden Piece (a Torpedo Launcher or an
    Anti-Stealth). Visibility looks at these Pieces only (``Derived.special``)."""
    return p.level == 2 or p.type in SPECIAL_TYPES or (bool(p.articles) and not SPECIAL_ARTICLES.isdisjoint(p.articles))


@dataclass(slots=True)
class MoveCache:
    """One side's entries of the Move cache (``Derived.moves``, read by
    :mod:`.moves`): each Piece's Moves as last worked out, by id, with what
    they were worked out under. (Slotted classes, not named tuples, for the
    caches' entries: the hot loops read their fields faster.)"""

    #: Piece id -> its entry (``moves.MoveEntry``).
    entries: dict[int, Any]
    #: The side's hidden set the entries were made with.
    hidden: frozenset[int]
    #: Squares touched between the game the entries were made on and the
    #: game holding them, besides those of ``Derived.touched[since:]``.
    touched: frozenset[int]
    #: Where in ``Derived.touched`` the touches not yet in ``touched`` begin.
    since: int
    #: The options the entries were made under.
    options: dict[str, Any]


def _joined(ids: tuple[int, ...], pid: int) -> tuple[int, ...]:
    """The ids of a place with ``pid`` added, kept in id order.

    Which of two Pieces on a place came first is not part of the game (a
    scenario document cannot say it), so the order the board lists them in,
    and with it the order of every record that walks a place, follows their
    ids: a reloaded game then writes the same history as the one it was
    dumped from.
    """
    if not ids or ids[-1] < pid:
        return ids + (pid,)
    return tuple(sorted(ids + (pid,)))


def _sides_with(sides: dict[str, tuple[int, ...]], color: str, pid: int) -> dict[str, tuple[int, ...]]:
    """``Derived.sides`` with ``pid`` added to ``color``'s ids (a new dict)."""
    out = dict(sides)
    out[color] = _joined(sides[color], pid)
    return out


def _sides_without(sides: dict[str, tuple[int, ...]], color: str, pid: int) -> dict[str, tuple[int, ...]]:
    """``Derived.sides`` with ``pid`` taken from ``color``'s ids (a new dict)."""
    out = dict(sides)
    out[color] = tuple(i for i in sides[color] if i != pid)
    return out


_NO_SIDES: dict[str, tuple[int, ...]] = {"black": (), "white": ()}


class Derived:
    """Everything a :class:`Game` keeps besides the game itself: caches of
    answers worked out from it and indexes of its Pieces. None of it is part
    of the game (two games are equal when their scenario documents are, and
    a pickle leaves it out but for ``hidden``); all of it can be rebuilt from
    the Pieces (:meth:`rebuilt`).

    Kept in step in one place: every change the board primitives make to a
    Piece (added, removed, placed, updated) goes through :meth:`changed`.
    ``Game.copy`` makes the copy's through :meth:`for_copy`, and pickling
    through :meth:`rebuilt`.

    The caches, each read by one fast path (see :mod:`.fastpaths`):

    * ``hidden``: per colour, the enemy ids it cannot see (``visibility.
      hidden_from``); None while the game is being built (an action's copy
      until ``record`` has run), so nothing is kept from a half-made state;
    * ``moves``: per colour, the Move cache (:class:`MoveCache`, ``moves.
      all_candidates``);
    * ``listings``: per colour, the listing memo (``actions.listing_memo``),
      shared by every game copied from this one;
    * ``touched``: the Squares whose contents changed, as far as Moves can
      tell, on this object since it was copied (read with ``moves``);
    * ``calm``: where in ``touched`` the aftermath of the last action left
      this game settled (-1: not known): no passenger stranded, every
      sighting holding, every reinforcement tracked; those can only have
      lapsed where a Square was touched since;
    * ``sight``: how many times the primitives changed, on this object since
      it was copied, something a hidden set reads of the Pieces (a Piece
      that may hide or find hidden ones added, removed, or given another
      type, colour, place or Articles; any Piece's colour, since a lock-on
      reads its watcher's): while it is 0 the copy hides what the original
      hid but for sightings and lock-ons (``visibility.same_sight``);
    * ``census``: a count of Pieces added, removed or turned to the other
      side (``visibility.update_markers``, ``record.settle_since``).

    The indexes: ``special``, the ids of the Pieces that may hide or find
    hidden ones (:func:`is_special`); ``aloft``, of the Pieces away from the
    ground; ``prims``, of the primary government Pieces; ``sides``, per
    colour its Pieces' ids in id order (a new tuple and dict on each change).

    ``shared`` says whether the game's ``board`` (bit 1) and ``ground`` (bit
    2) may be shared with another game (copy-on-write: about half of all
    actions change neither): a write goes through ``Game.own_board`` or
    ``Game.set_ground``, which copy first.
    """

    __slots__ = ("hidden", "moves", "listings", "touched", "calm", "sight", "census", "special", "aloft", "prims",
                 "sides", "shared")

    def __init__(self) -> None:
        self.hidden: dict[str, frozenset[int]] | None = None
        self.moves: dict[str, MoveCache] | None = None
        self.listings: dict[str, dict[Any, Any]] | None = None
        self.touched: list[int] = []
        self.calm = -1
        self.sight = 0
        self.census = 0
        self.special: frozenset[int] = frozenset()
        self.aloft: frozenset[int] = frozenset()
        self.prims: tuple[int, ...] = ()
        self.sides: dict[str, tuple[int, ...]] = _NO_SIDES
        self.shared = 0

    @classmethod
    def rebuilt(cls, pieces: dict[int, Piece], hidden: dict[str, frozenset[int]] | None = None) -> Derived:
        """The indexes of ``pieces`` worked out afresh, every cache empty but
        ``hidden`` (a loaded pickle's)."""
        d = cls()
        d.hidden = hidden
        d.special = frozenset(p.id for p in pieces.values() if is_special(p))
        d.aloft = frozenset(p.id for p in pieces.values() if p.level)
        d.prims = tuple(p.id for p in pieces.values() if p.type in PRIMARY)
        d.sides = {c: tuple(sorted(i for i, p in pieces.items() if p.color == c)) for c in ("black", "white")}
        return d

    def for_copy(self) -> Derived:
        """The copy's: the indexes shared (each is replaced, never changed),
        the hidden sets not yet known, the Move cache carried over with the
        Squares this object touched, nothing touched yet, and ``board`` and
        ``ground`` shared until one of the two games writes (this object is
        marked too)."""
        d = Derived.__new__(Derived)
        d.hidden = None
        mc = self.moves
        touched = self.touched
        if mc is not None:
            # Where nothing was touched and every ``since`` is 0 already (an
            # action that touched nothing, about half of them) the entries
            # would come out the same: the dict is shared (replaced, never
            # changed).
            for v in mc.values():
                if touched or v.since:
                    mc = {c: MoveCache(v.entries, v.hidden,
                                       v.touched.union(touched[v.since:]) if len(touched) > v.since else v.touched,
                                       0, v.options)
                          for c, v in mc.items()}
                    break
        d.moves = mc
        d.listings = self.listings
        d.touched = []
        # Settled with nothing changed since: the copy starts settled too (its
        # ``touched`` starts empty); changed since, it is not known.
        calm = self.calm
        d.calm = 0 if calm >= 0 and calm == len(touched) else -1
        d.sight = 0
        d.census = self.census
        d.special = self.special
        d.aloft = self.aloft
        d.prims = self.prims
        d.sides = self.sides
        d.shared = self.shared = 3
        return d

    def changed(self, old: Piece | None, new: Piece | None) -> None:
        """Keep every index and counter in step with one change of a Piece:
        ``old`` became ``new`` (``old`` None: added; ``new`` None: removed).
        The board primitives call this for every change they make."""
        if old is None:
            assert new is not None
            pid = new[0]
            self.touched.append((new[3] - 1) * SIZE + new[4] - 1)
            if is_special(new):
                self.special = self.special | {pid}
            if new[5]:
                self.aloft = self.aloft | {pid}
            if new[1] in PRIMARY:
                self.prims = self.prims + (pid,)
            self.census += 1
            self.sight += 1
            self.sides = _sides_with(self.sides, new[2], pid)
            return
        pid = old[0]
        if new is None:
            self.touched.append((old[3] - 1) * SIZE + old[4] - 1)
            if pid in self.special:
                self.special = self.special - {pid}
            if pid in self.aloft:
                self.aloft = self.aloft - {pid}
            if pid in self.prims:
                self.prims = tuple([i for i in self.prims if i != pid])
            self.census += 1
            self.sight += 1
            self.sides = _sides_without(self.sides, old[2], pid)
            return
        # (Fields by index: id, type, colour, row, column, level, hand,
        # Articles; see Piece.)
        if old[3:6] != new[3:6]:
            # Placed elsewhere: both Squares change what Moves see.
            self.touched.append((old[3] - 1) * SIZE + old[4] - 1)
            self.touched.append((new[3] - 1) * SIZE + new[4] - 1)
        elif not same_moves(new, old):
            self.touched.append((new[3] - 1) * SIZE + new[4] - 1)
        recolored = old[2] != new[2]
        if recolored:
            self.census += 1
            self.sides = _sides_with(_sides_without(self.sides, old[2], pid), new[2], pid)
        special = self.special
        was = pid in special
        if old[1] != new[1] or old[5] != new[5] or old[7] != new[7]:
            if is_special(new) != was:
                special = self.special = special ^ {pid}
            if old[1] != new[1] and (old[1] in PRIMARY) != (new[1] in PRIMARY):
                self.prims = self.prims + (pid,) if new[1] in PRIMARY else tuple(
                    [i for i in self.prims if i != pid])
        # What a hidden set reads of a Piece (visibility.sight_key): its
        # type, colour, place and Articles.
        if recolored or ((was or pid in special) and (old[1:6] != new[1:6] or old[7] != new[7])):
            self.sight += 1
        if (new[5] != 0) != (pid in self.aloft):
            self.aloft = self.aloft ^ {pid}

    def settled(self) -> None:
        """Note that the game is settled as it stands (see ``calm``)."""
        self.calm = len(self.touched)

    def unsettled(self) -> None:
        """Note that whether the game is settled is not known (see ``calm``)."""
        self.calm = -1

    def touched_since_settled(self) -> list[int] | None:
        """The Squares touched since the game was last settled (see
        ``calm``); None when that is not known."""
        calm = self.calm
        return None if calm < 0 else self.touched[calm:]



#: Builds a named tuple from a full tuple of its fields (no keyword handling).
_new = tuple.__new__


#: The lists of the Turn dict that actions change in place (append to, or
#: set an item of): ``Game.copy`` copies these only.
_TURN_LISTS = ("fires", "actors", "sequence", "hits")


def empty_turn() -> dict[str, Any]:
    """What the side to move has done so far this Turn."""
    return {"moved": False, "fires": [], "pickup": False, "drop": False, "exchange": False, "reinforce": False,
            "actors": [], "sequence": [], "hits": []}


#: What a pickle of a Game holds, in this order (and the log, as its records).
_PICKLED = ("options", "pieces", "board", "ground", "to_move", "turn_number", "turn", "projectiles", "reinforcements",
            "locks", "revealed", "markers", "start", "hidden_cache", "result", "next_id", "turn_log")


class Game:
    """A Wec game position with everything needed to continue it.

    Attributes are internal: use the facade in ``games.rules.wec``. What is
    worked out from the position (caches, indexes) is kept apart in
    ``derived`` (:class:`Derived`).
    """

    __slots__ = (
        "options",
        "pieces",
        "board",
        "ground",
        "to_move",
        "turn_number",
        "turn",
        "projectiles",
        "reinforcements",
        "locks",
        "revealed",
        "markers",
        "start",
        "result",
        "next_id",
        "finished",
        "pending",
        "turn_log",
        "derived",
    )

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        self.pieces: dict[int, Piece] = {}
        # board[slot] is a tuple of piece ids at that place (0, 1 or 2; 2 only
        # with a coexisting type, or the converted pair described in the manual),
        # always in id order (see _joined).
        self.board: list[tuple[int, ...]] = [()] * (SIZE * SIZE * 3)
        # ground[square] is a tuple of unowned Article types (at most 2).
        self.ground: list[tuple[str, ...]] = [()] * (SIZE * SIZE)
        self.to_move = "black"
        self.turn_number = 1
        self.turn: dict[str, Any] = empty_turn()
        self.projectiles: tuple[dict[str, Any], ...] = ()
        self.reinforcements: tuple[Reinforcement, ...] = ()
        # Anti-Stealth lock-ons: (watching piece id, watched piece id).
        self.locks: tuple[tuple[int, int], ...] = ()
        # Pieces seen by the enemy because they fired or took: (piece id, slot);
        # the sighting holds while the Piece stays at that slot.
        self.revealed: tuple[tuple[int, int], ...] = ()
        # "Continue to see": per colour, the slots where an enemy stealthed
        # Piece it had seen went out of sight.
        # Each marker is (slot, piece type).
        self.markers: dict[str, tuple[tuple[int, str], ...]] = {"black": (), "white": ()}
        # The scenario document the history starts from (for Undo); shared,
        # never changed.
        self.start: dict[str, Any] | None = None
        self.result: dict[str, Any] | None = None
        self.next_id = 1
        # Finished Turns (read them as ``log``): each its record dict, or a
        # pending record whose texts are written when first read (an object
        # with a ``record()`` method, see actions.turn).  The pending ones
        # are kept apart, in ``pending``, after those of ``finished``: so
        # ``finished`` is never walked to write them, and may be a sequence
        # that reads its records on demand (load_scenario's ``history``).
        self.finished: Sequence[Any] = ()
        self.pending: tuple[Any, ...] = ()
        # The Turn in progress, same shape.
        self.turn_log: tuple[dict[str, Any], ...] = ()
        self.derived = Derived()

    # -- copying ---------------------------------------------------------------
    def copy(self) -> Game:
        """A copy to change (an action's): see ``Derived.for_copy`` for what
        it shares with this game until one of the two writes."""
        g = Game.__new__(Game)
        g.options = self.options
        g.pieces = dict(self.pieces)
        g.board = self.board
        g.ground = self.ground
        g.to_move = self.to_move
        g.turn_number = self.turn_number
        # The Turn's lists that actions add to in place get their own copy;
        # its other values (flags, the ``fallen`` list, which is only ever
        # replaced) are shared.
        turn = g.turn = self.turn.copy()
        for k in _TURN_LISTS:
            v = turn.get(k)
            if v.__class__ is list:
                turn[k] = v[:]
        g.projectiles = self.projectiles
        g.reinforcements = self.reinforcements
        g.locks = self.locks
        g.revealed = self.revealed
        g.markers = self.markers
        g.start = self.start
        g.result = self.result
        g.next_id = self.next_id
        g.finished = self.finished
        g.pending = self.pending
        g.turn_log = self.turn_log
        g.derived = self.derived.for_copy()
        return g

    def seal(self) -> None:
        """This game is finished being built and will not change again: what
        is worked out from it may be kept on it (``Derived.hidden``)."""
        self.derived.hidden = {}

    # -- the finished Turns ------------------------------------------------------
    @property
    def log(self) -> tuple[dict[str, Any], ...]:
        """The records of the finished Turns, each a dict {"color", "number",
        "text", "censored", "plain", ...} (see actions.turn).

        Ending a Turn only notes what its record needs: the six texts are
        written the first time anything reads the log (most states made by a
        search or a playout never are), each record once (a pending record
        keeps its dict), byte for byte what writing them at once gave."""
        if self.pending:
            # `+` a tuple: a sequence read on demand stays unread.
            self.finished = self.finished + tuple(r.record() for r in self.pending)
            self.pending = ()
        return self.finished

    @log.setter
    def log(self, records: tuple[dict[str, Any], ...]) -> None:
        # A list is copied; a tuple, or a sequence read on demand, is kept as given.
        self.finished = tuple(records) if isinstance(records, list) else records
        self.pending = ()

    def __getstate__(self) -> tuple[None, dict[str, Any]]:
        # The game and its hidden sets (what pickles always held); the log as
        # its records. The rest of ``derived`` is rebuilt on loading.
        state = {k: self.derived.hidden if k == "hidden_cache" else getattr(self, k) for k in _PICKLED}
        state["log"] = self.log
        return None, state

    def __setstate__(self, state: tuple[Any, dict[str, Any]]) -> None:
        values = dict(state[1])
        hidden = values.pop("hidden_cache", None)
        for k, v in values.items():
            setattr(self, k, v)
        self.derived = Derived.rebuilt(self.pieces, hidden)

    # -- board primitives (mutate; only call on a fresh copy) -------------------
    # Each changes ``pieces`` and ``board`` and tells ``derived`` (Derived.changed).
    def add(self, piece: Piece) -> Piece:
        if piece.id <= 0:
            piece = piece._replace(id=self.next_id)
        self.next_id = max(self.next_id, piece.id + 1)
        self.pieces[piece.id] = piece
        slot = piece.slot
        board = self.own_board()
        board[slot] = _joined(board[slot], piece.id)
        self.derived.changed(None, piece)
        return piece

    def remove(self, pid: int) -> Piece:
        piece = self.pieces.pop(pid)
        slot = piece.slot
        board = self.own_board()
        board[slot] = tuple(i for i in board[slot] if i != pid)
        self.derived.changed(piece, None)
        return piece

    def place(self, pid: int, row: int, col: int, level: int, **changes: Any) -> Piece:
        """Move piece ``pid`` to a new place (and apply field ``changes``)."""
        old = self.pieces[pid]
        # The slots worked out inline (Piece.slot is a property call).
        old_slot = ((old.row - 1) * SIZE + old.col - 1) * 3 + old.level
        board = self.own_board()
        board[old_slot] = tuple([i for i in board[old_slot] if i != pid])
        # Leaving its starting Square, by any means, ends a Pawn's double step.
        pawn_leaves = (row != old.row or col != old.col) and old.type in PAWNS
        if changes:
            if pawn_leaves:
                changes.setdefault("moved", True)
            changes["row"] = row
            changes["col"] = col
            changes["level"] = level
            new = _changed(old, changes)
        elif pawn_leaves:
            # (id, type, colour, the place, hand, Articles, moved, the rest)
            new = _new(Piece, old[:3] + (row, col, level, old.hand, old.articles, True) + old[9:])
        else:
            new = _new(Piece, old[:3] + (row, col, level) + old[6:])
        self.pieces[pid] = new
        new_slot = ((row - 1) * SIZE + col - 1) * 3 + level
        board[new_slot] = _joined(board[new_slot], pid)
        self.derived.changed(old, new)
        return new

    def update(self, pid: int, **changes: Any) -> Piece:
        """Change fields of piece ``pid`` other than its place."""
        old = self.pieces[pid]
        new = self.pieces[pid] = _changed(old, changes)
        self.derived.changed(old, new)
        return new

    def own_board(self) -> list[tuple[int, ...]]:
        """``board``, copied first if it may be shared (``Derived.shared``)."""
        d = self.derived
        if d.shared & 1:
            self.board = list(self.board)
            d.shared &= 2
        return self.board

    def set_ground(self, sq: int, articles: tuple[str, ...]) -> None:
        """Put ``articles`` on the ground of Square ``sq`` (``ground`` copied
        first if it may be shared, ``Derived.shared``)."""
        d = self.derived
        if d.shared & 2:
            self.ground = list(self.ground)
            d.shared &= 1
        self.ground[sq] = articles

    def cool(self, pid: int, cooldowns: tuple[tuple[str, int], ...]) -> Piece:
        """A fast path: ``update(pid, cooldowns=...)`` (its plain rule, used
        with the fast paths off) without telling ``derived``: nothing it
        keeps depends on a Piece's cooldowns (no Move, see ``moves_key``; no
        index; no sight), so ``Derived.changed`` would change nothing. The
        end of every Turn counts them down."""
        if not fastpaths.FAST_PATHS:
            return self.update(pid, cooldowns=cooldowns)
        old = self.pieces[pid]
        new = _new(Piece, old[:_COOLDOWNS] + (cooldowns,) + old[_COOLDOWNS + 1:])
        self.pieces[pid] = new
        return new

    def at(self, slot: int) -> list[Piece]:
        pieces = self.pieces
        return [pieces[i] for i in self.board[slot]]

    # -- equality: two games are equal when their scenario documents are ------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return dump_scenario(self) == dump_scenario(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<wec.Game turn {self.turn_number}, {self.to_move} to move, {len(self.pieces)} pieces>"
