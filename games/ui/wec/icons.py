"""Our own SVG icons for every Piece type and Article, drawn from simple
shapes on a 20x20 grid.  `SPRITE` (the `{% wec_icon_sprite %}` tag of the
`wec_icons` library) writes them once per page as <symbol>s; `piece_icon` /
`article_icon` place one with <use>.  The icons use
currentColor, so a token's colours (dark on light for White, light on dark for
Black) and its outline shape (square for Black, round for White, see site.css)
tell the sides apart without relying on hue.  The letter tags stay beside the
icons as their text alternative."""

from __future__ import annotations

from django.utils.html import format_html
from django.utils.safestring import mark_safe

# Small emblems reused by pawns and Articles (all within 0..20).
BOLT = '<path d="M11 2 5 11h4l-1 7 7-10h-4l1-6z"/>'
FLAME = '<path d="M10 2c3 4 6 6 6 10a6 6 0 0 1-12 0c0-3 2-4 3-7 1 2 2 3 3 3 0-2 0-4 0-6z"/>'
RING = '<path d="M10 3a7 7 0 1 1-6.6 4.7l2.1.7A4.8 4.8 0 1 0 10 5.2V8L6 4l4-4z"/>'
ROCKET = '<path d="M10 1c3 3 4 6 4 10l2 3v3l-3-2h-6l-3 2v-3l2-3c0-4 1-7 4-10z"/><circle cx="10" cy="8" r="1.6" fill="none" stroke-width="1.2"/>'
UP = '<path d="M10 2 18 12h-5v6H7v-6H2z"/>'
DOWN = '<path d="M10 18 2 8h5V2h6v6h5z"/>'
EYE = '<path d="M1 10c3-5 15-5 18 0-3 5-15 5-18 0z" fill="none" stroke-width="2"/><circle cx="10" cy="10" r="2.5"/><path d="M3 17 17 3" stroke-width="2"/>'
XMARK = '<path d="M3 5 5 3l5 5 5-5 2 2-5 5 5 5-2 2-5-5-5 5-2-2 5-5z"/>'
SHIELD = '<path d="M10 1 18 4v6c0 5-4 8-8 9-4-1-8-4-8-9V4z" fill="none" stroke-width="2"/>'

PIECES = {
    "king": '<path d="M3 16h14l1-10-4 4-4-7-4 7-4-4z"/><rect x="3" y="16" width="14" height="2"/>',
    "queen": '<path d="M3 16h14l2-9-5 4-4-6-4 6-5-4z"/><circle cx="10" cy="3" r="2"/><rect x="3" y="16" width="14" height="2"/>',
    "dictator": '<path d="M10 1l2.6 6.1 6.6.5-5 4.3 1.6 6.5L10 15l-5.8 3.4 1.6-6.5-5-4.3 6.6-.5z"/>',
    "avatar": '<circle cx="10" cy="10" r="4"/><path d="M10 0v4M10 16v4M0 10h4M16 10h4M3 3l3 3M14 14l3 3M3 17l3-3M14 6l3-3" stroke-width="2"/>',
    "president": '<rect x="4" y="11" width="12" height="7"/><path d="M6 11V2h1v3h7l-2 2 2 2H7v2z"/>',
    "assassin": '<path d="M10 1l2 10h-4zM5 11h10v2H5zM9 13h2v6H9z"/>',
    "acolyte": '<path d="M10 2 16 18H4z"/><circle cx="10" cy="10" r="2" fill="none" stroke-width="1.5"/>',
    "prime_minister": '<rect x="2" y="7" width="16" height="10" rx="1"/><path d="M7 7V4h6v3" fill="none" stroke-width="2"/>',
    "tank": '<rect x="2" y="12" width="16" height="5" rx="2.5"/><rect x="5" y="8" width="8" height="4"/><path d="M13 9.5h6" stroke-width="2"/>',
    "dozer": '<rect x="6" y="9" width="12" height="8" rx="1"/><path d="M1 6h3v12H1z"/><path d="M4 12h2" stroke-width="2"/>',
    "sub": '<ellipse cx="10" cy="13" rx="9" ry="4"/><rect x="8" y="5" width="4" height="5"/><path d="M10 5V2" stroke-width="1.5"/>',
    "chopper": '<ellipse cx="9" cy="12" rx="5" ry="4"/><path d="M1 5h18M9 5v4M13 12h6M18 10v4" stroke-width="2"/>',
    "destroyer": '<path d="M1 12h18l-3 5H4z"/><rect x="6" y="7" width="6" height="5"/><path d="M12 8h5" stroke-width="1.5"/>',
    "aaa": '<rect x="3" y="13" width="14" height="5"/><path d="M7 13 11 3M10 13 14 3" stroke-width="2"/>',
    "cleric": '<path d="M8 1h4v5h5v4h-5v9H8v-9H3V6h5z"/>',
    "jet": '<path d="M10 1l2 6 7 4v2l-7-2-1 5 3 2v1l-4-1-4 1v-1l3-2-1-5-7 2v-2l7-4z"/>',
}
PAWN = '<circle cx="10" cy="6" r="4"/><path d="M5 18c0-5 2-7 5-7s5 2 5 7z"/>'
PAWN_MARKS = {
    "rocket_pawn": '<path d="M16 1l3 3-4 4-3-3z"/>',
    "stunner_pawn": '<path d="M17 0l-4 5h3l-2 4 5-6h-3z"/>',
    "flamer_pawn": '<path d="M16 0c2 3 3 4 3 6a3 3 0 0 1-6 0c0-2 2-3 3-6z"/>',
    "conversion_pawn": '<circle cx="16" cy="4" r="3" fill="none" stroke-width="1.6"/>',
    "stealth_pawn": '<path d="M12 1h8M12 4h8M12 7h8" stroke-width="1.2"/>',
    "xxx_pawn": '<path d="M13 1l6 6M19 1l-6 6" stroke-width="2"/>',
    "sam_torpedo_pawn": '<path d="M13 4l3-3 3 3M13 6l3 3 3-3" fill="none" stroke-width="1.6"/>',
}
for kind, mark in PAWN_MARKS.items():
    PIECES[kind] = PAWN + mark

ARTICLES = {
    "flamer": FLAME,
    "stunner": BOLT,
    "conversion": RING,
    "rocket_launcher": ROCKET,
    "sam_launcher": UP,
    "torpedo_launcher": DOWN,
    "stealth": EYE,
    "anti_stealth": SHIELD + '<circle cx="10" cy="9" r="2.5"/>',
    "bike": '<circle cx="5" cy="14" r="3.5" fill="none" stroke-width="2"/><circle cx="15" cy="14" r="3.5" fill="none" stroke-width="2"/><path d="M5 14 9 7h5l1 7M8 5h3" fill="none" stroke-width="1.6"/>',
    "jump_pack": '<rect x="6" y="4" width="8" height="10" rx="2"/><path d="M7 14l-2 5M13 14l2 5" stroke-width="2"/><path d="M10 0 7 3h6z"/>',
    "scuba": '<rect x="3" y="5" width="14" height="8" rx="3" fill="none" stroke-width="2"/><path d="M1 17c3-2 6 2 9 0s6 2 9 0" fill="none" stroke-width="1.6"/>',
    "xxx": '<rect x="2" y="2" width="16" height="16" fill="none" stroke-width="2"/>' + XMARK,
}
for weapon in ("flamer", "stunner", "conversion", "rocket", "sam", "torpedo"):
    inner = {"flamer": FLAME, "stunner": BOLT, "conversion": RING, "rocket": ROCKET, "sam": UP, "torpedo": DOWN}[weapon]
    # An Anti: a shield outline around a small copy of the weapon's emblem.
    ARTICLES[f"anti_{weapon}"] = SHIELD + f'<g transform="translate(5 4) scale(.5)">{inner}</g>'


def _symbol(prefix: str, kind: str, body: str) -> str:
    return (
        f'<symbol id="{prefix}-{kind}" viewBox="0 0 20 20" fill="currentColor" stroke="currentColor" '
        f'stroke-width="0">{body}</symbol>'
    )


SPRITE = mark_safe(
    '<svg xmlns="http://www.w3.org/2000/svg" class="icon-sprite" aria-hidden="true" focusable="false">'
    + "".join(_symbol("p", k, b) for k, b in PIECES.items())
    + "".join(_symbol("a", k, b) for k, b in ARTICLES.items())
    + "</svg>"
)


def _use(prefix: str, kind: str, table: dict, cls: str):
    if kind not in table:
        return ""
    return format_html(
        '<svg class="{}" aria-hidden="true" focusable="false" viewBox="0 0 20 20"><use href="#{}-{}"></use></svg>',
        cls, prefix, kind,
    )


def piece_icon(kind):
    return _use("p", kind, PIECES, "ic")


def article_icon(kind):
    return _use("a", kind, ARTICLES, "ic ic-art")
