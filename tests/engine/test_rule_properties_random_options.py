"""Properties of the rules over random valid option sets.

Each example draws a full option set (movement system, ranges, governments,
amounts, restrictions, visibility, transport and stun options, Sub/Jet combat
where it is allowed) and plays a random game from the standard position or
from a crowded scenario (kings sometimes in the middle, so that games end).
Along the game it checks, after every action:

- non-combat movement never takes: a Dozer, Destroyer, AAA, Sub or Jet Move
  (Sub and Jet unless ``sub_jet_combat``) and every Transport step (l. 510-513,
  795-806) has no "taken" result;
- a reinforcement becomes ready only with its Square empty at every level and
  not in the Turn it was armed in (l. 581-584, 680-681);
- once a primary government Piece falls, only ``end_turn`` is left, and the
  result fixed at that Turn's end follows l. 1745-1747;
- no Move offered lands in a Square holding a mixed pair the mover sees, from
  another Square (l. 1914-1917).
"""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

import games.rules.wec as wec
from games.rules.wec.actions import turn as wec_turn

from .random_play import crowd, property_settings

NON_COMBAT = {"dozer", "destroyer", "aaa"}
TRANSPORTS = {"bike", "jump_pack", "scuba"}
GOVERNMENTS = ["monarchy", "dictatorship", "theocracy", "democracy"]
PRIMARIES = {"king", "dictator", "avatar", "president"}


@st.composite
def option_sets(draw) -> dict:
    movement = draw(st.sampled_from(["weaponized", "standard_chess", "mass_destruction"]))
    restriction = draw(st.sampled_from(["none", "none", "move_only", "one_action_per_piece", "12dpxmr",
                                        "12dpxmr_one_piece"]))
    opts = {
        "movement": movement,
        "pawn_movement": draw(st.sampled_from(["all_sides_and_forward", "all_forward", "all_but_front"])),
        "tank_range": draw(st.sampled_from([6, 7, 8])),
        "cleric_range": draw(st.sampled_from([6, 7, 8])),
        "queen_tank_range": draw(st.sampled_from([6, 7, 8])),
        "queen_cleric_range": draw(st.sampled_from([6, 7, 8])),
        "black_government": draw(st.sampled_from(GOVERNMENTS)),
        "white_government": draw(st.sampled_from(GOVERNMENTS)),
        "reinforcements": draw(st.sampled_from(["normal", "none"])),
        "weapon_articles": draw(st.sampled_from(["normal", "none"])),
        "xxx_boxes": draw(st.sampled_from(["normal", "none"])),
        "action_restriction": restriction,
        "forbid_king_flying_sub": draw(st.booleans()),
        "stealthed_kings": draw(st.booleans()),
        "stealth_invisibility": draw(st.booleans()),
        "submersion_invisibility": draw(st.booleans()),
        "stealth_lock_on": draw(st.booleans()),
        "stealth_detect_in_range": draw(st.booleans()),
        "stealth_detection_range": draw(st.integers(0, 4)),
        "submersion_detection_range": draw(st.integers(0, 4)),
        "seen_when_firing": draw(st.booleans()),
        "dominance": draw(st.sampled_from(["submersion", "stealth"])),
        "homing_range": draw(st.integers(0, 4)),
        "stun_turns": draw(st.integers(1, 4)),
        "flamer_range": draw(st.integers(1, 3)),
        "doze_enemies": draw(st.booleans()),
        "transport_ground_to_ground_only": draw(st.booleans()),
        "transport_from_carrier": draw(st.booleans()),
        # Record terms change no rule: drawn so that no rule depends on them.
        "competitive": draw(st.booleans()),
        "open_record": draw(st.booleans()),
    }
    for rate in ("stunner_rate", "flamer_rate", "conversion_rate", "rocket_rate", "sam_rate", "torpedo_rate"):
        opts[rate] = draw(st.integers(1, 4))
    if movement != "weaponized" and restriction == "move_only":
        opts["sub_jet_combat"] = draw(st.booleans())
    return opts


@st.composite
def cases(draw):
    opts = draw(option_sets())
    seed = draw(st.integers(0, 2**32 - 1))
    if draw(st.booleans()):
        return "standard", seed, opts
    rng = random.Random(seed)
    for _ in range(50):
        crowd_opts = {k: v for k, v in opts.items()
                      if k not in ("black_government", "white_government")}
        doc = crowd(rng, crowd_opts)
        if rng.random() < 0.7:
            # Bring the kings into the fight so that some games end.
            for king in (p for p in doc["pieces"] if p["type"] == "king"):
                king["row"], king["col"] = rng.randint(4, 7), rng.randint(3, 8)
        # Activation Squares under Pieces already on the board, so that
        # reinforcements get armed and readied during the game.
        ground = [p for p in doc["pieces"] if p.get("level", "ground") == "ground" and p["type"] != "king"]
        doc["reinforcements"] = [
            {"type": rng.choice(["jet", "sub", "dozer", "aaa"]), "color": p["color"], "row": p["row"],
             "col": p["col"]}
            for p in rng.sample(ground, min(len(ground), rng.randint(2, 5)))
        ]
        try:
            wec.load_scenario(doc)
        except ValueError:
            continue
        return "scenario", rng.randint(0, 2**32 - 1), doc
    raise AssertionError("no valid scenario in 50 tries")


def _start(kind, payload):
    return wec.new_game(payload) if kind == "standard" else wec.load_scenario(payload)


def _primaries(g) -> dict[str, set[int]]:
    out: dict[str, set[int]] = {"black": set(), "white": set()}
    for p in wec.dump_scenario(g)["pieces"]:
        if p["type"] in PRIMARIES:
            out[p["color"]].add(p["id"])
    return out


def _reinforcements(g) -> dict[tuple, tuple[bool, bool]]:
    # Keyed by colour, Square, type and the count of alike ones before it, not
    # by place in the list: a Reinforce earlier in the Turn removes an entry
    # and would shift the later ones' places (a false "armed and readied in
    # one Turn").
    out: dict[tuple, tuple[bool, bool]] = {}
    for r in wec.dump_scenario(g)["reinforcements"]:
        base = (r["color"], r["row"], r["col"], r["type"])
        n = sum(1 for k in out if k[:4] == base)
        out[(*base, n)] = (r.get("armed", False), r.get("ready", False))
    return out


def _square_empty(g, row, col) -> bool:
    return not any((p["row"], p["col"]) == (row, col) for p in wec.dump_scenario(g)["pieces"])


def _last_events(g) -> list[dict]:
    return list(g.turn_log[-1]["events"]) if g.turn_log else []


def _end_of_turn_events(g) -> list[dict]:
    h = g.copy()
    events: list[dict] = []
    wec_turn.end_of_turn(h, events)
    return events


def _mixed_squares_seen(g, color) -> set[tuple[int, int]]:
    places: dict[tuple, set[str]] = {}
    for p in wec.view(g, color)["pieces"]:
        places.setdefault((p["row"], p["col"], p["level"]), set()).add(p["color"])
    return {(r, c) for (r, c, _lv), colors in places.items() if len(colors) == 2}


@property_settings(25)
@given(cases())
def test_the_fixed_rules_hold_in_random_games_under_random_options(case):
    kind, seed, payload = case
    rng = random.Random(seed)
    g = _start(kind, payload)
    combat_subs_jets = g.options["sub_jet_combat"]
    turn_start_primaries = _primaries(g)
    turn_start_reinf = _reinforcements(g)
    for _ in range(90):
        acts = wec.legal_actions(g)
        if not acts:
            assert wec.outcome(g) is not None
            break
        color = wec.to_move(g)
        fallen = {c for c, ids in turn_start_primaries.items() if ids - _primaries(g)[c]}
        if fallen:
            assert acts == [{"type": "end_turn"}]
            assert wec.outcome(g) is None
        mixed = _mixed_squares_seen(g, color)
        for a in acts:
            if a["type"] == "move" and tuple(a["to"][:2]) != tuple(a["from"][:2]):
                assert tuple(a["to"][:2]) not in mixed, a
        by_type: dict[str, list] = {}
        for a in acts:
            by_type.setdefault(a["type"], []).append(a)
        a = rng.choice(by_type[rng.choice(sorted(by_type))])
        mover = None
        if a["type"] == "move":
            mover = next(p for p in wec.dump_scenario(g)["pieces"] if p["id"] == a["piece"])
        end_events = _end_of_turn_events(g) if a["type"] == "end_turn" else None
        g2 = wec.apply(g, a)

        # Non-combat movement never takes.
        if mover is not None and (mover["type"] in NON_COMBAT
                                  or (mover["type"] in ("sub", "jet") and not combat_subs_jets)):
            assert not [e for e in _last_events(g2) if e["kind"] == "taken"], (mover, a)
        if a["type"] == "fire" and a["weapon"] in TRANSPORTS:
            assert not [e for e in _last_events(g2) if e["kind"] == "taken"], a
        if end_events is not None:
            assert not [e for e in end_events if e["kind"] == "taken"]

        # Reinforcements are readied only on a later Turn, with the Square empty.
        after = _reinforcements(g2)
        for key, (_armed, ready) in _reinforcements(g).items():
            if key not in after or ready or not after[key][1]:
                continue
            _color, row, col, _type, _n = key
            assert _square_empty(g2, row, col), key
            assert turn_start_reinf.get(key, (False, False))[0], f"{key} armed and readied in one Turn"

        if a["type"] == "end_turn":
            # The result is fixed at the end of the Turn a primary fell in.
            lost = {c for c, ids in turn_start_primaries.items() if ids - _primaries(g2)[c]}
            result = wec.outcome(g2)
            if lost:
                expected = ("white" if color == "black" else "black") if color in lost else color
                assert result is not None and result["winner"] == expected, (lost, result)
            else:
                assert result is None
            turn_start_primaries = _primaries(g2)
            turn_start_reinf = _reinforcements(g2)
        else:
            assert wec.outcome(g2) is None
        g = g2
