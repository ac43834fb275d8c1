"""Fixed facts of Marshal and Spy: the pieces, the army (l. 12) and the combat
table (l. 8-10, 13-17).

Line numbers ("l. N") refer to the seed shared/seeds/002_87afa212f8c1bebd.txt.
"""

from __future__ import annotations

COLORS: tuple[str, str] = ("black", "white")

#: Soldier ranks in the seed's listed order (l. 12-13): higher beats lower.
RANKS: dict[str, int] = {"corporal": 1, "lieutenant": 2, "captain": 3, "colonel": 4, "general": 5}

#: Every piece type, soldiers first by rank, then the others in the order of l. 12.
TYPES: tuple[str, ...] = (
    "corporal",
    "lieutenant",
    "captain",
    "colonel",
    "general",
    "spy",
    "sapper",
    "mine",
    "hq",
)

#: One army (l. 12): 30 pieces.
ARMY: dict[str, int] = {
    "corporal": 5,
    "lieutenant": 4,
    "captain": 3,
    "colonel": 2,
    "general": 2,
    "spy": 5,
    "sapper": 4,
    "mine": 4,
    "hq": 1,
}
ARMY_SIZE: int = sum(ARMY.values())

#: Mines and the Headquarters never move (l. 16-17); the rest are the mobile pieces (l. 3).
IMMOBILE: frozenset[str] = frozenset({"mine", "hq"})
MOBILE: frozenset[str] = frozenset(TYPES) - IMMOBILE

#: One-letter codes used by the notation (docs/notation.md, "Marshal and Spy notation").
LETTER: dict[str, str] = {
    "corporal": "1",
    "lieutenant": "2",
    "captain": "3",
    "colonel": "4",
    "general": "5",
    "spy": "S",
    "sapper": "P",
    "mine": "M",
    "hq": "H",
}
TYPE_OF_LETTER: dict[str, str] = {v: k for k, v in LETTER.items()}

# Fight results, as the notation writes them.
WINS = "+"  # the defender is removed, the attacker stands on its square
DIES = "-"  # the attacker is removed, the defender stays
HQ_TAKEN = "#"  # the Headquarters is captured: the attacker's side wins


def fight(attacker: str, defender: str) -> str:
    """The result of ``attacker`` stepping onto ``defender`` (l. 8-10, 13-17).

    Equal ranks and like against like go to the attacker (l. 9). A Spy takes
    only Spies and Sappers and dies on anything else (l. 14). A Sapper takes a
    General, a Spy, a Sapper and clears a Mine (l. 13, 15), and dies attacking
    ranks 1-4 (l. 15, 10). Every soldier dies on a Mine (l. 13, 16). Anything
    that reaches the Headquarters captures it (l. 8, 17).
    """
    if defender == "hq":
        return HQ_TAKEN
    if attacker in RANKS:
        if defender in RANKS:
            return WINS if RANKS[attacker] >= RANKS[defender] else DIES
        return DIES if defender == "mine" else WINS
    if attacker == "spy":
        return WINS if defender in ("spy", "sapper") else DIES
    if attacker == "sapper":
        if defender in RANKS:
            return WINS if defender == "general" else DIES
        return WINS  # spy, sapper, and the cleared mine
    raise ValueError(f"a {attacker} cannot attack")
