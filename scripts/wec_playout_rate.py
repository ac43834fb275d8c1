"""Random-playout rate of one source tree's Wec engine, in CPU time (issue 15).

    python3 scripts/wec_playout_rate.py TREE [ACTIONS] [RUNS]

Plays a fixed script: ``ACTIONS`` (3,000) uniform random choices among
``legal_actions`` from seed 20240601, a new standard game whenever one ends,
as the engine's bench plays them, and prints the actions per CPU second of
each of ``RUNS`` runs (one process). ``TREE`` is a checkout whose ``games``
package is imported (e.g. ``git archive 20fe7c1 games | tar -x -C /tmp/old``),
so two trees can be compared alternately on a busy machine: run this for each
in turn several times and compare medians.
"""

from __future__ import annotations

import random
import sys
import time


def main() -> None:
    tree = sys.argv[1]
    actions = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    sys.path.insert(0, tree)
    import games.rules.wec as wec  # noqa: PLC0415 - from the tree given

    for _ in range(runs):
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
        print(f"{tree}: {actions / cpu:.0f} actions per CPU second ({actions} actions, {cpu:.2f} s)", flush=True)


if __name__ == "__main__":
    main()
