"""Game options: the standard game's values as the manual gives them, and
rejection of unknown names, bad values and impossible combinations."""

from __future__ import annotations

import pytest

from games.rules.wec import DEFAULT_OPTIONS, dump_scenario, load_scenario, new_game
from games.rules.wec.options import DEFAULTS, resolve

# The manual's standard game ("Game Options During A Standard Game using
# Weaponized Chess Movement" and the option descriptions elsewhere).
MANUAL_DEFAULTS = {
    "movement": "weaponized",
    "tank_range": 7,
    "cleric_range": 7,
    "queen_tank_range": 7,
    "queen_cleric_range": 7,
    "sub_jet_combat": False,  # only offered with move-only under the other movements
    "competitive": False,  # every game is non-competitive at creation
    "black_government": "monarchy",
    "white_government": "monarchy",
    "reinforcements": "normal",
    "weapon_articles": "normal",
    "xxx_boxes": "normal",
    "action_restriction": "none",  # no restrictions on Actions
    "forbid_king_flying_sub": False,  # no restrictions on Kings
    "stealthed_kings": False,  # Stealth is normally forbidden to a King
    "stealth_invisibility": True,  # both Stealth and submersion invisibility are possible
    "submersion_invisibility": True,
    "stealth_lock_on": True,  # lock-on Stealth is in action in a standard game
    "stealth_detect_in_range": True,  # "Stealth and submersion detector ranges are 3" (l. 761-763)
    "stealth_detection_range": 3,
    "submersion_detection_range": 3,
    "seen_when_firing": True,
    "jet_rocket_range": 0,  # a rocketing Jet must be directly over its target
    "homing_range": 3,
    "stunner_range": 9,
    "stun_turns": 3,
    "stunner_rate": 2,
    "flamer_rate": 4,
    "conversion_rate": 4,
    "rocket_rate": 4,
    "sam_rate": 4,
    "torpedo_rate": 4,
    "doze_enemies": True,
    "transport_ground_to_ground_only": True,
    "transport_from_carrier": False,  # only "if the pre-game options are set properly"
}

# Options whose standard value the manual does not settle; only their value
# must be one the option allows.
#   pawn_movement: chosen by the user when switching to Chess of Mass Destruction.
#   dominance: the manual describes both choices, names no default.
#   flamer_range: the manual contradicts itself: the standard-game option list
#     says "Flamer range is 1", while the Flamer's own description (Articles
#     list and glossary) destroys Pieces 1 and 2 Squares away.
UNSETTLED = {
    "pawn_movement": {"all_sides_and_forward", "all_forward", "all_but_front"},
    "dominance": {"submersion", "stealth"},
    "flamer_range": {1, 2},
}


def test_every_option_is_accounted_for():
    assert set(DEFAULTS) == set(MANUAL_DEFAULTS) | set(UNSETTLED)
    assert DEFAULT_OPTIONS == DEFAULTS


@pytest.mark.parametrize("name", sorted(MANUAL_DEFAULTS))
def test_manual_default(name):
    assert DEFAULTS[name] == MANUAL_DEFAULTS[name]
    assert type(DEFAULTS[name]) is type(MANUAL_DEFAULTS[name])


@pytest.mark.parametrize("name", sorted(UNSETTLED))
def test_unsettled_default_is_a_legal_value(name):
    assert DEFAULTS[name] in UNSETTLED[name]


def test_new_game_uses_the_defaults():
    assert dump_scenario(new_game())["options"] == DEFAULTS
    assert resolve() == DEFAULTS
    assert resolve({}) == DEFAULTS


def test_defaults_are_not_shared_mutable_state():
    opts = resolve()
    opts["tank_range"] = 6
    assert DEFAULTS["tank_range"] == 7
    assert resolve()["tank_range"] == 7


# --- allowed values -------------------------------------------------------------------

ALLOWED = {
    "movement": ["weaponized", "standard_chess", "mass_destruction"],
    "pawn_movement": ["all_sides_and_forward", "all_forward", "all_but_front"],
    "tank_range": [6, 7, 8],
    "cleric_range": [6, 7, 8],
    "queen_tank_range": [6, 7, 8],
    "queen_cleric_range": [6, 7, 8],
    "black_government": ["monarchy", "dictatorship", "theocracy", "democracy"],
    "white_government": ["monarchy", "dictatorship", "theocracy", "democracy"],
    "reinforcements": ["normal", "none"],
    "weapon_articles": ["normal", "none"],
    "xxx_boxes": ["normal", "none"],
    "competitive": [True, False],
    "doze_enemies": [True, False],
    "transport_ground_to_ground_only": [True, False],
    "stealth_invisibility": [True, False],
    "submersion_invisibility": [True, False],
    "stunner_range": [1, 9],
    "jet_rocket_range": [0, 1, 2],
}


@pytest.mark.parametrize("name,value", [(n, v) for n, vs in ALLOWED.items() for v in vs])
def test_allowed_value(name, value):
    g = new_game({name: value})
    assert dump_scenario(g)["options"][name] == value
    assert dump_scenario(load_scenario({"options": {name: value}}))["options"][name] == value


# --- rejections -------------------------------------------------------------------------

def _bad_values(name):
    default = DEFAULTS[name]
    if isinstance(default, bool):
        return ["yes", 1, None]
    if isinstance(default, int):
        return [-1, 99, "7", True, None]
    return ["bogus", 1, None, default.upper()]


BAD = [(n, v) for n in sorted(DEFAULTS) for v in _bad_values(n)] + [
    ("tank_range", 5),
    ("tank_range", 9),
    ("cleric_range", 0),
    ("queen_tank_range", 10),
    ("queen_cleric_range", 5),
    ("stunner_range", 0),
    ("stunner_range", 10),
    ("black_government", "anarchy"),
    ("movement", "checkers"),
]


@pytest.mark.parametrize("name,value", BAD, ids=[f"{n}={v!r}" for n, v in BAD])
def test_bad_value_names_the_option(name, value):
    with pytest.raises(ValueError, match=name):
        new_game({name: value})
    with pytest.raises(ValueError, match=name):
        load_scenario({"options": {name: value}})


def test_whole_number_options_reject_floats():
    # Options are JSON data; a range is a whole number. Every whole-number option
    # must refuse 7.0 alike (a float would also make equal games compare unequal).
    for name in sorted(n for n, v in DEFAULTS.items() if type(v) is int):
        with pytest.raises(ValueError, match=name):
            new_game({name: float(DEFAULTS[name])})


@pytest.mark.parametrize("name", ["warp_drive", "Movement", "tank range", ""])
def test_unknown_option_is_named(name):
    with pytest.raises(ValueError) as info:
        new_game({name: 1})
    assert repr(name) in str(info.value) or (name and name in str(info.value))
    with pytest.raises(ValueError):
        load_scenario({"options": {name: 1}})


def test_options_must_be_a_mapping():
    for bad in ([("movement", "weaponized")], "weaponized", 7):
        with pytest.raises(ValueError):
            new_game(bad)


# --- Sub/Jet combat movement -------------------------------------------------------------

@pytest.mark.parametrize("movement", ["standard_chess", "mass_destruction"])
def test_sub_jet_combat_with_move_only(movement):
    g = new_game({"movement": movement, "action_restriction": "move_only", "sub_jet_combat": True})
    assert dump_scenario(g)["options"]["sub_jet_combat"] is True


@pytest.mark.parametrize(
    "options",
    [
        {"sub_jet_combat": True},
        {"sub_jet_combat": True, "action_restriction": "move_only"},
        {"sub_jet_combat": True, "movement": "weaponized", "action_restriction": "move_only"},
        {"sub_jet_combat": True, "movement": "standard_chess"},
        {"sub_jet_combat": True, "movement": "mass_destruction", "action_restriction": "one_action_per_piece"},
        {"sub_jet_combat": True, "movement": "mass_destruction", "action_restriction": "12dpxmr"},
    ],
)
def test_sub_jet_combat_needs_move_only_and_other_movement(options):
    with pytest.raises(ValueError, match="sub_jet_combat"):
        new_game(options)
    with pytest.raises(ValueError, match="sub_jet_combat"):
        load_scenario({"options": options})


def test_sub_jet_combat_off_is_always_fine():
    for movement in ("weaponized", "standard_chess", "mass_destruction"):
        new_game({"movement": movement, "sub_jet_combat": False})
