"""The Weaponized Chess site package (see games/ui/__init__.py, ``GameUI``):
board and panel view-models, highlights, the review, and the game's hooks."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games import game_options as OPTIONS  # noqa: N812 (the options form, as GameUI names it)

from .context import board_context, board_params, kept_selection, review_context, watch_context

NAME = "wec"
LABEL = _("Weaponized Chess")
BOARD_TEMPLATE = "games/wec/board.html"
WATCH_TEMPLATE = "games/wec/watch_board.html"
REPLAY_TEMPLATE = "games/wec/replay.html"
SCRIPT = "js/arrows.js"  # the from-to arrows over the board (games/arrows.py)
NOTATION_LABEL = _("Wec notation")
EXPORT_EXTENSION = "wec"
# The board highlights what changed since the player last looked
# (games/boardcache.py since_last; games/partials/since_last.html).
SINCE_LAST = True
OPTIONS_PREFIX = "opt_"

__all__ = [
    "BOARD_TEMPLATE",
    "EXPORT_EXTENSION",
    "LABEL",
    "NAME",
    "NOTATION_LABEL",
    "OPTIONS",
    "OPTIONS_PREFIX",
    "REPLAY_TEMPLATE",
    "SINCE_LAST",
    "WATCH_TEMPLATE",
    "accepts",
    "actor",
    "board_context",
    "board_params",
    "engine_options",
    "kept_selection",
    "plain_words",
    "review_context",
    "watch_context",
]


def plain_words(line: str, color: str) -> str:
    """A plain-English record line with its direction words turned for the
    reader (north is up on each player's own screen), in the reader's language."""
    from .board import viewer_words
    from .record import translated_line

    return translated_line(viewer_words(line, color))


def engine_options(options: dict) -> dict:
    """The engine takes the site's options as they are (it knows `competitive`)."""
    return options


def actor(engine, state, color: str) -> bool:
    """Whether `color` may act now: only the side to move."""
    return engine.to_move(state) == color


def accepts(engine, state, color: str, action: dict, legal: list) -> dict:
    """The logged form of a posted action: the entry of legal_actions it is."""
    from games.services import match_legal_action

    return match_legal_action(action, legal)
