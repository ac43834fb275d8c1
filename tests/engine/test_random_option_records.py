"""Exact Undo, replay and reload under every option, alike Pieces sharing a place included.

Random games through the public facade, under random valid option sets, from
the standard game of those options or from a crowded scenario that puts pairs
of alike Pieces on one place. In every game (tools.engine.exactness):

* every legal action applies;
* ``undo(g, n)`` at random points equals the game ``n`` actions before
  (``dump_scenario``, both colours' ``view``, ``legal_actions``);
* ``load_scenario(dump_scenario(g))`` at a random point behaves like ``g``
  for every later action (legal actions after each, then document, views
  and histories of both colours);
* ``replay(history(g), ...)`` of the game at its last Turn boundary equals it,
  both colours' censored histories included.

About 300 games in all: one per documented option value (that value pinned,
the rest random) and 100 drawn by hypothesis. The benchmark command
``python -m tools.engine.exactness --games 2000`` runs thousands.
"""

from __future__ import annotations

import random
import zlib
from collections import Counter

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from games.rules.wec import new_game
from games.rules.wec.options import OPTION_NAMES, resolve
from tools.engine.exactness import KINDS, check_game
from tools.engine.randomgames import option_values, random_options

CAP = 40

EVERY_VALUE = [(name, value) for name in OPTION_NAMES for value in option_values(name)]


def assert_exact(seed: int, **kw) -> None:
    details: list[str] = []
    found = check_game(seed, CAP, details=details, **kw)
    assert not found, "\n".join(details)


def test_every_documented_option_is_covered():
    # The options the engine knows are the ones the docs list, and each of
    # their values is a valid option set once the combination rule is kept.
    with open("docs/engine-api.md", encoding="utf-8") as f:
        api = f.read()
    for name in OPTION_NAMES:
        assert f"`{name}`" in api, name
    rng = random.Random(0)
    for name, value in EVERY_VALUE:
        opts = random_options(rng, {name: value})
        assert opts[name] == value
        assert resolve(opts) == opts
        new_game(opts)


@pytest.mark.parametrize(("name", "value"), EVERY_VALUE, ids=[f"{n}={v}" for n, v in EVERY_VALUE])
def test_undo_replay_and_reload_are_exact_with_each_option_value(name, value):
    seed = zlib.crc32(f"{name}={value}".encode())
    rng = random.Random(seed)
    opts = random_options(rng, {name: value})
    assert_exact(seed, options=opts, crowded=rng.random() < 0.5)


@st.composite
def option_sets(draw):
    """A valid option set: every option drawn from all its values; an
    invalid draw of ``sub_jet_combat`` is made valid one way or the other."""
    opts = {name: draw(st.sampled_from(option_values(name))) for name in OPTION_NAMES}
    if opts["sub_jet_combat"] and (opts["movement"] == "weaponized" or opts["action_restriction"] != "move_only"):
        if draw(st.booleans()):
            opts["sub_jet_combat"] = False
        else:
            opts["movement"] = draw(st.sampled_from(["standard_chess", "mass_destruction"]))
            opts["action_restriction"] = "move_only"
    return opts


@settings(max_examples=100, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(opts=option_sets(), seed=st.integers(0, 2**32 - 1), crowded=st.booleans())
def test_undo_replay_and_reload_are_exact_under_random_options(opts, seed, crowded):
    assert resolve(opts) == opts
    assert_exact(seed, options=opts, crowded=crowded)


def test_the_checks_can_fail(monkeypatch):
    # The checker is not vacuous: a reload that loses Pieces' cooldowns and
    # Pawns' first-Move state is caught as a reload mismatch.
    import tools.engine.exactness as ex

    real = ex.load_scenario

    def lossy(doc):
        for p in doc["pieces"]:
            p.pop("cooldowns", None)
            p.pop("moved", None)
        return real(doc)

    monkeypatch.setattr(ex, "load_scenario", lossy)
    found: Counter[str] = Counter()
    for seed in range(20):
        found += check_game(seed, 60, undo_rate=0.0)
    assert found["reload"] > 0
    assert set(found) <= set(KINDS)
