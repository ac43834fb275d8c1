"""What options and governments change in play, each from a described
position and the manual's words (shared/seeds/001_e7d07cd680448a43.txt, cited
by line): competitive mode, the governments' inherent Antis, the amount
options and ``forbid_king_flying_sub``.

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
    fire,
    make,
    move,
    pid,
)

DOWN = (1, 0)


# --- competitive mode (l. 336-345, 1712-1716, 769-770) ----------------------------------------


def test_competitive_games_have_no_undo_and_fixed_options():
    g = make([P("rocket_pawn", "black", 2, 5)], options={"competitive": True})
    g = apply(g, move((2, 5), (3, 6)))
    with pytest.raises(ValueError):
        wec.undo(g)
    with pytest.raises(ValueError):
        wec.change_options(g, {"flamer_range": 1})


def test_competitive_history_hides_an_unseen_enemy_move_until_the_end():
    g = make([P("rocket_pawn", "black", 2, 5), P("stealth_pawn", "white", 8, 5)], visible=False,
             options={"competitive": True}, to_move="white")
    g = apply(g, move((8, 5), (7, 4)), END)
    assert wec.history(g, "black")[-1].startswith("MV:?")
    assert wec.history(g, "white")[-1].startswith("MV:SHP")
    assert not wec.history(g)[-1].startswith("MV:?")


def test_a_non_competitive_history_is_not_censored():
    g = make([P("rocket_pawn", "black", 2, 5), P("stealth_pawn", "white", 8, 5)], visible=False,
             to_move="white")
    g = apply(g, move((8, 5), (7, 4)), END)
    assert wec.history(g, "black") == wec.history(g)


# --- each government's inherent Antis (l. 265-272) ---------------------------------------------

GOVERNMENT_ANTIS = {
    "king": {"flamer", "rocket"},
    "dictator": {"conversion", "rocket"},
    "avatar": {"stunner", "rocket"},
    "president": {"conversion", "flamer"},
    "queen": {"conversion", "stunner"},
    "assassin": {"flamer", "stunner"},
    "acolyte": {"flamer", "conversion"},
    "prime_minister": {"rocket", "stunner"},
}
GOVERNMENT_OF = {"king": "monarchy", "queen": "monarchy", "dictator": "dictatorship", "assassin": "dictatorship",
                 "avatar": "theocracy", "acolyte": "theocracy", "president": "democracy",
                 "prime_minister": "democracy"}
FIRER = {"flamer": "flamer_pawn", "stunner": "stunner_pawn", "conversion": "conversion_pawn",
         "rocket": "jet"}


@pytest.mark.parametrize("attack", ["flamer", "stunner", "conversion", "rocket"])
@pytest.mark.parametrize("kind", sorted(GOVERNMENT_ANTIS))
def test_each_government_piece_resists_one_attack_of_its_inherent_antis(kind, attack):
    # One attack against the Piece (placed as White's secondary or primary).
    government = GOVERNMENT_OF[kind]
    primary = kind in ("king", "dictator", "avatar", "president")
    pieces = [P("king" if government == "monarchy" else
                {"dictatorship": "dictator", "theocracy": "avatar", "democracy": "president"}[government],
                "white", 10, 10)] if not primary else []
    level = "ground"
    if attack == "rocket":
        firer = P("jet", "black", 6, 5, "air")  # its restricted Rocket, range 0: straight below
        action = fire((6, 5, "air"), "jet_rocket", target=[6, 5, "ground"])
    else:
        firer = P(FIRER[attack], "black", 5, 5)
        action = fire((5, 5), attack, DOWN)
    target_row = 6
    g = make([firer, P(kind, "white", target_row, 5, level)] + pieces + [P("king", "black", 1, 1)], kings=False,
             options={"white_government": government})
    g = apply(g, action)
    survivors = [p for p in find(g, kind) if (p["row"], p["col"]) == (6, 5)]
    resisted = attack in GOVERNMENT_ANTIS[kind]
    if resisted:
        assert survivors and survivors[0]["color"] == "white" and not survivors[0].get("stun")
    elif attack == "stunner":
        assert survivors and survivors[0].get("stun")
    elif attack == "conversion":
        assert survivors and survivors[0]["color"] == "black"
    else:
        assert not survivors


# --- the amount options (l. 759-760) -------------------------------------------------------------


def _ground_types(g) -> list[str]:
    return [a["type"] for a in wec.dump_scenario(g)["articles"]]


def test_xxx_boxes_none_removes_only_the_xxx_articles():
    normal, none = wec.new_game(), wec.new_game({"xxx_boxes": "none"})
    assert "xxx" in _ground_types(normal)
    assert "xxx" not in _ground_types(none)
    assert sorted(t for t in _ground_types(normal) if t != "xxx") == sorted(_ground_types(none))
    assert len(find(none, "xxx_pawn")) == 2  # the XXX Pawns stay


def test_weapon_articles_none_removes_the_weapons_only():
    g = wec.new_game({"weapon_articles": "none"})
    weapons = {"flamer", "stunner", "conversion", "rocket_launcher", "sam_launcher", "torpedo_launcher"}
    assert not weapons & set(_ground_types(g))
    assert "anti_flamer" in _ground_types(g) and "xxx" in _ground_types(g)


def test_reinforcements_none_has_no_reinforcements():
    assert wec.dump_scenario(wec.new_game({"reinforcements": "none"}))["reinforcements"] == []
    assert len(wec.dump_scenario(wec.new_game())["reinforcements"]) == 20


# --- forbid_king_flying_sub (l. 324-325, 767-768) ---------------------------------------------


@pytest.mark.parametrize("forbid", [False, True])
def test_a_chopper_carries_the_king_only_without_the_option(forbid):
    g = make([P("chopper", "black", 4, 4, hand="right"), P("king", "black", 4, 4), P("king", "white", 10, 1)],
             kings=False, options={"forbid_king_flying_sub": forbid})
    carries = [a for a in wec.legal_actions(g) if a["type"] == "move" and a.get("carry")]
    assert bool(carries) is not forbid


@pytest.mark.parametrize("forbid", [False, True])
def test_a_sub_takes_the_king_below_only_without_the_option(forbid):
    g = make([P("sub", "black", 4, 4), P("king", "black", 4, 4), P("king", "white", 10, 1)],
             kings=False, options={"forbid_king_flying_sub": forbid})
    dive = move((4, 4), (4, 4, "sub"), carry=True, piece=pid(g, 4, 4, "ground", "sub"))
    if forbid:
        assert_illegal(g, dive)
    else:
        g = apply(g, dive)
        assert at(g, 4, 4, "sub") == [("king", "black"), ("sub", "black")]


def test_with_the_option_a_sub_may_still_carry_the_king_along_the_ground():
    g = make([P("sub", "black", 4, 4), P("king", "black", 4, 4), P("king", "white", 10, 1)],
             kings=False, options={"forbid_king_flying_sub": True})
    g = apply(g, move((4, 4), (5, 4), carry=True, piece=pid(g, 4, 4, "ground", "sub")))
    assert at(g, 5, 4) == [("king", "black"), ("sub", "black")]
