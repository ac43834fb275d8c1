"""Rulings checked on described positions: each test sets up a described
position with ``load_scenario`` and checks one statement of the manual
(shared/seeds/001_e7d07cd680448a43.txt, cited by line) or one ruling of
docs/rulings.md.

Squares are (row, col); Black moves first and its forward is +row. Unless a
test says otherwise every enemy is in plain sight (positions.VISIBLE) and
the kings wait in column 1 ((1, 1) and (10, 1)).
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
    at,
    by_id,
    drop,
    exchange,
    find,
    finish,
    fire,
    ground_at,
    make,
    move,
    pickup,
    pid,
    reinforce,
    the,
)

DOWN = (1, 0)  # Black's forward
UP = (-1, 0)


def moves_of(g, frm) -> set:
    return {tuple(a["to"]) for a in wec.legal_actions(g) if a["type"] == "move" and a["from"] == list(frm)}


def seen_by(g, color) -> set:
    """(type, row, col, level) of the enemy Pieces ``color`` sees."""
    return {(p["type"], p["row"], p["col"], p["level"]) for p in wec.view(g, color)["pieces"] if p["color"] != color}


# --- Dozer, Destroyer, AAA and Transport never take (l. 510-513, 795-797) ------------------


@pytest.mark.parametrize("kind", ["dozer", "destroyer", "aaa", "tank", "king_pawn"])
def test_a_piece_on_a_bike_does_not_take_the_enemy_in_its_way(kind):
    # l. 795-797: Dozer, Destroyer, AAA "cannot take an enemy Piece by Moving or
    # moving"; l. 510-513: only a Chopper multi-piece takes by moving, so no
    # Piece on a Transport does. The Bike's first Square holds a white Pawn.
    kind = "rocket_pawn" if kind == "king_pawn" else kind
    extra = {"hand": "right"} if kind == "tank" else {}
    g = make([P(kind, "black", 4, 4, articles=["bike"], **extra), P("stunner_pawn", "white", 5, 4)])
    g = apply(g, fire((4, 4), "bike", to=[8, 4, "ground"]))
    assert at(g, 5, 4) == [("stunner_pawn", "white")]
    assert [(p["row"], p["col"]) for p in find(g, kind, "black")] == [(4, 4)]
    assert not by_id(g, find(g, kind, "black")[0]["id"]).get("transport")


def test_a_transport_met_by_an_enemy_on_a_later_step_crashes_without_taking():
    g = make([P("dozer", "black", 3, 4, articles=["bike"]), P("aaa", "white", 6, 4)])
    g = apply(g, fire((3, 4), "bike", to=[8, 4, "ground"]))
    assert at(g, 4, 4) == [("dozer", "black")]
    g = finish(finish(g))  # the launch Turn ends; White's Turn
    g = finish(finish(g))  # Black's next Turn ends: (5, 4)
    assert at(g, 5, 4) == [("dozer", "black")]
    g = finish(g)  # and the next: (6, 4) holds the AAA, the Dozer stops
    assert at(g, 6, 4) == [("aaa", "white")]
    assert at(g, 5, 4) == [("dozer", "black")]
    assert not the(g, "dozer", "black").get("transport")


def test_a_jump_pack_aaa_running_into_an_enemy_jet_crashes_and_comes_down():
    # l. 795-797 and l. 597-600: the AAA takes nothing; off the ground it comes down.
    g = make([P("aaa", "black", 4, 4, articles=["jump_pack"]), P("jet", "white", 5, 4, "air")])
    g = apply(g, fire((4, 4), "jump_pack", to=[8, 4, "ground"]))
    assert at(g, 4, 4, "air") == [("aaa", "black")]
    g = finish(finish(g))  # the launch Turn ends without a step
    g = finish(g)  # the next Black Turn ends: (5, 4) air holds the White Jet
    assert at(g, 5, 4, "air") == [("jet", "white")]
    assert at(g, 4, 4) == [("aaa", "black")]


def test_a_scuba_piece_running_into_an_enemy_sub_crashes_and_surfaces():
    g = make([P("tank", "black", 4, 4, hand="right", articles=["scuba"]), P("sub", "white", 5, 4, "sub")])
    g = apply(g, fire((4, 4), "scuba", to=[8, 4, "ground"]))
    assert at(g, 4, 4, "sub") == [("tank", "black")]
    g = finish(finish(g))
    g = finish(g)
    assert at(g, 5, 4, "sub") == [("sub", "white")]
    assert at(g, 4, 4) == [("tank", "black")]


def test_a_crashed_jump_pack_over_enemy_ground_is_destroyed():
    # l. 597-602: a flying Piece that cannot go to Ground is destroyed.
    g = make([P("tank", "black", 4, 4, hand="right", articles=["jump_pack"]), P("jet", "white", 6, 4, "air"),
              P("rocket_pawn", "white", 5, 4)])
    g = apply(g, fire((4, 4), "jump_pack", to=[8, 4, "ground"]))
    g = finish(finish(g))
    g = finish(finish(g))  # (5, 4) air
    assert at(g, 5, 4, "air") == [("tank", "black")]
    g = finish(finish(g))  # (6, 4) air holds the white Jet: crash over the white Pawn
    assert find(g, "tank", "black") == []
    assert at(g, 6, 4, "air") == [("jet", "white")]
    assert at(g, 5, 4) == [("rocket_pawn", "white")]


def test_a_chopper_carrying_a_passenger_takes_by_moving():
    # l. 511-512: the one multi-piece that takes by Moving.
    g = make([P("chopper", "black", 4, 4, "air", hand="right"), P("tank", "black", 4, 4, "air", hand="right"),
              P("rocket_pawn", "white", 6, 5)])
    assert (6, 5, "ground") in {t for t in wec.move_targets(g, 4, 4, "air")}
    g = apply(g, move((4, 4, "air"), (6, 5, "ground"), carry=True, piece=pid(g, 4, 4, "air", "chopper")))
    assert at(g, 6, 5) == [("chopper", "black"), ("tank", "black")]


# --- non-combat Moves into unseen enemies (l. 795-806 with l. 1015-1017) ------------------


def _stealthed(kind, color, row, col, level="ground", **extra):
    return P(kind, color, row, col, level, articles=["stealth"], **extra)


def test_a_destroyer_stepping_onto_an_unseen_enemy_stays_where_it_was():
    g = make([P("destroyer", "black", 4, 4), _stealthed("rocket_pawn", "white", 5, 5)], visible=False)
    assert ("rocket_pawn", 5, 5, "ground") not in seen_by(g, "black")
    assert (5, 5, "ground") in moves_of(g, [4, 4, "ground"])  # looks empty
    g = apply(g, move((4, 4), (5, 5)))
    assert at(g, 4, 4) == [("destroyer", "black")]
    assert at(g, 5, 5) == [("rocket_pawn", "white")]
    assert wec.view(g, "black")["turn"]["moved"]  # the Move is spent


def test_a_jet_flying_two_squares_stops_before_an_unseen_enemy_on_the_second():
    g = make([P("jet", "black", 3, 4, "air"), _stealthed("chopper", "white", 5, 4, "air", hand="left")],
             visible=False)
    g = apply(g, move((3, 4, "air"), (5, 4, "air")))
    assert at(g, 4, 4, "air") == [("jet", "black")]
    assert at(g, 5, 4, "air") == [("chopper", "white")]


def test_a_jet_landing_on_an_unseen_enemy_stays_in_the_air():
    g = make([P("jet", "black", 4, 4, "air"), _stealthed("rocket_pawn", "white", 4, 4)], visible=False)
    g = apply(g, move((4, 4, "air"), (4, 4, "ground")))
    assert at(g, 4, 4, "air") == [("jet", "black")]
    assert at(g, 4, 4) == [("rocket_pawn", "white")]


def test_a_sub_moving_into_an_unseen_enemy_stays():
    # l. 800: "The Movement of a Sub is non-combat".
    g = make([P("sub", "black", 4, 4), _stealthed("rocket_pawn", "white", 5, 4)], visible=False)
    assert ("rocket_pawn", 5, 4, "ground") not in seen_by(g, "black")
    g = apply(g, move((4, 4), (5, 4)))
    assert at(g, 4, 4) == [("sub", "black")]
    assert at(g, 5, 4) == [("rocket_pawn", "white")]


def test_a_tank_still_stops_on_an_unseen_enemy_and_takes_it():
    # l. 1015-1017 for a combat mover: stops there and takes.
    g = make([P("tank", "black", 2, 4, hand="right"), _stealthed("rocket_pawn", "white", 4, 4)], visible=False)
    assert (9, 7, "ground") in moves_of(g, [2, 4, "ground"])
    g = apply(g, move((2, 4), (9, 7)))
    assert at(g, 4, 4) == [("tank", "black")]
    assert find(g, "rocket_pawn", "white") == []


def test_with_sub_jet_combat_a_sub_takes_the_unseen_enemy():
    opts = {"movement": "standard_chess", "action_restriction": "move_only", "sub_jet_combat": True}
    g = make([P("sub", "black", 4, 4), _stealthed("rocket_pawn", "white", 5, 4)], visible=False, options=opts)
    g = apply(g, move((4, 4), (5, 4)))
    assert at(g, 5, 4) == [("sub", "black")]


# --- readying a reinforcement (l. 578-586, 680-681) -----------------------------------------


def _reinf(**extra):
    return [dict({"type": "jet", "color": "black", "row": 8, "col": 3}, **extra)]


def _state(g, color="black"):
    [r] = [r for r in wec.view(g, color)["reinforcements"] if r["color"] == color]
    return r.get("armed", False), r.get("ready", False)


def test_arriving_and_leaving_in_one_turn_does_not_ready_a_reinforcement():
    # The Move brings the Dozer onto (8, 3); its Bike takes it off again in the
    # same Turn: "On some subsequent Turn" (l. 583) is not met.
    g = make([P("dozer", "black", 7, 3, articles=["bike"])], reinforcements=_reinf())
    g = apply(g, move((7, 3), (8, 3)))
    assert _state(g) == (True, False)
    g = apply(g, fire((8, 3), "bike", to=[8, 6, "ground"]))
    assert at(g, 8, 3) == []
    assert _state(g) == (True, False)
    assert_illegal(g, reinforce(8, 3, "jet"))


def test_a_reinforcement_armed_on_one_turn_is_ready_after_leaving_on_a_later_one():
    g = make([P("dozer", "black", 7, 3)], reinforcements=_reinf())
    g = apply(g, move((7, 3), (8, 3)), END)
    g = finish(g)  # White
    assert _state(g) == (True, False)
    g = apply(g, move((8, 3), (8, 4)))
    assert _state(g) == (True, True)
    g = apply(g, reinforce(8, 3, "jet"))
    assert at(g, 8, 3) == [("jet", "black")]


def test_a_square_with_a_piece_in_the_air_is_not_empty():
    # "'empty' means no Pieces in this Square" (l. 680-681): a friendly Jet
    # overhead keeps the reinforcement from being readied.
    g = make([P("dozer", "black", 8, 3), P("jet", "black", 8, 3, "air")],
             reinforcements=_reinf(armed=True))
    g = apply(g, move((8, 3), (8, 4)))
    assert _state(g) == (True, False)
    g = finish(g)
    g = finish(g)  # White
    g = apply(g, move((8, 3, "air"), (8, 5, "air")))
    assert _state(g) == (True, True)


def test_an_enemy_in_the_square_keeps_it_from_being_empty():
    g = make([P("dozer", "black", 8, 3), P("jet", "white", 8, 3, "air")],
             reinforcements=_reinf(armed=True))
    g = apply(g, move((8, 3), (8, 4)), END)
    assert _state(g) == (True, False)


def test_a_ready_reinforcement_stays_ready_across_turns():
    g = make([P("dozer", "black", 7, 4)], reinforcements=_reinf(armed=True, ready=True))
    for _ in range(3):
        g = finish(finish(g))
        assert _state(g) == (True, True)
    assert {"type": "reinforce", "to": [8, 3], "piece_type": "jet"} in wec.legal_actions(g)


def test_an_armed_reinforcement_stays_armed_while_the_piece_stays():
    g = make([P("dozer", "black", 7, 3), P("rocket_pawn", "black", 5, 6)], reinforcements=_reinf())
    g = apply(g, move((7, 3), (8, 3)), END)
    for _ in range(3):
        g = finish(finish(g))
        assert _state(g) == (True, False)
    g = finish(g)  # White
    g = apply(g, move((8, 3), (7, 3)))
    assert _state(g) == (True, True)


# --- the end of the game (l. 48-49, 456-458, 1745-1747) --------------------------------------


def test_taking_the_king_ends_the_game_when_the_turn_ends():
    g = make([P("king", "black", 1, 1), P("king", "white", 2, 2), P("rocket_pawn", "black", 5, 5)], kings=False)
    g = apply(g, move((1, 1), (2, 2)))
    assert wec.outcome(g) is None
    assert wec.legal_actions(g) == [{"type": "end_turn"}]
    assert_illegal(g, fire((5, 5), "rocket_launcher", DOWN))
    assert wec.move_targets(g, 5, 5, "ground") == set()
    g = apply(g, END)
    assert wec.outcome(g) == {"winner": "black", "reason": "primary_taken"}
    assert wec.legal_actions(g) == []


def _rocket(row, col, direction, color="black"):
    # Strength 2 (two Rocket Launchers firing together) beats the King's one
    # inherent Anti-Rocket (l. 265).
    return {"kind": "rocket", "color": color, "row": row, "col": col, "level": "ground",
            "direction": list(direction), "target": None, "strength": 2, "fresh": False}


def _with_projectiles(g, *projectiles):
    doc = wec.dump_scenario(g)
    doc["projectiles"] = list(projectiles)
    return wec.load_scenario(doc)


def test_losing_your_own_king_to_your_own_rocket_at_the_end_of_the_turn():
    # Black's Rocket waits one Square behind Black's own King: at the end of
    # Black's Turn it flies into it (l. 1747: "the friendly player loses").
    g = make([P("king", "black", 5, 5), P("king", "white", 10, 1), P("rocket_pawn", "black", 2, 2)], kings=False)
    g = _with_projectiles(g, _rocket(4, 5, DOWN))
    g = apply(g, move((2, 2), (3, 3)))
    assert wec.legal_actions(g)[-1] == END
    g = apply(g, END)
    assert find(g, "king", "black") == []
    assert wec.outcome(g) == {"winner": "white", "reason": "primary_lost"}


def test_both_kings_falling_in_one_turn_loses_it_for_the_side_whose_turn_it_was():
    # Black takes the White King with its Tank; at the end of the Turn Black's
    # own Rocket hits Black's King (l. 1745-1747).
    g = make([P("king", "black", 5, 5), P("king", "white", 9, 7), P("tank", "black", 2, 4, hand="right")],
             kings=False)
    g = _with_projectiles(g, _rocket(4, 5, DOWN))
    assert (9, 7, "ground") in wec.move_targets(g, 2, 4, "ground")
    g = apply(g, move((2, 4), (9, 7)))  # the right Tank's forward path ends on the White King
    assert find(g, "king", "white") == []
    assert wec.outcome(g) is None
    g = apply(g, END)
    assert find(g, "king", "black") == []
    assert wec.outcome(g) == {"winner": "white", "reason": "both_primaries_lost"}


def test_the_winner_may_not_act_after_taking_the_king():
    g = make([P("king", "black", 1, 1), P("king", "white", 2, 2), P("dozer", "black", 5, 5, articles=["bike"]),
              P("xxx_pawn", "black", 6, 6)], [A("flamer", 5, 5)], kings=False)
    g = apply(g, move((1, 1), (2, 2)))
    for a in (pickup([5, 5], "flamer"), drop([5, 5], "bike"), fire((5, 5), "bike", to=[7, 5, "ground"]),
              exchange([5, 5], "bike", [6, 6]), move((5, 5), (5, 6))):
        assert_illegal(g, a)


def test_converting_the_king_also_waits_for_the_end_of_the_turn():
    g = make([P("king", "black", 1, 1), P("king", "white", 5, 5), P("cleric", "black", 4, 5, hand="left")],
             kings=False)
    g = apply(g, fire((4, 5), "conversion", DOWN))
    assert wec.outcome(g) is None
    assert wec.legal_actions(g) == [{"type": "end_turn"}]
    g = apply(g, END)
    assert wec.outcome(g) == {"winner": "black", "reason": "primary_taken"}


# --- range detection in the standard game (l. 761-763) ---------------------------------------


def test_range_detection_is_on_by_default():
    assert wec.DEFAULT_OPTIONS["stealth_detect_in_range"] is True
    assert wec.new_game().options["stealth_detect_in_range"] is True


@pytest.mark.parametrize("distance, seen", [(1, True), (3, True), (4, False)])
def test_a_stealthed_enemy_three_or_fewer_squares_from_a_detector_is_seen(distance, seen):
    g = make([P("dozer", "black", 2, 5, articles=["anti_stealth"]),
              _stealthed("tank", "white", 2 + distance, 5, hand="left")], visible=False,
             options={"stealth_lock_on": False})
    assert (("tank", 2 + distance, 5, "ground") in seen_by(g, "black")) is seen


# --- Drop onto a full Square (l. 311-313, 1923-1939) -------------------------------------------


def test_a_drop_onto_a_full_square_goes_where_stunned_off_articles_go():
    # Ground of (4, 4) full; the first Square tried next is the forward-left
    # one, (5, 3) for Black (l. 1927-1930).
    g = make([P("dozer", "black", 4, 4, articles=["bike"])], [A("flamer", 4, 4), A("stunner", 4, 4)])
    assert [a for a in wec.legal_actions(g) if a["type"] == "drop"] == [dict(drop([4, 4], "bike"), piece=3)]
    g = apply(g, drop([4, 4], "bike"))
    assert ground_at(g, 4, 4) == ["flamer", "stunner"]
    assert ground_at(g, 5, 3) == ["bike"]
    assert the(g, "dozer", "black")["articles"] == []


def test_a_drop_skips_full_squares_in_ring_order():
    full = [A("flamer", r, c) for r, c in ((4, 4), (5, 3), (5, 4), (5, 5))] + \
           [A("stunner", r, c) for r, c in ((4, 4), (5, 3), (5, 4), (5, 5))]
    g = make([P("dozer", "black", 4, 4, articles=["bike"])], full)
    g = apply(g, drop([4, 4], "bike"))
    assert ground_at(g, 4, 3) == ["bike"]  # then the left Square (l. 1930-1931)


def test_a_white_drop_uses_whites_forward_and_left():
    g = make([P("dozer", "white", 7, 7, articles=["bike"])], [A("flamer", 7, 7), A("stunner", 7, 7)],
             to_move="white")
    g = apply(g, drop([7, 7], "bike"))
    assert ground_at(g, 6, 8) == ["bike"]  # White's forward is -row, its left +col


# --- the mixed Square (l. 1914-1917) ----------------------------------------------------------


def test_no_piece_may_move_into_a_square_holding_a_mixed_pair():
    g = make([P("king", "black", 5, 4), P("king", "white", 10, 1), P("jet", "black", 6, 5, "air"),
              P("jet", "white", 6, 5, "air")], kings=False)
    assert (6, 5, "ground") not in wec.move_targets(g, 5, 4, "ground")
    assert (6, 4, "ground") in wec.move_targets(g, 5, 4, "ground")
    assert_illegal(g, move((5, 4), (6, 5)))


def test_a_piece_of_the_mixed_pair_may_leave_and_the_square_opens():
    g = make([P("king", "black", 5, 4), P("king", "white", 10, 1), P("jet", "black", 6, 5, "air"),
              P("jet", "white", 6, 5, "air"), P("rocket_pawn", "black", 3, 3)], kings=False)
    g = apply(g, move((6, 5, "air"), (6, 7, "air")), END)
    g = finish(g)
    assert (6, 5, "ground") in wec.move_targets(g, 5, 4, "ground")


def test_a_jet_of_the_mixed_pair_may_still_land_in_its_own_square():
    g = make([P("jet", "black", 6, 5, "air"), P("jet", "white", 6, 5, "air")])
    assert (6, 5, "ground") in wec.move_targets(g, 6, 5, "air")


def test_a_transport_into_a_mixed_square_crashes():
    g = make([P("dozer", "black", 5, 5, articles=["bike"]), P("jet", "black", 6, 5, "air"),
              P("jet", "white", 6, 5, "air")])
    g = apply(g, fire((5, 5), "bike", to=[8, 5, "ground"]))
    assert at(g, 5, 5) == [("dozer", "black")]
    assert at(g, 6, 5) == []


# --- carrying stunned Pieces (docs/rulings.md, "Carrying") ---------------------------------------


def test_a_stunned_piece_is_never_carried():
    g = make([P("chopper", "black", 4, 4, hand="right"), P("tank", "black", 4, 4, hand="right", stun=2)])
    chopper = pid(g, 4, 4, "ground", "chopper")
    carries = [a for a in wec.legal_actions(g) if a["type"] == "move" and a.get("carry")]
    assert carries == []
    assert wec.move_targets(g, 4, 4, "ground", piece=chopper)
    dest = sorted(wec.move_targets(g, 4, 4, "ground", piece=chopper))[0]
    assert_illegal(g, move((4, 4), dest, carry=True, piece=chopper))


def test_no_reinforcement_appears_in_a_square_holding_a_mixed_pair():
    g = make([P("jet", "black", 8, 3, "air"), P("jet", "white", 8, 3, "air"), P("rocket_pawn", "black", 4, 4)],
             reinforcements=_reinf(armed=True, ready=True))
    assert not [a for a in wec.legal_actions(g) if a["type"] == "reinforce"]
    assert_illegal(g, reinforce(8, 3, "jet"))


def test_no_dozing_pushes_pieces_into_a_square_holding_a_mixed_pair():
    g = make([P("dozer", "black", 5, 5), P("rocket_pawn", "black", 5, 5), P("jet", "black", 6, 5, "air"),
              P("jet", "white", 6, 5, "air")])
    dozings = {tuple(a["to"]) for a in wec.legal_actions(g) if a["type"] == "move" and "doze" in a}
    assert (6, 5, "ground") not in dozings
    assert (6, 4, "ground") in dozings
