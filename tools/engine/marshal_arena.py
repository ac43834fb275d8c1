"""Benchmark (not a test): the AI against a random mover and a greedy player, and playout speed.

    python -m tools.engine.marshal_arena --games 200

Prints win rates with Wilson 95% intervals and random playouts per second.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from games.rules.marshal import apply, legal_actions, new_game, outcome, to_move, view
from games.rules.marshal.ai import choose_action, greedy_action
from games.rules.marshal.state import Game
from tools.engine.stats import wilson

Player = Callable[[Game, str, random.Random], dict[str, Any]]


def random_player(game: Game, color: str, rng: random.Random) -> dict[str, Any]:
    if game.phase == "setup":
        return {"type": "setup", "color": color, "random": rng.randrange(1 << 30)}
    return rng.choice(legal_actions(game))


def greedy_player(game: Game, color: str, rng: random.Random) -> dict[str, Any]:
    return greedy_action(view(game, color), color, rng)


def ai_player(game: Game, color: str, rng: random.Random) -> dict[str, Any]:
    return choose_action(view(game, color), color, rng.randrange(1 << 30))


def play(black: Player, white: Player, seed: int, turn_limit: int) -> dict[str, Any]:
    rng = random.Random(seed)
    game = new_game({"turn_limit": turn_limit}, seed=seed)
    players = {"black": black, "white": white}
    for color in ("black", "white"):
        game = apply(game, players[color](game, color, rng))
    while outcome(game) is None:
        color = to_move(game)
        assert color is not None
        game = apply(game, players[color](game, color, rng))
    result = outcome(game)
    assert result is not None
    return result


def match(name: str, opponent: Player, games: int, turn_limit: int) -> None:
    wins = 0
    reasons: dict[str, int] = {}
    start = time.perf_counter()
    for i in range(games):
        ai_color = "black" if i % 2 == 0 else "white"
        players = (ai_player, opponent) if ai_color == "black" else (opponent, ai_player)
        result = play(*players, seed=10_000 + i, turn_limit=turn_limit)
        wins += result["winner"] == ai_color
        key = f"{'win' if result['winner'] == ai_color else 'draw' if result['winner'] is None else 'loss'}:{result['reason']}"
        reasons[key] = reasons.get(key, 0) + 1
    low, high = wilson(wins, games)
    took = time.perf_counter() - start
    print(
        f"AI vs {name}: won {wins}/{games} = {wins / games:.1%} "
        f"(Wilson 95% {low:.1%}-{high:.1%}); {took:.1f} s; {dict(sorted(reasons.items()))}",
        flush=True,
    )


def playouts(seconds: float) -> None:
    count = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        rng = random.Random(count)
        game = new_game(seed=count)
        for color in ("black", "white"):
            game = apply(game, {"type": "setup", "color": color, "random": rng.randrange(1 << 30)})
        while outcome(game) is None:
            game = apply(game, rng.choice(legal_actions(game)))
            actions += 1
        count += 1
    took = time.perf_counter() - start
    print(
        f"random playouts: {count} in {took:.1f} s = {count / took:.2f} playouts/s, {actions / took:.0f} actions/s",
        flush=True,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games per opponent")
    parser.add_argument(
        "--turn-limit", type=int, default=600, help="turns before a game is drawn (a draw is no win)"
    )
    parser.add_argument("--playout-seconds", type=float, default=10.0)
    parser.add_argument("--only", choices=("random", "greedy", "playouts"), default=None)
    args = parser.parse_args(argv)
    if args.only in (None, "playouts"):
        playouts(args.playout_seconds)
    if args.only in (None, "random"):
        match("random mover", random_player, args.games, args.turn_limit)
    if args.only in (None, "greedy"):
        match("greedy one-ply", greedy_player, args.games, args.turn_limit)


if __name__ == "__main__":
    main()
