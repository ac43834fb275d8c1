"""The Wec game notation's writer (the manual's GAME HISTORY, l. 1755-1800).

One string per finished Turn, in the manual's fixed order (whatever order the
actions were taken in)::

    MV:<piece>-><level><location>{-TRA-><type>|,DO><location><type><location>{,<type><location>}}
    {,FI1:<weapon>/<piece><aim>}{,FI2:...}{,PU:...}{,EX:...}{,RE:...}{,DR:...}{,RS:<result>{,<result>}}
    {,SQ:<12DPXMR letters>}

A piece is ``<code><level>(<row>,<col>)<count><articles><hand>{#n}``: level
``^`` air, ``v`` sub, nothing for ground; hand ``<`` left, ``>`` right; ``#n``
which of two alike Pieces sharing a place acted. ``SQ:`` gives the order the
actions were taken in when it is not the one a reader tries first. The full
grammar is in docs/notation.md, and every choice made where the manual is
unclear in docs/rulings.md ("Notation"). Censoring for a running competitive
game follows l. 340-347 and 1714; a running game whose record is not open
(the ``open_record`` term) is censored the same way (:func:`censors`).

:func:`turn_text` writes a Turn from its log entries and :func:`history` lists
a game's Turns. This module sits low in the engine's layering (it needs only
the constants and the state), because ending a Turn writes its text; the
reader is :mod:`.reader`, replaying a history :mod:`.replay`, and the same
Turn in plain English :mod:`.plain`.
"""

from __future__ import annotations

import re
from typing import Any

from .constants import ARTICLE_CODES, LEVEL_INDEX, PIECE_CODES
from .options import value as option_value
from .state import Game

_LEVEL_MARK = {0: "", 1: "^", 2: "v"}
_HAND_MARK = {"left": "<", "right": ">"}

#: What a Fire names as its firing article. The restricted Rocket of a Jet or
#: Sub is written RL like a Rocket Launcher: it is always aimed at a piece
#: (``=>``), a Rocket Launcher always in a direction (``->``).
WEAPON_CODES = {
    "flamer": "FL",
    "stunner": "ST",
    "conversion": "CS",
    "rocket_launcher": "RL",
    "sam_launcher": "SL",
    "torpedo_launcher": "TL",
    "jet_rocket": "RL",
    "bike": "BI",
    "jump_pack": "JP",
    "scuba": "SC",
}
#: Result codes: a Piece destroyed by ...
KILL_CODES = {
    "flamer": "FK",
    "rocket": "RK",
    "sam": "SK",
    "torpedo": "TK",
    "stunner_kill": "STK",
    "conversion_kill": "CK",
    "crash": "CRK",
}
#: Result codes: an attack a Piece's Antis held off (the Anti's code).
RESIST_CODES = {
    "flamer": "AFL",
    "stunner": "AST",
    "conversion": "ACS",
    "rocket": "ARL",
    "sam": "ASL",
    "torpedo": "ATL",
}
PROJECTILE_CODES = {"rocket": "R", "sam": "S", "torpedo": "T"}
_PATH_MARK = {"beeline": "", "port": "<", "starboard": ">"}

#: The 12DPXMR letter of each action type but the Fire (numbered 1 and 2).
ORDER_CODE = {"move": "M", "drop": "D", "pickup": "P", "exchange": "X", "reinforce": "R"}


# --- writing -------------------------------------------------------------------------

def level_of(d: dict[str, Any]) -> int:
    level = d["level"]
    return level if isinstance(level, int) else LEVEL_INDEX[level]


def piece_text(d: dict[str, Any], censored: bool | str = False) -> str:
    """A piece description from a piece dict (``moves.describe``; level an int or a name).

    An acting Piece that shares its place with an alike one (same colour,
    type, hand and Articles) ends with ``#n``: it is the n-th of them in the
    board's (id) order, counted among the Pieces the reader could see
    (``censored`` as in :func:`turn_text`); see docs/notation.md.
    """
    arts = d.get("articles") or []
    art = f"{len(arts)}{''.join(ARTICLE_CODES[a] for a in arts)}" if arts else ""
    hand = _HAND_MARK.get(d.get("hand") or "", "")
    mark = d.get("mark_public" if censored is True else "mark")
    tail = f"#{mark}" if mark else ""
    return f"{PIECE_CODES[d['type']]}{_LEVEL_MARK[level_of(d)]}({d['row']},{d['col']}){art}{hand}{tail}"


def _alike(p: Any, q: Any) -> bool:
    return p.color == q.color and p.type == q.type and p.hand == q.hand and p.articles == q.articles


def mark_alike(game: Game, d: dict[str, Any], hidden_from_enemy: frozenset[int]) -> None:
    """Mark the piece dict ``d`` (of a Piece on ``game``'s board, before it
    acts) with its place among alike Pieces sharing its place: ``mark`` for
    its own side and the full record, ``mark_public`` among those the enemy
    sees. Nothing is added where it is the only one."""
    pid = d.get("id")
    p = game.pieces.get(pid) if pid is not None else None
    if p is None or len(game.board[p.slot]) < 2:
        return
    alike = [i for i in game.board[p.slot] if _alike(game.pieces[i], p)]
    if len(alike) < 2:
        return
    d["mark"] = alike.index(pid) + 1
    seen = [i for i in alike if i == pid or i not in hidden_from_enemy]
    if len(seen) > 1:
        d["mark_public"] = seen.index(pid) + 1


def _place_text(place: list[Any]) -> str:
    return f"{_LEVEL_MARK[LEVEL_INDEX[place[2]]]}({place[0]},{place[1]})"


def _color_mark(d: dict[str, Any]) -> str:
    return "B" if d["color"] == "black" else "W"


def shown(item: dict[str, Any], censored: bool | str) -> bool:
    """Whether a log entry or event is told: ``censored`` False (everything),
    True (to the enemy of the acting side) or ``"own"`` (to the acting side)."""
    if not censored:
        return True
    return item.get("own", True) if censored == "own" else item.get("public", True)


def _move_text(entry: dict[str, Any], censored: bool | str = False) -> str:
    a = entry["action"]
    s = f"MV:{piece_text(entry['actor'], censored)}->{_place_text(a['to'])}"
    events = [ev for ev in entry["events"] if shown(ev, censored)]
    for ev in events:
        if ev["kind"] == "carried":
            s += f"-TRA->{PIECE_CODES[ev['piece']['type']]}"
    if "doze" in a:
        dozed = [ev["piece"] for ev in events if ev["kind"] == "dozed_piece"]
        s += f",DO>({a['to'][0]},{a['to'][1]})" + ",".join(
            f"{PIECE_CODES[p['type']]}({p['row']},{p['col']})" for p in dozed
        )
    return s


def _fire_body(entry: dict[str, Any], censored: bool | str = False) -> str:
    a = entry["action"]
    actor = entry["actor"]
    s = f"{WEAPON_CODES[a['weapon']]}/{piece_text(actor, censored)}"
    if "direction" in a:
        dr, dc = a["direction"]
        return s + f"->({actor['row'] + dr},{actor['col'] + dc})"
    if "target" in a:
        return s + "=>" + piece_text(entry["target"])
    return s + "->" + _place_text(a["to"]) + _PATH_MARK[a.get("path", "beeline")]


def segment(entry: dict[str, Any], censored: bool | str = False) -> str:
    """The written part of one action (a Fire without its ``FIn:`` tag)."""
    a = entry["action"]
    kind = a["type"]
    actor = entry.get("actor")
    if kind == "move":
        return _move_text(entry, censored)
    if kind == "fire":
        return _fire_body(entry, censored)
    if kind == "pickup":
        return f"PU:{piece_text(actor, censored)}^{ARTICLE_CODES[a['article']]}"
    if kind == "drop":
        return f"DR:{piece_text(actor, censored)}v{ARTICLE_CODES[a['article']]}"
    if kind == "exchange":
        art = ARTICLE_CODES[a["article"]]
        mid = f"->{art}<=>{ARTICLE_CODES[a['swap']]}<-" if a.get("swap") else f"->{art}->"
        return f"EX:{piece_text(actor, censored)}{mid}{piece_text(entry['other'], censored)}"
    if kind == "reinforce":
        hand = {"left": "<", "right": ">"}.get((actor or {}).get("hand") or "", "")
        return f"RE:({a['to'][0]},{a['to'][1]}){PIECE_CODES[a['piece_type']]}{hand}"
    return ""


def result_items(entry: dict[str, Any], censored: bool | str = False) -> list[str]:
    """The results an action (or the end of the Turn) adds to ``RS``, in order."""
    out = []
    for ev in entry["events"]:
        if not shown(ev, censored):
            continue
        kind = ev["kind"]
        p = ev.get("piece")
        if kind == "taken":
            out.append(f"*{piece_text(p)}{_color_mark(p)}")
        elif kind == "destroyed":
            out.append(f"{KILL_CODES[ev['by']]}*{piece_text(p)}{_color_mark(p)}")
        elif kind == "stunned":
            out.append(f"ST*{piece_text(p)}{_color_mark(p)}")
        elif kind == "converted":
            out.append(f"CS*{piece_text(p)}{_color_mark(p)}")
        elif kind == "resisted":
            out.append(f"{RESIST_CODES[ev['attack']]}*{piece_text(p)}{_color_mark(p)}")
        elif kind == "landed":
            out.append(f"{PIECE_CODES[p['type']]}v({p['row']},{p['col']})")
        elif kind == "flew":
            sq = ev["slot"] // 3
            where = f"({sq // 10 + 1},{sq % 10 + 1})"
            code = PROJECTILE_CODES[ev["projectile"]]
            if ev.get("target") is not None:
                out.append(f"{code}=>{piece_text(ev['target'])}->{where}")
            else:
                dr, dc = ev["direction"]
                out.append(f"{code}->{where}({dr},{dc})")
    return out


#: The order the notation writes a Turn's actions in, as 12DPXMR letters.
WRITTEN_ORDER = "M12PXRD"
#: The order the 12DPXMR Action Restrictions make the only legal one (l. 1960-1969).
RESTRICTED_ORDER = "12DPXMR"
SEQUENCE_RE = re.compile(r",SQ:([12DPXMR]+)$")


def expected_order(restriction: str | None) -> str:
    """The order a reader takes a Turn's actions in when the text says none."""
    return RESTRICTED_ORDER if restriction in ("12dpxmr", "12dpxmr_one_piece") else WRITTEN_ORDER


def sequence(entries: list[dict[str, Any]]) -> str:
    """The 12DPXMR letters of a Turn's actions in the order they were taken."""
    out = []
    fires = 0
    for e in entries:
        kind = e["action"]["type"]
        if kind == "fire":
            fires += 1
            out.append(str(fires))
        elif kind != "end_turn":
            out.append(ORDER_CODE[kind])
    return "".join(out)


def turn_text(entries: list[dict[str, Any]], censored: bool | str = False, restriction: str | None = None) -> str:
    """The notation of one Turn from its log entries (in the order they happened).

    ``censored`` gives what the enemy of the acting side may read: actions and
    events it did not see are left out, and a Move it did not see is ``MV:?``.
    When the actions were taken in another order than the one a reader tries
    first (:func:`expected_order` of the game's ``restriction``), the full
    and own texts end with ``,SQ:`` and that order (docs/notation.md); the
    enemy's censored text never does.
    """
    move = next((e for e in entries if e["action"]["type"] == "move"), None)
    if move is None:
        parts = ["MV:-"]
    elif not shown(move, censored):
        parts = ["MV:?"]
    else:
        parts = [_move_text(move, censored)]
    fires = [e for e in entries if e["action"]["type"] == "fire" and shown(e, censored)]
    parts.extend(f"FI{n}:{_fire_body(e, censored)}" for n, e in enumerate(fires, 1))
    for kind in ("pickup", "exchange", "reinforce", "drop"):
        parts.extend(segment(e, censored) for e in entries if e["action"]["type"] == kind and shown(e, censored))
    results = [item for e in entries for item in result_items(e, censored)]
    if results:
        parts.append("RS:" + ",".join(results))
    if censored is not True:
        seq = sequence(entries)
        first = expected_order(restriction)
        if seq != "".join(sorted(seq, key=first.index)):
            parts.append("SQ:" + seq)
    return ",".join(parts)


def censors(game: Game, color: str | None) -> bool:
    """Whether ``color``'s record leaves out what that side did not see: the
    one test every censored text of the engine goes through.  A colour is
    given, the game runs, and it is competitive or its record is not open
    (the ``open_record`` term, docs/rulings.md "Open record")."""
    if color is None or game.result:
        return False
    return bool(game.options["competitive"] or not option_value(game.options, "open_record"))


def history(game: Game, color: str | None = None, start: int = 0) -> list[str]:
    """One notation string per finished Turn (and, once the game has ended,
    the Turn it ended in).

    For ``color`` in a running game that :func:`censors`, enemy activity that
    color did not see is edited out; once the game has ended everything is shown.
    ``start`` > 0 gives only the lines from the ``start``-th on (the same as
    slicing the whole list, reading only those Turns' records): line n is
    the record of Turn n + 1, so a caller that keeps the lines it has asks
    only for new ones.
    """
    censor = censors(game, color)
    log = game.log[start:] if start else game.log
    if not censor:
        out = [turn["text"] for turn in log]
    else:
        out = [turn["censored"] if turn["color"] != color else turn.get("own", turn["text"]) for turn in log]
    if game.result and game.turn_log and start <= len(game.log):
        out.append(turn_text(list(game.turn_log), restriction=game.options["action_restriction"]))
    return out
