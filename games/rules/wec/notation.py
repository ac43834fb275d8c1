"""The Wec game notation (the manual's GAME HISTORY section) and its reader.

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
unclear in docs/rulings.md ("Notation").

:func:`turn_text` writes a Turn from its log entries, :func:`parse_turn` reads
one back into actions, :func:`replay` rebuilds a game from its history, and
:func:`plain_text` says the same in English for people who do not read the
notation.
"""

from __future__ import annotations

import re
from itertools import product
from typing import Any

from .constants import ARTICLE_CODES, LEVEL_INDEX, PIECE_CODES
from .state import Game

_LEVEL_MARK = {0: "", 1: "^", 2: "v"}

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

# Reading: codes back to names, with the manual's other spellings accepted.
_TYPES = {code: kind for kind, code in PIECE_CODES.items()} | {"SP": "stunner_pawn"}
_ARTICLES = {code: kind for kind, code in ARTICLE_CODES.items()} | {"JU": "jump_pack"}
_FIRE_CODES = {"FL": "flamer", "ST": "stunner", "CS": "conversion", "RL": "rocket_launcher", "SL": "sam_launcher",
               "TL": "torpedo_launcher", "BI": "bike", "JP": "jump_pack", "JU": "jump_pack", "SC": "scuba"}
_KILLS = {code: by for by, code in KILL_CODES.items()}
_RESISTS = {code: attack for attack, code in RESIST_CODES.items()}
_PROJECTILES = {code: kind for kind, code in PROJECTILE_CODES.items()}
#: The manual's order of a Turn's parts.
_SECTIONS = ("FI1", "FI2", "PU", "EX", "RE", "DR", "RS")
_TRANSPORTS = ("bike", "jump_pack", "scuba")


# --- writing -------------------------------------------------------------------------

def _level(d: dict[str, Any]) -> int:
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
    hand = {"left": "<", "right": ">"}.get(d.get("hand") or "", "")
    mark = d.get("mark_public" if censored is True else "mark")
    tail = f"#{mark}" if mark else ""
    return f"{PIECE_CODES[d['type']]}{_LEVEL_MARK[_level(d)]}({d['row']},{d['col']}){art}{hand}{tail}"


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


def _shown(item: dict[str, Any], censored: bool | str) -> bool:
    """Whether a log entry or event is told: ``censored`` False (everything),
    True (to the enemy of the acting side) or ``"own"`` (to the acting side)."""
    if not censored:
        return True
    return item.get("own", True) if censored == "own" else item.get("public", True)


def _move_text(entry: dict[str, Any], censored: bool | str = False) -> str:
    a = entry["action"]
    s = f"MV:{piece_text(entry['actor'], censored)}->{_place_text(a['to'])}"
    events = [ev for ev in entry["events"] if _shown(ev, censored)]
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


def _segment(entry: dict[str, Any], censored: bool | str = False) -> str:
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


def _result_items(entry: dict[str, Any], censored: bool | str = False) -> list[str]:
    """The results an action (or the end of the Turn) adds to ``RS``, in order."""
    out = []
    for ev in entry["events"]:
        if not _shown(ev, censored):
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
_SEQUENCE_RE = re.compile(r",SQ:([12DPXMR]+)$")


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
            out.append(_ORDER_CODE[kind])
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
    elif not _shown(move, censored):
        parts = ["MV:?"]
    else:
        parts = [_move_text(move, censored)]
    fires = [e for e in entries if e["action"]["type"] == "fire" and _shown(e, censored)]
    parts.extend(f"FI{n}:{_fire_body(e, censored)}" for n, e in enumerate(fires, 1))
    for kind in ("pickup", "exchange", "reinforce", "drop"):
        parts.extend(_segment(e, censored) for e in entries if e["action"]["type"] == kind and _shown(e, censored))
    results = [item for e in entries for item in _result_items(e, censored)]
    if results:
        parts.append("RS:" + ",".join(results))
    if censored is not True:
        seq = sequence(entries)
        first = expected_order(restriction)
        if seq != "".join(sorted(seq, key=first.index)):
            parts.append("SQ:" + seq)
    return ",".join(parts)


def _censor(game: Game, color: str | None) -> bool:
    return color is not None and game.options["competitive"] and not game.result


def history(game: Game, color: str | None = None) -> list[str]:
    """One notation string per finished Turn (and, once the game has ended,
    the Turn it ended in).

    For ``color`` in a running competitive game, enemy activity that color did
    not see is edited out; once the game has ended everything is shown.
    """
    censor = _censor(game, color)
    if not censor:
        out = [turn["text"] for turn in game.log]
    else:
        out = [turn["censored"] if turn["color"] != color else turn.get("own", turn["text"]) for turn in game.log]
    if game.result and game.turn_log:
        out.append(turn_text(list(game.turn_log), restriction=game.options["action_restriction"]))
    return out


def plain_history(game: Game, color: str | None = None) -> list[str]:
    """:func:`history` in plain English: one sentence per Turn, same censoring."""
    censor = _censor(game, color)
    out = []
    for turn in game.log:
        if censor and turn["color"] != color:
            out.append(turn.get("plain_censored", turn["censored"]))
        elif censor:
            out.append(turn.get("plain_own", turn.get("plain", turn["text"])))
        else:
            out.append(turn.get("plain", turn["text"]))
    if game.result and game.turn_log:
        out.append(plain_text(list(game.turn_log), color=game.to_move))
    return out


# --- reading -------------------------------------------------------------------------

def _by_length(codes: dict[str, str]) -> list[str]:
    return sorted(codes, key=len, reverse=True)


_TYPE_ORDER = _by_length(_TYPES)
_ARTICLE_ORDER = _by_length(_ARTICLES)
_SECTION_RE = re.compile(r",([A-Z]+[12]?):")
_DOZED_RE = re.compile(r"[A-Z]+\(")
_NUMBER_RE = re.compile(r"\d+")


class _Cursor:
    """Reads a notation string left to right; errors say where and what."""

    def __init__(self, text: str) -> None:
        self.s = text
        self.i = 0

    def fail(self, what: str) -> ValueError:
        got = self.s[self.i:self.i + 12] or "the end"
        return ValueError(f"malformed Wec notation {self.s!r}: expected {what} at character {self.i + 1}, "
                          f"found {got!r}")

    def at(self, token: str) -> bool:
        return self.s.startswith(token, self.i)

    def eat(self, token: str) -> bool:
        if self.s.startswith(token, self.i):
            self.i += len(token)
            return True
        return False

    def expect(self, token: str, what: str | None = None) -> None:
        if not self.eat(token):
            raise self.fail(what or repr(token))

    def done(self) -> bool:
        return self.i >= len(self.s)

    def code(self, table: dict[str, str], order: list[str], what: str) -> str:
        for code in order:
            if self.s.startswith(code, self.i):
                self.i += len(code)
                return table[code]
        raise self.fail(what)

    def piece_type(self) -> str:
        return self.code(_TYPES, _TYPE_ORDER, "a piece type (DO, TA, CH, ...)")

    def article(self) -> str:
        return self.code(_ARTICLES, _ARTICLE_ORDER, "an Article (FL, ST, BI, ...)")

    def number(self, what: str) -> int:
        m = _NUMBER_RE.match(self.s, self.i)
        if not m:
            raise self.fail(what)
        self.i = m.end()
        return int(m.group())

    def level(self) -> str:
        if self.eat("^"):
            return "air"
        if self.eat("v"):
            return "sub"
        return "ground"

    def location(self) -> tuple[int, int]:
        self.expect("(", "a Location '(row,col)'")
        start = self.i
        row = self.number("a row")
        self.expect(",")
        col = self.number("a column")
        self.expect(")")
        if not (1 <= row <= 10 and 1 <= col <= 10):
            self.i = start
            raise self.fail("a Location on the board (rows and columns 1 to 10)")
        return row, col

    def offset(self) -> list[int]:
        self.expect("(", "an Offset '(row step,col step)'")
        out = []
        for n in range(2):
            if n:
                self.expect(",")
            neg = self.eat("-")
            if not (self.at("0") or self.at("1")):
                raise self.fail("an Offset of 0, 1 or -1")
            v = int(self.s[self.i])
            self.i += 1
            out.append(-v if neg else v)
        self.expect(")")
        return out

    def articles(self) -> list[str]:
        if self.i < len(self.s) and self.s[self.i] in "123":
            start = self.i
            n = int(self.s[self.i])
            self.i += 1
            try:
                return [self.article() for _ in range(n)]
            except ValueError:
                # Not Articles after all: a stun count in a result.
                self.i = start
        return []

    def hand(self) -> str | None:
        if self.eat("<"):
            return "left"
        if self.eat(">"):
            return "right"
        return None

    def piece(self) -> dict[str, Any]:
        kind = self.piece_type()
        level = self.level()
        row, col = self.location()
        arts = self.articles()
        d: dict[str, Any] = {"type": kind, "row": row, "col": col, "level": level, "articles": arts,
                             "hand": self.hand()}
        if self.eat("#"):
            if not (self.at("1") or self.at("2")):
                raise self.fail("'#1' or '#2' (which of two alike Pieces on one place)")
            d["mark"] = int(self.s[self.i])
            self.i += 1
        return d

    def result_piece(self) -> dict[str, Any]:
        """A piece with an optional stun count and its colour (B or W)."""
        p = self.piece()
        m = _NUMBER_RE.match(self.s, self.i)
        if m:
            self.i = m.end()
            p["stun"] = int(m.group())
        if self.eat("B"):
            p["color"] = "black"
        elif self.eat("W"):
            p["color"] = "white"
        else:
            raise self.fail("a colour, B or W")
        return p


def _place(p: dict[str, Any]) -> list[Any]:
    return [p["row"], p["col"], p["level"]]


def _read_move(c: _Cursor) -> dict[str, Any] | None:
    c.expect("MV:", "'MV:' (every Turn starts with its Move)")
    if c.eat("?"):
        return {"type": "move", "hidden": True}
    if c.eat("-"):
        return None
    actor = c.piece()
    c.expect("->", "'->' and the Move's destination")
    level = c.level()
    row, col = c.location()
    a: dict[str, Any] = {"type": "move", "from": _place(actor), "to": [row, col, level], "actor": actor}
    if c.eat("-TRA->"):
        a["carry"] = True
        a["carried"] = c.piece_type()
    elif c.eat(",DO>"):
        toward = c.location()
        if list(toward) != [row, col]:
            raise c.fail(f"the dozing to head for the Dozer's destination ({row},{col})")
        dozed = []
        while _DOZED_RE.match(c.s, c.i + (1 if dozed else 0)) and (not dozed or c.at(",")):
            if dozed:
                c.eat(",")
            kind = c.piece_type()
            r, col_ = c.location()
            dozed.append({"type": kind, "row": r, "col": col_, "level": "ground"})
        if actor["type"] != "dozer":
            raise ValueError(f"malformed Wec notation {c.s!r}: only a Dozer dozes")
        a["doze"] = sorted({(p["row"], p["col"]) for p in dozed} - {(actor["row"], actor["col"])})
        a["doze"] = [list(s) for s in a["doze"]]
        a["dozed"] = dozed
    return a


def _read_fire(c: _Cursor) -> dict[str, Any]:
    code_at = c.i
    code = None
    for k in sorted(_FIRE_CODES, key=len, reverse=True):
        if c.at(k):
            code = k
            break
    if code is None:
        raise c.fail("a firing Article (FL, ST, CS, RL, TL, SL, BI, SC, JP)")
    c.i += len(code)
    weapon = _FIRE_CODES[code]
    c.expect("/", "'/' and the firing piece")
    actor = c.piece()
    a: dict[str, Any] = {"type": "fire", "from": _place(actor), "weapon": weapon, "actor": actor}
    if c.eat("=>"):
        if weapon not in ("rocket_launcher", "sam_launcher", "torpedo_launcher"):
            c.i = code_at
            raise c.fail("a weapon that can be aimed at a piece (RL, SL, TL) before '=>'")
        target = c.piece()
        if weapon == "rocket_launcher":
            a["weapon"] = "jet_rocket"
        a["target"] = _place(target)
        a["target_piece"] = target
        return a
    c.expect("->", "'->' (a direction or destination) or '=>' (a target)")
    if weapon in _TRANSPORTS:
        level = c.level()
        row, col = c.location()
        hand = c.hand()
        a["to"] = [row, col, level]
        a["path"] = {None: "beeline", "left": "port", "right": "starboard"}[hand]
        return a
    start = c.i
    row, col = c.location()
    d = [row - actor["row"], col - actor["col"]]
    if not all(-1 <= v <= 1 for v in d) or d == [0, 0]:
        c.i = start
        raise c.fail(f"a Square next to the firing piece at ({actor['row']},{actor['col']}) giving the direction")
    a["direction"] = d
    return a


def _read_results(c: _Cursor) -> list[dict[str, Any]]:
    out = []
    while True:
        start = c.i
        m = re.compile(r"[A-Z]*").match(c.s, c.i)
        code = m.group() if m else ""
        c.i += len(code)
        if c.eat("*"):
            if code == "":
                r = {"result": "taken"}
            elif code in _KILLS:
                r = {"result": "destroyed", "by": _KILLS[code]}
            elif code == "ST":
                r = {"result": "stunned"}
            elif code == "CS":
                r = {"result": "converted"}
            elif code in _RESISTS:
                r = {"result": "resisted", "attack": _RESISTS[code]}
            else:
                c.i = start
                raise c.fail("a result type before '*' (nothing, FK RK SK TK STK CK CRK, ST, CS or an Anti)")
            r["piece"] = c.result_piece()
        elif code in _TYPES and c.at("v("):
            c.eat("v")
            row, col = c.location()
            r = {"result": "landed", "type": _TYPES[code], "row": row, "col": col}
        elif code in _PROJECTILES and c.eat("->"):
            row, col = c.location()
            r = {"result": "projectile", "projectile": _PROJECTILES[code], "row": row, "col": col,
                 "direction": c.offset()}
        elif code in _PROJECTILES and c.eat("=>"):
            target = c.piece()
            m2 = _NUMBER_RE.match(c.s, c.i)
            if m2:
                c.i = m2.end()
                target["stun"] = int(m2.group())
            c.expect("->", "'->' and the homing projectile's Location")
            row, col = c.location()
            r = {"result": "projectile", "projectile": _PROJECTILES[code], "row": row, "col": col, "target": target}
        else:
            c.i = start
            raise c.fail("a result ('*piece', 'RK*piece', 'R->(r,c)(dr,dc)', 'S=>piece->(r,c)', 'TAv(r,c)', ...)")
        r["text"] = c.s[start:c.i]
        out.append(r)
        if not c.eat(","):
            return out


def _parse(text: str) -> tuple[list[tuple[dict[str, Any], str]], list[dict[str, Any]], str | None]:
    """The Turn's actions with the text each was read from, its results, and
    the order its actions were taken in when the text says it (``,SQ:``)."""
    if not isinstance(text, str):
        raise ValueError(f"a Turn's notation must be a string, not {type(text).__name__}")
    order = None
    m = _SEQUENCE_RE.search(text)
    if m:
        order = m.group(1)
        text = text[:m.start()]
    actions, results = _parse_body(text)
    if order is not None:
        codes = sorted(_codes(actions))
        if sorted(order) != codes:
            raise ValueError(f"malformed Wec notation {text!r}: the order SQ:{order} does not list the Turn's "
                             f"actions ({''.join(sorted(codes, key=WRITTEN_ORDER.index)) or 'none'}) once each")
    return actions, results, order


def _codes(actions: list[tuple[dict[str, Any], str]]) -> list[str]:
    """The 12DPXMR letters of parsed actions, in the order given."""
    codes = []
    fires = 0
    for a, _ in actions:
        if a["type"] == "fire":
            fires += 1
            codes.append(str(fires))
        else:
            codes.append(_ORDER_CODE.get(a["type"], "M"))
    return codes


def _parse_body(text: str) -> tuple[list[tuple[dict[str, Any], str]], list[dict[str, Any]]]:
    c = _Cursor(text)
    move = _read_move(c)
    actions: list[tuple[dict[str, Any], str]] = []
    if move is not None:
        actions.append((move, text[:c.i]))
    results: list[dict[str, Any]] = []
    seen = -1
    while not c.done():
        m = _SECTION_RE.match(text, c.i)
        if not m or m.group(1) not in _SECTIONS:
            raise c.fail("',' and one of FI1: FI2: PU: EX: RE: DR: RS:")
        tag = m.group(1)
        order = _SECTIONS.index(tag)
        if order <= seen:
            raise c.fail(f"the parts in the order {' '.join(_SECTIONS)}, each at most once ({tag} is out of place)")
        if tag == "FI2" and seen < 0:
            raise c.fail("FI1 before FI2")
        seen = order
        c.i = m.end()
        start = c.i if tag.startswith("FI") else m.start() + 1
        if tag.startswith("FI"):
            a = _read_fire(c)
        elif tag == "PU":
            actor = c.piece()
            c.expect("^", "'^' and the Article picked up")
            a = {"type": "pickup", "from": _place(actor), "article": c.article(), "actor": actor}
        elif tag == "DR":
            actor = c.piece()
            c.expect("v", "'v' and the Article dropped")
            a = {"type": "drop", "from": _place(actor), "article": c.article(), "actor": actor}
        elif tag == "EX":
            actor = c.piece()
            c.expect("->", "'->' and the Article given")
            a = {"type": "exchange", "from": _place(actor), "article": c.article(), "actor": actor}
            if c.eat("<=>"):
                a["swap"] = c.article()
                c.expect("<-", "'<-' and the piece swapped with")
            else:
                c.expect("->", "'->' (a transfer) or '<=>' (a swap)")
            other = c.piece()
            a["to"] = _place(other)
            a["other"] = other
        elif tag == "RE":
            row, col = c.location()
            kind = c.piece_type()
            a = {"type": "reinforce", "to": [row, col], "piece_type": kind}
            hand = c.hand()
            if hand:
                a["hand"] = hand
        else:
            results = _read_results(c)
            if not c.done():
                raise c.fail("the end of the Turn after its results")
            break
        actions.append((a, text[start:c.i]))
    return actions, results


def parse_turn(text: str) -> list[dict[str, Any]]:
    """The actions of one Turn's notation, in the order written, then ``end_turn``.

    Each action is a dict ``apply`` accepts (places come from the piece
    descriptions; there are no ids). Extra keys carry what else the text says:
    ``actor`` (the acting piece as described: type, row, col, level, articles,
    hand), ``other`` (the second piece of an Exchange), ``target_piece``,
    ``carried`` (the passenger's type), ``dozed`` (the dozed pieces), ``hand``
    (of a reinforcement). The closing ``{"type": "end_turn", "results": [...]}``
    holds the results in the order they happened, and ``order`` (the actions'
    12DPXMR letters in the order taken) when the text gives it with ``SQ:``.
    An actor written with ``#n`` has ``mark`` n in its description. A
    censored ``MV:?`` gives ``{"type": "move", "hidden": True}``, which cannot
    be applied. Raises ``ValueError`` saying where the text is malformed.
    """
    actions, results, order = _parse(text)
    out = [a for a, _ in actions]
    for r in results:
        r.pop("text", None)
    end: dict[str, Any] = {"type": "end_turn", "results": results}
    if order:
        end["order"] = order
    out.append(end)
    return out


# --- replaying -------------------------------------------------------------------------

_STRICT_BUDGET = 200
_EXTRA_KEYS = ("actor", "other", "target_piece", "carried", "dozed", "hand", "hidden")


def _matches(p: Any, d: dict[str, Any]) -> bool:
    return p.type == d["type"] and (p.hand or None) == d.get("hand") and list(p.articles) == d["articles"]


def _ids_at(game: Game, place: list[Any], d: dict[str, Any], color: str) -> list[int]:
    """The ids of the pieces at ``place`` that fit the description ``d``, in
    the board's order; only the ``mark``-th of them when ``d`` has a mark."""
    row, col, level = place
    slot = ((row - 1) * 10 + col - 1) * 3 + LEVEL_INDEX[level]
    ids = [i for i in game.board[slot] if game.pieces[i].color == color and _matches(game.pieces[i], d)]
    mark = d.get("mark")
    if mark:
        return ids[mark - 1:mark] or [-1]  # no such piece: nothing will apply
    return ids


def _variants(game: Game, a: dict[str, Any]) -> list[dict[str, Any]]:
    """The action as ``apply`` takes it, once per own piece its descriptions fit."""
    base = {k: v for k, v in a.items() if k not in _EXTRA_KEYS}
    color = game.to_move
    choices: list[list[tuple[str, int]]] = []
    if "actor" in a and a["type"] != "reinforce":
        ids = _ids_at(game, a["from"], a["actor"], color)
        if ids:
            choices.append([("piece", i) for i in ids])
    if a["type"] == "exchange":
        ids = _ids_at(game, a["to"], a["other"], color)
        if ids:
            choices.append([("to_piece", i) for i in ids])
    if not choices:
        return [base]
    return [dict(base, **dict(combo)) for combo in product(*choices)]


def _replay_turn(game: Game, text: str, number: int) -> Game:
    return replay_turn_steps(game, text, number)[0]


_ORDER_CODE = {"move": "M", "drop": "D", "pickup": "P", "exchange": "X", "reinforce": "R"}
_MARK_RE = re.compile(r"#[12]")


def _fits(made: str, given: str) -> bool:
    """Whether the text a replayed action or Turn writes is the one given.

    Records written before the ``#n`` and ``SQ:`` markers existed have
    neither; they still read, the markers left out of the comparison (and the
    search then falls back to trying the orders and alike Pieces it may).
    """
    if made == given:
        return True
    if "#" in made and "#" not in given:
        made = _MARK_RE.sub("", made)
    if ",SQ:" in made and ",SQ:" not in given:
        made = _SEQUENCE_RE.sub("", made)
    return made == given


def replay_turn_steps(game: Game, text: str, number: int, order: str | None = None,
                      ) -> tuple[Game, list[dict[str, Any]]]:
    """Replay one Turn; the game after it and its actions in the order found
    (``end_turn`` last, unless the game ended during the Turn). ``order``, the
    12DPXMR letters of the actions as they were taken (kept in the game's log),
    makes that order the first one tried."""
    from .actions import IllegalAction, apply

    before_end: list[Game] = []

    actions, results, written = _parse(text)
    # The order to try first: the one the game's log kept, else the one the
    # text gives, else the one it implies (the written order, or 12DPXMR where
    # an Action Restriction makes that the only legal one).
    order = order or written or expected_order(game.options["action_restriction"])
    if order != WRITTEN_ORDER:
        codes = _codes(actions)
        rank = {c: i for i, c in enumerate(order)}
        pairs = sorted(zip(codes, actions, strict=True), key=lambda cx: rank.get(cx[0], len(order)))
        actions = [x for _, x in pairs]
    if any(a.get("hidden") for a, _ in actions):
        raise ValueError(f"Turn {number}: {text!r} is censored (MV:?) and cannot be replayed")
    wanted = [r["text"] for r in results]
    end = {"type": "end_turn"}

    budget = [0]

    def search(g: Game, remaining: list[tuple[dict[str, Any], str]], k: int, strict: bool) -> Game | None:
        if not remaining:
            if g.result:
                if not _fits(turn_text(list(g.turn_log), restriction=g.options["action_restriction"]), text):
                    return None
                before_end.append(g)
                return g
            try:
                done = apply(g, end)
            except IllegalAction:
                return None
            if not _fits(done.log[-1]["text"], text):
                return None
            before_end.append(g)
            return done
        if g.result:
            return None
        first_fire = next((n for n, (a, _) in enumerate(remaining) if a["type"] == "fire"), None)
        for n, (a, raw) in enumerate(remaining):
            if a["type"] == "fire" and n != first_fire:
                continue  # FI1 happened before FI2
            variants = _variants(g, a)
            if strict and len(variants) > 1:
                continue
            for variant in variants:
                if strict:
                    budget[0] -= 1
                    if budget[0] < 0:
                        return None
                try:
                    after = apply(g, variant)
                except IllegalAction:
                    continue
                entry = after.turn_log[-1]
                if not _fits(_segment(entry), raw):
                    continue
                items = _result_items(entry)
                if wanted[k:k + len(items)] != items:
                    continue
                found = search(after, remaining[:n] + remaining[n + 1:], k + len(items), strict)
                if found is not None:
                    return found
        return None

    # Where two alike pieces share a place the text cannot say which one
    # acted: first look for an order in which every action fits one piece
    # only (a bounded search), then accept any.
    budget[0] = _STRICT_BUDGET
    found = search(game, actions, 0, True)
    if found is None:
        found = search(game, actions, 0, False)
    if found is None:
        raise ValueError(f"Turn {number} ({game.to_move}): no order of its actions is legal and gives {text!r}")
    steps = [e["action"] for e in before_end[-1].turn_log]
    if not found.result or found is not before_end[-1]:
        steps.append(end)
    return found, steps


def replay(texts: list[str], options: dict[str, Any] | None = None,
           scenario: dict[str, Any] | None = None) -> Game:
    """The game a history (one notation string per Turn) describes.

    Starts from ``new_game(options)``, or from ``load_scenario(scenario)``
    (``options`` then override the document's), and plays each Turn: its
    actions in an order that is legal and whose notation is exactly the text
    given (the written order is tried first), then ``end_turn``. A last Turn in
    which the game ended has no ``end_turn``. Raises ``ValueError`` naming the
    Turn that cannot be replayed.
    """
    from . import load_scenario, new_game

    if scenario is not None:
        doc = dict(scenario)
        if options:
            doc["options"] = {**(doc.get("options") or {}), **options}
        game = load_scenario(doc)
    else:
        game = new_game(options)
    for n, text in enumerate(texts, 1):
        if game.result:
            raise ValueError(f"Turn {n}: the game was already over")
        game = _replay_turn(game, text, n)
    return game


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


def _name(kind: str) -> str:
    if kind in _NAMES:
        return _NAMES[kind]
    if kind.startswith("anti_"):
        return "Anti-" + _name(kind[5:])
    return " ".join(w.capitalize() for w in kind.split("_"))


def _where(row: int, col: int, level: int | str = 0) -> str:
    level = level if isinstance(level, int) else LEVEL_INDEX[level]
    return f"({row},{col})" + {0: "", 1: " in the air", 2: " under water"}[level]


def _who(p: dict[str, Any]) -> str:
    return f"{p['color'].capitalize()} {_name(p['type'])} {_where(p['row'], p['col'], _level(p))}"


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
    events = [ev for ev in entry["events"] if _shown(ev, censored)]
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
        if w in _TRANSPORTS:
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
        events = [ev for ev in entry["events"] if _shown(ev, censored)]
        attached = kind != "end_turn" and _shown(entry, censored)
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
