"""The shared site knows no game by name (issue 18).

Everything that differs between games lives in the game's own packages,
games/rules/<name>/ and games/ui/<name>/, and its templates under
templates/games/<name>/; the shared app reaches them only through the
registries (games/rules/__init__.py, games/ui/__init__.py).  This test reads
the source (``ast``, so imports inside functions count too) of every shared
module and every shared template and fails on:

* an import of a game's package (``games.ui.wec``, ``from .rules import
  marshal``, ``from games.ui.marshal.views import ...``);
* a string naming a game: a literal equal to a registered game's name (as in
  ``get_game_engine("wec")`` or ``if game.engine == "marshal"``), or one
  holding a game's module path or template folder (``"games/wec/grid.html"``,
  ``"games.ui.marshal.views"``).  Docstrings are prose and are not read;
* in a shared template, a game's template folder or its name in quotes.

So a third game is added by registering its packages, never by editing the
shared modules.  No database is needed.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from games.ui import UI_REGISTRY

ROOT = Path(__file__).resolve().parents[2]
GAMES = tuple(UI_REGISTRY)
GAME_PACKAGES = {ROOT / "games" / "ui" / name for name in GAMES} | {ROOT / "games" / "rules"}

#: Files that name a game on purpose, with the reason.
ALLOWED = {
    # The registry itself: engine name -> package.
    "games/ui/__init__.py": "the registry of the games' site packages",
    # The engine column's default predates issue 18 (rows written before
    # there was a second game are Wec's); changing it would only add a
    # migration, and every new game names its engine (services.create_game).
    "games/models.py": "the engine column's historical default",
}


def shared_modules() -> list[Path]:
    out = []
    for path in sorted((ROOT / "games").rglob("*.py")):
        if any(package in path.parents for package in GAME_PACKAGES):
            continue
        if "migrations" in path.parts:
            continue  # history, written by makemigrations
        out.append(path)
    return out


def shared_templates() -> list[Path]:
    game_dirs = {ROOT / "templates" / "games" / name for name in GAMES}
    return [
        path
        for path in sorted((ROOT / "templates").rglob("*"))
        if path.is_file() and not any(folder in path.parents for folder in game_dirs)
    ]


def _game_in_module(module: str | None) -> str | None:
    """The game whose package `module` (an imported dotted name) is in."""
    if not module:
        return None
    parts = module.lstrip(".").split(".")
    for i, part in enumerate(parts):
        if part in GAMES and i > 0 and parts[i - 1] in ("ui", "rules"):
            return part
    return None


def _docstring_ids(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


_NAMED_IN_TEXT = re.compile(
    r"games/(?P<a>{names})/|(?:ui|rules)\.(?P<b>{names})\b".format(names="|".join(map(re.escape, GAMES)))
)


def problems_in_source(source: str, filename: str = "<source>") -> list[str]:
    """What in `source` (a shared module) names a game, one line each."""
    tree = ast.parse(source, filename)
    docstrings = _docstring_ids(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _game_in_module(alias.name):
                    found.append(f"{filename}:{node.lineno}: imports {alias.name}")
        elif isinstance(node, ast.ImportFrom):
            module = ("." * node.level) + (node.module or "")
            game = _game_in_module(module)
            if game is None and module.lstrip(".").split(".")[-1] in ("ui", "rules"):
                game = next((a.name for a in node.names if a.name in GAMES), None)
            if game:
                found.append(f"{filename}:{node.lineno}: imports {game}'s package ({module})")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if node.value in GAMES or _NAMED_IN_TEXT.search(node.value):
                found.append(f"{filename}:{node.lineno}: names a game: {node.value!r}")
    return found


def problems_in_template(text: str, filename: str = "<template>") -> list[str]:
    names = "|".join(map(re.escape, GAMES))
    pattern = re.compile(rf"games/(?:{names})/|[\"'](?:{names})[\"']")
    return [
        f"{filename}:{n}: names a game: {m.group(0)!r}"
        for n, line in enumerate(text.splitlines(), start=1)
        for m in pattern.finditer(line)
    ]


def test_the_check_sees_what_it_should():
    """The checks themselves: each way of naming a game is caught."""
    bad = '''
from games.ui.wec import highlights
from .ui.marshal import views as marshal_views
from games.rules import wec
import games.rules.marshal.engine

def f(game):
    """Docstrings may say games.ui.wec."""
    from .ui import marshal
    if game.engine == "wec":
        return "games/marshal/board.html"
    return import_module("games.ui.wec.board")
'''
    found = problems_in_source(bad)
    assert len(found) == 8, found
    assert problems_in_source('"""games/wec/ in a docstring"""\nX = "Wec Online"\n') == []
    assert len(problems_in_template('{% include "games/wec/grid.html" %}{% if game.engine == "marshal" %}')) == 2
    assert problems_in_template('{% translate "Wec Online" %}{% load wec_time %}') == []


@pytest.mark.parametrize("path", shared_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_shared_module_names_no_game(path: Path):
    rel = str(path.relative_to(ROOT))
    if rel in ALLOWED:
        pytest.skip(ALLOWED[rel])
    assert problems_in_source(path.read_text(), rel) == []


@pytest.mark.parametrize("path", shared_templates(), ids=lambda p: str(p.relative_to(ROOT)))
def test_shared_template_names_no_game(path: Path):
    rel = str(path.relative_to(ROOT))
    assert problems_in_template(path.read_text(), rel) == []


def test_every_game_package_provides_the_protocol():
    """Each registered site package has every member GameUI declares."""
    from games.ui import GameUI, get_ui

    members = [n for n in vars(GameUI) if not n.startswith("_")] + list(GameUI.__annotations__)
    for name in GAMES:
        ui = get_ui(name)
        missing = sorted({m for m in members if not hasattr(ui, m)})
        assert missing == [], f"{name}: {missing}"
