"""Game options: every switch the manual names, with the standard game's value.

``resolve(overrides)`` returns the full, validated option dict; an unknown
name, a bad value or an impossible combination raises ``ValueError`` naming it.

Manual: the pre-game options l. 316-330 and their standard values
l. 752-775 (Standard Chess l. 1108, Chess of Mass Destruction l. 1328);
competitive play l. 338-347.  Game terms outside the manual's list
(``TERMS``: ``open_record``) are kept only when given.
"""

from __future__ import annotations

from typing import Any

from .constants import GOVERNMENTS

MOVEMENTS = ("weaponized", "standard_chess", "mass_destruction")
PAWN_MOVEMENTS = ("all_sides_and_forward", "all_forward", "all_but_front")
ACTION_RESTRICTIONS = ("none", "move_only", "one_action_per_piece", "12dpxmr", "12dpxmr_one_piece")
DOMINANCE = ("submersion", "stealth")
AMOUNTS = ("normal", "none")

# name -> (default, what is allowed: bool, a range of whole numbers, or a tuple of choices)
SPEC: dict[str, tuple[Any, Any]] = {
    # Movement system and its ranges.
    "movement": ("weaponized", MOVEMENTS),
    "pawn_movement": ("all_sides_and_forward", PAWN_MOVEMENTS),
    "tank_range": (7, (6, 7, 8)),
    "cleric_range": (7, (6, 7, 8)),
    "queen_tank_range": (7, (6, 7, 8)),
    "queen_cleric_range": (7, (6, 7, 8)),
    # Subs and Jets with combat movement: only with move-only Action Restriction
    # under Standard Chess or Chess of Mass Destruction movement.
    "sub_jet_combat": (False, bool),
    # Competitive games have no Undo, fixed options and censored history.
    "competitive": (False, bool),
    # Government of each side (Monarchy in a standard game).
    "black_government": ("monarchy", tuple(GOVERNMENTS)),
    "white_government": ("monarchy", tuple(GOVERNMENTS)),
    # Amount of reinforcements, weapon Articles and XXX boxes in the setup.
    "reinforcements": ("normal", AMOUNTS),
    "weapon_articles": ("normal", AMOUNTS),
    "xxx_boxes": ("normal", AMOUNTS),
    # Action Restrictions.
    "action_restriction": ("none", ACTION_RESTRICTIONS),
    # King options.
    "forbid_king_flying_sub": (False, bool),
    "stealthed_kings": (False, bool),
    # Visibility.
    "stealth_invisibility": (True, bool),
    "submersion_invisibility": (True, bool),
    "stealth_lock_on": (True, bool),
    "stealth_detect_in_range": (True, bool),
    "stealth_detection_range": (3, range(0, 10)),
    "submersion_detection_range": (3, range(0, 10)),
    "seen_when_firing": (True, bool),
    "dominance": ("submersion", DOMINANCE),
    # Weapons.
    "jet_rocket_range": (0, range(0, 10)),
    "homing_range": (3, range(0, 10)),
    "stunner_range": (9, range(1, 10)),
    "stun_turns": (3, range(1, 10)),
    "flamer_range": (2, range(1, 10)),
    "stunner_rate": (2, range(1, 10)),
    "flamer_rate": (4, range(1, 10)),
    "conversion_rate": (4, range(1, 10)),
    "rocket_rate": (4, range(1, 10)),
    "sam_rate": (4, range(1, 10)),
    "torpedo_rate": (4, range(1, 10)),
    # Dozing and transport.
    "doze_enemies": (True, bool),
    "transport_ground_to_ground_only": (True, bool),
    "transport_from_carrier": (False, bool),
}

DEFAULTS: dict[str, Any] = {name: spec[0] for name, spec in SPEC.items()}

# Game terms the manual does not list among its options.  ``open_record``:
# whether a non-competitive game shows every hidden action in both records
# while it runs.  The manual's program does (both sides share one screen,
# l. 338-347), so that is the default; a site where the two sides play from
# two homes sets it False unless both agreed (docs/rulings.md, "Open
# record").  A term is in a game's option dict only when it was given, so
# every game the manual describes (its view, documents and identity hash)
# stays as it was.
TERMS: dict[str, tuple[Any, Any]] = {
    "open_record": (True, bool),
}
OPTION_NAMES = tuple(SPEC) + tuple(TERMS)
_ALLOWED: dict[str, Any] = {name: spec[1] for name, spec in (*SPEC.items(), *TERMS.items())}


def value(options: dict[str, Any], name: str) -> Any:
    """An option's value in a resolved option dict, a term's default included."""
    if name in TERMS:
        return options.get(name, TERMS[name][0])
    return options[name]


def _check(name: str, value: Any) -> None:
    allowed = _ALLOWED[name]
    if allowed is bool:
        if not isinstance(value, bool):
            raise ValueError(f"option {name!r} must be true or false, not {value!r}")
    elif isinstance(allowed, range):
        if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
            raise ValueError(
                f"option {name!r} must be a whole number from {allowed.start} to {allowed.stop - 1}, not {value!r}"
            )
    elif isinstance(value, bool) or value not in allowed or type(value) is not type(allowed[0]):
        choices = ", ".join(repr(a) for a in allowed)
        raise ValueError(f"option {name!r} must be one of {choices}, not {value!r}")


def resolve(overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """The full option set: the standard game's defaults with ``overrides``.

    Raises ``ValueError`` for an unknown option, a bad value, or a combination
    the manual rules out.
    """
    if overrides is None:
        overrides = {}
    if not isinstance(overrides, dict):
        raise ValueError(f"options must be a mapping of option names to values, not {type(overrides).__name__}")
    for name in overrides:
        if name not in _ALLOWED:
            raise ValueError(f"unknown option {name!r}")
    opts = dict(DEFAULTS)
    opts.update(overrides)
    for name, value in opts.items():
        _check(name, value)
    if opts["sub_jet_combat"] and (
        opts["movement"] == "weaponized" or opts["action_restriction"] != "move_only"
    ):
        raise ValueError(
            "option 'sub_jet_combat' needs movement 'standard_chess' or 'mass_destruction' "
            "and action_restriction 'move_only'"
        )
    return opts
