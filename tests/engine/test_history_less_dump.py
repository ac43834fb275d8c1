"""The history-less dump and its loader (the site keeps each
finished Turn's record in its own row and the state without them)."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games.rules.wec as wec
from tools.engine.randomgames import random_options


def play(game, rng: random.Random, actions: int):
    states = [game]
    for _ in range(actions):
        legal = wec.legal_actions(game)
        if not legal:
            break
        ends = [a for a in legal if a["type"] == "end_turn"]
        game = wec.apply(game, ends[0] if ends and rng.random() < 0.5 else rng.choice(legal))
        states.append(game)
    return states


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), actions=st.integers(0, 60))
def test_history_less_dump_round_trips_over_random_options(seed, actions):
    rng = random.Random(seed)
    start = wec.new_game(random_options(rng))
    for game in play(start, rng, actions):
        doc = json.loads(json.dumps(wec.dump_scenario(game, history=False)))  # as stored
        assert "log" not in doc
        records = json.loads(json.dumps(wec.turn_records(game)))
        assert wec.turn_count(game) == len(records)
        back = wec.load_scenario(doc, history=records)
        assert wec.dump_scenario(back) == wec.dump_scenario(game)
        assert wec.history(back) == wec.history(game)
        # Records are append-only: a later state's start with this one's.
        assert wec.turn_records(game, len(records)) == []


def test_records_from_an_offset_are_the_tail_and_copies():
    rng = random.Random(4)
    game = play(wec.new_game(), rng, 120)[-1]
    records = wec.turn_records(game)
    assert len(records) >= 3
    assert wec.turn_records(game, 2) == records[2:]
    wec.turn_records(game)[0]["text"] = "changed"  # a copy: the game is untouched
    assert wec.turn_records(game) == records


def test_full_dump_is_unchanged():
    game = play(wec.new_game(), random.Random(2), 40)[-1]
    full = wec.dump_scenario(game)
    assert full["log"] == wec.turn_records(game)
    assert wec.dump_scenario(wec.load_scenario(full)) == full


def _ended(rng: random.Random):
    """A game played until it ends (or 400 actions), for the final line."""
    game = wec.new_game()
    for _ in range(400):
        legal = wec.legal_actions(game)
        if not legal:
            break
        game = wec.apply(game, rng.choice(legal))
    return game


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), actions=st.integers(0, 80))
def test_history_from_an_offset_is_the_tail(seed, actions):
    rng = random.Random(seed)
    game = play(wec.new_game({"competitive": bool(seed % 2)}), rng, actions)[-1]
    for g in (game, _ended(random.Random(seed))):
        for color in (None, "black", "white"):
            whole, plain = wec.history(g, color), wec.plain_history(g, color)
            for start in range(len(whole) + 2):
                assert wec.history(g, color, start=start) == whole[start:]
                assert wec.plain_history(g, color, start=start) == plain[start:]


def test_view_without_history_is_the_view_less_its_record():
    game = play(wec.new_game(), random.Random(5), 70)[-1]
    for color in ("black", "white"):
        full = wec.view(game, color)
        short = wec.view(game, color, history=False)
        assert "history" not in short
        assert short == {k: v for k, v in full.items() if k != "history"}


class LazyRecords:
    """A record sequence that notes which records were read (as the site's
    lazy one reads them from the database only when asked)."""

    def __init__(self, records, extra=()):
        self.records, self.extra, self.read = records, tuple(extra), set()

    def __len__(self):
        return len(self.records) + len(self.extra)

    def _get(self, i):
        if i < len(self.records):
            self.read.add(i)
            return self.records[i]
        return self.extra[i - len(self.records)]

    def __getitem__(self, index):
        if isinstance(index, slice):
            return tuple(self._get(i) for i in range(*index.indices(len(self))))
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self._get(index)

    def __iter__(self):
        return (self._get(i) for i in range(len(self)))

    def __add__(self, other):
        out = LazyRecords(self.records, self.extra + tuple(other))
        out.read = self.read
        return out


def test_a_lazy_record_is_read_only_when_asked():
    rng = random.Random(6)
    game = play(wec.new_game(), rng, 160)[-1]
    doc = json.loads(json.dumps(wec.dump_scenario(game, history=False)))
    records = json.loads(json.dumps(wec.turn_records(game)))
    n = len(records)
    assert n >= 6
    lazy = LazyRecords(records)
    back = wec.load_scenario(doc, history=lazy)
    assert wec.turn_count(back) == n
    # Playing on to the end of the Turn and beyond reads no record.
    later = back
    for _ in range(12):
        legal = wec.legal_actions(later)
        if not legal:
            break
        ends = [a for a in legal if a["type"] == "end_turn"]
        later = wec.apply(later, ends[0] if ends else rng.choice(legal))
        wec.view(later, "black", history=False)
    assert lazy.read == set()
    count = wec.turn_count(later)
    assert wec.turn_records(later, n) == wec.turn_records(later)[n:] or count == n
    # The tail of the record reads only the records it shows.
    lazy.read.clear()
    assert wec.history(later, "white", start=n - 2) == wec.history(later, "white")[n - 2:]
    assert wec.plain_history(later, "black", start=n - 1)
    lazy.read.clear()
    wec.history(later, "white", start=n - 2)
    wec.plain_history(later, "black", start=n - 1)
    assert lazy.read == {n - 2, n - 1}
    # And the whole game is the eager one.
    assert wec.dump_scenario(back) == wec.dump_scenario(game)
