"""Pick-up, Drop, Exchange and Reinforce.

Manual lines: one of each a Turn 48-50; capacity and XXX 51-52, 61-63, 197-199
of the glossary (l. 561-565, 606-611), "XXX boxes do not stack" 1884;
Exchange and the secondary government Piece 261-264, 566-571; Reinforce
283-292, 572-579; Anti-Stealth lock-on 612-622.
Contract: docs/engine-api.md, "pickup", "drop", "exchange", "reinforce".
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
    drop,
    exchange,
    finish,
    fire,
    ground_at,
    king_move,
    make,
    move,
    pickup,
    pid,
    reinforce,
    rounds,
    turn,
)


def arts(g, ident) -> list[str]:
    return sorted(by_id(g, ident)["articles"])


# --- Pick-up ---------------------------------------------------------------------------


def test_pickup_takes_an_article_from_the_pieces_square():
    g = make([P("rocket_pawn", "black", 5, 5)], [A("bike", 5, 5), A("scuba", 5, 5)])
    p = pid(g, 5, 5, "ground", "rocket_pawn")
    g = apply(g, pickup((5, 5), "bike"))
    assert arts(g, p) == ["bike"]
    assert ground_at(g, 5, 5) == ["scuba"]
    assert turn(g)["pickup"] is True


def test_pickup_gives_the_ability_at_once():
    g = make([P("rocket_pawn", "black", 4, 5), P("rocket_pawn", "white", 5, 5)], [A("flamer", 4, 5)])
    g = apply(g, pickup((4, 5), "flamer"), fire((4, 5), "flamer", (1, 0)))
    assert at(g, 5, 5) == []


def test_pickup_capacity_is_one_article():
    g = make([P("rocket_pawn", "black", 5, 5, articles=["scuba"])], [A("bike", 5, 5)])
    assert_illegal(g, pickup((5, 5), "bike"))


@pytest.mark.parametrize("kind, carried, ok", [
    ("tank", [], True),
    ("tank", ["flamer"], False),
    ("tank", ["xxx"], True),
    ("tank", ["xxx", "flamer"], True),
    ("tank", ["xxx", "flamer", "scuba"], False),
    # XXX boxes do not stack (l. 1884, glossary "XXX").
    ("tank", ["xxx", "xxx"], True),
    ("tank", ["xxx", "xxx", "scuba"], False),
    # The XXX Pawn carries two Articles besides its inherent box.
    ("xxx_pawn", [], True),
    ("xxx_pawn", ["flamer"], True),
    ("xxx_pawn", ["flamer", "scuba"], False),
    ("xxx_pawn", ["xxx", "flamer"], False),
])
def test_pickup_capacity(kind, carried, ok):
    g = make([P(kind, "black", 5, 5, articles=carried)], [A("bike", 5, 5)])
    action = pickup((5, 5), "bike")
    if ok:
        p = pid(g, 5, 5, "ground", kind)
        g = apply(g, action)
        assert arts(g, p) == sorted(carried + ["bike"])
    else:
        assert_illegal(g, action)


def test_picking_up_an_xxx_raises_the_capacity():
    g = make([P("rocket_pawn", "black", 5, 5)], [A("xxx", 5, 5), A("bike", 5, 5)])
    p = pid(g, 5, 5, "ground", "rocket_pawn")
    g = rounds(apply(g, pickup((5, 5), "xxx")))
    g = apply(g, pickup((5, 5), "bike"))
    assert arts(g, p) == ["bike", "xxx"]


def test_pickup_only_at_ground_level():
    g = make([P("jet", "black", 5, 5, "air"), P("sub", "black", 6, 6, "sub")], [A("bike", 5, 5), A("bike", 6, 6)])
    assert_illegal(g, pickup((5, 5, "air"), "bike"))
    assert_illegal(g, pickup((6, 6, "sub"), "bike"))


def test_pickup_needs_the_article_on_the_square():
    g = make([P("rocket_pawn", "black", 5, 5)], [A("bike", 5, 6)])
    assert_illegal(g, pickup((5, 5), "bike"))
    assert_illegal(g, pickup((5, 5), "scuba"))
    assert_illegal(g, pickup((5, 6), "bike"))  # nobody there


def test_enemy_pieces_cannot_be_made_to_pick_up():
    g = make([P("rocket_pawn", "white", 5, 5)], [A("bike", 5, 5)])
    assert_illegal(g, pickup((5, 5), "bike"))


def test_one_pickup_a_turn():
    g = make([P("rocket_pawn", "black", 5, 5), P("rocket_pawn", "black", 5, 7)], [A("bike", 5, 5), A("bike", 5, 7)])
    g = apply(g, pickup((5, 5), "bike"))
    assert_illegal(g, pickup((5, 7), "bike"))
    g = rounds(g)
    apply(g, pickup((5, 7), "bike"))


def test_pickup_after_the_move():
    g = make([P("rocket_pawn", "black", 5, 5)], [A("bike", 5, 5)])
    g = apply(g, move((1, 1), (1, 2)), pickup((5, 5), "bike"), END)
    assert wec.to_move(g) == "white"


def test_picking_up_anti_stealth_locks_on_the_nearest_unseen_stealthed_enemy():
    # Range detection off: this is about the lock-on alone.
    g = make([P("rocket_pawn", "black", 5, 5), P("stealth_pawn", "white", 7, 7), P("aaa", "white", 9, 9)],
             [A("anti_stealth", 5, 5)], visible=False, options={"stealth_detect_in_range": False})
    seen = {p["type"] for p in wec.view(g, "black")["pieces"] if p["color"] == "white"}
    assert "stealth_pawn" not in seen and "aaa" not in seen
    g = apply(g, pickup((5, 5), "anti_stealth"))
    seen = {p["type"] for p in wec.view(g, "black")["pieces"] if p["color"] == "white"}
    assert "stealth_pawn" in seen
    assert "aaa" not in seen
    # The lock holds as the locked Piece moves away.
    g = finish(g)
    g = apply(g, move((7, 7), (6, 6)), END)
    assert "stealth_pawn" in {p["type"] for p in wec.view(g, "black")["pieces"] if p["color"] == "white"}


def test_exchanging_an_anti_stealth_does_not_lock_on():
    # docs/rulings.md "Pick-up and Anti-Stealth lock-on": only a Pick-up locks on.
    g = make([P("rocket_pawn", "black", 5, 5, articles=["anti_stealth"]), P("rocket_pawn", "black", 5, 6),
              P("stealth_pawn", "white", 7, 7)], visible=False, options={"stealth_detect_in_range": False})
    g = apply(g, exchange((5, 5), "anti_stealth", (5, 6)))
    assert "stealth_pawn" not in {p["type"] for p in wec.view(g, "black")["pieces"]}


# --- Drop ------------------------------------------------------------------------------


def test_drop_puts_the_article_on_the_ground_of_the_square():
    g = make([P("tank", "black", 5, 5, articles=["bike"])])
    p = pid(g, 5, 5, "ground", "tank")
    g = apply(g, drop((5, 5), "bike"))
    assert arts(g, p) == []
    assert ground_at(g, 5, 5) == ["bike"]
    assert turn(g)["drop"] is True


@pytest.mark.parametrize("level, kind", [("air", "jet"), ("sub", "sub")])
def test_drop_from_air_or_sub_falls_to_the_ground(level, kind):
    g = make([P(kind, "black", 5, 5, level, articles=["anti_sam"])])
    g = apply(g, drop((5, 5, level), "anti_sam"))
    assert ground_at(g, 5, 5) == ["anti_sam"]


def test_drop_onto_a_full_ground_goes_to_the_next_square_with_room():
    # docs/rulings.md, "Dropping onto a full Square" (l. 311-313, 1923-1939):
    # Black's forward-left Square (6, 4) comes first.
    g = make([P("tank", "black", 5, 5, articles=["bike"])], [A("scuba", 5, 5), A("scuba", 5, 5)])
    g = apply(g, drop((5, 5), "bike"))
    assert ground_at(g, 5, 5) == ["scuba", "scuba"]
    assert ground_at(g, 6, 4) == ["bike"]
    g = make([P("tank", "black", 5, 5, articles=["bike"])], [A("scuba", 5, 5)])
    g = apply(g, drop((5, 5), "bike"))
    assert ground_at(g, 5, 5) == ["bike", "scuba"]


def test_dropping_the_xxx_box_must_not_leave_a_piece_over_capacity():
    # Without its box a Tank carries one Article: dropping the box while two
    # others ride on it would give a position load_scenario rejects
    # (docs/engine-api.md: "more Articles than a Piece can carry"; and
    # load_scenario(dump_scenario(g)) == g must hold for every game).
    g = make([P("tank", "black", 5, 5, articles=["xxx", "bike", "scuba"])])
    tank = pid(g, 5, 5, "ground", "tank")
    try:
        g = apply(g, drop((5, 5), "xxx"))
    except wec.IllegalAction:
        return
    assert len(by_id(g, tank)["articles"]) <= 1
    assert wec.load_scenario(wec.dump_scenario(g)) == g


def test_dropping_the_xxx_box_with_one_other_article_is_fine():
    g = make([P("tank", "black", 5, 5, articles=["xxx", "bike"])])
    tank = pid(g, 5, 5, "ground", "tank")
    g = apply(g, drop((5, 5), "xxx"))
    assert arts(g, tank) == ["bike"]


def test_drop_needs_the_article():
    g = make([P("tank", "black", 5, 5, articles=["bike"])])
    assert_illegal(g, drop((5, 5), "scuba"))
    assert_illegal(g, drop((5, 5), "flamer"))  # inherent abilities are not Articles
    assert_illegal(g, drop((5, 6), "bike"))


def test_one_drop_a_turn():
    g = make([P("tank", "black", 5, 5, articles=["bike"]), P("tank", "black", 5, 7, articles=["bike"])])
    g = apply(g, drop((5, 5), "bike"))
    assert_illegal(g, drop((5, 7), "bike"))


def test_drop_and_pickup_in_one_turn():
    g = make([P("tank", "black", 5, 5, articles=["bike"])], [A("scuba", 5, 5)])
    p = pid(g, 5, 5, "ground", "tank")
    g = apply(g, drop((5, 5), "bike"), pickup((5, 5), "scuba"))
    assert arts(g, p) == ["scuba"]
    assert ground_at(g, 5, 5) == ["bike"]


# --- Exchange --------------------------------------------------------------------------


def test_exchange_to_a_neighbouring_piece():
    g = make([P("tank", "black", 5, 5, articles=["bike"]), P("rocket_pawn", "black", 6, 6)])
    a, b = pid(g, 5, 5, "ground", "tank"), pid(g, 6, 6, "ground", "rocket_pawn")
    g = apply(g, exchange((5, 5), "bike", (6, 6)))
    assert arts(g, a) == [] and arts(g, b) == ["bike"]
    assert turn(g)["exchange"] is True


def test_exchange_between_levels_of_one_square():
    g = make([P("tank", "black", 5, 5, articles=["bike"]), P("jet", "black", 5, 5, "air")])
    jet = pid(g, 5, 5, "air", "jet")
    g = apply(g, exchange((5, 5), "bike", (5, 5, "air")))
    assert arts(g, jet) == ["bike"]


def test_exchange_between_levels_of_neighbouring_squares():
    g = make([P("sub", "black", 4, 4, "sub", articles=["bike"]), P("jet", "black", 5, 5, "air")])
    jet = pid(g, 5, 5, "air", "jet")
    g = apply(g, exchange((4, 4, "sub"), "bike", (5, 5, "air")))
    assert arts(g, jet) == ["bike"]


def test_exchange_two_squares_apart_is_refused():
    g = make([P("tank", "black", 5, 5, articles=["bike"]), P("rocket_pawn", "black", 7, 5)])
    assert_illegal(g, exchange((5, 5), "bike", (7, 5)))


GOVERNMENTS = [("monarchy", "queen"), ("dictatorship", "assassin"), ("theocracy", "acolyte"),
               ("democracy", "prime_minister")]


@pytest.mark.parametrize("government, secondary", GOVERNMENTS)
def test_secondary_government_piece_exchanges_at_any_distance(government, secondary):
    opts = {"black_government": government}
    g = make([P(secondary, "black", 2, 8, articles=["bike"]), P("tank", "black", 8, 3)], options=opts)
    tank = pid(g, 8, 3, "ground", "tank")
    g = apply(g, exchange((2, 8), "bike", (8, 3)))
    assert arts(g, tank) == ["bike"]
    # And any Piece exchanges with it at any distance.
    g = rounds(g)
    g = apply(g, exchange((8, 3), "bike", (2, 8)))
    assert arts(g, tank) == []


def test_exchange_to_piece_picks_one_of_two():
    g = make([P("tank", "black", 5, 5, articles=["bike"]), P("dozer", "black", 5, 6), P("rocket_pawn", "black", 5, 6)])
    pawn = pid(g, 5, 6, "ground", "rocket_pawn")
    g = apply(g, exchange((5, 5), "bike", (5, 6), to_piece=pawn))
    assert arts(g, pawn) == ["bike"]


def test_exchange_swap():
    g = make([P("tank", "black", 5, 5, articles=["bike"]), P("rocket_pawn", "black", 5, 6, articles=["scuba"])])
    a, b = pid(g, 5, 5, "ground", "tank"), pid(g, 5, 6, "ground", "rocket_pawn")
    g = apply(g, exchange((5, 5), "bike", (5, 6), swap="scuba"))
    assert arts(g, a) == ["scuba"] and arts(g, b) == ["bike"]


def test_exchange_needs_room_at_the_receiver():
    g = make([P("tank", "black", 5, 5, articles=["bike"]), P("rocket_pawn", "black", 5, 6, articles=["scuba"])])
    assert_illegal(g, exchange((5, 5), "bike", (5, 6)))


def test_exchange_must_leave_the_giver_within_its_capacity():
    # Giving away the XXX box would leave two Articles on a one-Article Piece.
    g = make([P("tank", "black", 5, 5, articles=["xxx", "bike", "scuba"]), P("rocket_pawn", "black", 5, 6)])
    assert_illegal(g, exchange((5, 5), "xxx", (5, 6)))
    apply(g, exchange((5, 5), "bike", (5, 6)))


def test_exchange_with_an_xxx_receiver():
    g = make([P("tank", "black", 5, 5, articles=["bike"]), P("rocket_pawn", "black", 5, 6, articles=["xxx", "scuba"])])
    b = pid(g, 5, 6, "ground", "rocket_pawn")
    g = apply(g, exchange((5, 5), "bike", (5, 6)))
    assert arts(g, b) == ["bike", "scuba", "xxx"]


def test_exchange_refusals():
    g = make([P("tank", "black", 5, 5, articles=["bike"]), P("rocket_pawn", "white", 5, 6),
              P("rocket_pawn", "black", 4, 5, articles=["scuba"])])
    assert_illegal(g, exchange((5, 5), "bike", (5, 6)))  # an enemy
    assert_illegal(g, exchange((5, 5), "scuba", (4, 4)))  # nobody there
    assert_illegal(g, exchange((5, 5), "scuba", (4, 5)))  # not carried
    assert_illegal(g, exchange((5, 5), "flamer", (4, 5)))  # inherent, not an Article
    assert_illegal(g, exchange((5, 5), "bike", (4, 5), swap="jump_pack"))  # not carried by the other
    assert_illegal(g, exchange((5, 5), "bike", (5, 5)))  # itself


def test_one_exchange_a_turn():
    g = make([P("tank", "black", 5, 5, articles=["bike"]), P("rocket_pawn", "black", 5, 6),
              P("tank", "black", 7, 5, articles=["scuba"]), P("rocket_pawn", "black", 7, 6)])
    g = apply(g, exchange((5, 5), "bike", (5, 6)))
    assert_illegal(g, exchange((7, 5), "scuba", (7, 6)))


def test_exchange_gives_the_ability_at_once():
    g = make([P("rocket_pawn", "black", 4, 4, articles=["flamer"]), P("dozer", "black", 4, 5),
              P("rocket_pawn", "white", 5, 5)])
    g = apply(g, exchange((4, 4), "flamer", (4, 5)), fire((4, 5), "flamer", (1, 0)))
    assert at(g, 5, 5) == []


# --- Reinforce -------------------------------------------------------------------------

JET_AT_8_3 = [{"type": "jet", "color": "black", "row": 8, "col": 3}]


def _stand_on_activation_square(reinforcements=JET_AT_8_3, extra=(), articles=()):
    """Black's Dozer steps onto (8,3): Black's Turn 1, its Move made."""
    g = make([P("dozer", "black", 7, 3)] + list(extra), articles, reinforcements=reinforcements)
    g = apply(g, move((7, 3), (8, 3)))
    return g


def own_reinforcements(g, color="black"):
    return [r for r in wec.view(g, color)["reinforcements"] if r["color"] == color]


def test_reinforce_after_a_friend_stood_on_the_square_and_left_it():
    g = _stand_on_activation_square()
    assert_illegal(g, reinforce(8, 3, "jet"))  # still standing there
    g = finish(finish(g))
    assert own_reinforcements(g)[0]["ready"] is False
    g = apply(g, move((8, 3), (8, 4)))
    assert own_reinforcements(g)[0]["ready"] is True
    g = apply(g, reinforce(8, 3, "jet"))
    assert at(g, 8, 3) == [("jet", "black")]
    assert own_reinforcements(g) == []
    assert turn(g)["reinforce"] is True


def test_reinforce_is_refused_before_anybody_stood_there():
    g = make([P("dozer", "black", 7, 3)], reinforcements=JET_AT_8_3)
    assert_illegal(g, reinforce(8, 3, "jet"))
    g = apply(g, move((7, 3), (7, 4)))
    assert_illegal(g, reinforce(8, 3, "jet"))


def test_reinforce_names_a_waiting_piece():
    g = finish(finish(_stand_on_activation_square()))
    g = apply(g, move((8, 3), (8, 4)))
    assert_illegal(g, reinforce(8, 3, "tank"))
    assert_illegal(g, reinforce(8, 4, "jet"))


def test_an_enemy_standing_there_does_not_make_it_ready():
    g = make([P("dozer", "white", 9, 3)], reinforcements=JET_AT_8_3, to_move="white")
    g = apply(g, move((9, 3), (8, 3)), END)
    g = finish(g)
    g = apply(g, move((8, 3), (8, 4)), END)
    assert own_reinforcements(g)[0]["ready"] is False
    g = apply(g, king_move(g))
    assert_illegal(g, reinforce(8, 3, "jet"))


def test_a_piece_in_the_air_over_the_square_does_not_make_it_ready():
    g = make([P("jet", "black", 7, 3, "air")], reinforcements=JET_AT_8_3)
    g = apply(g, move((7, 3, "air"), (8, 3, "air")), END)
    g = finish(g)
    g = apply(g, move((8, 3, "air"), (8, 5, "air")))
    assert own_reinforcements(g)[0]["ready"] is False
    assert_illegal(g, reinforce(8, 3, "jet"))


def test_reinforce_needs_the_ground_free():
    g = finish(finish(_stand_on_activation_square(extra=[P("rocket_pawn", "white", 9, 4)])))
    g = apply(g, move((8, 3), (8, 2)), END)
    g = apply(g, move((9, 4), (8, 3)), END)  # a White Pawn steps onto the ready Square
    assert own_reinforcements(g)[0]["ready"] is True
    g = apply(g, king_move(g))
    assert_illegal(g, reinforce(8, 3, "jet"))


def test_one_reinforce_a_turn():
    two = [{"type": "jet", "color": "black", "row": 8, "col": 3}, {"type": "sub", "color": "black", "row": 8, "col": 3}]
    g = finish(finish(_stand_on_activation_square(reinforcements=two)))
    g = apply(g, move((8, 3), (8, 4)))
    g = apply(g, reinforce(8, 3, "jet"))
    assert_illegal(g, reinforce(8, 3, "sub"))


def test_a_ready_reinforcement_stays_ready():
    g = finish(finish(_stand_on_activation_square()))
    g = apply(g, move((8, 3), (8, 4)))
    g = rounds(g, 2)
    g = apply(g, reinforce(8, 3, "jet"))
    assert at(g, 8, 3) == [("jet", "black")]


# --- legal_actions ---------------------------------------------------------------------


def test_legal_actions_list_pickup_drop_exchange_reinforce_and_each_applies():
    g = _stand_on_activation_square(extra=[P("tank", "black", 5, 5), P("rocket_pawn", "black", 5, 6,
                                                                        articles=["anti_sam"])],
                                    articles=[A("bike", 5, 5)])
    g = finish(finish(g))
    g = apply(g, move((8, 3), (8, 4)))  # Black's Turn 3: the activation Square is left
    acts = wec.legal_actions(g)
    kinds = {a["type"] for a in acts}
    assert {"fire", "pickup", "drop", "exchange", "reinforce", "end_turn"} <= kinds
    assert [{k: a[k] for k in ("type", "to", "piece_type")} for a in acts if a["type"] == "reinforce"] == [
        {"type": "reinforce", "to": [8, 3], "piece_type": "jet"}]
    assert any(a["type"] == "pickup" and a["from"] == [5, 5, "ground"] and a["article"] == "bike" for a in acts)
    assert any(a["type"] == "drop" and a["from"] == [5, 6, "ground"] and a["article"] == "anti_sam" for a in acts)
    assert any(a["type"] == "exchange" and a["from"] == [5, 6, "ground"] and a["to"][:2] == [5, 5]
               and a["article"] == "anti_sam" for a in acts)
    assert not [a for a in acts if a["type"] == "move"]  # the Move is made
    assert all("piece" in a for a in acts if a["type"] in ("pickup", "drop", "exchange", "fire"))
    for a in acts:
        wec.apply(g, a)
    # One Pick-up a Turn: after it, none is offered.
    g2 = apply(g, pickup((5, 5), "bike"))
    assert not [a for a in wec.legal_actions(g2) if a["type"] == "pickup"]


def test_articles_are_never_lost():
    g = make([P("tank", "black", 5, 5, articles=["bike"]), P("rocket_pawn", "black", 5, 6)], [A("scuba", 5, 5)])
    before = all_articles(g)
    g = apply(g, exchange((5, 5), "bike", (5, 6)), pickup((5, 5), "scuba"), drop((5, 6), "bike"))
    assert all_articles(g) == before
