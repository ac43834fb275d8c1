"""Moves: where each Piece may go, and what happens when it goes.

Legality is judged from the mover's knowledge: a Square holding only enemy
Pieces the mover cannot see looks empty. When the Move is carried out on the
true board and runs into such a Piece, the Moving Piece stops in that Square
and takes every enemy Piece there at its level (the manual's rule for unseen
enemies), whatever its movement would otherwise allow.

A candidate Move is a :class:`Candidate`: the Piece, the places it passes
through in order (landing place last), whether it may take there, and what it
brings along (a carried passenger, or the dozed Pieces).

Manual: the Move (l. 57, 60-65), each Piece type's movement (l. 775-1107,
1108-1330), carrying a passenger (l. 196-200), dozing (l. 201-205), unseen
enemies in the way (l. 1015-1022).
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Any, NamedTuple

from . import fastpaths
from .constants import (
    AIR,
    CARRIERS,
    GROUND,
    KING_STEPS,
    NATIVE_LEVELS,
    PAWNS,
    PRIMARY,
    SECONDARY,
    SIZE,
    SUB,
)
from .geometry import board_paths, chopper_routes, neighbours, offset
from .state import Game, MoveCache, Piece, same_moves

#: Pieces whose every movement is non-combat (l. 795-797).
NON_COMBAT = frozenset(("dozer", "destroyer", "aaa"))

# Move kinds: how a landing place holding enemies is treated.
PEACEFUL = 0  # may not land on enemies (non-combat movement)
COMBAT = 1  # takes the enemies where it lands
CAPTURE_ONLY = 2  # may only land where it takes (a Pawn's attack Squares)
MOVE_KINDS = (PEACEFUL, COMBAT, CAPTURE_ONLY)

# --- question codes -----------------------------------------------------------------
# The Move cache keeps each question the movement rules asked of the board,
# with its answer, as one small number (a game keeps many; an array of
# unsigned shorts holds them): ``empty(slot)`` or ``land(slot, movers,
# kind)``. The code is ``slot << SLOT_SHIFT | kind << KIND_SHIFT | carry <<
# 1 | answer``: the question's kind field is the Move kind of a ``land``
# question or ``EMPTY`` for an ``empty`` one (so no Move kind may reach
# ``EMPTY``: tests/engine/test_fast_paths.py checks it), ``carry`` whether
# the movers were the Piece and its passenger, ``answer`` the answer.

ANSWER = 1  # bit 0
CARRY = 2  # bit 1
KIND_SHIFT = 2  # bits 2 and 3: the kind field
KIND_MASK = 3
SLOT_SHIFT = 4  # the slot above
EMPTY = 3  # the kind field of an ``empty`` question
#: An ``empty`` question of slot 0, less its answer (add ``slot << SLOT_SHIFT``).
EMPTY_CODE = EMPTY << KIND_SHIFT
#: Dividing a code by this gives the Square of its slot (``slot // 3``).
SQUARE_DIVISOR = 3 << SLOT_SHIFT


def land_code(slot: int, kind: int, carry: bool = False) -> int:
    """The code of ``land(slot, movers, kind)`` less its answer."""
    return slot << SLOT_SHIFT | kind << KIND_SHIFT | (CARRY if carry else 0)


def empty_code(slot: int) -> int:
    """The code of ``empty(slot)`` less its answer."""
    return slot << SLOT_SHIFT | EMPTY_CODE


class Candidate(NamedTuple):
    piece: int
    path: tuple[int, ...]  # slots passed through, landing slot last
    kind: int
    carry: int | None = None  # id of the passenger brought along
    doze: tuple[int, ...] = ()  # Squares whose ground Pieces are dozed
    routes: tuple[tuple[int, ...], ...] = ()  # other open Chopper routes
    dozing: bool = False

    @property
    def dest(self) -> int:
        return self.path[-1]


#: Builds a Candidate from a full tuple of its fields (no keyword handling).
_new = tuple.__new__


def _slot(sq: int, level: int) -> int:
    return sq * 3 + level


def can_move_itself(game: Game, p: Piece) -> bool:
    """Stunned Pieces, Pieces in Transport and Pieces at a level they cannot
    travel by themselves (a Pawn carried aloft) do not Move."""
    if p.stun > 0 or p.transport is not None:
        return False
    if p.level == GROUND:
        return True
    return p.level in NATIVE_LEVELS.get(p.type, ())


class Knowledge:
    """The board as one side knows it, for fast occupancy questions."""

    __slots__ = ("game", "color", "hidden")

    def __init__(self, game: Game, color: str, hidden: frozenset[int]) -> None:
        self.game = game
        self.color = color
        self.hidden = hidden

    def known(self, slot: int) -> list[Piece]:
        ids = self.game.board[slot]
        if not ids:
            # Most places asked about are empty: no comprehension to run.
            return []
        pieces = self.game.pieces
        hidden = self.hidden
        return [pieces[i] for i in ids if i not in hidden]

    def empty(self, slot: int) -> bool:
        ids = self.game.board[slot]
        if not ids:
            return True
        hidden = self.hidden
        return all(i in hidden for i in ids)

    def land(self, slot: int, movers: list[Piece], kind: int) -> bool:
        """``can_land`` on this knowledge (a question a ``_Reading`` logs)."""
        return can_land(self, slot, movers, kind)

    def mixed(self, sq: int) -> bool:
        """``mixed_square`` on this knowledge (a question a ``_Reading`` logs)."""
        return mixed_square(self, sq)


def mixed_square(kn: Knowledge, sq: int) -> bool:
    """Whether a level of Square ``sq`` holds a converted and an unconverted
    Piece together, as known (no other Piece may enter it, l. 1914-1917)."""
    board = kn.game.board
    pieces = kn.game.pieces
    hidden = kn.hidden
    base = sq * 3
    for s in (base, base + 1, base + 2):
        ids = board[s]
        if len(ids) == 2 and ids[0] not in hidden and ids[1] not in hidden:
            if pieces[ids[0]].color != pieces[ids[1]].color:
                return True
    return False


def can_land(kn: Knowledge, slot: int, movers: list[Piece], kind: int) -> bool:
    """May ``movers`` (a Piece and its passenger) land on ``slot`` as known?

    ``kn`` is read for its board, side and hidden Pieces only, never through
    its methods (its ``known`` is read inline here): a ``_Reading`` passed
    in notes nothing, as a plain :class:`Knowledge` would not."""
    game = kn.game
    board = game.board
    ids = board[slot]
    group = movers
    if ids:
        # The known Pieces there (Knowledge.known), split by side in one pass.
        hidden = kn.hidden
        pieces = game.pieces
        color = kn.color
        friends = []
        enemies = False
        for i in ids:
            if i not in hidden:
                q = pieces[i]
                if q.color == color:
                    friends.append(q)
                else:
                    enemies = True
        if enemies:
            if kind == PEACEFUL or friends:
                # A mixed level (after a partial Conversion) admits nobody else.
                return False
        elif kind == CAPTURE_ONLY:
            return False
        elif friends:
            group = friends + movers
    elif kind == CAPTURE_ONLY:
        return False
    if len(group) > 2:
        return False
    if len(group) == 2 and not (group[0].coexists or group[1].coexists):
        return False
    base = slot - slot % 3
    if len(board[base]) == 2 or len(board[base + 1]) == 2 or len(board[base + 2]) == 2:
        # A mixed pair (rare) bars its Square to Pieces from elsewhere (l. 1914-1917).
        return movers[0].sq == base // 3 or not mixed_square(kn, base // 3)
    return True


def _passenger(game: Game, p: Piece) -> Piece | None:
    if p.type not in CARRIERS:
        return None
    for i in game.board[p.slot]:
        if i != p.id:
            other = game.pieces[i]
            if other.color == p.color:
                return other
    return None


def _stranded(passenger: Piece) -> bool:
    """A passenger that cannot stay where it is once its carrier leaves."""
    return (
        passenger.level != GROUND
        and passenger.level not in NATIVE_LEVELS.get(passenger.type, ())
        and passenger.transport is None
    )


def _carry_allowed(game: Game, passenger: Piece, dest_level: int, flies: bool) -> bool:
    if _stranded(passenger):
        # Aloft or below only thanks to its carrier: it goes where the carrier goes.
        return True
    if passenger.stun > 0 or passenger.transport is not None:
        return False
    if passenger.type in PRIMARY and game.options["forbid_king_flying_sub"]:
        return not flies and dest_level == GROUND
    return True


def piece_candidates(game: Game, p: Piece, kn: Knowledge) -> list[Candidate]:
    """Every Move open to Piece ``p`` as its side knows the board."""
    if not can_move_itself(game, p):
        return []
    if fastpaths.FAST_PATHS:
        try_all, chopper, dozings = _try_all, _chopper, _dozings
    else:
        try_all, chopper, dozings = _try_all_by_rule, _chopper_by_rule, _dozings_by_rule
    t = p.type
    opts = game.options
    out: list[Candidate] = []
    sq = p.sq
    lv = p.level
    # The passenger (the same for every destination: nothing changes the
    # board while the Moves are listed).
    passenger = _passenger(game, p) if t in CARRIERS else None

    if t in PAWNS:
        if lv == GROUND:
            movement = opts["movement"]
            pawn_movement = "" if movement in ("weaponized", "standard_chess") else opts["pawn_movement"]
            try_all(game, p, kn, _pawn_steps(movement, pawn_movement, p.color, sq, p.moved), None, False, out)
    elif t in PRIMARY or t in NON_COMBAT:
        try_all(game, p, kn, _step_tries(sq, lv, COMBAT if t in PRIMARY else PEACEFUL), None, False, out)
        if t == "dozer" and lv == GROUND:
            out.extend(dozings(game, p, kn))
    elif t in ("tank", "cleric") or t in SECONDARY:
        if t in SECONDARY:
            ranges = (opts["queen_tank_range"], opts["queen_cleric_range"])
        else:
            ranges = (opts["tank_range"], opts["cleric_range"])
        tries, twice = _path_tries(t if t in ("tank", "cleric") else "queen", opts["movement"], p.hand, p.color, sq,
                                   ranges, lv)
        try_all(game, p, kn, tries, passenger, twice, out)
    elif t == "sub":
        try_all(game, p, kn, _sub_tries(sq, lv, COMBAT if opts["sub_jet_combat"] else PEACEFUL), passenger, False,
                 out)
    elif t == "jet":
        try_all(game, p, kn, _jet_tries(p.color, sq, lv, COMBAT if opts["sub_jet_combat"] else PEACEFUL), passenger,
                 False, out)
    elif t == "chopper":
        chopper(game, p, kn, out)
    return out


class Passing(NamedTuple):
    """A place a Move passes through: what a ``_Reading`` notes when it is
    asked whether the place is empty, worked out once."""

    slot: int
    square: int
    #: Its ``empty`` question code, less the answer.
    code: int


class Try(NamedTuple):
    """One place a Piece may try to land (the movement tables are tuples of
    these, memoized: geometry only)."""

    #: The landing slot.
    dest: int
    #: The places passed through before it, in order.
    passing: tuple[Passing, ...]
    #: Its Move kind.
    kind: int
    #: The Move's path: the slots passed through, then the landing.
    path: tuple[int, ...]
    #: The landing's Square.
    square: int
    #: Its ``land`` question code for the lone Piece, less the answer.
    code: int


def _try_all(game: Game, p: Piece, kn: Knowledge, tries: tuple[Try, ...], passenger: Piece | None, twice: bool,
             out: list[Candidate]) -> None:
    """:func:`_try_all_by_rule` with ``empty`` and ``can_land`` for the lone
    Piece asked inline (a fast path: most of a listing's questions), noted
    in a ``_Reading`` as its own methods note them (a plain Knowledge notes
    nothing)."""
    board = game.board
    hidden = kn.hidden
    note, log = _noting(kn)
    pid = p.id
    alone = [p]
    alone_ok = passenger is None or not _stranded(passenger)
    landed: set[tuple[int, bool]] | None = set() if twice else None
    for dest, passing, kind, path, dsq, code in tries:
        for s, ssq, asked in passing:
            # kn.empty(s), inline.
            note(ssq)
            ids = board[s]
            free = not ids or hidden.issuperset(ids)
            log(asked + free)
            if not free:
                break
        else:
            if alone_ok and (landed is None or (dest, False) not in landed):
                # kn.land(dest, [p], kind), inline where the place is empty.
                note(dsq)
                base = dsq * 3
                if board[dest] or len(board[base]) == 2 or len(board[base + 1]) == 2 or len(board[base + 2]) == 2:
                    ok = can_land(kn, dest, alone, kind)
                else:
                    # Empty, and no mixed pair can bar its Square: only a
                    # capture needs something there.
                    ok = kind != CAPTURE_ONLY
                log(code + ok)
                if ok:
                    if landed is not None:
                        landed.add((dest, False))
                    # Candidate(pid, path, kind), without the namedtuple's call.
                    out.append(_new(Candidate, (pid, path, kind, None, (), (), False)))
            if (
                passenger is not None
                and (landed is None or (dest, True) not in landed)
                and _carry_allowed(game, passenger, dest % 3, False)
                and kn.land(dest, [p, passenger], kind)
            ):
                if landed is not None:
                    landed.add((dest, True))
                out.append(_new(Candidate, (pid, path, kind, passenger.id, (), (), False)))


def _try_all_by_rule(game: Game, p: Piece, kn: Knowledge, tries: tuple[Try, ...], passenger: Piece | None,
                     twice: bool, out: list[Candidate]) -> None:
    """Add the Moves of ``p`` to each of ``tries`` to ``out``, in order: a
    Move passes only through places its side sees empty (no flying or
    driving through a Piece, l. 1012-1017) and lands where
    :func:`can_land` allows; the Piece lands alone unless its
    passenger could not stay behind without it, and with its passenger
    where that one may come along (l. 196-200). ``twice``: some landing
    comes more than once (the secondary government Piece's paths); the
    first open path to it is kept, the Move is the same."""
    landed: set[tuple[int, bool]] = set()
    for t in tries:
        if not all(kn.empty(ps.slot) for ps in t.passing):
            continue
        for carry in (False, True):
            if carry:
                if passenger is None or not _carry_allowed(game, passenger, t.dest % 3, False):
                    continue
                movers = [p, passenger]
            else:
                if passenger is not None and _stranded(passenger):
                    continue
                movers = [p]
            if (twice and (t.dest, carry) in landed) or not kn.land(t.dest, movers, t.kind):
                continue
            landed.add((t.dest, carry))
            out.append(Candidate(p.id, t.path, t.kind, passenger.id if carry and passenger else None))


def _noting(kn: Knowledge) -> tuple[Any, Any]:
    """Where the questions asked inline are noted: a ``_Reading``'s Squares
    read and question log, as its own methods note them; nowhere for a
    plain Knowledge."""
    if type(kn) is _Reading:
        return kn.reads.add, kn.log.append
    return set().add, [].append


def _try_of(dest: int, passing: tuple[int, ...], kind: int) -> Try:
    return Try(dest, tuple([Passing(s, s // 3, empty_code(s)) for s in passing]), kind, passing + (dest,), dest // 3,
               land_code(dest, kind))


@cache
def _step_tries(sq: int, lv: int, kind: int) -> tuple[Try, ...]:
    """A king step to each neighbouring Square at level ``lv`` (memoized:
    geometry only)."""
    return tuple([_try_of(_slot(d, lv), (), kind) for d in neighbours(sq)])


@cache
def _sub_tries(sq: int, lv: int, kind: int) -> tuple[Try, ...]:
    """A Sub's king steps, then the other of its levels on its own Square."""
    return _step_tries(sq, lv, kind) + (_try_of(_slot(sq, SUB if lv == GROUND else GROUND), (), kind),)


@cache
def _path_tries(kind_name: str, movement: str, hand: str | None, color: str, sq: int, ranges: tuple[int, int],
                lv: int) -> tuple[tuple[Try, ...], bool]:
    """A Tank's, Cleric's or secondary government Piece's ``board_paths`` at
    level ``lv``, and whether a landing comes more than once (memoized:
    geometry only)."""
    tries = []
    for path in board_paths(kind_name, movement, hand, color, sq, ranges):
        slots = tuple([_slot(s, lv) for s in path])
        tries.append(_try_of(slots[-1], slots[:-1], COMBAT))
    return tuple(tries), len({t[0] for t in tries}) < len(tries)


@cache
def _jet_tries(color: str, sq: int, lv: int, kind: int) -> tuple[Try, ...]:
    """A Jet on the ground takes off; aloft it lands on its own Square or
    flies one king step, or two where the second Square is never taken
    (kind PEACEFUL) and the first is passed through (memoized: geometry only)."""
    if lv == GROUND:
        return (_try_of(_slot(sq, AIR), (), kind),)
    tries = [_try_of(_slot(sq, GROUND), (), kind)]
    for f, r in KING_STEPS:
        one = offset(color, sq, f, r)
        if one is None:
            continue
        tries.append(_try_of(_slot(one, AIR), (), kind))
        two = offset(color, sq, 2 * f, 2 * r)
        if two is not None:
            tries.append(_try_of(_slot(two, AIR), (_slot(one, AIR),), PEACEFUL))
    return tuple(tries)


@cache
def _pawn_steps(movement: str, pawn_movement: str, color: str, sq: int, moved: bool) -> tuple[Try, ...]:
    """The ground places of each step a Pawn of ``color`` on ``sq`` may try,
    in the order tried, with its kind (memoized: geometry only; a step that
    leaves the board is left out)."""
    out: list[Try] = []

    def add(steps: tuple[tuple[int, int], ...], kind: int) -> None:
        squares = []
        for f, r in steps:
            s = offset(color, sq, f, r)
            if s is None:
                return
            squares.append(_slot(s, GROUND))
        out.append(_try_of(squares[-1], tuple(squares[:-1]), kind))

    if movement == "weaponized":
        for side in (-1, 1):
            add(((1, side),), PEACEFUL)
            if not moved:
                add(((1, side), (2, 2 * side)), PEACEFUL)
        for step in ((1, 0), (0, -1), (0, 1)):
            add((step,), CAPTURE_ONLY)
    elif movement == "standard_chess":
        add(((1, 0),), PEACEFUL)
        if not moved:
            add(((1, 0), (2, 0)), PEACEFUL)
        for side in (-1, 1):
            add(((1, side),), CAPTURE_ONLY)
    else:
        steps = {
            "all_sides_and_forward": ((1, -1), (1, 0), (1, 1), (0, -1), (0, 1)),
            "all_forward": ((1, -1), (1, 0), (1, 1)),
            "all_but_front": ((1, -1), (1, 1), (0, -1), (0, 1)),
        }[pawn_movement]
        for step in steps:
            add((step,), COMBAT)
    return tuple(out)


def _chopper(game: Game, p: Piece, kn: Knowledge, out: list[Candidate]) -> None:
    """:func:`_chopper_by_rule` with ``empty`` and ``can_land`` for the lone
    Chopper asked inline (a fast path), noted in a ``_Reading`` as its own
    methods note them, and the routes' air places from a memoized table."""
    board = game.board
    hidden = kn.hidden
    note, log = _noting(kn)
    sq = p.sq
    start: tuple[int, ...] = ()
    if p.level == GROUND:
        own_air = _slot(sq, AIR)
        if not kn.empty(own_air):
            return
        start = (own_air,)
    passenger = _passenger(game, p)
    alone_ok = passenger is None or not _stranded(passenger)
    alone = [p]
    pid = p.id
    aloft = p.level == AIR
    for dest_sq, routes, air_routes in _chopper_air(game.options["movement"], p.hand or "right", p.color, sq):
        # The open routes, each asked of Square by Square in order until one
        # is not empty (as all() over a generator asked them).
        open_routes = []
        first = None
        for route, air in zip(routes, air_routes, strict=True):
            for s in air:
                # kn.empty(s), inline.
                note(s // 3)
                ids = board[s]
                free = not ids or hidden.issuperset(ids)
                log(s << SLOT_SHIFT | EMPTY_CODE | free)
                if not free:
                    break
            else:
                if first is None:
                    first = air
                open_routes.append(route)
        if first is None:
            continue
        open_routes = tuple(open_routes)
        air_path = start + first
        dest_air = dest_sq * 3 + AIR
        landings = [(dest_air, ())]
        if aloft:
            landings = [(dest_sq * 3 + GROUND, (dest_air,))]
        elif kn.empty(dest_air):
            landings.append((dest_sq * 3 + GROUND, (dest_air,)))
        for dest, extra in landings:
            path = air_path + extra + (dest,)
            if alone_ok:
                # kn.land(dest, [p], COMBAT), inline where the place is empty.
                note(dest_sq)
                base = dest - dest % 3
                ok = not (board[dest] or len(board[base]) == 2 or len(board[base + 1]) == 2
                          or len(board[base + 2]) == 2) or can_land(kn, dest, alone, COMBAT)
                log(land_code(dest, COMBAT) + ok)
                if ok:
                    out.append(_new(Candidate, (pid, path, COMBAT, None, (), open_routes, False)))
            if passenger is not None and _carry_allowed(game, passenger, dest % 3, True):
                if kn.land(dest, [p, passenger], COMBAT):
                    out.append(_new(Candidate, (pid, path, COMBAT, passenger.id, (), open_routes, False)))


def _chopper_by_rule(game: Game, p: Piece, kn: Knowledge, out: list[Candidate]) -> None:
    """Add a Chopper's Moves to ``out`` (l. 1008-1048): from the
    ground it first rises to its own air place, which must be seen empty;
    it flies at air level along one of its routes (``chopper_routes``),
    every air place of the route seen empty, to the air place of its
    destination Square, or on down to that Square's ground when the air
    place is seen empty too; a Chopper already aloft comes down to the
    ground there. Each landing as :func:`can_land` allows (combat
    movement), alone unless its passenger could not stay behind, and with
    its passenger where that one may come along (l. 196-200). A Move's path
    follows its first open route; it keeps every open route for the
    notation."""
    sq = p.sq
    start: tuple[int, ...] = ()
    if p.level == GROUND:
        if not kn.empty(sq * 3 + AIR):
            return
        start = (sq * 3 + AIR,)
    passenger = _passenger(game, p)
    for dest_sq, routes in chopper_routes(game.options["movement"], p.hand or "right", p.color, sq):
        open_routes = tuple(r for r in routes if all(kn.empty(s * 3 + AIR) for s in r))
        if not open_routes:
            continue
        flight = start + tuple(s * 3 + AIR for s in open_routes[0])
        dest_air = dest_sq * 3 + AIR
        if p.level == AIR:
            landings = [(dest_sq * 3 + GROUND, (dest_air,))]
        else:
            landings = [(dest_air, ())]
            if kn.empty(dest_air):
                landings.append((dest_sq * 3 + GROUND, (dest_air,)))
        for dest, over in landings:
            path = flight + over + (dest,)
            if (passenger is None or not _stranded(passenger)) and kn.land(dest, [p], COMBAT):
                out.append(Candidate(p.id, path, COMBAT, routes=open_routes))
            if (passenger is not None and _carry_allowed(game, passenger, dest % 3, True)
                    and kn.land(dest, [p, passenger], COMBAT)):
                out.append(Candidate(p.id, path, COMBAT, carry=passenger.id, routes=open_routes))


@cache
def _chopper_air(movement: str, hand: str, color: str, sq: int
                 ) -> tuple[tuple[int, tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]], ...]:
    """``chopper_routes`` with each route also as its air places (memoized:
    geometry only; a Chopper's listing no longer works them out per route)."""
    return tuple((dest_sq, routes, tuple(tuple(_slot(s, AIR) for s in r) for r in routes))
                 for dest_sq, routes in chopper_routes(movement, hand, color, sq))


def _dozings(game: Game, dozer: Piece, kn: Knowledge) -> list[Candidate]:
    """:func:`_dozings_by_rule` (a fast path): each direction worked out once
    for all the groups (which of them it bars, which must push which), the
    combinations of groups memoized by the local layout."""
    sq = dozer.sq
    here = [game.pieces[i] for i in game.board[_slot(sq, GROUND)] if i != dozer.id]
    coincident = [q for q in here if q.color == dozer.color]
    if not coincident:
        return []
    doze_enemies = game.options["doze_enemies"]
    groups: list[tuple[int, int]] = []  # (square, number of known ground pieces)
    for n in neighbours(sq):
        known = kn.known(_slot(n, GROUND))
        if not known:
            continue
        if not doze_enemies and any(q.color != dozer.color for q in known):
            continue
        groups.append((n, len(known)))
    # Each direction once: which of the moving Squares (bit 0 the Dozer's,
    # bit k the k-th group's) cannot go that way whatever else moves (off
    # the board, or onto ground that is occupied or barred by a mixed pair,
    # l. 1914-1917), and which go onto another group's Square, so may only
    # move if that group moves too.
    index = {sq: 0}
    for k, (n, _) in enumerate(groups, 1):
        index[n] = k
    free: dict[int, bool] = {}
    ways = []
    for di, (dr, dc) in enumerate(_DIRECTIONS):
        bad = 0
        needs = []
        for s, k in index.items():
            # The Square one step that way (None off the board), from a table.
            d = _STEPS[s][di]
            if d is None:
                bad |= 1 << k
                continue
            j = index.get(d)
            if j is not None:
                if j:
                    needs.append((1 << k, 1 << j))
                continue
            ok = free.get(d)
            if ok is None:
                ok = free[d] = kn.empty(_slot(d, GROUND)) and not kn.mixed(d)
            if not ok:
                bad |= 1 << k
        if not bad & 1:
            ways.append(((sq // SIZE + dr) * SIZE + sq % SIZE + dc, bad, needs))
    if not ways:
        return []
    key = (sq, tuple(groups), tuple((dest, bad, tuple(needs)) for dest, bad, needs in ways))
    found = _DOZINGS.get(key)
    if found is None:
        if len(_DOZINGS) >= 4096:
            _DOZINGS.clear()
        found = _DOZINGS[key] = _dozing_moves(groups, ways)
    pid = dozer.id
    # Candidate(pid, path, PEACEFUL, doze=doze, dozing=True), built without
    # the keyword call (a Dozer has many dozings).
    new = tuple.__new__
    return [new(Candidate, (pid, path, PEACEFUL, None, doze, (), True)) for path, doze in found]


def _dozings_by_rule(game: Game, dozer: Piece, kn: Knowledge) -> list[Candidate]:
    """A Dozer's dozings (l. 201-205): the Dozer, the friendly Piece sharing
    its ground (there must be one) and any of the groups of Pieces its side
    sees on the neighbouring ground Squares (enemies too with
    ``doze_enemies``), four Pieces at most, move one Square in one
    direction, where every Square they move onto is on the board and seen
    empty (or is left by one of them) and is not barred by a mixed pair
    (l. 1914-1917). By number of groups, then groups in order, then
    direction."""
    sq = dozer.sq
    here = [game.pieces[i] for i in game.board[sq * 3 + GROUND] if i != dozer.id]
    if not [q for q in here if q.color == dozer.color]:
        return []
    groups = []
    for n in neighbours(sq):
        known = kn.known(n * 3 + GROUND)
        if not known or (not game.options["doze_enemies"] and any(q.color != dozer.color for q in known)):
            continue
        groups.append((n, len(known)))
    out = []
    row0, col0 = divmod(sq, SIZE)
    for size in range(0, 5):
        for combo in combinations(groups, size):
            if sum(c for _, c in combo) > 4:
                continue
            squares = (sq,) + tuple(s for s, _ in combo)
            moving = set(squares)
            for dr, dc in _DIRECTIONS:
                ok = True
                for s in squares:
                    r, c = divmod(s, SIZE)
                    r, c = r + dr, c + dc
                    if not (0 <= r < SIZE and 0 <= c < SIZE):
                        ok = False
                        break
                    d = r * SIZE + c
                    if d not in moving and (not kn.empty(d * 3 + GROUND) or mixed_square(kn, d)):
                        ok = False
                        break
                if ok:
                    dest = (row0 + dr) * SIZE + (col0 + dc)
                    out.append(Candidate(dozer.id, (dest * 3 + GROUND,), PEACEFUL,
                                         doze=tuple(sorted(s for s, _ in combo)), dozing=True))
    return out


#: Dozings by local layout (see _dozing_moves): a pure function of its key.
_DOZINGS: dict[Any, tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]] = {}


def _dozing_moves(
    groups: list[tuple[int, int]], ways: list[tuple[int, int, list[tuple[int, int]]]]
) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """The (path, dozed Squares) of every dozing, from the groups around the
    Dozer and, per open direction, its landing Square, the groups that cannot
    go that way and which group must move for another to."""
    # Per direction, only the groups that can go that way are combined; the
    # Moves come out by number of groups, then groups in order, then direction.
    found = []
    weights = tuple([n for _, n in groups])
    for w, (dest, bad, needs) in enumerate(ways):
        allowed = {k for k in range(1, len(groups) + 1) if not bad >> k & 1}
        # A group that must push one that cannot move cannot move either.
        pruned = True
        while pruned:
            pruned = False
            for i, j in needs:
                k, m = i.bit_length() - 1, j.bit_length() - 1
                if k in allowed and m not in allowed:
                    allowed.discard(k)
                    pruned = True
        if any(i == 1 and (j.bit_length() - 1) not in allowed for i, j in needs):
            continue
        for combo, mask in _weighed(tuple(sorted(allowed)), weights):
            if needs:
                # A group moving into another's Square needs that one to move too.
                for i, j in needs:
                    if mask & i and not mask & j:
                        break
                else:
                    found.append((len(combo), combo, w, dest))
            else:
                found.append((len(combo), combo, w, dest))
    found.sort()
    where = [0] + [n for n, _ in groups]
    return tuple([((dest * 3 + GROUND,), tuple(sorted([where[k] for k in combo]))) for _, combo, _, dest in found])


_DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))

#: Per Square, the Square one step in each of ``_DIRECTIONS`` (None off the board).
_STEPS: tuple[tuple[int | None, ...], ...] = tuple(
    tuple((s // SIZE + dr) * SIZE + s % SIZE + dc if 0 <= s // SIZE + dr < SIZE and 0 <= s % SIZE + dc < SIZE
          else None for dr, dc in _DIRECTIONS)
    for s in range(SIZE * SIZE))


def _weighed(allowed: tuple[int, ...], weights: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The combinations of up to four of the groups ``allowed`` (numbers from
    1, in order) that may doze together, groups of ``weights`` Pieces (at most
    four Pieces in all, a lone group of any size but above four), by size
    then in ``combinations`` order, each with its mask (bit 0, the Dozer, and
    bit k for group k). Memoized: a pure function, and many directions of
    many dozings share one set of groups."""
    key = (allowed, weights)
    found = _WEIGHED.get(key)
    if found is None:
        out = []
        for size in range(0, min(4, len(allowed)) + 1):
            for combo in combinations(allowed, size):
                if size > 1 and sum(weights[k - 1] for k in combo) > 4:
                    continue
                if size == 1 and weights[combo[0] - 1] > 4:
                    continue
                mask = 1
                for k in combo:
                    mask |= 1 << k
                out.append((combo, mask))
        if len(_WEIGHED) >= 4096:
            _WEIGHED.clear()
        found = _WEIGHED[key] = tuple(out)
    return found


_WEIGHED: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[tuple[int, ...], int], ...]] = {}


# --- the Move cache ------------------------------------------------------------------


@dataclass(slots=True)
class MoveEntry:
    """A Piece's entry in the Move cache (``Derived.moves``, one
    ``state.MoveCache`` per side): its Moves and what they were worked out
    from. Kept small (a game holds an entry per Piece)."""

    #: The Piece the Moves were worked out for (the same as far as Moves go
    #: as long as the entry is used: ``same_moves``).
    piece: Piece
    #: Its candidate Moves.
    moves: list[Candidate]
    #: Every Square the movement rules read, as bytes (each below 100; only
    #: ever tested for meeting the touched ones, so in no order).
    reads: bytes
    #: The codes of the ``empty`` and ``land`` questions asked, with their
    #: answers (see ``SLOT_SHIFT``).
    codes: array
    #: The other questions: (Square, question, answer), ``(slot,)`` for
    #: ``known`` and ``(None, sq)`` for ``mixed``.
    extra: tuple[tuple[int, Any, Any], ...]
    #: The other Pieces of its own place (its passenger, a Dozer's companion).
    own: tuple[Piece, ...]


class _Reading(Knowledge):
    """Knowledge that notes every Square it was asked about: with the Piece's
    own Square (its passenger, its ground), these are all the Squares a
    Piece's Moves depend on (``can_land`` and ``mixed_square`` only look
    further at the Square of a place already asked about).

    It also keeps each question the movement rules asked (``empty``,
    ``land``, ``known``, ``mixed``) with its answer: a later state that
    answers the questions about the Squares touched since in the same way
    gets the same Moves, since the rules ask nothing else of other Squares
    (``known`` serves only a Dozer's dozings, which look at the colours of
    what is seen; ``can_land`` and ``mixed_square`` read the board directly,
    so their own reads are not noted twice). ``empty`` and ``land``, nearly
    all of them, are kept as question codes (see ``SLOT_SHIFT``): a game
    keeps many entries; ``_try_all`` and ``_chopper`` note most of them
    inline.
    """

    __slots__ = ("reads", "log", "extra")

    def __init__(self, game: Game, color: str, hidden: frozenset[int], sq: int) -> None:
        self.game = game
        self.color = color
        self.hidden = hidden
        self.reads = {sq}
        self.log: list[int] = []
        # (Square, question, answer): ``(slot,)`` for known(), ``(None, sq)``
        # for mixed().
        self.extra: list[tuple[int, Any, Any]] = []

    def known(self, slot: int) -> list[Piece]:
        sq = slot // 3
        self.reads.add(sq)
        pieces = self.game.pieces
        hidden = self.hidden
        out = [pieces[i] for i in self.game.board[slot] if i not in hidden]
        self.extra.append((sq, (slot,), tuple([q.color for q in out])))
        return out

    def mixed(self, sq: int) -> bool:
        self.reads.add(sq)
        found = mixed_square(self, sq)
        self.extra.append((sq, (None, sq), found))
        return found

    def empty(self, slot: int) -> bool:
        self.reads.add(slot // 3)
        ids = self.game.board[slot]
        if not ids:
            self.log.append(slot << SLOT_SHIFT | EMPTY_CODE | ANSWER)
            return True
        hidden = self.hidden
        found = all(i in hidden for i in ids)
        self.log.append(slot << SLOT_SHIFT | EMPTY_CODE | found)
        return found

    def land(self, slot: int, movers: list[Piece], kind: int) -> bool:
        self.reads.add(slot // 3)
        found = can_land(self, slot, movers, kind)
        # (land_code, inline.)
        self.log.append(slot << SLOT_SHIFT | kind << KIND_SHIFT | (CARRY if len(movers) > 1 else 0) | found)
        return found


def _same_answers(kn: Knowledge, p: Piece, e: MoveEntry, touched: set[int]) -> bool:
    """Whether every question an entry ``e`` asked about a touched Square
    gets the answer it got when the entry was made. ``p`` is the Piece now,
    the same as far as Moves go; its own place is checked first, so its
    passenger is the one the questions were asked with."""
    game = kn.game
    here = (p.row - 1) * SIZE + p.col - 1
    if here in touched:
        # The other Pieces of its own place, read directly (its passenger, a
        # Dozer's companion): the same ones, the same as far as Moves go.
        pid = p.id
        others = [i for i in game.board[here * 3 + p.level] if i != pid]
        own = e.own
        if len(others) != len(own):
            return False
        pieces = game.pieces
        for i, q in zip(others, own, strict=True):
            now = pieces[i]
            if i != q.id or (now is not q and not same_moves(now, q)):
                return False
    pair: list[Piece] | None = None
    for code in e.codes:
        if code // SQUARE_DIVISOR not in touched:
            continue
        slot = code >> SLOT_SHIFT
        kind = code >> KIND_SHIFT & KIND_MASK
        if kind == EMPTY:
            if kn.empty(slot) != code & ANSWER:
                return False
            continue
        if code & CARRY:
            if pair is None:
                passenger = _passenger(game, p)
                if passenger is None:
                    return False
                pair = [p, passenger]
            movers = pair
        else:
            movers = [p]
        if can_land(kn, slot, movers, kind) != code & ANSWER:
            return False
    for sq, question, answer in e.extra:
        if sq in touched:
            if len(question) == 1:
                if tuple([q.color for q in kn.known(question[0])]) != answer:
                    return False
            elif mixed_square(kn, question[1]) != answer:
                return False
    return True


def _reusable(game: Game, color: str, hidden: frozenset[int]) -> tuple[dict[int, MoveEntry] | None, set[int]]:
    """The Move cache entries of ``color`` on ``game`` and the Squares
    touched since they were made (see :func:`_move_source`)."""
    caches = game.derived.moves
    base = caches.get(color) if caches is not None else None
    touched: set[int] = set()
    if base is None or base.options is not game.options:
        return None, touched
    touched.update(base.touched)
    touched.update(game.derived.touched[base.since:])
    old_hidden = base.hidden
    if old_hidden is not hidden and old_hidden != hidden:
        pieces = game.pieces
        for pid in old_hidden ^ hidden:
            q = pieces.get(pid)
            if q is not None:
                touched.add((q.row - 1) * SIZE + q.col - 1)
    return base.entries, touched


def _move_source(game: Game, color: str, hidden: frozenset[int]
                 ) -> tuple[Any, Any, dict[int, MoveEntry], dict[int, MoveEntry] | None, set[int]]:
    """A function giving a Piece's candidate Moves, reusing the entries of
    the Move cache that are still good, one giving them for a Piece whose
    entry (or None) read a touched Square or holds another Piece, and the
    entries they made or kept.

    An entry (:class:`MoveEntry`) is still good when the Piece is the same
    as far as Moves go (``moves_key``) and none of the Squares it read was
    touched since (the board primitives note every Square they change, see
    ``Derived.touched``), counting the Squares of the Pieces whose
    visibility to ``color`` changed; or when some were, but every question
    its log asked of them answers as before (about half of the Pieces whose
    Squares were touched keep their Moves so).
    """
    old, touched = _reusable(game, color, hidden)
    made: dict[int, MoveEntry] = {}
    isdisjoint = touched.isdisjoint
    plain: list[Knowledge] = []

    def renew(p: Piece, e: MoveEntry | None) -> list[Candidate]:
        if e is not None and (e.piece is p or same_moves(e.piece, p)) and _same_answers(
                plain[0] if plain else _first(plain, game, color, hidden), p, e, touched):
            # A Square it read was touched, but every question asked of the
            # touched Squares gets the same answer (its own place, read
            # directly, counts as one): the Moves still hold.
            made[p.id] = e if e.piece is p else MoveEntry(p, e.moves, e.reads, e.codes, e.extra, e.own)
            return e.moves
        pid = p.id
        own = (p.row - 1) * SIZE + p.col - 1
        kn = _Reading(game, color, hidden, own)
        cands = piece_candidates(game, p, kn)
        # Mostly a Piece is alone in its place: no comprehension to run.
        ids = game.board[own * 3 + p.level]
        if len(ids) == 1 and ids[0] == pid:
            others: tuple[Piece, ...] = ()
        else:
            pieces = game.pieces
            others = tuple([pieces[i] for i in ids if i != pid])
        made[pid] = MoveEntry(p, cands, bytes(kn.reads), array("H", kn.log), tuple(kn.extra), others)
        return cands

    def moves_of(p: Piece) -> list[Candidate]:
        e = made.get(p.id)
        if e is not None and e.piece is p:
            return e.moves
        e = old.get(p.id) if old is not None else None
        if e is not None and (not touched or isdisjoint(e.reads)) and (e.piece is p or same_moves(e.piece, p)):
            made[p.id] = e if e.piece is p else MoveEntry(p, e.moves, e.reads, e.codes, e.extra, e.own)
            return e.moves
        return renew(p, e)

    return moves_of, renew, made, old, touched


def _first(plain: list[Knowledge], game: Game, color: str, hidden: frozenset[int]) -> Knowledge:
    """A Knowledge made once per listing, on first need."""
    plain.append(Knowledge(game, color, hidden))
    return plain[0]


def all_candidates(
    game: Game, color: str, hidden: frozenset[int], only: list[Piece] | None = None, shared: bool = False
) -> dict[int, list[Candidate]]:
    """Candidate Moves by piece id for ``color`` (or just the Pieces ``only``):
    :func:`piece_candidates` of each, reusing (a fast path, the Move cache)
    a Piece's Moves from an earlier state while nothing they were worked out
    from has changed (``fastpaths.CACHE_MOVES``).

    Each list is the caller's own, unless ``shared``: then it may be the Move
    cache's entry itself, for a caller that only reads it (the listing; a
    copy per Piece per listing saved).

    A Chopper that went up must come down on its side's next Turn (l. 383):
    while the side has an airborne Chopper that can land, only such
    Choppers may Move (docs/rulings.md, "Chopper must land").
    """
    made: dict[int, MoveEntry] | None = None
    old: dict[int, MoveEntry] | None = None
    touched: set[int] = set()
    if fastpaths.FAST_PATHS and fastpaths.CACHE_MOVES:
        moves_of, renew, made, old, touched = _move_source(game, color, hidden)
    else:
        kn = Knowledge(game, color, hidden)

        def moves_of(p: Piece) -> list[Candidate]:
            return piece_candidates(game, p, kn)

        def renew(p: Piece, e: MoveEntry | None) -> list[Candidate]:
            return piece_candidates(game, p, kn)

    result = {}
    airborne = []
    if only is not None:
        for p in only:
            cands = moves_of(p)
            if cands:
                result[p.id] = list(cands)
        # The side's airborne Choppers, among the Pieces away from the ground
        # (Derived.aloft; their order does not matter, only which can land).
        pieces = game.pieces
        aloft = game.derived.aloft if fastpaths.FAST_PATHS else [i for i, q in pieces.items() if q.level]
        airborne = [q for q in map(pieces.__getitem__, aloft)
                    if q.color == color and q.type == "chopper" and q.level == AIR]
    elif old is not None and not touched:
        # Nothing touched since the entries were made (more than half the
        # listings: a Fire or a Pick-up since the last one). Every change to
        # a Piece's place, side or anything ``moves_key`` holds, and every
        # Piece added or removed, touches a Square (the board primitives), so
        # the side's Pieces are the entries' ones, in the same order, each
        # the same as far as Moves go: every entry holds as it is (its Piece
        # may be an older tuple, equal as far as Moves go) and the side's
        # Pieces need not be walked. An airborne Chopper is such an entry's.
        made = old
        result = {pid: e.moves if shared else list(e.moves) for pid, e in old.items() if e.moves}
        # An airborne Chopper is among the Pieces away from the ground
        # (Derived.aloft, both sides: a few Pieces, not the side's entries).
        for pid in game.derived.aloft:
            if pid in result and old[pid].piece.level == AIR and old[pid].piece.type == "chopper":
                result = {i: c for i, c in result.items()
                          if old[i].piece.level == AIR and old[i].piece.type == "chopper"}
                break
    else:
        # moves_of, inlined for the whole side (this runs for every listing).
        # Squares touched: each entry's are walked; an entry that read one
        # goes to renew, its questions asked again.
        get = old.get if old is not None else {}.get
        isdisjoint = touched.isdisjoint
        for pid, p in game.pieces.items():
            if p.color != color:
                continue
            e = get(pid)
            if e is not None and isdisjoint(e.reads) and (e.piece is p or same_moves(e.piece, p)):
                if e.piece is not p:
                    # The entry for ``p``, a newer tuple of its Piece, the
                    # same as far as Moves go.
                    e = MoveEntry(p, e.moves, e.reads, e.codes, e.extra, e.own)
                made[pid] = e
                cands = e.moves
            else:
                cands = renew(p, e)
            if cands:
                result[pid] = cands if shared else list(cands)
            if p.level == AIR and p.type == "chopper":
                airborne.append(p)
    if airborne:
        forced = {p.id for p in airborne if p.id in result or moves_of(p)}
        if forced:
            result = {pid: c for pid, c in result.items() if pid in forced}
    if made is not None and only is None:
        # Every Piece of the side was worked out or checked: keep the entries
        # for the states that follow this one.
        d = game.derived
        caches = dict(d.moves) if d.moves is not None else {}
        caches[color] = MoveCache(made, hidden, frozenset(), len(d.touched), game.options)
        d.moves = caches
    return result


# --- carrying a Move out on the true board ----------------------------------------

def resolve(game: Game, cand: Candidate, events: list[dict[str, Any]]) -> None:
    """Carry out ``cand`` on ``game`` (a fresh copy), recording events."""
    p = game.pieces[cand.piece]
    if cand.dozing:
        _resolve_dozing(game, p, cand, events)
        return
    stop = cand.dest
    for n, s in enumerate(cand.path):
        if not any(game.pieces[i].color != p.color for i in game.board[s]):
            continue
        if takes_at(game, p, cand, n):
            stop = s
            if n < len(cand.path) - 1:
                events.append({"kind": "stopped", "slot": s})
        else:
            # A non-combat mover cannot take what it runs into: it stops on
            # the last place it reached before it, or stays where it was
            # (docs/rulings.md, "Non-combat Moves into unseen enemies").
            stop = cand.path[n - 1] if n else p.slot
            events.append({"kind": "blocked", "slot": s})
        break
    takes = [i for i in game.board[stop] if game.pieces[i].color != p.color]
    for i in takes:
        victim = game.pieces[i]
        events.append({"kind": "taken", "piece": describe(victim), "slot": stop})
        remove_piece(game, i)
    sq, level = divmod(stop, 3)
    row, col = sq // SIZE + 1, sq % SIZE + 1
    game.place(p.id, row, col, level)
    if cand.carry is not None and cand.carry in game.pieces:
        game.place(cand.carry, row, col, level)


def takes_at(game: Game, p: Piece, cand: Candidate, n: int) -> bool:
    """Whether a Move takes enemies it meets at the ``n``-th place of its path.

    Only combat movement takes (l. 795-806, 1015-1017): Dozer, Destroyer and
    AAA never, Sub and Jet only with ``sub_jet_combat`` and a Jet never on the
    second Square of its flight. The Pawn's Move Squares are still combat
    movement: a Pawn that meets an unseen enemy takes it, as the manual's
    general rule says.
    """
    t = p.type
    if t in NON_COMBAT:
        return False
    if t in ("sub", "jet"):
        if not game.options["sub_jet_combat"]:
            return False
        return not (t == "jet" and n == 1 and len(cand.path) == 2 and cand.kind == PEACEFUL)
    return True


def _resolve_dozing(game: Game, dozer: Piece, cand: Candidate, events: list[dict[str, Any]]) -> None:
    sq = dozer.sq
    dest_sq = cand.dest // 3
    dr = dest_sq // SIZE - sq // SIZE
    dc = dest_sq % SIZE - sq % SIZE
    squares = (sq,) + cand.doze
    movers = []
    for s in squares:
        movers.extend(game.board[_slot(s, GROUND)])
    moving = set(squares)
    # An unseen enemy in the way stops the whole dozing (docs/rulings.md).
    for s in squares:
        d = s + dr * SIZE + dc
        if d not in moving and game.board[_slot(d, GROUND)]:
            events.append({"kind": "bumped", "slot": _slot(d, GROUND)})
            return
    for i in movers:
        q = game.pieces[i]
        game.place(i, q.row + dr, q.col + dc, GROUND)
    events.append({"kind": "dozed", "count": len(movers) - 1})


def describe(p: Piece) -> dict[str, Any]:
    return {"id": p.id, "type": p.type, "color": p.color, "row": p.row, "col": p.col, "level": p.level, "hand": p.hand,
            "articles": list(p.articles)}


def remove_piece(game: Game, pid: int) -> None:
    """Take a Piece off the board; its Articles fall to the ground nearby."""
    p = game.remove(pid)
    game.locks = tuple(lk for lk in game.locks if pid not in lk)
    for art in p.articles:
        drop_article(game, p, art)


@cache
def drop_order(color: str, sq: int) -> tuple[int, ...]:
    """Where Articles crowded out of ``sq`` land, in order: the same Square,
    then ring by ring: the forward row left to right, the left then the right
    side front to back, the back row left to right (the manual's order for
    ring 1, extended outward)."""
    order = [sq]
    for ring in range(1, SIZE):
        front = [offset(color, sq, ring, r) for r in range(-ring, ring + 1)]
        left = [offset(color, sq, f, -ring) for f in range(ring - 1, -ring, -1)]
        right = [offset(color, sq, f, ring) for f in range(ring - 1, -ring, -1)]
        back = [offset(color, sq, -ring, r) for r in range(-ring, ring + 1)]
        order.extend(s for s in front + left + right + back if s is not None)
    return tuple(order)


def drop_article(game: Game, p: Piece, article: str) -> None:
    for s in drop_order(p.color, p.sq):
        if len(game.ground[s]) < 2:
            game.set_ground(s, game.ground[s] + (article,))
            return
    # The board is full of Articles: with at most 200 on 100 Squares this
    # cannot happen; the Article is lost rather than breaking the board.
