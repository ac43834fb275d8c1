"""The arena (a benchmark, not a test): many seeded games between two players,
won as the manual ends a game (l. 48-49, 456-458), each side seeing only
what it may (l. 340-347).

    python -m tools.engine.arena --a hard --b easy --games 20 --seed 1 --budget 0.5

Players: ``random`` (any legal action, uniformly), ``greedy`` (the best
one-Turn material gain by a plain look at the full board it sees: every Move
then the Fires that pay, no threats), ``easy`` (the original AI), ``normal``
and ``hard`` (the searching AI, :mod:`games.rules.wec.search`). Colours
alternate: game ``i`` gives ``a`` Black when ``i`` is even. A game stops at
``--turns`` Turns (a move cap: scored by material, reported apart).

Prints for ``a``: W/D/L and points (win 1, draw 1/2) with a Wilson 95%
interval on the points share, the reasons games ended, think time per Turn
percentiles for each player, and for each Action type the share of games in
which the player used it at least once (and how many times in all).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from games.rules.wec import (
    apply,
    dump_scenario,
    hidden_from,
    legal_actions,
    load_scenario,
    new_game,
    outcome,
    view,
)
from games.rules.wec.ai import choose_action as easy_action
from games.rules.wec.ai import fire_may_hit, material, piece_value
from games.rules.wec.constants import LEVEL_INDEX, slot_of
from games.rules.wec.search import choose_turn, follow_plan
from games.rules.wec.state import Game

from .stats import wilson

Player = Callable[[Game, int, float | None], dict[str, Any] | None]
#: Node budget of the searching levels (None: only the think-time limit).
NODES: dict[str, int | None] = {"nodes": None}
ACTION_TYPES = ("move", "fire", "transport", "pickup", "drop", "exchange", "reinforce")
TRANSPORTS = ("bike", "jump_pack", "scuba")


def random_player(game: Game, seed: int, budget: float | None) -> dict[str, Any] | None:
    actions = legal_actions(game)
    return random.Random(seed).choice(actions) if actions else None


def greedy_player(game: Game, seed: int, budget: float | None) -> dict[str, Any] | None:
    """One-Turn greedy: a Fire that gains material (up to two), the Move that
    gains most material (a random one when none does), then End Turn. Only
    Moves onto and Fires toward enemy Pieces it sees are tried."""
    actions = legal_actions(game)
    if not actions:
        return None
    rng = random.Random(seed)
    me = game.to_move
    hot = frozenset(slot_of(d["row"], d["col"], LEVEL_INDEX[d["level"]]) for d in view(game, me)["pieces"]
                    if d["color"] != me)
    before = _balance(game, me)
    moved = game.turn["moved"]
    best, best_gain = None, 0.5
    for a in actions:
        if a["type"] == "move":
            if "doze" in a or slot_of(a["to"][0], a["to"][1], LEVEL_INDEX[a["to"][2]]) not in hot:
                continue
        elif a["type"] == "fire":
            if a["weapon"] in TRANSPORTS or len(game.turn["fires"]) >= 2 or not fire_may_hit(game, a, hot):
                continue
        else:
            continue
        try:
            g = apply(game, a)
            if a["type"] == "fire":
                g2 = g.copy()
                g2.turn["moved"] = True
                g2.seal()
                g = apply(g2, {"type": "end_turn"})
        except ValueError:
            continue
        result = outcome(g)
        if result and result.get("winner") == me:
            return a
        gain = _balance(g, me) - before + rng.random() * 0.01
        if gain > best_gain:
            best, best_gain = a, gain
    if best is not None:
        return best
    if not moved:
        moves = [a for a in actions if a["type"] == "move"]
        if moves:
            return rng.choice(moves)
    return {"type": "end_turn"} if {"type": "end_turn"} in actions else rng.choice(actions)


def _balance(g: Game, me: str) -> float:
    own, enemy = material(g, me)
    return own - enemy


def level_player(level: str) -> Player:
    def play(game: Game, seed: int, budget: float | None) -> dict[str, Any] | None:
        return easy_action(game, seed)

    return play


def search_player(level: str) -> Player:
    """A searching level: one search at the start of each Turn (think time
    per Turn within ``budget``), then the plan is followed."""
    state: dict[str, Any] = {"key": None, "plan": []}

    def play(game: Game, seed: int, budget: float | None) -> dict[str, Any] | None:
        key = (id(state), game.turn_number, game.to_move)
        if state["key"] != key:
            state["key"] = key
            state["plan"] = choose_turn(game, level, seed, budget, NODES["nodes"])
        a, state["plan"] = follow_plan(game, state["plan"], seed)
        return a

    return play


PLAYERS: dict[str, Player] = {
    "random": random_player,
    "greedy": greedy_player,
    "easy": level_player("easy"),
    "normal": search_player("normal"),
    "hard": search_player("hard"),
}


def _kind(a: dict[str, Any]) -> str:
    if a["type"] == "fire" and a.get("weapon") in TRANSPORTS:
        return "transport"
    return a["type"]


def play_game(black: str, white: str, seed: int, turns: int, budget: float | None
              ) -> tuple[dict[str, Any] | None, Game, dict[str, list[float]], dict[str, dict[str, int]]]:
    """One game: (outcome or None at the cap, final game, think seconds per
    Turn by colour, Action counts by colour)."""
    rng = random.Random(seed)
    g = new_game()
    names = {"black": black, "white": white}
    think: dict[str, list[float]] = {"black": [], "white": []}
    used: dict[str, dict[str, int]] = {"black": {}, "white": {}}
    while g.turn_number <= turns and outcome(g) is None:
        me = g.to_move
        spent = 0.0
        for _ in range(40):
            t = time.perf_counter()
            a = PLAYERS[names[me]](g, rng.randrange(1 << 30), budget)
            spent += time.perf_counter() - t
            if a is None:
                break
            g = apply(g, a)
            k = _kind(a)
            used[me][k] = used[me].get(k, 0) + 1
            if "doze" in a:
                used[me]["dozing"] = used[me].get("dozing", 0) + 1
            if a["type"] == "end_turn" or outcome(g) is not None:
                break
        think[me].append(spent)
        if g.to_move == me and outcome(g) is None:
            # The player did not end its Turn in 40 actions: end it for it.
            g = apply(g, {"type": "end_turn"}) if {"type": "end_turn"} in legal_actions(g) else g
            if g.to_move == me:
                break
    return outcome(g), g, think, used


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def _without_hidden(g: Game) -> Game:
    """The same game with every Piece hidden from the side to move removed."""
    hidden = hidden_from(g, g.to_move)
    doc = dump_scenario(g)
    doc["pieces"] = [p for p in doc["pieces"] if p["id"] not in hidden]
    doc["locks"] = [lk for lk in doc["locks"] if lk["watcher"] not in hidden and lk["watched"] not in hidden]
    doc["revealed"] = [r for r in doc["revealed"] if r[0] not in hidden]
    doc["turn"]["hits"] = [h for h in doc["turn"]["hits"] if h[0] not in hidden]
    return load_scenario(doc)


def twins(pairs: int, seed: int, level: str, nodes: int) -> None:
    """Fairness: random positions (random options, random play) where the side
    to move cannot see something; its twin has those Pieces removed. Same view,
    so the AI must choose the same Turn. Prints how many pairs differed."""
    rng = random.Random(seed)
    compared = differ = 0
    start = time.perf_counter()
    while compared < pairs:
        options = {"stealth_detect_in_range": rng.random() < 0.5, "stealthed_kings": rng.random() < 0.5,
                   "flamer_range": rng.choice([1, 2, 3]),
                   "white_government": rng.choice(["monarchy", "dictatorship", "theocracy", "democracy"])}
        g = new_game(options)
        for _ in range(rng.randrange(4, 140)):
            acts = legal_actions(g)
            if not acts:
                break
            g = apply(g, rng.choice(acts))
        if outcome(g) or not hidden_from(g, g.to_move):
            continue
        try:
            g2 = _without_hidden(g)
        except ValueError:
            continue  # a hidden carrier held a seen Piece: no valid twin
        if view(g, g.to_move) != view(g2, g.to_move):
            continue
        s = rng.randrange(1 << 30)
        if choose_turn(g, level, s, budget_s=0, max_nodes=nodes) != choose_turn(g2, level, s, budget_s=0,
                                                                               max_nodes=nodes):
            differ += 1
        compared += 1
        if compared % 50 == 0:
            print(f"  {compared} pairs, {differ} differing", flush=True)
    print(f"fairness ({level}, {nodes} nodes): {differ} differing choices over {compared} twin-world pairs; "
          f"{time.perf_counter() - start:.0f} s")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--a", default="hard", choices=sorted(PLAYERS))
    ap.add_argument("--b", default="easy", choices=sorted(PLAYERS))
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--turns", type=int, default=120, help="move cap in Turns (both sides)")
    ap.add_argument("--budget", type=float, default=None, help="think-time limit per Turn, seconds (default: the level's)")
    ap.add_argument("--progress", action="store_true", help="print the summary after every game")
    ap.add_argument("--twins", type=int, default=0, help="run the twin-world fairness check on N pairs instead")
    ap.add_argument("--jobs", type=int, default=1, help="games played at once (worker processes)")
    ap.add_argument("--nodes", type=int, default=None,
                    help="node budget per search (machine-independent; with --budget 0 the only limit)")
    args = ap.parse_args(argv)
    NODES["nodes"] = args.nodes
    if args.twins:
        twins(args.twins, args.seed, args.a if args.a in ("normal", "hard") else "hard", args.nodes or 80)
        return
    wins = draws = losses = capped = 0
    points = 0.0
    reasons: dict[str, int] = {}
    think: dict[str, list[float]] = {"a": [], "b": []}
    used_games: dict[str, dict[str, int]] = {"a": {}, "b": {}}
    used_total: dict[str, dict[str, int]] = {"a": {}, "b": {}}
    start = time.perf_counter()
    jobs = [(i, args.a, args.b, args.seed, args.turns, args.budget, args.nodes) for i in range(args.games)]
    if args.jobs > 1:
        import multiprocessing  # noqa: PLC0415

        pool = multiprocessing.Pool(args.jobs)
        results = pool.imap(_one_game, jobs)
    else:
        pool = None
        results = map(_one_game, jobs)
    for i, (result, g, secs, used) in enumerate(results):
        a_color = "black" if i % 2 == 0 else "white"
        b_color = "white" if a_color == "black" else "black"
        if result is None:
            capped += 1
            # At the cap: material decides (the primaries left out), else a draw.
            diff = sum(min(piece_value(p), 9.0) * (1 if p.color == a_color else -1) for p in g.pieces.values())
            winner = a_color if diff > 3 else b_color if diff < -3 else None
            reason = "cap"
        else:
            winner, reason = result.get("winner"), result.get("reason", "?")
        if winner == a_color:
            wins += 1
            points += 1
            tag = "win"
        elif winner is None:
            draws += 1
            points += 0.5
            tag = "draw"
        else:
            losses += 1
            tag = "loss"
        reasons[f"{tag}:{reason}"] = reasons.get(f"{tag}:{reason}", 0) + 1
        for side, color in (("a", a_color), ("b", b_color)):
            think[side].extend(secs[color])
            for k, n in used[color].items():
                used_games[side][k] = used_games[side].get(k, 0) + 1
                used_total[side][k] = used_total[side].get(k, 0) + n
        print(f"game {i + 1}: {args.a} as {a_color}: {tag} ({reason}) after {g.turn_number - 1} Turns", flush=True)
        if args.progress or i + 1 == args.games:
            _summary(args, i + 1, wins, draws, losses, capped, points, reasons, think, used_games, used_total, start)
    if pool is not None:
        pool.close()
        pool.join()

def _one_game(job: tuple[int, str, str, int, int, float | None, int | None]
              ) -> tuple[dict[str, Any] | None, Game, dict[str, list[float]], dict[str, dict[str, int]]]:
    """Game ``i`` of a run (a worker's unit with ``--jobs``)."""
    i, a, b, seed, turns, budget, nodes = job
    NODES["nodes"] = nodes
    black, white = (a, b) if i % 2 == 0 else (b, a)
    return play_game(black, white, seed * 100_003 + i, turns, budget)


def _cpu_and_memory() -> str:
    """CPU seconds used (this process and finished workers) and the peak
    resident memory of one process (the largest worker, or this one)."""
    import resource  # noqa: PLC0415

    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime
    peak_mb = max(me.ru_maxrss, kids.ru_maxrss) / 1024  # Linux: kilobytes
    return f"CPU {cpu:.0f} s; peak memory per process {peak_mb:.0f} MB"


def _summary(args: argparse.Namespace, played: int, wins: int, draws: int, losses: int, capped: int, points: float,
             reasons: dict[str, int], think: dict[str, list[float]], used_games: dict[str, dict[str, int]],
             used_total: dict[str, dict[str, int]], start: float) -> None:
    n = played
    low, high = wilson(points, n)
    took = time.perf_counter() - start
    print(f"\n{args.a} vs {args.b}: {n} games, seed {args.seed}, budget {args.budget} s/Turn, "
          f"nodes {args.nodes}, cap {args.turns} Turns")
    print(f"W/D/L {wins}/{draws}/{losses}; points {points:g}/{n} = {points / max(n, 1):.1%} "
          f"(Wilson 95% {low:.1%}-{high:.1%}); {capped} stopped by the cap; {took:.0f} s in all")
    print(_cpu_and_memory())
    print(f"endings: {dict(sorted(reasons.items()))}")
    for side, name in (("a", args.a), ("b", args.b)):
        xs = think[side]
        print(f"{side} = {name}: think s/Turn p50 {percentile(xs, 0.5):.3f} p95 {percentile(xs, 0.95):.3f} "
              f"max {max(xs, default=0):.3f} over {len(xs)} Turns")
        shares = ", ".join(f"{k} {used_games[side].get(k, 0) / max(n, 1):.0%} ({used_total[side].get(k, 0)})"
                           for k in ACTION_TYPES)
        print(f"  Action use, share of games (count): {shares}")
        moves = used_total[side].get("move", 0)
        print(f"  Dozer Moves (dozings): {used_total[side].get('dozing', 0)} of {moves} Moves "
              f"= {used_total[side].get('dozing', 0) / max(moves, 1):.0%}")


if __name__ == "__main__":
    main()
