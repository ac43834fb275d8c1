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
from typing import Any, NamedTuple

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engines import get_engine

from .words import level_name, piece_name

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
    engine = get_engine("wec")
    try:
        return engine.dump_scenario(engine.load_scenario(doc))
    except ValueError as exc:
        match = _SQUARE.search(str(exc))
        square = (int(match.group(1)), int(match.group(2))) if match else None
        raise ScenarioTextError(engine_message(str(exc)), square=square) from None


# The engine's own checks speak English (games/rules is Django-free); the
# ones a position typed in the editor meets are told in the user's language.
# The Square is shown apart; any other message is shown as the engine wrote it.
_LEVEL_AT = r"\(\d+, \d+(?:, (?P<level>ground|air|sub))?\)"
_ENGINE_MESSAGES = [
    (re.compile(r"(?P<n>\d+) pieces at " + _LEVEL_AT + r"; a level of a Square holds at most 2"),
     gettext_lazy("%(n)s pieces on one level (%(level)s); a level of a Square holds at most 2.")),
    (re.compile(r"enemy pieces share " + _LEVEL_AT),
     gettext_lazy("Enemy pieces share one level (%(level)s).")),
    (re.compile(r"(?P<a>\w+) and (?P<b>\w+) at " + _LEVEL_AT + r": two pieces at one level need a type that coexists"),
     gettext_lazy("%(a)s and %(b)s cannot share a level (%(level)s): one of them must be a piece that may share.")),
    (re.compile(r"(?P<piece>\w+) at " + _LEVEL_AT + r" cannot be there without a (?P<carrier>\w+) carrying it"),
     gettext_lazy("%(piece)s cannot stand there (%(level)s) unless a friendly %(carrier)s carries it.")),
    (re.compile(r"(?P<n>\d+) Articles on the ground at " + _LEVEL_AT + r"; at most 2 fit"),
     gettext_lazy("%(n)s Articles on the ground; at most 2 fit on a Square.")),
    (re.compile(r"(?:piece|reinforcement) #\d+ has unknown type '(?P<type>[^']*)'"),
     gettext_lazy("Unknown piece type: %(type)s.")),
    (re.compile(r".* carries unknown Article '(?P<type>[^']*)'"),
     gettext_lazy("Unknown Article: %(type)s.")),
    (re.compile(r".* has unknown hand '(?P<hand>[^']*)'"),
     gettext_lazy("The hand is left or right, not %(hand)s.")),
    (re.compile(r".* has no handedness.*"),
     gettext_lazy("This piece has no hand: leave out hand=.")),
]


def engine_message(message: str) -> str:
    """An engine error about a position, in the user's language when known."""
    for pattern, text in _ENGINE_MESSAGES:
        m = pattern.fullmatch(message)
        if m:
            words = {k: v for k, v in m.groupdict().items() if v is not None}
            words["level"] = level_name(words.get("level") or "ground")
            for key in ("a", "b", "piece", "carrier"):
                if key in words:
                    words[key] = piece_name(words[key])
            return str(text) % words
    return message


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


class Shipped(NamedTuple):
    """A scenario shipped with the site: its title, its position in the
    editor's keywords (None: the engine's standard setup) and a short
    explanation of the rule it shows and what to try first."""

    title: Any
    text: str | None
    about: Any


# Shipped with the site: the standard game and positions that show a rule at
# work.  Titles and explanations are translated (our own words, checked
# against the engine by tests/site/test_club_scenarios.py, which plays the
# first actions each explanation suggests); the positions are the editor's
# keywords.
SHIPPED: dict[str, Shipped] = {
    "standard": Shipped(
        gettext_lazy("The standard game"),
        None,  # built from the engine's own standard setup
        gettext_lazy("Both armies in their usual starting places, with the standard options."),
    ),
    "hidden-sub": Shipped(
        gettext_lazy("A submerged Sub nobody sees"),
        "to_move black\npiece black king 1 1\npiece black dozer 2 5\npiece white king 10 1\n"
        "piece white sub 9 9 sub\n",
        gettext_lazy(
            "White's Sub starts under water. Black has no Torpedo Launcher, the only thing that finds a "
            "submerged piece, so the Sub moves unseen. Firing gives it away: Black sees it where it fired "
            "until it moves on."
        ),
    ),
    "bike-transport": Shipped(
        gettext_lazy("Transport by Bike"),
        "to_move black\npiece black king 1 1\npiece black tank 3 3 ground hand=right articles=bike\n"
        "piece white king 10 10\n",
        gettext_lazy(
            "Black's Tank carries a Bike. Fire the Bike at a Square on the ground: the Tank rides one Square "
            "at once and one more at the end of each of Black's later Turns until it gets there. A riding "
            "piece does not Move, so the King makes the Turn's Move."
        ),
    ),
    "stunned-king": Shipped(
        gettext_lazy("Stunning the King"),
        "to_move black\npiece black king 1 1\npiece black stunner_pawn 3 5\n"
        "piece white king 8 5 ground articles=jump_pack\npiece white tank 10 10 ground hand=right\n",
        gettext_lazy(
            "Black's Stunner Pawn looks straight up the column at the White King. Fire the Stunner forward: "
            "it hits the first Square that way holding a piece, and the King, which has no Anti-Stunner, is "
            "stunned for three of White's Turns. A stunned piece takes no action at all and drops what it "
            "carries, so the King's Jump Pack falls to the ground and White must play with the Tank."
        ),
    ),
    "homing-sam": Shipped(
        gettext_lazy("A homing SAM"),
        "to_move black\npiece black king 1 1\npiece black aaa 4 5\npiece white king 10 1\n"
        "piece white jet 7 6 air\n",
        gettext_lazy(
            "Black's AAA sees the White Jet in the air three Squares away. Fire its SAM at the Jet: the SAM "
            "homes on it, flying one Square at the end of each of Black's Turns. White can escape by landing "
            "the Jet: a SAM whose target leaves the air flies straight on."
        ),
    ),
    "transport-crash": Shipped(
        gettext_lazy("A Transport crashes into a hidden piece"),
        "to_move black\npiece black king 1 1\npiece black tank 3 3 ground hand=right articles=bike\n"
        "piece white king 10 10\npiece white aaa 6 3\n",
        gettext_lazy(
            "Send Black's Tank by Bike up its column to 8,3. White's AAA on 6,3 is stealthed, so Black "
            "cannot see it. A Transport never fights: when the Tank's next step would enter the AAA's Square, "
            "it crashes and stops where it is, and Black's record says so."
        ),
    ),
    "reinforcements": Shipped(
        gettext_lazy("Reinforcements"),
        "to_move black\npiece black king 1 1\npiece black dozer 2 4\npiece white king 10 10\n"
        "reinforcement black jet 3 4\nreinforcement white tank 8 7 hand=left\n",
        gettext_lazy(
            "A Black Jet waits to come in on 3,4. A Black piece must first stand on the ground there, and on "
            "a later Turn leave the Square empty. Move the Dozer onto 3,4 now and away next Turn, then "
            "Reinforce: the Jet arrives on the ground of 3,4. Each side sees where the other's "
            "reinforcements wait, but not what they are."
        ),
    ),
    "sonar": Shipped(
        gettext_lazy("Finding a submerged Sub"),
        "to_move black\npiece black king 1 1\npiece black destroyer 4 5\npiece white king 10 10\n"
        "piece white sub 8 5 sub\n",
        gettext_lazy(
            "White's Sub lies under water four Squares from Black's Destroyer, out of sight. A Torpedo "
            "Launcher finds submerged pieces within three Squares: Move the Destroyer one Square forward and "
            "the Sub appears. Then fire a homing Torpedo at it."
        ),
    ),
}


def shipped_about(source: str) -> str:
    """The explanation of a shipped scenario named by a `shipped:<key>`
    source ("" for anything else)."""
    kind, _sep, key = (source or "").partition(":")
    if kind == "shipped" and key in SHIPPED:
        return str(SHIPPED[key].about)
    return ""


def shipped_document(key: str) -> dict:
    text = SHIPPED[key].text
    if text is None:
        engine = get_engine("wec")
        # Through the text form: only what the editor shows (no ids or state).
        return parse(to_text(engine.dump_scenario(engine.new_game())))
    return parse(text)
