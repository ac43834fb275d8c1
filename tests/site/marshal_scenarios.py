"""Small Marshal and Spy positions the site tests start games from (as a
board-editor scenario: no setups, play begins at once)."""

from __future__ import annotations

import json

SMALL = {
    "phase": "play", "to_move": "black", "turn_number": 1, "options": {"volcanoes": 0},
    "pieces": [
        {"type": "hq", "color": "black", "row": 1, "col": 1},
        {"type": "general", "color": "black", "row": 4, "col": 5},
        {"type": "spy", "color": "black", "row": 4, "col": 2},
        {"type": "corporal", "color": "black", "row": 2, "col": 9},
        {"type": "hq", "color": "white", "row": 10, "col": 10},
        {"type": "captain", "color": "white", "row": 5, "col": 5},
        {"type": "colonel", "color": "white", "row": 6, "col": 2},
        {"type": "corporal", "color": "white", "row": 9, "col": 1},
    ],
}


def hq_in_reach() -> dict:
    """SMALL with Black's General on (9,9), two steps from White's HQ on
    (10,10), and White's Colonel on (6,6).  A piece moves once a Turn, so the
    General takes the HQ at the earliest in Black's second Turn."""
    doc = json.loads(json.dumps(SMALL))
    doc["pieces"][1].update(row=9, col=9)
    doc["pieces"][6].update(row=6, col=6)
    return doc
