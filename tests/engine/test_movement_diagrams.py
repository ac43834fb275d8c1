"""Every movement diagram of the manual, checked against ``move_targets``.

The manual (shared/seeds/001_e7d07cd680448a43.txt) draws each Piece's
movement with the Piece's forward at the top and its right on the right. The
diagrams are transcribed here by hand, either as small grids in our own
notation or as lists of ``(forward, right)`` offsets from the Piece, each with
the manual lines it comes from. A helper turns an offset into a board Square
for a colour: Black's forward is +row and its right +col, White's forward is
-row and its right -col.

The 20 by 20 diagrams do not fit on the 10 by 10 board, so every shape is
checked with the Piece alone on each of the 100 Squares in turn (the central
Squares included); only landings on the board are expected. For the path
Pieces (Tank, Cleric, secondary government Piece) the drawn path is kept: a
landing is expected only when every Square of its path is on the board, and
the landing is the end of a path exactly ``range`` Squares long (the engine's
reading, docs/rulings.md "Path length": the ``+`` is step 7, the inner ``*``
step 6 and the outer ``*`` step 8 of the same path).
"""

from __future__ import annotations

import itertools

import pytest

from games.rules.wec import apply, dump_scenario, load_scenario, move_targets, outcome

MOVEMENTS = ("weaponized", "standard_chess", "mass_destruction")
COLORS = ("black", "white")
HANDS = ("left", "right")
RANGES = (6, 7, 8)
ALL_SQUARES = tuple((r, c) for r in range(1, 11) for c in range(1, 11))
CENTRAL_SQUARES = ((5, 5), (6, 6), (5, 6), (6, 5))
ENEMY = {"black": "white", "white": "black"}


# --- helpers ----------------------------------------------------------------------


def to_board(color: str, row: int, col: int, forward: int, right: int) -> tuple[int, int]:
    """The board Square at (forward, right) from (row, col) for ``color``."""
    sign = 1 if color == "black" else -1
    return row + sign * forward, col + sign * right


def to_offset(color: str, row: int, col: int, r: int, c: int) -> tuple[int, int]:
    """The (forward, right) offset of Square (r, c) seen from (row, col)."""
    sign = 1 if color == "black" else -1
    return sign * (r - row), sign * (c - col)


def on_board(square: tuple[int, int]) -> bool:
    return 1 <= square[0] <= 10 and 1 <= square[1] <= 10


def piece(kind: str, color: str, row: int, col: int, level: str = "ground", **extra) -> dict:
    d = {"type": kind, "color": color, "row": row, "col": col, "level": level, "articles": []}
    d.update(extra)
    return d


def game(pieces: list[dict], to_move: str, options: dict | None = None):
    return load_scenario({"to_move": to_move, "options": dict(options or {}), "pieces": pieces})


def grid_offsets(grid: str, centre: str) -> dict[str, set[tuple[int, int]]]:
    """Read one of our small grids: one character per Square, forward at the
    top, ``centre`` marks the Piece, ``.`` an unmarked Square. Returns, for
    every other character, the set of its (forward, right) offsets."""
    rows = [line.strip() for line in grid.strip().splitlines()]
    ((crow, ccol),) = [(i, line.index(centre)) for i, line in enumerate(rows) if centre in line]
    out: dict[str, set[tuple[int, int]]] = {}
    for i, line in enumerate(rows):
        for j, ch in enumerate(line):
            if ch not in (".", centre):
                out.setdefault(ch, set()).add((crow - i, j - ccol))
    return out


def squares_of(color, row, col, offsets, level="ground"):
    """Board places for the on-board offsets."""
    out = set()
    for f, r in offsets:
        sq = to_board(color, row, col, f, r)
        if on_board(sq):
            out.add((sq[0], sq[1], level))
    return out


def path_landings(color, row, col, paths, length, level="ground"):
    """Landings of the paths cut to ``length`` whose every Square is on the board."""
    out = set()
    for path in paths:
        squares = [to_board(color, row, col, f, r) for f, r in path[:length]]
        if all(on_board(s) for s in squares):
            out.add((squares[-1][0], squares[-1][1], level))
    return out


def sweep(make_piece, expected_at, color, options, level="ground", squares=ALL_SQUARES):
    """Put the Piece alone on each Square; return a list of mismatches."""
    problems = []
    for row, col in squares:
        g = game([make_piece(row, col)], color, options)
        got = move_targets(g, row, col, level)
        want = expected_at(row, col)
        if got != want:
            problems.append(
                f"{color} at ({row},{col},{level}): missing {sorted(want - got)}, unexpected {sorted(got - want)}"
            )
    return problems


# --- Pawns ----------------------------------------------------------------------------
# Our grids: P the Pawn, M a Move Square, A an attack Square, X a Square that is
# both (Chess of Mass Destruction). Forward is the top line.

# Weaponized Chess, from the origin Square: manual lines 776-784.
PAWN_WEAPONIZED_ORIGIN = """
M...M
.MAM.
.APA.
"""
# Weaponized Chess, after leaving the origin Square: manual lines 785-793.
PAWN_WEAPONIZED_LATER = """
.....
.MAM.
.APA.
"""
# Standard Chess movement, from the origin Square: manual lines 1123-1131.
PAWN_STANDARD_ORIGIN = """
..M..
.AMA.
..P..
"""
# Standard Chess movement, later Moves: manual lines 1132-1140.
PAWN_STANDARD_LATER = """
.....
.AMA.
..P..
"""
# Chess of Mass Destruction (no two-square first Move, l. 1338-1339):
# All Sides and Forward, manual lines 1340-1349.
PAWN_MD_ALL_SIDES_AND_FORWARD = """
.....
.XXX.
.XPX.
"""
# All Forward, manual lines 1350-1359.
PAWN_MD_ALL_FORWARD = """
.....
.XXX.
..P..
"""
# All but Directly in Front, manual lines 1360-1369.
PAWN_MD_ALL_BUT_FRONT = """
.....
.X.X.
.XPX.
"""

PAWN_CASES = [
    # (id, options, "moved" flag, grid)
    ("weaponized-origin", {"movement": "weaponized"}, False, PAWN_WEAPONIZED_ORIGIN),
    ("weaponized-later", {"movement": "weaponized"}, True, PAWN_WEAPONIZED_LATER),
    ("standard-origin", {"movement": "standard_chess"}, False, PAWN_STANDARD_ORIGIN),
    ("standard-later", {"movement": "standard_chess"}, True, PAWN_STANDARD_LATER),
]
for _name, _grid in (
    ("all_sides_and_forward", PAWN_MD_ALL_SIDES_AND_FORWARD),
    ("all_forward", PAWN_MD_ALL_FORWARD),
    ("all_but_front", PAWN_MD_ALL_BUT_FRONT),
):
    for _moved in (False, True):
        PAWN_CASES.append(
            (
                f"mass-{_name}-{'later' if _moved else 'first'}",
                {"movement": "mass_destruction", "pawn_movement": _name},
                _moved,
                _grid,
            )
        )

PAWN_TYPES = (
    "rocket_pawn",
    "stunner_pawn",
    "flamer_pawn",
    "conversion_pawn",
    "stealth_pawn",
    "xxx_pawn",
    "sam_torpedo_pawn",
)


def _pawn(color, moved, kind="rocket_pawn"):
    def make(row, col):
        return piece(kind, color, row, col, moved=moved)

    return make


def _pawn_move_offsets(grid):
    marks = grid_offsets(grid, "P")
    return marks.get("M", set()) | marks.get("X", set())


def _pawn_attack_offsets(grid):
    marks = grid_offsets(grid, "P")
    return marks.get("A", set()) | marks.get("X", set())


@pytest.mark.parametrize("color", COLORS)
@pytest.mark.parametrize("case", PAWN_CASES, ids=[c[0] for c in PAWN_CASES])
def test_pawn_move_squares_on_an_empty_board(case, color):
    """Alone on the board, a Pawn may go to its Move Squares only (an empty
    attack Square is no destination)."""
    _, options, moved, grid = case
    moves = _pawn_move_offsets(grid)
    problems = sweep(
        _pawn(color, moved),
        lambda row, col: squares_of(color, row, col, moves),
        color,
        options,
    )
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("color", COLORS)
@pytest.mark.parametrize("case", PAWN_CASES, ids=[c[0] for c in PAWN_CASES])
def test_pawn_takes_on_its_attack_squares(case, color):
    """An enemy on an attack Square (A, or X in Mass Destruction) may be
    taken: it is a destination and the Move removes the enemy."""
    _, options, moved, grid = case
    attacks = _pawn_attack_offsets(grid)
    assert attacks
    for row, col in CENTRAL_SQUARES:
        for f, r in sorted(attacks):
            er, ec = to_board(color, row, col, f, r)
            g = game(
                [
                    piece("rocket_pawn", color, row, col, moved=moved),
                    piece("flamer_pawn", ENEMY[color], er, ec),
                ],
                color,
                options,
            )
            assert (er, ec, "ground") in move_targets(g, row, col, "ground"), (row, col, f, r)
            after = apply(g, {"type": "move", "from": [row, col, "ground"], "to": [er, ec, "ground"]})
            assert move_targets(after, row, col, "ground") == set()
            doc = dump_scenario(after)
            assert [(p["type"], p["color"], p["row"], p["col"]) for p in doc["pieces"]] == [
                ("rocket_pawn", color, er, ec)
            ]
            assert outcome(after) is None


@pytest.mark.parametrize("color", COLORS)
@pytest.mark.parametrize(
    "case",
    [c for c in PAWN_CASES if c[1]["movement"] != "mass_destruction"],
    ids=[c[0] for c in PAWN_CASES if c[1]["movement"] != "mass_destruction"],
)
def test_pawn_cannot_take_on_a_move_square(case, color):
    """In Weaponized and Standard Chess movement an enemy on a Move Square
    (M) is not a destination: the Pawn takes only on its attack Squares."""
    _, options, moved, grid = case
    moves = grid_offsets(grid, "P")["M"]
    for row, col in CENTRAL_SQUARES:
        for f, r in sorted(moves):
            er, ec = to_board(color, row, col, f, r)
            g = game(
                [
                    piece("rocket_pawn", color, row, col, moved=moved),
                    piece("flamer_pawn", ENEMY[color], er, ec),
                ],
                color,
                options,
            )
            assert (er, ec, "ground") not in move_targets(g, row, col, "ground"), (row, col, f, r)


@pytest.mark.parametrize("movement", MOVEMENTS)
@pytest.mark.parametrize("color", COLORS)
def test_every_pawn_type_moves_alike(movement, color):
    """The seven Pawn types share one movement (the manual gives one Pawn
    diagram per movement system)."""
    for moved in (False, True):
        seen = set()
        for kind in PAWN_TYPES:
            g = game([piece(kind, color, 5, 5, moved=moved)], color, {"movement": movement})
            seen.add(frozenset(move_targets(g, 5, 5, "ground")))
        assert len(seen) == 1, (moved, seen)


# --- King, Dozer, Destroyer, AAA (manual lines 794-797, 1144-1148, 1370-1373) -------

KING_STEPS = {(f, r) for f in (-1, 0, 1) for r in (-1, 0, 1)} - {(0, 0)}
ONE_SQUARE_TYPES = ("king", "dozer", "destroyer", "aaa", "dictator", "avatar", "president")


@pytest.mark.parametrize("kind", ONE_SQUARE_TYPES)
@pytest.mark.parametrize("color", COLORS)
@pytest.mark.parametrize("movement", MOVEMENTS)
def test_one_square_in_any_direction(kind, color, movement):
    """King (every primary type Moves alike, l. 257-258), Dozer, Destroyer and
    AAA Move one Square in any of the 8 directions at their level."""
    problems = sweep(
        lambda row, col: piece(kind, color, row, col),
        lambda row, col: squares_of(color, row, col, KING_STEPS),
        color,
        {"movement": movement},
    )
    assert not problems, "\n".join(problems)


# --- Sub (manual lines 798-800, 1149-1153, 1374-1381) ---------------------------------


@pytest.mark.parametrize("level", ("ground", "sub"))
@pytest.mark.parametrize("color", COLORS)
@pytest.mark.parametrize("movement", MOVEMENTS)
def test_sub_moves_one_square_at_its_level_or_changes_level_in_place(level, color, movement):
    other = "sub" if level == "ground" else "ground"

    def expected(row, col):
        return squares_of(color, row, col, KING_STEPS, level) | {(row, col, other)}

    problems = sweep(
        lambda row, col: piece("sub", color, row, col, level),
        expected,
        color,
        {"movement": movement},
        level=level,
    )
    assert not problems, "\n".join(problems)


# --- Jet (manual lines 801-806, 1154-1161, 1382-1388) -----------------------------------

JET_FLIGHT = {(k * f, k * r) for f, r in KING_STEPS for k in (1, 2)}


@pytest.mark.parametrize("color", COLORS)
@pytest.mark.parametrize("movement", MOVEMENTS)
def test_jet_on_the_ground_only_takes_off_in_place(color, movement):
    problems = sweep(
        lambda row, col: piece("jet", color, row, col),
        lambda row, col: {(row, col, "air")},
        color,
        {"movement": movement},
    )
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("color", COLORS)
@pytest.mark.parametrize("movement", MOVEMENTS)
def test_jet_in_the_air_lands_in_place_or_flies_one_or_two_squares(color, movement):
    def expected(row, col):
        out = {(row, col, "ground")}
        for f, r in KING_STEPS:
            for k in (1, 2):
                # A two-Square flight needs its first Square on the board too.
                first = to_board(color, row, col, f, r)
                sq = to_board(color, row, col, k * f, k * r)
                if on_board(first) and on_board(sq):
                    out.add((sq[0], sq[1], "air"))
        return out

    problems = sweep(
        lambda row, col: piece("jet", color, row, col, "air"),
        expected,
        color,
        {"movement": movement},
        level="air",
    )
    assert not problems, "\n".join(problems)


# --- Tanks -----------------------------------------------------------------------------
# Each path is listed Square by Square from the diagram, 8 steps: steps 1-5
# are drawn as arrows or slashes, step 6 is the inner '*', step 7 the '+',
# step 8 the outer '*'. Directions are the first step of the path.

# Weaponized Chess, right Tank: manual lines 828-867. Four Squares straight,
# then bearing diagonally to the right of the path.
TANK_WEAPONIZED_RIGHT = (
    ((1, 0), (2, 0), (3, 0), (4, 0), (5, 1), (6, 2), (7, 3), (8, 4)),
    ((0, 1), (0, 2), (0, 3), (0, 4), (-1, 5), (-2, 6), (-3, 7), (-4, 8)),
    ((-1, 0), (-2, 0), (-3, 0), (-4, 0), (-5, -1), (-6, -2), (-7, -3), (-8, -4)),
    ((0, -1), (0, -2), (0, -3), (0, -4), (1, -5), (2, -6), (3, -7), (4, -8)),
)
# Weaponized Chess, left Tank: manual lines 868-907.
TANK_WEAPONIZED_LEFT = (
    ((1, 0), (2, 0), (3, 0), (4, 0), (5, -1), (6, -2), (7, -3), (8, -4)),
    ((0, 1), (0, 2), (0, 3), (0, 4), (1, 5), (2, 6), (3, 7), (4, 8)),
    ((-1, 0), (-2, 0), (-3, 0), (-4, 0), (-5, 1), (-6, 2), (-7, 3), (-8, 4)),
    ((0, -1), (0, -2), (0, -3), (0, -4), (-1, -5), (-2, -6), (-3, -7), (-4, -8)),
)
# Standard Chess movement, either hand: manual lines 1162-1210 (straight lines).
TANK_STANDARD = (
    tuple((k, 0) for k in range(1, 9)),
    tuple((0, k) for k in range(1, 9)),
    tuple((-k, 0) for k in range(1, 9)),
    tuple((0, -k) for k in range(1, 9)),
)
# Chess of Mass Destruction, right Tank: manual lines 1397-1436 (zigzag; the
# arrow drawn on each first Square names the path it starts).
TANK_MASS_RIGHT = (
    ((1, 1), (2, 0), (3, -1), (4, 0), (5, 1), (6, 0), (7, -1), (8, 0)),
    ((-1, 1), (0, 2), (1, 3), (0, 4), (-1, 5), (0, 6), (1, 7), (0, 8)),
    ((-1, -1), (-2, 0), (-3, 1), (-4, 0), (-5, -1), (-6, 0), (-7, 1), (-8, 0)),
    ((1, -1), (0, -2), (-1, -3), (0, -4), (1, -5), (0, -6), (-1, -7), (0, -8)),
)
# Chess of Mass Destruction, left Tank: manual lines 1437-1476.
TANK_MASS_LEFT = (
    ((1, -1), (2, 0), (3, 1), (4, 0), (5, -1), (6, 0), (7, 1), (8, 0)),
    ((1, 1), (0, 2), (-1, 3), (0, 4), (1, 5), (0, 6), (-1, 7), (0, 8)),
    ((-1, 1), (-2, 0), (-3, -1), (-4, 0), (-5, 1), (-6, 0), (-7, -1), (-8, 0)),
    ((-1, -1), (0, -2), (1, -3), (0, -4), (-1, -5), (0, -6), (1, -7), (0, -8)),
)

TANK_PATHS = {
    ("weaponized", "right"): TANK_WEAPONIZED_RIGHT,
    ("weaponized", "left"): TANK_WEAPONIZED_LEFT,
    ("standard_chess", "right"): TANK_STANDARD,
    ("standard_chess", "left"): TANK_STANDARD,
    ("mass_destruction", "right"): TANK_MASS_RIGHT,
    ("mass_destruction", "left"): TANK_MASS_LEFT,
}

# --- Clerics ------------------------------------------------------------------------

# Weaponized Chess, left Cleric: manual lines 928-967. Five Squares along a
# diagonal, two after a quarter turn to the left, then one more along the
# first diagonal.
CLERIC_WEAPONIZED_LEFT = (
    ((1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 4), (7, 3), (8, 4)),
    ((1, -1), (2, -2), (3, -3), (4, -4), (5, -5), (4, -6), (3, -7), (4, -8)),
    ((-1, 1), (-2, 2), (-3, 3), (-4, 4), (-5, 5), (-4, 6), (-3, 7), (-4, 8)),
    ((-1, -1), (-2, -2), (-3, -3), (-4, -4), (-5, -5), (-6, -4), (-7, -3), (-8, -4)),
)
# Weaponized Chess, right Cleric: manual lines 968-1007 (quarter turn right).
CLERIC_WEAPONIZED_RIGHT = (
    ((1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (4, 6), (3, 7), (4, 8)),
    ((1, -1), (2, -2), (3, -3), (4, -4), (5, -5), (6, -4), (7, -3), (8, -4)),
    ((-1, 1), (-2, 2), (-3, 3), (-4, 4), (-5, 5), (-6, 4), (-7, 3), (-8, 4)),
    ((-1, -1), (-2, -2), (-3, -3), (-4, -4), (-5, -5), (-4, -6), (-3, -7), (-4, -8)),
)
# Standard Chess movement, either hand: manual lines 1211-1256 (diagonals).
CLERIC_STANDARD = (
    tuple((k, k) for k in range(1, 9)),
    tuple((k, -k) for k in range(1, 9)),
    tuple((-k, k) for k in range(1, 9)),
    tuple((-k, -k) for k in range(1, 9)),
)
# Chess of Mass Destruction, left Cleric: manual lines 1483-1522 (spirals).
# The drawing does not say which diagonal neighbour each spiral leaves by;
# we read each path as sweeping steadily round the Cleric while moving away
# from it (e.g. back-left, left, forward-left ... forward).
CLERIC_MASS_LEFT = (
    ((-1, -1), (0, -2), (1, -3), (2, -3), (3, -3), (4, -2), (5, -1), (6, 0)),
    ((1, -1), (2, 0), (3, 1), (3, 2), (3, 3), (2, 4), (1, 5), (0, 6)),
    ((1, 1), (0, 2), (-1, 3), (-2, 3), (-3, 3), (-4, 2), (-5, 1), (-6, 0)),
    ((-1, 1), (-2, 0), (-3, -1), (-3, -2), (-3, -3), (-2, -4), (-1, -5), (0, -6)),
)
# Chess of Mass Destruction, right Cleric: manual lines 1523-1562.
CLERIC_MASS_RIGHT = (
    ((-1, 1), (0, 2), (1, 3), (2, 3), (3, 3), (4, 2), (5, 1), (6, 0)),
    ((1, 1), (2, 0), (3, -1), (3, -2), (3, -3), (2, -4), (1, -5), (0, -6)),
    ((1, -1), (0, -2), (-1, -3), (-2, -3), (-3, -3), (-4, -2), (-5, -1), (-6, 0)),
    ((-1, -1), (-2, 0), (-3, 1), (-3, 2), (-3, 3), (-2, 4), (-1, 5), (0, 6)),
)

CLERIC_PATHS = {
    ("weaponized", "right"): CLERIC_WEAPONIZED_RIGHT,
    ("weaponized", "left"): CLERIC_WEAPONIZED_LEFT,
    ("standard_chess", "right"): CLERIC_STANDARD,
    ("standard_chess", "left"): CLERIC_STANDARD,
    ("mass_destruction", "right"): CLERIC_MASS_RIGHT,
    ("mass_destruction", "left"): CLERIC_MASS_LEFT,
}


def _landing_offsets(paths, length):
    return {p[length - 1] for p in paths}


@pytest.mark.parametrize("movement", MOVEMENTS)
@pytest.mark.parametrize("hand", HANDS)
def test_transcribed_paths_are_chains_of_single_steps(movement, hand):
    """Sanity of our transcription: every path moves one Square (orthogonal
    or diagonal) at a time and never visits a Square twice."""
    for paths in (TANK_PATHS[(movement, hand)], CLERIC_PATHS[(movement, hand)]):
        assert len({p[0] for p in paths}) == 4
        for path in paths:
            assert len(path) == 8 and len(set(path)) == 8
            for a, b in zip(((0, 0),) + path[:-1], path, strict=True):
                assert max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1, path


@pytest.mark.parametrize("length", RANGES)
@pytest.mark.parametrize("hand", HANDS)
@pytest.mark.parametrize("color", COLORS)
@pytest.mark.parametrize("movement", MOVEMENTS)
def test_tank(movement, color, hand, length):
    """Tank: ``+`` at range 7, the ``*`` Squares at range 6 and 8."""
    paths = TANK_PATHS[(movement, hand)]
    problems = sweep(
        lambda row, col: piece("tank", color, row, col, hand=hand),
        lambda row, col: path_landings(color, row, col, paths, length),
        color,
        {"movement": movement, "tank_range": length},
    )
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("length", RANGES)
@pytest.mark.parametrize("hand", HANDS)
@pytest.mark.parametrize("color", COLORS)
@pytest.mark.parametrize("movement", MOVEMENTS)
def test_cleric(movement, color, hand, length):
    """Cleric: ``+`` at range 7, the ``*`` Squares at range 6 and 8."""
    paths = CLERIC_PATHS[(movement, hand)]
    problems = sweep(
        lambda row, col: piece("cleric", color, row, col, hand=hand),
        lambda row, col: path_landings(color, row, col, paths, length),
        color,
        {"movement": movement, "cleric_range": length},
    )
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("movement", MOVEMENTS)
@pytest.mark.parametrize("hand", HANDS)
def test_tank_and_cleric_ranges_do_not_cross(movement, hand):
    """``tank_range`` moves only Tanks and ``cleric_range`` only Clerics."""
    for color in COLORS:
        g = game(
            [piece("tank", color, 5, 5, hand=hand)],
            color,
            {"movement": movement, "tank_range": 7, "cleric_range": 6},
        )
        assert move_targets(g, 5, 5, "ground") == path_landings(color, 5, 5, TANK_PATHS[(movement, hand)], 7)
        g = game(
            [piece("cleric", color, 5, 5, hand=hand)],
            color,
            {"movement": movement, "tank_range": 6, "cleric_range": 8},
        )
        assert move_targets(g, 5, 5, "ground") == path_landings(
            color, 5, 5, CLERIC_PATHS[(movement, hand)], 8
        )


# --- Choppers ---------------------------------------------------------------------------
# Our grids: C the Chopper, X a destination.

# Weaponized Chess: right Chopper manual lines 1022-1033, left 1034-1045.
CHOPPER_WEAPONIZED_RIGHT = """
X..XX
X....
..C..
....X
XX..X
"""
CHOPPER_WEAPONIZED_LEFT = """
XX..X
....X
..C..
X....
X..XX
"""
# Standard Chess movement, both hands: manual lines 1260-1275.
CHOPPER_STANDARD = """
.......
..X.X..
.X...X.
...C...
.X...X.
..X.X..
.......
"""
# Chess of Mass Destruction: right Chopper lines 1563-1578, left 1579-1594.
CHOPPER_MASS_RIGHT = """
....X..
.X...X.
X......
...C...
......X
.X...X.
..X....
"""
CHOPPER_MASS_LEFT = """
..X....
.X...X.
......X
...C...
X......
.X...X.
....X..
"""

CHOPPER_GRIDS = {
    ("weaponized", "right"): CHOPPER_WEAPONIZED_RIGHT,
    ("weaponized", "left"): CHOPPER_WEAPONIZED_LEFT,
    ("standard_chess", "right"): CHOPPER_STANDARD,
    ("standard_chess", "left"): CHOPPER_STANDARD,
    ("mass_destruction", "right"): CHOPPER_MASS_RIGHT,
    ("mass_destruction", "left"): CHOPPER_MASS_LEFT,
}


@pytest.mark.parametrize("hand", HANDS)
@pytest.mark.parametrize("color", COLORS)
@pytest.mark.parametrize("movement", MOVEMENTS)
def test_chopper_on_the_ground_ends_on_ground_or_in_air(movement, color, hand):
    """From the Ground a Chopper may end at either level of an X Square
    (manual lines 1046-1047)."""
    xs = grid_offsets(CHOPPER_GRIDS[(movement, hand)], "C")["X"]
    assert len(xs) == 8
    problems = sweep(
        lambda row, col: piece("chopper", color, row, col, hand=hand),
        lambda row, col: squares_of(color, row, col, xs, "ground") | squares_of(color, row, col, xs, "air"),
        color,
        {"movement": movement},
    )
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("hand", HANDS)
@pytest.mark.parametrize("color", COLORS)
@pytest.mark.parametrize("movement", MOVEMENTS)
def test_chopper_in_the_air_must_come_down(movement, color, hand):
    """From the Air a Chopper's destination is on the Ground (l. 1047-1048)."""
    xs = grid_offsets(CHOPPER_GRIDS[(movement, hand)], "C")["X"]
    problems = sweep(
        lambda row, col: piece("chopper", color, row, col, "air", hand=hand),
        lambda row, col: squares_of(color, row, col, xs, "ground"),
        color,
        {"movement": movement},
        level="air",
    )
    assert not problems, "\n".join(problems)


# --- Secondary government Piece -------------------------------------------------------
# The three Queen diagrams, '+' and '*' Squares as offsets.

# Weaponized Chess: manual lines 1049-1090.
QUEEN_WEAPONIZED_PLUS = {(7, -3), (7, 3), (3, -7), (3, 7), (-3, -7), (-3, 7), (-7, -3), (-7, 3)}
QUEEN_WEAPONIZED_STAR = {
    (8, -4), (8, 4),
    (6, -4), (6, -2), (6, 2), (6, 4),
    (4, -8), (4, -6), (4, 6), (4, 8),
    (2, -6), (2, 6),
    (-2, -6), (-2, 6),
    (-4, -8), (-4, -6), (-4, 6), (-4, 8),
    (-6, -4), (-6, -2), (-6, 2), (-6, 4),
    (-8, -4), (-8, 4),
}  # fmt: skip
# Standard Chess movement: manual lines 1278-1319.
QUEEN_STANDARD_PLUS = {(7, -7), (7, 0), (7, 7), (0, -7), (0, 7), (-7, -7), (-7, 0), (-7, 7)}
QUEEN_STANDARD_STAR = {
    (8, -8), (8, 0), (8, 8),
    (6, -6), (6, 0), (6, 6),
    (0, -8), (0, -6), (0, 6), (0, 8),
    (-6, -6), (-6, 0), (-6, 6),
    (-8, -8), (-8, 0), (-8, 8),
}  # fmt: skip
# Chess of Mass Destruction: manual lines 1595-1634. The Square 8 forward
# (line 1599) is drawn '^' where its mirror 8 back (line 1631) and the other
# range-8 ends (line 1615) are '*'; we read it as '*'.
QUEEN_MASS_PLUS = {
    (7, -1), (7, 1), (5, -1), (5, 1),
    (1, -7), (1, -5), (1, 5), (1, 7),
    (-1, -7), (-1, -5), (-1, 5), (-1, 7),
    (-5, -1), (-5, 1), (-7, -1), (-7, 1),
}  # fmt: skip
QUEEN_MASS_STAR = {
    (8, 0), (6, 0),
    (4, -2), (4, 2), (2, -4), (2, 4),
    (0, -8), (0, -6), (0, 6), (0, 8),
    (-2, -4), (-2, 4), (-4, -2), (-4, 2),
    (-6, 0), (-8, 0),
}  # fmt: skip

QUEEN_DIAGRAMS = {
    "weaponized": (QUEEN_WEAPONIZED_PLUS, QUEEN_WEAPONIZED_STAR),
    "standard_chess": (QUEEN_STANDARD_PLUS, QUEEN_STANDARD_STAR),
    "mass_destruction": (QUEEN_MASS_PLUS, QUEEN_MASS_STAR),
}
SECONDARY_TYPES = ("queen", "assassin", "acolyte", "prime_minister")


def _queen_paths(movement, tank_length, cleric_length):
    """(path, length) pairs: the Tank and Cleric paths of both hands."""
    out = []
    for hand in HANDS:
        out += [(p, tank_length) for p in TANK_PATHS[(movement, hand)]]
        out += [(p, cleric_length) for p in CLERIC_PATHS[(movement, hand)]]
    return out


@pytest.mark.parametrize("movement", MOVEMENTS)
def test_queen_diagram_is_tank_and_cleric_of_both_hands(movement):
    """Our reading of the Queen diagrams, checked against our transcription of
    the Tank and Cleric diagrams: the '+' Squares are the range-7 ends of the
    Tank and Cleric paths of both hands, the '*' Squares their range-6 and
    range-8 ends."""
    plus, star = QUEEN_DIAGRAMS[movement]
    ends = {n: set() for n in RANGES}
    for hand in HANDS:
        for n in RANGES:
            ends[n] |= _landing_offsets(TANK_PATHS[(movement, hand)], n)
            ends[n] |= _landing_offsets(CLERIC_PATHS[(movement, hand)], n)
    assert ends[7] == plus
    assert ends[6] | ends[8] == star


@pytest.mark.parametrize("cleric_length", RANGES)
@pytest.mark.parametrize("tank_length", RANGES)
@pytest.mark.parametrize("color", COLORS)
@pytest.mark.parametrize("movement", MOVEMENTS)
def test_queen(movement, color, tank_length, cleric_length):
    """The secondary government Piece lands at the end of any Tank path of
    range ``queen_tank_range`` or Cleric path of range ``queen_cleric_range``
    of either hand (the two ranges are independent, l. 1093-1094)."""
    pairs = _queen_paths(movement, tank_length, cleric_length)

    def expected(row, col):
        out = set()
        for path, n in pairs:
            out |= path_landings(color, row, col, (path,), n)
        return out

    options = {
        "movement": movement,
        "queen_tank_range": tank_length,
        "queen_cleric_range": cleric_length,
        # The Tank and Cleric ranges must not matter to the Queen.
        "tank_range": 6 if tank_length != 6 else 8,
        "cleric_range": 6 if cleric_length != 6 else 8,
    }
    problems = sweep(lambda row, col: piece("queen", color, row, col), expected, color, options)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("color", COLORS)
@pytest.mark.parametrize("movement", MOVEMENTS)
def test_queen_standard_game_lands_only_on_plus(movement, color):
    """With both Queen ranges at 7 (the standard game) every destination of a
    Queen is one of the diagram's '+' Squares, wherever it stands."""
    plus, _ = QUEEN_DIAGRAMS[movement]
    reached = set()
    for row, col in ALL_SQUARES:
        g = game([piece("queen", color, row, col)], color, {"movement": movement})
        got = move_targets(g, row, col, "ground")
        assert got <= squares_of(color, row, col, plus), (row, col)
        reached |= {to_offset(color, row, col, r, c) for r, c, _ in got}
    # Each '+' Square is reached from somewhere on the board.
    assert reached == plus


@pytest.mark.parametrize("movement", MOVEMENTS)
@pytest.mark.parametrize("color", COLORS)
def test_every_secondary_type_moves_alike(movement, color):
    """Queen, Assassin, Acolyte and Prime Minister Move alike (l. 257-258)."""
    for row, col in ALL_SQUARES[::7]:
        seen = set()
        for kind in SECONDARY_TYPES:
            g = game([piece(kind, color, row, col)], color, {"movement": movement})
            seen.add(frozenset(move_targets(g, row, col, "ground")))
        assert len(seen) == 1, (row, col, seen)


def test_colours_are_half_turns_of_each_other():
    """A White Piece on (11-r, 11-c) has Black's destinations turned half a
    circle, for every shape above (a quick cross-check of the colour helper)."""
    cases = [
        ("tank", "right", "weaponized"),
        ("cleric", "left", "mass_destruction"),
        ("chopper", "right", "mass_destruction"),
        ("queen", None, "weaponized"),
    ]
    for kind, hand, movement in cases:
        extra = {"hand": hand} if hand else {}
        for r, c in itertools.islice(ALL_SQUARES, 0, 100, 3):
            b = move_targets(
                game([piece(kind, "black", r, c, **extra)], "black", {"movement": movement}), r, c, "ground"
            )
            w = move_targets(
                game([piece(kind, "white", 11 - r, 11 - c, **extra)], "white", {"movement": movement}),
                11 - r,
                11 - c,
                "ground",
            )
            assert {(11 - x, 11 - y, lv) for x, y, lv in b} == w
