"""Fires: Flamer, Stunner, Conversion, the Jet's restricted Rocket, stacking of
attacks and defences, rates of fire and the Turn's limits on Fires.

Manual lines: Flamer 116-119, 574-575; Stunner 120-126, 580-586, 1869;
Conversion 127-128, 576-579, 284-292, 1899-1915; Jet 238-243, 762-763;
stacking 1870-1885; rates 163-166, 772-775; two Fires 9-13, 48-50.
Contract: docs/engine-api.md, "Turn rules" and "fire".
"""

from __future__ import annotations

import pytest

import games.rules.wec as wec

from .positions import (
    END,
    A,
    P,
    all_articles,
    apply,
    assert_illegal,
    at,
    by_id,
    cooldown,
    exchange,
    find,
    finish,
    fire,
    ground,
    ground_at,
    make,
    move,
    pickup,
    pid,
    rounds,
    stun,
    the,
    turn,
)

DOWN = (1, 0)  # Black's forward
UP = (-1, 0)  # White's forward
RIGHT = (0, 1)  # toward higher columns
LEFT = (0, -1)


# --- Flamer ----------------------------------------------------------------------------


def test_flamer_destroys_pieces_one_and_two_squares_away_at_level():
    g = make([
        P("tank", "black", 4, 5),
        P("rocket_pawn", "white", 5, 5),
        P("rocket_pawn", "white", 6, 5),
        P("rocket_pawn", "white", 7, 5),
        P("jet", "white", 5, 5, "air"),
    ])
    g = apply(g, fire((4, 5), "flamer", DOWN))
    assert at(g, 5, 5) == [] and at(g, 6, 5) == []
    assert at(g, 7, 5) == [("rocket_pawn", "white")]  # third Square: out of range
    assert at(g, 5, 5, "air") == [("jet", "white")]  # other level: untouched
    assert at(g, 4, 5) == [("tank", "black")]


@pytest.mark.parametrize("reach", [1, 2, 3])
def test_flamer_range_option(reach):
    g = make(
        [P("tank", "black", 4, 5)] + [P("rocket_pawn", "white", r, 5) for r in (5, 6, 7, 8)],
        options={"flamer_range": reach},
    )
    g = apply(g, fire((4, 5), "flamer", DOWN))
    for r in (5, 6, 7, 8):
        assert (at(g, r, 5) == []) == (r - 4 <= reach), r


def test_flamer_hits_friendly_pieces_too():
    g = make([P("tank", "black", 4, 5), P("rocket_pawn", "black", 5, 5), P("dozer", "black", 6, 5),
              P("rocket_pawn", "black", 6, 5)])
    g = apply(g, fire((4, 5), "flamer", DOWN))
    assert at(g, 5, 5) == [] and at(g, 6, 5) == []


def test_flamer_fired_in_the_air_burns_only_the_air():
    g = make([
        P("jet", "black", 4, 5, "air", articles=["flamer"]),
        P("jet", "white", 5, 5, "air"),
        P("rocket_pawn", "white", 5, 5),
    ])
    g = apply(g, fire((4, 5, "air"), "flamer", DOWN))
    assert at(g, 5, 5, "air") == []
    assert at(g, 5, 5) == [("rocket_pawn", "white")]


def test_white_flamer_direction_is_in_board_coordinates():
    g = make([P("tank", "white", 7, 5), P("rocket_pawn", "black", 6, 5), P("rocket_pawn", "black", 5, 5),
              P("rocket_pawn", "black", 8, 5)], to_move="white")
    g = apply(g, fire((7, 5), "flamer", UP))
    assert at(g, 6, 5) == [] and at(g, 5, 5) == []
    assert at(g, 8, 5) == [("rocket_pawn", "black")]


def test_flamer_spares_the_friend_on_the_firers_own_square():
    g = make([P("tank", "black", 4, 5), P("dozer", "black", 4, 5), P("rocket_pawn", "white", 5, 5)])
    g = apply(g, fire((4, 5), "flamer", DOWN, piece=pid(g, 4, 5, "ground", "tank")))
    assert at(g, 4, 5) == [("dozer", "black"), ("tank", "black")]
    assert at(g, 5, 5) == []


def test_destroyed_pieces_drop_their_articles():
    g = make([P("tank", "black", 4, 5), P("rocket_pawn", "white", 5, 5, articles=["bike"])])
    before = all_articles(g)
    g = apply(g, fire((4, 5), "flamer", DOWN))
    assert at(g, 5, 5) == []
    assert ground_at(g, 5, 5) == ["bike"]
    assert all_articles(g) == before


# --- stacking of attacks and defences (l. 1870-1885) -----------------------------------


def test_one_anti_flamer_survives_one_flamer():
    g = make([P("tank", "black", 4, 5), P("flamer_pawn", "white", 5, 5)])
    g = apply(g, fire((4, 5), "flamer", DOWN))
    assert at(g, 5, 5) == [("flamer_pawn", "white")]


def test_one_anti_is_beaten_by_two_fires_of_two_pieces_in_one_turn():
    g = make([P("tank", "black", 4, 5), P("tank", "black", 5, 3), P("flamer_pawn", "white", 5, 5)])
    g = apply(g, fire((4, 5), "flamer", DOWN))
    assert at(g, 5, 5) == [("flamer_pawn", "white")]
    g = apply(g, fire((5, 3), "flamer", RIGHT))
    assert at(g, 5, 5) == []
    assert turn(g)["fires"] == 2


def test_one_anti_is_beaten_by_two_fires_along_different_lines():
    g = make([P("flamer_pawn", "black", 4, 5), P("tank", "black", 4, 4), P("flamer_pawn", "white", 5, 5)])
    g = apply(g, fire((4, 5), "flamer", DOWN), fire((4, 4), "flamer", (1, 1)))
    assert at(g, 5, 5) == []


def test_hits_are_counted_per_turn_only():
    g = make([P("tank", "black", 4, 5), P("tank", "black", 5, 3), P("flamer_pawn", "white", 5, 5)])
    g = apply(g, fire((4, 5), "flamer", DOWN))
    g = rounds(g)
    g = apply(g, fire((5, 3), "flamer", RIGHT))
    assert at(g, 5, 5) == [("flamer_pawn", "white")]


def test_two_flamers_on_one_piece_fire_together_as_one_fire_of_strength_two():
    g = make([P("tank", "black", 4, 5, articles=["flamer"]), P("flamer_pawn", "white", 5, 5),
              P("tank", "black", 7, 7)])
    tank = pid(g, 4, 5, "ground", "tank")
    g = apply(g, fire((4, 5), "flamer", DOWN))
    assert at(g, 5, 5) == []
    assert turn(g)["fires"] == 1
    assert cooldown(g, tank, "flamer") == 4
    # That was one Fire: a second one is still open this Turn.
    g = apply(g, fire((7, 7), "flamer", RIGHT))
    assert turn(g)["fires"] == 2


def test_two_antis_need_three_attacks():
    g = make([P("tank", "black", 4, 5, articles=["flamer"]), P("tank", "black", 5, 3),
              P("flamer_pawn", "white", 5, 5, articles=["anti_flamer"])])
    g = apply(g, fire((4, 5), "flamer", DOWN))
    assert at(g, 5, 5) == [("flamer_pawn", "white")]
    g = apply(g, fire((5, 3), "flamer", RIGHT))
    assert at(g, 5, 5) == []


# --- Stunner ---------------------------------------------------------------------------


def test_stunner_stuns_the_first_square_holding_pieces_only():
    g = make([P("stunner_pawn", "black", 3, 5), P("rocket_pawn", "white", 6, 5), P("rocket_pawn", "white", 8, 5)])
    near, far = pid(g, 6, 5, "ground", "rocket_pawn"), pid(g, 8, 5, "ground", "rocket_pawn")
    g = apply(g, fire((3, 5), "stunner", DOWN))
    assert stun(g, near) == 3
    assert stun(g, far) == 0


def test_stunner_stuns_every_piece_of_the_first_square_at_level_only():
    g = make([P("stunner_pawn", "black", 3, 5), P("dozer", "white", 6, 5), P("rocket_pawn", "white", 6, 5),
              P("jet", "white", 5, 5, "air"), P("sub", "white", 4, 5, "sub")])
    g = apply(g, fire((3, 5), "stunner", DOWN))
    for p in find(g, "dozer") + find(g, "rocket_pawn"):
        assert p.get("stun", 0) == 3, p
    assert the(g, "jet").get("stun", 0) == 0
    assert the(g, "sub").get("stun", 0) == 0


@pytest.mark.parametrize("reach, hit", [(2, False), (3, True), (9, True)])
def test_stunner_range_option(reach, hit):
    g = make([P("stunner_pawn", "black", 3, 5), P("rocket_pawn", "white", 6, 5)], options={"stunner_range": reach})
    target = pid(g, 6, 5, "ground", "rocket_pawn")
    g = apply(g, fire((3, 5), "stunner", DOWN))
    assert (stun(g, target) > 0) == hit


def test_stunner_reaches_across_the_board_by_default():
    g = make([P("stunner_pawn", "black", 2, 6), P("rocket_pawn", "white", 10, 6)])
    target = pid(g, 10, 6, "ground", "rocket_pawn")
    g = apply(g, fire((2, 6), "stunner", DOWN))
    assert stun(g, target) == 3


def test_stunner_stops_at_an_unseen_piece():
    # The white Stealth Pawn is invisible to Black (no Anti-Stealth, no lock),
    # yet it is the first Piece met and takes the stun.
    g = make([P("stunner_pawn", "black", 3, 5), P("stealth_pawn", "white", 5, 5), P("rocket_pawn", "white", 7, 5)],
             visible=False)
    hidden, seen = pid(g, 5, 5, "ground", "stealth_pawn"), pid(g, 7, 5, "ground", "rocket_pawn")
    assert not [p for p in wec.view(g, "black")["pieces"] if p["type"] == "stealth_pawn"]
    g = apply(g, fire((3, 5), "stunner", DOWN))
    assert stun(g, hidden) == 3
    assert stun(g, seen) == 0


def test_stunner_hits_friends_too():
    g = make([P("stunner_pawn", "black", 3, 5), P("rocket_pawn", "black", 5, 5)])
    friend = pid(g, 5, 5, "ground", "rocket_pawn")
    g = apply(g, fire((3, 5), "stunner", DOWN))
    assert stun(g, friend) > 0


def test_anti_stunner_resists_one_stunner_but_not_two():
    g = make([P("stunner_pawn", "black", 3, 5), P("queen", "white", 6, 5)])
    queen = pid(g, 6, 5, "ground", "queen")
    assert stun(apply(g, fire((3, 5), "stunner", DOWN)), queen) == 0
    g2 = make([P("stunner_pawn", "black", 3, 5, articles=["stunner"]), P("queen", "white", 6, 5)])
    queen = pid(g2, 6, 5, "ground", "queen")
    assert stun(apply(g2, fire((3, 5), "stunner", DOWN)), queen) == 3


def _white_stuns_black_tank(options=None, articles=()):
    # From (2,5) a Black right Tank has a clear path once it may Move again.
    g = make([P("stunner_pawn", "white", 8, 5), P("tank", "black", 2, 5, articles=list(articles))], to_move="white",
             options=options)
    tank = pid(g, 2, 5, "ground", "tank")
    g = apply(g, fire((8, 5), "stunner", UP))
    return finish(g), tank


def test_stun_lasts_stun_turns_of_the_owners_turns():
    g, tank = _white_stuns_black_tank()
    for left in (3, 2, 1):
        assert wec.to_move(g) == "black"
        assert stun(g, tank) == left
        assert wec.move_targets(g, 2, 5, "ground") == set()
        assert not [a for a in wec.legal_actions(g) if a.get("from") == [2, 5, "ground"]]
        assert_illegal(g, move((2, 5), (9, 8)))
        g = finish(g)
        assert stun(g, tank) == left - 1
        g = finish(g)  # White's Turn does not count
        assert stun(g, tank) == left - 1
    assert stun(g, tank) == 0
    assert (9, 8, "ground") in wec.move_targets(g, 2, 5, "ground")
    assert apply(g, fire((2, 5), "flamer", DOWN))


def test_stun_turns_option():
    g, tank = _white_stuns_black_tank({"stun_turns": 1})
    assert stun(g, tank) == 1
    assert wec.move_targets(g, 2, 5, "ground") == set()
    g = rounds(g)
    assert stun(g, tank) == 0
    assert wec.move_targets(g, 2, 5, "ground")


def test_stunned_piece_takes_no_action():
    g = make([P("stunner_pawn", "white", 8, 5), P("tank", "black", 5, 5), P("rocket_pawn", "black", 5, 6,
                                                                          articles=["anti_sam"])],
             [A("bike", 5, 5)], to_move="white")
    tank = pid(g, 5, 5, "ground", "tank")
    g = finish(apply(g, fire((8, 5), "stunner", UP)))
    assert stun(g, tank) == 3
    assert_illegal(g, fire((5, 5), "flamer", DOWN))
    assert_illegal(g, pickup((5, 5), "bike"))
    # Not even Exchanged with.
    assert_illegal(g, exchange((5, 6), "anti_sam", (5, 5)))


def test_stunned_piece_drops_its_articles_on_its_square():
    g, tank = _white_stuns_black_tank(articles=["xxx", "bike"])
    assert by_id(g, tank)["articles"] == []
    assert ground_at(g, 2, 5) == ["bike", "xxx"]


# Placement of stunned-off Articles (l. 1916-1932; docs/rulings.md for ring 2).
# The stunned Piece is at (5,5) and carries one Article, a Bike; every Square
# named in ``full`` already holds two Articles. Black's forward is +row and its
# left -col; White's forward is -row and its left +col.
FRONT = {"black": [(6, 4), (6, 5), (6, 6)], "white": [(4, 6), (4, 5), (4, 4)]}
SIDES = {"black": [(5, 4), (5, 6)], "white": [(5, 6), (5, 4)]}
BACK = {"black": [(4, 4), (4, 5), (4, 6)], "white": [(6, 6), (6, 5), (6, 4)]}
RING2_FIRST = {"black": (7, 3), "white": (3, 7)}
ENEMY_OF = {"black": "white", "white": "black"}


def _placement_cases():
    for color in ("black", "white"):
        order = FRONT[color] + SIDES[color] + BACK[color]
        for k in range(len(order) + 1):
            expected = order[k] if k < len(order) else RING2_FIRST[color]
            yield pytest.param(color, order[:k], expected, id=f"{color}-{k}-full")


@pytest.mark.parametrize("color, full, expected", list(_placement_cases()))
def test_stunned_off_article_placement_order(color, full, expected):
    filler = [A("anti_stealth", r, c) for (r, c) in [(5, 5)] + full for _ in range(2)]
    enemy = ENEMY_OF[color]
    # The stunner fires from the side along row 5; (5,7) and (5,8) hold no Piece.
    g = make([P("tank", color, 5, 5, articles=["bike"]), P("stunner_pawn", enemy, 5, 9)], filler, to_move=enemy)
    g = apply(g, fire((5, 9), "stunner", LEFT))
    assert the(g, "tank")["articles"] == []
    assert ground_at(g, *expected) == ["bike"], ground(g)



def test_several_stunned_off_articles_fill_the_squares_in_order():
    # (5,5) has room for one, (6,4) for one, (6,5) for two.
    g = make([P("tank", "black", 5, 5, articles=["xxx", "bike", "scuba"]), P("stunner_pawn", "white", 5, 9)],
             [A("anti_sam", 5, 5), A("anti_sam", 6, 4)], to_move="white")
    g = apply(g, fire((5, 9), "stunner", LEFT))
    counts = ground(g)
    assert counts[(5, 5)] == 2 and counts[(6, 4)] == 2 and counts[(6, 5)] == 1
    assert sum(counts.values()) == 5


def test_stunned_jet_in_the_air_comes_down_to_its_ground():
    g = make([P("jet", "black", 3, 5, "air", articles=["stunner"]), P("jet", "white", 6, 5, "air",
                                                                      articles=["anti_sam"])])
    jet = pid(g, 6, 5, "air", "jet")
    g = apply(g, fire((3, 5, "air"), "stunner", DOWN))
    p = by_id(g, jet)
    assert (p["row"], p["col"], p["level"]) == (6, 5, "ground")
    assert p.get("stun") == 3
    assert p["articles"] == [] and ground_at(g, 6, 5) == ["anti_sam"]


def test_stunned_jet_in_the_air_is_destroyed_when_its_ground_is_held_by_the_enemy():
    g = make([P("jet", "black", 3, 5, "air", articles=["stunner"]), P("jet", "white", 6, 5, "air"),
              P("rocket_pawn", "black", 6, 5)])
    g = apply(g, fire((3, 5, "air"), "stunner", DOWN))
    assert find(g, "jet", "white") == []
    assert at(g, 6, 5) == [("rocket_pawn", "black")]


def test_stunned_jet_in_the_air_is_destroyed_when_its_ground_is_full():
    g = make([P("jet", "black", 3, 5, "air", articles=["stunner"]), P("jet", "white", 6, 5, "air"),
              P("dozer", "white", 6, 5), P("rocket_pawn", "white", 6, 5)])
    g = apply(g, fire((3, 5, "air"), "stunner", DOWN))
    assert find(g, "jet", "white") == []
    assert at(g, 6, 5) == [("dozer", "white"), ("rocket_pawn", "white")]


# --- Conversion ------------------------------------------------------------------------


def test_conversion_turns_the_enemies_of_the_neighbouring_square_at_level():
    g = make([P("cleric", "black", 5, 5), P("rocket_pawn", "white", 6, 5, articles=["bike"]),
              P("jet", "white", 6, 5, "air"), P("rocket_pawn", "white", 7, 5)])
    g = apply(g, fire((5, 5), "conversion", DOWN))
    assert at(g, 6, 5) == [("rocket_pawn", "black")]
    assert at(g, 6, 5, "air") == [("jet", "white")]
    assert at(g, 7, 5) == [("rocket_pawn", "white")]  # one Square away only


def test_anti_conversion_resists_one_conversion_but_not_two():
    g = make([P("cleric", "black", 5, 5), P("conversion_pawn", "white", 6, 5)])
    assert at(apply(g, fire((5, 5), "conversion", DOWN)), 6, 5) == [("conversion_pawn", "white")]
    g = make([P("cleric", "black", 5, 5, articles=["conversion"]), P("conversion_pawn", "white", 6, 5)])
    assert at(apply(g, fire((5, 5), "conversion", DOWN)), 6, 5) == [("conversion_pawn", "black")]


def test_converting_the_enemy_king_ends_the_game():
    g = make([P("king", "black", 1, 1), P("cleric", "black", 5, 5), P("king", "white", 6, 5)], kings=False)
    g = apply(g, fire((5, 5), "conversion", DOWN))
    assert at(g, 6, 5) == [("king", "black")]
    # The Turn has only its end left; the result is fixed then (docs/rulings.md,
    # "The end of the game").
    assert wec.outcome(g) is None
    assert wec.legal_actions(g) == [END]
    g = apply(g, END)
    assert wec.outcome(g) == {"winner": "black", "reason": "primary_taken"}
    assert wec.legal_actions(g) == []
    assert_illegal(g, END)


def test_partial_conversion_leaves_two_enemies_in_one_air_square():
    # l. 284-292, 1899-1908: two Pieces that can each stay in the air, one immune.
    g = make([P("jet", "black", 5, 5, "air", articles=["conversion"]),
              P("jet", "white", 6, 5, "air", articles=["anti_conversion"]),
              P("chopper", "white", 6, 5, "air")])
    g = apply(g, fire((5, 5, "air"), "conversion", DOWN))
    assert at(g, 6, 5, "air") == [("chopper", "black"), ("jet", "white")]
    assert wec.load_scenario(wec.dump_scenario(g)) == g


def test_partial_conversion_on_the_ground_keeps_both_and_round_trips():
    # docs/rulings.md "Conversion kills and the mixed Square": on the ground
    # the two simply become enemies on one Square. The game must still
    # round-trip (docs/engine-api.md: load_scenario(dump_scenario(g)) == g).
    g = make([P("cleric", "black", 5, 5), P("dozer", "white", 6, 5, articles=["anti_conversion"]),
              P("rocket_pawn", "white", 6, 5)])
    g = apply(g, fire((5, 5), "conversion", DOWN))
    assert at(g, 6, 5) == [("dozer", "white"), ("rocket_pawn", "black")]
    assert wec.load_scenario(wec.dump_scenario(g)) == g


def test_conversion_kill_of_a_converted_passenger():
    # l. 1909-1915: the carried Pawn is converted, the Chopper is immune: the Pawn dies.
    g = make([P("jet", "black", 5, 5, "air", articles=["conversion"]),
              P("chopper", "white", 6, 5, "air", articles=["anti_conversion"]),
              P("rocket_pawn", "white", 6, 5, "air", articles=["bike"])])
    before = all_articles(g)
    g = apply(g, fire((5, 5, "air"), "conversion", DOWN))
    assert at(g, 6, 5, "air") == [("chopper", "white")]
    assert find(g, "rocket_pawn") == []
    assert all_articles(g) == before


def test_conversion_kill_of_the_passenger_of_a_converted_carrier():
    # The Chopper is converted, its passenger is immune: the passenger dies.
    g = make([P("jet", "black", 5, 5, "air", articles=["conversion"]),
              P("chopper", "white", 6, 5, "air"),
              P("conversion_pawn", "white", 6, 5, "air")])
    g = apply(g, fire((5, 5, "air"), "conversion", DOWN))
    assert at(g, 6, 5, "air") == [("chopper", "black")]
    assert find(g, "conversion_pawn") == []


def test_conversion_of_both_carrier_and_passenger_kills_nobody():
    g = make([P("jet", "black", 5, 5, "air", articles=["conversion"]),
              P("chopper", "white", 6, 5, "air"), P("rocket_pawn", "white", 6, 5, "air")])
    g = apply(g, fire((5, 5, "air"), "conversion", DOWN))
    assert at(g, 6, 5, "air") == [("chopper", "black"), ("rocket_pawn", "black")]


# --- the Jet's and Sub's restricted Rocket (l. 238-243, 762-763) ---------------------


def test_jet_rocket_hits_the_piece_below_at_once():
    g = make([P("jet", "black", 5, 5, "air"), P("tank", "white", 5, 5)])
    jet = pid(g, 5, 5, "air", "jet")
    g = apply(g, fire((5, 5, "air"), "jet_rocket", target=(5, 5, "ground")))
    assert at(g, 5, 5) == []
    assert cooldown(g, jet, "rocket_launcher") == 4


def test_jet_rocket_cools_down_at_the_rocket_rate():
    g = make([P("jet", "black", 5, 5, "air"), P("tank", "white", 5, 5)], options={"rocket_rate": 6})
    jet = pid(g, 5, 5, "air", "jet")
    g = apply(g, fire((5, 5, "air"), "jet_rocket", target=(5, 5, "ground")))
    assert cooldown(g, jet, "rocket_launcher") == 6


def test_jet_rocket_range_zero_refuses_a_neighbouring_target():
    g = make([P("jet", "black", 5, 5, "air"), P("tank", "white", 6, 5)])
    assert_illegal(g, fire((5, 5, "air"), "jet_rocket", target=(6, 5, "ground")))


def test_jet_rocket_range_option():
    g = make([P("jet", "black", 5, 5, "air"), P("tank", "white", 6, 6), P("tank", "white", 7, 5)],
             options={"jet_rocket_range": 1})
    assert_illegal(g, fire((5, 5, "air"), "jet_rocket", target=(7, 5, "ground")))
    g = apply(g, fire((5, 5, "air"), "jet_rocket", target=(6, 6, "ground")))
    assert at(g, 6, 6) == []
    assert at(g, 7, 5) == [("tank", "white")]


def test_jet_rocket_needs_a_piece_at_the_target():
    g = make([P("jet", "black", 5, 5, "air")], options={"jet_rocket_range": 2})
    assert_illegal(g, fire((5, 5, "air"), "jet_rocket", target=(5, 5, "ground")))
    assert_illegal(g, fire((5, 5, "air"), "jet_rocket", target=(6, 6, "ground")))
    assert_illegal(g, fire((5, 5, "air"), "jet_rocket", DOWN))


def test_jet_rocket_needs_a_seen_target():
    g = make([P("jet", "black", 5, 5, "air"), P("stealth_pawn", "white", 5, 5)], visible=False)
    assert_illegal(g, fire((5, 5, "air"), "jet_rocket", target=(5, 5, "ground")))
    assert not [a for a in wec.legal_actions(g) if a["type"] == "fire" and a["weapon"] == "jet_rocket"]


def test_jet_rocket_with_carried_rocket_launcher_has_strength_two():
    g = make([P("jet", "black", 5, 5, "air"), P("rocket_pawn", "white", 5, 5)])
    assert at(apply(g, fire((5, 5, "air"), "jet_rocket", target=(5, 5, "ground"))), 5, 5) == [
        ("rocket_pawn", "white")]
    g = make([P("jet", "black", 5, 5, "air", articles=["rocket_launcher"]), P("rocket_pawn", "white", 5, 5)])
    g = apply(g, fire((5, 5, "air"), "jet_rocket", target=(5, 5, "ground")))
    assert at(g, 5, 5) == []
    assert turn(g)["fires"] == 1


def test_jet_rocket_of_strength_two_takes_the_king():
    g = make([P("king", "black", 1, 1), P("jet", "black", 5, 5, "air", articles=["rocket_launcher"]),
              P("king", "white", 5, 5)], kings=False)
    g = apply(g, fire((5, 5, "air"), "jet_rocket", target=(5, 5, "ground")), END)
    assert wec.outcome(g) == {"winner": "black", "reason": "primary_taken"}


def test_jet_rocket_shares_the_rocket_launcher_counter():
    g = make([P("jet", "black", 5, 5, "air", articles=["rocket_launcher"]), P("tank", "white", 5, 5)],
             options={"rocket_rate": 2})
    jet = pid(g, 5, 5, "air", "jet")
    g = apply(g, fire((5, 5, "air"), "jet_rocket", target=(5, 5, "ground")))
    assert_illegal(g, fire((5, 5, "air"), "rocket_launcher", DOWN))
    g = rounds(g)
    assert cooldown(g, jet, "rocket_launcher") == 1
    assert_illegal(g, fire((5, 5, "air"), "rocket_launcher", DOWN))
    g = rounds(g)
    apply(g, fire((5, 5, "air"), "rocket_launcher", DOWN))


def test_sub_has_the_restricted_rocket_too():
    g = make([P("sub", "black", 5, 5, "sub"), P("tank", "white", 5, 5)])
    g = apply(g, fire((5, 5, "sub"), "jet_rocket", target=(5, 5, "ground")))
    assert at(g, 5, 5) == []


def test_jet_rocket_is_not_a_jet_for_pieces_without_it():
    g = make([P("tank", "black", 5, 5), P("rocket_pawn", "white", 6, 5)], options={"jet_rocket_range": 1})
    assert_illegal(g, fire((5, 5), "jet_rocket", target=(6, 5, "ground")))


# --- rates of fire (l. 163-166, 772-775) -----------------------------------------------

RATE_CASES = [
    ("flamer", "flamer_rate", P("tank", "black", 4, 5)),
    ("stunner", "stunner_rate", P("stunner_pawn", "black", 4, 5)),
    ("conversion", "conversion_rate", P("cleric", "black", 4, 5)),
    ("rocket_launcher", "rocket_rate", P("rocket_pawn", "black", 4, 5)),
    ("sam_launcher", "sam_rate", P("aaa", "black", 4, 5)),
    ("torpedo_launcher", "torpedo_rate", P("destroyer", "black", 4, 5)),
]


@pytest.mark.parametrize("weapon, option, firer", RATE_CASES, ids=[c[0] for c in RATE_CASES])
def test_cooldown_is_set_to_the_rate_option(weapon, option, firer):
    g = make([firer], options={option: 5})
    ident = pid(g, 4, 5, "ground", firer["type"])
    g = apply(g, fire((4, 5), weapon, DOWN))
    assert cooldown(g, ident, weapon) == 5


@pytest.mark.parametrize("weapon, default", [("flamer", 4), ("stunner", 2), ("conversion", 4),
                                             ("rocket_launcher", 4), ("sam_launcher", 4), ("torpedo_launcher", 4)])
def test_default_rates(weapon, default):
    firer = next(c[2] for c in RATE_CASES if c[0] == weapon)
    g = make([firer])
    ident = pid(g, 4, 5, "ground", firer["type"])
    g = apply(g, fire((4, 5), weapon, DOWN))
    assert cooldown(g, ident, weapon) == default


@pytest.mark.parametrize("weapon, rate", [("flamer", 4), ("stunner", 2)])
def test_weapon_fires_again_only_when_its_counter_reaches_zero(weapon, rate):
    firer = next(c[2] for c in RATE_CASES if c[0] == weapon)
    g = make([firer])
    ident = pid(g, 4, 5, "ground", firer["type"])
    g = apply(g, fire((4, 5), weapon, DOWN))
    # The present Turn counts: the counter drops at the end of this Turn and
    # of each later Black Turn; White's Turns do not count.
    for left in range(rate - 1, 0, -1):
        g = finish(g)
        assert cooldown(g, ident, weapon) == left
        g = finish(g)
        assert cooldown(g, ident, weapon) == left
        assert_illegal(g, fire((4, 5), weapon, DOWN))
    g = rounds(g)
    assert cooldown(g, ident, weapon) == 0
    g = apply(g, fire((4, 5), weapon, DOWN))
    assert cooldown(g, ident, weapon) == rate


def test_rate_one_fires_every_turn():
    g = make([P("tank", "black", 4, 5)], options={"flamer_rate": 1})
    g = apply(g, fire((4, 5), "flamer", DOWN))
    g = rounds(g)
    g = apply(g, fire((4, 5), "flamer", DOWN))
    assert turn(g)["fires"] == 1


# --- the Turn's limits on Fires (l. 9-13, 48-50) --------------------------------------


def test_at_most_two_fires_a_turn():
    g = make([P("tank", "black", 4, 3), P("tank", "black", 4, 5), P("tank", "black", 4, 7)])
    g = apply(g, fire((4, 3), "flamer", DOWN), fire((4, 5), "flamer", DOWN))
    assert turn(g)["fires"] == 2
    assert_illegal(g, fire((4, 7), "flamer", DOWN))
    assert not [a for a in wec.legal_actions(g) if a["type"] == "fire"]


def test_a_weapon_fires_once_a_turn_even_at_rate_one():
    g = make([P("tank", "black", 4, 5)], options={"flamer_rate": 1})
    g = apply(g, fire((4, 5), "flamer", DOWN))
    assert_illegal(g, fire((4, 5), "flamer", RIGHT))


def test_one_piece_may_fire_two_different_weapons():
    g = make([P("tank", "black", 4, 5, articles=["stunner"]), P("rocket_pawn", "white", 7, 5),
              P("tank", "black", 4, 8)])
    target = pid(g, 7, 5, "ground", "rocket_pawn")
    g = apply(g, fire((4, 5), "flamer", RIGHT), fire((4, 5), "stunner", DOWN))
    assert stun(g, target) == 3
    assert turn(g)["fires"] == 2
    assert_illegal(g, fire((4, 8), "flamer", DOWN))


def test_fires_before_and_after_the_move():
    g = make([P("tank", "black", 4, 3), P("tank", "black", 4, 7)])
    g = apply(g, fire((4, 3), "flamer", DOWN))
    g = apply(g, move((1, 1), (1, 2)))
    g = apply(g, fire((4, 7), "flamer", DOWN))
    assert turn(g)["fires"] == 2
    assert wec.to_move(apply(g, END)) == "white"


def test_fire_refusals():
    g = make([P("tank", "black", 4, 5), P("rocket_pawn", "white", 7, 5), P("jet", "black", 3, 3, "air")])
    assert_illegal(g, fire((4, 5), "conversion", DOWN))  # a weapon it lacks
    assert_illegal(g, fire((4, 5), "bazooka", DOWN))  # no such weapon
    assert_illegal(g, fire((4, 5), "anti_flamer", DOWN))  # not fired
    assert_illegal(g, fire((4, 5), "flamer", (0, 0)))
    assert_illegal(g, fire((4, 5), "flamer", (2, 0)))
    assert_illegal(g, fire((4, 5), "flamer"))  # no direction
    assert_illegal(g, fire((4, 6), "flamer", DOWN))  # nobody there
    assert_illegal(g, fire((7, 5), "rocket_launcher", UP))  # an enemy piece
    assert_illegal(g, fire((4, 5, "air"), "flamer", DOWN))  # wrong level
    assert_illegal(g, {"type": "fire", "weapon": "flamer", "direction": [1, 0]})  # no 'from'


def test_stealth_and_xxx_cannot_be_fired():
    g = make([P("rocket_pawn", "black", 4, 5, articles=["stealth"]), P("xxx_pawn", "black", 4, 7)])
    assert_illegal(g, fire((4, 5), "stealth", DOWN))
    assert_illegal(g, fire((4, 7), "xxx", DOWN))


def test_destroying_your_own_king_loses():
    g = make([P("king", "black", 5, 5), P("tank", "black", 4, 5, articles=["flamer"]), P("king", "white", 10, 1)],
             kings=False)
    g = apply(g, fire((4, 5), "flamer", DOWN), END)
    assert wec.outcome(g) == {"winner": "white", "reason": "primary_lost"}


def test_destroying_both_kings_in_one_fire_loses():
    g = make([P("king", "black", 5, 5), P("tank", "black", 4, 5, articles=["flamer"]), P("king", "white", 6, 5)],
             kings=False)
    g = apply(g, fire((4, 5), "flamer", DOWN), END)
    assert wec.outcome(g) == {"winner": "white", "reason": "both_primaries_lost"}


def test_own_rocket_killing_own_primary_at_the_end_of_the_turn_loses():
    # A President has no Anti-Rocket; the Rocket flies into it when Black's Turn ends.
    g = make([P("president", "black", 4, 5), P("rocket_pawn", "black", 3, 5), P("dozer", "black", 7, 7),
              P("king", "white", 10, 1)], kings=False, options={"black_government": "democracy"})
    g = apply(g, fire((3, 5), "rocket_launcher", DOWN), move((7, 7), (7, 8)))
    assert wec.outcome(g) is None
    g = apply(g, END)
    assert wec.outcome(g) == {"winner": "white", "reason": "primary_lost"}


@pytest.mark.parametrize("seen", [True, False])
def test_a_stealthed_piece_is_seen_when_it_fires(seen):
    g = make([P("aaa", "black", 4, 5), P("rocket_pawn", "white", 8, 5)], visible=False,
             options={"seen_when_firing": seen})
    assert not [p for p in wec.view(g, "white")["pieces"] if p["type"] == "aaa"]
    g = apply(g, fire((4, 5), "sam_launcher", DOWN))
    assert bool([p for p in wec.view(g, "white")["pieces"] if p["type"] == "aaa"]) == seen


def test_fire_is_refused_once_the_game_is_over():
    g = make([P("king", "black", 1, 1), P("cleric", "black", 5, 5), P("king", "white", 6, 5),
              P("tank", "black", 3, 3)], kings=False)
    g = apply(g, fire((5, 5), "conversion", DOWN))
    assert_illegal(g, fire((3, 3), "flamer", DOWN))  # only the Turn's end is left
    g = apply(g, END)
    assert wec.outcome(g) is not None
    assert_illegal(g, fire((3, 3), "flamer", DOWN))


def test_fire_leaves_its_input_game_unchanged():
    g = make([P("tank", "black", 4, 5), P("rocket_pawn", "white", 5, 5)])
    before = wec.dump_scenario(g)
    g2 = apply(g, fire((4, 5), "flamer", DOWN))
    assert wec.dump_scenario(g) == before
    assert g2 != g


def test_legal_actions_list_fires_and_each_applies():
    g = make([P("tank", "black", 4, 5), P("stunner_pawn", "black", 4, 7), P("cleric", "black", 3, 3),
              P("jet", "black", 6, 6, "air"), P("rocket_pawn", "white", 6, 6), P("jet", "white", 7, 7, "air")],
             options={"jet_rocket_range": 1})
    acts = wec.legal_actions(g)
    fires = [a for a in acts if a["type"] == "fire"]
    weapons = {(tuple(a["from"]), a["weapon"]) for a in fires}
    assert ((4, 5, "ground"), "flamer") in weapons
    assert ((4, 7, "ground"), "stunner") in weapons
    assert ((3, 3, "ground"), "conversion") in weapons
    assert ((6, 6, "air"), "jet_rocket") in weapons
    assert ((6, 6, "air"), "sam_launcher") in weapons
    # A flamer may be aimed in any of the 8 directions that stay on the board.
    dirs = {tuple(a["direction"]) for a in fires if a["from"] == [4, 5, "ground"] and a["weapon"] == "flamer"}
    assert dirs == {(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)}
    jr = [a for a in fires if a["weapon"] == "jet_rocket"]
    assert {tuple(a["target"]) for a in jr} == {(6, 6, "ground")}
    homing = [a for a in fires if a["weapon"] == "sam_launcher" and "target" in a]
    assert {tuple(a["target"]) for a in homing} == {(7, 7, "air")}
    assert all("piece" in a for a in fires)
    for a in acts:
        wec.apply(g, a)
    # After a Fire, the same weapon of that piece is no longer offered.
    g2 = apply(g, fire((4, 5), "flamer", DOWN))
    assert not [a for a in wec.legal_actions(g2) if a["type"] == "fire" and a["from"] == [4, 5, "ground"]]
    assert [a for a in wec.legal_actions(g2) if a["type"] == "fire" and a["from"] == [4, 7, "ground"]]
