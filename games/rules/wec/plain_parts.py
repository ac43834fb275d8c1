"""The plain-English record line (:mod:`.plain`: the Turn of GAME HISTORY,
l. 1755-1800, with the glossary's names, l. 536-640) taken apart into its
parts, so that the site can tell the same Turn in another language.

The record keeps each finished Turn as its English sentence only (the state
stays small), so the parts are read back from that sentence: the sentence is
made by a small fixed grammar, and :func:`plain_parts` is its inverse.
:func:`plain_from_parts` writes the parts back in English; for every line the
engine writes, ``plain_from_parts(plain_parts(line)) == line`` (tested), so
nothing is lost or invented. A line it does not recognise gives ``None`` and
the site shows the English line as it is.

A part is a dict: ``{"k": kind, ...}``; pieces are ``{"color", "type", "row",
"col", "level"}`` (level a name: ground, air, sub).
"""

from __future__ import annotations

import re
from typing import Any

from .constants import ARTICLE_TYPES, PIECE_TYPES
from .plain import COMPASS as _COMPASS
from .plain import KILLED_BY as _KILLED_BY
from .plain import PROJECTILE_NAMES as _PROJECTILE_NAMES
from .plain import WEAPON_NAMES as _WEAPON_NAMES
from .plain import english_name as _name

Part = dict[str, Any]

_PIECE_BY_NAME = {_name(t): t for t in PIECE_TYPES}
_ARTICLE_BY_NAME = {_name(t): t for t in ARTICLE_TYPES}
_PROJECTILE_BY_NAME = {"Rocket": "rocket", "SAM": "sam", "Torpedo": "torpedo"}
_WEAPON_BY_NAME = {v: k for k, v in _WEAPON_NAMES.items()}
_BY_KILLED = {v: k for k, v in _KILLED_BY.items()}
_COMPASS_WORDS = set(_COMPASS.values())
_LEVEL_WORDS = {"": "ground", " in the air": "air", " under water": "sub"}
_LEVEL_SUFFIX = {v: k for k, v in _LEVEL_WORDS.items()}


def _alt(words) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


_PIECE = _alt(_PIECE_BY_NAME)
_ARTICLE = _alt(_ARTICLE_BY_NAME)
_PROJ = _alt(_PROJECTILE_BY_NAME)
_DIR = _alt(_COMPASS_WORDS)
_WHERE = r"\((?P<{p}r>\d+),(?P<{p}c>\d+)\)(?P<{p}l> in the air| under water|)"
_GROUND_WHERE = r"\((?P<{p}r>\d+),(?P<{p}c>\d+)\)"
_WHO = r"(?P<{p}color>Black|White) (?P<{p}type>" + _PIECE + r") " + _WHERE
_BARE = r"(?P<{p}color>Black|White) (?P<{p}type>" + _PIECE + r")"


def _who(p: str = "") -> str:
    return _WHO.replace("{p}", p)


def _where(p: str = "w") -> str:
    return _WHERE.replace("{p}", p)


# Event phrases, as :func:`.plain._event_phrase` writes them (attached or not).
_EVENTS: list[tuple[str, str]] = [
    ("taking", "taking " + _who()),
    ("was_taken", _who() + " was taken"),
    ("destroying", "destroying " + _who()),
    ("destroyed_by", _who() + " (?P<was>was )?destroyed (?P<by>" + _alt(_BY_KILLED) + ")"),
    ("stunning", "stunning " + _who()),
    ("was_stunned", _who() + " was stunned"),
    ("converting", "converting " + _who()),
    ("was_converted", _who() + " was converted"),
    ("resisting", _who() + " resisting the (?P<attack>" + _alt(set(_PROJECTILE_BY_NAME) | set(_WEAPON_BY_NAME)) + ")"),
    ("landed", _BARE.replace("{p}", "") + " (?P<verb>coming|came) down to " + _GROUND_WHERE.replace("{p}", "w")),
    ("crashed", _who() + " crashed"),
    ("rode_on", _BARE.replace("{p}", "") + " rode on to " + _where()),
    ("arrived", _who() + " arrived"),
    ("stopping", "stopping at " + _where()),
    ("bumped", "but a piece unseen at " + _where() + " blocked the dozing"),
    ("hit", "a (?P<proj>" + _PROJ + ") hit " + _where()),
    ("homing_flew", "a (?P<proj>" + _PROJ + ") homing on " + _who("t") + " flew to " + _where()),
    ("flew", "a (?P<proj>" + _PROJ + ") flew (?P<dir>" + _DIR + ") to " + _where()),
    ("lock_lost", "a (?P<proj>" + _PROJ + ") lost its target"),
    ("spent", "the (?P<proj>" + _PROJ + "), with no heading to fly on, was spent"),
    ("gone", "a (?P<proj>" + _PROJ + ") left the board"),
]

_ALL_NAMES = _alt(set(_ARTICLE_BY_NAME) | set(_PIECE_BY_NAME))

# Action heads, as :func:`.plain._action_phrase` writes them (without the subject).
_HEADS: list[tuple[str, str]] = [
    ("moved", "moved to " + _where() + "(?:, carrying the (?P<carried>" + _PIECE + "))?"),
    ("dozed", "dozed (?P<dir>" + _DIR + ") to " + _where() + "(?:, pushing (?P<pushed>.+?))?"),
    ("set_off", "set off by (?P<article>" + _ARTICLE + ") for " + _where() + "(?: by the (?P<path>port|starboard) path)?"),
    ("fired_rocket_at", "fired its Rocket at " + _who("t")),
    ("homing", "launched a homing (?P<proj>" + _alt(_PROJECTILE_NAMES.values()) + ") at " + _who("t")),
    ("fired", "fired its (?P<weapon>" + _alt(_WEAPON_BY_NAME) + ") (?P<dir>" + _DIR + ")"),
    ("launched", "launched a (?P<proj>" + _PROJ + ") (?P<dir>" + _DIR + ")"),
    ("picked_up", "picked up an? (?P<article>" + _ALL_NAMES + ")"),
    ("dropped", "dropped its (?P<article>" + _ALL_NAMES + ")"),
    ("swapped", "swapped its (?P<article>" + _ALL_NAMES + ") for the (?P<swap>" + _ALL_NAMES + ") of " + _who("t")),
    ("gave", "gave its (?P<article>" + _ALL_NAMES + ") to " + _who("t")),
    ("reinforced", "arrived as a reinforcement"),
]

_SIDE = r"(?P<side>Black|White|The side to move)"
_EVENT_RE = [(k, re.compile(rx)) for k, rx in _EVENTS]
_HEAD_RE = [(k, re.compile(rx)) for k, rx in _HEADS]
_SUBJECT_RE = re.compile(_who("s") + " ")
_REINFORCED_RE = re.compile(_BARE.replace("{p}", "s") + " " + _GROUND_WHERE.replace("{p}", "s") + " arrived as a reinforcement")
_WHO_RE = re.compile(_who())


def _piece(m: re.Match, p: str = "") -> dict[str, Any]:
    g = m.groupdict()
    level = g.get(p + "l")
    return {"color": g[p + "color"].lower(), "type": _PIECE_BY_NAME[g[p + "type"]],
            "row": int(g[p + "r"]), "col": int(g[p + "c"]), "level": _LEVEL_WORDS[level or ""]}


def _place(m: re.Match, p: str = "w") -> dict[str, Any]:
    g = m.groupdict()
    return {"row": int(g[p + "r"]), "col": int(g[p + "c"]), "level": _LEVEL_WORDS[g.get(p + "l") or ""]}


def _thing(name: str) -> str:
    return _ARTICLE_BY_NAME.get(name) or _PIECE_BY_NAME[name]


def _event(kind: str, m: re.Match) -> Part:
    g = m.groupdict()
    part: Part = {"k": kind}
    if g.get("type"):
        if kind in ("landed", "rode_on"):
            part["piece"] = {"color": g["color"].lower(), "type": _PIECE_BY_NAME[g["type"]]}
        else:
            part["piece"] = _piece(m)
    if g.get("wr"):
        part["at"] = _place(m)
    if g.get("tcolor"):
        part["target"] = _piece(m, "t")
    if g.get("proj"):
        part["proj"] = _PROJECTILE_BY_NAME[g["proj"]]
    if g.get("dir"):
        part["dir"] = g["dir"]
    if kind == "destroyed_by":
        part["by"] = _BY_KILLED[g["by"]]
        part["was"] = bool(g.get("was"))
    if kind == "landed":
        part["attached"] = g["verb"] == "coming"
    if kind == "resisting":
        part["attack"] = g["attack"]
    return part


def _events(text: str) -> list[Part] | None:
    """``text`` as event phrases joined by ", " (None when it is not)."""
    out: list[Part] = []
    pos = 0
    while True:
        for kind, rx in _EVENT_RE:
            m = rx.match(text, pos)
            if m and (m.end() == len(text) or text.startswith(", ", m.end())):
                out.append(_event(kind, m))
                pos = m.end()
                break
        else:
            return None
        if pos == len(text):
            return out
        pos += 2


def _pushed(text: str) -> list[dict[str, Any]] | None:
    items = re.split(r", | and (?=Black |White )", text)
    pieces = []
    for item in items:
        m = _WHO_RE.fullmatch(item)
        if not m:
            return None
        pieces.append(_piece(m))
    return pieces


def _head(text: str) -> tuple[Part, str] | None:
    """The action head at the start of ``text`` and what follows it."""
    for kind, rx in _HEAD_RE:
        m = rx.match(text)
        if not m:
            continue
        rest = text[m.end():]
        if kind == "dozed" and m.group("pushed"):
            # The pushed list runs up to the first event phrase (or the end).
            whole = text[m.start("pushed"):]
            for cut in [len(whole)] + [i for i in range(len(whole)) if whole.startswith(", ", i)]:
                pushed = _pushed(whole[:cut])
                tail = whole[cut:]
                if pushed is not None and (not tail or _events(tail[2:]) is not None):
                    m_part = _head_part(kind, m)
                    m_part["pushed"] = pushed
                    return m_part, tail
            continue
        if rest and not rest.startswith(", "):
            continue
        return _head_part(kind, m), rest
    return None


def _head_part(kind: str, m: re.Match) -> Part:
    g = m.groupdict()
    part: Part = {"k": kind}
    if g.get("wr"):
        part["to"] = _place(m)
    if g.get("tcolor"):
        part["target"] = _piece(m, "t")
    for key in ("dir", "path"):
        if g.get(key):
            part[key] = g[key]
    if g.get("proj"):
        part["proj"] = _PROJECTILE_BY_NAME.get(g["proj"], g["proj"].lower())
    if g.get("weapon"):
        part["weapon"] = _WEAPON_BY_NAME[g["weapon"]]
    if g.get("carried"):
        part["carried"] = _PIECE_BY_NAME[g["carried"]]
    for key in ("article", "swap"):
        if g.get(key):
            part[key] = _thing(g[key])
    return part


def _clause(text: str) -> Part | None:
    m = re.fullmatch(_SIDE + " made no Move", text)
    if m:
        return {"k": "no_move", "side": m.group("side"), "parts": []}
    m = re.fullmatch(_SIDE + " moved a piece out of sight", text)
    if m:
        return {"k": "unseen_move", "side": m.group("side"), "parts": []}
    if text.startswith("at the end of the Turn "):
        events = _events(text[len("at the end of the Turn "):])
        return None if events is None else {"k": "end_of_turn", "parts": events}
    m = _REINFORCED_RE.match(text)
    if m:
        rest = text[m.end():]
        events = _events(rest[2:]) if rest else []
        if events is None or (rest and not rest.startswith(", ")):
            return None
        subject = {"color": m.group("scolor").lower(), "type": _PIECE_BY_NAME[m.group("stype")],
                   "row": int(m.group("sr")), "col": int(m.group("sc")), "level": "ground"}
        return {"k": "action", "subject": subject, "head": {"k": "reinforced"}, "parts": events}
    subject = None
    m = _SUBJECT_RE.match(text)
    body = text
    if m:
        subject, body = _piece(m, "s"), text[m.end():]
    head = _head(body)
    if head is not None:
        part, rest = head
        events = _events(rest[2:]) if rest else []
        if events is not None:
            return {"k": "action", "subject": subject, "head": part, "parts": events}
    events = _events(text)
    return None if events is None else {"k": "events", "parts": events}


def plain_parts(line: str) -> list[Part] | None:
    """The clauses of a plain-English record line, or None when the line is
    not one the engine writes."""
    if not line.endswith(".") or len(line) < 2:
        return None
    body = line[:-1]
    clauses = []
    for i, text in enumerate(body.split("; ")):
        clause = _clause(text)
        if clause is None and i == 0:
            # The sentence's first letter is capitalised ("A SAM hit ...").
            clause = _clause(text[0].lower() + text[1:])
        if clause is None:
            return None
        clauses.append(clause)
    return clauses


# --- back to English (the check that the parts hold the whole line) ----------------------


def _en_where(p: dict[str, Any]) -> str:
    return f"({p['row']},{p['col']})" + _LEVEL_SUFFIX[p.get("level", "ground")]


def _en_who(p: dict[str, Any]) -> str:
    return f"{p['color'].capitalize()} {_name(p['type'])} {_en_where(p)}"


def _en_bare(p: dict[str, Any]) -> str:
    return f"{p['color'].capitalize()} {_name(p['type'])}"


def _en_proj(kind: str) -> str:
    return _PROJECTILE_NAMES[kind]


def _en_event(e: Part) -> str:
    k = e["k"]
    simple = {
        "taking": "taking {p}", "was_taken": "{p} was taken", "destroying": "destroying {p}",
        "stunning": "stunning {p}", "was_stunned": "{p} was stunned", "converting": "converting {p}",
        "was_converted": "{p} was converted", "crashed": "{p} crashed", "arrived": "{p} arrived",
    }
    if k in simple:
        return simple[k].format(p=_en_who(e["piece"]))
    if k == "destroyed_by":
        return f"{_en_who(e['piece'])} {'was ' if e['was'] else ''}destroyed {_KILLED_BY[e['by']]}"
    if k == "resisting":
        return f"{_en_who(e['piece'])} resisting the {e['attack']}"
    if k == "landed":
        return f"{_en_bare(e['piece'])} {'coming' if e['attached'] else 'came'} down to {_en_where(e['at'])}"
    if k == "rode_on":
        return f"{_en_bare(e['piece'])} rode on to {_en_where(e['at'])}"
    if k == "stopping":
        return f"stopping at {_en_where(e['at'])}"
    if k == "bumped":
        return f"but a piece unseen at {_en_where(e['at'])} blocked the dozing"
    if k == "hit":
        return f"a {_en_proj(e['proj'])} hit {_en_where(e['at'])}"
    if k == "homing_flew":
        return f"a {_en_proj(e['proj'])} homing on {_en_who(e['target'])} flew to {_en_where(e['at'])}"
    if k == "flew":
        return f"a {_en_proj(e['proj'])} flew {e['dir']} to {_en_where(e['at'])}"
    if k == "lock_lost":
        return f"a {_en_proj(e['proj'])} lost its target"
    if k == "spent":
        return f"the {_en_proj(e['proj'])}, with no heading to fly on, was spent"
    if k == "gone":
        return f"a {_en_proj(e['proj'])} left the board"
    raise ValueError(k)


def _en_list(items: list[str]) -> str:
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _en_head(h: Part) -> str:
    k = h["k"]
    if k == "moved":
        return f"moved to {_en_where(h['to'])}" + (f", carrying the {_name(h['carried'])}" if h.get("carried") else "")
    if k == "dozed":
        pushed = h.get("pushed")
        return f"dozed {h['dir']} to {_en_where(h['to'])}" + (f", pushing {_en_list([_en_who(p) for p in pushed])}" if pushed else "")
    if k == "set_off":
        return f"set off by {_name(h['article'])} for {_en_where(h['to'])}" + (f" by the {h['path']} path" if h.get("path") else "")
    if k == "fired_rocket_at":
        return f"fired its Rocket at {_en_who(h['target'])}"
    if k == "homing":
        return f"launched a homing {_PROJECTILE_NAMES[h['proj']]} at {_en_who(h['target'])}"
    if k == "fired":
        return f"fired its {_WEAPON_NAMES[h['weapon']]} {h['dir']}"
    if k == "launched":
        return f"launched a {_en_proj(h['proj'])} {h['dir']}"
    if k == "picked_up":
        name = _name(h["article"])
        return f"picked up {'an' if name[0] in 'AEIOU' else 'a'} {name}"
    if k == "dropped":
        return f"dropped its {_name(h['article'])}"
    if k == "swapped":
        return f"swapped its {_name(h['article'])} for the {_name(h['swap'])} of {_en_who(h['target'])}"
    if k == "gave":
        return f"gave its {_name(h['article'])} to {_en_who(h['target'])}"
    if k == "reinforced":
        return "arrived as a reinforcement"
    raise ValueError(k)


def _en_clause(c: Part) -> str:
    k = c["k"]
    events = [_en_event(e) for e in c["parts"]]
    if k == "no_move":
        return f"{c['side']} made no Move"
    if k == "unseen_move":
        return f"{c['side']} moved a piece out of sight"
    if k == "end_of_turn":
        return "at the end of the Turn " + ", ".join(events)
    if k == "events":
        return ", ".join(events)
    subject = c.get("subject")
    head = _en_head(c["head"])
    if c["head"]["k"] == "reinforced":
        s = subject
        text = f"{_en_bare(s)} ({s['row']},{s['col']}) {head}"
    else:
        text = f"{_en_who(subject)} {head}" if subject else head
    return ", ".join([text] + events)


def plain_from_parts(clauses: list[Part]) -> str:
    """The English line again, as :func:`.plain.plain_text` wrote it."""
    text = "; ".join(_en_clause(c) for c in clauses)
    return text[0].upper() + text[1:] + "."
