"""The plain-English record line read back into its parts (the
site tells the record in the reader's language from these parts)."""

from __future__ import annotations

import random

from games.rules import wec
from games.rules.wec.plain_parts import plain_from_parts, plain_parts


def _random_lines(seeds: range, steps: int = 250) -> list[str]:
    """Record lines (full, censored, own) of random games: many phrase kinds."""
    lines: list[str] = []
    for seed in seeds:
        rng = random.Random(seed)
        g = wec.new_game()
        for _ in range(steps):
            actions = wec.legal_actions(g)
            if not actions or wec.outcome(g):
                break
            others = [a for a in actions if a["type"] != "end_turn"]
            ends = [a for a in actions if a["type"] == "end_turn"]
            action = rng.choice(others) if others and (not ends or rng.random() < 0.6) else ends[0]
            g = wec.apply(g, action)
        for turn in g.log:
            lines += [turn["plain"], turn["plain_censored"], turn["plain_own"]]
    return sorted(set(lines))


def test_every_line_of_random_games_reads_back_exactly():
    lines = _random_lines(range(3))
    assert len(lines) > 100
    for line in lines:
        parts = plain_parts(line)
        assert parts is not None, line
        assert plain_from_parts(parts) == line


def test_the_parts_name_pieces_places_and_kinds():
    line = ("Black Dozer (2,2) dozed north-east to (3,3), pushing Black Tank (2,2), Black Cleric (1,3) and "
            "White SAM and Torpedo Pawn (1,4); at the end of the Turn a SAM flew east to (3,6) in the air, "
            "the SAM, with no heading to fly on, was spent.")
    parts = plain_parts(line)
    assert plain_from_parts(parts) == line
    action, end = parts
    assert action["subject"] == {"color": "black", "type": "dozer", "row": 2, "col": 2, "level": "ground"}
    assert action["head"]["k"] == "dozed" and action["head"]["dir"] == "north-east"
    assert [p["type"] for p in action["head"]["pushed"]] == ["tank", "cleric", "sam_torpedo_pawn"]
    assert [e["k"] for e in end["parts"]] == ["flew", "spent"]
    assert end["parts"][0]["at"] == {"row": 3, "col": 6, "level": "air"}


def test_short_lines_and_capitals():
    for line in ("Black made no Move.", "White moved a piece out of sight.",
                 "A SAM hit (6,3) in the air, White Jet (6,3) in the air was destroyed by a SAM.",
                 "White Tank (10,3) arrived as a reinforcement; moved to (9,3)."):
        assert plain_from_parts(plain_parts(line)) == line
    assert plain_parts("Black moved a piece out of sight") is None  # no full stop
    assert plain_parts("Black teleported to (3,3).") is None
    assert plain_parts("") is None
