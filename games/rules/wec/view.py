"""What one side knows: the only picture of a game a player is ever given.

Secrets are removed here, at the source: enemy Pieces the side cannot see are
left out entirely, enemy Pieces carry no ids (an id would let a player follow a
Piece through a spell of invisibility), and the Turn in progress is shown only
to the side playing it.

Manual: what a side sees, l. 108-112, 165, 340-347, 394-405 and 488-495
(the Game History shown censored, l. 1755-1760).
"""

from __future__ import annotations

from typing import Any

from .constants import COLORS, LEVEL_INDEX, LEVELS, SIZE, SUB
from .document import transport_doc
from .notation import history as _history
from .state import Game
from .visibility import hidden_from, sees_sub


def view(game: Game, color: str, history: bool = True) -> dict[str, Any]:
    """Everything ``color`` knows about ``game``, as plain JSON data.
    ``history=False`` leaves out the ``history`` entry (the one part that
    grows with the game's length) for a caller that reads the record
    separately (``notation.history``)."""
    if color not in COLORS:
        raise ValueError(f"color must be 'black' or 'white', not {color!r}")
    hidden = hidden_from(game, color)
    pieces = []
    for p in sorted(game.pieces.values(), key=lambda p: (p.row, p.col, p.level, p.color != color, p.type, p.id)):
        if p.id in hidden:
            continue
        d: dict[str, Any] = {
            "type": p.type,
            "color": p.color,
            "row": p.row,
            "col": p.col,
            "level": LEVELS[p.level],
            "articles": list(p.articles),
            "stun": p.stun,
        }
        if p.hand:
            d["hand"] = p.hand
        if p.color == color:
            d["id"] = p.id
            d["cooldowns"] = dict(p.cooldowns)
            if p.transport:
                d["transport"] = transport_doc(p.transport)
            if p.type.endswith("_pawn"):
                d["moved"] = p.moved
        pieces.append(d)
    articles = [
        {"type": a, "row": sq // SIZE + 1, "col": sq % SIZE + 1} for sq, arts in enumerate(game.ground) for a in arts
    ]
    reinforcements = []
    for r in game.reinforcements:
        if r.color == color:
            d = {"type": r.type, "color": r.color, "row": r.row, "col": r.col, "armed": r.armed, "ready": r.ready}
            if r.hand:
                d["hand"] = r.hand
        else:
            # The manual's display shows where enemy reinforcements wait, not what they are.
            d = {"color": r.color, "row": r.row, "col": r.col}
        reinforcements.append(d)
    projectiles = []
    for proj in game.projectiles:
        level = LEVEL_INDEX[proj["level"]]
        d = {"kind": proj["kind"], "color": proj["color"], "row": proj["row"], "col": proj["col"],
             "level": proj["level"], "direction": list(proj["direction"])}
        if proj["color"] == color:
            target = proj.get("target")
            d["homing"] = target is not None
            if target is not None and target in game.pieces and target not in hidden:
                t = game.pieces[target]
                d["target"] = [t.row, t.col, LEVELS[t.level]]
            d["strength"] = proj["strength"]
        elif proj["fresh"] or (level == SUB and not sees_sub(game, color, proj["row"], proj["col"])):
            # Launched this Turn it still sits on its firer's Square; a torpedo
            # is as hidden as anything else below.
            continue
        projectiles.append(d)
    markers = [
        {"row": slot // 3 // SIZE + 1, "col": slot // 3 % SIZE + 1, "level": LEVELS[slot % 3], "type": kind}
        for slot, kind in game.markers[color]
    ]
    turn: dict[str, Any] = {}
    if color == game.to_move and not game.result:
        turn = {"moved": game.turn["moved"], "fires": len(game.turn["fires"]),
                "pickup": game.turn["pickup"], "drop": game.turn["drop"], "exchange": game.turn["exchange"],
                "reinforce": game.turn["reinforce"]}
    out = {
        "color": color,
        "to_move": game.to_move,
        "turn_number": game.turn_number,
        "options": dict(game.options),
        "turn": turn,
        "pieces": pieces,
        "articles": articles,
        "projectiles": projectiles,
        "reinforcements": reinforcements,
        "markers": markers,
        "outcome": dict(game.result) if game.result else None,
    }
    if history:
        out["history"] = _history(game, color)
    return out
