"""The Marshal and Spy site package (see games/registry.py, ``GameUI``):
the board and setup screen view-models, the spectators' board, the review,
and the game's hooks for the shared services and views.

Everything shown to a player comes from ``view(state, colour)`` of that
player's colour (and, on its own turn, its own legal moves); spectators get
what both players' views agree on; the true board only once the game is over.
"""

from __future__ import annotations

import json
import secrets
from types import SimpleNamespace

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import selectors
from games.engines import get_engine
from games.engines import marshal as marshal_engine
from games.forms import ActionError
from games.models import Game, other_color
from games.rules import marshal as rules
from games.rules.marshal.constants import ARMY
from games.services.errors import IllegalMove, MalformedAction

from . import favourites
from . import options as OPTIONS  # noqa: N812 (the package's options form, as GameUI names it)
from .board import board_size, build_board, known_to_enemy, lost_summary, parse_square, square_key, turn_hint
from .refusals import translate
from .review import replay_state
from .words import PIECE_MARKS, line_words, piece_name, reason_name

NAME = "marshal"
LABEL = gettext_lazy("Marshal and Spy")
BOARD_TEMPLATE = "games/marshal/board.html"
WATCH_TEMPLATE = "games/marshal/watch_board.html"
REPLAY_TEMPLATE = "games/marshal/replay.html"
NOTATION_LABEL = gettext_lazy("Marshal notation")
EXPORT_EXTENSION = "txt"
RECORD_NUMBERED = True  # its notation lines start with the turn number
SPRITE_TEMPLATE = ""  # the tokens draw their own icons (token.html)
SCRIPT = "js/marshal_setup.js"
STYLESHEET = "css/marshal.css"
OPTIONS_PREFIX = OPTIONS.PREFIX
NAV_LINKS = ()  # no pages of its own in the site's menu
# No "changed since you last looked" highlight: the signature members below
# are never called (GameUI.SINCE_LAST).
SINCE_LAST = False
# No open record: the engine censors every running game (friendly ones too).
OPEN_RECORD = False


def engine_options(options: dict) -> dict:
    return marshal_engine.engine_options(options)


def plain_words(line: str, color: str) -> str:
    """A notation line in words, the same for both readers (squares by
    number), in the reader's language."""
    return line_words(line)


def render_board(context: dict) -> str:
    """The board partial, through its template."""
    return render_to_string(BOARD_TEMPLATE, context)


def view_signature(view: dict, owner: tuple | None = None, scratch: dict | None = None) -> str:
    return ""


def signature_changes(before: str, after: str) -> list[list[int]]:
    return []


def since_last_text(squares: list) -> str:
    return ""


def carry_ends(game, color: str, version: int, seq: int, kind: str | None, actor: str) -> None:
    """Nothing is kept per view version."""


def board_params(data) -> dict:
    return {"sel": parse_square(data.get("sel"))}


def kept_selection(action: dict):
    """After a move the piece has moved: nothing stays selected."""
    return None


def actor(engine, state, color: str) -> bool:
    return engine.to_move(state) == color


def action_from_fields(data) -> dict:
    """Marshal's pages post every action as JSON (`action`): a form of
    separate fields is not an action."""
    raise ActionError(_("That is not a valid action."))


def after_settle(game, views: dict) -> None:
    """Nothing to keep: the board shows no highlights built from old views."""


def ai_action(engine, state, level: str, rng, memo: dict, think_seconds: float) -> dict | None:
    """The engine's AI (one action, setup included) for the side the site
    waits for, from that side's view only; it has one level."""
    return engine.choose_action(state, rng.randrange(2**31))


def refusal(message: str) -> str:
    """An engine refusal in the reader's language (games/ui/marshal/refusals.py)."""
    return translate(message)


def accepts(engine, state, color: str, action: dict, legal: list) -> dict:
    """The logged form of a posted action.  A setup is the player's own whole
    army (any valid arrangement; the engine judges it) or "random" (the site
    draws the number and never shows it); a move is two squares, judged by
    the engine, whose refusal never names an enemy type."""
    kind = action.get("type")
    if state.phase == "setup":
        if kind != "setup":
            raise IllegalMove(_("Set up your army first."))
        if action.get("random"):
            return {"type": "setup", "color": color, "random": secrets.randbelow(2**31)}
        pieces = action.get("pieces")
        if not isinstance(pieces, list) or not all(isinstance(p, dict) for p in pieces):
            raise MalformedAction(_("That is not a valid setup."))
        clean = []
        for p in pieces:
            try:
                clean.append({"type": str(p["type"]), "row": int(p["row"]), "col": int(p["col"])})
            except (KeyError, TypeError, ValueError):
                raise MalformedAction(_("That is not a valid setup.")) from None
        return {"type": "setup", "color": color, "pieces": clean}
    if kind != "move":
        raise IllegalMove(_("That action is not allowed."))
    try:
        frm = [int(x) for x in action["from"]][:2]
        to = [int(x) for x in action["to"]][:2]
    except (KeyError, TypeError, ValueError):
        raise MalformedAction(_("That is not a valid move.")) from None
    if len(frm) != 2 or len(to) != 2:
        raise MalformedAction(_("That is not a valid move."))
    move = {"type": "move", "from": frm, "to": to}
    if move not in legal:
        # The engine's own message (it never names an enemy type).
        try:
            engine.apply(state, move)
        except ValueError as exc:
            raise IllegalMove(refusal(str(exc))) from exc
        raise IllegalMove(_("That move is not allowed."))
    return move


def _setup_context(game, seat, view, state) -> dict:
    """The setup screen: the zone, the army, the starting arrangement (the
    player's saved favourite when it fits, else the default one)."""
    rows, cols = board_size(view)
    engine = get_engine(game.engine)
    default = next(a["pieces"] for a in engine.legal_actions(state) if a.get("color") == seat.color)
    favourite = favourites.arrangement_for(seat.user, view, seat.color)
    palette = [{"type": t, "name": piece_name(t), "mark": PIECE_MARKS[t], "count": n} for t, n in ARMY.items()]
    return {
        "initial": json.dumps(favourite or default),
        "default": json.dumps(default),
        "has_favourite": favourite is not None,
        "palette": palette,
        "rows": rows,
        "cols": cols,
    }


def board_context(request, game, seat, sel=None, error=None, **_ignored) -> dict:
    engine = get_engine(game.engine)
    state = selectors.load_state(game)
    view = engine.view(state, seat.color)
    my_turn = game.status == Game.Status.ACTIVE and game.to_move == seat.color
    setting_up = view["phase"] == "setup" and not view["ready"][seat.color]
    setup = _setup_context(game, seat, view, state) if my_turn and setting_up else None
    legal = engine.legal_actions(state) if my_turn and setup is None else []
    movable = {tuple(a["from"]) for a in legal if a.get("type") == "move"}
    if sel not in movable:
        sel = None
    targets = {tuple(a["to"]) for a in legal if a.get("type") == "move" and tuple(a["from"]) == sel}
    board = build_board(view, seat.color, selected=sel, targets=targets, movable=movable, setup=setup is not None)
    return {
        **selectors.seat_board_basics(game, seat, state, view, my_turn, review_context),
        "board": board,
        "setup": setup,
        "waiting_setup": view["phase"] == "setup" and not setup,
        "turn_hint": turn_hint(view) if my_turn and setup is None else "",
        "selected": sel,
        "selected_key": square_key(sel) if sel else "",
        "sel_query": f"sel={square_key(sel)}" if sel else "",
        "error": error,
        "favourite_url": reverse("setup_favourite", args=[game.pk]),
        "lost": lost_summary(view, seat.color),
        "known": known_to_enemy(view, seat.color),
        "reason_text": reason_name((game.result or {}).get("reason", "")) if game.result else "",
    }


def full_view(game, state) -> dict:
    """The true board of an ended game (every type shows once over)."""
    if not selectors.is_review(game):
        raise PermissionError("the true board is shown only once the game has ended")
    engine = get_engine(game.engine)
    return engine.view(state, "black")


def review_context(game, seat, at=None, history=None, state=None) -> dict:
    """The ended game's replay: the true board at step `at` of the review's
    frames (selectors.replay_frames: 0 once both armies stand, then after
    each Turn, line for line with the record)."""
    if history is None:
        history = selectors.history_lines(game, selectors.load_state(game), seat.color)
    frames = selectors.replay_frames(game)
    last = len(frames) - 1
    at = last if at is None else max(0, min(int(at), last))
    view = replay_state(game, frames[at])
    return {
        "at": at,
        "last": last,
        "board": build_board(view, seat.color),
        "line": history["notation"][at - 1] if at > 0 and at - 1 < len(history["notation"]) else "",
        "plain": history["plain"][at - 1] if at > 0 and at - 1 < len(history["plain"]) else "",
        "url": reverse("game_replay", args=[game.pk]),
        "detail_url": reverse("game_detail", args=[game.pk]),
    }


def public_view(state) -> dict:
    """What neither player hides: every piece's place and colour; a type
    only where the *enemy* of its owner knows it (its owner always does)."""
    views = {c: rules.view(state, c) for c in ("black", "white")}
    pieces = []
    for color in ("black", "white"):
        for p in views[other_color(color)]["pieces"]:
            if p["color"] == color:
                pieces.append({k: p[k] for k in ("color", "type", "row", "col") if k in p})
    pieces.sort(key=lambda p: (p["row"], p["col"]))
    v = views["black"]
    return {
        "options": v["options"],
        "phase": v["phase"],
        "turn_number": v["turn_number"],
        "volcanoes": v["volcanoes"],
        "pieces": pieces if v["phase"] != "setup" else [],
        "lost": {c: views[other_color(c)]["lost"][c] for c in ("black", "white")},
    }


def watch_context(game, state, at=None) -> dict:
    players = {s.color: s.user for s in game.seats.all()}
    context = {"game": game, "players": players, "color": "black"}
    if game.status == Game.Status.FINISHED:
        review = review_context(game, SimpleNamespace(color="black"), at=at, state=state)
        review["url"] = reverse("watch_replay", args=[game.pk])
        context["review"] = review
        context["history"] = selectors.history_lines(game, state, "black")
        context["reason_text"] = reason_name((game.result or {}).get("reason", ""))
    else:
        view = public_view(state)
        board = build_board(view, "black")
        for line in board["grid"]:
            for square in line["squares"]:
                if square["piece"]:
                    square["piece"]["own"] = False
        context["board"] = board
    return context
