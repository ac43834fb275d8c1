"""Projectiles (Rocket, SAM, Torpedo) and Transports (Bike, Jump Pack, Scuba).

Manual lines: Rocket 129-134, 587-588; SAM 135-146, 597-605; Torpedo 147-163,
589-596; launchers fire at their own level whatever the firer's (155-159);
Transports 208-237, 505-512, 1951-1953; standard transport option 770-771.
Contract: docs/engine-api.md, "fire" (projectiles) and "Transports".
"""

from __future__ import annotations

import pytest

import games.rules.wec as wec

from .positions import (
    END,
    P,
    all_articles,
    apply,
    assert_illegal,
    at,
    by_id,
    drop,
    find,
    finish,
    fire,
    ground_at,
    make,
    move,
    own_view,
    pid,
    rounds,
    the,
    where,
)

DOWN = (1, 0)
UP = (-1, 0)


def projectiles(g) -> list:
    return wec.dump_scenario(g)["projectiles"]


# --- Rockets ---------------------------------------------------------------------------


def test_rocket_flies_one_square_at_the_end_of_each_firing_turn():
    g = make([P("rocket_pawn", "black", 3, 5), P("tank", "white", 6, 5)])
    g = apply(g, fire((3, 5), "rocket_launcher", DOWN))
    assert projectiles(g)  # waiting on the board
    g = finish(g)  # Black's Turn ends: (4,5)
    g = finish(g)  # White's Turn: the Rocket does not fly
    assert at(g, 6, 5) == [("tank", "white")]
    g = finish(g)  # (5,5)
    assert at(g, 6, 5) == [("tank", "white")]
    g = finish(g)
    g = finish(g)  # (6,5): hit
    assert at(g, 6, 5) == []
    assert projectiles(g) == []


def test_rocket_does_not_hit_the_firers_square_in_its_launch_turn():
    g = make([P("rocket_pawn", "black", 3, 5), P("tank", "white", 4, 5)])
    g = finish(apply(g, fire((3, 5), "rocket_launcher", DOWN)))
    assert at(g, 3, 5) == [("rocket_pawn", "black")]
    assert at(g, 4, 5) == []


def test_rocket_hits_a_piece_that_came_into_its_square():
    g = make([P("rocket_pawn", "black", 5, 5), P("flamer_pawn", "white", 7, 6)])
    g = finish(apply(g, fire((5, 5), "rocket_launcher", DOWN)))  # the Rocket waits at (6,5)
    g = apply(g, move((7, 6), (6, 5)))  # White walks into it
    g = finish(g)
    assert at(g, 6, 5) == [("flamer_pawn", "white")]
    g = finish(g)  # first it hits what is on its own Square
    assert at(g, 6, 5) == []


def test_rocket_hits_the_first_piece_met_even_a_friend():
    g = make([P("rocket_pawn", "black", 3, 5), P("tank", "black", 4, 5), P("tank", "white", 5, 5)])
    g = finish(apply(g, fire((3, 5), "rocket_launcher", DOWN)))
    assert at(g, 4, 5) == []
    g = rounds(g, 3)
    assert at(g, 5, 5) == [("tank", "white")]


def test_rocket_is_spent_on_a_piece_it_cannot_harm():
    g = make([P("rocket_pawn", "black", 3, 5), P("rocket_pawn", "white", 4, 5), P("tank", "white", 5, 5)])
    g = finish(apply(g, fire((3, 5), "rocket_launcher", DOWN)))
    assert at(g, 4, 5) == [("rocket_pawn", "white")]  # Anti-Rocket
    assert projectiles(g) == []
    g = rounds(g, 3)
    assert at(g, 5, 5) == [("tank", "white")]


def test_rocket_travels_at_ground_level_only():
    g = make([P("rocket_pawn", "black", 3, 5), P("jet", "white", 4, 5, "air"), P("sub", "white", 4, 5, "sub"),
              P("tank", "white", 5, 5)])
    g = finish(apply(g, fire((3, 5), "rocket_launcher", DOWN)))
    assert at(g, 4, 5, "air") == [("jet", "white")]
    assert at(g, 4, 5, "sub") == [("sub", "white")]
    g = rounds(g)
    assert at(g, 5, 5) == []


def test_rocket_fired_from_the_air_flies_at_ground_level():
    # l. 155-159: a Rocket Launcher Pawn carried by a Chopper fires a Rocket at Ground level.
    g = make([P("chopper", "black", 3, 5, "air"), P("rocket_pawn", "black", 3, 5, "air"),
              P("jet", "white", 4, 5, "air"), P("tank", "white", 4, 5)])
    pawn = pid(g, 3, 5, "air", "rocket_pawn")
    g = apply(g, fire((3, 5, "air"), "rocket_launcher", DOWN, piece=pawn))
    g = finish(g)
    assert at(g, 4, 5) == []
    assert at(g, 4, 5, "air") == [("jet", "white")]


def test_rocket_leaves_the_board():
    g = make([P("rocket_pawn", "black", 9, 5)])
    g = finish(apply(g, fire((9, 5), "rocket_launcher", DOWN)))  # (10,5)
    g = rounds(g)  # off the board
    assert projectiles(g) == []


def test_rockets_do_not_home():
    g = make([P("rocket_pawn", "black", 3, 5), P("tank", "white", 5, 5)])
    assert_illegal(g, fire((3, 5), "rocket_launcher", target=(5, 5, "ground")))


def test_two_rockets_in_one_turn_overwhelm_one_anti_rocket():
    g = make([P("rocket_pawn", "black", 3, 5), P("rocket_pawn", "black", 3, 7), P("rocket_pawn", "white", 4, 6)])
    g = apply(g, fire((3, 5), "rocket_launcher", (1, 1)), fire((3, 7), "rocket_launcher", (1, -1)))
    g = finish(g)
    assert at(g, 4, 6) == []


# --- SAMs and Torpedoes ----------------------------------------------------------------


def test_sam_flies_at_air_level_whatever_the_firers_level():
    g = make([P("aaa", "black", 3, 5), P("jet", "white", 4, 5, "air"), P("tank", "white", 4, 5)])
    g = finish(apply(g, fire((3, 5), "sam_launcher", DOWN)))
    assert at(g, 4, 5, "air") == []
    assert at(g, 4, 5) == [("tank", "white")]


def test_torpedo_flies_at_sub_level_whatever_the_firers_level():
    g = make([P("destroyer", "black", 3, 5), P("sub", "white", 4, 5, "sub"), P("tank", "white", 4, 5)])
    g = finish(apply(g, fire((3, 5), "torpedo_launcher", DOWN)))
    assert at(g, 4, 5, "sub") == []
    assert at(g, 4, 5) == [("tank", "white")]


def test_sam_fired_from_the_air_hits_the_first_air_piece_even_a_friend():
    g = make([P("jet", "black", 3, 5, "air"), P("jet", "black", 4, 5, "air"), P("jet", "white", 5, 5, "air")])
    g = finish(apply(g, fire((3, 5, "air"), "sam_launcher", DOWN)))
    assert at(g, 4, 5, "air") == []
    g = rounds(g, 2)
    assert at(g, 5, 5, "air") == [("jet", "white")]


def test_homing_sam_follows_its_target():
    g = make([P("aaa", "black", 5, 5), P("jet", "white", 8, 5, "air")])
    g = apply(g, fire((5, 5), "sam_launcher", target=(8, 5, "air")))
    g = finish(g)  # SAM at (6,5)
    g = apply(g, move((8, 5, "air"), (8, 7, "air")), END)  # the Jet dodges sideways
    g = finish(g)  # SAM at (7,6)
    assert at(g, 8, 7, "air") == [("jet", "white")]
    g = finish(g)
    g = finish(g)  # SAM at (8,7): hit
    assert at(g, 8, 7, "air") == []


def test_directional_sam_misses_a_dodging_jet():
    g = make([P("aaa", "black", 5, 5), P("jet", "white", 8, 5, "air")])
    g = apply(g, fire((5, 5), "sam_launcher", DOWN))
    g = finish(g)
    g = apply(g, move((8, 5, "air"), (8, 7, "air")), END)
    g = rounds(g, 4)
    assert at(g, 8, 7, "air") == [("jet", "white")]


@pytest.mark.parametrize("homing_range, distance, ok", [(3, 3, True), (3, 4, False), (4, 4, True), (0, 1, False)])
def test_homing_range(homing_range, distance, ok):
    g = make([P("aaa", "black", 4, 5), P("jet", "white", 4 + distance, 5, "air")],
             options={"homing_range": homing_range})
    action = fire((4, 5), "sam_launcher", target=(4 + distance, 5, "air"))
    if ok:
        apply(g, action)
    else:
        assert_illegal(g, action)


def test_homing_target_must_be_a_seen_enemy_at_the_projectiles_level():
    g = make([P("aaa", "black", 4, 5), P("jet", "black", 5, 5, "air"), P("tank", "white", 6, 5),
              P("jet", "white", 6, 6, "air")])
    assert_illegal(g, fire((4, 5), "sam_launcher", target=(5, 5, "air")))  # a friend
    assert_illegal(g, fire((4, 5), "sam_launcher", target=(6, 5, "ground")))  # not air
    assert_illegal(g, fire((4, 5), "sam_launcher", target=(6, 7, "air")))  # nobody there
    assert_illegal(g, fire((4, 5), "torpedo_launcher", target=(6, 6, "air")))  # not its weapon
    apply(g, fire((4, 5), "sam_launcher", target=(6, 6, "air")))


def test_homing_on_an_unseen_piece_is_refused():
    g = make([P("aaa", "black", 4, 5), P("jet", "white", 6, 5, "air", articles=["stealth"])], visible=False)
    assert not [p for p in wec.view(g, "black")["pieces"] if p["type"] == "jet"]
    assert_illegal(g, fire((4, 5), "sam_launcher", target=(6, 5, "air")))


def test_homing_sam_loses_its_lock_when_the_target_lands():
    # The SAM homes on the Jet at (8,8) from (5,5): first step (6,6), heading
    # (1,1). The Jet lands; the SAM flies on that way and meets the other Jet.
    g = make([P("aaa", "black", 5, 5), P("jet", "white", 8, 8, "air"), P("jet", "white", 9, 9, "air")])
    target = pid(g, 8, 8, "air", "jet")
    g = finish(apply(g, fire((5, 5), "sam_launcher", target=(8, 8, "air"))))  # (6,6)
    g = apply(g, move((8, 8, "air"), (8, 8, "ground")), END)
    g = rounds(g, 3)  # (7,7), (8,8), (9,9)
    assert where(by_id(g, target)) == (8, 8, "ground")
    assert at(g, 9, 9, "air") == []


def test_homing_torpedo_loses_its_lock_when_the_target_surfaces():
    g = make([P("destroyer", "black", 5, 5), P("sub", "white", 8, 8, "sub"), P("sub", "white", 9, 9, "sub")])
    target = pid(g, 8, 8, "sub", "sub")
    g = finish(apply(g, fire((5, 5), "torpedo_launcher", target=(8, 8, "sub"))))
    g = apply(g, move((8, 8, "sub"), (8, 8, "ground")), END)
    g = rounds(g, 3)
    assert where(by_id(g, target)) == (8, 8, "ground")
    assert at(g, 9, 9, "sub") == []


def test_homing_torpedo_follows_its_target():
    g = make([P("destroyer", "black", 5, 5), P("sub", "white", 8, 5, "sub")])
    g = finish(apply(g, fire((5, 5), "torpedo_launcher", target=(8, 5, "sub"))))  # (6,5)
    g = apply(g, move((8, 5, "sub"), (8, 6, "sub")), END)
    g = finish(g)  # (7,6)
    g = apply(g, move((8, 6, "sub"), (8, 7, "sub")), END)
    g = finish(g)  # (8,7): hit
    assert find(g, "sub") == []


# --- Transports ------------------------------------------------------------------------


def _bike(to, *, path=None, extra=(), options=None, articles=("bike",), kind="rocket_pawn", start=(3, 5)):
    g = make([P(kind, "black", *start, articles=list(articles))] + list(extra), options=options)
    ident = pid(g, *start, "ground", kind)
    return g, ident


def test_bike_moves_one_square_at_once_then_one_per_own_turn():
    g, p = _bike((6, 5))
    g = apply(g, fire((3, 5), "bike", to=(6, 5, "ground")))
    assert where(by_id(g, p)) == (4, 5, "ground")
    assert own_view(g, "black", p).get("transport")
    g = finish(g)
    assert where(by_id(g, p)) == (4, 5, "ground")  # not in the Turn it was fired
    g = finish(g)
    assert where(by_id(g, p)) == (4, 5, "ground")  # nor in White's Turn
    g = finish(g)
    assert where(by_id(g, p)) == (5, 5, "ground")
    g = rounds(g)
    assert where(by_id(g, p)) == (6, 5, "ground")
    assert not own_view(g, "black", p).get("transport")
    g = rounds(g)
    assert where(by_id(g, p)) == (6, 5, "ground")


def test_piece_in_transport_does_not_move():
    g, p = _bike((7, 5))
    g = apply(g, fire((3, 5), "bike", to=(7, 5, "ground")))
    assert wec.move_targets(g, 4, 5, "ground") == set()
    assert_illegal(g, move((4, 5), (5, 6)))
    g = rounds(g)
    assert where(by_id(g, p)) == (4, 5, "ground")
    assert wec.move_targets(g, 4, 5, "ground") == set()


def test_transport_article_in_use_cannot_be_dropped():
    g, p = _bike((7, 5))
    g = apply(g, fire((3, 5), "bike", to=(7, 5, "ground")))
    assert_illegal(g, drop((4, 5), "bike"))


def test_transport_needs_the_article():
    g, p = _bike((6, 5), articles=())
    assert_illegal(g, fire((3, 5), "bike", to=(6, 5, "ground")))
    assert_illegal(g, fire((3, 5), "jump_pack", to=(6, 5, "ground")))


def test_jump_pack_lifts_then_flies_and_lands_on_arrival():
    g, p = _bike((5, 5), articles=("jump_pack",))
    g = apply(g, fire((3, 5), "jump_pack", to=(5, 5, "ground")))
    assert where(by_id(g, p)) == (3, 5, "air")
    g = rounds(g)
    assert where(by_id(g, p)) == (3, 5, "air")
    g = finish(g)
    assert where(by_id(g, p)) == (4, 5, "air")
    g = rounds(g)
    assert where(by_id(g, p)) == (5, 5, "ground")
    assert not own_view(g, "black", p).get("transport")


def test_scuba_submerges_then_travels_and_surfaces_on_arrival():
    g, p = _bike((5, 5), articles=("scuba",))
    g = apply(g, fire((3, 5), "scuba", to=(5, 5, "ground")))
    assert where(by_id(g, p)) == (3, 5, "sub")
    g = rounds(g)
    g = finish(g)
    assert where(by_id(g, p)) == (4, 5, "sub")
    g = rounds(g)
    assert where(by_id(g, p)) == (5, 5, "ground")


def test_jump_pack_flies_over_ground_pieces():
    g, p = _bike((6, 5), articles=("jump_pack",), extra=[P("tank", "white", 4, 5), P("tank", "black", 5, 5)])
    g = apply(g, fire((3, 5), "jump_pack", to=(6, 5, "ground")))
    g = rounds(g, 4)
    assert where(by_id(g, p)) == (6, 5, "ground")
    assert at(g, 4, 5) == [("tank", "white")]


def _route(path, to):
    """The Squares a Black Bike Pawn passes from (3,5) to ``to`` (4 steps)."""
    g, p = _bike(to)
    g = apply(g, fire((3, 5), "bike", to=(*to, "ground"), path=path))
    squares = [(by_id(g, p)["row"], by_id(g, p)["col"])]  # first Square, at once
    g = rounds(g)  # nothing more in the Turn it was fired
    for _ in range(3):
        g = finish(g)
        squares.append((by_id(g, p)["row"], by_id(g, p)["col"]))
        g = finish(g)
    assert where(by_id(g, p)) == (*to, "ground")
    assert not own_view(g, "black", p).get("transport")
    return squares


def _line_col(row):
    # The straight line from (3,5) to (7,7): col = 5 + (row - 3) / 2.
    return 5 + (row - 3) / 2


@pytest.mark.parametrize("path", [None, "beeline"])
def test_beeline_route_keeps_close_to_the_straight_line(path):
    assert _route(path, (7, 5)) == [(4, 5), (5, 5), (6, 5), (7, 5)]
    squares = _route(path, (7, 7))
    assert [r for r, _ in squares] == [4, 5, 6, 7]
    assert all(abs(c - _line_col(r)) <= 0.5 for r, c in squares), squares


def test_port_and_starboard_routes_bend_to_the_left_and_right():
    # Black heads +row, so the port (left) side of its route is the lower columns.
    port, starboard = _route("port", (7, 7)), _route("starboard", (7, 7))
    assert [r for r, _ in port] == [4, 5, 6, 7] and [r for r, _ in starboard] == [4, 5, 6, 7]
    assert all(c <= _line_col(r) for r, c in port), port
    assert all(c >= _line_col(r) for r, c in starboard), starboard
    assert port != starboard
    assert port == [(4, 5), (5, 5), (6, 6), (7, 7)]
    assert starboard == [(4, 6), (5, 7), (6, 7), (7, 7)]


def test_bike_into_an_enemy_crashes_before_it_and_takes_nothing():
    # Transport is non-combat (l. 510-513, 795-797; docs/rulings.md, "Transports").
    g, p = _bike((6, 5), extra=[P("tank", "white", 5, 5, articles=["scuba"])])
    before = all_articles(g)
    g = apply(g, fire((3, 5), "bike", to=(6, 5, "ground")))
    g = finish(finish(g))
    g = finish(g)
    assert where(by_id(g, p)) == (4, 5, "ground")
    assert not by_id(g, p).get("transport")
    assert len(find(g, "tank", "white")) == 1
    assert all_articles(g) == before
    g = rounds(g)
    assert where(by_id(g, p)) == (4, 5, "ground")


def test_bike_crashes_into_a_friend_it_cannot_share_with():
    g, p = _bike((6, 5), extra=[P("flamer_pawn", "black", 5, 5)])
    g = apply(g, fire((3, 5), "bike", to=(6, 5, "ground")))
    g = rounds(g, 3)
    assert where(by_id(g, p)) == (4, 5, "ground")
    assert at(g, 5, 5) == [("flamer_pawn", "black")]
    assert not own_view(g, "black", p).get("transport")


def test_bike_shares_with_a_friend_that_coexists():
    g, p = _bike((5, 5), extra=[P("dozer", "black", 5, 5)])
    g = apply(g, fire((3, 5), "bike", to=(5, 5, "ground")))
    g = rounds(g, 2)
    assert at(g, 5, 5) == [("dozer", "black"), ("rocket_pawn", "black")]


def test_jump_pack_crash_comes_down_in_its_square():
    g, p = _bike((6, 5), articles=("jump_pack",),
                 extra=[P("jet", "black", 4, 5, "air"), P("jet", "black", 4, 5, "air")])
    g = apply(g, fire((3, 5), "jump_pack", to=(6, 5, "ground")))
    g = rounds(g)
    g = finish(g)  # tries (4,5) air: full of friends
    assert where(by_id(g, p)) == (3, 5, "ground")
    assert at(g, 4, 5, "air") == [("jet", "black"), ("jet", "black")]


def test_jump_pack_crash_destroys_the_piece_when_its_ground_is_held_by_the_enemy():
    g, p = _bike((6, 5), articles=("jump_pack",),
                 extra=[P("jet", "black", 4, 5, "air"), P("jet", "black", 4, 5, "air"), P("dozer", "white", 4, 4)])
    before = all_articles(g)
    g = finish(apply(g, fire((3, 5), "jump_pack", to=(6, 5, "ground"))))
    g = apply(g, move((4, 4), (3, 5)), END)  # White's Dozer stands under the Pawn
    g = finish(g)
    assert by_id(g, p) is None
    assert at(g, 3, 5) == [("dozer", "white")]
    assert all_articles(g) == before


def test_stunned_jump_pack_piece_comes_down_and_loses_its_jump_pack():
    g, p = _bike((6, 5), articles=("jump_pack",), extra=[P("jet", "white", 3, 8, "air", articles=["stunner"])])
    g = finish(apply(g, fire((3, 5), "jump_pack", to=(6, 5, "ground"))))
    g = apply(g, fire((3, 8, "air"), "stunner", (0, -1)))
    q = by_id(g, p)
    assert where(q) == (3, 5, "ground")
    assert q.get("stun") == 3
    assert q["articles"] == [] and ground_at(g, 3, 5) == ["jump_pack"]
    g = finish(g)
    assert not own_view(g, "black", p).get("transport")
    g = finish(g)
    assert where(by_id(g, p)) == (3, 5, "ground")


def test_ground_to_ground_only_by_default():
    g, p = _bike((5, 5), articles=("jump_pack",))
    assert_illegal(g, fire((3, 5), "jump_pack", to=(5, 5, "air")))


def test_without_ground_to_ground_only_a_transport_may_end_in_the_air_but_comes_down_without_a_carrier():
    # docs/engine-api.md: "the Piece stays there only if a friendly Chopper or
    # Sub is there to carry it, else it comes down".
    g, p = _bike((5, 5), articles=("jump_pack",), options={"transport_ground_to_ground_only": False})
    g = apply(g, fire((3, 5), "jump_pack", to=(5, 5, "air")))
    g = rounds(g, 3)
    assert where(by_id(g, p)) == (5, 5, "ground")
    assert not own_view(g, "black", p).get("transport")


def test_transport_may_end_with_a_friendly_carrier_at_its_level():
    g, p = _bike((5, 5), articles=("scuba",), extra=[P("sub", "black", 5, 5, "sub")],
                 options={"transport_ground_to_ground_only": False})
    g = apply(g, fire((3, 5), "scuba", to=(5, 5, "sub")))
    g = rounds(g, 3)
    assert where(by_id(g, p)) == (5, 5, "sub")
    assert at(g, 5, 5, "sub") == [("rocket_pawn", "black"), ("sub", "black")]


def _carried(options=None):
    g = make([P("chopper", "black", 3, 5, "air"), P("rocket_pawn", "black", 3, 5, "air", articles=["jump_pack"])],
             options=options)
    return g, pid(g, 3, 5, "air", "rocket_pawn")


def test_carried_piece_fires_its_jump_pack_only_with_transport_from_carrier():
    g, p = _carried()
    assert_illegal(g, fire((3, 5, "air"), "jump_pack", to=(6, 5, "ground"), piece=p))
    g, p = _carried({"transport_from_carrier": True, "transport_ground_to_ground_only": False})
    g = apply(g, fire((3, 5, "air"), "jump_pack", to=(6, 5, "ground"), piece=p))
    assert own_view(g, "black", p).get("transport")


def test_a_passenger_may_start_a_ground_to_ground_transport_with_the_carrier_option():
    # docs/engine-api.md "Transports": the Piece must start at ground "except a
    # passenger, with transport_from_carrier"; the destination stays on the ground.
    g, p = _carried({"transport_from_carrier": True})
    after = wec.apply(g, fire((3, 5, "air"), "jump_pack", to=(6, 5, "ground"), piece=p))
    assert after.pieces[p].transport is not None
    assert_illegal(g, fire((3, 5, "air"), "jump_pack", to=(6, 5, "air"), piece=p))
    g, p = _carried({})
    assert_illegal(g, fire((3, 5, "air"), "jump_pack", to=(6, 5, "ground"), piece=p))


def test_transport_from_carrier_needs_the_matching_level():
    # From the air only a Jump Pack; a Scuba needs the sub level.
    g = make([P("chopper", "black", 3, 5, "air"), P("rocket_pawn", "black", 3, 5, "air", articles=["scuba"])],
             options={"transport_from_carrier": True, "transport_ground_to_ground_only": False})
    p = pid(g, 3, 5, "air", "rocket_pawn")
    assert_illegal(g, fire((3, 5, "air"), "scuba", to=(6, 5, "ground"), piece=p))


def test_transport_to_is_required_and_on_the_board():
    g, p = _bike((6, 5))
    assert_illegal(g, fire((3, 5), "bike"))
    assert_illegal(g, fire((3, 5), "bike", to=(11, 5, "ground")))
    assert_illegal(g, fire((3, 5), "bike", to=(6, 5, "ground"), path="zigzag"))


def test_legal_actions_offer_transports_and_each_applies():
    g, p = _bike((6, 5), extra=[P("rocket_pawn", "black", 5, 7, articles=["jump_pack"])])
    acts = [a for a in wec.legal_actions(g) if a["type"] == "fire"]
    assert any(a["weapon"] == "bike" and a["to"] == [6, 5, "ground"] for a in acts)
    assert any(a["weapon"] == "jump_pack" and a["to"] == [8, 7, "ground"] for a in acts)
    for a in acts:
        wec.apply(g, a)


@pytest.mark.parametrize("g2g", [True, False])
def test_legal_transport_actions_are_distinct(g2g):
    g, p = _bike((6, 5), extra=[P("rocket_pawn", "black", 5, 7, articles=["jump_pack"])],
                 options={"transport_ground_to_ground_only": g2g})
    acts = [repr(sorted(a.items())) for a in wec.legal_actions(g)]
    dupes = {a for a in acts if acts.count(a) > 1}
    assert not dupes, sorted(dupes)[:3]


def test_rocket_kills_keep_articles():
    g = make([P("rocket_pawn", "black", 3, 5), P("tank", "white", 4, 5, articles=["bike"])])
    before = all_articles(g)
    g = finish(apply(g, fire((3, 5), "rocket_launcher", DOWN)))
    assert at(g, 4, 5) == []
    assert all_articles(g) == before
    assert ground_at(g, 4, 5) == ["bike"]


def test_projectile_leaves_the_board_at_the_edge():
    g = make([P("aaa", "black", 9, 5), P("jet", "white", 10, 6, "air")])
    g = finish(apply(g, fire((9, 5), "sam_launcher", DOWN)))
    g = rounds(g, 2)
    assert projectiles(g) == []
    assert the(g, "jet", "white")


def test_stunned_bike_piece_stops_and_loses_its_bike():
    g, p = _bike((7, 5), extra=[P("stunner_pawn", "white", 4, 8)])
    g = finish(apply(g, fire((3, 5), "bike", to=(7, 5, "ground"))))  # the Pawn is at (4,5)
    g = finish(apply(g, fire((4, 8), "stunner", (0, -1))))
    q = by_id(g, p)
    assert where(q) == (4, 5, "ground") and q["articles"] == [] and q.get("stun") == 3
    assert ground_at(g, 4, 5) == ["bike"]
    g = rounds(g, 2)
    assert where(by_id(g, p)) == (4, 5, "ground")


def test_stunned_scuba_piece_comes_up_to_the_ground():
    g, p = _bike((6, 5), articles=("scuba",), extra=[P("sub", "white", 3, 8, "sub", articles=["stunner"])])
    g = finish(apply(g, fire((3, 5), "scuba", to=(6, 5, "ground"))))
    g = apply(g, fire((3, 8, "sub"), "stunner", (0, -1)))
    q = by_id(g, p)
    assert where(q) == (3, 5, "ground") and q.get("stun") == 3
    assert ground_at(g, 3, 5) == ["scuba"]


def test_stunned_sub_stays_at_sub_level():
    g = make([P("sub", "black", 3, 5, "sub", articles=["stunner"]), P("sub", "white", 6, 5, "sub")])
    target = pid(g, 6, 5, "sub", "sub")
    g = apply(g, fire((3, 5, "sub"), "stunner", DOWN))
    assert where(by_id(g, target)) == (6, 5, "sub")
    assert by_id(g, target).get("stun") == 3


def test_passenger_of_a_destroyed_carrier_comes_down():
    g = make([P("aaa", "black", 3, 5), P("chopper", "white", 4, 5, "air"),
              P("rocket_pawn", "white", 4, 5, "air", articles=["anti_sam"])])
    pawn = pid(g, 4, 5, "air", "rocket_pawn")
    g = finish(apply(g, fire((3, 5), "sam_launcher", DOWN)))
    assert find(g, "chopper") == []
    assert where(by_id(g, pawn)) == (4, 5, "ground")


def test_passenger_of_a_destroyed_carrier_dies_over_enemy_ground():
    g = make([P("aaa", "black", 3, 5), P("chopper", "white", 4, 5, "air"),
              P("rocket_pawn", "white", 4, 5, "air", articles=["anti_sam"]), P("tank", "black", 4, 5)])
    g = finish(apply(g, fire((3, 5), "sam_launcher", DOWN)))
    assert find(g, "chopper") == [] and find(g, "rocket_pawn") == []
    assert at(g, 4, 5) == [("tank", "black")]
