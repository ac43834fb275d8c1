"""The one place the site reaches a game's rules engine.

Every engine the site drives is a module with the facade `Engine` describes
(the Wec engine's, docs/engine-api.md): the site's state store, services,
tasks and the games' site packages call nothing else.  `ENGINES` says which
module that is for each game: the pure package itself when its facade
already has every call (Wec), else a small adapter in this package, free of
Django like the engine it wraps (`games.engines.marshal`).

An engine that can take actions back (a friendly game's take-backs and
granted undo requests, games.services.takeback) is registered with ``undo=True`` and
then also has `UndoEngine`'s calls; `undo_engine` gives it typed as such, so
the site asks the registry once instead of probing the module for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import Any, Protocol, cast

#: An engine's game state: opaque to the site, immutable, made and read only
#: by the engine that made it.
State = Any


class Engine(Protocol):
    """The calls the site makes of every game's engine module.  The state
    always comes first and by position (the engines name it differently)."""

    NAME: str  # the game's name, as in ENGINES and Game.engine
    DEFAULT_OPTIONS: dict[str, Any]  # the engine's own options, as the manual sets them
    IllegalAction: type[ValueError]  # what `apply` raises for an illegal action

    def new_game(self, options: dict[str, Any] | None = None) -> State:
        """The game's start (the site's own option keys are accepted and ignored)."""
        ...

    def resolve_options(self, options: dict[str, Any] | None, /) -> dict[str, Any]:
        """Every option with its value; ValueError naming a bad one."""
        ...

    def legal_actions(self, state: State, /) -> list[dict[str, Any]]:
        """Every action the side the site waits for may take now."""
        ...

    def apply(self, state: State, /, action: dict[str, Any]) -> State:
        """The state after `action` (`state` is unchanged); IllegalAction if it is not legal."""
        ...

    def to_move(self, state: State, /) -> str:
        """The colour the site waits for; once over, any colour (the game row always names one)."""
        ...

    def outcome(self, state: State, /) -> dict[str, Any] | None:
        """None while the game runs, else {"winner": colour or None, "reason": str}."""
        ...

    def view(self, state: State, /, color: str, history: bool = True) -> dict[str, Any]:
        """What `color` knows, and nothing more (without the record when `history` is False)."""
        ...

    def history(self, state: State, /, color: str | None = None, start: int = 0) -> list[str]:
        """The record in the game's notation as `color` may read it, from line `start` on."""
        ...

    def censors(self, state: State, /, color: str | None) -> bool:
        """Whether `color`'s record leaves out what that side did not see (the
        engine's one test: every record, sentence and export follows it)."""
        ...

    def plain_history(self, state: State, /, color: str | None = None, start: int = 0) -> list[str]:
        """The record in words, line for line with `history` (a site package's
        `plain_words` puts each line into the reader's language)."""
        ...

    def dump_scenario(self, state: State, /, history: bool = True) -> dict[str, Any]:
        """The state as a document (without the records of finished Turns when `history` is False)."""
        ...

    def load_scenario(self, doc: dict[str, Any], history: Sequence[dict[str, Any]] | None = None) -> State:
        """A state from a document; `history`: the records `dump_scenario(history=False)` left out."""
        ...

    def turn_records(self, state: State, /, start: int = 0) -> list[dict[str, Any]]:
        """The records of finished Turns from the `start`-th on (what the site stores per Turn)."""
        ...

    def turn_count(self, state: State, /) -> int:
        """How many finished Turns the state has recorded."""
        ...

    def choose_action(self, state: State, seed: int, /) -> dict[str, Any] | None:
        """The engine's AI: one action for the side the site waits for, from
        that side's knowledge only (None when it has none)."""
        ...


class UndoEngine(Engine, Protocol):
    """An engine that can take actions back (registered with ``undo=True``)."""

    def actions_this_turn(self, state: State, /) -> int:
        """How many actions the side to move has taken in the Turn in progress."""
        ...

    def steps_back_to_turn(self, state: State, /, turns_back: int = 0) -> int:
        """How many actions `undo` takes back to the start of the Turn in
        progress (`turns_back` 0) or of the Turn that many finished Turns before."""
        ...

    def undo(self, state: State, /, steps: int = 1) -> State:
        """The state as it was `steps` actions ago."""
        ...


@dataclass(frozen=True)
class Registered:
    """One game's engine: its module, whether it is an `UndoEngine`, and how
    its action log shows where a Turn ends (games.store.action_log.turn_ends,
    which the review's steps and Wec's highlights read), by exactly one of:

    - `turn_end`: the type of the action that ends a Turn (Wec's End Turn);
    - `turn_actions`: for a game whose Turn passes by itself once the side
      has made its moves, the types of the actions a Turn is made of.  The
      side to move changes only between Turns, so a Turn is one side's run
      of these actions, ended by its last (Marshal's moves, one or two a
      Turn by its options); the actions logged before the first (Marshal's
      setups) come before play."""

    module: str
    undo: bool = False
    turn_end: str = ""
    turn_actions: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if bool(self.turn_end) == bool(self.turn_actions):
            raise ValueError(f"{self.module}: give exactly one of turn_end and turn_actions")


#: engine name -> the module the site drives.  The same names as
#: games.rules.REGISTRY and games.registry.UI_REGISTRY.
ENGINES: dict[str, Registered] = {
    "wec": Registered("games.rules.wec", undo=True, turn_end="end_turn"),
    "marshal": Registered("games.engines.marshal", turn_actions=("move",)),
}


def registered(name: str) -> Registered:
    """The registry entry of the game `name` (KeyError naming an unknown game)."""
    try:
        return ENGINES[name]
    except KeyError:
        raise KeyError(f"unknown game engine {name!r}; known: {sorted(ENGINES)}") from None


def get_engine(name: str | None = None) -> Engine:
    """The engine of the game `name` (None or "": the site's first game,
    settings.WEC_ENGINE_NAME); KeyError naming an unknown game."""
    if not name:
        from django.conf import settings

        name = settings.WEC_ENGINE_NAME
    return cast(Engine, import_module(registered(name).module))


def undo_engine(name: str) -> UndoEngine | None:
    """The engine of the game `name` when it can take actions back, else None."""
    entry = ENGINES.get(name)
    if entry is None or not entry.undo:
        return None
    return cast(UndoEngine, import_module(entry.module))


def as_undo_engine(engine: Engine) -> UndoEngine:
    """`engine` as an UndoEngine; TypeError for one registered without undo
    (nothing that cannot take actions back is ever asked to)."""
    found = undo_engine(engine.NAME)
    if found is None:
        raise TypeError(f"the {engine.NAME!r} engine cannot take actions back")
    return found
