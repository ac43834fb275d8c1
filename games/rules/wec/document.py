"""Dumping a game as a scenario document (the board editor's format).

The document records everything the manual's board editor sets up (pieces,
Articles, reinforcements: l. 281-315) and everything a game in progress adds
(the Turn, projectiles, the Game History of l. 1755-1800). It sits below the
game state because two games are equal exactly when their documents are
(``Game.__eq__``); loading a document is :mod:`.scenario`'s work.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from .constants import LEVELS, SIZE

if TYPE_CHECKING:  # only for annotations: the state imports this module
    from .state import Game

_ATOMS = (str, int, float, bool, type(None))


def _copy(value: Any) -> Any:
    """A deep copy of plain document data (dicts, lists, tuples, strings,
    numbers), as copy.deepcopy would make it, at a fifth of its cost: every
    action's state row is dumped, and the start position alone is ~11 KB of
    nested dicts (deepcopy's memo and dispatch were ~0.3 ms of each submit).
    Anything else is left to deepcopy."""
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _ATOMS else _copy(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _ATOMS else _copy(v) for v in value]
    if kind in _ATOMS:
        return value
    if kind is tuple:
        return tuple(_copy(v) for v in value)
    return copy.deepcopy(value)


def transport_doc(t: tuple[Any, ...]) -> dict[str, Any]:
    d: dict[str, Any] = {"article": t[0], "to": [t[1], t[2], LEVELS[t[3]]], "path": t[4]}
    if t[5]:
        d["fresh"] = True
    return d


def dump_scenario(game: Game, history: bool = True) -> dict[str, Any]:
    """The complete document for ``game``; loading it gives an equal game.

    With ``history=False`` the record of finished Turns (the ``log``) is left
    out, so the document's size does not grow with the game's length; load it
    back with ``load_scenario(doc, history=turn_records(game))``."""
    pieces = []
    for pid in sorted(game.pieces):
        p = game.pieces[pid]
        d: dict[str, Any] = {
            "id": p.id,
            "type": p.type,
            "color": p.color,
            "row": p.row,
            "col": p.col,
            "level": LEVELS[p.level],
            "articles": list(p.articles),
        }
        if p.hand:
            d["hand"] = p.hand
        if p.moved:
            d["moved"] = True
        if p.stun:
            d["stun"] = p.stun
        if p.cooldowns:
            d["cooldowns"] = dict(p.cooldowns)
        if p.transport:
            d["transport"] = transport_doc(p.transport)
        pieces.append(d)
    articles = [
        {"type": a, "row": sq // SIZE + 1, "col": sq % SIZE + 1}
        for sq, arts in enumerate(game.ground)
        for a in arts
    ]
    reinforcements = []
    for r in game.reinforcements:
        d = {"type": r.type, "color": r.color, "row": r.row, "col": r.col}
        if r.hand:
            d["hand"] = r.hand
        if r.armed:
            d["armed"] = True
        if r.ready:
            d["ready"] = True
        reinforcements.append(d)
    doc = {
        "to_move": game.to_move,
        "turn_number": game.turn_number,
        "options": dict(game.options),
        "pieces": pieces,
        "articles": articles,
        "reinforcements": reinforcements,
        "locks": [{"watcher": a, "watched": b} for a, b in game.locks],
        "turn": _copy(game.turn),
        "projectiles": _copy(list(game.projectiles)),
        "result": _copy(game.result),
        "log": _copy(list(game.log)) if history else None,
        "turn_log": _copy(list(game.turn_log)),
        "next_id": game.next_id,
        "revealed": [list(r) for r in game.revealed],
        "start": _copy(game.start),
        "markers": {c: [list(m) for m in game.markers[c]] for c in ("black", "white")},
    }
    if not history:
        del doc["log"]
    return doc
