"""The spectators' board (public_view) is common knowledge: derived from
Black's view or from White's view of a position at a Turn's start, it is the
same; and record_steps replays a record's actions exactly."""

import random

import pytest

import games.rules.wec as wec


def _random_game(seed: int, turns: int, options=None):
    rng = random.Random(seed)
    g = wec.new_game({"competitive": False, **(options or {})})
    starts = [g]
    while len(g.log) < turns and not wec.outcome(g):
        legal = wec.legal_actions(g)
        ends = [a for a in legal if a["type"] == "end_turn"]
        g = wec.apply(g, ends[0] if ends and rng.random() < 0.5 else rng.choice(legal))
        if not wec.turn_actions(g):
            starts.append(g)
    return g, starts


OPTION_SETS = [
    {},
    {"stealthed_kings": True, "dominance": "stealth"},
    {"stealth_invisibility": False},
    {"submersion_invisibility": False, "stealth_lock_on": False},
]


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("options", OPTION_SETS)
def test_both_sides_derive_the_same_public_board(seed, options):
    _g, starts = _random_game(seed, 16, options)
    for state in starts:
        black = wec.public_view(wec.view(state, "black"))
        white = wec.public_view(wec.view(state, "white"))
        assert black == white


def test_pieces_that_can_hide_never_show():
    g = wec.new_game()
    shown = wec.public_view(wec.view(g, "black"))["pieces"]
    # The standard game has Stealth Pawns (which see each other) and Subs.
    assert not any(p["type"] == "stealth_pawn" for p in shown)
    assert not any(p["level"] == "sub" for p in shown)
    assert any(p["type"] == "king" for p in shown)
    plain = wec.new_game({"stealth_invisibility": False, "submersion_invisibility": False})
    assert any(p["type"] == "stealth_pawn" for p in wec.public_view(wec.view(plain, "white"))["pieces"])


def test_record_steps_replays_the_actions():
    g, _ = _random_game(11, 10)
    steps = wec.record_steps(wec.history(g, None), {"competitive": False})
    s = wec.new_game({"competitive": False})
    for action in steps:
        s = wec.apply(s, action)
    assert wec.history(s, None) == wec.history(g, None)[: len(wec.history(s, None))]
    assert len(wec.history(s, None)) == len(g.log)


def test_record_steps_names_the_bad_turn():
    g, _ = _random_game(3, 4)
    texts = wec.history(g, None)
    with pytest.raises(wec.RecordError) as err:
        wec.record_steps([*texts[:2], "MV:?", *texts[3:]])
    assert err.value.turn == 3
