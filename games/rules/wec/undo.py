"""Undo: stepping a non-competitive game back any number of actions.

A game keeps only its starting document and the notation of its finished
Turns (plus the Turn in progress), so Undo replays that history up to the
wanted point. That is slower than keeping every earlier state, but Undo is rare
and the state stays small however long the game runs.

Undo and changing options exist only outside competitive play (l. 331-341).
"""

from __future__ import annotations

from typing import Any

from .actions import IllegalAction, apply
from .options import resolve
from .replay import replay_turn_steps
from .scenario import dump_scenario, load_scenario
from .state import Game


def action_count(game: Game) -> int:
    """How many actions (``end_turn`` included) lead from the start to ``game``."""
    return len(_steps(game)[1])


def _steps(game: Game) -> tuple[Game, list[dict[str, Any]]]:
    g = load_scenario(game.start)
    steps: list[dict[str, Any]] = []
    for n, turn in enumerate(game.log, 1):
        g, turn_steps = replay_turn_steps(g, turn["text"], n, turn.get("order"))
        steps.extend(turn_steps)
    steps.extend(e["action"] for e in game.turn_log)
    return g, steps


def turn_starts(game: Game) -> list[int]:
    """How many actions lead to the start of each Turn, oldest first: ``[0, n1,
    n1 + n2, ...]``, the last entry being the start of the Turn in progress.
    ``action_count(game) - turn_starts(game)[-1]`` is how many actions the side
    to move has taken this Turn."""
    g = load_scenario(game.start)
    starts = [0]
    for n, turn in enumerate(game.log, 1):
        g, turn_steps = replay_turn_steps(g, turn["text"], n, turn.get("order"))
        starts.append(starts[-1] + len(turn_steps))
    return starts


def actions_this_turn(game: Game) -> int:
    """How many actions the side to move has taken in the Turn in progress."""
    return len(game.turn_log)


def turn_actions(game: Game) -> list[dict[str, Any]]:
    """The actions the side to move has taken in the Turn in progress, oldest first."""
    return [dict(e["action"]) for e in game.turn_log]


def steps_back_to_turn(game: Game, turns_back: int = 0) -> int:
    """How many actions ``undo`` must take back to reach the start of the Turn
    in progress (``turns_back`` 0: the actions taken this Turn) or of the Turn
    ``turns_back`` finished Turns before it."""
    if isinstance(turns_back, bool) or not isinstance(turns_back, int) or turns_back < 0:
        raise IllegalAction("turns_back must be a whole number, 0 or more")
    if game.start is None:
        raise IllegalAction("this game was loaded without its starting position, so it cannot be undone")
    starts = turn_starts(game)
    if turns_back >= len(starts):
        raise IllegalAction(f"only {len(starts) - 1} Turns have been finished")
    return starts[-1] + len(game.turn_log) - starts[-1 - turns_back]


def undo(game: Game, steps: int = 1) -> Game:
    """The game as it was ``steps`` actions ago (``end_turn`` counts as one).

    Only in a non-competitive game, and not past the game's start.
    """
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 0:
        raise IllegalAction("steps must be a whole number of actions, 0 or more")
    if game.options["competitive"]:
        raise IllegalAction("there is no Undo in a competitive game")
    if game.start is None:
        raise IllegalAction("this game was loaded without its starting position, so it cannot be undone")
    if steps == 0:
        return game
    _, all_steps = _steps(game)
    keep = len(all_steps) - steps
    if keep < 0:
        raise IllegalAction(f"only {len(all_steps)} actions have been made; cannot undo {steps}")
    g = load_scenario(game.start)
    for action in all_steps[:keep]:
        g = apply(g, action)
    return g


def change_options(game: Game, overrides: dict[str, Any]) -> Game:
    """The game with options changed, where the rules allow it.

    A non-competitive game may change any option before its first action
    (they are pre-game options) and may turn competitive, or open or close
    its record (``open_record``), at any time; a competitive game's options
    are fixed. Raises :class:`IllegalAction`
    (bad names or values included) and changes nothing.
    """
    if not isinstance(overrides, dict):
        raise IllegalAction("options must be a mapping of option names to values")
    if game.options["competitive"]:
        raise IllegalAction("a competitive game's options are fixed")
    started = bool(game.log or game.turn_log)
    if started and set(overrides) - {"competitive", "open_record"}:
        raise IllegalAction(
            "options can only change before the first action; a game may still turn competitive "
            "or open or close its record"
        )
    if "competitive" in overrides and overrides["competitive"] is False and len(overrides) == 1:
        return game
    try:
        options = resolve({**game.options, **overrides})
    except ValueError as exc:
        raise IllegalAction(str(exc)) from None
    doc = dump_scenario(game)
    doc["options"] = options
    if not started:
        doc["start"] = None
        doc.pop("start")
    return load_scenario(doc)
