"""Per-game site packages, behind a registry.

The shared app (views, consumers, tasks, services, shared templates) knows a
game only by its engine name: ``get_ui(game.engine)`` gives the game's site
package, which brings everything that differs between games: the board
partial and its view-model, the spectators' board and the review, the options
form, the setup of a new game and the AI's move.  Adding a game means writing
its engine (``games/rules/<name>/``, with an adapter in ``games/engines/``
when its facade lacks a call the site makes) and its site package
``games/ui/<name>/`` (templates under ``templates/games/<name>/``, template
tag libraries in its ``templatetags`` folder) and registering both
(games.engines.ENGINES, UI_REGISTRY here); no ``if game == ...`` anywhere
else.  Every package module provides every member of ``GameUI``: a game
without a feature says so (``SINCE_LAST = False``, ``SPRITE_TEMPLATE = ""``)
rather than leaving the member out, so the shared code never probes for one.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

from games.engines import Engine, State

if TYPE_CHECKING:
    from django import forms
    from django.http import HttpRequest
    from django.utils.functional import Promise

    from games.models import Game, Seat

    Text = str | Promise  # a string, or a lazily translated one
else:
    Text = Any

#: engine name -> site package.  The same names as games.engines.ENGINES.
UI_REGISTRY: dict[str, str] = {
    "wec": "games.ui.wec",
    "marshal": "games.ui.marshal",
}


class GameOptions(Protocol):
    """A game's options form module (``GameUI.OPTIONS``)."""

    def options_form_class(self, initial: dict[str, Any] | None = None) -> type[forms.Form]:
        """A form with one field per option, initialised to `initial` (else the standard game's)."""
        ...

    def options_from_form(self, cleaned: dict[str, Any]) -> dict[str, Any]:
        """The options of a valid form: only those that differ from the standard game."""
        ...

    def grouped_fields(self, form: forms.Form) -> list[tuple[Any, list]]:
        """The form's bound fields, grouped for the template."""
        ...

    def describe(self, options: dict[str, Any]) -> list[tuple[Any, list[tuple[Any, Any]]]]:
        """The options that differ from the standard game, in words, by group."""
        ...


class GameUI(Protocol):
    """What a game's site package module (games/ui/<name>/__init__.py) provides.

    Besides these, a package may have a ``urls`` module whose ``urlpatterns``
    the shared games/urls.py includes (``game_urlpatterns``) and a
    ``templatetags`` folder of tag libraries for its own templates
    (``template_libraries``)."""

    NAME: str
    LABEL: Text  # the game's name, translated
    BOARD_TEMPLATE: str  # the #board partial of a player's page
    WATCH_TEMPLATE: str  # the spectators' #watch partial
    REPLAY_TEMPLATE: str  # one position of an ended game's review
    SPRITE_TEMPLATE: str  # included once at the top of the player's page (the board's icons); "" for none
    SCRIPT: str  # a static script of the player's page; "" for none
    STYLESHEET: str  # a static stylesheet of the player's and spectators' pages; "" for none
    NOTATION_LABEL: Text  # the record's notation tab
    EXPORT_EXTENSION: str  # the record file's extension
    RECORD_NUMBERED: bool  # the notation numbers its own lines (the export adds no numbers)
    OPTIONS: GameOptions  # the options form module
    OPTIONS_PREFIX: str  # its fields' name prefix
    NAV_LINKS: Sequence[tuple[Text, str]]  # (label, URL name) of the game's own pages for the site's menu
    # The board shows what changed since the player last looked
    # (games/pages/board.py since_last, games.services.seen.note_board_shown): then
    # board_context gives the view's signature as ``seen_signature`` and the
    # signature members below are used.
    SINCE_LAST: bool
    # The game has an open record that the players of a friendly game may
    # agree on (the engine's `open_record` term: every hidden action shows in
    # both records while the game runs); the site offers the term only then.
    OPEN_RECORD: bool

    def board_params(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """The board partial's parameters (a selection...) from query or posted data."""
        ...

    def board_context(self, request: HttpRequest, game: Game, seat: Seat, **params: Any) -> dict[str, Any]:
        """Everything BOARD_TEMPLATE shows the player `seat`, from that player's own view."""
        ...

    def render_board(self, context: dict[str, Any]) -> str:
        """The board partial's HTML for board_context's `context`: BOARD_TEMPLATE
        rendered (a package may answer a games.boardpatch.CutHTML carrying
        its parts, as its renderer built them)."""
        ...

    def review_context(
        self, game: Game, seat: Any, at: int | None = None, history: dict | None = None, state: State | None = None
    ) -> dict[str, Any]:
        """One position (`at`) of an ended game's review, for REPLAY_TEMPLATE."""
        ...

    def watch_context(self, game: Game, state: State, at: int | None = None) -> dict[str, Any]:
        """The spectators' board, for WATCH_TEMPLATE."""
        ...

    def kept_selection(self, action: dict[str, Any]) -> Any:
        """What stays selected on the board after `action` (None: nothing)."""
        ...

    def plain_words(self, line: str, color: str) -> str:
        """A line of the engine's plain_history in the reader's (`color`'s) words and language."""
        ...

    def engine_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The options a new game's engine is given, from the game's stored options."""
        ...

    def actor(self, engine: Engine, state: State, color: str) -> bool:
        """Whether `color` may act now."""
        ...

    def accepts(
        self, engine: Engine, state: State, color: str, action: dict[str, Any], legal: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """The logged form of a posted action; raises services.IllegalMove or
        MalformedAction for one the player may not take."""
        ...

    def action_from_fields(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """An action posted one field per key (forms.ActionError when that is not one)."""
        ...

    def after_settle(self, game: Game, views: dict[str, dict[str, Any]]) -> None:
        """After a change, with both colours' new views."""
        ...

    def ai_action(
        self, engine: Engine, state: State, level: str, rng: random.Random, memo: dict[str, Any],
        think_seconds: float,
    ) -> dict[str, Any] | None:
        """The AI's next action (`memo` lives as long as one run of the AI task)."""
        ...

    def refusal(self, message: str) -> str:
        """An engine refusal in the reader's language."""
        ...

    def view_signature(self, view: dict[str, Any], owner: tuple | None = None, scratch: dict | None = None) -> str:
        """The signature of a view (SINCE_LAST), by the submit that answers with
        it: `owner` is the player (game id, game created, colour) for the
        package's per-player memos, `scratch` the service's record of the
        actor's view, which board_context then gets as ``game.actor_view``."""
        ...

    def signature_changes(self, before: str, after: str) -> list[list[int]]:
        """The Squares, [[row, col], ...], where two board signatures differ (SINCE_LAST)."""
        ...

    def since_last_text(self, squares: list[list[int]]) -> str:
        """Those Squares in words (SINCE_LAST)."""
        ...

    def carry_ends(self, game: Game, color: str, version: int, seq: int, kind: str | None, actor: str) -> None:
        """After commit of action `seq` (type `kind`, by `actor`), which moved
        `color`'s view to `version`: what the package keeps per view version
        follows from the version before (Wec: the Turn ends its highlights use)."""
        ...


def get_ui(name: str) -> GameUI:
    """The site package of the game `name` (KeyError naming an unknown game)."""
    try:
        path = UI_REGISTRY[name]
    except KeyError:
        raise KeyError(f"no site package for game {name!r}; known: {sorted(UI_REGISTRY)}") from None
    return cast(GameUI, import_module(path))


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
    return [link for name in UI_REGISTRY for link in get_ui(name).NAV_LINKS]


def template_libraries() -> dict[str, str]:
    """{library name: module} of every game package's template tag libraries
    (the ``.py`` files of its ``templatetags`` folder), for the template
    backend's ``libraries`` option (wecsite/settings.py).  Read from the
    files, without importing the packages: the settings need it before the
    apps are loaded."""
    root = Path(__file__).resolve().parent.parent
    out: dict[str, str] = {}
    for package in UI_REGISTRY.values():
        folder = root.joinpath(*package.split("."), "templatetags")
        for path in sorted(folder.glob("*.py")):
            if path.stem != "__init__":
                out[path.stem] = f"{package}.templatetags.{path.stem}"
    return out
