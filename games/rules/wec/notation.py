"""The Wec game notation (the manual's GAME HISTORY section).

One string per finished Turn, the Move first:
``MV:<piece>-><level><location>{dozing}{results}``, where a piece is written
``<code><level>(<row>,<col>)<articles><hand>``: level ``^`` air, ``v`` sub,
nothing for ground; hand ``<`` left, ``>`` right. Engine part 3 completes the
grammar (Fires, Pick-ups, ...) and reads it back.
"""

from __future__ import annotations

from typing import Any

from .constants import ARTICLE_CODES, LEVEL_INDEX, PIECE_CODES
from .state import Game

_LEVEL_MARK = {0: "", 1: "^", 2: "v"}


def piece_text(d: dict[str, Any]) -> str:
    """A piece description from an event's piece dict (level as an int)."""
    level = d["level"] if isinstance(d["level"], int) else LEVEL_INDEX[d["level"]]
    arts = d.get("articles") or []
    art = f"{len(arts)}{''.join(ARTICLE_CODES[a] for a in arts)}" if arts else ""
    hand = {"left": "<", "right": ">"}.get(d.get("hand") or "", "")
    return f"{PIECE_CODES[d['type']]}{_LEVEL_MARK[level]}({d['row']},{d['col']}){art}{hand}"


def _place_text(place: list[Any]) -> str:
    return f"{_LEVEL_MARK[LEVEL_INDEX[place[2]]]}({place[0]},{place[1]})"


def turn_text(entries: list[dict[str, Any]], censored: bool = False) -> str:
    """The notation of one Turn from its log entries."""
    move = next((e for e in entries if e["action"]["type"] == "move"), None)
    if move is None:
        return "MV:-"
    if censored and not move.get("public", True):
        return "MV:?"
    a = move["action"]
    s = f"MV:{piece_text(move['actor'])}->{_place_text(a['to'])}"
    if "doze" in a:
        s += ",DO>" + "".join(f"({r},{c})" for r, c in a["doze"])
    results = []
    for ev in move["events"]:
        if ev["kind"] == "taken":
            p = ev["piece"]
            results.append(f"*{piece_text(p)}{'B' if p['color'] == 'black' else 'W'}")
    if results:
        s += ",RS:" + ",".join(results)
    return s


def history(game: Game, color: str | None = None) -> list[str]:
    """One notation string per finished Turn.

    For ``color`` in a running competitive game, enemy activity that color did
    not see is edited out; once the game has ended everything is shown.
    """
    censor = color is not None and game.options["competitive"] and not game.result
    return [turn["censored"] if censor and turn["color"] != color else turn["text"] for turn in game.log]
