"""The Wec board page's view-model: what the board partial, the review and the
spectators' board show, built from a player's own view and legal actions only
(kept in Wec's package, so the shared views hold no Wec code)."""

from __future__ import annotations

from types import SimpleNamespace
from urllib.parse import urlencode

from django.urls import reverse

from games import selectors
from games.engines import get_engine
from games.models import Game
from games.selectors import takeback

from . import arrows, highlights, panels
from . import review as review_data
from . import selectors as wec_selectors
from .board import build_board, parse_place, place_key, square_memo

BOARD_MODES = ("aim", "dest")


def board_params(data) -> dict:
    """The board partial's selection from query (or posted) data: `sel` place,
    optional `to` (a target with several choices), `mode` ("aim" / "dest"),
    `weapon` and own `piece` id for those modes."""
    params = {"sel": parse_place(data.get("sel")), "to": parse_place(data.get("to"))}
    mode = data.get("mode")
    if mode in BOARD_MODES and data.get("weapon"):
        params["mode"] = mode
        params["weapon"] = str(data.get("weapon"))[:40]
        try:
            params["piece"] = int(data["piece"]) if data.get("piece") else None
        except ValueError:
            params["piece"] = None
    return params


def board_context(request, game, seat, sel=None, to=None, mode=None, weapon=None, piece=None, error=None):
    """Everything the board partial shows, from the player's own view and own
    legal actions only."""
    engine = get_engine(game.engine)
    state = selectors.load_state(game)
    # The answer to the player's own action: its view was computed by the
    # service (services.settle_views), with its signature when noted.
    shown = getattr(game, "actor_view", None)
    if shown is not None and (shown["color"], shown["seq"]) != (seat.color, game.seq):
        shown = None
    view = shown["view"] if shown is not None else engine.view(state, seat.color, history=False)
    my_turn = game.status == Game.Status.ACTIVE and game.to_move == seat.color
    legal = selectors.legal_actions(engine, state) if my_turn else []
    own_places = {
        (p.get("row"), p.get("col"), p.get("level", "ground"))
        for p in view.get("pieces", []) if p.get("color") == seat.color
    }
    if sel is not None and (not my_turn or sel not in own_places):
        sel = None
    options = panel = None
    if sel is not None:
        if mode in BOARD_MODES:
            options = panels.board_targets(legal, view, seat.color, sel, mode, weapon, piece)
        if not options or not options.targets:
            mode = None
            options = wec_selectors.move_options(game, seat.color, *sel, state=state, view=view, legal=legal)
        panel = panels.action_panel(legal, view, seat.color, sel)
    owner = (game.pk, str(game.created), seat.color)  # the player: their memos
    keys: dict = {}  # each Square's raw items' key, when build_board can tell them
    board = build_board(view, seat.color, options=options, can_select=my_turn,
                        memo=square_memo(owner), keys=keys)
    # What the view shows on each Square, made once for the highlights and
    # the signature (the service made it with the actor's signature).
    now = shown.get("squares") if shown is not None else None
    signature = shown.get("signature") if shown is not None else None
    if now is None:
        if keys:  # the player's Squares seen before, from their memo
            now, made = highlights.keyed_squares(keys, owner)
            signature = made if signature is None else signature
        else:
            now = highlights.squares_of(view)
    hl = highlights.for_player(game, seat.color, view, version=getattr(seat, "version", None), squares=now)
    highlights.mark(board, hl)
    choice = None
    if options and to is not None and to in options.targets:
        choice = {"to": to, "choices": options.targets[to], "title": panels.choice_title(options.kind, to)}
    query = {}
    if sel is not None:
        query["sel"] = place_key(sel)
        if mode:
            query.update({"mode": mode, "weapon": weapon})
            if piece is not None:
                query["piece"] = piece
    basics = selectors.seat_board_basics(game, seat, state, view, my_turn, review_context)
    return {
        **basics,
        "board": board,
        "turn_panel": panels.turn_panel(view, legal, seat.color) if my_turn else None,
        "selected": sel,
        "selected_key": place_key(sel) if sel else "",
        # The own piece types at the selected place, for their Rules & Help entries.
        "selected_kinds": sorted({
            str(p.get("type")) for p in view.get("pieces", [])
            if sel and p.get("color") == seat.color and (p.get("row"), p.get("col"), p.get("level", "ground")) == sel
        }),
        "sel_query": urlencode(query),
        "mode": mode,
        "mode_weapon": panels.weapon_name(weapon) if mode else "",
        "selected_has_targets": bool(options and options.targets),
        "choice": choice,
        "panel": panel,
        "error": error,
        "highlights": hl,
        "highlight_text": highlights.summary(hl),
        "takeback": takeback.controls(game, seat, state),
        "arrows": arrows.for_player(game, seat.color, state, basics["history"]["notation"]),
        # What this view shows on each Square, for "changed since you last
        # looked" (games/pages/board.py); not rendered into the board itself.
        "seen_signature": (
            signature if signature is not None else highlights.signature(view, owner=owner, squares=now)
        ),
    }


def review_context(game, seat, at=None, history=None, state=None):
    """One position of an ended game's replay: the true board after frame `at`
    (default: the end) with the plain-English line of the Turn that led to it.
    Only for ended games: before that, intermediate positions would leak."""
    frames = selectors.replay_frames(game)
    last = len(frames) - 1
    at = last if at is None else max(0, min(int(at), last))
    if history is None:
        history = selectors.history_lines(game, selectors.load_state(game), seat.color)
    # The true board comes from the review's frames (computed once per ended
    # game; games.ui.wec.review), not from a replay per step.
    view = review_data.frames_of(game, frames)[at].full
    three = _review_boards(game, seat, frames, at)
    line = plain = ""
    if at > 0:
        if at - 1 < len(history["notation"]):
            line = history["notation"][at - 1]
        if at - 1 < len(history["plain"]):
            plain = history["plain"][at - 1]
    return {
        "at": at,
        "last": last,
        "seq": frames[at],
        "board": build_board(view, seat.color),
        "line": line,
        "plain": plain,
        "url": reverse("game_replay", args=[game.pk]),
        "detail_url": reverse("game_detail", args=[game.pk]),
        **three,
    }


def _review_boards(game, seat, frames, at):
    """The review's knowledge boards (what Black and White each knew after
    frame `at`), the Squares where each learned something that Turn, whether
    a hidden enemy could take or hit each primary piece on its next Turn,
    and the plot over the game."""
    fs = review_data.frames_of(game, frames)
    prev = fs[at - 1] if at > 0 else None
    boards = []
    for color in ("black", "white"):
        board = build_board(fs[at].views[color], seat.color)
        learned = review_data.learned(prev, fs[at], color)
        for line in board["grid"]:
            for sq in line["squares"]:
                sq["hl_learn"] = (sq["row"], sq["col"]) in learned
        danger = review_data.threat(fs[at], color)
        boards.append({"color": color, "board": board, "learned": len(learned), "danger": danger.danger,
                       "threat": review_data.describe(danger)})
    stats = review_data.summary(game, frames)
    return {"knowledge": boards, "stats": stats, "plot": review_data.plot(stats, at)}


# After these, the acting piece stays selected (its panel shows what it may still do).
KEEP_SELECTION = ("fire", "pickup", "drop", "exchange")


def kept_selection(action: dict):
    """The acting piece's place, to keep it selected after its action (not
    after a Move, End Turn or Transport, which leave or end it)."""
    if action.get("type") not in KEEP_SELECTION or (action["type"] == "fire" and "to" in action):
        return None
    frm = action.get("from")
    if not isinstance(frm, list) or len(frm) != 3:
        return None
    return parse_place("-".join(str(x) for x in frm))




def watch_context(game, state, at=None) -> dict:
    """The spectators' board: the public view while the game runs (each
    colour's pieces only as the enemy sees them), the full review after."""
    players = {s.color: s.user for s in game.seats.all()}
    context = {"game": game, "players": players, "color": "black"}
    if game.status == Game.Status.FINISHED:
        # Everything is public once the game has ended: the true board and the full record.
        review = review_context(game, SimpleNamespace(color="black"), at=at, state=state)
        review["url"] = reverse("watch_replay", args=[game.pk])
        context["review"] = review
        context["history"] = selectors.history_lines(game, state, "black")
    else:
        board = build_board(wec_selectors.public_view(game, state), "black")
        for line in board["grid"]:
            for square in line["squares"]:
                for band in square["bands"]:
                    for piece in band["pieces"]:
                        piece["own"] = False
                    for proj in band["projectiles"]:
                        proj["own"] = False
                        proj["title"] = proj["kind"]
        context["board"] = board
    return context
