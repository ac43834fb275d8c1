"""Per-game site packages, behind a registry (issue 18).

The shared app (views, consumers, tasks, services, shared templates) knows a
game only by its engine name: ``get_ui(game.engine)`` gives the game's site
package, which brings everything that differs between games: the board
partial and its view-model, the spectators' board and the review, the options
form, the setup of a new game and the AI's move.  Adding a game means writing
``games/rules/<name>/`` and ``games/ui/<name>/`` (templates under
``templates/games/<name>/``) and registering both; no ``if game == ...``
anywhere else.  The interface every package module provides is ``GameUI``.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, Protocol

#: engine name -> site package.  The same names as games.rules.REGISTRY.
UI_REGISTRY: dict[str, str] = {
    "wec": "games.ui.wec",
    "marshal": "games.ui.marshal",
}


#: engine name -> the site's adapter of a pure engine, for games whose facade
#: lacks what the site's state store and tasks use (turn records, a dump
#: without the log, a side that acts during setup).  Others use games.rules.
SITE_ENGINES: dict[str, str] = {
    "marshal": "games.ui.marshal.site_engine",
}


def site_engine(name: str):
    """The engine module the site drives for the game `name`."""
    if name in SITE_ENGINES:
        return import_module(SITE_ENGINES[name])
    from games.rules import get_engine

    return get_engine(name)


class GameUI(Protocol):
    """What a game's site package module exposes (games/ui/<name>/__init__.py).

    Besides these, a package may have a ``urls`` module whose ``urlpatterns``
    the shared games/urls.py includes (``game_urlpatterns``), and these
    optional attributes: ``SCRIPT`` / ``STYLESHEET`` (static files of the
    player's page), ``SPRITE_TEMPLATE`` (a template included once at the top
    of the player's page, for the board's icons), ``RECORD_NUMBERED`` (the
    notation numbers its own lines), ``NAV_LINKS`` ((label, URL name) of
    the game's own pages for the site's menu) and ``SINCE_LAST`` (the board
    shows what changed since the player last looked: then the package has
    ``signature_changes(before, after)`` (the Squares, [[row, col], ...],
    where two of its board signatures differ; ``board_context`` gives the
    view's signature as ``seen_signature``), ``since_last_text(squares)``
    (its words), used by games/boardcache.py and services.note_board_shown,
    and ``view_signature(view, owner=None, scratch=None)`` (the signature of
    a view, by the submit that answers with it: `owner` is the player (game
    id, game created, colour) for the package's per-player memos, `scratch`
    the service's record of the actor's view, which the package's
    board_context then gets as ``game.actor_view``),
    and ``render_board(context)`` (the board partial's HTML for
    ``board_context``'s context, byte for byte what ``BOARD_TEMPLATE``
    renders, without the template engine, optionally as a
    ``boardpatch.CutHTML`` carrying its parts: games/boardcache.py uses it
    when present)."""

    NAME: str
    LABEL: Any  # the game's name, translated
    BOARD_TEMPLATE: str  # the #board partial of a player's page
    WATCH_TEMPLATE: str  # the spectators' #watch partial
    REPLAY_TEMPLATE: str  # one position of an ended game's review
    NOTATION_LABEL: Any  # the record's notation tab
    EXPORT_EXTENSION: str  # the record file's extension
    OPTIONS: Any  # the options form module (options_form_class, options_from_form, grouped_fields, describe)
    OPTIONS_PREFIX: str  # its fields' name prefix

    def board_params(self, data) -> dict: ...
    def board_context(self, request, game, seat, **params) -> dict: ...
    def review_context(self, game, seat, at=None, history=None, state=None) -> dict: ...
    def watch_context(self, game, state, at=None) -> dict: ...
    def kept_selection(self, action: dict): ...
    def plain_words(self, line: str, color: str) -> str: ...
    def engine_options(self, options: dict) -> dict: ...
    def actor(self, engine, state, color: str) -> bool: ...
    def accepts(self, engine, state, color: str, action: dict, legal: list) -> dict: ...
    def action_from_fields(self, data) -> dict: ...
    def after_settle(self, game, views: dict) -> None: ...
    def ai_action(self, engine, state, level: str, rng, memo: dict, think_seconds: float) -> dict | None: ...
    def refusal(self, message: str) -> str: ...


def get_ui(name: str):
    """The site package of the game `name` (KeyError naming an unknown game)."""
    try:
        path = UI_REGISTRY[name]
    except KeyError:
        raise KeyError(f"no site package for game {name!r}; known: {sorted(UI_REGISTRY)}") from None
    return import_module(path)


def choices() -> list[tuple[str, Any]]:
    """(engine name, label) of every game the site offers, for forms."""
    return [(name, get_ui(name).LABEL) for name in UI_REGISTRY]


def game_urlpatterns() -> list:
    """The routes of every game's own pages: each package's ``urls`` module,
    when it has one, included at the site's root (its URL names are global,
    so ``{% url %}`` and ``reverse`` need no namespace)."""
    from importlib.util import find_spec

    from django.urls import include, path

    return [
        path("", include(f"{package}.urls")) for package in UI_REGISTRY.values() if find_spec(f"{package}.urls") is not None
    ]


def nav_links() -> list[tuple[Any, str]]:
    """(label, URL name) of the games' own pages for the site's menu."""
    return [link for name in UI_REGISTRY for link in getattr(get_ui(name), "NAV_LINKS", ())]
