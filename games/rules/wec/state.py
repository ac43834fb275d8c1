"""The game state: a compact, copy-on-write model of the board.

A :class:`Game` is never changed once handed out: :func:`games.rules.wec.apply`
copies it (cheap: a dict of immutable :class:`Piece` tuples and two flat lists)
and changes the copy. Pieces are value types; a change makes a new tuple.

Manual: the Board of Squares and levels it models, l. 41-43 and 183-200;
the Turn's bookkeeping of l. 57-59.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

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
    anything else leaves every Move as it was (see ``Game.touched``)."""
    return (p.type, p.color, p.row, p.col, p.level, p.hand, p.moved, p.stun > 0, p.transport is None)


def same_moves(a: Piece, b: Piece) -> bool:
    """``moves_key(a) == moves_key(b)`` without building the two keys (the
    Move cache asks this of every Piece whose tuple was replaced): type,
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
    Anti-Stealth). Visibility looks at these Pieces only (Game.special)."""
    return p.level == 2 or p.type in SPECIAL_TYPES or (bool(p.articles) and not SPECIAL_ARTICLES.isdisjoint(p.articles))


#: The fields of a Piece that visibility._hidden_from reads (``_sight_key``
#: there, less the id), besides its place (which only ``place`` changes).
_SIGHT_FIELDS = frozenset(("type", "color", "row", "col", "level", "articles"))


#: Game attributes that are derived data: not pickled, rebuilt on loading.
_DERIVED = frozenset(("mcache", "lmemo", "touched", "finished", "pending", "special", "aloft", "prims", "census", "calm",
                      "sight", "sides", "shared"))


def _joined(ids: tuple[int, ...], pid: int) -> tuple[int, ...]:
    """The ids of a place with ``pid`` added, kept in id order.

    Which of two Pieces on a place came first is not part of the game (a
    scenario document cannot say it), so the order the board lists them in,
    and with it the order of every record that walks a place, follows their
    ids: a reloaded game then writes the same history as the one it was
    dumped from (issue 17, case 3).
    """
    if not ids or ids[-1] < pid:
        return ids + (pid,)
    return tuple(sorted(ids + (pid,)))


def _sides_with(sides: dict[str, tuple[int, ...]], color: str, pid: int) -> dict[str, tuple[int, ...]]:
    """``Game.sides`` with ``pid`` added to ``color``'s ids (a new dict)."""
    out = dict(sides)
    out[color] = _joined(sides[color], pid)
    return out


def _sides_without(sides: dict[str, tuple[int, ...]], color: str, pid: int) -> dict[str, tuple[int, ...]]:
    """``Game.sides`` with ``pid`` taken from ``color``'s ids (a new dict)."""
    out = dict(sides)
    out[color] = tuple(i for i in sides[color] if i != pid)
    return out


#: The lists of the Turn dict that actions change in place (append to, or
#: set an item of): ``Game.copy`` copies these only.
_TURN_LISTS = ("fires", "actors", "sequence", "hits")


def empty_turn() -> dict[str, Any]:
    """What the side to move has done so far this Turn."""
    return {"moved": False, "fires": [], "pickup": False, "drop": False, "exchange": False, "reinforce": False,
            "actors": [], "sequence": [], "hits": []}


class Game:
    """A Wec game position with everything needed to continue it.

    Attributes are internal: use the facade in ``games.rules.wec``.
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
        "hidden_cache",
        "result",
        "next_id",
        "finished",
        "pending",
        "turn_log",
        "mcache",
        "lmemo",
        "touched",
        "special",
        "aloft",
        "prims",
        "census",
        "calm",
        "sight",
        "sides",
        "shared",
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
        # Per colour, the enemy ids it cannot see; a dict only once the game
        # is finished being built (see visibility.hidden_from).
        self.hidden_cache: dict[str, frozenset[int]] | None = None
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
        # Per colour, the Moves of each Piece as last worked out, for
        # moves.all_candidates to reuse while nothing they read has changed:
        # colour -> (entries, hidden set, Squares touched since, index into
        # ``touched``, options). Not part of the game (not compared, not pickled).
        self.mcache: dict[str, tuple[Any, ...]] | None = None
        # Per colour, the action dicts its listings built, for later listings
        # to hand out again (see actions.listing_memo); shared by every game
        # copied from this one (each entry says what it was built for).
        self.lmemo: dict[str, dict[Any, Any]] | None = None
        # The Squares whose contents the board primitives changed on this
        # object since it was copied, as far as Moves can tell (moves_key;
        # read with ``mcache``).
        self.touched: list[int] = []
        # Indexes the board primitives keep (derived data, like the Move
        # cache): the ids of the Pieces that may hide or find hidden ones
        # (visibility.hidden_from reads only these), the ids of the primary
        # government Pieces, and a count of Pieces added, removed or turned
        # to the other side (visibility.update_markers).
        self.special: frozenset[int] = frozenset()
        # The ids of the Pieces away from the ground (effects.settle_stranded).
        self.aloft: frozenset[int] = frozenset()
        self.prims: tuple[int, ...] = ()
        self.census = 0
        # Where in ``touched`` the aftermath of the last action left this
        # game settled (-1: not known): no passenger stranded, every
        # sighting holding, every reinforcement tracked (see
        # effects.settle_stranded). Those can only have lapsed where a Square
        # was touched since, so the next action's aftermath looks only there.
        self.calm = -1
        # How many times the board primitives changed, on this object since
        # it was copied, something visibility._hidden_from reads of the
        # Pieces: a special Piece (Game.special) added, removed, placed or
        # given another type, colour, level or Articles, or any Piece's
        # colour (a lock-on reads its watcher's). While it is 0 the copy
        # hides what the original hid but for sightings and lock-ons
        # (visibility.same_sight).
        self.sight = 0
        # Per colour, the ids of its Pieces in id order (a new tuple, and a
        # new dict, whenever a Piece is added, removed or converted): the
        # listing walks its side's Pieces without sorting them each time.
        self.sides: dict[str, tuple[int, ...]] = {"black": (), "white": ()}
        # Whether ``board`` (bit 1) and ``ground`` (bit 2) may be shared with
        # another game (copy-on-write: about half of all actions change
        # neither, and a copy no longer copies their 400 entries): a write
        # goes through ``own_board`` or ``set_ground``, which copy first.
        self.shared = 0

    # -- copying ---------------------------------------------------------------
    def copy(self) -> Game:
        g = Game.__new__(Game)
        g.options = self.options
        g.pieces = dict(self.pieces)
        # Shared until one of the two writes (either may: the one copied from
        # is marked too).
        g.board = self.board
        g.ground = self.ground
        g.shared = self.shared = 3
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
        g.hidden_cache = None
        g.result = self.result
        g.next_id = self.next_id
        g.finished = self.finished
        g.pending = self.pending
        g.turn_log = self.turn_log
        mc = self.mcache
        if mc is not None:
            # The copy inherits the Move cache with every Square this object
            # changed since each colour's entries were made. Where that is
            # none and every index is 0 already (an action that touched
            # nothing, about half of them) the entries would come out the
            # same: the dict is shared (it is replaced, never changed).
            touched = self.touched
            for v in mc.values():
                if touched or v[3]:
                    mc = {
                        c: (e, h, ts.union(touched[i:]) if len(touched) > i else ts, 0, o)
                        for c, (e, h, ts, i, o) in mc.items()
                    }
                    break
        g.mcache = mc
        g.lmemo = self.lmemo
        g.touched = []
        g.special = self.special
        g.aloft = self.aloft
        g.prims = self.prims
        g.census = self.census
        # Settled with nothing changed since: the copy starts settled too
        # (its ``touched`` starts empty); changed since, it is not known.
        calm = self.calm
        g.calm = 0 if calm >= 0 and calm == len(self.touched) else -1
        g.sight = 0
        g.sides = self.sides
        return g

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
        # The Move cache is derived data: left out of pickles; the log is
        # pickled as its records (what pickles always held).
        state = {k: getattr(self, k) for k in Game.__slots__ if k not in _DERIVED}
        state["log"] = self.log
        return None, state

    def __setstate__(self, state: tuple[Any, dict[str, Any]]) -> None:
        for k, v in state[1].items():
            setattr(self, k, v)
        self.mcache = None
        self.lmemo = None
        self.touched = []
        self.special = frozenset(p.id for p in self.pieces.values() if is_special(p))
        self.aloft = frozenset(p.id for p in self.pieces.values() if p.level)
        self.prims = tuple(p.id for p in self.pieces.values() if p.type in PRIMARY)
        self.census = 0
        self.calm = -1
        self.sight = 0
        self.sides = {c: tuple(sorted(i for i, p in self.pieces.items() if p.color == c)) for c in ("black", "white")}
        self.shared = 0

    # -- board primitives (mutate; only call on a fresh copy) -------------------
    def add(self, piece: Piece) -> Piece:
        if piece.id <= 0:
            piece = piece._replace(id=self.next_id)
        self.next_id = max(self.next_id, piece.id + 1)
        self.pieces[piece.id] = piece
        slot = piece.slot
        board = self.own_board()
        board[slot] = _joined(board[slot], piece.id)
        self.touched.append(slot // 3)
        if is_special(piece):
            self.special = self.special | {piece.id}
        if piece.level:
            self.aloft = self.aloft | {piece.id}
        if piece.type in PRIMARY:
            self.prims = self.prims + (piece.id,)
        self.census += 1
        self.sight += 1
        self.sides = _sides_with(self.sides, piece.color, piece.id)
        return piece

    def remove(self, pid: int) -> Piece:
        piece = self.pieces.pop(pid)
        slot = piece.slot
        board = self.own_board()
        board[slot] = tuple(i for i in board[slot] if i != pid)
        self.touched.append(slot // 3)
        if pid in self.special:
            self.special = self.special - {pid}
        if pid in self.aloft:
            self.aloft = self.aloft - {pid}
        if pid in self.prims:
            self.prims = tuple(i for i in self.prims if i != pid)
        self.census += 1
        self.sight += 1
        self.sides = _sides_without(self.sides, piece.color, pid)
        return piece

    def place(self, pid: int, row: int, col: int, level: int, **changes: Any) -> Piece:
        """Move piece ``pid`` to a new place (and apply field ``changes``)."""
        old = self.pieces[pid]
        # The slots worked out inline (Piece.slot is a property call).
        old_slot = ((old[3] - 1) * SIZE + old[4] - 1) * 3 + old[5]
        board = self.own_board()
        board[old_slot] = tuple([i for i in board[old_slot] if i != pid])
        # Leaving its starting Square, by any means, ends a Pawn's double step.
        pawn_leaves = (row != old[3] or col != old[4]) and old[1] in PAWNS
        if changes:
            if pawn_leaves:
                changes.setdefault("moved", True)
            changes["row"] = row
            changes["col"] = col
            changes["level"] = level
            new = _changed(old, changes)
            other = True  # fields changed besides the place
        elif pawn_leaves:
            # (id, type, colour, the place, hand, Articles, moved, the rest)
            new = tuple.__new__(Piece, old[:3] + (row, col, level, old[6], old[7], True) + old[9:])
            other = True
        else:
            new = tuple.__new__(Piece, old[:3] + (row, col, level) + old[6:])
            other = False
        self.pieces[pid] = new
        new_slot = ((row - 1) * SIZE + col - 1) * 3 + level
        board[new_slot] = _joined(board[new_slot], pid)
        touched = self.touched
        touched.append(old_slot // 3)
        touched.append(new_slot // 3)
        was = pid in self.special
        if (other or level != old.level) and is_special(new) != was:
            self.special = self.special ^ {pid}
        if was or pid in self.special or "color" in changes:
            self.sight += 1
        if new.color != old.color:  # (no caller changes a colour here; kept right all the same)
            self.sides = _sides_with(_sides_without(self.sides, old.color, pid), new.color, pid)
        if (level != 0) != (pid in self.aloft):
            self.aloft = self.aloft ^ {pid}
        return new

    def update(self, pid: int, **changes: Any) -> Piece:
        old = self.pieces[pid]
        new = _changed(old, changes)
        self.pieces[pid] = new
        if not same_moves(new, old):
            self.touched.append(new.sq)
            if new.color != old.color:
                self.census += 1
                self.sides = _sides_with(_sides_without(self.sides, old.color, pid), new.color, pid)
        was = pid in self.special
        if ("articles" in changes or "level" in changes or "type" in changes) and (
                is_special(new) != was):
            self.special = self.special ^ {pid}
        if "color" in changes or ((was or pid in self.special) and not _SIGHT_FIELDS.isdisjoint(changes)):
            self.sight += 1
        if (new.level != 0) != (pid in self.aloft):
            self.aloft = self.aloft ^ {pid}
        return new

    def own_board(self) -> list[tuple[int, ...]]:
        """``board``, copied first if it may be shared (see ``shared``)."""
        if self.shared & 1:
            self.board = list(self.board)
            self.shared &= 2
        return self.board

    def set_ground(self, sq: int, articles: tuple[str, ...]) -> None:
        """Put ``articles`` on the ground of Square ``sq`` (``ground`` copied
        first if it may be shared, see ``shared``)."""
        if self.shared & 2:
            self.ground = list(self.ground)
            self.shared &= 1
        self.ground[sq] = articles

    def cool(self, pid: int, cooldowns: tuple[tuple[str, int], ...]) -> Piece:
        """``update(pid, cooldowns=...)`` without its checks: no Move (see
        ``moves_key``), index or sight depends on a Piece's cooldowns, so
        this touches nothing (the end of every Turn counts them down)."""
        old = self.pieces[pid]
        new = tuple.__new__(Piece, old[:_COOLDOWNS] + (cooldowns,) + old[_COOLDOWNS + 1:])
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
