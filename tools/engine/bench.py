"""Benchmark of the Wec rules engine: ``python -m tools.engine.bench``.

Prints one figure per line with its goal:

* ``move_targets`` for every Piece of the side to move in the standard
  position (median time of one call, and of the whole sweep), and
  ``legal_actions(new_game())``; goal < 2 ms;
* random playouts on one core (uniform choice among ``legal_actions``, a new
  game whenever one is over) in actions per second; goal >= 2000;
* replaying a 300-Turn game from its notation (``replay(history(game))``,
  median of 3 runs); goal < 1 s;
* memory of one mid-game state (deep size of the standalone object graph,
  with and without its Turn log, without its derived caches, its pickle, the
  deep size of the last state of the run, and the extra memory one more
  state costs in a stored game); goal < 200 KB.

Everything is seeded, so two runs play the same games.

It measures the rules of the whole manual (Actions, l. 57-75) as the
facade offers them; it implements no rule itself.
"""

from __future__ import annotations

import argparse
import gc
import pickle
import random
import statistics
import sys
import time
import tracemalloc
import types
from typing import Any

from games.rules.wec import (
    apply,
    dump_scenario,
    history,
    legal_actions,
    move_targets,
    new_game,
    outcome,
    parse_turn,
    replay,
    view,
)

TARGETS_GOAL_MS = 2.0
LEGAL_GOAL_MS = 5.0  # every action type listed
VIEW_GOAL_MS = 2.0
RATE_GOAL = 2000.0
MEMORY_GOAL_KB = 200.0
REPLAY_GOAL_S = 1.0


def _line(name: str, value: str, goal: str, ok: bool) -> None:
    print(f"{name}: {value}  (goal {goal}: {'ok' if ok else 'MISSED'})")


def own_places(game: Any) -> list[tuple[int, int, str]]:
    """Every distinct (row, col, level) holding a Piece of the side to move."""
    doc = dump_scenario(game)
    color = doc["to_move"]
    return sorted({(p["row"], p["col"], p["level"]) for p in doc["pieces"] if p["color"] == color})


def bench_targets(runs: int) -> tuple[float, float, float, int]:
    """Median ms of one move_targets call, of a sweep over all own places, and
    of legal_actions, in the standard position."""
    game = new_game()
    places = own_places(game)
    per_call: list[float] = []
    sweeps: list[float] = []
    clock = time.perf_counter
    for _ in range(runs):
        sweep_start = clock()
        for row, col, level in places:
            t = clock()
            move_targets(game, row, col, level)
            per_call.append(clock() - t)
        sweeps.append(clock() - sweep_start)
    actions: list[float] = []
    for _ in range(runs):
        t = clock()
        legal_actions(game)
        actions.append(clock() - t)
    views: list[float] = []
    for n in range(runs):
        t = clock()
        view(game, "black" if n % 2 else "white")
        views.append(clock() - t)
    return (
        statistics.median(per_call) * 1e3,
        statistics.median(sweeps) * 1e3,
        statistics.median(actions) * 1e3,
        len(places),
        statistics.median(views) * 1e3,
    )


def bench_playouts(seconds: float, seed: int) -> tuple[float, int, int, dict[str, int]]:
    """Actions per second of uniform random play over every legal action (all
    action types); also actions, finished games and the mix of action types."""
    rng = random.Random(seed)
    game = new_game()
    actions = 0
    finished = 0
    mix: dict[str, int] = {}
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    while True:
        # Check the clock every 64 actions to keep its cost out of the figure.
        for _ in range(64):
            acts = legal_actions(game)
            if not acts:
                finished += 1
                game = new_game()
                continue
            action = rng.choice(acts)
            game = apply(game, action)
            actions += 1
            kind = action.get("weapon", action["type"])
            mix[kind] = mix.get(kind, 0) + 1
        if clock() >= deadline:
            break
    elapsed = clock() - start
    return actions / elapsed, actions, finished, mix


def long_game(seed: int, turns: int) -> Any:
    """A seeded random game of ``turns`` finished Turns: a random action, but
    never one that ends the game, and ``end_turn`` half the time it is open.
    None if the game cannot be kept going that long."""
    rng = random.Random(seed)
    game = new_game()
    done = 0
    while done < turns:
        acts = legal_actions(game)
        ends = [a for a in acts if a["type"] == "end_turn"]
        order = list(acts)
        rng.shuffle(order)
        if ends and rng.random() < 0.5:
            order = ends + order
        for a in order:
            after = apply(game, a)
            if not outcome(after):
                break
        else:
            return None
        game = after
        done += a["type"] == "end_turn"
    return game


def bench_replay(seed: int, turns: int, runs: int = 3) -> tuple[float, int, int]:
    """Median seconds to replay a ``turns``-Turn game from its notation; also
    the seed whose game was used and the number of actions besides end_turn."""
    for s in range(seed, seed + 100):
        game = long_game(s, turns)
        if game is not None:
            break
    else:
        raise RuntimeError(f"no seeded game lasted {turns} Turns")
    texts = history(game)
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        again = replay(texts)
        times.append(time.perf_counter() - t)
    # The log keeps the order of each Turn's actions, which the notation does not.
    assert history(again) == texts and again.pieces == game.pieces, "the replayed game differs from the original"
    actions = sum(len(parse_turn(t)) - 1 for t in texts)
    return statistics.median(times), s, actions


def deep_size(root: Any, leave_out: tuple[Any, ...] = ()) -> int:
    """Bytes of every object reachable from ``root`` (each counted once),
    leaving out types, modules, functions and the objects ``leave_out``."""
    seen: set[int] = {id(o) for o in leave_out}
    stack = [root]
    total = 0
    skip = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, skip):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return total


def mid_game(seed: int, actions: int) -> list[Any]:
    """The states of one seeded random game, ``actions`` long at most."""
    rng = random.Random(seed)
    game = new_game()
    states = [game]
    for _ in range(actions):
        acts = legal_actions(game)
        if not acts:
            break
        game = apply(game, rng.choice(acts))
        states.append(game)
    return states


def bench_memory(seed: int, actions: int) -> tuple[float, float, float, float, float, int, float]:
    """KB: deep size of a mid-game state, the same without its Turn log, its
    pickle, the deep size of the last state, and the extra memory each further
    state costs when a whole game's states are kept; then the number of
    actions played and the deep size of the mid-game state without what it
    derives (``Derived``: its listing memo and Move cache are shared by every
    game of its line, so the deep size counts them whole for one state)."""
    states = mid_game(seed, actions)
    state = states[len(states) // 2]
    deep = deep_size(state) / 1024
    board_only = deep_size(state, (state.log, state.turn_log)) / 1024
    own = deep_size(state, (state.derived,)) / 1024
    last = deep_size(states[-1]) / 1024
    pickled = len(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)) / 1024
    # Replay the same game under tracemalloc, keeping every state.
    gc.collect()
    tracemalloc.start()
    kept = mid_game(seed, actions)
    gc.collect()
    current, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    per_state = current / max(1, len(kept)) / 1024
    return deep, board_only, pickled, last, per_state, len(states) - 1, own


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="timing runs for move targets (default 200)")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of the playout run (default 10)")
    parser.add_argument("--seed", type=int, default=20240601, help="random seed (default 20240601)")
    parser.add_argument("--mid-game", type=int, default=300, help="actions in the memory game (default 300)")
    parser.add_argument("--replay-turns", type=int, default=300, help="Turns in the replayed game (default 300)")
    args = parser.parse_args(argv)

    per_call, sweep, actions_ms, places, view_ms = bench_targets(args.runs)
    _line(
        f"move_targets, one Piece's place, standard position (median of {places} places x {args.runs} runs)",
        f"{per_call:.3f} ms", f"< {TARGETS_GOAL_MS:g} ms", per_call < TARGETS_GOAL_MS,
    )
    _line(
        f"move_targets, all {places} own places in turn, standard position (median of {args.runs} sweeps)",
        f"{sweep:.3f} ms", f"< {TARGETS_GOAL_MS:g} ms", sweep < TARGETS_GOAL_MS,
    )
    _line(
        f"legal_actions(new_game()) (median of {args.runs} runs)",
        f"{actions_ms:.3f} ms", f"< {LEGAL_GOAL_MS:g} ms", actions_ms < LEGAL_GOAL_MS,
    )
    _line(
        f"view(new_game(), colour) (median of {args.runs} runs)",
        f"{view_ms:.3f} ms", f"< {VIEW_GOAL_MS:g} ms", view_ms < VIEW_GOAL_MS,
    )
    rate, done, finished, mix = bench_playouts(args.seconds, args.seed)
    _line(
        f"random playouts over every action type, one core, {args.seconds:g} s ({done} actions, "
        f"{finished} games finished)",
        f"{rate:.0f} actions/s", f">= {RATE_GOAL:g} actions/s", rate >= RATE_GOAL,
    )
    print("  mix: " + ", ".join(f"{k} {v}" for k, v in sorted(mix.items(), key=lambda kv: -kv[1])))
    seconds, used, replayed = bench_replay(args.seed, args.replay_turns)
    _line(
        f"replay of a {args.replay_turns}-Turn random game ({replayed} actions besides end_turn, seed {used}) "
        "from its notation (median of 3)",
        f"{seconds:.3f} s", f"< {REPLAY_GOAL_S:g} s", seconds < REPLAY_GOAL_S,
    )
    deep, board_only, pickled, last, per_state, played, own = bench_memory(args.seed, args.mid_game)
    _line(
        f"game state after {played // 2} of {played} random actions, deep size",
        f"{deep:.1f} KB", f"< {MEMORY_GOAL_KB:g} KB", deep < MEMORY_GOAL_KB,
    )
    _line(
        "same state without its Turn log (history), deep size",
        f"{board_only:.1f} KB", f"< {MEMORY_GOAL_KB:g} KB", board_only < MEMORY_GOAL_KB,
    )
    _line(
        "same state without what it derives (caches shared by every game of its line), deep size",
        f"{own:.1f} KB", f"< {MEMORY_GOAL_KB:g} KB", own < MEMORY_GOAL_KB,
    )
    _line("same state, pickled", f"{pickled:.1f} KB", f"< {MEMORY_GOAL_KB:g} KB", pickled < MEMORY_GOAL_KB)
    _line(
        f"game state after all {played} actions, deep size",
        f"{last:.1f} KB", f"< {MEMORY_GOAL_KB:g} KB", last < MEMORY_GOAL_KB,
    )
    _line(
        f"each state of a kept game ({played} actions, tracemalloc)",
        f"{per_state:.1f} KB", f"< {MEMORY_GOAL_KB:g} KB", per_state < MEMORY_GOAL_KB,
    )


if __name__ == "__main__":
    main()
