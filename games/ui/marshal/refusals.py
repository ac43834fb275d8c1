"""The Marshal engine's refusals a player can meet, in the reader's language
(see games/refusals.py).  The patterns follow the messages of
games/rules/marshal/engine.py; those about a malformed action (missing keys,
wrong JSON types) are left out: the site hands the engine only actions it has
already put in shape (``accepts``), so no player meets them."""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _

from games.refusals import Refusal
from games.refusals import translate as _translate

from .words import piece_name

_SQ = r"\(\d+,\d+\)"
_COLOR = r"(?:black|white)"
_KIND = {"piece": piece_name}

TABLE: tuple[Refusal, ...] = (
    Refusal(re.compile(r"The armies are already set up\."), _("The armies are already set up.")),
    Refusal(re.compile(rf"The {_COLOR} army is already set up\."), _("That army is already set up.")),
    Refusal(
        re.compile(r"Piece (?P<n>\d+) of the setup has an unknown type (?P<kind>.*)\."),
        _("Piece %(n)s of the setup has an unknown type %(kind)s."),
    ),
    Refusal(
        re.compile(rf"Piece (?P<n>\d+) of the setup is not {_COLOR}\."),
        _("Piece %(n)s of the setup is not one of yours."),
    ),
    Refusal(
        re.compile(rf"(?P<square>{_SQ}) is outside the {_COLOR} setup zone\."),
        _("%(square)s is outside your setup zone."),
    ),
    Refusal(re.compile(rf"Two pieces are placed on (?P<square>{_SQ})\."), _("Two pieces are placed on %(square)s.")),
    Refusal(
        re.compile(r"The army has (?P<n>\d+) of type (?P<piece>\w+), the setup places (?P<m>\d+)\."),
        _("The army has %(n)s × %(piece)s; the setup places %(m)s."),
        _KIND,
    ),
    Refusal(re.compile(rf"(?P<square>{_SQ}) is not on the board\."), _("%(square)s is not on the board.")),
    Refusal(re.compile(r"The game is over\."), _("The game is over.")),
    Refusal(
        re.compile(r"Both armies must be set up before the first move\."),
        _("Both armies must be set up before the first move."),
    ),
    Refusal(re.compile(rf"You have no piece on (?P<square>{_SQ})\."), _("You have no piece on %(square)s.")),
    Refusal(
        re.compile(rf"Your (?P<piece>\w+) on (?P<square>{_SQ}) never moves\."),
        _("Your %(piece)s on %(square)s never moves."),
        _KIND,
    ),
    Refusal(
        re.compile(rf"Your (?P<piece>\w+) on (?P<square>{_SQ}) has already moved this turn; move another piece\."),
        _("Your %(piece)s on %(square)s has already moved this turn; move another piece."),
        _KIND,
    ),
    Refusal(
        re.compile(
            rf"A piece steps one square sideways or straight ahead or back; (?P<to>{_SQ}) is not next to (?P<frm>{_SQ})\."
        ),
        _("A piece steps one square sideways, straight ahead or straight back; %(to)s is not next to %(frm)s."),
    ),
    Refusal(
        re.compile(rf"(?P<square>{_SQ}) is a volcano; no piece may stand there\."),
        _("%(square)s is a volcano; no piece may stand there."),
    ),
    Refusal(re.compile(rf"Your own piece stands on (?P<square>{_SQ})\."), _("Your own piece stands on %(square)s.")),
    Refusal(
        re.compile(rf"Your (?P<piece>\w+) may not step straight back to (?P<square>{_SQ}) yet\."),
        _("Your %(piece)s may not step straight back to %(square)s yet."),
        _KIND,
    ),
)


def translate(message: str) -> str:
    """The engine's `message` in the reader's language (as written when unknown)."""
    return _translate(message, TABLE)
