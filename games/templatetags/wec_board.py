from django import template
from django.utils.translation import gettext_lazy as _

register = template.Library()

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

LEVEL_NAMES = {"ground": _("ground"), "air": _("air"), "sub": _("sub")}
COLOR_NAMES = {"black": _("Black"), "white": _("White")}


def _lookup(table, kind):
    if kind in table:
        return table[kind]
    text = str(kind or "?")
    return (text[:2].title(), text.replace("_", " "))


@register.filter
def piece_abbr(kind):
    return _lookup(PIECES, kind)[0]


@register.filter
def piece_name(kind):
    return _lookup(PIECES, kind)[1]


@register.filter
def article_abbr(kind):
    return _lookup(ARTICLES, kind)[0]


@register.filter
def article_name(kind):
    return _lookup(ARTICLES, kind)[1]


@register.filter
def level_name(level):
    return LEVEL_NAMES.get(level, level)


@register.filter
def color_name(color):
    return COLOR_NAMES.get(color, color)


REASONS = {
    "primary_taken": _("the enemy's primary piece was taken"),
    "primary_lost": _("a side lost its own primary piece"),
    "both_primaries_lost": _("both primary pieces were lost"),
    "resignation": _("resignation"),
    "timeout": _("time ran out"),
}


@register.filter
def reason_name(reason):
    return REASONS.get(reason, str(reason or "").replace("_", " "))
