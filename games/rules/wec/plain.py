"""A Turn told in plain English, for people who do not read the notation.

The same Turn the notation writes (GAME HISTORY, l. 1755-1800), censored the
same way for a running competitive game (l. 340-347), as one sentence with
the manual's names of Pieces, Articles and Actions (glossary, l. 536-640).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .constants import LEVEL_INDEX, TRANSPORTS
from .notation import censors, level_of, shown
from .state import Game

# --- plain English -----------------------------------------------------------------------

_NAMES = {"aaa": "AAA", "sam_torpedo_pawn": "SAM and Torpedo Pawn", "xxx_pawn": "XXX Pawn",
          "sam_launcher": "SAM Launcher", "anti_sam": "Anti-SAM", "xxx": "XXX box", "jet_rocket": "Rocket"}
_WEAPON_NAMES = {"flamer": "Flamer", "stunner": "Stunner", "conversion": "Conversion Symbol"}
_PROJECTILE_NAMES = {"rocket": "Rocket", "sam": "SAM", "torpedo": "Torpedo", "rocket_launcher": "Rocket",
                     "sam_launcher": "SAM", "torpedo_launcher": "Torpedo"}
_COMPASS = {(1, 0): "north", (-1, 0): "south", (0, 1): "east", (0, -1): "west", (1, 1): "north-east",
            (1, -1): "north-west", (-1, 1): "south-east", (-1, -1): "south-west"}
_KILLED_BY = {"flamer": "by a Flamer", "rocket": "by a Rocket", "sam": "by a SAM", "torpedo": "by a Torpedo",
              "stunner_kill": "by a Stunner kill", "conversion_kill": "by a Conversion kill",
              "crash": "in a crash"}


@cache
def _name(kind: str) -> str:
    if kind in _NAMES:
        return _NAMES[kind]
    if kind.startswith("anti_"):
        return "Anti-" + _name(kind[5:])
    return " ".join(w.capitalize() for w in kind.split("_"))


# For plain_parts, which reads these sentences back into their parts.
COMPASS, KILLED_BY = _COMPASS, _KILLED_BY
PROJECTILE_NAMES, WEAPON_NAMES = _PROJECTILE_NAMES, _WEAPON_NAMES


def english_name(kind: str) -> str:
    """The glossary name of a Piece or Article type as the record writes it."""
    return _name(kind)


def _where(row: int, col: int, level: int | str = 0) -> str:
    level = level if isinstance(level, int) else LEVEL_INDEX[level]
    return f"({row},{col})" + {0: "", 1: " in the air", 2: " under water"}[level]


def _who(p: dict[str, Any]) -> str:
    return f"{p['color'].capitalize()} {_name(p['type'])} {_where(p['row'], p['col'], level_of(p))}"


def _slot_where(slot: int) -> str:
    sq, level = divmod(slot, 3)
    return _where(sq // 10 + 1, sq % 10 + 1, level)


def _event_phrase(ev: dict[str, Any], attached: bool) -> str | None:
    """An event in words: as a participle after its action (``attached``), or
    on its own."""
    kind = ev["kind"]
    p = ev.get("piece")
    if kind == "taken":
        return f"taking {_who(p)}" if attached else f"{_who(p)} was taken"
    if kind == "destroyed":
        if attached and ev["by"] in ("flamer", "rocket", "sam", "torpedo"):
            return f"destroying {_who(p)}"
        return f"{_who(p)} {'' if attached else 'was '}destroyed {_KILLED_BY[ev['by']]}"
    if kind == "stunned":
        return f"stunning {_who(p)}" if attached else f"{_who(p)} was stunned"
    if kind == "converted":
        return f"converting {_who(p)}" if attached else f"{_who(p)} was converted"
    if kind == "resisted":
        return f"{_who(p)} resisting the {_PROJECTILE_NAMES.get(ev['attack']) or _WEAPON_NAMES[ev['attack']]}"
    if kind == "landed":
        verb = "coming" if attached else "came"
        return f"{p['color'].capitalize()} {_name(p['type'])} {verb} down to {_where(p['row'], p['col'])}"
    if kind == "crashed":
        return f"{_who(p)} crashed"
    if kind == "transported":
        return f"{p['color'].capitalize()} {_name(p['type'])} rode on to {_where(p['row'], p['col'], p['level'])}"
    if kind == "arrived":
        return f"{_who(p)} arrived"
    if kind == "stopped":
        return f"stopping at {_slot_where(ev['slot'])}"
    if kind == "bumped":
        return f"but a piece unseen at {_slot_where(ev['slot'])} blocked the dozing"
    if kind in ("projectile_hit", "rocket_hit") and not attached:
        return f"a {_PROJECTILE_NAMES.get(ev.get('projectile', 'rocket'))} hit {_slot_where(ev['slot'])}"
    if kind == "flew":
        name = _PROJECTILE_NAMES[ev["projectile"]]
        if ev.get("target") is not None:
            return f"a {name} homing on {_who(ev['target'])} flew to {_slot_where(ev['slot'])}"
        return f"a {name} flew {_COMPASS[tuple(ev['direction'])]} to {_slot_where(ev['slot'])}"
    if kind == "lock_lost":
        return f"a {_PROJECTILE_NAMES[ev['projectile']]} lost its target"
    if kind == "projectile_spent":
        return f"the {_PROJECTILE_NAMES[ev['projectile']]}, with no heading to fly on, was spent"
    if kind == "projectile_gone":
        return f"a {_PROJECTILE_NAMES[ev['projectile']]} left the board"
    return None


def _action_phrase(entry: dict[str, Any], censored: bool | str) -> str:
    a = entry["action"]
    kind = a["type"]
    actor = entry["actor"]
    events = [ev for ev in entry["events"] if shown(ev, censored)]
    if kind == "move":
        to = _where(a["to"][0], a["to"][1], a["to"][2])
        if "doze" in a:
            dozed = [_who(ev["piece"]) for ev in events if ev["kind"] == "dozed_piece"]
            s = f"dozed {_COMPASS[(a['to'][0] - actor['row'], a['to'][1] - actor['col'])]} to {to}"
            return s + (f", pushing {_join(dozed)}" if dozed else "")
        s = f"moved to {to}"
        carried = [ev["piece"] for ev in events if ev["kind"] == "carried"]
        if carried:
            s += f", carrying the {_name(carried[0]['type'])}"
        return s
    if kind == "fire":
        w = a["weapon"]
        if w in TRANSPORTS:
            path = a.get("path", "beeline")
            way = "" if path == "beeline" else f" by the {path} path"
            return f"set off by {_name(w)} for {_where(*a['to'])}{way}"
        if "target" in a:
            t = _who(entry["target"])
            if w == "jet_rocket":
                return f"fired its Rocket at {t}"
            return f"launched a homing {_PROJECTILE_NAMES[w]} at {t}"
        way = _COMPASS[tuple(a["direction"])]
        if w in _WEAPON_NAMES:
            return f"fired its {_WEAPON_NAMES[w]} {way}"
        return f"launched a {_PROJECTILE_NAMES[w]} {way}"
    if kind == "pickup":
        name = _name(a["article"])
        return f"picked up {'an' if name[0] in 'AEIOU' else 'a'} {name}"
    if kind == "drop":
        return f"dropped its {_name(a['article'])}"
    if kind == "exchange":
        other = _who(entry["other"])
        if a.get("swap"):
            return f"swapped its {_name(a['article'])} for the {_name(a['swap'])} of {other}"
        return f"gave its {_name(a['article'])} to {other}"
    if kind == "reinforce":
        return "arrived as a reinforcement"
    return ""


def _join(items: list[str]) -> str:
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


_PLAIN_ORDER = {"move": 0, "fire": 1, "pickup": 2, "exchange": 3, "reinforce": 4, "drop": 5, "end_turn": 6}


def plain_text(entries: list[dict[str, Any]], censored: bool | str = False, color: str | None = None) -> str:
    """One English sentence telling a Turn, its actions in the notation's
    order, e.g. "Black Tank (2,1) moved to (5,1); fired its Flamer north,
    destroying White Flamer Pawn (6,1)." ``censored`` leaves out what the
    enemy did not see, as :func:`turn_text` does. ``color`` is the acting side."""
    if color is None:
        color = next((e["actor"]["color"] for e in entries if e.get("actor")), None)
    side = color.capitalize() if color else "The side to move"
    clauses: list[str] = []
    last_actor = None
    # The notation's order (Move, Fires, Pick-up, Exchange, Reinforce, Drop),
    # so the sentence, like the notation, does not depend on the order taken.
    for entry in sorted(entries, key=lambda e: _PLAIN_ORDER[e["action"]["type"]]):
        kind = entry["action"]["type"]
        events = [ev for ev in entry["events"] if shown(ev, censored)]
        attached = kind != "end_turn" and shown(entry, censored)
        phrases = [s for s in (_event_phrase(ev, attached) for ev in events) if s]
        if kind == "end_turn":
            if phrases:
                clauses.append("at the end of the Turn " + ", ".join(phrases))
            continue
        if not attached:
            if kind == "move":
                clauses.append(f"{side} moved a piece out of sight")
                last_actor = None
            if phrases:
                clauses.append(", ".join(phrases))
            continue
        actor = entry["actor"]
        head = _action_phrase(entry, censored)
        if kind == "reinforce":
            subject = f"{actor['color'].capitalize()} {_name(actor['type'])} {_where(actor['row'], actor['col'])}"
            last_actor = actor.get("id")
        elif actor.get("id") is not None and actor.get("id") == last_actor:
            subject = ""
        else:
            subject = _who(actor)
            last_actor = actor.get("id")
        clauses.append(", ".join([f"{subject} {head}".strip()] + phrases))
    if not any(e["action"]["type"] == "move" for e in entries):
        clauses.insert(0, f"{side} made no Move")
    text = "; ".join(clauses)
    return text[0].upper() + text[1:] + "."


def plain_history(game: Game, color: str | None = None, start: int = 0) -> list[str]:
    """:func:`history` in plain English: one sentence per Turn, same censoring
    (and the same ``start``)."""
    censor = censors(game, color)
    out = []
    for turn in game.log[start:] if start else game.log:
        if censor and turn["color"] != color:
            out.append(turn.get("plain_censored", turn["censored"]))
        elif censor:
            out.append(turn.get("plain_own", turn.get("plain", turn["text"])))
        else:
            out.append(turn.get("plain", turn["text"]))
    if game.result and game.turn_log and start <= len(game.log):
        out.append(plain_text(list(game.turn_log), color=game.to_move))
    return out
