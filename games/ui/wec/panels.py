"""Turns one player's `legal_actions` and `view` into the game page's panels:
the action panel of a selected piece, the turn panel, and the board targets of
the "aim" (orange, directional Fires) and "destination" (Transports) modes,
and the sandbox's list of actions.

Only the player's own `view(game, color)` and `legal_actions` (which the engine
judges from that side's knowledge) go in; nothing here sees the true game.
Enemy pieces are named from `view` by place only: they carry no id there, and
the actions of `legal_actions` only ever name own piece ids."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import (
    gettext_lazy,
    gettext_noop,  # marks a msgid for makemessages
)

from .board import direction_arrow, direction_name, level_suffix, place_key, screen_direction
from .grid import Catalogue, LanguageMemos
from .selectors import Choice, MoveOptions, action_fingerprint
from .words import article_name, piece_name

TRANSPORT_WEAPONS = ("bike", "jump_pack", "scuba")
PATHS = ("beeline", "port", "starboard")
PATH_NAMES = {
    "beeline": gettext_lazy("beeline"),
    "port": gettext_lazy("port"),
    "starboard": gettext_lazy("starboard"),
}
PATH_HINTS = {
    "beeline": gettext_lazy("beeline — closest to the straight line"),
    "port": gettext_lazy("port — bending to the left"),
    "starboard": gettext_lazy("starboard — bending to the right"),
}
MAX_FIRES = 2


def weapon_name(weapon: str) -> str:
    if weapon == "jet_rocket":
        return str(_("Restricted rocket"))
    return str(article_name(weapon))


# The help page's entry of each weapon (templates/games/wec/help.html): the Jet's
# and the Sub's own short-range Rocket is no Article, so it is told about in
# the entry of the piece that carries it.
def weapon_help(weapon: str, piece_kind: str = "") -> str:
    """The /help/ anchor (without '#') that explains `weapon`."""
    if weapon == "jet_rocket":
        return f"piece-{piece_kind or 'jet'}"
    return f"article-{weapon}"


def path_name(path: str) -> str:
    return str(PATH_NAMES.get(path, path))


def place_label(place) -> str:
    """'(r,c)' at ground, '(r,c air)' / '(r,c sub)' elsewhere; '(r,c)' for a Square."""
    row, col = place[0], place[1]
    level = place[2] if len(place) > 2 else "ground"
    return f"({row},{col}{level_suffix(level)})"


def _unique(legal: list[dict]):
    """The actions once each (in case the engine lists one twice)."""
    seen = set()
    for action in legal:
        fingerprint = action_fingerprint(action)
        if fingerprint not in seen:
            seen.add(fingerprint)
            yield action


def _same_place(a, b) -> bool:
    return a is not None and b is not None and [int(a[0]), int(a[1]), str(a[2])] == [int(b[0]), int(b[1]), str(b[2])]


class _Names:
    """Names of pieces as the player knows them: own ones by id, anyone by place."""

    def __init__(self, view: dict, color: str):
        self.color = color
        self.view = view
        self.by_id = {}
        self.by_place: dict[tuple, list[dict]] = {}
        for p in view.get("pieces", []) or []:
            if p.get("color") == color and p.get("id") is not None:
                self.by_id[p["id"]] = p
            key = (p.get("row"), p.get("col"), p.get("level", "ground"))
            self.by_place.setdefault(key, []).append(p)

    def own(self, piece_id, place=None) -> str:
        p = self.by_id.get(piece_id)
        if p is None and place is not None:
            mine = [q for q in self.by_place.get(tuple(place), []) if q.get("color") == self.color]
            p = mine[0] if len(mine) == 1 else None
        return str(piece_name(p["type"])) if p else _("piece")

    def own_at(self, place) -> str:
        """'Tank, Jet': the player's own pieces at a place."""
        return ", ".join(
            str(piece_name(p["type"])) for p in self.by_place.get(tuple(place), []) if p.get("color") == self.color
        )

    def at(self, place) -> str:
        """'enemy Jet' / 'your Tank' for what the player sees at a place."""
        words = []
        for p in self.by_place.get((place[0], place[1], place[2]), []):
            if p.get("color") == self.color:
                words.append(_("your %(piece)s") % {"piece": piece_name(p["type"])})
            else:
                words.append(_("enemy %(piece)s") % {"piece": piece_name(p["type"])})
        return ", ".join(words) if words else _("the square")


# The level a directional Fire's shot travels at: projectiles at their own
# level, the direct weapons (Flamer, Stunner) at the firer's level.
SHOT_LEVEL = {"rocket_launcher": "ground", "sam_launcher": "air", "torpedo_launcher": "sub"}


def own_in_line_of_fire(action: dict, view: dict, color: str) -> list[tuple]:
    """The places of the player's own pieces that a Fire may hit, as the player
    sees the board: every own ground piece on a restricted Rocket's target
    place; for a directional Fire, own pieces on the shot's level up to and
    including the first Square where the player sees any piece (a Flamer or
    Stunner within its range).  Empty for Transports and enemy-only weapons."""
    if action.get("type") != "fire" or "to" in action:
        return []
    weapon = action.get("weapon", "")
    frm = action.get("from") or []
    if len(frm) != 3:
        return []
    by_place: dict[tuple, list[dict]] = {}
    for p in view.get("pieces", []) or []:
        by_place.setdefault((p.get("row"), p.get("col"), p.get("level", "ground")), []).append(p)
    if "target" in action:
        if weapon != "jet_rocket":
            return []  # homing SAMs and Torpedoes only lock on to enemies
        t = action["target"]
        place = (int(t[0]), int(t[1]), "ground")
        return [place] if any(p.get("color") == color for p in by_place.get(place, [])) else []
    direction = action.get("direction")
    if weapon == "conversion" or not direction:
        return []  # a Conversion only changes enemies' sides
    level = SHOT_LEVEL.get(weapon, str(frm[2]))
    opts = view.get("options") or {}
    reach = {"flamer": int(opts.get("flamer_range") or 2), "stunner": int(opts.get("stunner_range") or 9)}.get(weapon, 9)
    row, col = int(frm[0]), int(frm[1])
    hits = []
    for _step in range(reach):
        row, col = row + int(direction[0]), col + int(direction[1])
        if not (1 <= row <= 10 and 1 <= col <= 10):
            break
        here = by_place.get((row, col, level), [])
        if any(p.get("color") == color for p in here):
            hits.append((row, col, level))
        if here and weapon not in ("flamer",):
            break  # a projectile or a Stunner stops at the first piece
    return hits


def describe(action: dict, names: _Names, color: str) -> Choice:
    """A Choice with a plain-words label (and a short one where a compact button shows it)."""
    kind = action.get("type")
    short = ""
    if kind == "fire":
        weapon = action.get("weapon", "")
        wname = weapon_name(weapon)
        if "direction" in action:
            screen = screen_direction(action["direction"], color)
            short = f"{direction_arrow(screen)} {direction_name(screen)}"
            label = _("Fire %(weapon)s %(direction)s") % {"weapon": wname, "direction": short}
        elif "target" in action:
            target = action["target"]
            label = _("Fire %(weapon)s at %(what)s %(place)s") % {
                "weapon": wname, "what": names.at(target), "place": place_label(target),
            }
        elif "to" in action:
            path = action.get("path", "beeline")
            short = f"{place_label(action['to'])} {path_name(path)}"
            label = _("%(article)s to %(place)s %(path)s") % {
                "article": wname, "place": place_label(action["to"]), "path": path_name(path),
            }
        else:
            label = _("Fire %(weapon)s") % {"weapon": wname}
    elif kind == "pickup":
        label = _("Pick up %(article)s") % {"article": article_name(action.get("article"))}
    elif kind == "drop":
        label = _("Drop %(article)s") % {"article": article_name(action.get("article"))}
    elif kind == "exchange":
        other = names.own(action.get("to_piece"), action.get("to"))
        if action.get("swap"):
            label = _("Swap %(article)s for %(other_article)s with %(piece)s %(place)s") % {
                "article": article_name(action.get("article")),
                "other_article": article_name(action["swap"]),
                "piece": other,
                "place": place_label(action.get("to")),
            }
        else:
            label = _("Give %(article)s to %(piece)s %(place)s") % {
                "article": article_name(action.get("article")), "piece": other, "place": place_label(action.get("to")),
            }
    elif kind == "reinforce":
        label = _("Bring in %(piece)s at %(place)s") % {
            "piece": piece_name(action.get("piece_type")), "place": place_label(action.get("to") or ["?", "?"]),
        }
    elif kind == "end_turn":
        label = _("End turn")
    else:
        label = str(kind)
    confirm = ""
    if kind == "fire":
        own = own_in_line_of_fire(action, names.view, color)
        if own:
            confirm = _("%(action)s: this may hit your own %(pieces)s. Fire anyway?") % {
                "action": label, "pieces": "; ".join(f"{names.own_at(pl)} {place_label(pl)}" for pl in own),
            }
    return Choice(action=action, label=str(label), short=str(short), confirm=str(confirm))


# --- the action panel -------------------------------------------------------------------
@dataclass
class Compass:
    """The directional Fires of one weapon, laid out as the player sees the board."""

    weapon: str
    label: str
    cells: list  # 3 rows of 3: Choice, None (no Fire that way) or "self" (the piece)
    help: str = ""  # its /help/ anchor


@dataclass
class TargetGroup:
    """The Fires of one weapon at chosen targets (homing, restricted Rocket)."""

    weapon: str
    label: str
    help: str
    choices: list = field(default_factory=list)


@dataclass
class TransportGroup:
    weapon: str
    label: str
    count: int
    destinations: list  # [(key, label)]
    paths: list  # [(value, label)]
    help: str = ""  # its /help/ anchor: the Article's entry


@dataclass
class PieceActions:
    id: int | None
    label: str
    kind: str = ""  # the piece type, for its Rules & Help entry
    compasses: list = field(default_factory=list)
    targeted_groups: list = field(default_factory=list)  # TargetGroups
    transports: list = field(default_factory=list)
    pickups: list = field(default_factory=list)
    drops: list = field(default_factory=list)
    gives: list = field(default_factory=list)
    swaps: list = field(default_factory=list)

    @property
    def targeted(self) -> list:
        return [c for g in self.targeted_groups for c in g.choices]

    @property
    def has_fires(self) -> bool:
        return bool(self.compasses or self.targeted)

    @property
    def exchanges(self) -> list:
        return self.gives + self.swaps

    @property
    def empty(self) -> bool:
        return not (self.has_fires or self.transports or self.pickups or self.drops or self.gives or self.swaps)


@dataclass
class ActionPanel:
    origin: tuple
    pieces: list

    @property
    def empty(self) -> bool:
        return all(p.empty for p in self.pieces)


# Compass rows top to bottom, columns left to right, as (up, right) screen steps.
COMPASS = [[(1, -1), (1, 0), (1, 1)], [(0, -1), None, (0, 1)], [(-1, -1), (-1, 0), (-1, 1)]]


def _compass(weapon: str, choices: dict, color: str, kind: str = "") -> Compass:
    cells = []
    for row in COMPASS:
        line = []
        for step in row:
            line.append("self" if step is None else choices.get(step))
        cells.append(line)
    return Compass(weapon=weapon, label=_("Fire %(weapon)s") % {"weapon": weapon_name(weapon)}, cells=cells,
                   help=weapon_help(weapon, kind))


def _reading_order(color: str):
    """Sort key putting places in the order the player reads the board (top-left first)."""
    sign = -1 if color == "black" else 1
    levels = {"air": 0, "ground": 1, "sub": 2}
    return lambda place: (sign * int(place[0]), sign * -int(place[1]), levels.get(place[2], 3))


def action_panel(legal: list[dict], view: dict, color: str, origin) -> ActionPanel:
    """Every legal action other than Moves of the player's pieces at `origin`
    (r, c, level), one section per piece, grouped by kind."""
    names = _Names(view, color)
    origin = (int(origin[0]), int(origin[1]), str(origin[2]))
    own_here = [
        p for p in view.get("pieces", []) or []
        if p.get("color") == color and (p.get("row"), p.get("col"), p.get("level", "ground")) == origin
    ]
    sections: dict = {}
    for p in own_here:
        sections[p.get("id")] = PieceActions(
            id=p.get("id"), label=f"{piece_name(p['type'])} {place_label(origin)}", kind=str(p.get("type") or "")
        )
    compass_choices: dict = {}
    transports: dict = {}
    for action in _unique(legal):
        kind = action.get("type")
        if kind in ("move", "end_turn", "reinforce") or not _same_place(action.get("from"), origin):
            continue
        pid = action.get("piece")
        if pid not in sections:
            if pid is not None or len(sections) != 1:
                continue  # not one of the pieces shown here
            pid = next(iter(sections))
        section = sections[pid]
        choice = describe(action, names, color)
        if kind == "fire":
            weapon = action.get("weapon", "")
            if "direction" in action:
                screen = screen_direction(action["direction"], color)
                compass_choices.setdefault((pid, weapon), {})[screen] = choice
            elif "to" in action:
                transports.setdefault((pid, weapon), []).append(action)
            else:
                group = next((g for g in section.targeted_groups if g.weapon == weapon), None)
                if group is None:
                    group = TargetGroup(weapon=weapon, label=_("Fire %(weapon)s") % {"weapon": weapon_name(weapon)},
                                        help=weapon_help(weapon, section.kind))
                    section.targeted_groups.append(group)
                group.choices.append(choice)
        elif kind == "pickup":
            section.pickups.append(choice)
        elif kind == "drop":
            section.drops.append(choice)
        elif kind == "exchange":
            (section.swaps if action.get("swap") else section.gives).append(choice)
    for (pid, weapon), choices in compass_choices.items():
        sections[pid].compasses.append(_compass(weapon, choices, color, sections[pid].kind))
    order = _reading_order(color)
    for (pid, weapon), actions in transports.items():
        places = sorted({tuple(a["to"]) for a in actions}, key=order)
        paths = [p for p in PATHS if any(a.get("path", "beeline") == p for a in actions)]
        sections[pid].transports.append(
            TransportGroup(
                weapon=weapon,
                label=weapon_name(weapon),
                count=len(actions),
                destinations=[(place_key(pl), place_label(pl)) for pl in places],
                paths=[(p, str(PATH_HINTS[p])) for p in paths],
                help=weapon_help(weapon),
            )
        )
    return ActionPanel(origin=origin, pieces=list(sections.values()))


# --- board modes: aim (directional Fires) and destination (Transports) --------------------------
def board_targets(legal: list[dict], view: dict, color: str, origin, mode: str, weapon: str, piece=None):
    """The board targets of a mode: for "aim", the neighbouring Squares (at the
    firer's level) of each legal direction of `weapon`; for "dest", each legal
    Transport destination of `weapon` (several Choices where paths differ)."""
    names = _Names(view, color)
    origin = (int(origin[0]), int(origin[1]), str(origin[2]))
    options = MoveOptions(origin=origin, kind=mode)
    for action in _unique(legal):
        if action.get("type") != "fire" or action.get("weapon") != weapon:
            continue
        if not _same_place(action.get("from"), origin):
            continue
        if piece is not None and action.get("piece") != piece:
            continue
        if mode == "aim" and "direction" in action:
            dr, dc = action["direction"]
            key = (origin[0] + int(dr), origin[1] + int(dc), origin[2])
        elif mode == "dest" and "to" in action:
            to = action["to"]
            key = (int(to[0]), int(to[1]), str(to[2]))
        else:
            continue
        options.targets.setdefault(key, []).append(describe(action, names, color))
    return options


def choice_title(kind: str, to) -> str:
    if kind == "dest":
        return _("Which way to %(place)s?") % {"place": place_label(to)}
    if kind == "aim":
        return _("Which Fire toward %(place)s?") % {"place": place_label(to)}
    return _("How should it move to %(row)s,%(col)s?") % {"row": to[0], "col": to[1]}


# --- the turn panel ---------------------------------------------------------------------
@dataclass
class TurnPanel:
    items: list  # [{"key", "label", "done", "text"}]
    fires: int
    max_fires: int
    reinforcements: list  # Choices
    waiting: list  # own reinforcements not ready: [{"label"}]
    can_end_turn: bool
    end_turn: Choice | None


class _PanelWords(Catalogue):
    """The turn panel's fixed words in one language: each msgid and piece
    name translated once (`_panel_words`), not through `gettext` (an
    asgiref Local lookup each) on every render.  Only literal msgids and
    the names of piece types: nothing of any player's game."""

    def __init__(self):
        super().__init__()
        self._pieces: dict = {}
        self.done, self.not_yet = self.tr(gettext_noop("done")), self.tr(gettext_noop("not yet"))

    def piece(self, kind) -> str:
        """`str(piece_name(kind))`."""
        out = self._pieces.get(kind)
        if out is None:
            out = self._pieces[kind] = str(piece_name(kind))
        return out


_PANEL_WORDS = LanguageMemos(16, _PanelWords)  # per language (and catalogue object)


def _panel_words() -> _PanelWords:
    return _PANEL_WORDS.get()


def turn_panel(view: dict, legal: list[dict], color: str, words: _PanelWords | None = None) -> TurnPanel:
    """What the player has done this Turn, the ready reinforcements and End Turn.
    `words` (tests) replaces the language's kept words (`_panel_words`)."""
    w = words or _panel_words()
    names = _Names(view, color)
    turn = view.get("turn") or {}
    done, not_yet = w.done, w.not_yet
    fires = int(turn.get("fires") or 0)
    items = [
        {"key": "move", "label": w.tr(gettext_noop("Move")), "done": bool(turn.get("moved"))},
        {"key": "fires", "label": w.tr(gettext_noop("Fires")), "done": fires >= MAX_FIRES,
         "text": w.tr(gettext_noop("%(n)s/%(max)s")) % {"n": fires, "max": MAX_FIRES}},
        {"key": "pickup", "label": w.tr(gettext_noop("Pick-up")), "done": bool(turn.get("pickup"))},
        {"key": "drop", "label": w.tr(gettext_noop("Drop")), "done": bool(turn.get("drop"))},
        {"key": "exchange", "label": w.tr(gettext_noop("Exchange")), "done": bool(turn.get("exchange"))},
        {"key": "reinforce", "label": w.tr(gettext_noop("Reinforce")), "done": bool(turn.get("reinforce"))},
    ]
    for item in items:
        item.setdefault("text", done if item["done"] else not_yet)
    reinforcements = [describe(a, names, color) for a in _unique([a for a in legal if a.get("type") == "reinforce"])]
    ready_places = {(tuple(a["to"]), a.get("piece_type")) for a in legal if a.get("type") == "reinforce"}
    waiting = []
    for r in view.get("reinforcements", []) or []:
        if r.get("color") != color or not r.get("type"):
            continue
        if ((r.get("row"), r.get("col")), r.get("type")) in ready_places:
            continue
        state = w.tr(gettext_noop("ready, but not possible now")) if r.get("ready") else (
            w.tr(gettext_noop("armed: leave its square empty")) if r.get("armed")
            else w.tr(gettext_noop("waiting for a piece of yours to stand there"))
        )
        waiting.append({"label": w.tr(gettext_noop("%(piece)s at %(place)s: %(state)s")) % {
            "piece": w.piece(r["type"]), "place": place_label([r["row"], r["col"]]), "state": state}})
    end = next((a for a in legal if a.get("type") == "end_turn"), None)
    return TurnPanel(
        items=items,
        fires=fires,
        max_fires=MAX_FIRES,
        reinforcements=reinforcements,
        waiting=waiting,
        can_end_turn=end is not None,
        end_turn=describe(end, names, color) if end else None,
    )


def sandbox_choices(engine, state) -> list[tuple[str, list[tuple[int, str]]]]:
    """The side to move's legal actions in the sandbox, grouped for a select:
    [(group label, [(index into legal_actions, label)])]."""
    if engine.outcome(state):
        return []
    color = engine.to_move(state)
    view = engine.view(state, color)
    names = _Names(view, color)
    groups: dict[str, list[tuple[int, str]]] = {}
    for index, action in enumerate(engine.legal_actions(state)):
        kind = action.get("type")
        place = action.get("from")
        if kind == "move":
            label = _("%(piece)s %(from)s to %(to)s") % {
                "piece": names.own(action.get("piece"), place), "from": place_label(place), "to": place_label(action["to"]),
            }
            if action.get("doze"):
                label += " " + _("dozing %(squares)s") % {
                    "squares": " ".join(f"({r},{c})" for r, c in action["doze"])}
            extra = sorted(k for k in action if k not in ("type", "piece", "from", "to", "doze"))
            if extra:  # anything else that tells two Moves apart
                label += " [" + ", ".join(f"{k}={action[k]}" for k in extra) + "]"
            group = _("Moves")
        elif kind == "end_turn":
            label, group = _("End turn"), _("End the Turn")
        else:
            label = describe(action, names, color).label
            if place is not None:
                label = f"{names.own(action.get('piece'), place)} {place_label(place)}: {label}"
            group = {"fire": _("Fires"), "reinforce": _("Reinforcements")}.get(kind, _("Articles"))
        groups.setdefault(str(group), []).append((index, str(label)))
    return list(groups.items())
