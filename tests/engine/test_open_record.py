"""The ``open_record`` term: a non-competitive game's record is open (the
manual's shared-screen program, the default) or censored like a competitive
game's while it runs.  One predicate (``notation.censors``) decides it for
the notation, the plain sentences and the view's history.

The scenario: White's submerged Sub moves out of Black's sight."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.rules.wec as wec
from games.rules.wec.notation import censors
from games.rules.wec.options import DEFAULTS, resolve
from tools.engine.randomgames import random_options, start_position

DOC = {
    "to_move": "white",
    "options": {"seen_when_firing": False},
    "pieces": [
        {"type": "king", "color": "black", "row": 1, "col": 1},
        {"type": "king", "color": "white", "row": 10, "col": 1},
        {"type": "sub", "color": "white", "row": 9, "col": 9, "level": "sub"},
    ],
    "articles": [],
}


def _legal(game, **wanted):
    return next(a for a in wec.legal_actions(game) if all(a.get(k) == v for k, v in wanted.items()))


def _after_unseen_move(**options):
    game = wec.load_scenario({**DOC, "options": {**DOC["options"], **options}})
    game = wec.apply(game, _legal(game, type="move", **{"from": [9, 9, "sub"], "to": [8, 8, "sub"]}))
    return wec.apply(game, {"type": "end_turn"})


def test_the_default_is_the_manuals_open_record_and_leaves_the_options_as_they_were():
    assert "open_record" not in DEFAULTS
    assert resolve() == DEFAULTS
    assert "open_record" not in wec.new_game().options
    assert resolve({"open_record": False})["open_record"] is False
    with pytest.raises(ValueError, match="open_record"):
        resolve({"open_record": "no"})
    # The manual's non-competitive game shows the whole record.
    game = _after_unseen_move()
    assert not censors(game, "black")
    assert wec.history(game, "black") == wec.history(game, None)
    assert "(8,8)" in wec.history(game, "black")[0]


@pytest.mark.parametrize(
    "options", [{"competitive": True}, {"open_record": False}, {"competitive": True, "open_record": True}]
)
def test_a_closed_or_competitive_record_hides_the_unseen_move(options):
    game = _after_unseen_move(**options)
    assert censors(game, "black") and not censors(game, None)
    assert censors(game, "white")  # per game and colour: the mover reads its own Turn in full below
    assert wec.history(game, "black") == ["MV:?"]
    assert "(8,8)" not in " ".join(wec.plain_history(game, "black"))
    assert wec.view(game, "black")["history"] == ["MV:?"]
    # The mover reads its own Turn in full; nobody's record hides anything from None.
    assert "(8,8)" in wec.history(game, "white")[0]
    assert "(8,8)" in wec.history(game, None)[0]


def test_an_open_record_shows_the_unseen_move_to_both_sides():
    game = _after_unseen_move(open_record=True)
    assert not censors(game, "black")
    assert wec.history(game, "black") == wec.history(game, None)
    assert wec.plain_history(game, "black") == wec.plain_history(game, None)


def test_a_friendly_game_may_open_or_close_its_record_after_the_start():
    game = _after_unseen_move(open_record=False)
    assert wec.history(game, "black") == ["MV:?"]
    opened = wec.change_options(game, {"open_record": True})
    assert wec.history(opened, "black") == wec.history(game, None)
    closed = wec.change_options(opened, {"open_record": False})
    assert wec.history(closed, "black") == ["MV:?"]
    with pytest.raises(wec.IllegalAction):
        wec.change_options(game, {"open_record": True, "tank_range": 6})
    with pytest.raises(wec.IllegalAction):
        wec.change_options(_after_unseen_move(competitive=True), {"open_record": True})


def test_the_terms_are_drawn_only_when_asked():
    # The identity hash's seeded games draw the manual's options alone.
    assert "open_record" not in random_options(random.Random(1))
    drawn = {random_options(random.Random(seed), terms=True)["open_record"] for seed in range(20)}
    assert drawn == {True, False}


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_closed_friendly_record_is_the_competitive_one_and_an_open_one_the_full_one(seed):
    """The same actions under random options (the term drawn too) in three
    games differing only in competitive / open_record: at every Turn end and
    at the end, each colour's records (notation, plain, view) of the closed
    friendly game equal the competitive game's, and the open one's equal the
    full record - until the game ends, when all are full."""
    rng = random.Random(seed)
    opts = random_options(rng, terms=True)
    game, doc, opts = start_position(rng, opts)
    variants = {
        "competitive": {**opts, "competitive": True},
        "closed": {**opts, "competitive": False, "open_record": False},
        "open": {**opts, "competitive": False, "open_record": True},
    }
    if doc is None:
        games = {k: wec.new_game(v) for k, v in variants.items()}
    else:
        games = {k: wec.load_scenario({**doc, "options": v}) for k, v in variants.items()}
    for _ in range(60):
        actions = wec.legal_actions(games["closed"])
        if not actions:
            break
        action = rng.choice(actions)
        games = {k: wec.apply(g, action) for k, g in games.items()}
        if action["type"] != "end_turn" and wec.outcome(games["closed"]) is None:
            continue
        for color in ("black", "white"):
            assert censors(games["closed"], color) == censors(games["competitive"], color)
            assert wec.history(games["closed"], color) == wec.history(games["competitive"], color)
            assert wec.plain_history(games["closed"], color) == wec.plain_history(games["competitive"], color)
            assert (
                wec.view(games["closed"], color)["history"]
                == wec.view(games["competitive"], color)["history"]
            )
            assert wec.history(games["open"], color) == wec.history(games["open"], None)
            assert wec.plain_history(games["open"], color) == wec.plain_history(games["open"], None)
