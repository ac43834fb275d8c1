"""Invariants of random legal games that use every action type.

Each example plays from the standard game or from a random crowded scenario,
choosing first an action type, then an action of that type, among
``legal_actions`` with ``random.Random(seed)``, so that Fires, Pick-ups, Drops,
Exchanges, Reinforces and Transports all get played, not only Moves.
Invariants (docs/engine-api.md, "Scenario document" and "Turn rules"; manual
l. 186-199, 284-292, 544): at most 2 Pieces at a level of a Square, enemies
together only in the partial Conversion case, at most 2 Articles on a
Square's ground, no Piece carrying more than it can, Articles never lost,
dump/load round trips, the Turn's limits, and a finished game offers nothing.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict

from hypothesis import given
from hypothesis import strategies as st

import games.rules.wec as wec

from .random_play import COLORS, capacity, crowd, property_settings

COEXIST = {"sub", "chopper", "dozer", "destroyer", "aaa", "jet"}
NATIVE = {"jet": {"air"}, "chopper": {"air"}, "sub": {"sub"}}
CARRIER = {"air": "chopper", "sub": "sub"}
LEVELS = ("ground", "air", "sub")
RESTRICTIONS = ["none", "none", "move_only", "one_action_per_piece", "12dpxmr", "12dpxmr_one_piece"]
LIMITS = {"move": 1, "fire": 2, "pickup": 1, "drop": 1, "exchange": 1, "reinforce": 1}


# --- strategies ----------------------------------------------------------------------------


def _options(draw):
    opts = {
        "action_restriction": draw(st.sampled_from(RESTRICTIONS)),
        "stealth_invisibility": draw(st.booleans()),
        "submersion_invisibility": draw(st.booleans()),
        "transport_ground_to_ground_only": draw(st.booleans()),
        "transport_from_carrier": draw(st.booleans()),
        "jet_rocket_range": draw(st.integers(0, 2)),
        "homing_range": draw(st.integers(0, 4)),
        "stunner_range": draw(st.sampled_from([1, 3, 9])),
        "stun_turns": draw(st.integers(1, 3)),
        "flamer_range": draw(st.integers(1, 3)),
    }
    for rate in ("stunner_rate", "flamer_rate", "conversion_rate", "rocket_rate", "sam_rate", "torpedo_rate"):
        opts[rate] = draw(st.integers(1, 4))
    return opts


@st.composite
def standard_games(draw):
    return "standard", draw(st.integers(0, 2**32 - 1)), _options(draw)


@st.composite
def crowded_scenarios(draw):
    """A dozen or two random Pieces and Articles in the middle of the board,
    kings in the corners; invalid documents are redrawn."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    opts = _options(draw)
    for _ in range(50):
        doc = crowd(rng, opts)
        try:
            wec.load_scenario(doc)
        except ValueError:
            continue
        return "scenario", rng.randint(0, 2**32 - 1), doc
    raise AssertionError("no valid crowded scenario in 50 tries")


games = st.one_of(standard_games(), crowded_scenarios())


def start(kind, payload):
    return wec.new_game(payload) if kind == "standard" else wec.load_scenario(payload)


def play(case, cap):
    """Yield (game, legal actions, chosen action) along one random game; the
    last state is yielded with action None."""
    kind, seed, payload = case
    rng = random.Random(seed)
    g = start(kind, payload)
    for _ in range(cap):
        acts = wec.legal_actions(g)
        if not acts:
            break
        by_type = defaultdict(list)
        for a in acts:
            by_type[a["type"]].append(a)
        a = rng.choice(by_type[rng.choice(sorted(by_type))])
        yield g, acts, a
        g = wec.apply(g, a)
    yield g, wec.legal_actions(g), None


# --- invariants --------------------------------------------------------------------------


def check_board(doc):
    slots = defaultdict(list)
    for p in doc["pieces"]:
        assert 1 <= p["row"] <= 10 and 1 <= p["col"] <= 10, p
        assert p["level"] in LEVELS, p
        slots[(p["row"], p["col"], p["level"])].append(p)
    for where, here in slots.items():
        assert len(here) <= 2, (where, here)
        if len(here) == 2:
            a, b = here
            if a["color"] == b["color"]:
                assert a["type"] in COEXIST or b["type"] in COEXIST, (where, here)
            elif where[2] != "ground":
                # Only the partial Conversion (l. 284-292, 1899-1915) leaves
                # enemies together; off the ground, only two Pieces that can
                # each stay at that level (the others are conversion killed).
                # On the ground the two simply stay (docs/rulings.md,
                # "Conversion kills and the mixed Square").
                assert all(where[2] in NATIVE.get(p["type"], ()) for p in here), (where, here)
        for p in here:
            if where[2] == "ground" or where[2] in NATIVE.get(p["type"], ()) or p.get("transport"):
                continue
            carriers = [q for q in here if q is not p and q["color"] == p["color"] and q["type"] == CARRIER[where[2]]]
            assert carriers, f"{p['color']} {p['type']} unsupported at {where}"
    for p in doc["pieces"]:
        assert len(p["articles"]) <= capacity(p["type"], p["articles"]), p
        assert p.get("stun", 0) >= 0, p
        assert all(v >= 0 for v in p.get("cooldowns", {}).values()), p
    on_ground = Counter((a["row"], a["col"]) for a in doc["articles"])
    for rc, n in on_ground.items():
        assert 1 <= rc[0] <= 10 and 1 <= rc[1] <= 10 and n <= 2, (rc, n)


def article_total(doc):
    return Counter(a["type"] for a in doc["articles"]) + Counter(x for p in doc["pieces"] for x in p["articles"])


# --- tests -------------------------------------------------------------------------------


@property_settings(30)
@given(games)
def test_random_games_keep_the_board_legal_and_articles_permanent(case):
    total = None
    for g, _, _ in play(case, 80):
        doc = wec.dump_scenario(g)
        check_board(doc)
        n = article_total(doc)
        total = n if total is None else total
        assert n == total, "Articles are permanent: ground + carried must stay the same"


@property_settings(25)
@given(games)
def test_every_legal_action_applies_and_leaves_its_input_unchanged(case):
    for i, (g, acts, a) in enumerate(play(case, 60)):
        if a is None:
            break
        before = wec.dump_scenario(g)
        if i % 5 == 0:
            for b in acts:
                wec.apply(g, b)
        after = wec.apply(g, a)
        assert wec.dump_scenario(g) == before
        assert after is not g


@property_settings(25)
@given(games)
def test_dump_load_round_trip_in_mid_game(case):
    for g, _, _ in play(case, 60):
        doc = wec.dump_scenario(g)
        loaded = wec.load_scenario(doc)
        assert loaded == g
        assert wec.dump_scenario(loaded) == doc
        assert wec.legal_actions(loaded) == wec.legal_actions(g)


@property_settings(25)
@given(games)
def test_turn_limits_and_restrictions_hold_in_legal_actions(case):
    kind, seed, payload = case
    restriction = (payload if kind == "standard" else payload["options"])["action_restriction"]
    done = Counter()
    for g, acts, a in play(case, 80):
        if wec.outcome(g) is not None:
            assert acts == []
            continue
        assert acts, "a running game offers an action"
        for b in acts:
            if b["type"] != "end_turn":
                assert done[b["type"]] < LIMITS[b["type"]], (b, done)
            if restriction == "move_only":
                assert b["type"] in ("move", "end_turn"), b
        if a is None:
            break
        if a["type"] == "end_turn":
            done.clear()
            continue
        done[a["type"]] += 1


@property_settings(25)
@given(games)
def test_stunned_pieces_are_never_offered_an_action(case):
    for g, acts, _ in play(case, 60):
        doc = wec.dump_scenario(g)
        color = wec.to_move(g)
        stunned = {(p["row"], p["col"], p["level"]) for p in doc["pieces"]
                   if p["color"] == color and p.get("stun", 0) > 0}
        lone = {place for place in stunned
                if sum(1 for p in doc["pieces"] if (p["row"], p["col"], p["level"]) == place
                       and p["color"] == color) == 1}
        for a in acts:
            if a["type"] != "reinforce" and "from" in a:
                assert tuple(a["from"]) not in lone, a
            if a["type"] == "exchange":
                assert tuple(a["to"]) not in lone, a


@property_settings(25)
@given(games)
def test_pieces_in_transport_are_never_offered_a_move(case):
    for g, acts, _ in play(case, 60):
        doc = wec.dump_scenario(g)
        color = wec.to_move(g)
        places = Counter((p["row"], p["col"], p["level"]) for p in doc["pieces"] if p["color"] == color)
        riding = {(p["row"], p["col"], p["level"]) for p in doc["pieces"] if p["color"] == color
                  and p.get("transport")}
        for a in acts:
            if a["type"] == "move" and places[tuple(a["from"])] == 1:
                assert tuple(a["from"]) not in riding, a


@property_settings(25)
@given(games)
def test_legal_actions_are_distinct(case):
    for _g, acts, _ in play(case, 60):
        seen = Counter(repr(sorted(a.items())) for a in acts)
        dupes = [k for k, n in seen.items() if n > 1]
        assert not dupes, dupes[:3]


@property_settings(25)
@given(games)
def test_finished_games_offer_nothing(case):
    last = None
    for g, acts, _ in play(case, 80):
        assert (wec.outcome(g) is None) == bool(acts)
        last = g
    result = wec.outcome(last)
    if result is None:
        return
    assert wec.legal_actions(last) == []
    assert result["winner"] in ("black", "white", None)
    assert result["reason"] in ("primary_taken", "primary_lost", "both_primaries_lost")
    for action in ({"type": "end_turn"}, {"type": "fire", "from": [2, 3, "ground"], "weapon": "flamer",
                                          "direction": [1, 0]}):
        try:
            wec.apply(last, action)
        except wec.IllegalAction:
            pass
        else:
            raise AssertionError(f"a finished game accepted {action}")


@property_settings(25)
@given(games)
def test_views_never_raise_and_show_ids_only_on_own_pieces(case):
    for g, _, _ in play(case, 60):
        doc = wec.dump_scenario(g)
        for color in COLORS:
            v = wec.view(g, color)
            mine = [p for p in v["pieces"] if p["color"] == color]
            assert all("id" in p for p in mine)
            assert all("id" not in p for p in v["pieces"] if p["color"] != color)
            assert sorted(p["id"] for p in mine) == sorted(p["id"] for p in doc["pieces"] if p["color"] == color)
