"""Identity hash of one source tree's Wec engine over seeded games.

    python -m tools.engine.identity_hash TREE [GAMES] [--plain]
    python3 tools/engine/identity_hash.py TREE [GAMES] [--plain]

A change to the engine's inside (speed, layout) must leave every game as it
was. This plays ``GAMES`` (450) seeded games with the ``games`` package of
``TREE`` (e.g. ``git archive REV games | tar -x -C /tmp/rev``; ``.`` for the
working tree) and prints one SHA-256 over all of it and the number of
listings: every third game is a standard game of up to 300 uniform random
actions, the others start from ``randomgames.start_position`` (random
options, often a crowded scenario) and run up to 120 actions chosen by
``randomgames.choose``. It hashes every ``legal_actions`` listing, both views
and the outcome after every third action, and at the end the scenario
document, both views, the outcome and every history (full, per colour;
notation and plain English). Two trees that print the same line played the
same games. 450 games print ``53a136b05386def83c98c16cc0d139c44bfa3ba470cb4cef033f1f540d516145
77238``. With ``--plain`` the engine plays with its fast paths off
(``games.rules.wec.fastpaths``): the plain rules must print the same line.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any


def identity(games: int) -> tuple[str, int]:
    """(hex digest, listings) of ``games`` seeded games played by the
    ``games.rules.wec`` already on the path."""
    import games.rules.wec as wec  # noqa: PLC0415 - whichever tree the caller put first
    from tools.engine.randomgames import choose, start_position  # noqa: PLC0415 - after the engine

    digest = hashlib.sha256()
    listings = 0

    def put(value: Any) -> None:
        digest.update(json.dumps(value, sort_keys=True, default=repr).encode())
        digest.update(b"\0")

    for seed in range(games):
        rng = random.Random(seed * 7919 + 1)
        if seed % 3 == 0:
            game, cap, crowd = wec.new_game(), 300, False
        else:
            game, _doc, _opts = start_position(rng)
            cap, crowd = 120, True
        for i in range(cap):
            actions = wec.legal_actions(game)
            listings += 1
            put(actions)
            if not actions:
                break
            game = wec.apply(game, choose(rng, actions) if crowd else rng.choice(actions))
            if i % 3 == 0:
                put([wec.view(game, "black"), wec.view(game, "white"), wec.outcome(game)])
        put(wec.dump_scenario(game))
        put([wec.view(game, c) for c in ("black", "white")])
        put(wec.outcome(game))
        for color in (None, "black", "white"):
            put(wec.history(game, color))
            put(wec.plain_history(game, color))
    return digest.hexdigest(), listings


def use_tree(tree: str) -> None:
    """Put ``tree``'s ``games`` package first on the path, and this project
    (for ``tools``) after it; nothing of ``games`` may be imported yet."""
    if "games" in sys.modules:
        raise RuntimeError("the engine was imported before its tree was chosen")
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    sys.path.insert(0, str(Path(tree).resolve()))


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    plain = "--plain" in args
    args = [a for a in args if a != "--plain"]
    use_tree(args[0])
    games = int(args[1]) if len(args) > 1 else 450
    if plain:
        from games.rules.wec import fastpaths  # noqa: PLC0415 - from the tree given

        with fastpaths.switched(False):
            digest, listings = identity(games)
    else:
        digest, listings = identity(games)
    print(digest, listings)


if __name__ == "__main__":
    main()
