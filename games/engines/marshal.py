"""The site's adapter of the pure Marshal and Spy engine (games.rules.marshal).

The site's state store, services and AI task drive every game through one
engine interface (games.engines.Engine, the Wec engine's facade,
docs/engine-api.md); this module gives the Marshal facade the few extra calls
that interface has, without touching the pure package.  Like the engine, it
is pure Python (no Django).

- ``to_move``: during setup the site lets the colours set up one after the
  other, Black first (the engine accepts either order).  Each side's setup is
  hidden from the other until both are done, so the order tells nobody
  anything; it lets the site's clocks, "your turn" notifications and the AI
  task work unchanged.  Decision recorded in docs/architecture.md.
- ``new_game`` draws the volcano seed (the initial state is always stored as
  a snapshot, so the draw is never repeated) and drops the site's own options.
- ``turn_records`` / ``turn_count`` / ``dump_scenario(history=False)``: the
  Marshal dump holds its own log, so the state row needs no Turn records;
  ``history`` / ``plain_history`` take ``start`` and ``view`` takes
  ``history`` as the Wec engine's do.  The engine has no record in words of
  its own: ``plain_history`` gives the notation lines, which the site
  package's ``plain_words`` writes out in the reader's language
  (games/ui/marshal/words.py).
- ``choose_action(state, seed)``: the AI of games/rules/marshal/ai.py for the
  side the site waits for, given only that side's view (its setup too).
"""

from __future__ import annotations

import secrets
from typing import Any

from games.rules import marshal as rules
from games.rules.marshal import (  # noqa: F401  (the facade, passed through)
    DEFAULT_OPTIONS,
    IllegalAction,
    apply,
    legal_actions,
    outcome,
)
from games.rules.marshal.options import resolve

NAME = "marshal"

#: Option keys the site adds to a game's options (not the engine's).
#: Marshal and Spy has no open record: a stray ``open_record`` is dropped too.
SITE_OPTIONS = ("competitive", "open_record")


def engine_options(options: dict | None) -> dict:
    return {k: v for k, v in (options or {}).items() if k not in SITE_OPTIONS}


def resolve_options(options: dict | None) -> dict:
    return resolve(engine_options(options))


def new_game(options: dict | None = None, seed: int | None = None):
    return rules.new_game(engine_options(options), seed=secrets.randbelow(2**31) if seed is None else seed)


def setup_to_move(state) -> str | None:
    """The colour the site waits for during setup (Black first), else None."""
    if state.phase != "setup":
        return None
    ready = dict(zip(("black", "white"), state.ready, strict=True))
    return "black" if not ready["black"] else ("white" if not ready["white"] else None)


def to_move(state) -> str:
    """The side the site waits for.  Once over, the side that made the last
    move (the site's game row always names a colour, as with Wec)."""
    if rules.outcome(state) is not None:
        return state.log[-1].color if state.log else "black"
    return rules.to_move(state) or setup_to_move(state) or "black"


def load_scenario(doc: dict, history: list | None = None):  # noqa: F811 (the site's keyword)
    if isinstance(doc, dict) and isinstance(doc.get("options"), dict):
        doc = {**doc, "options": engine_options(doc["options"])}
    return rules.load_scenario(doc)


def dump_scenario(state, history: bool = True) -> dict:  # noqa: F811
    return rules.dump_scenario(state)


def turn_count(state) -> int:
    return 0


def turn_records(state, start: int = 0) -> list:
    return []


def view(state, color: str, history: bool = True) -> dict:
    """The engine's view; ``history=False`` leaves out its record, as the Wec
    engine's does (the site reads the record separately)."""
    out = rules.view(state, color)
    if not history:
        out.pop("history", None)
    return out


def censors(state, color: str | None) -> bool:
    """The engine censors every running game's record for a colour
    (marshal-contract.md ``history``): friendly or not, there is no open
    record in Marshal and Spy."""
    return color is not None and rules.outcome(state) is None


def history(state, color: str | None = None, start: int = 0) -> list[str]:
    # A Marshal line can change after its Turn (a piece revealed later is
    # named in it), so the lines are always made whole, then cut.
    return rules.history(state, color)[start:]


def plain_history(state, color: str | None = None, start: int = 0) -> list[str]:
    """The lines the site package puts into words, one per line of `history`."""
    return history(state, color, start)


def choose_action(state, seed: int) -> dict[str, Any] | None:
    color = to_move(state)
    if color is None:
        return None
    # The AI is given only its own side's view (so it chooses alike in two
    # worlds its side cannot tell apart); during setup it places its army.
    return rules.choose_action(rules.view(state, color), color, seed)
