"""Behaviour of Moves beyond the diagrams: blocking, taking, stacking,
carrying, dozing, the Turn, the end of the game and illegal actions.

Manual: shared/seeds/001_e7d07cd680448a43.txt (cited by line). Squares are
(row, col); Black's forward is +row and its right +col, White's the opposite.
Offsets below are (forward, right) from the Moving Piece; ``at`` turns them
into board Squares for a colour.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.wec import (
    IllegalAction,
    apply,
    dump_scenario,
    legal_actions,
    load_scenario,
    move_targets,
    new_game,
    outcome,
)

COLORS = ("black", "white")
HANDS = ("left", "right")
MOVEMENTS = ("weaponized", "standard_chess", "mass_destruction")
ENEMY = {"black": "white", "white": "black"}
STEPS8 = tuple((f, r) for f in (-1, 0, 1) for r in (-1, 0, 1) if (f, r) != (0, 0))
# Every enemy in these tests is in plain sight.
VISIBLE = {"stealth_invisibility": False, "submersion_invisibility": False}
COEXISTING = ("sub", "chopper", "dozer", "destroyer", "aaa", "jet")

# The first path of each shape, from the manual's diagrams (forward-facing
# paths; step 7 is the standard landing). Lines: weaponized Tank 828-867,
# weaponized Cleric 928-1007, Standard Chess 1162-1256, Mass Destruction
# Tank 1397-1476, Mass Destruction Cleric 1483-1562.
FORWARD_PATH = {
    ("tank", "weaponized", "right"): ((1, 0), (2, 0), (3, 0), (4, 0), (5, 1), (6, 2), (7, 3)),
    ("tank", "weaponized", "left"): ((1, 0), (2, 0), (3, 0), (4, 0), (5, -1), (6, -2), (7, -3)),
    ("tank", "standard_chess", "right"): tuple((k, 0) for k in range(1, 8)),
    ("tank", "standard_chess", "left"): tuple((k, 0) for k in range(1, 8)),
    ("tank", "mass_destruction", "right"): ((1, 1), (2, 0), (3, -1), (4, 0), (5, 1), (6, 0), (7, -1)),
    ("tank", "mass_destruction", "left"): ((1, -1), (2, 0), (3, 1), (4, 0), (5, -1), (6, 0), (7, 1)),
    ("cleric", "weaponized", "right"): ((1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (4, 6), (3, 7)),
    ("cleric", "weaponized", "left"): ((1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 4), (7, 3)),
    ("cleric", "standard_chess", "right"): tuple((k, k) for k in range(1, 8)),
    ("cleric", "standard_chess", "left"): tuple((k, k) for k in range(1, 8)),
    ("cleric", "mass_destruction", "right"): ((1, 1), (2, 0), (3, -1), (3, -2), (3, -3), (2, -4), (1, -5)),
    ("cleric", "mass_destruction", "left"): ((1, -1), (2, 0), (3, 1), (3, 2), (3, 3), (2, 4), (1, 5)),
}


# --- helpers ---------------------------------------------------------------------------


def at(color: str, origin: tuple[int, int], forward: int, right: int) -> tuple[int, int]:
    sign = 1 if color == "black" else -1
    return origin[0] + sign * forward, origin[1] + sign * right


def mirror(square: tuple[int, int], color: str) -> tuple[int, int]:
    """A Square given from Black's side, turned half a circle for White."""
    return square if color == "black" else (11 - square[0], 11 - square[1])


def on_board(square) -> bool:
    return 1 <= square[0] <= 10 and 1 <= square[1] <= 10


def piece(kind: str, color: str, square: tuple[int, int], level: str = "ground", **extra) -> dict:
    d = {"type": kind, "color": color, "row": square[0], "col": square[1], "level": level, "articles": []}
    d.update(extra)
    return d


def game(pieces: list[dict], to_move: str = "black", options: dict | None = None):
    return load_scenario({"to_move": to_move, "options": dict(options or {}), "pieces": pieces})


def move(src, dst, src_level="ground", dst_level="ground", **extra) -> dict:
    a = {"type": "move", "from": [src[0], src[1], src_level], "to": [dst[0], dst[1], dst_level]}
    a.update(extra)
    return a


def targets(g, square, level="ground"):
    return move_targets(g, square[0], square[1], level)


def place(square, level="ground"):
    return (square[0], square[1], level)


def board(g) -> set[tuple]:
    """(type, color, row, col, level) of every Piece."""
    return {(p["type"], p["color"], p["row"], p["col"], p["level"]) for p in dump_scenario(g)["pieces"]}


def assert_illegal(g, action):
    before = dump_scenario(g)
    with pytest.raises(IllegalAction):
        apply(g, action)
    assert dump_scenario(g) == before


def pass_turn(g):
    """End the Turn, let the other side make a harmless Move with the piece
    at its first legal action, end that Turn too."""
    g = apply(g, {"type": "end_turn"})
    actions = [a for a in legal_actions(g) if a["type"] == "move"]
    if actions:
        g = apply(g, actions[0])
    return apply(g, {"type": "end_turn"})


def start_for(color, path):
    """A Square, as near the middle as possible, from which the whole path is
    on the board for ``color``."""
    squares = sorted(
        ((r, c) for r in range(1, 11) for c in range(1, 11)),
        key=lambda s: (abs(s[0] - 5.5) + abs(s[1] - 5.5), s),
    )
    for s in squares:
        if all(on_board(at(color, s, f, r)) for f, r in path):
            return s
    raise AssertionError("no room for the path")


PATH_CASES = sorted(FORWARD_PATH)


# --- no Piece Moves through another at its level (l. 1013-1014) -----------------------


@pytest.mark.parametrize("blocker_color", ("friend", "enemy"))
@pytest.mark.parametrize("color", COLORS)
@pytest.mark.parametrize("case", PATH_CASES, ids=["-".join(c) for c in PATH_CASES])
def test_a_piece_on_the_path_at_step_three_removes_that_landing(case, color, blocker_color):
    kind, movement, hand = case
    path = FORWARD_PATH[case]
    start = start_for(color, path)
    landing = at(color, start, *path[-1])
    step3 = at(color, start, *path[2])
    mover = piece(kind, color, start, hand=hand)
    opts = {"movement": movement, **VISIBLE}
    assert place(landing) in targets(game([mover], color, opts), start)
    bcolor = color if blocker_color == "friend" else ENEMY[color]
    g = game([mover, piece("rocket_pawn", bcolor, step3)], color, opts)
    assert place(landing) not in targets(g, start)
    assert_illegal(g, move(start, landing))


@pytest.mark.parametrize("level", ("air", "sub"))
@pytest.mark.parametrize("color", COLORS)
@pytest.mark.parametrize("case", PATH_CASES, ids=["-".join(c) for c in PATH_CASES])
def test_a_piece_at_another_level_does_not_block(case, color, level):
    kind, movement, hand = case
    path = FORWARD_PATH[case]
    start = start_for(color, path)
    landing = at(color, start, *path[-1])
    other_kind = "jet" if level == "air" else "sub"
    pieces = [piece(kind, color, start, hand=hand)]
    for i, (f, r) in enumerate(path[:-1]):
        # Friends and enemies above or below every Square passed over.
        pieces.append(piece(other_kind, color if i % 2 else ENEMY[color], at(color, start, f, r), level))
    g = game(pieces, color, {"movement": movement, **VISIBLE})
    assert place(landing) in targets(g, start)
    after = apply(g, move(start, landing))
    assert (kind, color, *landing, "ground") in board(after)
    assert len(board(after)) == len(pieces)


@pytest.mark.parametrize("color", COLORS)
def test_queen_plus_square_is_open_while_either_crossing_path_is(color):
    """A weaponized '+' Square is where a Tank path and a Cleric path cross
    (l. 1049-1050): the Queen gets there while either is open."""
    tank_path = FORWARD_PATH[("tank", "weaponized", "right")]
    cleric_path = FORWARD_PATH[("cleric", "weaponized", "left")]
    assert tank_path[-1] == cleric_path[-1] == (7, 3)
    start = mirror((2, 3), color)
    landing = at(color, start, 7, 3)
    on_tank = at(color, start, *tank_path[1])
    on_cleric = at(color, start, *cleric_path[1])
    queen = piece("queen", color, start)
    for blocked, reachable in (
        ((), True),
        ((on_tank,), True),
        ((on_cleric,), True),
        ((on_tank, on_cleric), False),
    ):
        g = game([queen] + [piece("rocket_pawn", color, s) for s in blocked], color)
        assert (place(landing) in targets(g, start)) is reachable, blocked


@pytest.mark.parametrize("color", COLORS)
def test_chopper_flies_over_ground_pieces_but_not_through_air_pieces(color):
    start = mirror((5, 5), color)
    dest = at(color, start, 2, 2)  # an X of the weaponized right Chopper (l. 1024)
    chopper = piece("chopper", color, start, hand="right")
    ground_crowd = [piece("rocket_pawn", color, at(color, start, f, r)) for f, r in STEPS8]
    g = game([chopper] + ground_crowd, color)
    assert {place(dest), place(dest, "air")} <= targets(g, start)
    middle = at(color, start, 1, 1)  # the only Square between, diagonally
    g = game([chopper, piece("jet", ENEMY[color], middle, "air")], color, VISIBLE)
    assert not {place(dest), place(dest, "air")} & targets(g, start)


@pytest.mark.parametrize("color", COLORS)
def test_jet_does_not_fly_through_a_piece(color):
    start = mirror((5, 5), color)
    one, two = at(color, start, 1, 0), at(color, start, 2, 0)
    jet = piece("jet", color, start, "air")
    g = game([jet, piece("jet", ENEMY[color], one, "air")], color, VISIBLE)
    t = targets(g, start, "air")
    assert place(one, "air") not in t and place(two, "air") not in t
    # A friendly Jet there may be joined (Jets coexist) but not flown through.
    g = game([jet, piece("jet", color, one, "air")], color)
    t = targets(g, start, "air")
    assert place(one, "air") in t and place(two, "air") not in t
    # Ground Pieces under the flight do not matter.
    g = game([jet, piece("rocket_pawn", color, one), piece("rocket_pawn", ENEMY[color], two)], color)
    assert {place(one, "air"), place(two, "air")} <= targets(g, start, "air")


# --- taking by Moving ------------------------------------------------------------------


@pytest.mark.parametrize("color", COLORS)
@pytest.mark.parametrize("kind", ("tank", "cleric", "queen"))
def test_a_move_takes_every_enemy_at_the_landing_level(kind, color):
    hand = {"queen": None}.get(kind, "right")
    path = FORWARD_PATH[("tank" if kind == "queen" else kind, "standard_chess", "right")]
    start = start_for(color, path)
    landing = at(color, start, *path[-1])
    enemy = ENEMY[color]
    extra = {"hand": hand} if hand else {}
    g = game(
        [
            piece(kind, color, start, **extra),
            piece("dozer", enemy, landing),
            piece("rocket_pawn", enemy, landing),
            piece("jet", enemy, landing, "air"),
            piece("sub", enemy, landing, "sub"),
        ],
        color,
        {"movement": "standard_chess", **VISIBLE},
    )
    after = apply(g, move(start, landing))
    assert board(after) == {
        (kind, color, *landing, "ground"),
        ("jet", enemy, *landing, "air"),
        ("sub", enemy, *landing, "sub"),
    }


@pytest.mark.parametrize("color", COLORS)
def test_king_takes_one_square_away(color):
    start = mirror((5, 5), color)
    for f, r in STEPS8:
        dest = at(color, start, f, r)
        g = game(
            [
                piece("king", color, start),
                piece("destroyer", ENEMY[color], dest),
                piece("rocket_pawn", ENEMY[color], dest),
            ],
            color,
            VISIBLE,
        )
        after = apply(g, move(start, dest))
        assert board(after) == {("king", color, *dest, "ground")}


@pytest.mark.parametrize("color", COLORS)
def test_pawn_attack_takes_both_enemies_on_the_square(color):
    start = mirror((4, 5), color)
    dest = at(color, start, 1, 0)  # the weaponized Pawn's forward attack Square
    g = game(
        [
            piece("flamer_pawn", color, start, moved=True),
            piece("dozer", ENEMY[color], dest),
            piece("stunner_pawn", ENEMY[color], dest),
        ],
        color,
    )
    after = apply(g, move(start, dest))
    assert board(after) == {("flamer_pawn", color, *dest, "ground")}


@pytest.mark.parametrize("level", ("ground", "air"))
@pytest.mark.parametrize("color", COLORS)
def test_chopper_takes_where_it_lands(color, level):
    """A Chopper takes enemy Pieces when it Moves (l. 511-512)."""
    start = mirror((5, 5), color)
    dest = at(color, start, 2, 2)
    enemy = ENEMY[color]
    victims = (
        [piece("jet", enemy, dest, "air"), piece("chopper", enemy, dest, "air", hand="left")]
        if level == "air"
        else [piece("tank", enemy, dest, hand="left")]
    )
    g = game([piece("chopper", color, start, hand="right")] + victims, color, VISIBLE)
    assert place(dest, level) in targets(g, start)
    after = apply(g, move(start, dest, dst_level=level))
    assert board(after) == {("chopper", color, *dest, level)}


# --- non-combat Pieces (l. 795-806) -------------------------------------------------------

NON_COMBAT = [
    # (id, mover kind, mover level, enemy offset, enemy level, enemy kind)
    ("dozer", "dozer", "ground", (1, 0), "ground", "rocket_pawn"),
    ("destroyer", "destroyer", "ground", (1, 1), "ground", "rocket_pawn"),
    ("aaa", "aaa", "ground", (0, -1), "ground", "rocket_pawn"),
    ("sub-ground", "sub", "ground", (-1, 0), "ground", "rocket_pawn"),
    ("sub-below", "sub", "sub", (1, -1), "sub", "sub"),
    ("sub-surfacing", "sub", "sub", (0, 0), "ground", "rocket_pawn"),
    ("sub-diving", "sub", "ground", (0, 0), "sub", "sub"),
    ("jet-one-square", "jet", "air", (1, 0), "air", "jet"),
    ("jet-two-squares", "jet", "air", (-2, 2), "air", "jet"),
    ("jet-landing", "jet", "air", (0, 0), "ground", "rocket_pawn"),
    ("jet-taking-off", "jet", "ground", (0, 0), "air", "jet"),
]


@pytest.mark.parametrize("color", COLORS)
@pytest.mark.parametrize("case", NON_COMBAT, ids=[c[0] for c in NON_COMBAT])
def test_non_combat_pieces_cannot_land_on_enemies(case, color):
    _, kind, level, (f, r), elevel, ekind = case
    start = mirror((5, 5), color)
    dest = at(color, start, f, r)
    extra = {"hand": "left"} if ekind == "chopper" else {}
    g = game(
        [piece(kind, color, start, level), piece(ekind, ENEMY[color], dest, elevel, **extra)], color, VISIBLE
    )
    assert place(dest, elevel) not in targets(g, start, level)
    assert_illegal(g, move(start, dest, level, elevel))


# --- at most two Pieces per level, two only with a coexisting type (l. 183-195) -----


@pytest.mark.parametrize("partner", ("tank", "cleric", "queen", "rocket_pawn", "king"))
def test_two_pieces_without_coexistence_cannot_share_a_level(partner):
    extra = {"hand": "left"} if partner in ("tank", "cleric") else {}
    g = game([piece("king", "black", (5, 5)), piece(partner, "black", (6, 5), **extra)])
    assert place((6, 5)) not in targets(g, (5, 5))
    assert_illegal(g, move((5, 5), (6, 5)))


@pytest.mark.parametrize("partner", COEXISTING)
def test_a_coexisting_partner_lets_a_second_piece_join(partner):
    extra = {"hand": "left"} if partner == "chopper" else {}
    g = game([piece("king", "black", (5, 5)), piece(partner, "black", (6, 5), **extra)])
    assert place((6, 5)) in targets(g, (5, 5))
    after = apply(g, move((5, 5), (6, 5)))
    assert board(after) == {("king", "black", 6, 5, "ground"), (partner, "black", 6, 5, "ground")}


JOINING = [
    # (mover, its level, its Square, destination place) - the destination's
    # ground holds one friendly Pawn, which has no coexistence ability.
    ("dozer", "ground", (5, 5), (6, 5, "ground")),
    ("destroyer", "ground", (5, 5), (6, 6, "ground")),
    ("aaa", "ground", (5, 5), (4, 5, "ground")),
    ("sub", "ground", (5, 5), (5, 4, "ground")),
    ("chopper", "ground", (5, 5), (7, 6, "ground")),  # weaponized right Chopper X (2, 1)
    ("jet", "air", (5, 5), (5, 5, "ground")),  # landing in place
]


@pytest.mark.parametrize("case", JOINING, ids=[c[0] for c in JOINING])
def test_a_coexisting_mover_may_join_a_single_friend(case):
    """Only one of the two needs the ability (l. 191-192)."""
    kind, level, src, dst = case
    extra = {"hand": "right"} if kind == "chopper" else {}
    g = game([piece(kind, "black", src, level, **extra), piece("rocket_pawn", "black", dst[:2])])
    assert dst in targets(g, src, level)
    after = apply(g, move(src, dst[:2], level, dst[2]))
    assert board(after) == {(kind, "black", *dst), ("rocket_pawn", "black", *dst)}


@pytest.mark.parametrize("mover", ("king", "dozer", "destroyer"))
def test_no_third_piece_at_a_level(mover):
    g = game([piece(mover, "black", (5, 5)), piece("dozer", "black", (6, 5)), piece("aaa", "black", (6, 5))])
    assert place((6, 5)) not in targets(g, (5, 5))
    assert_illegal(g, move((5, 5), (6, 5)))


def test_a_carrier_with_passenger_cannot_land_beside_a_friend():
    """Chopper plus passenger onto a Square holding a friend would make three."""
    g = game(
        [
            piece("chopper", "black", (5, 5), hand="right"),
            piece("jet", "black", (5, 5)),
            piece("rocket_pawn", "black", (7, 7)),
        ]
    )
    assert_illegal(g, move((5, 5), (7, 7), carry=True))
    # Without the passenger the Chopper may join the Pawn.
    assert board(apply(g, move((5, 5), (7, 7)))) == {
        ("chopper", "black", 7, 7, "ground"),
        ("jet", "black", 5, 5, "ground"),
        ("rocket_pawn", "black", 7, 7, "ground"),
    }


def test_the_board_editor_refuses_overfull_levels():
    with pytest.raises(ValueError):
        game([piece("dozer", "black", (5, 5)), piece("aaa", "black", (5, 5)), piece("sub", "black", (5, 5))])
    with pytest.raises(ValueError):
        game([piece("king", "black", (5, 5)), piece("rocket_pawn", "black", (5, 5))])
    # Two with one coexisting type are fine.
    game([piece("king", "black", (5, 5)), piece("aaa", "black", (5, 5))])


# --- the Pawn's first Move (l. 84-91, 1123-1131) ---------------------------------------


@pytest.mark.parametrize("blocker", ("friend", "enemy", "friend-in-air"))
@pytest.mark.parametrize("side", (-1, 1))
@pytest.mark.parametrize("color", COLORS)
def test_weaponized_pawn_double_step_blocked_by_the_diagonal_square_between(color, side, blocker):
    start = mirror((2, 5), color)
    between = at(color, start, 1, side)
    far = at(color, start, 2, 2 * side)
    other_far = at(color, start, 2, -2 * side)
    if blocker == "friend-in-air":
        b = piece("jet", color, between, "air")
    else:
        b = piece("dozer", color if blocker == "friend" else ENEMY[color], between)
    g = game([piece("rocket_pawn", color, start), b], color, VISIBLE)
    t = targets(g, start)
    assert place(other_far) in t
    assert (place(far) in t) is (blocker == "friend-in-air")


@pytest.mark.parametrize("color", COLORS)
def test_standard_chess_pawn_double_step_blocked_by_the_square_between(color):
    start = mirror((2, 5), color)
    between, far = at(color, start, 1, 0), at(color, start, 2, 0)
    g = game([piece("rocket_pawn", color, start)], color, {"movement": "standard_chess"})
    assert {place(between), place(far)} <= targets(g, start)
    g = game(
        [piece("rocket_pawn", color, start), piece("destroyer", color, between)],
        color,
        {"movement": "standard_chess"},
    )
    assert place(far) not in targets(g, start)


@pytest.mark.parametrize(
    "movement, first, later",
    [
        ("weaponized", (1, 1), {(1, -1), (1, 1)}),
        ("weaponized", (2, -2), {(1, -1), (1, 1)}),
        ("standard_chess", (1, 0), {(1, 0)}),
        ("standard_chess", (2, 0), {(1, 0)}),
    ],
)
@pytest.mark.parametrize("color", COLORS)
def test_a_pawn_that_has_moved_loses_the_double_step(color, movement, first, later):
    """After leaving its origin Square a Pawn has only its ordinary Moves
    (l. 89-91; the standard-chess diagram of later Moves, l. 1132-1140)."""
    start = mirror((2, 5), color)
    now = at(color, start, *first)
    pieces = [
        piece("rocket_pawn", color, start),
        piece("king", "black", (1, 10) if color == "black" else (1, 1)),
        piece("king", "white", (10, 1) if color == "black" else (10, 10)),
    ]
    g = game(pieces, color, {"movement": movement})
    g = apply(g, move(start, now))
    g = pass_turn(g)
    assert targets(g, now) == {place(at(color, now, f, r)) for f, r in later}


# --- Sub (l. 798-800) --------------------------------------------------------------------


@pytest.mark.parametrize("color", COLORS)
def test_sub_dives_moves_below_and_surfaces(color):
    start = mirror((5, 5), color)
    g = game([piece("sub", color, start)], color, VISIBLE)
    g = apply(g, move(start, start, "ground", "sub"))
    assert board(g) == {("sub", color, *start, "sub")}
    g = pass_turn(g)
    step = at(color, start, 1, 1)
    assert targets(g, start, "sub") == {place(at(color, start, f, r), "sub") for f, r in STEPS8} | {
        place(start)
    }
    g = apply(g, move(start, step, "sub", "sub"))
    assert board(g) == {("sub", color, *step, "sub")}
    g = pass_turn(g)
    g = apply(g, move(step, step, "sub", "ground"))
    assert board(g) == {("sub", color, *step, "ground")}


@pytest.mark.parametrize("color", COLORS)
def test_sub_carries_its_companion_only_when_asked(color):
    """The Sub transports the other Piece of its Square and level (l. 196)."""
    start = mirror((5, 5), color)
    pieces = [piece("sub", color, start), piece("rocket_pawn", color, start)]
    g = game(pieces, color)
    alone = apply(g, move(start, start, "ground", "sub"))
    assert board(alone) == {("sub", color, *start, "sub"), ("rocket_pawn", color, *start, "ground")}
    both = apply(g, move(start, start, "ground", "sub", carry=True))
    assert board(both) == {("sub", color, *start, "sub"), ("rocket_pawn", color, *start, "sub")}
    both = pass_turn(both)
    step = at(color, start, 1, 0)
    both = apply(both, move(start, step, "sub", "sub", carry=True))
    assert board(both) == {("sub", color, *step, "sub"), ("rocket_pawn", color, *step, "sub")}


# --- Jet (l. 801-806) ---------------------------------------------------------------------


@pytest.mark.parametrize("color", COLORS)
def test_jet_takes_off_flies_and_lands(color):
    start = mirror((5, 5), color)
    g = game([piece("jet", color, start)], color)
    assert targets(g, start) == {place(start, "air")}
    g = apply(g, move(start, start, "ground", "air"))
    assert board(g) == {("jet", color, *start, "air")}
    g = pass_turn(g)
    far = at(color, start, 2, -2)
    g = apply(g, move(start, far, "air", "air"))
    assert board(g) == {("jet", color, *far, "air")}
    g = pass_turn(g)
    assert_illegal(g, move(far, at(color, far, 1, 0), "air", "ground"))
    assert_illegal(g, move(far, at(color, far, 3, 0), "air", "air"))
    assert_illegal(g, move(far, at(color, far, 2, 1), "air", "air"))
    g = apply(g, move(far, far, "air", "ground"))
    assert board(g) == {("jet", color, *far, "ground")}


# --- Chopper (l. 196-200, 383-385, 1046-1048) ------------------------------------------


@pytest.mark.parametrize("level", ("ground", "air"))
@pytest.mark.parametrize("color", COLORS)
def test_chopper_carries_the_other_friendly_piece_when_asked(color, level):
    start = mirror((5, 5), color)
    dest = at(color, start, 2, 2)  # weaponized right Chopper X (l. 1024)
    g = game([piece("chopper", color, start, hand="right"), piece("jet", color, start)], color)
    offered = {
        (tuple(a["to"]), a.get("carry", False))
        for a in legal_actions(g)
        if a["type"] == "move" and a["from"] == [*start, "ground"] and "doze" not in a
    }
    assert {((*dest, level), False), ((*dest, level), True)} <= offered
    alone = apply(g, move(start, dest, dst_level=level))
    assert board(alone) == {("chopper", color, *dest, level), ("jet", color, *start, "ground")}
    both = apply(g, move(start, dest, dst_level=level, carry=True))
    assert board(both) == {("chopper", color, *dest, level), ("jet", color, *dest, level)}


@pytest.mark.parametrize("color", COLORS)
def test_an_airborne_chopper_must_land_next_turn(color):
    start = mirror((5, 5), color)
    dest = at(color, start, 2, 2)
    king = mirror((1, 1), color)
    g = game(
        [
            piece("chopper", color, start, hand="right"),
            piece("king", color, king),
            piece("king", ENEMY[color], mirror((10, 10), color)),
        ],
        color,
    )
    g = apply(g, move(start, dest, dst_level="air"))
    g = pass_turn(g)
    moves = [a for a in legal_actions(g) if a["type"] == "move"]
    assert moves
    assert all(a["from"] == [*dest, "air"] and a["to"][2] == "ground" for a in moves)
    assert targets(g, king) == set()
    assert_illegal(g, move(king, at(color, king, 1, 0)))
    landing = at(color, dest, -2, -2)
    g = apply(g, move(dest, landing, "air", "ground"))
    assert ("chopper", color, *landing, "ground") in board(g)


def test_a_chopper_that_cannot_land_does_not_hold_up_the_turn():
    # A right Chopper in the air over (1, 1) has two X Squares on the board,
    # (3, 2) and (3, 3), each already holding two friendly Pieces.
    pieces = [piece("chopper", "black", (1, 1), "air", hand="right"), piece("king", "black", (1, 5))]
    for sq in ((3, 2), (3, 3)):
        pieces += [piece("dozer", "black", sq), piece("rocket_pawn", "black", sq, moved=True)]
    g = game(pieces)
    assert targets(g, (1, 1), "air") == set()
    assert place((2, 5)) in targets(g, (1, 5))


# --- Dozer (l. 201-205, 1095-1106) --------------------------------------------------------

ALL_DIRECTIONS = STEPS8


def expected_dozings(g, dozer_sq, doze_enemies=True):
    """Our own reading: (dozer landing, frozenset of dozed neighbour Squares)."""
    doc = dump_scenario(g)
    ground: dict[tuple[int, int], list[dict]] = {}
    for p in doc["pieces"]:
        if p["level"] == "ground":
            ground.setdefault((p["row"], p["col"]), []).append(p)
    dozer = next(p for p in ground[dozer_sq] if p["type"] == "dozer")
    if not any(p is not dozer and p["color"] == dozer["color"] for p in ground[dozer_sq]):
        return set()
    dozer_color = dozer["color"]
    groups = []
    for dr, dc in ALL_DIRECTIONS:
        s = (dozer_sq[0] + dr, dozer_sq[1] + dc)
        if s in ground:
            if not doze_enemies and any(p["color"] != dozer_color for p in ground[s]):
                continue
            groups.append(s)
    out = set()
    for n in range(len(groups) + 1):
        for combo in combinations(groups, n):
            if sum(len(ground[s]) for s in combo) > 4:
                continue
            moving = {dozer_sq, *combo}
            for dr, dc in ALL_DIRECTIONS:
                dests = [(s[0] + dr, s[1] + dc) for s in moving]
                if all(on_board(d) and (d in moving or d not in ground) for d in dests):
                    out.add(((dozer_sq[0] + dr, dozer_sq[1] + dc), frozenset(combo)))
    return out


def offered_dozings(g, dozer_sq):
    return {
        (tuple(a["to"][:2]), frozenset(tuple(s) for s in a["doze"]))
        for a in legal_actions(g)
        if a["type"] == "move" and "doze" in a and tuple(a["from"][:2]) == dozer_sq
    }


def test_a_dozer_alone_cannot_doze():
    g = game([piece("dozer", "black", (5, 5)), piece("rocket_pawn", "black", (6, 5))])
    assert offered_dozings(g, (5, 5)) == set()
    assert_illegal(g, move((5, 5), (4, 5), doze=[[6, 5]]))
    assert_illegal(g, move((5, 5), (4, 5), doze=[]))


def test_a_dozer_with_a_friend_dozes_in_all_eight_directions():
    g = game([piece("dozer", "black", (5, 5)), piece("rocket_pawn", "black", (5, 5))])
    assert offered_dozings(g, (5, 5)) == {((5 + dr, 5 + dc), frozenset()) for dr, dc in ALL_DIRECTIONS}
    after = apply(g, move((5, 5), (6, 4), doze=[]))
    assert board(after) == {("dozer", "black", 6, 4, "ground"), ("rocket_pawn", "black", 6, 4, "ground")}
    # The plain one-Square Move, leaving the friend behind, is still there.
    after = apply(g, move((5, 5), (4, 5)))
    assert board(after) == {("dozer", "black", 4, 5, "ground"), ("rocket_pawn", "black", 5, 5, "ground")}


CROWD = [
    piece("dozer", "black", (5, 5)),
    piece("sub", "black", (5, 5)),
    piece("rocket_pawn", "black", (6, 5)),  # 1 piece
    piece("flamer_pawn", "white", (5, 6)),  # 1 enemy piece
    piece("destroyer", "black", (4, 4)),
    piece("aaa", "black", (4, 4)),  # 2 pieces
    piece("dozer", "white", (6, 6)),
    piece("stunner_pawn", "white", (6, 6)),  # 2 enemy pieces
    piece("tank", "black", (7, 5), hand="left"),  # not a neighbour: blocks
    piece("jet", "black", (4, 5), "air"),  # air only: not dozed, never blocks
    piece("king", "white", (10, 10)),
]


@pytest.mark.parametrize("doze_enemies", (True, False))
def test_every_combination_and_open_direction_is_offered(doze_enemies):
    g = game(CROWD, "black", {"doze_enemies": doze_enemies, **VISIBLE})
    want = expected_dozings(g, (5, 5), doze_enemies)
    assert want  # the setup has open dozings
    assert any(len(c) == 3 for _, c in want) or not doze_enemies
    # Never more than four dozed Pieces: (4,4)+(6,6) is 4, adding more is 5+.
    assert ((5, 4), frozenset({(4, 4), (6, 6), (6, 5)})) not in want
    assert offered_dozings(g, (5, 5)) == want


def test_dozing_moves_everything_chosen_one_square():
    g = game(CROWD, "black", VISIBLE)
    # Backward (row -1) with the two-piece friend Square and the enemy Pawn.
    after = apply(g, move((5, 5), (4, 5), doze=[[4, 4], [5, 6]]))
    assert board(after) == {
        ("dozer", "black", 4, 5, "ground"),
        ("sub", "black", 4, 5, "ground"),
        ("rocket_pawn", "black", 6, 5, "ground"),
        ("flamer_pawn", "white", 4, 6, "ground"),
        ("destroyer", "black", 3, 4, "ground"),
        ("aaa", "black", 3, 4, "ground"),
        ("dozer", "white", 6, 6, "ground"),
        ("stunner_pawn", "white", 6, 6, "ground"),
        ("tank", "black", 7, 5, "ground"),
        ("jet", "black", 4, 5, "air"),
        ("king", "white", 10, 10, "ground"),
    }


def test_blocked_directions_are_not_offered():
    g = game(CROWD, "black", VISIBLE)
    offered = offered_dozings(g, (5, 5))
    # Forward without (6, 5) would run into it.
    assert ((6, 5), frozenset()) not in offered
    assert_illegal(g, move((5, 5), (6, 5), doze=[]))
    # Forward with (6, 5) pushes it onto the Tank at (7, 5): blocked as well.
    assert ((6, 5), frozenset({(6, 5)})) not in offered
    # Left (col -1) is open when nothing else comes along.
    assert ((5, 4), frozenset()) in offered


def test_dozing_at_the_edge_never_leaves_the_board():
    g = game(
        [
            piece("dozer", "black", (1, 1)),
            piece("rocket_pawn", "black", (1, 1)),
            piece("rocket_pawn", "black", (1, 2)),
        ]
    )
    offered = offered_dozings(g, (1, 1))
    assert offered == {
        ((2, 1), frozenset()),
        ((2, 2), frozenset()),
        ((2, 1), frozenset({(1, 2)})),
        ((2, 2), frozenset({(1, 2)})),
        ((1, 2), frozenset({(1, 2)})),
    }


def test_without_doze_enemies_enemy_squares_are_never_chosen():
    g = game(CROWD, "black", {"doze_enemies": False, **VISIBLE})
    for _, combo in offered_dozings(g, (5, 5)):
        assert not combo & {(5, 6), (6, 6)}
    assert_illegal(g, move((5, 5), (4, 5), doze=[[5, 6]]))


# --- the Turn (l. 57, 558) --------------------------------------------------------------


def kings_game(to_move="black"):
    return game(
        [
            piece("king", "black", (1, 5)),
            piece("tank", "black", (1, 1), hand="right"),
            piece("king", "white", (10, 6)),
            piece("tank", "white", (10, 10), hand="right"),
        ],
        to_move,
    )


def test_a_turn_is_one_move_then_end_turn_then_the_other_side():
    g = kings_game()
    actions = legal_actions(g)
    assert {"type": "end_turn"} not in actions
    # Besides Moves only Fires are open here (the Tank's Flamer): no Articles lie about.
    assert actions and {a["type"] for a in actions} == {"move", "fire"}
    assert_illegal(g, {"type": "end_turn"})
    g = apply(g, move((1, 5), (2, 5)))
    assert [a for a in legal_actions(g) if a["type"] != "fire"] == [{"type": "end_turn"}]
    assert move_targets(g, 2, 5, "ground") == set()
    assert_illegal(g, move((2, 5), (3, 5)))
    assert_illegal(g, move((1, 1), (8, 4)))
    g = apply(g, {"type": "end_turn"})
    assert dump_scenario(g)["to_move"] == "white"
    actions = [a for a in legal_actions(g) if a["type"] == "move"]
    assert actions
    whites = {(10, 6), (10, 10)}
    assert {tuple(a["from"][:2]) for a in actions} <= whites
    assert_illegal(g, move((2, 5), (3, 5)))
    assert_illegal(g, {"type": "end_turn"})
    g = apply(g, move((10, 6), (9, 6)))
    g = apply(g, {"type": "end_turn"})
    assert dump_scenario(g)["to_move"] == "black"


# --- the end of the game (l. 19-20, 250-254, 556-557) ------------------------------------


@pytest.mark.parametrize("color", COLORS)
@pytest.mark.parametrize("primary", ("king", "dictator", "avatar", "president"))
def test_taking_the_primary_government_piece_ends_the_game(color, primary):
    enemy = ENEMY[color]
    start = mirror((2, 5), color)
    target = at(color, start, 7, 0)  # Standard Chess Tank, range 7
    g = game(
        [
            piece("tank", color, start, hand="right"),
            piece(primary, enemy, target),
            piece("king", color, mirror((1, 1), color)),
        ],
        color,
        {"movement": "standard_chess"},
    )
    assert outcome(g) is None
    g = apply(g, move(start, target))
    # Only the Turn's end is left; the result is fixed then (l. 48-49,
    # 1745-1747; docs/rulings.md, "The end of the game").
    assert outcome(g) is None
    assert legal_actions(g) == [{"type": "end_turn"}]
    assert move_targets(g, *mirror((1, 1), color), "ground") == set()
    g = apply(g, {"type": "end_turn"})
    assert outcome(g) is not None and outcome(g)["winner"] == color
    assert legal_actions(g) == []
    assert move_targets(g, *mirror((1, 1), color), "ground") == set()
    assert_illegal(g, {"type": "end_turn"})
    assert_illegal(g, move(mirror((1, 1), color), at(color, mirror((1, 1), color), 1, 0)))


def test_taking_other_pieces_does_not_end_the_game():
    g = game(
        [
            piece("tank", "black", (2, 5), hand="right"),
            piece("queen", "white", (9, 5)),
            piece("king", "white", (10, 10)),
            piece("king", "black", (1, 1)),
        ],
        "black",
        {"movement": "standard_chess"},
    )
    g = apply(g, move((2, 5), (9, 5)))
    assert outcome(g) is None
    assert {"type": "end_turn"} in legal_actions(g)
    assert not [a for a in legal_actions(g) if a["type"] == "move"]


def test_a_pawn_attack_on_the_king_ends_the_game():
    g = game(
        [
            piece("rocket_pawn", "white", (6, 5), moved=True),
            piece("king", "black", (6, 4)),
            piece("king", "white", (10, 10)),
        ],
        "white",
    )
    g = apply(apply(g, move((6, 5), (6, 4))), {"type": "end_turn"})
    assert outcome(g)["winner"] == "white"
    assert legal_actions(g) == []


# --- illegal actions ------------------------------------------------------------------------

BAD_ACTIONS = [
    ("not-a-target", move((1, 1), (5, 5))),
    ("empty-square", move((4, 4), (5, 4))),
    ("enemy-piece", move((10, 6), (9, 6))),
    ("wrong-level", move((1, 5), (2, 5), "air", "air")),
    ("to-other-level", move((1, 5), (2, 5), "ground", "air")),
    ("off-board", move((1, 5), (0, 5))),
    ("bad-place", {"type": "move", "from": [1, 5], "to": [2, 5, "ground"]}),
    ("bad-level-name", move((1, 5), (2, 5), "ground", "space")),
    ("carry-nothing", move((1, 5), (2, 5), carry=True)),
    ("doze-without-dozer", move((1, 5), (2, 5), doze=[])),
    ("unknown-type", {"type": "castle"}),
    ("no-type", {"from": [1, 5, "ground"]}),
    ("end-turn-first", {"type": "end_turn"}),
    ("not-a-dict", ["move"]),
]


@pytest.mark.parametrize("action", [a for _, a in BAD_ACTIONS], ids=[n for n, _ in BAD_ACTIONS])
def test_illegal_actions_raise_and_change_nothing(action):
    g = kings_game()
    assert_illegal(g, action)
    # The game still plays normally afterwards.
    assert apply(g, move((1, 5), (2, 5)))


def test_an_illegal_second_move_changes_nothing():
    g = apply(kings_game(), move((1, 5), (2, 5)))
    assert_illegal(g, move((1, 1), (8, 4)))
    assert_illegal(g, move((2, 5), (1, 5)))


# --- options ---------------------------------------------------------------------------------


@pytest.mark.parametrize("forbid", (False, True))
def test_forbid_king_flying_sub_keeps_kings_out_of_choppers(forbid):
    g = game(
        [piece("chopper", "black", (5, 5), hand="right"), piece("king", "black", (5, 5))],
        "black",
        {"forbid_king_flying_sub": forbid},
    )
    carries = [a for a in legal_actions(g) if a.get("carry")]
    assert bool(carries) is (not forbid)
    action = move((5, 5), (7, 7), dst_level="air", carry=True)
    if forbid:
        assert_illegal(g, action)
        # The Chopper still flies, without the King.
        assert place((7, 7), "air") in targets(g, (5, 5))
    else:
        assert board(apply(g, action)) == {("chopper", "black", 7, 7, "air"), ("king", "black", 7, 7, "air")}


@pytest.mark.parametrize("forbid", (False, True))
def test_forbid_king_flying_sub_keeps_kings_from_diving(forbid):
    g = game(
        [piece("sub", "black", (5, 5)), piece("king", "black", (5, 5))],
        "black",
        {"forbid_king_flying_sub": forbid},
    )
    action = move((5, 5), (5, 5), "ground", "sub", carry=True)
    if forbid:
        assert_illegal(g, action)
    else:
        assert board(apply(g, action)) == {("sub", "black", 5, 5, "sub"), ("king", "black", 5, 5, "sub")}


@pytest.mark.parametrize(
    "options",
    [
        {"sub_jet_combat": True},
        {"sub_jet_combat": True, "movement": "weaponized", "action_restriction": "move_only"},
        {"sub_jet_combat": True, "movement": "standard_chess"},
        {
            "sub_jet_combat": True,
            "movement": "mass_destruction",
            "action_restriction": "one_action_per_piece",
        },
    ],
)
def test_sub_jet_combat_needs_move_only_and_a_chess_movement(options):
    with pytest.raises(ValueError):
        game([piece("king", "black", (1, 1))], "black", options)


COMBAT_CASES = [
    # (id, mover kind, mover level, enemy offset, enemy level, enemy kind, takes)
    ("sub-ground", "sub", "ground", (1, 0), "ground", "rocket_pawn", True),
    ("sub-below", "sub", "sub", (1, 1), "sub", "sub", True),
    ("sub-surfacing", "sub", "sub", (0, 0), "ground", "rocket_pawn", True),
    ("sub-diving", "sub", "ground", (0, 0), "sub", "sub", True),
    ("jet-one-square", "jet", "air", (1, 0), "air", "jet", True),
    ("jet-landing", "jet", "air", (0, 0), "ground", "rocket_pawn", True),
    ("jet-taking-off", "jet", "ground", (0, 0), "air", "jet", True),
    # The second Square of a flight is never combat (l. 1160-1161, 1380-1381).
    ("jet-two-squares", "jet", "air", (2, 0), "air", "jet", False),
]


@pytest.mark.parametrize("movement", ("standard_chess", "mass_destruction"))
@pytest.mark.parametrize("color", COLORS)
@pytest.mark.parametrize("case", COMBAT_CASES, ids=[c[0] for c in COMBAT_CASES])
def test_sub_jet_combat_lets_subs_and_jets_take(case, color, movement):
    _, kind, level, (f, r), elevel, ekind, takes = case
    start = mirror((5, 5), color)
    dest = at(color, start, f, r)
    opts = {"movement": movement, "action_restriction": "move_only", "sub_jet_combat": True, **VISIBLE}
    g = game([piece(kind, color, start, level), piece(ekind, ENEMY[color], dest, elevel)], color, opts)
    assert (place(dest, elevel) in targets(g, start, level)) is takes
    if takes:
        after = apply(g, move(start, dest, level, elevel))
        assert board(after) == {(kind, color, *dest, elevel)}
    else:
        assert_illegal(g, move(start, dest, level, elevel))
    # Without the option the same Move is refused.
    opts["sub_jet_combat"] = False
    g = game([piece(kind, color, start, level), piece(ekind, ENEMY[color], dest, elevel)], color, opts)
    assert place(dest, elevel) not in targets(g, start, level)


# --- apply agrees with move_targets ---------------------------------------------------------

_places = st.tuples(st.integers(1, 10), st.integers(1, 10), st.sampled_from(("ground", "air", "sub")))


@settings(max_examples=300, deadline=None)
@given(movement=st.sampled_from(MOVEMENTS), data=st.data(), dst=_places, carry=st.booleans())
def test_a_move_outside_move_targets_is_refused_and_changes_nothing(movement, data, dst, carry):
    g = new_game({"movement": movement})
    own = sorted(
        {(p["row"], p["col"], p["level"]) for p in dump_scenario(g)["pieces"] if p["color"] == "black"}
    )
    src = data.draw(st.one_of(st.sampled_from(own), _places))
    if data.draw(st.booleans()):
        # Half the time aim at a real destination of that place.
        real = sorted(move_targets(g, *src))
        if real:
            dst = data.draw(st.sampled_from(real))
    action = move(src[:2], dst[:2], src[2], dst[2], **({"carry": True} if carry else {}))
    if dst not in move_targets(g, *src):
        assert_illegal(g, action)
    else:
        try:
            after = apply(g, action)
        except IllegalAction:
            return  # two Pieces share the place: move_targets is their union
        assert dump_scenario(after)["turn"]["moved"] is True
        assert [a for a in legal_actions(after) if a["type"] in ("move", "end_turn")] == [{"type": "end_turn"}]
