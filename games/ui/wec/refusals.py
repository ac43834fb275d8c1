"""The Wec engine's refusals of an action, in the reader's language (see
games/refusals.py).  The patterns follow the messages of
games/rules/wec/actions/ (and undo.py); the site lets a player submit only an
entry of the engine's legal actions (``accepts``), so these reach a player
only when the engine refuses one of its own listed actions; the table covers
the refusals about the Turn's shape and the pieces, the rest stay as the
engine wrote them."""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _

from games.refusals import Refusal
from games.refusals import translate as _translate

from .words import level_name, piece_name

_LEVEL = r"(?:ground|air|sub)"


def _place(text: str) -> str:
    """'(r, c, level)' with the level in the reader's language."""
    row, col, level = (part.strip() for part in text.strip("()").split(","))
    return f"({row}, {col}, {level_name(level)})"


_PLACE = rf"\(\d+, \d+, {_LEVEL}\)"
_AT = {"place": _place, "frm": _place, "to": _place}

TABLE: tuple[Refusal, ...] = (
    Refusal(re.compile(r"make your Move before ending the Turn"), _("Make your Move before you end your turn.")),
    Refusal(re.compile(r"you have already made this Turn's Move"), _("You have already made this Turn's Move.")),
    Refusal(re.compile(r"the game is over"), _("The game is over.")),
    Refusal(
        re.compile(r"a primary government piece has fallen: only ending the Turn remains"),
        _("A primary government piece has fallen: all that is left is to end the Turn."),
    ),
    Refusal(re.compile(r"that piece has already acted this Turn"), _("That piece has already acted this Turn.")),
    Refusal(re.compile(r"only the Move is allowed in this game"), _("Only the Move is allowed in this game.")),
    Refusal(
        re.compile(r"only the piece that acted first may act this Turn"),
        _("Only the piece that acted first may act this Turn."),
    ),
    Refusal(
        re.compile(r"in 12DPXMR order the Reinforce comes after the Move"),
        _("In the 12DPXMR order the Reinforce comes after the Move."),
    ),
    Refusal(re.compile(rf"you have no piece at (?P<place>{_PLACE})"), _("You have no piece at %(place)s."), _AT),
    Refusal(
        re.compile(rf"that piece cannot Move from (?P<frm>{_PLACE}) to (?P<to>{_PLACE}) now"),
        _("That piece cannot Move from %(frm)s to %(to)s now."),
        _AT,
    ),
    Refusal(
        re.compile(r"two of your pieces there can make that Move; say which with 'piece'"),
        _("Two of your pieces there can make that Move; choose one of them first."),
    ),
    Refusal(
        re.compile(r"that (?P<piece>[a-z ]+) is stunned and cannot act"),
        _("That %(piece)s is stunned and cannot act."),
        {"piece": lambda words: piece_name(words.replace(" ", "_"))},
    ),
    Refusal(re.compile(r"there is no Undo in a competitive game"), _("There is no Undo in a competitive game.")),
)


def translate(message: str) -> str:
    """The engine's `message` in the reader's language (as written when unknown)."""
    return _translate(message, TABLE)
