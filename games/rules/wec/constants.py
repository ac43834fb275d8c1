"""The fixed vocabulary of Wec: levels, colours, Piece and Article types and
their inherent abilities, all as the manual names them.

Squares are ``(row, col)`` with 1..10 for both. Internally a Square is the index
``(row - 1) * 10 + (col - 1)`` (0..99) and a Level an int (0 ground, 1 air,
2 sub), so that a place on the board is the slot ``square * 3 + level``.

Manual: Pieces and their inherent abilities l. 76-111, 234-275; Articles
l. 114-182; levels and coexistence l. 183-200; Piece and Article codes of the
Game History l. 1755-1800.
"""

from __future__ import annotations

SIZE = 10
GROUND, AIR, SUB = 0, 1, 2
LEVELS: tuple[str, ...] = ("ground", "air", "sub")
LEVEL_INDEX = {name: i for i, name in enumerate(LEVELS)}
COLORS: tuple[str, ...] = ("black", "white")
HANDS: tuple[str, ...] = ("left", "right")


def other(color: str) -> str:
    return "white" if color == "black" else "black"


def forward(color: str) -> int:
    """Row step of 'forward' for a colour: Black advances to higher rows.

    Turning the board 180 degrees also swaps left and right, so the same sign
    applies to columns: Black's right is +col, White's right is -col.
    """
    return 1 if color == "black" else -1


def square(row: int, col: int) -> int:
    return (row - 1) * SIZE + (col - 1)


def slot_of(row: int, col: int, level: int) -> int:
    """The board slot of a place: ``square * 3 + level``."""
    return ((row - 1) * SIZE + (col - 1)) * 3 + level


def rowcol(sq: int) -> tuple[int, int]:
    return sq // SIZE + 1, sq % SIZE + 1


# --- Pieces -------------------------------------------------------------------

PRIMARY = ("king", "dictator", "avatar", "president")
SECONDARY = ("queen", "assassin", "acolyte", "prime_minister")
PAWNS = (
    "rocket_pawn",
    "stunner_pawn",
    "flamer_pawn",
    "conversion_pawn",
    "stealth_pawn",
    "xxx_pawn",
    "sam_torpedo_pawn",
)
PIECE_TYPES: tuple[str, ...] = (
    "king",
    "queen",
    "tank",
    "dozer",
    "sub",
    "chopper",
    "destroyer",
    "aaa",
    "cleric",
    "jet",
    *PAWNS,
    "dictator",
    "avatar",
    "president",
    "assassin",
    "acolyte",
    "prime_minister",
)

#: Tanks, Clerics and Choppers exist as left or right pieces.
HANDED = frozenset({"tank", "cleric", "chopper"})

#: Types that may share a level of a Square with another friendly Piece. The
#: manual lists these twice with different members; we take the union
#: (docs/rulings.md, "Coexistence").
COEXIST = frozenset({"sub", "chopper", "dozer", "destroyer", "aaa", "jet"})

#: Types that carry the other Piece of their level along when they Move.
CARRIERS = frozenset({"sub", "chopper"})

#: Levels where a type can Move by its own power (everyone can at ground).
NATIVE_LEVELS = {
    "jet": frozenset({GROUND, AIR}),
    "chopper": frozenset({GROUND, AIR}),
    "sub": frozenset({GROUND, SUB}),
}

GOVERNMENTS = {
    "monarchy": ("king", "queen"),
    "dictatorship": ("dictator", "assassin"),
    "theocracy": ("avatar", "acolyte"),
    "democracy": ("president", "prime_minister"),
}

# --- Articles -----------------------------------------------------------------

WEAPONS = (
    "flamer",
    "stunner",
    "conversion",
    "rocket_launcher",
    "sam_launcher",
    "torpedo_launcher",
)
ANTIS = (
    "anti_flamer",
    "anti_stunner",
    "anti_conversion",
    "anti_rocket",
    "anti_sam",
    "anti_torpedo",
    "anti_stealth",
)
TRANSPORTS = ("bike", "jump_pack", "scuba")
ARTICLE_TYPES: tuple[str, ...] = (
    "flamer",
    "stunner",
    "conversion",
    "rocket_launcher",
    "sam_launcher",
    "torpedo_launcher",
    "stealth",
    "anti_flamer",
    "anti_stunner",
    "anti_conversion",
    "anti_rocket",
    "anti_sam",
    "anti_torpedo",
    "anti_stealth",
    "bike",
    "jump_pack",
    "scuba",
    "xxx",
)

#: The restricted Rocket Launcher of the Jet and the Sub is an ability, never an
#: Article: it only Fires at a target within the jet_rocket_range option.
JET_ROCKET = "jet_rocket"

#: Inherent abilities of each Piece type (the manual's two-ability table).
INHERENT: dict[str, tuple[str, ...]] = {
    "king": ("anti_flamer", "anti_rocket"),
    "dictator": ("anti_conversion", "anti_rocket"),
    "avatar": ("anti_stunner", "anti_rocket"),
    "president": ("anti_conversion", "anti_flamer"),
    "queen": ("anti_conversion", "anti_stunner"),
    "assassin": ("anti_flamer", "anti_stunner"),
    "acolyte": ("anti_flamer", "anti_conversion"),
    "prime_minister": ("anti_rocket", "anti_stunner"),
    "jet": ("sam_launcher", JET_ROCKET),
    "chopper": ("stunner",),
    "dozer": (),
    "tank": ("flamer",),
    "cleric": ("conversion",),
    "destroyer": ("torpedo_launcher",),
    "aaa": ("stealth", "sam_launcher"),
    "sub": ("torpedo_launcher", JET_ROCKET),
    "rocket_pawn": ("rocket_launcher", "anti_rocket"),
    "flamer_pawn": ("flamer", "anti_flamer"),
    "stunner_pawn": ("stunner", "anti_stunner"),
    "conversion_pawn": ("conversion", "anti_conversion"),
    "sam_torpedo_pawn": ("sam_launcher", "torpedo_launcher"),
    "xxx_pawn": ("xxx",),
    "stealth_pawn": ("stealth", "anti_stealth"),
}

#: Short codes of the Wec game notation (GAME HISTORY section).
PIECE_CODES = {
    "dozer": "DO",
    "tank": "TA",
    "chopper": "CH",
    "jet": "JE",
    "sub": "SU",
    "destroyer": "DS",
    "aaa": "AAA",
    "cleric": "CL",
    "queen": "Q",
    "king": "K",
    "president": "PR",
    "prime_minister": "PM",
    "dictator": "DI",
    "assassin": "AS",
    "acolyte": "AC",
    "avatar": "AV",
    "rocket_pawn": "RP",
    "flamer_pawn": "FP",
    "stealth_pawn": "SHP",
    "stunner_pawn": "STP",
    "conversion_pawn": "CP",
    "xxx_pawn": "XP",
    "sam_torpedo_pawn": "SOP",
}
ARTICLE_CODES = {
    "flamer": "FL",
    "stunner": "ST",
    "conversion": "CS",
    "torpedo_launcher": "TL",
    "rocket_launcher": "RL",
    "sam_launcher": "SL",
    "stealth": "SH",
    "xxx": "XXX",
    "anti_rocket": "ARL",
    "anti_sam": "ASL",
    "anti_torpedo": "ATL",
    "anti_conversion": "ACS",
    "anti_stunner": "AST",
    "anti_flamer": "AFL",
    "anti_stealth": "ASH",
    "bike": "BI",
    "scuba": "SC",
    "jump_pack": "JP",
}

# The eight king directions as (forward, right) steps, used by several pieces.
KING_STEPS: tuple[tuple[int, int], ...] = (
    (1, -1),
    (1, 0),
    (1, 1),
    (0, -1),
    (0, 1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
)
