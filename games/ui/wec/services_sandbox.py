"""The sandbox: one person plays both sides of a position, with free undo.

Kept in the visitor's session, not as a Game row (docs/club.md, "Sandbox"):
a sandbox has no opponent, clock, rating, notifications, spectators or
archive entry, so a row would need excluding from every list, beat task and
count that reads games; and nothing in it is secret, so there is nothing to
protect by keeping it on the server side of the session.  The session holds
the starting document, the list of actions played (``end_turn`` included)
and a cursor; the position is the start replayed up to the cursor (a 300-action
game replays in about 0.1 s of CPU), so undo and redo are moving the cursor,
and playing an action after an undo drops the actions that followed, as the
engine's own Undo (games/rules/wec/undo.py) does.  An imported record is the
same thing: the actions the engine's replay finds for its Turns, the cursor at
the start.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _

from games.engines import get_engine
from games.services import GameError, StaleState
from wecsite.inputs import JSONInputError, read_json

SESSION_KEY = "wec_sandbox"
MAX_STEPS = 3000
MAX_RECORD_CHARS = 200_000
# A starting position or an Options header: pieces with their articles are a
# few levels deep; the limits only keep absurd documents from the parser.
MAX_JSON_CHARS = 200_000
MAX_JSON_DEPTH = 8
_HEADER = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$')
_TURN = re.compile(r"^(\d+)\.\s+(\S.*)$")


class RecordError(GameError):
    """A record the sandbox cannot read: ``line`` is its 1-based line."""

    def __init__(self, message: str, line: int | None = None):
        if line is not None:
            message = _("Line %(n)d: %(message)s") % {"n": line, "message": message}
        super().__init__(message)
        self.line = line


def _engine():
    return get_engine("wec")


def _options(options: dict | None) -> dict:
    # Undo and a full record need a friendly game (l. 331-341); a sandbox is one.
    return {**(options or {}), "competitive": False}


def _start_document(doc: dict) -> dict:
    engine = _engine()
    try:
        game = engine.load_scenario({**doc, "options": _options(doc.get("options"))})
    except (ValueError, KeyError, TypeError) as exc:
        raise GameError(_("The engine refuses this position: %(error)s") % {"error": exc}) from None
    return engine.dump_scenario(game)


def current(session) -> dict | None:
    return session.get(SESSION_KEY)


def state_of(box: dict, cursor: int | None = None):
    """The engine game at ``cursor`` (default: the box's own)."""
    engine = _engine()
    game = engine.load_scenario(box["start"])
    for action in box["steps"][: box["cursor"] if cursor is None else cursor]:
        game = engine.apply(game, action)
    return game


def start(session, doc: dict, title: str) -> dict:
    """A new sandbox from a scenario document (the old one is dropped)."""
    box = {"start": _start_document(doc), "steps": [], "cursor": 0, "title": str(title)[:120]}
    session[SESSION_KEY] = box
    return box


def _box(session, step) -> dict:
    box = current(session)
    if box is None:
        raise GameError(_("There is no sandbox yet: start one first."))
    try:
        step = int(step)
    except (TypeError, ValueError):
        raise GameError(_("The form is missing its position number; reload the page.")) from None
    if step != box["cursor"]:
        # Another tab moved this sandbox: do nothing rather than play on a
        # position the player is not looking at.
        raise StaleState(_("This sandbox has changed in another tab; reload the page."))
    return box


def play(session, index, step) -> dict:
    """Play the side to move's ``index``-th legal action (as listed on the page)."""
    box = _box(session, step)
    engine = _engine()
    game = state_of(box)
    if engine.outcome(game):
        raise GameError(_("The game in this sandbox is over: step back or start again."))
    legal = engine.legal_actions(game)
    try:
        index = int(index)
        action = legal[index]
        if index < 0:
            raise IndexError
    except (TypeError, ValueError, IndexError):
        raise GameError(_("That action is not one of the listed ones; reload the page.")) from None
    if box["cursor"] >= MAX_STEPS:
        raise GameError(_("A sandbox holds at most %(n)d actions.") % {"n": MAX_STEPS})
    box = {**box, "steps": [*box["steps"][: box["cursor"]], action], "cursor": box["cursor"] + 1}
    session[SESSION_KEY] = box
    return box


def step(session, where: str, step) -> dict:
    """Move through the actions: back / forward one, to the start of the
    Turn, to the very start or the end."""
    box = _box(session, step)
    cursor, last = box["cursor"], len(box["steps"])
    if where == "back":
        cursor = max(0, cursor - 1)
    elif where == "forward":
        cursor = min(last, cursor + 1)
    elif where == "turn_back":
        # To the previous Turn boundary (the position just after an end_turn).
        cursor = max(0, cursor - 1)
        while cursor > 0 and box["steps"][cursor - 1].get("type") != "end_turn":
            cursor -= 1
    elif where == "turn_forward":
        cursor = min(last, cursor + 1)
        while cursor < last and box["steps"][cursor - 1].get("type") != "end_turn":
            cursor += 1
    elif where == "first":
        cursor = 0
    elif where == "last":
        cursor = last
    else:
        raise GameError(_("Choose back, forward, first or last."))
    box = {**box, "cursor": cursor}
    session[SESSION_KEY] = box
    return box


def clear(session) -> None:
    session.pop(SESSION_KEY, None)


def read_record(text: str, start_json: str = "") -> tuple[dict | None, dict, list[tuple[int, str]]]:
    """(scenario or None, options, [(line number, Turn text)]) of a .wec
    record as /games/<id>/export.wec writes it (docs/notation.md): header
    lines, a blank line, ``N. <Turn>`` lines numbered from 1."""
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(_("The record is too long for the sandbox."))
    options: dict[str, Any] = {}
    turns: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        header = _HEADER.match(line)
        if header:
            if turns:
                raise RecordError(_("a header line after the Turns."), number)
            if header.group(1) == "Options":
                try:
                    written = header.group(2).replace('\\"', '"').replace("\\\\", "\\")
                    options = read_json(written, max_chars=MAX_JSON_CHARS, max_depth=MAX_JSON_DEPTH)
                except JSONInputError:
                    raise RecordError(_("the Options header is not valid JSON."), number) from None
                if not isinstance(options, dict):
                    raise RecordError(_("the Options header is not valid JSON."), number)
            continue
        turn = _TURN.match(line)
        if turn is None:
            raise RecordError(_("expected “N. <Turn>” or a [Key \"value\"] header."), number)
        if int(turn.group(1)) != len(turns) + 1:
            raise RecordError(_("Turn %(n)s is out of order.") % {"n": turn.group(1)}, number)
        turns.append((number, turn.group(2)))
    scenario = None
    if start_json.strip():
        try:
            scenario = read_json(start_json, max_chars=MAX_JSON_CHARS, max_depth=MAX_JSON_DEPTH)
        except JSONInputError:
            raise RecordError(_("The starting position is not valid JSON.")) from None
        if not isinstance(scenario, dict):
            raise RecordError(_("The starting position is not valid JSON."))
    return scenario, options, turns


def import_record(session, text: str, start_json: str = "") -> dict:
    """A sandbox that steps through a .wec record: its actions, the cursor at
    the start.  A bad record is a RecordError naming its line; nothing changes."""
    engine = _engine()
    scenario, options, turns = read_record(text, start_json)
    if not turns:
        raise RecordError(_("The record has no Turns."))
    options = _options(options)
    try:
        engine.resolve_options(options)
    except (ValueError, TypeError) as exc:
        raise RecordError(_("the options are not valid: %(error)s") % {"error": exc}) from None
    try:
        start_doc = _start_document(scenario) if scenario is not None else engine.dump_scenario(engine.new_game(options))
        steps = engine.record_steps([t for _n, t in turns], options=options, scenario=start_doc if scenario else None)
    except engine.RecordError as exc:
        line = turns[exc.turn - 1][0] if 0 < exc.turn <= len(turns) else None
        raise RecordError(str(exc), line) from None
    except GameError:
        raise
    except (ValueError, KeyError, TypeError) as exc:
        raise RecordError(str(exc)) from None
    except (AttributeError, IndexError):
        # The starting position is any JSON a visitor wrote: the engine's
        # loader takes some malformed ones (a list written as a string) that
        # fail only once a Turn is played on them.
        raise RecordError(_("The engine cannot play this starting position.")) from None
    if len(steps) > MAX_STEPS:
        raise RecordError(_("A sandbox holds at most %(n)d actions.") % {"n": MAX_STEPS})
    box = {"start": start_doc, "steps": steps, "cursor": 0, "title": _("Imported record")}
    session[SESSION_KEY] = box
    return box
