"""Turns an engine view (what one side knows) into template data for the board.

Only `view(game, color)` goes in, so nothing the player may not know can come out."""

from __future__ import annotations

import marshal
import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .grid import LanguageMemos
from .selectors import LEVELS, MoveOptions
from .words import article_name, level_name

# Top to bottom inside a square.
BAND_ORDER = ("air", "ground", "sub")

# Directions as the player sees them on the screen: (up, right) steps.
DIRECTIONS = {
    (1, 0): ("\u2191", gettext_lazy("north")),
    (1, 1): ("\u2197", gettext_lazy("north-east")),
    (0, 1): ("\u2192", gettext_lazy("east")),
    (-1, 1): ("\u2198", gettext_lazy("south-east")),
    (-1, 0): ("\u2193", gettext_lazy("south")),
    (-1, -1): ("\u2199", gettext_lazy("south-west")),
    (0, -1): ("\u2190", gettext_lazy("west")),
    (1, -1): ("\u2196", gettext_lazy("north-west")),
}
PROJECTILES = {
    "rocket": ("R", gettext_lazy("Rocket")),
    "sam": ("S", gettext_lazy("SAM")),
    "torpedo": ("T", gettext_lazy("Torpedo")),
}


def screen_direction(direction, color: str) -> tuple[int, int]:
    """A board direction [row step, col step] as (up, right) on the player's screen.

    Black sees row 10 at the top and column 1 at the left; White's board is
    turned 180 degrees, so for White up is -row and right is -col.  Either way
    up is the player's forward."""
    sign = 1 if color == "black" else -1
    return (int(direction[0]) * sign, int(direction[1]) * sign)


# The engine's plain-English record names compass directions from Black's side
# (north = towards row 10).  White's board is turned 180 degrees, so for a
# White viewer each word becomes its opposite; then the record says what the
# buttons said when the action was chosen.
_TURNED = {
    "north": "south", "south": "north", "east": "west", "west": "east",
    "north-east": "south-west", "south-west": "north-east",
    "north-west": "south-east", "south-east": "north-west",
}
_COMPASS_WORD = re.compile(r"\b(north-east|north-west|south-east|south-west|north|south|east|west)\b")


def viewer_words(text: str, color: str | None) -> str:
    """A plain-English record line with its direction words as `color` sees the board."""
    if color != "white":
        return text
    return _COMPASS_WORD.sub(lambda m: _TURNED[m.group(1)], text)


def direction_arrow(screen) -> str:
    return DIRECTIONS.get(tuple(screen), ("?", ""))[0]


def direction_name(screen) -> str:
    return str(DIRECTIONS.get(tuple(screen), ("", "?"))[1])


def level_suffix(level: str) -> str:
    return "" if level in ("ground", None) else f" {level_name(level)}"


def _piece_badges(piece: dict, own: bool) -> list[dict]:
    """Small counters on a token: stun (anyone's, as seen), cooldowns and Transport (own only)."""
    badges = []
    stun = int(piece.get("stun") or 0)
    if stun > 0:
        badges.append({"cls": "b-stun", "text": f"\u26a1{stun}",
                       "title": _("Stunned: %(n)s more turn(s)") % {"n": stun}})
    if own:
        counters = [(w, int(n)) for w, n in sorted((piece.get("cooldowns") or {}).items()) if int(n or 0) > 0]
        if counters:
            parts = ", ".join(f"{article_name(w)} {n}" for w, n in counters)
            badges.append({"cls": "b-cd", "text": "/".join(str(n) for _w, n in counters),
                           "title": _("Cooling down (turns until it fires again): %(list)s") % {"list": parts}})
        transport = piece.get("transport")
        if isinstance(transport, dict) and transport.get("to"):
            to = transport["to"]
            badges.append({"cls": "b-tr", "text": "\u27a4", "title": _("On its way by %(article)s to (%(row)s,%(col)s%(level)s)") % {
                "article": article_name(transport.get("article")), "row": to[0], "col": to[1],
                "level": level_suffix(to[2] if len(to) > 2 else "ground")}})
    return badges


def _projectile(proj: dict, color: str) -> dict:
    kind = proj.get("kind") or proj.get("type") or ""
    letter, name = PROJECTILES.get(kind, ("\u2736", gettext_lazy("Projectile")))
    own = proj.get("color") == color if proj.get("color") else "direction" in proj
    arrow = ""
    title = (_("Your %(kind)s") if own else _("Enemy %(kind)s")) % {"kind": name}
    direction = proj.get("direction")
    if isinstance(direction, (list, tuple)) and len(direction) == 2 and any(direction):
        screen = screen_direction(direction, color)
        arrow = direction_arrow(screen)
        words = {"kind": name, "arrow": arrow, "direction": direction_name(screen)}
        title = (_("Your %(kind)s, flying %(arrow)s %(direction)s") if own
                 else _("Enemy %(kind)s, flying %(arrow)s %(direction)s")) % words
    target = proj.get("target")
    if own and isinstance(target, (list, tuple)) and len(target) == 3:
        title = _("%(title)s, homing on (%(row)s,%(col)s%(level)s)") % {
            "title": title, "row": target[0], "col": target[1], "level": level_suffix(target[2])}
    return {"glyph": f"{letter}{arrow}", "title": title, "own": own, "kind": kind}


def parse_place(text: str | None):
    """'r-c-level' -> (r, c, level) or None."""
    if not text:
        return None
    try:
        row, col, level = text.split("-", 2)
        row, col = int(row), int(col)
    except ValueError:
        return None
    if not (1 <= row <= 10 and 1 <= col <= 10) or level not in LEVELS:
        return None
    return (row, col, level)


def place_key(place) -> str:
    return f"{place[0]}-{place[1]}-{place[2]}"


# Per colour: the rows and columns in screen order and each Square's fixed
# parts (row, col, dark, its three places' keys), worked out once.
_LAYOUT: dict[str, tuple] = {}


def _layout(color: str) -> tuple:
    out = _LAYOUT.get(color)
    if out is None:
        rows = list(range(10, 0, -1)) if color == "black" else list(range(1, 11))
        cols = list(range(1, 11)) if color == "black" else list(range(10, 0, -1))
        squares = [
            [(r, c, (r + c) % 2 == 0, tuple((level, (r, c, level), place_key((r, c, level))) for level in BAND_ORDER))
             for c in cols]
            for r in rows
        ]
        out = _LAYOUT[color] = (rows, cols, squares)
    return out


def _square_data(raw: dict | None, color: str) -> dict:
    """A Square's items as the board shows them, from its raw view items."""
    data = {"pieces": {lvl: [] for lvl in LEVELS}, "articles": [], "markers": [], "projectiles": [], "reinf": []}
    if raw is None:
        return data
    for piece in raw["pieces"]:
        level = piece.get("level", "ground")
        entry = dict(piece)
        entry["own"] = piece.get("color") == color
        entry["badges"] = _piece_badges(piece, entry["own"])
        data["pieces"].setdefault(level, []).append(entry)
    data["articles"] = list(raw["articles"])
    data["markers"] = list(raw["markers"])
    for proj in raw["projectiles"]:
        shown = _projectile(proj, color)
        shown["level"] = proj.get("level") if proj.get("level") in LEVELS else "ground"
        data["projectiles"].append(shown)
    data["reinf"] = list(raw["reinf"])
    return data


def _build_square(r, c, dark, places, data: dict, can_select: bool, origin, targets) -> dict:
    pieces_at, projectiles = data["pieces"], data["projectiles"]
    bands = []
    for level, place, key in places:
        pieces = pieces_at.get(level, [])
        choices = targets.get(place, []) if targets else []
        bands.append(
            {
                "level": level,
                "pieces": pieces,
                "key": key,
                "selectable": can_select and any(p["own"] for p in pieces),
                "selected": origin == place,
                "choices": choices,
                "single": choices[0] if len(choices) == 1 else None,
                "projectiles": [p for p in projectiles if p["level"] == level] if projectiles else [],
            }
        )
    return {
        "row": r,
        "col": c,
        "dark": dark,
        "bands": bands,
        "articles": data["articles"],
        "markers": data["markers"],
        "reinf": data["reinf"],
        "is_target": bool(targets) and any(b["choices"] for b in bands),
    }


def _raw_key(raw: dict):
    """A Square's raw view items as a key: their marshal (format 2: no
    references between objects and no interning marks, so equal data gives
    equal bytes whatever objects hold it, and unequal data unequal bytes),
    ~4x faster than their repr, which was a third of build_board; the repr
    for anything marshal does not take (a made-up view)."""
    try:
        return marshal.dumps(raw, 2)
    except ValueError:
        return repr(raw)


def build_board(view: dict, color: str, options: MoveOptions | None = None, can_select: bool = False,
                memo: dict | None = None, keys: dict | None = None):
    """The board's view-model (template data) of `view` as `color` sees it.

    `memo` (the live board's: one player's, in one language, see
    `square_memo`): a Square that is no target and holds no selection is
    taken from it when its raw view items are the same as when it was built
    (a shallow copy: the caller sets its highlight flags), with its raw key
    as `memo_key`, which the grid (grid.py) uses as the key of its HTML; an
    action changes a few Squares, and only those are built again.

    `keys` (a dict, with `memo` and no `options`) is filled with each
    Square's (row, col) -> its raw items' marshal, for every Square that
    holds anything, when every piece, Article, marker and projectile of
    the view is on one of the board's Squares (so these Squares are
    exactly what highlights.squares_of groups); else it is left empty."""
    rows, cols, layout = _layout(color)
    skipped = 0  # items not put on any Square
    by_square: dict[tuple[int, int], dict] = {}
    get = by_square.get
    own_squares = set()  # the Squares holding one of `color`'s pieces

    def square(r, c):
        raw = by_square[(r, c)] = {"pieces": [], "articles": [], "markers": [], "projectiles": [], "reinf": []}
        return raw

    for piece in view.get("pieces", []):
        r, c = piece.get("row"), piece.get("col")
        if r is None or c is None:
            skipped += 1
            continue
        raw = get((r, c)) or square(r, c)
        raw["pieces"].append(piece)
        if piece.get("color") == color:
            own_squares.add((r, c))
    for article in view.get("articles", []):
        if article.get("row") is not None:
            r, c = article["row"], article["col"]
            (get((r, c)) or square(r, c))["articles"].append(article)
        else:
            skipped += 1
    for marker in view.get("markers", []) or []:
        if isinstance(marker, dict) and marker.get("row") is not None:
            r, c = marker["row"], marker["col"]
            (get((r, c)) or square(r, c))["markers"].append(marker)
        else:
            skipped += 1
    for proj in view.get("projectiles", []) or []:
        if isinstance(proj, dict) and proj.get("row") is not None and proj.get("col") is not None:
            r, c = proj["row"], proj["col"]
            (get((r, c)) or square(r, c))["projectiles"].append(proj)
        else:
            skipped += 1
    for waiting in view.get("reinforcements", []) or []:
        if isinstance(waiting, dict) and waiting.get("row") is not None:
            r, c = waiting["row"], waiting["col"]
            (get((r, c)) or square(r, c))["reinf"].append(waiting)

    origin = options.origin if options else None
    targets = options.targets if options else {}
    # With no selection no Square is a target or holds one: every Square may
    # come from the memo.
    every = memo is not None and options is None
    keyed = keys if every and not skipped else None
    grid = []
    for r, line_layout in zip(rows, layout, strict=True):
        line = []
        for _r, c, dark, places in line_layout:
            raw = get((r, c))
            if every or memo is not None and (
                not any(place == origin or place in targets for _lv, place, _k in places)
            ):
                # The raw items' text is their identity: the same text, the
                # same Square (every item is plain view data).
                # can_select matters only to a Square holding an own piece.
                if raw is None:
                    key = (r, c, color, False, "")
                else:
                    key = (r, c, color, can_select and (r, c) in own_squares, _raw_key(raw))
                    if keyed is not None:
                        keyed[(r, c)] = key[4]
                proto = memo.get(key)
                if proto is None:
                    proto = _build_square(r, c, dark, places, _square_data(raw, color), can_select, origin, targets)
                    proto["memo_key"] = key
                    if len(memo) > SQUARE_MEMO_LIMIT:
                        memo.clear()
                    memo[key] = proto
                line.append(proto.copy())
                continue
            line.append(_build_square(r, c, dark, places, _square_data(raw, color), can_select, origin, targets))
        grid.append({"row": r, "squares": line})
    if keyed and (len(keyed) != len(by_square) or any(k.__class__ is not bytes for k in keyed.values())):
        keyed.clear()  # an item off the board, or a Square's items that marshal does not take
    return {"grid": grid, "cols": list(cols), "rows": list(rows), "mode": options.kind if options else "move"}


SQUARE_MEMO_LIMIT = 600  # Squares kept per player and language (a board has 100)
_SQUARE_MEMOS = LanguageMemos(32, dict)  # players' boards whose Squares a process keeps


def square_memo(owner) -> dict:
    """The Squares built for `owner` (game id, game created, colour) in the
    active language (projectile and badge titles are translated), per player
    as the grid (grid.py) keeps its HTML."""
    return _SQUARE_MEMOS.get(owner)
