"""Reads of the Wec package: a player's Move targets from a place (the
board's move options), the spectators' public view, the true board of a
review or the sandbox, and the scenarios the board editor, the sandbox and a
new game start from."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from games.engines import get_engine
from games.models import Game, Scenario
from games.rules import wec as rules
from games.selectors import is_review, legal_actions, load_state
from games.store.action_log import turn_ends

from .scenario_text import SHIPPED, shipped_document
from .words import action_name, level_name, piece_name

logger = logging.getLogger(__name__)

#: The Levels of a Square, bottom to top.
LEVELS = ("ground", "air", "sub")


def scenario_document(source: str, user) -> tuple[str, dict] | None:
    """(name, document) of `source`: "shipped:<key>" or "id:<n>" (own or public)."""
    kind, _sep, key = (source or "").partition(":")
    if kind == "shipped" and key in SHIPPED:
        return str(SHIPPED[key].title), shipped_document(key)
    # ASCII digits only: str.isdigit() also takes "²", which int() refuses.
    if kind == "id" and key.isascii() and key.isdigit() and len(key) <= 18:
        scenario = Scenario.objects.filter(pk=int(key)).first()
        if scenario and (scenario.public or (user.is_authenticated and scenario.owner_id == user.pk)):
            return scenario.name, scenario.document
    return None


# --- the board's Move targets -------------------------------------------------------


@dataclass
class Choice:
    action: dict
    label: str
    short: str = ""  # a compact text for small buttons (the label stays their accessible name)
    confirm: str = ""  # a question the page asks before sending it (e.g. it may hit an own piece)

    @property
    def action_json(self) -> str:
        return json.dumps(self.action, separators=(",", ":"))


@dataclass
class MoveOptions:
    """Board targets from one place: Moves (kind "move"), or in the action
    panel's board modes directional Fires ("aim") or Transport destinations ("dest")."""

    origin: tuple[int, int, str]
    targets: dict[tuple[int, int, str], list[Choice]] = field(default_factory=dict)
    kind: str = "move"


def _piece_names(view: dict) -> dict:
    return {p["id"]: piece_name(p["type"]) for p in view.get("pieces", []) if p.get("id") is not None}


def describe_action(action: dict, names: dict | None = None) -> str:
    """A short, translated label for one action (used where several actions share a target)."""
    names = names or {}
    parts = []
    piece = action.get("piece")
    if piece is not None and piece in names:
        parts.append(names[piece])
    kind = action.get("type")
    if kind == "move":
        to = action.get("to") or ["?", "?", "?"]
        # The level by its translated name, never the engine's word ("ground").
        parts.append(
            _("move to %(row)s,%(col)s (%(level)s)") % {"row": to[0], "col": to[1], "level": level_name(to[2])}
        )
    elif kind == "end_turn":
        parts.append(_("end turn"))
    else:
        # Only Moves reach here today (move_options); any other kind by a
        # translated name rather than the engine's word.
        parts.append(str(action_name(kind)))
    if action.get("carry"):
        parts.append(_("carrying its passenger"))
    elif kind == "move" and "carry" in action:
        parts.append(_("alone"))
    doze = action.get("doze")
    if doze:
        squares = ", ".join(f"{sq[0]},{sq[1]}" for sq in doze)
        parts.append(_("dozing %(squares)s") % {"squares": squares})
    extra = sorted(k for k in action if k not in {"type", "from", "to", "piece", "carry", "doze"})
    for key in extra:
        parts.append(f"{key}={action[key]}")
    return " · ".join(str(p) for p in parts)


def action_fingerprint(action: dict) -> str:
    """One key per distinct action: a Dozer's Move that pushes nothing is
    listed by the engine both without `doze` and with `doze: []`; the player
    sees it once."""
    if action.get("doze") == []:
        action = {k: v for k, v in action.items() if k != "doze"}
    return json.dumps(action, sort_keys=True)


def move_options(
    game: Game, color: str, row: int, col: int, level: str, state=None, view=None, legal=None
) -> MoveOptions:
    """The Moves the side `color` may make from (row, col, level), grouped by target.

    Only the side to move gets anything; the actions come from the engine's
    legal_actions (cross-checked with move_targets), which only knows what that
    side may do.  `legal` (that list, when the caller already has it) saves asking again."""
    options = MoveOptions(origin=(row, col, level))
    if game.status != Game.Status.ACTIVE or game.to_move != color:
        return options
    engine = get_engine(game.engine)
    state = load_state(game) if state is None else state
    if engine.to_move(state) != color:
        return options
    if legal is None:
        legal = legal_actions(engine, state)
    names = _piece_names(view) if view else {}
    origin = [row, col, level]
    seen = set()
    for action in legal:
        fingerprint = action_fingerprint(action)
        if fingerprint in seen:
            continue
        seen.add(fingerprint)
        if action.get("type") != "move" or list(action.get("from", [])) != origin:
            continue
        to = action.get("to")
        key = (int(to[0]), int(to[1]), str(to[2]))
        options.targets.setdefault(key, []).append(Choice(action=action, label=describe_action(action, names)))
    return options


# --- the spectators, the review and the sandbox: whole boards ------------------------


def public_view(game: Game, state) -> dict:
    """What both players know that both know, for spectators of a running game.

    The engine's `public_view` derives it from one side's view; it is taken
    from each side's view of the position at the start of the Turn in
    progress (mid-Turn, the mover's newly launched projectiles are in its own
    view only) and shown only when the two agree, so the page is a function of
    Black's view history alone and of White's alone: a player who watches
    their own game learns nothing (docs/rulings.md, "What a spectator sees")."""
    if rules.actions_this_turn(state):
        # The Turn's start is the last end_turn still in effect (a friendly
        # game's take-backs add log rows, so counting back from seq is wrong).
        ends = turn_ends(game, last=1)
        state = load_state(game, upto=ends[-1][0] if ends else 0)
    boards = [rules.public_view(rules.view(state, color)) for color in ("black", "white")]
    if boards[0] != boards[1]:
        # Only an engine bug gets here; the page then shows no pieces at all.
        logger.error("game %s: the two public views disagree", game.pk)
        return {**boards[0], "pieces": [], "projectiles": [], "reinforcements": []}
    return boards[0]


def full_view(game: Game, state) -> dict:
    """The true board, for review of an ended game only (see `true_board`)."""
    if not is_review(game):
        raise PermissionError("the true board is shown only once the game has ended")
    return true_board(get_engine(game.engine), state)


def true_board(engine, state) -> dict:
    """Everything on the board: each side's own pieces, projectiles and
    reinforcements from that side's own view (every piece is seen by its
    owner), the Articles on the ground, no markers.  Only for an ended game's
    review and for the sandbox, where one person plays both sides."""
    return full_view_of({color: engine.view(state, color) for color in ("black", "white")})


def full_view_of(views: dict) -> dict:
    """The true board from both sides' own views (see `true_board`)."""
    out = dict(views["black"])
    out["color"] = None
    out["turn"] = {}
    out["markers"] = []
    for key in ("pieces", "projectiles", "reinforcements"):
        out[key] = [item for color, v in views.items() for item in v.get(key, []) or [] if item.get("color") == color]
    out["pieces"].sort(key=lambda p: (p.get("row"), p.get("col"), p.get("level", "ground"), p.get("color")))
    return out
