"""The board editor's text form of a scenario: one line per thing on the
board, so a position can be written, read and changed by hand and checked by
the engine's own `load_scenario`.

    to_move black
    piece black king 1 5
    piece white sub 9 9 sub
    piece black tank 1 1 ground hand=right articles=bike,stealth
    article bike 3 3
    reinforcement black tank 8 1 hand=right

Errors name the line; the engine's own errors name the Square."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

LEVELS = ("ground", "air", "sub")
COLORS = ("black", "white")
_SQUARE = re.compile(r"\((\d+), (\d+)")


class ScenarioTextError(ValueError):
    def __init__(self, message: str, line: int | None = None, square: tuple[int, int] | None = None):
        super().__init__(message)
        self.message, self.line, self.square = message, line, square


def _int(text: str, number: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ScenarioTextError(_("Line %(n)d: %(text)s is not a number.") % {"n": number, "text": text}, number) from None
    if not 1 <= value <= 10:
        raise ScenarioTextError(_("Line %(n)d: rows and columns go from 1 to 10.") % {"n": number}, number)
    return value


def parse(text: str, options: dict | None = None) -> dict:
    """The scenario document the text describes (not yet checked by the engine)."""
    doc: dict = {"to_move": "black", "options": dict(options or {}), "pieces": [], "articles": [], "reinforcements": []}
    for number, raw in enumerate(text.splitlines(), start=1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        kind, rest = words[0].lower(), words[1:]
        extras = {k: v for k, _sep, v in (w.partition("=") for w in rest if "=" in w)}
        plain = [w for w in rest if "=" not in w]
        if kind == "to_move" and len(plain) == 1 and plain[0] in COLORS:
            doc["to_move"] = plain[0]
        elif kind == "piece" and len(plain) in (4, 5) and plain[0] in COLORS:
            level = plain[4] if len(plain) == 5 else "ground"
            if level not in LEVELS:
                raise ScenarioTextError(_("Line %(n)d: the level is ground, air or sub.") % {"n": number}, number)
            piece = {"type": plain[1], "color": plain[0], "row": _int(plain[2], number),
                     "col": _int(plain[3], number), "level": level,
                     "articles": [a for a in extras.get("articles", "").split(",") if a]}
            if extras.get("hand"):
                piece["hand"] = extras["hand"]
            doc["pieces"].append(piece)
        elif kind == "article" and len(plain) == 3:
            doc["articles"].append({"type": plain[0], "row": _int(plain[1], number), "col": _int(plain[2], number)})
        elif kind == "reinforcement" and len(plain) == 4 and plain[0] in COLORS:
            item = {"type": plain[1], "color": plain[0], "row": _int(plain[2], number), "col": _int(plain[3], number)}
            if extras.get("hand"):
                item["hand"] = extras["hand"]
            doc["reinforcements"].append(item)
        else:
            raise ScenarioTextError(_("Line %(n)d is not understood: %(text)s") % {"n": number, "text": raw.strip()}, number)
    return doc


def check(doc: dict) -> dict:
    """The engine's verdict: its own dump of the position, or a
    ScenarioTextError carrying the engine's message and the Square it names."""
    from .engine import get_game_engine

    engine = get_game_engine()
    try:
        return engine.dump_scenario(engine.load_scenario(doc))
    except ValueError as exc:
        match = _SQUARE.search(str(exc))
        square = (int(match.group(1)), int(match.group(2))) if match else None
        raise ScenarioTextError(str(exc), square=square) from None


def to_text(doc: dict) -> str:
    lines = [f"to_move {doc.get('to_move', 'black')}"]
    for p in doc.get("pieces", []):
        extra = ""
        if p.get("hand"):
            extra += f" hand={p['hand']}"
        if p.get("articles"):
            extra += " articles=" + ",".join(p["articles"])
        lines.append(f"piece {p['color']} {p['type']} {p['row']} {p['col']} {p.get('level', 'ground')}{extra}")
    for a in doc.get("articles", []):
        lines.append(f"article {a['type']} {a['row']} {a['col']}")
    for r in doc.get("reinforcements", []):
        extra = f" hand={r['hand']}" if r.get("hand") else ""
        lines.append(f"reinforcement {r['color']} {r['type']} {r['row']} {r['col']}{extra}")
    return "\n".join(lines) + "\n"


# Shipped with the site: the standard game and positions that show a rule at
# work. The titles are translated; the positions are the editor's keywords.
SHIPPED = {
    "standard": (
        gettext_lazy("The standard game"),
        None,  # built from the engine's own standard setup
    ),
    # White's Sub moves and fires under water; Black sees none of it.
    "hidden-sub": (
        gettext_lazy("A submerged Sub nobody sees"),
        "to_move black\npiece black king 1 1\npiece black dozer 2 5\npiece white king 10 1\n"
        "piece white sub 9 9 sub\n",
    ),
    # The Tank may ride its Bike instead of moving.
    "bike-transport": (
        gettext_lazy("Transport by Bike"),
        "to_move black\npiece black king 1 1\npiece black tank 3 3 ground hand=right articles=bike\n"
        "piece white king 10 10\n",
    ),
}


def shipped_document(key: str) -> dict:
    from .engine import get_game_engine

    _title, text = SHIPPED[key]
    if text is None:
        engine = get_game_engine()
        # Through the text form: only what the editor shows (no ids or state).
        return parse(to_text(engine.dump_scenario(engine.new_game())))
    return parse(text)
