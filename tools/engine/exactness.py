"""Exact records under random options: ``python -m tools.engine.exactness``.

Plays seeded random games through the public facade, each under a random
valid option set (every documented option and value can come up) and from
either the option set's standard game or a crowded scenario that puts pairs
of alike Pieces (same type, colour, hand and Articles) on one place, and
checks at random points that the game's records are exact:

* ``undo``: ``undo(g, n)`` equals the game ``n`` actions before (scenario
  document, both colours' views, ``legal_actions``);
* ``reload``: ``load_scenario(dump_scenario(g))`` behaves like ``g`` for every
  later action (same legal actions after each, same document, views and
  histories, both colours and plain English, at the end);
* ``replay``: ``replay(history(g), ...)`` of the game at its last Turn
  boundary (or its end) equals it;
* ``censored``: the same replay gives both colours the same censored history
  (counted apart from ``replay`` when that is all that differs);
* ``error``: a legal action, an Undo or a replay raised.

Prints the count of each kind of mismatch (the goal is 0 of every kind). The
property tests in tests/engine/test_random_option_records.py run the same
checks on fewer games.

It checks the Game History (l. 1755-1800), Undo (l. 331-341) and the
pre-game options (l. 316-330, 752-775) as the facade offers them; it
implements no rule itself.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from collections import Counter
from typing import Any

from games.rules.wec import apply, dump_scenario, history, legal_actions, load_scenario, replay, undo

from .randomgames import choose, histories, snapshot, start_position

KINDS = ("undo", "reload", "replay", "censored", "error")

_CENSOR_KEYS = ("censored", "own", "plain_censored", "plain_own")


def _strip_censored(doc: dict[str, Any]) -> dict[str, Any]:
    doc = dict(doc)
    doc["log"] = [{k: v for k, v in t.items() if k not in _CENSOR_KEYS} for t in doc["log"]]
    return doc


def check_game(seed: int, cap: int = 60, undo_rate: float = 0.15, details: list[str] | None = None,
               options: dict[str, Any] | None = None, crowded: bool | None = None) -> Counter[str]:
    """Play one seeded random game of at most ``cap`` actions and count its
    mismatches by kind (see the module's docstring). ``options`` and
    ``crowded`` fix the option set and the kind of start (else random)."""
    rng = random.Random(seed)
    found: Counter[str] = Counter()

    def miss(kind: str, what: str) -> None:
        found[kind] += 1
        if details is not None:
            details.append(f"seed {seed}: {kind}: {what}")

    try:
        game, doc, opts = start_position(rng, options, crowded)
    except Exception:  # noqa: BLE001 - a crash is what this counts
        miss("error", "start: " + traceback.format_exc(limit=3))
        return found
    states = [game]
    shadow = None
    reload_at = rng.randrange(cap)
    for k in range(cap):
        acts = legal_actions(game)
        if shadow is not None and legal_actions(shadow) != acts:
            miss("reload", f"legal actions differ after action {k}")
            shadow = None
        if not acts:
            break
        action = choose(rng, acts)
        try:
            game = apply(game, action)
        except Exception:  # noqa: BLE001
            miss("error", f"apply {action}: " + traceback.format_exc(limit=3))
            return found
        states.append(game)
        if shadow is not None:
            try:
                shadow = apply(shadow, action)
            except Exception as exc:  # noqa: BLE001
                miss("reload", f"reloaded game refused {action}: {exc}")
                shadow = None
        if k == reload_at:
            shadow = load_scenario(dump_scenario(game))
        if not opts["competitive"] and rng.random() < undo_rate:
            n = rng.randint(1, min(len(states) - 1, 12))
            try:
                back = undo(game, n)
            except Exception:  # noqa: BLE001
                miss("error", f"undo {n} at action {k + 1}: " + traceback.format_exc(limit=3))
                continue
            if snapshot(back) != snapshot(states[-1 - n]):
                miss("undo", f"undo({n}) at action {k + 1}")
    if shadow is not None:
        if snapshot(shadow) != snapshot(game) or histories(shadow) != histories(game):
            miss("reload", "reloaded game differs at the end")
    # Replay the game at its last Turn boundary (or where it ended).
    last = next(g for g in reversed(states) if g.result or not g.turn_log)
    try:
        again = replay(history(last), scenario=doc) if doc is not None else replay(history(last), options=opts)
    except Exception as exc:  # noqa: BLE001
        miss("replay", f"replay raised: {exc}")
        return found
    a, b = snapshot(again), snapshot(last)
    if a != b:
        if (_strip_censored(a[0]),) + a[1:] == (_strip_censored(b[0]),) + b[1:]:
            miss("censored", "replayed game differs only in censored history")
        else:
            miss("replay", "replayed game differs")
    elif histories(again) != histories(last):
        miss("censored", "replayed game's histories differ")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--cap", type=int, default=60, help="actions per game at most")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=5, help="print the first N mismatches")
    args = parser.parse_args(argv)
    totals: Counter[str] = Counter()
    details: list[str] = []
    bad_games = 0
    started = time.perf_counter()
    for n in range(args.games):
        found = check_game(args.seed * 1_000_003 + n, args.cap, details=details)
        totals.update(found)
        bad_games += bool(found)
    elapsed = time.perf_counter() - started
    print(f"{args.games} random-option games of at most {args.cap} actions (seed {args.seed}) in {elapsed:.1f} s; "
          f"{bad_games} with a mismatch")
    for kind in KINDS:
        print(f"{kind} mismatches: {totals[kind]}")
    for line in details[: args.show]:
        print(line)
    return 0 if not totals else 1


if __name__ == "__main__":
    sys.exit(main())
