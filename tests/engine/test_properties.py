"""Properties of random legal games.

Each example draws a seed and a set of options, then plays by choosing
uniformly among ``legal_actions`` with ``random.Random(seed)``. The invariants
are split over several tests so that one broken rule does not hide the others.
The whole file is kept to roughly a minute.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from games.rules.wec import (
    IllegalAction,
    apply,
    dump_scenario,
    legal_actions,
    load_scenario,
    move_targets,
    new_game,
    outcome,
    view,
)

COEXIST = {"sub", "chopper", "dozer", "destroyer", "aaa", "jet"}
# Levels a type reaches by its own power (every type holds the ground).
NATIVE = {"jet": {"air"}, "chopper": {"air"}, "sub": {"sub"}}
CARRIER = {"air": "chopper", "sub": "sub"}
LEVELS = ("ground", "air", "sub")
COLORS = ("black", "white")


# --- games ----------------------------------------------------------------------------

@st.composite
def setups(draw):
    seed = draw(st.integers(min_value=0, max_value=2**32 - 1))
    movement = draw(st.sampled_from(["weaponized", "standard_chess", "mass_destruction"]))
    opts = {"movement": movement}
    if movement == "mass_destruction":
        opts["pawn_movement"] = draw(st.sampled_from(["all_sides_and_forward", "all_forward", "all_but_front"]))
    for name in ("tank_range", "cleric_range", "queen_tank_range", "queen_cleric_range"):
        opts[name] = draw(st.sampled_from([6, 7, 8]))
    if movement != "weaponized" and draw(st.booleans()):
        opts["action_restriction"] = "move_only"
        opts["sub_jet_combat"] = True
    opts["doze_enemies"] = draw(st.booleans())
    opts["stealth_invisibility"] = draw(st.booleans())
    opts["submersion_invisibility"] = draw(st.booleans())
    opts["stealth_detect_in_range"] = draw(st.booleans())
    opts["forbid_king_flying_sub"] = draw(st.booleans())
    opts["stealthed_kings"] = draw(st.booleans())
    opts["reinforcements"] = draw(st.sampled_from(["normal", "none"]))
    opts["black_government"] = draw(st.sampled_from(["monarchy", "dictatorship", "theocracy", "democracy"]))
    opts["white_government"] = draw(st.sampled_from(["monarchy", "dictatorship", "theocracy", "democracy"]))
    return seed, opts


def play(seed, opts, cap):
    """Yield (game, its legal actions, chosen action) along one random game;
    the last state (finished, or at the cap) is yielded with action None."""
    rng = random.Random(seed)
    g = new_game(opts)
    for _ in range(cap):
        acts = legal_actions(g)
        if not acts:
            break
        a = rng.choice(acts)
        yield g, acts, a
        g = apply(g, a)
    yield g, legal_actions(g), None


def _settings(examples):
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        # No shrinking: a failing game is reported by its seed and options, and
        # shrinking whole games would blow the time budget.
        phases=[Phase.explicit, Phase.reuse, Phase.generate],
    )


# --- invariants on a scenario document -------------------------------------------------

def _article_total(doc):
    return len(doc["articles"]) + sum(len(p["articles"]) for p in doc["pieces"])


def check_board(doc):
    slots = defaultdict(list)
    for p in doc["pieces"]:
        assert 1 <= p["row"] <= 10 and 1 <= p["col"] <= 10, p
        assert p["level"] in LEVELS, p
        assert p["color"] in COLORS, p
        slots[(p["row"], p["col"], p["level"])].append(p)
    for where, here in slots.items():
        assert len(here) <= 2, (where, here)
        if len(here) == 2:
            a, b = here
            if a["color"] == b["color"]:
                assert a["type"] in COEXIST or b["type"] in COEXIST, (where, here)
            else:
                # The manual's only exception (a partial Conversion) needs two
                # Pieces that can each stay at that level: never at ground.
                assert where[2] != "ground", (where, here)
                assert all(where[2] in NATIVE.get(p["type"], ()) for p in here), (where, here)
    ground = Counter((a["row"], a["col"]) for a in doc["articles"])
    for rc, n in ground.items():
        assert 1 <= rc[0] <= 10 and 1 <= rc[1] <= 10, rc
        assert n <= 2, (rc, n)


def check_support(doc):
    """A Piece off the ground is a Jet/Chopper in the air, a Sub at sub level,
    carried by a friendly Chopper/Sub there, or under way by Transport."""
    slots = defaultdict(list)
    for p in doc["pieces"]:
        slots[(p["row"], p["col"], p["level"])].append(p)
    for (r, c, level), here in slots.items():
        if level == "ground":
            continue
        for p in here:
            if level in NATIVE.get(p["type"], ()) or p.get("transport"):
                continue
            carriers = [q for q in here if q is not p and q["color"] == p["color"] and q["type"] == CARRIER[level]]
            assert carriers, f"{p['color']} {p['type']} alone at ({r}, {c}, {level})"


# --- the tests ---------------------------------------------------------------------------

@_settings(8)
@given(setups())
def test_board_invariants(setup):
    seed, opts = setup
    total = None
    for g, _, _ in play(seed, opts, 400):
        doc = dump_scenario(g)
        check_board(doc)
        n = _article_total(doc)
        total = n if total is None else total
        assert n == total, "Articles are permanent: ground + carried must stay constant"


@_settings(8)
@given(setups())
def test_pieces_off_the_ground_are_supported(setup):
    seed, opts = setup
    for g, _, _ in play(seed, opts, 300):
        check_support(dump_scenario(g))


@_settings(6)
@given(setups())
def test_apply_leaves_its_input_unchanged(setup):
    seed, opts = setup
    for g, _, a in play(seed, opts, 250):
        if a is None:
            break
        before = dump_scenario(g)
        after = apply(g, a)
        assert dump_scenario(g) == before
        assert after is not g


@_settings(6)
@given(setups())
def test_every_legal_action_applies(setup):
    seed, opts = setup
    for i, (g, acts, _) in enumerate(play(seed, opts, 200)):
        if i % 4 and acts != [{"type": "end_turn"}]:
            continue
        by_place = defaultdict(set)
        for a in acts:
            apply(g, a)
            if a["type"] == "move":
                by_place[tuple(a["from"])].add(tuple(a["to"]))
        for place, targets in by_place.items():
            assert move_targets(g, *place) == targets, place


def _duplicates(acts):
    seen = Counter(repr(sorted(a.items())) for a in acts)
    return [k for k, n in seen.items() if n > 1]


@_settings(10)
@given(setups())
def test_legal_actions_are_distinct(setup):
    seed, opts = setup
    for _g, acts, _ in play(seed, opts, 300):
        assert not _duplicates(acts), _duplicates(acts)


def test_legal_actions_are_distinct_where_queen_paths_cross():
    # The secondary government Piece reaches some Squares by two paths (the
    # manual's '+' where two paths cross); it is still one action.
    g = load_scenario({"pieces": [{"type": "queen", "color": "black", "row": 1, "col": 1},
                                  {"type": "king", "color": "white", "row": 10, "col": 10}]})
    acts = legal_actions(g)
    assert not _duplicates(acts), _duplicates(acts)


@_settings(10)
@given(setups())
def test_end_turn_offered_iff_move_made_or_impossible(setup):
    seed, opts = setup
    moved = False  # tracked from the actions played, not read from the engine
    for g, acts, a in play(seed, opts, 400):
        if outcome(g) is not None:
            assert acts == []
            continue
        assert acts, "a running game must offer an action"
        has_move = any(x["type"] == "move" for x in acts)
        has_end = any(x["type"] == "end_turn" for x in acts)
        assert has_end == (moved or not has_move), (moved, has_move, has_end)
        if moved:
            assert not has_move
        if a is not None and a["type"] == "move":
            moved = True
        elif a is not None and a["type"] == "end_turn":
            moved = False


@_settings(10)
@given(setups())
def test_finished_games(setup):
    seed, opts = setup
    last = None
    for g, acts, _ in play(seed, opts, 2000):
        assert (outcome(g) is None) == bool(acts)
        last = g
    result = outcome(last)
    if result is None:
        return
    assert legal_actions(last) == []
    assert set(result) >= {"winner", "reason"}
    assert result["winner"] in ("black", "white", None)
    assert isinstance(result["reason"], str) and result["reason"]
    for action in ({"type": "end_turn"}, {"type": "move", "from": [1, 1, "ground"], "to": [2, 1, "ground"]}):
        try:
            apply(last, action)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"a finished game accepted {action}")
    for color in COLORS:
        assert view(last, color)["outcome"] == result


@_settings(6)
@given(setups())
def test_dump_load_round_trip(setup):
    seed, opts = setup
    for g, _, _ in play(seed, opts, 200):
        doc = dump_scenario(g)
        loaded = load_scenario(doc)
        assert loaded == g
        assert dump_scenario(loaded) == doc


@_settings(6)
@given(setups())
def test_views_show_ids_only_on_own_pieces(setup):
    seed, opts = setup
    for g, _, _ in play(seed, opts, 300):
        doc = dump_scenario(g)
        real = Counter((p["color"], p["type"], p["row"], p["col"], p["level"]) for p in doc["pieces"])
        for color in COLORS:
            v = view(g, color)
            assert v["color"] == color
            mine = [p for p in v["pieces"] if p["color"] == color]
            theirs = [p for p in v["pieces"] if p["color"] != color]
            assert all("id" in p for p in mine)
            assert all("id" not in p for p in theirs)
            # Own pieces are all shown, each once, with their true ids.
            assert sorted(p["id"] for p in mine) == sorted(p["id"] for p in doc["pieces"] if p["color"] == color)
            # Everything shown exists where it is shown.
            shown = Counter((p["color"], p["type"], p["row"], p["col"], p["level"]) for p in v["pieces"])
            assert not shown - real
