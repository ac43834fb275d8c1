"""Random-playout rate of one source tree's Wec engine, in CPU time.

    python -m tools.engine.playout_rate TREE [ACTIONS] [RUNS] [--plain]
    python3 tools/engine/playout_rate.py TREE [ACTIONS] [RUNS] [--plain]

Plays a fixed script: ``ACTIONS`` (3,000) uniform random choices among
``legal_actions`` from seed 20240601, a new standard game whenever one ends,
as the engine's bench plays them, and prints the actions per CPU second of
each of ``RUNS`` runs (one process). ``TREE`` is a checkout whose ``games``
package is imported (e.g. ``git archive main games | tar -x -C /tmp/main``;
``.`` for the working tree), so two trees can be compared alternately on a
busy machine: run this for each in turn several times (pinned to one core:
``taskset -c 0 nice python3 tools/engine/playout_rate.py TREE 30000 1``) and
compare medians. ``--plain`` plays with the engine's fast paths off
(``games.rules.wec.fastpaths``).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path


def rate(actions: int) -> tuple[float, float]:
    """(actions per CPU second, CPU seconds) of ``actions`` random choices
    played by the ``games.rules.wec`` already on the path."""
    import games.rules.wec as wec  # noqa: PLC0415 - whichever tree the caller put first

    rng = random.Random(20240601)
    game = wec.new_game()
    start = time.process_time()
    done = 0
    while done < actions:
        acts = wec.legal_actions(game)
        if not acts:
            game = wec.new_game()
            continue
        game = wec.apply(game, rng.choice(acts))
        done += 1
    cpu = time.process_time() - start
    return actions / cpu, cpu


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    plain = "--plain" in args
    args = [a for a in args if a != "--plain"]
    tree = args[0]
    actions = int(args[1]) if len(args) > 1 else 3000
    runs = int(args[2]) if len(args) > 2 else 1
    if "games" not in sys.modules:
        sys.path.insert(0, str(Path(tree).resolve()))
    if plain:
        from games.rules.wec import fastpaths  # noqa: PLC0415 - from the tree given

        fastpaths.FAST_PATHS = False
    for _ in range(runs):
        per_second, cpu = rate(actions)
        print(f"{tree}: {per_second:.0f} actions per CPU second ({actions} actions, {cpu:.2f} s)", flush=True)


if __name__ == "__main__":
    main()
