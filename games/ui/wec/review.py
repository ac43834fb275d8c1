"""The review of an ended game: three boards per Turn (the truth, what Black
knew, what White knew), what each side learned on each Turn (the knowledge
diff), the moments a hidden enemy piece could have taken or hit a side's
primary piece on its next Turn (worked out by the engine on the true
position: `threat`), and a plot over the game of material and of pieces
hidden from each side.

Only for ended games (then everything is public to the players)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from games.engines import get_engine
from games.models import Game, GameAction
from games.selectors import load_state
from games.store.action_log import apply_entry

from .selectors import full_view_of
from .words import level_name, piece_name

PRIMARY = ("king", "dictator", "avatar", "president")
COLORS = ("black", "white")


@dataclass(frozen=True)
class Threat:
    """What the pieces hidden from a side could do to its primary piece on
    the enemy's next Turn, on the true position at a Turn's end."""

    steps: int = 99  # king steps from the nearest hidden enemy piece (99: none hidden)
    square: tuple | None = None  # that piece's Square
    takes: tuple = ()  # ((type, row, col, level), ...): hidden pieces with a Move that takes it
    hits: tuple = ()  # hidden pieces with a Fire that destroys or converts it

    @property
    def danger(self) -> bool:
        return bool(self.takes or self.hits)


@dataclass
class Frame:
    views: dict  # color -> that side's view
    truth: list  # every piece: dicts with color/type/row/col/level
    full: dict | None = None  # the true board (selectors.full_view_of the two views)
    threats: dict = field(default_factory=dict)  # color -> Threat


def _frames(game: Game, frames: list[int]) -> list[Frame]:
    """Each frame's views, replaying the log once from the start."""
    engine = get_engine(game.engine)
    state = load_state(game, upto=0)
    wanted = set(frames)
    out: dict[int, Frame] = {}

    def capture(seq):
        views = {c: engine.view(state, c) for c in COLORS}
        truth = [p for c in COLORS for p in views[c].get("pieces", []) if p.get("color") == c]
        frame = Frame(views=views, truth=truth, full=full_view_of(views))
        frame.threats = {c: threat_at(engine, state, frame, c) for c in COLORS}
        out[seq] = frame

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


def _primaries(view: dict, color: str) -> list[dict]:
    return [p for p in view.get("pieces", []) if p.get("color") == color and p.get("type") in PRIMARY]


def _enemy_to_move(engine, state, enemy: str):
    """The true position with `enemy` to move: the position itself when it is
    the enemy's Turn; else the same position handed to the enemy with a fresh
    Turn (what it could do if the other side did nothing first).  None when
    the engine cannot load it (never expected)."""
    if engine.to_move(state) == enemy:
        return state
    doc = engine.dump_scenario(state, history=False)
    doc["to_move"] = enemy
    doc.pop("turn", None)
    doc.pop("turn_log", None)
    try:
        return engine.load_scenario(doc)
    except ValueError:
        return None


def _ray_holds(action: dict, places: list[tuple]) -> bool:
    """Whether a directional Fire from `action["from"]` points along a line
    through one of `places` (row, col)."""
    frm, (dr, dc) = action["from"], action["direction"]
    r, c = frm[0], frm[1]
    for _step in range(10):
        r, c = r + dr, c + dc
        if (r, c) in places:
            return True
    return False


def _worth_trying(action: dict, places: list[tuple]) -> bool:
    """A cheap filter before asking the engine: a Move that ends next to or on
    the primary piece's Square (a Dozer's push reaches one further), a Fire
    aimed along a line through it or at a target next to it."""
    kind = action.get("type")
    if kind == "move":
        to = action.get("to") or ()
        return any(_distance(to[:2], p) <= 1 for p in places)
    if kind == "fire":
        if "direction" in action:
            return _ray_holds(action, places)
        if "target" in action:
            return any(_distance(action["target"][:2], p) <= 1 for p in places)
    return False


def threat_at(engine, state, frame: Frame, color: str) -> Threat:
    """Could a piece hidden from `color` take or hit `color`'s primary piece on
    its next Turn?  The engine itself answers, on the true position: every
    legal Move and Fire of each hidden enemy piece that could concern the
    primary piece is applied, and it counts when afterwards `color` has fewer
    primary pieces (destroyed or converted).  A projectile launched that
    Turn flies only at its end, after the enemy's Move, so it is not
    counted; neither is a stun.  The nearest hidden piece's king-step
    distance is kept as well, for the Turns with no danger."""
    enemy = "white" if color == "black" else "black"
    hidden = hidden_from(frame, color)
    primaries = _primaries(frame.views[color], color)
    places = [(p["row"], p["col"]) for p in primaries]
    if not hidden or not places:
        return Threat()
    steps, square = 99, None
    for p in hidden:
        for k in places:
            d = _distance((p["row"], p["col"]), k)
            if d < steps:
                steps, square = d, (p["row"], p["col"])
    keys = {(p["row"], p["col"], p.get("level", "ground"), p["type"]) for p in hidden}
    ids = {p["id"]: p for p in frame.views[enemy].get("pieces", [])
           if p.get("color") == enemy and p.get("id") is not None
           and (p["row"], p["col"], p.get("level", "ground"), p["type"]) in keys}
    state = _enemy_to_move(engine, state, enemy) if ids else None
    if state is None:
        return Threat(steps, square)
    takes, hits = {}, {}
    for action in engine.legal_actions(state):
        piece = ids.get(action.get("piece"))
        if piece is None or not _worth_trying(action, places):
            continue
        found = takes if action["type"] == "move" else hits
        who = (piece["type"], piece["row"], piece["col"], piece.get("level", "ground"))
        if who in found:
            continue
        try:
            after = engine.apply(state, action)
        except ValueError:
            continue
        if len(_primaries(engine.view(after, color), color)) < len(primaries):
            found[who] = True
    return Threat(steps, square, tuple(takes), tuple(hits))


def threat(frame: Frame, color: str) -> Threat:
    """The frame's Threat for `color` (computed with the frame)."""
    return frame.threats.get(color) or Threat()


def describe(t: Threat) -> str:
    """The Threat in words, for the review (translated)."""
    def where(who):
        kind, row, col, level = who
        return _("%(piece)s at (%(row)s,%(col)s%(level)s)") % {
            "piece": piece_name(kind), "row": row, "col": col,
            "level": "" if level == "ground" else " " + level_label(level)}

    if t.danger:
        parts = [_("%(who)s could take it with a Move") % {"who": where(w)} for w in t.takes]
        parts += [_("%(who)s could hit it with a Fire") % {"who": where(w)} for w in t.hits]
        return _("In danger from a hidden enemy on its next turn: %(list)s.") % {"list": "; ".join(parts)}
    if t.square is not None:
        return _("No hidden enemy could take or hit its primary piece on its next turn "
                 "(the nearest was %(n)s step(s) away).") % {"n": t.steps}
    return ""


def level_label(level: str) -> str:
    return str(level_name(level))


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
    threats = {c: [threat(f, c) for f in fs] for c in COLORS}
    nearest = {}
    for c in COLORS:
        danger = [i for i, t in enumerate(threats[c]) if t.danger]
        best = min((t.steps for t in threats[c]), default=99)
        nearest[c] = {
            # The closest calls: the Turns after which a hidden enemy could
            # have taken or hit the primary piece; else the nearest approach.
            "danger": danger,
            "distance": best,
            "frames": danger or ([i for i, t in enumerate(threats[c]) if t.steps == best] if best < 99 else []),
        }
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
