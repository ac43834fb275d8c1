"""The Weaponized Chess site package (see games/registry.py, ``GameUI``):
board and panel view-models, highlights, the review, and the game's hooks.
Everything of the site's that only Wec has lives here too: the board grid
written in Python (grid.py), the options form (options.py), the from-to
arrows (arrows.py), its words and icons (words.py, icons.py) and the
template tag libraries over them (templatetags/).  The rest of the board
partial is its template (BOARD_TEMPLATE and the partials it includes)."""

from __future__ import annotations

from django.db import transaction
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _

from games import boardpatch
from games.rules.wec import search

from . import actions
from . import options as OPTIONS  # noqa: N812 (the options form, as GameUI names it)
from .actions import match_legal_action
from .board import viewer_words
from .context import board_context, board_params, kept_selection, review_context, watch_context
from .highlights import carry_ends, remember_views, signature_changes, since_last_text
from .highlights import signature as view_signature
from .record import translated_line
from .refusals import translate
from .templatetags.wec_grid import PARTS_KEY

NAME = "wec"
LABEL = _("Weaponized Chess")
BOARD_TEMPLATE = "games/wec/board.html"
WATCH_TEMPLATE = "games/wec/watch_board.html"
REPLAY_TEMPLATE = "games/wec/replay.html"
SPRITE_TEMPLATE = "games/wec/sprite.html"  # the piece and Article icons the board uses
SCRIPT = "js/arrows.js"  # the from-to arrows over the board (arrows.py)
STYLESHEET = ""  # the site's own stylesheet has the board's styles
NOTATION_LABEL = _("Wec notation")
EXPORT_EXTENSION = "wec"
RECORD_NUMBERED = False  # the export numbers the notation's lines
# The board highlights what changed since the player last looked
# (games/pages/board.py since_last; games/partials/since_last.html).
SINCE_LAST = True
# Friendly games may agree on an open record (the engine's `open_record`).
OPEN_RECORD = True
OPTIONS_PREFIX = "opt_"
#: Wec's own pages in the site's menu (games/ui/wec/urls.py).
NAV_LINKS = ((_("Board editor"), "scenario_editor"), (_("Sandbox"), "sandbox"))

__all__ = [
    "BOARD_TEMPLATE",
    "EXPORT_EXTENSION",
    "LABEL",
    "NAME",
    "NOTATION_LABEL",
    "OPTIONS",
    "OPEN_RECORD",
    "OPTIONS_PREFIX",
    "NAV_LINKS",
    "RECORD_NUMBERED",
    "REPLAY_TEMPLATE",
    "SCRIPT",
    "SINCE_LAST",
    "SPRITE_TEMPLATE",
    "STYLESHEET",
    "WATCH_TEMPLATE",
    "accepts",
    "action_from_fields",
    "actor",
    "after_settle",
    "ai_action",
    "board_context",
    "board_params",
    "carry_ends",
    "engine_options",
    "kept_selection",
    "plain_words",
    "refusal",
    "render_board",
    "review_context",
    "signature_changes",
    "view_signature",
    "since_last_text",
    "watch_context",
]


def render_board(context: dict) -> str:
    """BOARD_TEMPLATE for board_context's `context`, with its parts
    (games.boardpatch) as its grid built them: most are the Squares the
    player's grid memo kept, whose hashes Python already knows, so the
    board is neither cut again nor hashed again."""
    parts: list[str] = []
    html = render_to_string(BOARD_TEMPLATE, {**context, PARTS_KEY: parts})
    return boardpatch.with_parts(html, parts)


def plain_words(line: str, color: str) -> str:
    """A plain-English record line with its direction words turned for the
    reader (north is up on each player's own screen), in the reader's language."""
    return translated_line(viewer_words(line, color))


def engine_options(options: dict) -> dict:
    """The engine takes the site's options as they are (it knows `competitive`)."""
    return options


def actor(engine, state, color: str) -> bool:
    """Whether `color` may act now: only the side to move."""
    return engine.to_move(state) == color


def accepts(engine, state, color: str, action: dict, legal: list) -> dict:
    """The logged form of a posted action: the entry of legal_actions it is."""
    return match_legal_action(action, legal)


def action_from_fields(data) -> dict:
    """An action posted one field per key, as the board's buttons post it."""
    return actions.action_from_fields(data)


def after_settle(game, views: dict) -> None:
    """After an action that ended a Turn: both colours' views at this Turn
    boundary, kept (after commit) for the highlights of the pages to come,
    which would otherwise replay the Turn from a snapshot."""
    if getattr(game, "last_action_type", None) != "end_turn":
        return
    transaction.on_commit(lambda g=game, s=game.seq, v=views: remember_views(g, s, v))


def ai_action(engine, state, level: str, rng, memo: dict, think_seconds: float) -> dict | None:
    """The AI's next action, from its own side's knowledge only.  "easy" is
    the engine's one-action AI; "normal" and "hard" search the whole Turn
    once (within `think_seconds`) and then follow that plan (kept in `memo`,
    which lives as long as one run of the AI task)."""
    if level == "easy":
        return engine.choose_action(state, rng.randrange(2**31))
    if "plan" not in memo:
        memo["plan"] = search.choose_turn(state, level, rng.randrange(2**31), budget_s=think_seconds)
    action, memo["plan"] = search.follow_plan(state, memo["plan"], rng.randrange(2**31))
    return action


def refusal(message: str) -> str:
    """An engine refusal in the reader's language (games/ui/wec/refusals.py)."""
    return translate(message)
