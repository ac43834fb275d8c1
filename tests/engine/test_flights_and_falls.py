"""Things in flight and things that fall, each from a described position and
the manual's words (shared/seeds/001_e7d07cd680448a43.txt, cited by line):
Transport routes and crashes at every level, projectiles meeting projectiles
and Pieces at each level, homing, stun falls and countdowns.

Squares are (row, col); Black moves first and its forward is +row. The kings
wait at (1, 1) and (10, 1) unless a test says otherwise.
"""

from __future__ import annotations

import pytest

import games.rules.wec as wec

from .positions import (
    END,
    P,
    apply,
    assert_illegal,
    at,
    find,
    finish,
    fire,
    make,
    move,
    pid,
    stun,
)

DOWN = (1, 0)
UP = (-1, 0)


def projectiles(g) -> list:
    return wec.dump_scenario(g)["projectiles"]


def with_projectiles(g, *projs):
    doc = wec.dump_scenario(g)
    doc["projectiles"] = list(projs)
    return wec.load_scenario(doc)


def proj(kind, row, col, direction, color="black", strength=1, target=None):
    level = {"rocket": "ground", "sam": "air", "torpedo": "sub"}[kind]
    return {"kind": kind, "color": color, "row": row, "col": col, "level": level, "direction": list(direction),
            "target": target, "strength": strength, "fresh": False}


# --- Transport routes over every level, and crashes (l. 208-237, 597-602, 1951-1955) -----------


def test_a_scuba_route_passes_under_ground_pieces():
    g = make([P("tank", "black", 3, 4, hand="right", articles=["scuba"]), P("rocket_pawn", "white", 4, 4),
              P("rocket_pawn", "white", 5, 4)])
    g = apply(g, fire((3, 4), "scuba", to=[6, 4, "ground"]))
    g = finish(finish(g))  # the launch Turn ends without a step
    for row in (4, 5):
        g = finish(g)  # each later Black Turn's end: one Square on
        assert at(g, row, 4, "sub") == [("tank", "black")]
        assert at(g, row, 4) == [("rocket_pawn", "white")]
        g = finish(g)
    g = finish(g)
    assert at(g, 6, 4) == [("tank", "black")]  # surfaces on arrival


def test_a_jump_pack_route_shares_the_air_with_a_friendly_jet():
    # The Jet coexists (l. 657): the flyer passes through its Square.
    g = make([P("rocket_pawn", "black", 3, 4, articles=["jump_pack"]), P("jet", "black", 5, 4, "air")])
    g = apply(g, fire((3, 4), "jump_pack", to=[6, 4, "ground"]))
    g = finish(finish(g))
    g = finish(finish(g))
    assert at(g, 4, 4, "air") == [("rocket_pawn", "black")]
    g = finish(g)  # Black's Turn ends: into the Chopper's air Square
    assert at(g, 5, 4, "air") == [("jet", "black"), ("rocket_pawn", "black")]


def test_a_jump_pack_crashes_into_a_full_friendly_air_square_and_comes_down():
    g = make([P("rocket_pawn", "black", 4, 4, articles=["jump_pack"]), P("jet", "black", 5, 4, "air"),
              P("jet", "black", 5, 4, "air")])
    g = apply(g, fire((4, 4), "jump_pack", to=[7, 4, "ground"]))
    g = finish(finish(g))
    g = finish(g)
    assert at(g, 4, 4) == [("rocket_pawn", "black")]
    assert not find(g, "rocket_pawn", "black")[0].get("transport")


def test_a_scuba_crashes_into_a_full_friendly_sub_square_and_surfaces():
    g = make([P("dozer", "black", 4, 4, articles=["scuba"]), P("sub", "black", 5, 4, "sub"),
              P("sub", "black", 5, 4, "sub")])
    g = apply(g, fire((4, 4), "scuba", to=[7, 4, "ground"]))
    g = finish(finish(g))
    g = finish(g)
    assert at(g, 4, 4) == [("dozer", "black")]


def test_a_bike_crash_keeps_the_piece_where_it_stands():
    g = make([P("tank", "black", 4, 4, hand="right", articles=["bike"]), P("rocket_pawn", "black", 6, 4)])
    g = apply(g, fire((4, 4), "bike", to=[8, 4, "ground"]))
    g = finish(finish(g))
    g = finish(g)
    assert at(g, 5, 4) == [("tank", "black")]
    assert at(g, 6, 4) == [("rocket_pawn", "black")]


# --- projectiles and what they meet (l. 127-163, 1872-1877) ---------------------------------


def test_two_rockets_pass_each_other():
    # A Rocket ends only by hitting a Piece or leaving the board (l. 128-130).
    g = make([P("rocket_pawn", "black", 2, 5), P("rocket_pawn", "white", 9, 5)])
    g = with_projectiles(g, proj("rocket", 5, 5, DOWN), proj("rocket", 6, 5, UP, color="white"))
    g = finish(g)  # the black Rocket flies to (6, 5), where the white one waits
    assert sorted((p["row"], p["col"], p["color"]) for p in projectiles(g)) == [(6, 5, "black"), (6, 5, "white")]
    g = finish(g)  # the white one flies on to (5, 5)
    assert sorted((p["row"], p["col"], p["color"]) for p in projectiles(g)) == [(5, 5, "white"), (6, 5, "black")]


@pytest.mark.parametrize("kind, level, hits", [
    ("rocket", "ground", True), ("rocket", "air", False), ("rocket", "sub", False),
    ("sam", "ground", False), ("sam", "air", True), ("sam", "sub", False),
    ("torpedo", "ground", False), ("torpedo", "air", False), ("torpedo", "sub", True),
])
def test_a_projectile_hits_only_pieces_at_its_own_level(kind, level, hits):
    # Rocket at Ground, SAM at Air, Torpedo at Sub level (l. 127-153).
    target = {"ground": "dozer", "air": "jet", "sub": "sub"}[level]
    g = make([P(target, "white", 6, 5, level)])
    g = with_projectiles(g, proj(kind, 5, 5, DOWN))
    g = finish(g)
    assert (at(g, 6, 5, level) == []) is hits
    if not hits:
        assert [(p["row"], p["col"]) for p in projectiles(g)] == [(6, 5)]


def test_two_rockets_hitting_one_piece_in_a_turn_beat_one_anti_rocket():
    # "multiple same-level projectiles hit" stack (l. 1876-1881).
    g = make([P("dozer", "white", 6, 5, articles=["anti_rocket"])])
    g = with_projectiles(g, proj("rocket", 5, 5, DOWN), proj("rocket", 6, 4, (0, 1)))
    g = finish(g)
    assert at(g, 6, 5) == []


def test_one_rocket_does_not_beat_one_anti_rocket():
    g = make([P("dozer", "white", 6, 5, articles=["anti_rocket"])])
    g = with_projectiles(g, proj("rocket", 5, 5, DOWN))
    g = finish(g)
    assert at(g, 6, 5) == [("dozer", "white")]
    assert projectiles(g) == []  # spent on the Piece it could not harm


# --- homing (l. 139-141, 158-160, 606-618, 763-764, 807-808) ----------------------------------


def test_a_homing_sam_loses_its_lock_when_its_target_is_converted():
    # A homing projectile follows an enemy; a converted target is a friend now.
    g = make([P("jet", "black", 2, 5, "air"), P("jet", "white", 5, 5, "air")])
    g = apply(g, fire((2, 5, "air"), "sam_launcher", target=[5, 5, "air"]))
    assert projectiles(g)[0]["target"] is not None
    doc = wec.dump_scenario(g)
    for p in doc["pieces"]:
        if p["type"] == "jet" and p["color"] == "white":
            p["color"] = "black"
    g = wec.load_scenario(doc)
    g = finish(g)
    [sam] = projectiles(g)
    assert sam["target"] is None


@pytest.mark.parametrize("homing_range", [0, 1, 2, 3, 5, 9])
def test_homing_range_bounds_the_lock(homing_range):
    g = make([P("jet", "black", 2, 5, "air"), P("jet", "white", 5, 5, "air")],
             options={"homing_range": homing_range})
    action = fire((2, 5, "air"), "sam_launcher", target=[5, 5, "air"])
    if homing_range >= 3:
        g = apply(g, action)
        assert projectiles(g)[0]["target"] is not None
    else:
        assert_illegal(g, action)


def test_a_homing_torpedo_turns_toward_its_moving_target():
    g = make([P("destroyer", "black", 3, 5), P("sub", "white", 6, 6, "sub")])
    g = apply(g, fire((3, 5), "torpedo_launcher", target=[6, 6, "sub"]))
    g = finish(g)
    assert [(p["row"], p["col"]) for p in projectiles(g)] == [(4, 6)]
    g = apply(g, move((6, 6, "sub"), (6, 7, "sub")), END)
    g = finish(g)
    assert [(p["row"], p["col"]) for p in projectiles(g)] == [(5, 7)]


# --- stun falls and countdowns (l. 117-121, 591-602, 765) ---------------------------------------


def test_a_stunned_chopper_and_its_passenger_come_down_together():
    g = make([P("chopper", "black", 5, 5, "air", hand="right"), P("rocket_pawn", "black", 5, 5, "air"),
              P("jet", "white", 7, 5, "air", articles=["stunner"])], to_move="white")
    g = apply(g, fire((7, 5, "air"), "stunner", UP))
    assert at(g, 5, 5, "air") == []
    assert at(g, 5, 5) == [("chopper", "black"), ("rocket_pawn", "black")]
    assert all(stun(g, p["id"]) == 3 for p in find(g, "chopper") + find(g, "rocket_pawn"))


def test_a_stunned_passenger_of_a_sub_comes_up():
    # A Piece away from its level by carriage cannot stay there unconscious
    # (docs/rulings.md, "Stunned Pieces off the ground").
    g = make([P("sub", "black", 5, 5, "sub"), P("rocket_pawn", "black", 5, 5, "sub"),
              P("sub", "white", 7, 5, "sub", articles=["stunner"])], to_move="white")
    g = apply(g, fire((7, 5, "sub"), "stunner", UP))
    assert at(g, 5, 5, "sub") == [("sub", "black")]
    assert at(g, 5, 5) == [("rocket_pawn", "black")]


def test_a_stunned_piece_over_enemy_ground_is_destroyed():
    g = make([P("jet", "black", 5, 5, "air"), P("rocket_pawn", "white", 5, 5),
              P("jet", "white", 7, 5, "air", articles=["stunner"])], to_move="white")
    g = apply(g, fire((7, 5, "air"), "stunner", UP))
    assert find(g, "jet", "black") == []


@pytest.mark.parametrize("stun_turns", [1, 2, 3, 5])
def test_a_stun_counts_down_over_the_stunned_sides_turns(stun_turns):
    g = make([P("dozer", "black", 5, 5), P("stunner_pawn", "white", 7, 5)], to_move="white",
             options={"stun_turns": stun_turns})
    g = apply(g, fire((7, 5), "stunner", UP))
    tank = pid(g, 5, 5, "ground", "dozer")
    assert stun(g, tank) == stun_turns
    g = finish(g)  # White's Turn ends: Black's counter does not move
    for left in range(stun_turns, 0, -1):
        assert stun(g, tank) == left
        assert wec.move_targets(g, 5, 5, "ground") == set()
        g = finish(finish(g))
    assert stun(g, tank) == 0
    assert wec.move_targets(g, 5, 5, "ground")
