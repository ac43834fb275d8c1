"""Weaponized Chess in words: the translated names of its Pieces, Articles,
Levels, Actions and reasons for a game's end, and a token's tooltip.  Plain
Python reads them from here; the `wec_board` tag library
(templatetags/wec_board.py) gives the same functions to the templates.
Colours are every game's (games.words)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.words import color_name
from games.words import reason_name as site_reason_name

__all__ = [
    "ACTION_NAMES",
    "ARTICLES",
    "LEVEL_NAMES",
    "PIECES",
    "REASONS",
    "action_name",
    "article_abbr",
    "article_name",
    "color_name",
    "level_name",
    "piece_abbr",
    "piece_name",
    "piece_title",
    "reason_name",
]

#: Piece type -> (its letter tag, its name).
PIECES = {
    "king": ("K", _("King")),
    "queen": ("Q", _("Queen")),
    "tank": ("T", _("Tank")),
    "dozer": ("Dz", _("Dozer")),
    "sub": ("Sb", _("Sub")),
    "chopper": ("Ch", _("Chopper")),
    "destroyer": ("Ds", _("Destroyer")),
    "aaa": ("AA", _("AAA")),
    "cleric": ("Cl", _("Cleric")),
    "jet": ("J", _("Jet")),
    "rocket_pawn": ("rP", _("Rocket pawn")),
    "stunner_pawn": ("sP", _("Stunner pawn")),
    "flamer_pawn": ("fP", _("Flamer pawn")),
    "conversion_pawn": ("cP", _("Conversion pawn")),
    "stealth_pawn": ("hP", _("Stealth pawn")),
    "xxx_pawn": ("xP", _("XXX pawn")),
    "sam_torpedo_pawn": ("tP", _("SAM/torpedo pawn")),
    "dictator": ("Di", _("Dictator")),
    "avatar": ("Av", _("Avatar")),
    "president": ("Pr", _("President")),
    "assassin": ("As", _("Assassin")),
    "acolyte": ("Ac", _("Acolyte")),
    "prime_minister": ("PM", _("Prime minister")),
}

#: Article type -> (its letter tag, its name).
ARTICLES = {
    "flamer": ("Fl", _("Flamer")),
    "stunner": ("St", _("Stunner")),
    "conversion": ("Cv", _("Conversion")),
    "rocket_launcher": ("RL", _("Rocket launcher")),
    "sam_launcher": ("SL", _("SAM launcher")),
    "torpedo_launcher": ("TL", _("Torpedo launcher")),
    "stealth": ("Sh", _("Stealth")),
    "anti_flamer": ("aF", _("Anti-flamer")),
    "anti_stunner": ("aS", _("Anti-stunner")),
    "anti_conversion": ("aC", _("Anti-conversion")),
    "anti_rocket": ("aR", _("Anti-rocket")),
    "anti_sam": ("aM", _("Anti-SAM")),
    "anti_torpedo": ("aT", _("Anti-torpedo")),
    "anti_stealth": ("aH", _("Anti-stealth")),
    "bike": ("Bk", _("Bike")),
    "jump_pack": ("JP", _("Jump pack")),
    "scuba": ("Sc", _("Scuba")),
    "xxx": ("X", _("XXX")),
}

# The level words have their own context: "Sub" is also a piece, and a
# language may name the level and the piece differently.
LEVEL_NAMES = {
    "ground": pgettext_lazy("level", "ground"),
    "air": pgettext_lazy("level", "air"),
    "sub": pgettext_lazy("level", "sub"),
}
# The manual's Action names (as the turn panel writes them).
ACTION_NAMES = {
    "move": _("Move"), "fire": _("Fire"), "pickup": _("Pick-up"), "drop": _("Drop"),
    "exchange": _("Exchange"), "reinforce": _("Reinforce"), "end_turn": _("End turn"),
}


def _lookup(table, kind):
    if kind in table:
        return table[kind]
    text = str(kind or "?")
    return (text[:2].title(), text.replace("_", " "))


def piece_abbr(kind):
    return _lookup(PIECES, kind)[0]


def piece_name(kind):
    return _lookup(PIECES, kind)[1]


def article_abbr(kind):
    return _lookup(ARTICLES, kind)[0]


def article_name(kind):
    return _lookup(ARTICLES, kind)[1]


def level_name(level):
    return LEVEL_NAMES.get(level, level)


def action_name(kind):
    return ACTION_NAMES.get(kind, str(kind or "").replace("_", " "))


#: The engine's reasons for a game's end (the site's own: games.words).
REASONS = {
    "primary_taken": _("the enemy's primary piece was taken"),
    "primary_lost": _("a side lost its own primary piece"),
    "both_primaries_lost": _("both primary pieces were lost"),
}


def reason_name(reason):
    return REASONS[reason] if reason in REASONS else site_reason_name(reason)


# Whole phrases, so that a language can agree the colour with the piece or
# put it after ("Вертолёт белых"); never "colour" + " " + "piece".
PIECE_PHRASES = {
    ("black", None): _("Black %(piece)s"),
    ("white", None): _("White %(piece)s"),
    ("black", "left"): _("Black %(piece)s (left-hand)"),
    ("black", "right"): _("Black %(piece)s (right-hand)"),
    ("white", "left"): _("White %(piece)s (left-hand)"),
    ("white", "right"): _("White %(piece)s (right-hand)"),
}


def piece_title(piece: dict) -> str:
    """A token's tooltip: the piece with its colour and hand, what it carries,
    then its badges, each part a translated phrase."""
    color, hand = piece.get("color"), piece.get("hand") or None
    name = piece_name(piece.get("type"))
    phrase = PIECE_PHRASES.get((color, hand)) or PIECE_PHRASES.get((color, None))
    text = str(phrase % {"piece": name}) if phrase else str(name)
    articles = [str(article_name(a)) for a in piece.get("articles") or []]
    if articles:
        text = str(_("%(piece)s, carrying %(articles)s")) % {"piece": text, "articles": ", ".join(articles)}
    for badge in piece.get("badges") or []:
        text += " · " + str(badge.get("title", ""))
    return text
