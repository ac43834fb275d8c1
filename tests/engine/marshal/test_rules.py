"""Turns, no-return, Spies, setup validation, the ends of the game and the options."""

from __future__ import annotations

import pytest

from .helpers import KEEP, M, at, game, move, started

# ------------------------------------------------------------------ turns


def test_two_moves_a_turn_by_two_different_pieces() -> None:
    g = game([("black", "captain", 4, 4), ("black", "captain", 4, 6), *KEEP])
    g1 = move(g, (4, 4), (5, 4))
    assert M.to_move(g1) == "black"
    assert M.view(g1, "black")["turn"]["moves"] == 1
    with pytest.raises(M.IllegalAction, match="already moved"):
        move(g1, (5, 4), (6, 4))
    assert all(a["from"] != [5, 4] for a in M.legal_actions(g1))
    g2 = move(g1, (4, 6), (5, 6))
    assert M.to_move(g2) == "white"
    assert M.history(g2) == ["1. B: 3(4,4)-(5,4), 3(4,6)-(5,6)"]


def test_turn_passes_early_when_no_other_piece_can_move() -> None:
    # Black's only other mobile piece is walled in by its own Mines and the board edge.
    g = game(
        [
            ("black", "captain", 5, 5),
            ("black", "hq", 1, 1),
            ("black", "corporal", 1, 10),
            ("black", "mine", 1, 9),
            ("black", "mine", 2, 10),
            ("white", "hq", 10, 10),
            ("white", "corporal", 10, 1),
        ]
    )
    g1 = move(g, (5, 5), (6, 5))
    assert M.to_move(g1) == "white"
    assert M.history(g1) == ["1. B: 3(5,5)-(6,5)"]


def test_one_move_a_turn_variant() -> None:
    g = game([("black", "captain", 4, 4), *KEEP], options={"moves_per_turn": 1})
    assert M.to_move(move(g, (4, 4), (5, 4))) == "white"


def test_moving_onto_own_piece_volcano_or_far_is_refused() -> None:
    g = game([("black", "captain", 4, 4), ("black", "spy", 4, 5), *KEEP], volcanoes=[[5, 4]])
    for b, words in (
        ((4, 5), "own piece"),
        ((5, 4), "volcano"),
        ((6, 4), "not next to"),
        ((0, 4), "not on the board"),
    ):
        with pytest.raises(M.IllegalAction, match=words):
            move(g, (4, 4), b)
    with pytest.raises(M.IllegalAction, match="never moves"):
        move(g, (1, 1), (2, 1))
    with pytest.raises(M.IllegalAction, match="no piece"):
        move(g, (10, 1), (9, 1))


# -------------------------------------------------------------- no return


def _shuttle(option: str) -> object:
    g = game(
        [
            ("black", "captain", 4, 4),
            ("black", "spy", 4, 7),
            ("white", "captain", 7, 4),
            ("white", "spy", 7, 7),
            *KEEP,
        ],
        options={"no_return": option},
    )
    g = move(g, (4, 4), (5, 4))
    g = move(g, (4, 7), (5, 7))
    g = move(move(g, (7, 4), (6, 4)), (7, 7), (6, 7))
    return g


@pytest.mark.parametrize("option", ["next_turn", "until_moved"])
def test_no_immediate_return_under_both_values(option: str) -> None:
    g = _shuttle(option)
    assert at(g, 5, 4)["no_return"] == [4, 4]
    with pytest.raises(M.IllegalAction, match="straight back"):
        move(g, (5, 4), (4, 4))
    assert {"type": "move", "from": [5, 4], "to": [4, 4]} not in M.legal_actions(g)
    # other steps are fine
    move(g, (5, 4), (5, 5))


@pytest.mark.parametrize(("option", "allowed"), [("next_turn", True), ("until_moved", False)])
def test_no_return_after_waiting_a_turn(option: str, allowed: bool) -> None:
    g = _shuttle(option)
    # Black moves two other pieces, leaving the captain on (5,4) a turn
    g = move(move(g, (1, 10), (2, 10)), (5, 7), (5, 8))
    g = move(move(g, (10, 1), (9, 1)), (6, 7), (6, 8))
    back = {"type": "move", "from": [5, 4], "to": [4, 4]}
    assert (back in M.legal_actions(g)) is allowed
    assert at(g, 5, 4)["no_return"] == (None if allowed else [4, 4])
    if not allowed:
        with pytest.raises(M.IllegalAction):
            M.apply(g, back)
        # once it has moved elsewhere, the old square is free again
        g2 = move(move(g, (5, 4), (5, 5)), (2, 10), (3, 10))
        g2 = move(move(g2, (9, 1), (8, 1)), (6, 8), (6, 9))
        assert at(g2, 5, 5)["no_return"] == [5, 4]


# ------------------------------------------------------------------ spies


def test_spy_reveal_stays_after_the_spy_dies_and_the_piece_moves() -> None:
    g = game(
        [
            ("black", "spy", 5, 5),
            ("white", "captain", 7, 6),
            ("white", "colonel", 9, 9),
            ("black", "corporal", 3, 3),
            *KEEP,
        ]
    )
    g = move(g, (5, 5), (6, 5))  # the captain on (7,6) is now diagonal to the Spy
    assert at(g, 7, 6)["type"] == "captain"
    assert at(g, 7, 6, "white")["revealed"] is True
    assert at(g, 6, 5, "white")["type"] == "unknown"  # the Spy is not revealed by revealing
    assert at(g, 9, 9)["type"] == "unknown"
    g = move(g, (3, 3), (4, 3))
    g = move(move(g, (7, 6), (7, 5)), (9, 9), (8, 9))
    g = move(move(g, (4, 3), (5, 3)), (1, 10), (2, 10))
    g = move(g, (7, 5), (6, 5))  # White's captain takes the Spy
    g = move(g, (8, 9), (8, 8))
    assert M.view(g, "black")["lost"]["black"] == ["spy"]
    g = move(move(g, (5, 3), (5, 2)), (2, 10), (3, 10))
    g = move(move(g, (6, 5), (6, 6)), (8, 8), (8, 7))
    assert at(g, 6, 6)["type"] == "captain"  # still revealed, wherever it goes
    black_history = M.history(g, "black")
    assert black_history[1] == "2. W: 3(7,6)-(7,5), ?(9,9)-(8,9)"
    assert black_history[3] == "4. W: 3(7,5)xS(6,5)+, ?(8,9)-(8,8)"
    assert black_history[5] == "6. W: 3(6,5)-(6,6), ?(8,8)-(8,7)"
    assert M.history(g, "white")[0] == "1. B: ?(5,5)-(6,5), ?(3,3)-(4,3)"


def test_enemy_stepping_next_to_a_spy_is_revealed() -> None:
    g = game([("black", "spy", 5, 5), ("white", "general", 7, 5), *KEEP], to_move="white")
    g = move(g, (7, 5), (6, 5))
    assert at(g, 6, 5)["type"] == "general"


def test_every_live_spy_looks_after_every_move() -> None:
    """A loaded scenario may hold a Spy next to an unrevealed piece: the next move, whoever makes it, reveals it."""
    g = game([("black", "spy", 5, 5), ("white", "lieutenant", 6, 6), *KEEP])
    assert at(g, 6, 6)["type"] == "unknown"
    g = move(g, (1, 10), (2, 10))
    assert at(g, 6, 6)["type"] == "lieutenant"


def test_spy_dying_on_its_move_reveals_nothing() -> None:
    # the Spy attacks a corporal next to another white piece and dies
    g = game(
        [
            ("black", "spy", 5, 5),
            ("white", "corporal", 6, 5),
            ("white", "colonel", 7, 6),
            *KEEP,
            ("black", "corporal", 2, 2),
        ]
    )
    g = move(g, (5, 5), (6, 5))
    assert at(g, 6, 5)["type"] == "unknown"
    assert at(g, 7, 6)["type"] == "unknown"


# ------------------------------------------------------------------ setup


def _arrangement(g: object, color: str) -> list[dict]:
    (action,) = [a for a in M.legal_actions(g) if a["color"] == color]
    return action["pieces"]


def test_setup_validation() -> None:
    g = M.new_game(seed=3)
    pieces = _arrangement(g, "black")
    ok = M.apply(g, {"type": "setup", "color": "black", "pieces": pieces})
    assert M.view(ok, "black")["ready"] == {"black": True, "white": False}
    assert M.view(ok, "white")["pieces"] == []  # nothing enemy before both are set up
    with pytest.raises(M.IllegalAction, match="already set up"):
        M.apply(ok, {"type": "setup", "color": "black", "pieces": pieces})
    short = pieces[:-1]
    with pytest.raises(M.IllegalAction, match="type hq"):
        M.apply(g, {"type": "setup", "color": "black", "pieces": short})
    extra = pieces + [{"type": "spy", "row": 1, "col": 1}]
    with pytest.raises(M.IllegalAction, match="Two pieces"):
        M.apply(g, {"type": "setup", "color": "black", "pieces": extra})
    wrong = [dict(p) for p in pieces]
    wrong[0]["type"] = "general"
    with pytest.raises(M.IllegalAction, match="the setup places"):
        M.apply(g, {"type": "setup", "color": "black", "pieces": wrong})
    outside = [dict(p) for p in pieces]
    outside[0]["row"] = 4
    with pytest.raises(M.IllegalAction, match="outside"):
        M.apply(g, {"type": "setup", "color": "black", "pieces": outside})
    with pytest.raises(M.IllegalAction, match="before the first move"):
        move(g, (3, 1), (4, 1))
    with pytest.raises(M.IllegalAction):
        M.apply(g, {"type": "setup", "color": "black", "random": "x"})
    with pytest.raises(M.IllegalAction):
        M.apply(g, {"type": "setup", "color": "red", "random": 1})


def test_setup_either_order_and_random() -> None:
    g = M.new_game(seed=5)
    a = M.apply(
        M.apply(g, {"type": "setup", "color": "white", "random": 9}),
        {"type": "setup", "color": "black", "random": 8},
    )
    b = M.apply(
        M.apply(g, {"type": "setup", "color": "black", "random": 8}),
        {"type": "setup", "color": "white", "random": 9},
    )
    assert M.to_move(a) == M.to_move(b) == "black"
    assert [
        (p["type"], p["row"], p["col"]) for p in M.view(a, "black")["pieces"] if p["color"] == "black"
    ] == [(p["type"], p["row"], p["col"]) for p in M.view(b, "black")["pieces"] if p["color"] == "black"]
    assert M.legal_actions(a)[0]["type"] == "move"


# ------------------------------------------------------------------- ends


def test_hq_captured() -> None:
    g = game(
        [
            ("black", "corporal", 9, 9),
            ("white", "hq", 10, 9),
            ("black", "hq", 1, 1),
            ("white", "corporal", 10, 1),
        ]
    )
    g = move(g, (9, 9), (10, 9))
    assert M.outcome(g) == {"winner": "black", "reason": "hq_captured"}
    assert M.to_move(g) is None and M.legal_actions(g) == []
    assert M.history(g, "white") == ["1. B: 1(9,9)xH(10,9)# {black wins: hq_captured}"]


def test_no_mobile_pieces_by_own_attack_on_a_mine() -> None:
    g = game([("black", "corporal", 5, 5), ("white", "mine", 6, 5), ("black", "hq", 1, 1), *KEEP[2:]])
    g = move(g, (5, 5), (6, 5))
    assert M.outcome(g) == {"winner": "white", "reason": "no_mobile_pieces"}


def test_no_mobile_pieces_when_the_last_is_taken() -> None:
    g = game([("black", "general", 5, 5), ("white", "corporal", 6, 5), ("white", "hq", 10, 10), *KEEP[:2]])
    g = move(g, (5, 5), (6, 5))
    assert M.outcome(g) == {"winner": "black", "reason": "no_mobile_pieces"}


def test_no_moves_when_a_turn_begins() -> None:
    # White's one corporal is boxed in by its own Mines and a volcano.
    g = game(
        [
            ("black", "captain", 4, 4),
            ("black", "hq", 1, 1),
            ("white", "corporal", 10, 1),
            ("white", "mine", 10, 2),
            ("white", "hq", 10, 10),
        ],
        volcanoes=[[9, 1]],
        options={"moves_per_turn": 1},
    )
    g = move(g, (4, 4), (5, 4))
    assert M.outcome(g) == {"winner": "black", "reason": "no_moves"}
    assert M.history(g)[-1].endswith("{black wins: no_moves}")


@pytest.mark.parametrize("limit", [1, 2, 5])
def test_turn_limit_draw(limit: int) -> None:
    g = started(11, {"turn_limit": limit})
    turns = 0
    while M.outcome(g) is None:
        g = M.apply(g, M.legal_actions(g)[0])
        turns = M.view(g, "black")["turn_number"]
    assert M.outcome(g) == {"winner": None, "reason": "turn_limit"}
    assert len(M.history(g)) == limit == turns


# ---------------------------------------------------------------- options


OPTION_VALUES = {
    "columns": [10, 11, 12],
    "setup_rows": [3, 4],
    "neutral_rows": [2, 3, 4, 5, 6],
    "volcanoes": [0, 1, 8, 9],
    "moves_per_turn": [1, 2],
    "no_return": ["next_turn", "until_moved"],
    "turn_limit": [0, 1, 1000],
}


@pytest.mark.parametrize(("name", "value"), [(k, v) for k, vs in OPTION_VALUES.items() for v in vs])
def test_every_option_value(name: str, value: object) -> None:
    g = started(7, {name: value})
    v = M.view(g, "black")
    o = v["options"]
    assert o[name] == value
    rows = 2 * o["setup_rows"] + o["neutral_rows"]
    assert len(v["volcanoes"]) == o["volcanoes"]
    assert all(o["setup_rows"] < r <= o["setup_rows"] + o["neutral_rows"] for r, _ in v["volcanoes"])
    mine = [p for p in v["pieces"] if p["color"] == "black"]
    theirs = [p for p in v["pieces"] if p["color"] == "white"]
    assert len(mine) == len(theirs) == 30
    assert all(p["row"] <= o["setup_rows"] and p["col"] <= o["columns"] for p in mine)
    assert all(p["row"] > rows - o["setup_rows"] for p in theirs)
    assert M.load_scenario(M.dump_scenario(g)) == g
    # a few moves under the option
    g2 = g
    for _ in range(6):
        if M.outcome(g2) is None:
            g2 = M.apply(g2, M.legal_actions(g2)[-1])


@pytest.mark.parametrize(
    "bad",
    [
        {"columns": 9},
        {"columns": 13},
        {"setup_rows": 2},
        {"neutral_rows": 1},
        {"neutral_rows": 7},
        {"volcanoes": 10},
        {"volcanoes": -1},
        {"moves_per_turn": 3},
        {"no_return": "never"},
        {"turn_limit": 1001},
        {"turn_limit": True},
        {"speed": 1},
    ],
)
def test_bad_option_raises_naming_it(bad: dict) -> None:
    (name,) = bad
    with pytest.raises(ValueError, match=name):
        M.new_game(bad)


def test_new_game_is_deterministic() -> None:
    assert M.new_game({"volcanoes": 5}, seed=4) == M.new_game({"volcanoes": 5}, seed=4)
    assert M.new_game(seed=None) == M.new_game(seed=0)
    assert M.DEFAULT_OPTIONS["volcanoes"] == 8


# --------------------------------------------------------------- scenario


@pytest.mark.parametrize(
    ("pieces", "extra", "words"),
    [
        ([("black", "king", 1, 1)], {}, "unknown type"),
        ([("red", "spy", 1, 1)], {}, "unknown colour"),
        ([("black", "spy", 11, 1)], {}, "off the"),
        ([("black", "spy", 1, 1), ("black", "mine", 1, 1)], {}, "second piece"),
        ([("black", "spy", 5, 5)], {"volcanoes": [[5, 5]]}, "volcano"),
        ([("black", "hq", 1, 1), ("black", "hq", 1, 2)], {}, "more than 1"),
        ([], {"surprise": 1}, "surprise"),
        ([], {"options": {"colour": 1}}, "colour"),
    ],
)
def test_impossible_scenarios_are_refused(pieces: list, extra: dict, words: str) -> None:
    from .helpers import doc

    with pytest.raises(ValueError, match=words):
        M.load_scenario(doc(pieces, **extra))


def test_mine_with_no_return_is_refused() -> None:
    d = {"pieces": [{"type": "mine", "color": "black", "row": 1, "col": 1, "no_return": [2, 1]}]}
    with pytest.raises(ValueError, match="never moves"):
        M.load_scenario(d)
