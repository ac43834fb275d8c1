"""The combat table (contract "Combat"; seed l. 8-10, 13-17), one test a cell.

The expected results are written out here, independently of the engine's
``fight``: "W" the attacker wins and stands on the square, "D" the attacker
dies and the defender stays, "H" the Headquarters falls and the game ends.
"""

from __future__ import annotations

import pytest

from .helpers import KEEP, M, at, game, move

SOLDIERS = ["corporal", "lieutenant", "captain", "colonel", "general"]
RANK = {t: i + 1 for i, t in enumerate(SOLDIERS)}


def expected(attacker: str, defender: str) -> str:
    if defender == "hq":
        return "H"
    if attacker in RANK:
        if defender in RANK:
            return "W" if RANK[attacker] >= RANK[defender] else "D"
        return "D" if defender == "mine" else "W"
    if attacker == "spy":
        return "W" if defender in ("spy", "sapper") else "D"
    # sapper
    if defender in RANK:
        return "W" if defender == "general" else "D"
    return "W"


CELLS = [(a, d) for a in SOLDIERS + ["spy", "sapper"] for d in SOLDIERS + ["spy", "sapper", "mine", "hq"]]


@pytest.mark.parametrize(("attacker", "defender"), CELLS, ids=[f"{a}-x-{d}" for a, d in CELLS])
def test_cell(attacker: str, defender: str) -> None:
    pieces = [("black", attacker, 5, 5), ("white", defender, 6, 5)]
    if defender == "hq":
        pieces += [p for p in KEEP if p[1] != "hq" or p[0] == "black"]
    else:
        pieces += KEEP
    # a second mobile black piece, so that the game goes on after a lost fight
    pieces.append(("black", "corporal", 2, 2))
    g = game(pieces)
    g2 = move(g, (5, 5), (6, 5))
    want = expected(attacker, defender)
    left, right = at(g2, 5, 5), at(g2, 6, 5, "black")
    assert left is None
    if want == "H":
        assert M.outcome(g2) == {"winner": "black", "reason": "hq_captured"}
        assert right is not None and right["color"] == "black" and right["type"] == attacker
    elif want == "W":
        assert M.outcome(g2) is None
        assert right is not None and right["color"] == "black" and right["type"] == attacker
    else:
        assert M.outcome(g2) is None
        assert right is not None and right["color"] == "white"
        assert at(g2, 6, 5, "white")["type"] == defender


def test_sapper_beats_general_only_attacking() -> None:
    """l. 13, 15: a Sapper attacking a General wins; a General attacking a Sapper wins."""
    g = game(
        [
            ("black", "sapper", 5, 5),
            ("white", "general", 6, 5),
            ("black", "general", 4, 4),
            ("white", "sapper", 7, 4),
            *KEEP,
        ]
    )
    g1 = move(g, (5, 5), (6, 5))
    assert at(g1, 6, 5)["type"] == "sapper"
    assert all(p["type"] != "general" for p in M.view(g1, "white")["pieces"] if p["color"] == "white")
    # the other way round: White's General attacks Black's Sapper
    g = game([("white", "general", 6, 5), ("black", "sapper", 5, 5), *KEEP], to_move="white")
    g2 = move(g, (6, 5), (5, 5))
    assert at(g2, 5, 5, "white")["type"] == "general"
    assert all(p["type"] != "sapper" for p in M.view(g2, "black")["pieces"] if p["color"] == "black")


def test_sapper_clears_mine_and_takes_its_square() -> None:
    g = game([("black", "sapper", 5, 5), ("white", "mine", 6, 5), *KEEP, ("black", "corporal", 2, 2)])
    g1 = move(g, (5, 5), (6, 5))
    assert at(g1, 6, 5)["type"] == "sapper"
    assert M.view(g1, "white")["lost"]["white"] == ["mine"]


def test_fight_reveals_neither_piece() -> None:
    """Ruling 5: after a fight, the survivor stays unknown to the other side."""
    g = game([("black", "general", 5, 5), ("white", "captain", 6, 5), *KEEP, ("black", "corporal", 2, 2)])
    g1 = move(g, (5, 5), (6, 5))
    assert at(g1, 6, 5, "white") == {"color": "black", "type": "unknown", "row": 6, "col": 5}
    assert at(g1, 6, 5, "black")["revealed"] is False
