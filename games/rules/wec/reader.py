"""Reading the Wec game notation back into actions (GAME HISTORY, l. 1755-1800).

:func:`parse_turn` turns one Turn's text, as :mod:`.notation` writes it (the
manual's spellings such as ``SP`` and ``JU`` accepted too), into the actions
``apply`` takes, with the descriptions of the Pieces they name; replaying
those actions on a game is :mod:`.replay`'s work.
"""

from __future__ import annotations

import re
from typing import Any

from .constants import ARTICLE_CODES, PIECE_CODES, TRANSPORTS
from .notation import KILL_CODES, ORDER_CODE, PROJECTILE_CODES, RESIST_CODES, SEQUENCE_RE, WRITTEN_ORDER

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
    if weapon in TRANSPORTS:
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


def parse_text(text: str) -> tuple[list[tuple[dict[str, Any], str]], list[dict[str, Any]], str | None]:
    """The Turn's actions with the text each was read from, its results, and
    the order its actions were taken in when the text says it (``,SQ:``)."""
    if not isinstance(text, str):
        raise ValueError(f"a Turn's notation must be a string, not {type(text).__name__}")
    order = None
    m = SEQUENCE_RE.search(text)
    if m:
        order = m.group(1)
        text = text[:m.start()]
    actions, results = _parse_body(text)
    if order is not None:
        codes = sorted(action_codes(actions))
        if sorted(order) != codes:
            raise ValueError(f"malformed Wec notation {text!r}: the order SQ:{order} does not list the Turn's "
                             f"actions ({''.join(sorted(codes, key=WRITTEN_ORDER.index)) or 'none'}) once each")
    return actions, results, order


def action_codes(actions: list[tuple[dict[str, Any], str]]) -> list[str]:
    """The 12DPXMR letters of parsed actions, in the order given."""
    codes = []
    fires = 0
    for a, _ in actions:
        if a["type"] == "fire":
            fires += 1
            codes.append(str(fires))
        else:
            codes.append(ORDER_CODE.get(a["type"], "M"))
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
    actions, results, order = parse_text(text)
    out = [a for a, _ in actions]
    for r in results:
        r.pop("text", None)
    end: dict[str, Any] = {"type": "end_turn", "results": results}
    if order:
        end["order"] = order
    out.append(end)
    return out
