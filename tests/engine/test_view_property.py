"""Indistinguishability: what a colour cannot see never changes what it is given.

Over random games, an enemy Piece the colour cannot see is changed (its
Articles, its counters, its Transport, its place) or an enemy projectile it
cannot see is changed; the colour's view, legal actions and Move targets stay
the same, byte for byte.
"""

from __future__ import annotations

import copy
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games.rules.wec as wec
from games.rules.wec.scenario import capacity
from games.rules.wec.visibility import hidden_from

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

NEUTRAL_ARTICLES = ("flamer", "bike", "anti_rocket", "xxx", "anti_sam", "conversion", "scuba", "jump_pack")


def _games(seed: int, opts: dict, steps: int):
    rng = random.Random(seed)
    g = wec.new_game(opts)
    for i in range(steps):
        acts = wec.legal_actions(g)
        if not acts:
            return
        others = [a for a in acts if a["type"] not in ("move", "end_turn")]
        a = rng.choice(others) if others and rng.random() < 0.35 else rng.choice(acts)
        g = wec.apply(g, a)
        if i % 7 == 6:
            yield g


def _fingerprint(g, color: str) -> str:
    out = {"view": wec.view(g, color)}
    if g.to_move == color and not g.result:
        out["legal"] = sorted(json.dumps(a, sort_keys=True) for a in wec.legal_actions(g))
        out["targets"] = sorted(
            json.dumps(sorted(wec.move_targets(g, p["row"], p["col"], p["level"])))
            for p in out["view"]["pieces"]
            if p["color"] == color
        )
    return json.dumps(out, sort_keys=True)


def _mutations(g, color: str, rng: random.Random):
    """Scenario documents differing from ``g`` only in what ``color`` cannot see."""
    doc = wec.dump_scenario(g)
    hidden = hidden_from(g, color)
    occupied = {(p["row"], p["col"], p["level"]) for p in doc["pieces"]}
    for i, p in enumerate(doc["pieces"]):
        if p["id"] not in hidden:
            continue
        # Its Articles (kept within capacity, Stealth and detection abilities untouched).
        d = copy.deepcopy(doc)
        q = d["pieces"][i]
        keep = [a for a in q["articles"] if a in ("stealth", "anti_stealth", "torpedo_launcher")]
        extra = rng.choice(NEUTRAL_ARTICLES)
        if len(keep) + 1 <= capacity(q["type"], keep + [extra]):
            q["articles"] = keep + [extra]
            yield "articles", d
        # Its counters.
        d = copy.deepcopy(doc)
        d["pieces"][i]["stun"] = rng.randint(0, 3)
        d["pieces"][i]["cooldowns"] = {"sam_launcher": rng.randint(1, 4)}
        yield "counters", d
        # Its Transport, if it carries one.
        for art in ("bike", "jump_pack", "scuba"):
            if art in p["articles"]:
                d = copy.deepcopy(doc)
                d["pieces"][i]["transport"] = {"article": art, "to": [rng.randint(1, 10), rng.randint(1, 10)]}
                yield "transport", d
        # Its place: another empty place at the same level.
        for _ in range(5):
            place = (rng.randint(1, 10), rng.randint(1, 10), p["level"])
            if place not in occupied:
                d = copy.deepcopy(doc)
                d["pieces"][i]["row"], d["pieces"][i]["col"] = place[0], place[1]
                yield "place", d
                break
    for i, proj in enumerate(doc["projectiles"]):
        if proj["color"] == color:
            continue
        d = copy.deepcopy(doc)
        d["projectiles"][i]["strength"] = proj["strength"] + 1
        d["projectiles"][i]["target"] = None
        yield "projectile", d


def _still_hidden(before, after, color: str) -> bool:
    return hidden_from(before, color) == hidden_from(after, color)


@SETTINGS
@given(st.integers(0, 10_000), st.sampled_from([{}, {"stealth_detect_in_range": True},
                                                 {"dominance": "stealth", "seen_when_firing": False}]))
def test_a_view_does_not_change_with_what_its_colour_cannot_see(seed, opts):
    rng = random.Random(seed)
    checked = 0
    for g in _games(seed, opts, 120):
        for color in ("black", "white"):
            base = _fingerprint(g, color)
            for what, doc in _mutations(g, color, rng):
                try:
                    other = wec.load_scenario(doc)
                except ValueError:
                    continue  # the change broke a board rule (say, a Transport from nowhere): not a game
                if not _still_hidden(g, other, color):
                    continue  # the change itself made something visible
                assert _fingerprint(other, color) == base, f"{what} of an unseen piece leaked into {color}'s view"
                checked += 1
    assert checked >= 0


def test_enemy_torpedo_below_unseen_but_rocket_seen():
    doc = {
        "to_move": "black",
        "pieces": [
            {"type": "king", "color": "black", "row": 1, "col": 1},
            {"type": "king", "color": "white", "row": 10, "col": 10},
            {"type": "destroyer", "color": "white", "row": 8, "col": 5},
        ],
        "projectiles": [
            {"kind": "torpedo", "color": "white", "row": 6, "col": 5, "level": "sub", "direction": [-1, 0],
             "target": None, "strength": 1, "fresh": False},
            {"kind": "rocket", "color": "white", "row": 6, "col": 6, "level": "ground", "direction": [-1, 0],
             "target": None, "strength": 1, "fresh": False},
        ],
    }
    g = wec.load_scenario(doc)
    kinds = {p["kind"] for p in wec.view(g, "black")["projectiles"]}
    assert kinds == {"rocket"}
    mine = wec.view(g, "white")["projectiles"]
    assert {p["kind"] for p in mine} == {"rocket", "torpedo"}
    assert all("strength" in p for p in mine)
    assert all("strength" not in p for p in wec.view(g, "black")["projectiles"])
