"""Action Restrictions, and the general contract for refused actions.

Manual lines: move-only and one action per piece 321-332; 12DPXMR and
12DPXMR Only For 1 Piece 1958-1966; no restriction in a standard game 771-772.
Contract: docs/engine-api.md, "Turn rules".
"""

from __future__ import annotations

import pytest

import games.rules.wec as wec

from .positions import (
    END,
    A,
    P,
    apply,
    assert_illegal,
    drop,
    exchange,
    finish,
    fire,
    make,
    move,
    pickup,
    reinforce,
)

DOWN = (1, 0)
JET_AT_8_3 = [{"type": "jet", "color": "black", "row": 8, "col": 3}]

# One Black Piece for each step of the 12DPXMR sequence (Black's Turn 3).
STEPS = {
    "F1": fire((4, 3), "flamer", DOWN),
    "F2": fire((4, 7), "flamer", DOWN),
    "D": drop((6, 8), "anti_sam"),
    "P": pickup((3, 5), "bike"),
    "X": exchange((8, 5), "scuba", (8, 6)),
    "M": move((8, 3), (7, 3)),  # the Dozer leaves the activation Square...
    "R": reinforce(8, 3, "jet"),  # ...so the Jet can come in
}
ORDER = ["F1", "F2", "D", "P", "X", "M", "R"]


def sequence_game(restriction):
    g = make(
        [
            P("tank", "black", 4, 3),
            P("tank", "black", 4, 7),
            P("rocket_pawn", "black", 6, 8, articles=["anti_sam"]),
            P("rocket_pawn", "black", 3, 5),
            P("rocket_pawn", "black", 8, 5, articles=["scuba"]),
            P("rocket_pawn", "black", 8, 6),
            P("dozer", "black", 7, 3),
        ],
        [A("bike", 3, 5)],
        options={"action_restriction": restriction},
        reinforcements=JET_AT_8_3,
    )
    g = apply(g, move((7, 3), (8, 3)))
    return finish(finish(g))


def run(g, names):
    for name in names:
        g = wec.apply(g, STEPS[name])
    return g


# --- none --------------------------------------------------------------------------------


def test_no_restriction_allows_any_order():
    g = sequence_game("none")
    g = run(g, ["M", "R", "X", "P", "D", "F2", "F1"])
    assert wec.to_move(apply(g, END)) == "white"


# --- move_only -------------------------------------------------------------------------


def test_move_only_refuses_every_other_action():
    g = sequence_game("move_only")
    for name in ("F1", "D", "P", "X"):
        assert_illegal(g, STEPS[name])
    assert {a["type"] for a in wec.legal_actions(g)} == {"move"}
    g = run(g, ["M"])
    assert_illegal(g, STEPS["R"])
    for name in ("F1", "D", "P", "X"):
        assert_illegal(g, STEPS[name])
    assert wec.legal_actions(g) == [END]


# --- 12DPXMR ---------------------------------------------------------------------------


def test_12dpxmr_full_sequence_in_order():
    g = run(sequence_game("12dpxmr"), ORDER)
    assert wec.to_move(apply(g, END)) == "white"


@pytest.mark.parametrize("first, second", [
    ("F1", "D"), ("F1", "P"), ("F1", "X"), ("F1", "M"), ("D", "P"), ("D", "X"), ("D", "M"),
    ("P", "X"), ("P", "M"), ("X", "M"), ("M", "R"),
])
def test_12dpxmr_allows_later_actions(first, second):
    run(sequence_game("12dpxmr"), [first, second])


@pytest.mark.parametrize("first, second", [
    ("D", "F1"), ("P", "F1"), ("P", "D"), ("X", "F1"), ("X", "D"), ("X", "P"),
    ("M", "F1"), ("M", "D"), ("M", "P"), ("M", "X"),
])
def test_12dpxmr_refuses_earlier_actions(first, second):
    g = run(sequence_game("12dpxmr"), [first])
    assert_illegal(g, STEPS[second])
    # and legal_actions agrees
    kinds = {"F1": "fire", "D": "drop", "P": "pickup", "X": "exchange"}
    assert not [a for a in wec.legal_actions(g) if a["type"] == kinds[second]]


def test_12dpxmr_nothing_after_reinforce():
    g = run(sequence_game("12dpxmr"), ["M", "R"])
    assert wec.legal_actions(g) == [END]


def test_12dpxmr_second_fire_after_the_first():
    g = run(sequence_game("12dpxmr"), ["F1", "F2", "M"])
    assert wec.view(g, "black")["turn"]["fires"] == 2


# --- one_action_per_piece ---------------------------------------------------------------


def _tank_game(restriction, articles=()):
    # From (2,5) a Black right Tank can Move to (9,8) along an empty path.
    return make([P("tank", "black", 2, 5, articles=list(articles)), P("tank", "black", 5, 8)],
                options={"action_restriction": restriction})


def test_one_action_per_piece_refuses_a_second_action_of_a_piece():
    g = apply(_tank_game("one_action_per_piece"), fire((2, 5), "flamer", DOWN))
    assert_illegal(g, move((2, 5), (9, 8)))
    assert not [a for a in wec.legal_actions(g) if a.get("from") == [2, 5, "ground"]]
    g = apply(g, move((1, 1), (1, 2)), fire((5, 8), "flamer", DOWN))
    assert wec.to_move(apply(g, END)) == "white"


def test_one_action_per_piece_move_then_fire_refused():
    g = apply(_tank_game("one_action_per_piece"), move((2, 5), (9, 8)))
    assert_illegal(g, fire((9, 8), "flamer", DOWN))


def test_one_action_per_piece_refuses_two_weapons_of_one_piece():
    g = apply(_tank_game("one_action_per_piece", ["stunner"]), fire((2, 5), "flamer", DOWN))
    assert_illegal(g, fire((2, 5), "stunner", DOWN))


def test_one_action_per_piece_pickup_counts():
    g = make([P("rocket_pawn", "black", 3, 5)], [A("bike", 3, 5)],
             options={"action_restriction": "one_action_per_piece"})
    g = apply(g, pickup((3, 5), "bike"))
    assert_illegal(g, fire((3, 5), "rocket_launcher", DOWN))


def test_one_action_per_piece_exchange_counts_for_the_giver_only():
    opts = {"action_restriction": "one_action_per_piece"}
    g = make([P("tank", "black", 5, 5, articles=["bike"]), P("tank", "black", 5, 6)], options=opts)
    g = apply(g, exchange((5, 5), "bike", (5, 6)))
    assert_illegal(g, fire((5, 5), "flamer", DOWN))
    apply(g, fire((5, 6), "flamer", DOWN))


def test_one_action_per_piece_reinforce_has_no_acting_piece():
    g = sequence_game("one_action_per_piece")
    g = run(g, ["M", "R"])
    assert wec.to_move(apply(g, END)) == "white"


# --- 12DPXMR only for 1 piece ------------------------------------------------------------


def test_12dpxmr_one_piece_every_action_by_the_first_actor():
    g = apply(_tank_game("12dpxmr_one_piece"), fire((2, 5), "flamer", DOWN))
    assert_illegal(g, move((1, 1), (1, 2)))
    assert_illegal(g, fire((5, 8), "flamer", DOWN))
    moves = [a for a in wec.legal_actions(g) if a["type"] == "move"]
    assert moves and all(a["from"] == [2, 5, "ground"] for a in moves)
    g = apply(g, move((2, 5), (9, 8)), END)
    assert wec.to_move(g) == "white"


def test_12dpxmr_one_piece_may_end_the_turn_when_the_first_actor_cannot_move():
    # From (5,5) every path of a Black right Tank leaves the board: it has no Move.
    g = make([P("tank", "black", 5, 5)], options={"action_restriction": "12dpxmr_one_piece"})
    assert wec.move_targets(g, 5, 5, "ground") == set()
    g = apply(g, fire((5, 5), "flamer", DOWN))
    assert wec.legal_actions(g) == [END]
    assert wec.to_move(apply(g, END)) == "white"


def test_12dpxmr_one_piece_keeps_the_order():
    g = apply(_tank_game("12dpxmr_one_piece"), move((2, 5), (9, 8)))
    assert_illegal(g, fire((9, 8), "flamer", DOWN))


def test_12dpxmr_one_piece_two_fires_of_one_piece():
    g = apply(_tank_game("12dpxmr_one_piece", ["stunner"]), fire((2, 5), "flamer", DOWN),
              fire((2, 5), "stunner", (0, 1)), move((2, 5), (9, 8)))
    assert wec.view(g, "black")["turn"]["fires"] == 2


def test_12dpxmr_one_piece_pickup_then_move():
    g = make([P("rocket_pawn", "black", 3, 5), P("tank", "black", 5, 8)], [A("bike", 3, 5)],
             options={"action_restriction": "12dpxmr_one_piece"})
    g = apply(g, pickup((3, 5), "bike"))
    assert_illegal(g, fire((5, 8), "flamer", DOWN))
    g = apply(g, move((3, 5), (4, 6)))
    assert wec.to_move(apply(g, END)) == "white"


# --- every legal action applies, under every restriction -----------------------------


@pytest.mark.parametrize("restriction", ["none", "move_only", "one_action_per_piece", "12dpxmr",
                                         "12dpxmr_one_piece"])
def test_legal_actions_apply_under_every_restriction(restriction):
    g = sequence_game(restriction)
    for prefix in ([], ["F1"], ["D"], ["M"]):
        try:
            h = run(g, prefix)
        except wec.IllegalAction:
            continue
        for a in wec.legal_actions(h):
            wec.apply(h, a)


# --- refused actions change nothing ----------------------------------------------------

MALFORMED = [
    {"type": "fire"},
    {"type": "fire", "from": [4, 3, "ground"]},
    {"type": "fire", "from": [4, 3, "ground"], "weapon": "flamer", "direction": "down"},
    {"type": "fire", "from": [4, 3, "ground"], "weapon": "flamer", "direction": [1]},
    {"type": "fire", "from": [4, 3, "ground"], "weapon": "flamer", "direction": [True, 0]},
    {"type": "fire", "from": [4, 3, "ground"], "weapon": "flamer", "direction": [1, 0], "piece": 999},
    {"type": "fire", "from": [4, 3, "lava"], "weapon": "flamer", "direction": [1, 0]},
    {"type": "fire", "from": [0, 3, "ground"], "weapon": "flamer", "direction": [1, 0]},
    {"type": "pickup"},
    {"type": "pickup", "from": [3, 5, "ground"]},
    {"type": "pickup", "from": [3, 5, "ground"], "article": "laser"},
    {"type": "drop", "from": [6, 8, "ground"]},
    {"type": "drop", "from": [6, 8, "ground"], "article": 7},
    {"type": "exchange", "from": [8, 5, "ground"], "article": "scuba"},
    {"type": "exchange", "from": [8, 5, "ground"], "article": "scuba", "to": [8, 6]},
    {"type": "exchange", "from": [8, 5, "ground"], "article": "scuba", "to": [8, 6, "ground"], "to_piece": 999},
    {"type": "reinforce"},
    {"type": "reinforce", "to": [8, 3], "piece_type": "wizard"},
    {"type": "teleport"},
    {},
]


@pytest.mark.parametrize("action", MALFORMED, ids=[str(i) for i in range(len(MALFORMED))])
def test_malformed_actions_are_refused_and_change_nothing(action):
    g = sequence_game("none")
    assert_illegal(g, action)
    assert_illegal(run(g, ["M"]), action)


def test_refused_action_message_is_a_value_error():
    g = sequence_game("none")
    with pytest.raises(ValueError) as e:
        wec.apply(g, fire((4, 3), "conversion", DOWN))
    assert str(e.value)


def test_a_refused_action_does_not_use_up_the_turn():
    g = sequence_game("none")
    assert_illegal(g, fire((4, 3), "conversion", DOWN))
    g = run(g, ["F1", "F2"])
    assert wec.view(g, "black")["turn"]["fires"] == 2


# --- every Action Restriction with every Action (l. 1960-1969) -----------------------------------


def _everything():
    """A position where Black can make every kind of Action."""
    return [
        P("flamer_pawn", "black", 4, 8),                              # Fire (inherent Flamer)
        P("rocket_pawn", "black", 5, 2),                              # Pick-up the Anti-Flamer below it
        P("dozer", "black", 4, 4, articles=["stunner"]),              # Drop / Exchange its Stunner
        P("destroyer", "black", 4, 5),                                # receives the Exchange
        P("tank", "black", 6, 6, hand="right", articles=["bike"]),    # Transport
    ]


ACTIONS = {
    "fire": fire((4, 8), "flamer", DOWN),
    "transport": fire((6, 6), "bike", to=[6, 9, "ground"]),
    "pickup": pickup([5, 2], "anti_flamer"),
    "drop": drop([4, 4], "stunner"),
    "exchange": exchange([4, 4], "stunner", [4, 5]),
    "move": move((1, 1), (1, 2)),
    "reinforce": reinforce(8, 3, "jet"),
}
# Which Actions may open a Turn under each restriction.
FIRST = {
    "none": set(ACTIONS),
    "move_only": {"move"},
    "one_action_per_piece": set(ACTIONS),
    "12dpxmr": set(ACTIONS) - {"reinforce"},  # the Reinforce comes after the Move
    "12dpxmr_one_piece": set(ACTIONS) - {"reinforce"},
}
# Which Actions may follow the King's Move under each restriction.
AFTER_MOVE = {
    "none": set(ACTIONS) - {"move"},
    "move_only": set(),
    "one_action_per_piece": set(ACTIONS) - {"move"},
    "12dpxmr": {"reinforce"},
    "12dpxmr_one_piece": {"reinforce"},
}


def _game(restriction):
    return make(_everything(), [A("anti_flamer", 5, 2)], options={"action_restriction": restriction},
                reinforcements=[{"type": "jet", "color": "black", "row": 8, "col": 3, "armed": True,
                                 "ready": True}])


@pytest.mark.parametrize("name", sorted(ACTIONS))
@pytest.mark.parametrize("restriction", sorted(FIRST))
def test_every_restriction_against_every_action_as_the_turns_first(restriction, name):
    g = _game(restriction)
    if name in FIRST[restriction]:
        apply(g, ACTIONS[name])
    else:
        assert_illegal(g, ACTIONS[name])


@pytest.mark.parametrize("name", sorted(set(ACTIONS) - {"move"}))
@pytest.mark.parametrize("restriction", sorted(AFTER_MOVE))
def test_every_restriction_against_every_action_after_the_move(restriction, name):
    g = apply(_game(restriction), ACTIONS["move"])
    if name in AFTER_MOVE[restriction]:
        apply(g, ACTIONS[name])
    else:
        assert_illegal(g, ACTIONS[name])


@pytest.mark.parametrize("restriction", sorted(FIRST))
def test_legal_actions_agree_with_the_restriction_matrix(restriction):
    g = _game(restriction)
    kinds = set()
    for a in wec.legal_actions(g):
        if a["type"] == "fire":
            kinds.add("transport" if a["weapon"] in ("bike", "jump_pack", "scuba") else "fire")
        elif a["type"] != "end_turn":
            kinds.add(a["type"])
    assert kinds == FIRST[restriction]
