"""Marshal and Spy in words: piece names, reasons, and the record in plain
language, translated (the notation itself: docs/notation.md, "Marshal and Spy
notation")."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.rules.marshal.constants import TYPE_OF_LETTER
from games.words import reason_name as site_reason

PIECE_NAMES = {
    "corporal": gettext_lazy("Corporal"),
    "lieutenant": gettext_lazy("Lieutenant"),
    "captain": gettext_lazy("Captain"),
    "colonel": gettext_lazy("Colonel"),
    "general": gettext_lazy("General"),
    "spy": gettext_lazy("Spy"),
    "sapper": gettext_lazy("Sapper"),
    "mine": gettext_lazy("Mine"),
    "hq": gettext_lazy("Headquarters"),
    "unknown": gettext_lazy("unknown piece"),
}

#: Short marks drawn on a token (ranks as digits, the rest as letters).
PIECE_MARKS = {
    "corporal": "1",
    "lieutenant": "2",
    "captain": "3",
    "colonel": "4",
    "general": "5",
    "spy": "S",
    "sapper": "P",
    "mine": "M",
    "hq": "H",
    "unknown": "?",
}


def piece_name(kind: str) -> str:
    return str(PIECE_NAMES.get(kind, kind))


def reason_name(reason: str) -> str:
    """Why the game ended, in words: the engine's reasons, else the site's
    own (resignation, time, agreed draw), named as for every game."""
    own = {
        "hq_captured": _("the Headquarters was taken"),
        "no_mobile_pieces": _("no piece left that can move"),
        "no_moves": _("no legal move"),
        "turn_limit": _("the turn limit was reached"),
    }
    return str(own[reason] if reason in own else site_reason(reason))


_MOVE = re.compile(r"([0-9SPMH?])\((\d+),(\d+)\)(?:-\((\d+),(\d+)\)|x([0-9SPMH?])\((\d+),(\d+)\)([-+#]))")
_LINE = re.compile(r"^(\d+)\. ([BW]): (.*?)(?: \{(.*)\})?$")


def _name(letter: str) -> str:
    return piece_name("unknown" if letter == "?" else TYPE_OF_LETTER[letter])


def _move_words(m: re.Match) -> str:
    who = _name(m.group(1))
    frm = f"{m.group(2)},{m.group(3)}"
    if m.group(4):
        return _("%(piece)s %(frm)s to %(to)s") % {"piece": who, "frm": frm, "to": f"{m.group(4)},{m.group(5)}"}
    target = {"piece": who, "frm": frm, "enemy": _name(m.group(6)), "to": f"{m.group(7)},{m.group(8)}"}
    result = m.group(9)
    if result == "+":
        return _("%(piece)s %(frm)s attacked the %(enemy)s at %(to)s and won") % target
    if result == "-":
        return _("%(piece)s %(frm)s attacked the %(enemy)s at %(to)s and was lost") % target
    return _("%(piece)s %(frm)s took the Headquarters at %(to)s") % target


def line_words(line: str) -> str:
    m = _LINE.match(line)
    if not m:
        return line
    side = _("Black") if m.group(2) == "B" else _("White")
    moves = "; ".join(_move_words(x) for x in _MOVE.finditer(m.group(3)))
    text = _("Turn %(n)s, %(side)s: %(moves)s.") % {"n": m.group(1), "side": side, "moves": moves}
    if m.group(4):
        text += " " + _("Game over.")
    return text
