"""Words every game shares, translated: the colours and the site's own
reasons for a game's end (resignation, time, agreement).  A game's own
words live in its site package (games/ui/<name>/words.py), whose
`reason_name` falls back on this one; the templates have these as the
`game_words` tag library."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

COLOR_NAMES = {"black": _("Black"), "white": _("White")}

#: How the site itself ends a game, whatever the game.
REASONS = {
    "resignation": _("resignation"),
    "timeout": _("time ran out"),
    "agreement": _("agreed draw"),
}


def color_name(color):
    return COLOR_NAMES.get(color, color)


def reason_name(reason):
    return REASONS.get(reason, str(reason or "").replace("_", " "))
