"""What the shortcut tests compare against: positions of random games, and
the board's highlight signature computed the long way (without the memos
games/ui/wec/highlights.py keeps)."""

from __future__ import annotations

import hashlib
import random

from games.rules import wec as engine_module
from games.ui.wec import highlights


def positions(seed: int, steps: int) -> list:
    """Consecutive states of a random game (the engine's own legal actions)."""
    rng = random.Random(seed)
    game, out = engine_module.new_game(), []
    for _ in range(steps):
        if engine_module.outcome(game) is not None:
            break
        legal = engine_module.legal_actions(game)
        ends = [a for a in legal if a["type"] == "end_turn"]
        action = ends[0] if ends and rng.random() < 0.5 else rng.choice(legal)
        game = engine_module.apply(game, action)
        out.append(game)
    return out


def signature_long_way(view: dict) -> str:
    """highlights.signature computed without its memo."""
    parts = []
    for (row, col), tokens in sorted(highlights._squares(view).items()):
        text = "|".join(sorted(f"{token!r}*{n}" for token, n in tokens))
        parts.append(f"{row}-{col}:{hashlib.blake2b(text.encode(), digest_size=4).hexdigest()}")
    return " ".join(parts)
