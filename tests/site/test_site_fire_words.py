"""Property: over random option sets and random play, the direction word on a
Fire's button is the word the player's own plain-English record uses for
that Fire, for both colours (no services needed)."""

import random
import re

import pytest
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules.wec import apply, legal_actions, new_game, plain_history, view
from games.ui.wec.board import viewer_words
from games.ui.wec.panels import _Names, describe
from tools.engine.randomgames import random_options


@pytest.fixture(autouse=True)
def in_english():
    """The words compared are the English ones.  These tests need no database,
    so pytest-django runs them after the database tests, whose last request
    may have left another language active in this thread."""
    with translation.override("en"):
        yield


WORD = re.compile(r"(north-east|north-west|south-east|south-west|north|south|east|west)")


def play_and_check(seed: int) -> int:
    """Plays a random game; returns how many Turns with Fires were checked."""
    rng = random.Random(seed)
    game = new_game(random_options(rng))
    checked = 0
    for _turn in range(12):
        color = view(game, "black")["to_move"]
        fired = []
        for _step in range(8):
            legal = legal_actions(game)
            if not legal:
                return checked
            fires = [a for a in legal if a["type"] == "fire" and "direction" in a]
            moves = [a for a in legal if a["type"] == "move"]
            if fires and len(fired) < 2 and rng.random() < 0.8:
                action = rng.choice(fires)
                button = describe(action, _Names(view(game, color), color), color).short
                fired.append(WORD.search(button).group(1))
            elif moves:
                action = rng.choice(moves)
            else:
                break
            game = apply(game, action)
            if action["type"] == "move":
                break
        if not any(a["type"] == "end_turn" for a in legal_actions(game)):
            return checked
        game = apply(game, {"type": "end_turn"})
        if fired:
            line = viewer_words(plain_history(game, color)[-1], color)
            words = WORD.findall(line)
            for word in fired:
                assert word in words, (color, fired, line)
                words.remove(word)
            checked += 1
    return checked


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_button_and_record_name_a_fire_the_same_way(seed):
    play_and_check(seed)


def test_the_property_is_not_vacuous():
    assert sum(play_and_check(seed) for seed in range(6)) >= 5


def test_viewer_words_turns_every_word_for_white_only():
    text = "fired its Flamer north-east, then a Rocket flew south to (3,4); dozed west"
    assert viewer_words(text, "black") == text
    assert viewer_words(text, "white") == "fired its Flamer south-west, then a Rocket flew north to (3,4); dozed east"
    assert viewer_words(viewer_words(text, "white"), "white") == text
    assert viewer_words("Northern Easter", "white") == "Northern Easter"  # whole words only
