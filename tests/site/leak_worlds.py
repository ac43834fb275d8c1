"""The two worlds of the leak tests, shared by every test that plays them
(the players' leak test, the spectators', the exports', the doorbells' and
the view versions'): a scenario, and a timeline of moments in which world B
holds actions world A does not, all out of Black's sight; and the same
worlds mirrored (colours swapped, rows turned), out of White's sight.

The scenario: White, under submersion invisibility and with
`seen_when_firing` off, has a submerged Sub at (9,9) and two inherently
stealthed AAAs at (9,5) and (9,6); Black has nothing that sees them.  In
world B, White's turn holds a Torpedo Fire from the Sub (off the board at
(10,9): out of reach of any Black Torpedo Launcher), an Exchange of a Bike
between the AAAs and the Sub's Move to (8,9); in world A only the Sub's
Move, to (9,8).  tests/site/test_site_leaks.py checks against the engine
that Black's view is the same in both."""

from __future__ import annotations

import games.rules.wec as wec
from games import services


def P(kind: str, color: str, row: int, col: int, level: str = "ground", **extra) -> dict:
    """A piece of a scenario document."""
    return {"type": kind, "color": color, "row": row, "col": col, "level": level, **extra}


SCENARIO = {
    "to_move": "black",
    "options": {"seen_when_firing": False},
    "pieces": [
        P("king", "black", 1, 1),
        P("dozer", "black", 2, 5),
        P("king", "white", 10, 1),
        P("aaa", "white", 9, 5, articles=["bike"]),
        P("aaa", "white", 9, 6),
        P("sub", "white", 9, 9, "sub"),
    ],
    "articles": [],
}


def move(frm, to) -> dict:
    return {"type": "move", "from": [*frm, "ground"] if len(frm) == 2 else list(frm), "to": list(to)}


END = {"type": "end_turn"}
TORPEDO = {"type": "fire", "from": [9, 9, "sub"], "weapon": "torpedo_launcher", "direction": [1, 0]}
EXCHANGE = {"type": "exchange", "from": [9, 5, "ground"], "article": "bike", "to": [9, 6, "ground"]}

# One entry per moment: (who acts, world A's actions, world B's actions).
# Both worlds take a snapshot of Black's side after every moment.
TIMELINE = [
    ("black", [move((1, 1), (1, 2, "ground"))], [move((1, 1), (1, 2, "ground"))]),
    ("black", [END], [END]),
    ("white", [], [TORPEDO]),  # an unseen Fire
    ("white", [], [EXCHANGE]),  # an unseen Exchange
    ("white", [move((9, 9, "sub"), (9, 8, "sub"))], [move((9, 9, "sub"), (8, 9, "sub"))]),  # unseen Moves
    ("white", [END], [END]),
    ("black", [move((1, 2), (1, 1, "ground"))], [move((1, 2), (1, 1, "ground"))]),
    ("black", [END], [END]),
    ("white", [move((10, 1), (10, 2, "ground"))], [move((10, 1), (10, 2, "ground"))]),  # a seen Move
    ("white", [END], [END]),
]


def challenge_to_the_scenario(bob, **terms):
    """The worlds' game: Bob (White) has challenged Alice (Black) to play
    SCENARIO, on the given terms (days per move, competitive, the record)."""
    return services.create_game(
        creator=bob, opponent="user", username="alice", color="white", scenario=SCENARIO, **terms
    )


def legal(state, wanted: dict) -> dict:
    """The engine's own legal action that has every key of `wanted`."""
    for action in wec.legal_actions(state):
        if all(action.get(k) == v for k, v in wanted.items()):
            return action
    raise AssertionError(f"not legal here: {wanted}")


# --- the same worlds mirrored: Black's unseen actions ------------------------------------

OTHER = {"black": "white", "white": "black"}


def _mirror_place(place):
    out = list(place)
    out[0] = 11 - out[0]
    return out


def _mirror_action(action: dict) -> dict:
    out = dict(action)
    for key in ("from", "to"):
        if key in out:
            out[key] = _mirror_place(out[key])
    if "direction" in out:
        out["direction"] = [-out["direction"][0], out["direction"][1]]
    return out


MIRRORED = {
    **SCENARIO,
    "to_move": "white",
    "pieces": [{**p, "color": OTHER[p["color"]], "row": 11 - p["row"]} for p in SCENARIO["pieces"]],
}
MIRRORED_TIMELINE = [
    (OTHER[who], [_mirror_action(a) for a in wa], [_mirror_action(b) for b in wb]) for who, wa, wb in TIMELINE
]
