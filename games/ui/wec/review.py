"""The review of an ended game: three boards per Turn (the truth, what Black
knew, what White knew), what each side learned on each Turn (the knowledge
diff), the moments a hidden piece came nearest to the enemy's primary piece,
and a plot over the game of material and of pieces hidden from each side.

Only for ended games (then everything is public to the players)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from games.engine import get_game_engine
from games.models import Game, GameAction
from games.state_store import apply_entry

PRIMARY = ("king", "dictator", "avatar", "president")
COLORS = ("black", "white")


@dataclass
class Frame:
    views: dict  # color -> that side's view
    truth: list  # every piece: dicts with color/type/row/col/level
    full: dict | None = None  # the true board (selectors.full_view_of the two views)


def _frames(game: Game, frames: list[int]) -> list[Frame]:
    """Each frame's views, replaying the log once from the start."""
    from games.selectors import full_view_of, load_state

    engine = get_game_engine(game.engine)
    state = load_state(game, upto=0)
    wanted = set(frames)
    out: dict[int, Frame] = {}

    def capture(seq):
        views = {c: engine.view(state, c) for c in COLORS}
        truth = [p for c in COLORS for p in views[c].get("pieces", []) if p.get("color") == c]
        out[seq] = Frame(views=views, truth=truth, full=full_view_of(views))

    if 0 in wanted:
        capture(0)
    for entry in GameAction.objects.filter(game=game, seq__lte=max(frames)).order_by("seq"):
        state = apply_entry(engine, state, entry.action)
        if entry.seq in wanted:
            capture(entry.seq)
    return [out[f] for f in frames]


# An ended game never changes: each process computes a game's frames (one
# replay of the whole log) and its summary once, on the first look at its
# review, and every later step reads them from here.
_CACHE: dict[tuple, list[Frame]] = {}
_SUMMARIES: dict[tuple, dict] = {}


def _key(game: Game, frames: list[int]) -> tuple:
    return (game.pk, str(game.created), game.seq, getattr(game, "history_epoch", 0), tuple(frames))


def frames_of(game: Game, frames: list[int]) -> list[Frame]:
    key = _key(game, frames)
    if key not in _CACHE:
        if len(_CACHE) > 16:
            _CACHE.clear()
            _SUMMARIES.clear()
        _CACHE[key] = _frames(game, frames)
    return _CACHE[key]


def _enemy_seen(view: dict, color: str) -> set:
    return {(p.get("row"), p.get("col"), p.get("level", "ground"), p.get("type"))
            for p in view.get("pieces", []) if p.get("color") != color}


def hidden_from(frame: Frame, color: str) -> list[dict]:
    """The enemy pieces (of the truth) that `color` did not see."""
    seen = _enemy_seen(frame.views[color], color)
    return [p for p in frame.truth if p.get("color") != color
            and (p.get("row"), p.get("col"), p.get("level", "ground"), p.get("type")) not in seen]


def learned(prev: Frame | None, now: Frame, color: str) -> set[tuple[int, int]]:
    """Squares where `color` newly saw an enemy piece (or lost sight of one) this Turn."""
    before = _enemy_seen(prev.views[color], color) if prev else set()
    after = _enemy_seen(now.views[color], color)
    return {(r, c) for r, c, _lv, _t in before ^ after}


def _distance(a, b) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def threat(frame: Frame, color: str) -> tuple[int, tuple | None]:
    """How near a piece hidden from `color` came to `color`'s primary piece:
    (king steps, its square), or (99, None)."""
    primaries = [(p["row"], p["col"]) for p in frame.truth if p.get("color") == color and p.get("type") in PRIMARY]
    best = (99, None)
    for p in hidden_from(frame, color):
        for k in primaries:
            d = _distance((p["row"], p["col"]), k)
            if d < best[0]:
                best = (d, (p["row"], p["col"]))
    return best


def summary(game: Game, frames: list[int]) -> dict:
    """Per-frame figures for the plot and the closest calls (once per game)."""
    key = _key(game, frames)
    if key not in _SUMMARIES:
        _SUMMARIES[key] = _summary(game, frames)
    return _SUMMARIES[key]


def _summary(game: Game, frames: list[int]) -> dict:
    fs = frames_of(game, frames)
    material = {c: [sum(1 for p in f.truth if p.get("color") == c) for f in fs] for c in COLORS}
    hidden = {c: [len(hidden_from(f, c)) for f in fs] for c in COLORS}
    threats = {c: [threat(f, c)[0] for f in fs] for c in COLORS}
    nearest = {}
    for c in COLORS:
        best = min(threats[c]) if threats[c] else 99
        nearest[c] = {"distance": best, "frames": [i for i, d in enumerate(threats[c]) if d == best] if best < 99 else []}
    return {"material": material, "hidden": hidden, "threats": threats, "nearest": nearest, "n": len(fs)}


def plot(stats: dict, at: int, width: int = 320, height: int = 120) -> dict:
    """Polylines (SVG coordinates) of material and hidden counts over the game."""
    n = max(stats["n"] - 1, 1)
    top = max([1] + [v for series in (*stats["material"].values(), *stats["hidden"].values()) for v in series])

    def line(values):
        return " ".join(f"{round(i * width / n, 1)},{round(height - v * (height - 4) / top - 2, 1)}"
                        for i, v in enumerate(values))

    return {
        "width": width, "height": height, "top": top,
        "lines": [
            {"cls": "pl-mat-black", "points": line(stats["material"]["black"]), "label": _("Black material")},
            {"cls": "pl-mat-white", "points": line(stats["material"]["white"]), "label": _("White material")},
            {"cls": "pl-hid-black", "points": line(stats["hidden"]["black"]), "label": _("White pieces hidden from Black")},
            {"cls": "pl-hid-white", "points": line(stats["hidden"]["white"]), "label": _("Black pieces hidden from White")},
        ],
        "cursor": round(at * width / n, 1),
    }
