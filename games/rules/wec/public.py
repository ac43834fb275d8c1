"""What both players know that both know: the spectators' board.

A spectator page may show only what is *common knowledge* between the two
players: something each of them can compute from their own view alone.  If
the page held anything one player cannot work out, that player could open it
(anyone may watch) and learn it.  The earlier design showed a piece when the
enemy saw it; its owner cannot tell from their own view whether an unseen
enemy detector has found it, so the page told them (docs/rulings.md,
"What a spectator sees").

``public_view(view)`` derives the spectators' board from ONE side's view.
Called on Black's view and on White's view of the same position (taken at the
start of a Turn, see below) it gives the same answer; the site computes both
and shows them only when they agree.

What is common knowledge here:

* a Piece that cannot be concealed under the game's options (no Stealth in
  force, not at sub level under submersion invisibility) is seen by the enemy
  whatever the enemy's Pieces are (visibility.py conceals nothing else), and
  its owner knows it.  Its type, place, level, carried Articles, stun and hand
  are in both views.  A Piece that *can* be concealed is never shown, even
  when it is in fact seen (locked on, in detection range, or given away by
  firing): whether it is seen rests on enemy Pieces its owner may not see;
* every Article on the ground (both views list them all);
* where each side's reinforcements wait (not what they are);
* projectiles above the sub level (or all, without submersion invisibility)
  *at the start of a Turn*: none is ``fresh`` then (a projectile launched in a
  Turn flies, and stops being fresh, when that Turn ends), and ``view`` hides
  from the enemy only fresh ones and torpedoes below it cannot sense.  Mid-Turn
  the mover's fresh ones are in its view only, so callers pass a view taken
  at a Turn's start;
* whose Turn it is, the Turn number and the options.

Manual: what the enemy may not see, l. 112, 165; lock-on and detection at
range, l. 488-492, 633-641; firing gives a Piece away, l. 493-495.
"""

from __future__ import annotations

import json
from typing import Any

from .constants import INHERENT, PRIMARY

_PIECE_KEYS = ("type", "color", "row", "col", "level", "articles", "stun", "hand")
_PROJECTILE_KEYS = ("kind", "color", "row", "col", "level", "direction")


def can_be_concealed(piece: dict[str, Any], options: dict[str, Any]) -> bool:
    """Whether the options let this Piece (as a view lists it) be hidden from
    the enemy at all: the test of visibility.hidden_from, on view data only."""
    if piece["level"] == "sub" and options["submersion_invisibility"]:
        return True
    stealth = "stealth" in piece.get("articles", ()) or "stealth" in INHERENT.get(piece["type"], ())
    return bool(
        options["stealth_invisibility"] and stealth and (options["stealthed_kings"] or piece["type"] not in PRIMARY)
    )


def _canonical(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # The views order pieces relative to their reader (own first on a
    # Square); the public board must not depend on whose view it came from.
    return sorted(items, key=lambda d: json.dumps(d, sort_keys=True))


def public_view(view: dict[str, Any]) -> dict[str, Any]:
    """The spectators' board, from one side's ``view`` at the start of a Turn
    (a dict of the same shape as ``view``, with ``color`` None)."""
    options = view["options"]
    pieces = [
        {k: p[k] for k in _PIECE_KEYS if k in p}
        for p in view.get("pieces", [])
        if not can_be_concealed(p, options)
    ]
    projectiles = [
        {k: d[k] for k in _PROJECTILE_KEYS if k in d}
        for d in view.get("projectiles", [])
        if not (d["level"] == "sub" and options["submersion_invisibility"])
    ]
    return {
        "color": None,
        "to_move": view["to_move"],
        "turn_number": view["turn_number"],
        "options": dict(options),
        "turn": {},
        "pieces": _canonical(pieces),
        "articles": _canonical([dict(a) for a in view.get("articles", [])]),
        "projectiles": _canonical(projectiles),
        "reinforcements": _canonical(
            [{k: r[k] for k in ("color", "row", "col")} for r in view.get("reinforcements", [])]
        ),
        "markers": [],
        "outcome": None,
        "history": [],
    }
