"""The shared site knows no game by name, and reaches each game through
typed interfaces.

Everything that differs between games lives in the game's own places: its
engine games/rules/<name>/ (with its site adapter games/engines/<name>.py
when it has one), its site package games/ui/<name>/ (its template tag
libraries in games/ui/<name>/templatetags/) and its templates under
templates/games/<name>/.  The shared app reaches them only through the
registries (games/engines/__init__.py, games/registry.py) and the protocols
there (``Engine``, ``UndoEngine``, ``GameUI``).  This test reads the source
(``ast``, so imports inside functions count too) of every shared module and
every shared template and fails on:

* an import of a game's package (``games.ui.wec``, ``from .rules import
  marshal``, ``from games.engines.marshal import ...``) or of any module of
  the project named after a game (``games.templatetags.wec_board``);
* a string naming a game: a literal equal to a registered game's name (as in
  ``get_engine("wec")`` or ``if game.engine == "marshal"``), or one
  holding a game's module path or template folder (``"games/wec/grid.html"``,
  ``"games.ui.marshal.views"``).  Docstrings are prose and are not read;
* a ``getattr`` / ``hasattr`` of a member of ``GameUI`` or of an engine
  protocol: every member is required, so the shared code never probes;
* a shared file named after a game (``games/templatetags/wec_time.py``);
* in a shared template, a game's template folder or its name in quotes, or
  a ``{% load %}`` of a game's tag library.

And every registered game provides every member of the protocols, each of
its kind (a constant of its type, or a function taking the protocol's
arguments).  So a third game is added by registering its packages, never by
editing the shared modules.  No database is needed.
"""

from __future__ import annotations

import ast
import inspect
import re
import types
from pathlib import Path

import pytest
from django.utils.functional import Promise
from source_reading import docstring_nodes

from games.engines import ENGINES, Engine, UndoEngine
from games.registry import UI_REGISTRY, GameOptions, GameUI, template_libraries

ROOT = Path(__file__).resolve().parents[2]
GAMES = tuple(UI_REGISTRY)
GAME_PLACES = (
    {ROOT / "games" / "ui" / name for name in GAMES}
    | {ROOT / "games" / "engines" / f"{name}.py" for name in GAMES}
    | {ROOT / "games" / "rules"}
)
#: The tag libraries the games' site packages provide.
GAME_LIBRARIES = frozenset(template_libraries())

#: Files that name a game on purpose, with the reason.
ALLOWED = {
    # The registries themselves: engine name -> module.
    "games/registry.py": "the registry of the games' site packages",
    "games/engines/__init__.py": "the registry of the games' engines",
    # The engine column's default predates the second game (rows written
    # before there was one are Wec's); changing it would only add a
    # migration, and every new game names its engine (services.create_game).
    "games/models.py": "the engine column's historical default",
}


def _in_game_place(path: Path) -> bool:
    return any(place == path or place in path.parents for place in GAME_PLACES)


def shared_modules() -> list[Path]:
    out = []
    for path in sorted((ROOT / "games").rglob("*.py")):
        if _in_game_place(path):
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


def _named_after_a_game(name: str) -> bool:
    """`name` (a module or file name without its suffix) is a game's name, or
    starts with one and an underscore (``wec_board``)."""
    return any(name == game or name.startswith(f"{game}_") for game in GAMES)


def _game_in_module(module: str | None) -> str | None:
    """The game whose package `module` (an imported dotted name) is in."""
    if not module:
        return None
    parts = module.lstrip(".").split(".")
    for i, part in enumerate(parts):
        if part in GAMES and i > 0 and parts[i - 1] in ("ui", "rules", "engines"):
            return part
    return None


def _project_module_named_after_a_game(module: str) -> str | None:
    """The part of `module` (an imported dotted name: relative, or of the
    project's `games` package) named after a game.  The standard library's
    ``marshal`` is no game's."""
    if not (module.startswith(".") or module.split(".")[0] == "games"):
        return None
    return next((part for part in module.lstrip(".").split(".") if _named_after_a_game(part)), None)


def _protocol_members(protocol: type) -> dict[str, object]:
    """{member name: the protocol's function, or its annotation (a constant)}."""
    members: dict[str, object] = {}
    for klass in reversed(protocol.__mro__):
        if klass is object or klass.__name__ in ("Protocol", "Generic"):
            continue
        members.update(getattr(klass, "__annotations__", {}))
        members.update({n: v for n, v in vars(klass).items() if inspect.isfunction(v) and not n.startswith("_")})
    return members


#: The names shared code may not probe with getattr / hasattr.
PROBED = frozenset(_protocol_members(GameUI)) | frozenset(_protocol_members(UndoEngine))

def _is_engine_or_ui(node: ast.expr) -> bool:
    """`node` is, by its name, an engine or a game's site package: a name or
    attribute called `engine` / `ui` (or ending so), or a get_engine /
    get_ui call."""
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        return name in ("get_engine", "get_ui", "undo_engine")
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
    return name.lower().endswith(("engine", "ui"))


_NAMED_IN_TEXT = re.compile(
    r"games/(?P<a>{names})/|(?:ui|rules|engines)\.(?P<b>{names})\b".format(names="|".join(map(re.escape, GAMES)))
)


def problems_in_source(source: str, filename: str = "<source>") -> list[str]:
    """What in `source` (a shared module) names a game or probes a protocol
    member, one line each."""
    tree = ast.parse(source, filename)
    docstrings = docstring_nodes(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _game_in_module(alias.name):
                    found.append(f"{filename}:{node.lineno}: imports {alias.name}")
                elif _project_module_named_after_a_game(alias.name):
                    found.append(f"{filename}:{node.lineno}: imports a module named after a game ({alias.name})")
        elif isinstance(node, ast.ImportFrom):
            module = ("." * node.level) + (node.module or "")
            game = _game_in_module(module)
            if game is None and module.lstrip(".").split(".")[-1] in ("ui", "rules", "engines"):
                game = next((a.name for a in node.names if a.name in GAMES), None)
            if game:
                found.append(f"{filename}:{node.lineno}: imports {game}'s package ({module})")
                continue
            named = _project_module_named_after_a_game(module) or next(
                (a.name for a in node.names if _named_after_a_game(a.name) and _project_module_named_after_a_game(
                    f"{module}.{a.name}")), None)
            if named:
                found.append(f"{filename}:{node.lineno}: imports a module named after a game ({named} from {module})")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr"):
            if len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
                member = node.args[1].value
                if member in PROBED or _is_engine_or_ui(node.args[0]):
                    found.append(f"{filename}:{node.lineno}: probes {member!r} of an engine or a GameUI with {node.func.id}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if node.value in GAMES or _NAMED_IN_TEXT.search(node.value):
                found.append(f"{filename}:{node.lineno}: names a game: {node.value!r}")
    return found


_LOAD = re.compile(r"{%\s*load\s+([^%]*?)\s*%}")


def problems_in_template(text: str, filename: str = "<template>") -> list[str]:
    names = "|".join(map(re.escape, GAMES))
    pattern = re.compile(rf"games/(?:{names})/|[\"'](?:{names})[\"']")
    found = [
        f"{filename}:{n}: names a game: {m.group(0)!r}"
        for n, line in enumerate(text.splitlines(), start=1)
        for m in pattern.finditer(line)
    ]
    for n, line in enumerate(text.splitlines(), start=1):
        for m in _LOAD.finditer(line):
            words = m.group(1).split()
            # `{% load a b %}`, or `{% load x y from library %}`.
            libraries = words[-1:] if "from" in words else words
            found += [f"{filename}:{n}: loads a game's tag library: {lib}" for lib in libraries if lib in GAME_LIBRARIES]
    return found


def problems_in_name(path: Path) -> list[str]:
    """A shared file (module or template) named after a game."""
    return [f"{path}: a shared file named after a game"] if _named_after_a_game(path.name.split(".")[0]) else []


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


def test_the_check_sees_modules_named_after_a_game():
    """An engine adapter, a tag library or any project module named after a
    game, imported by a shared module; the standard library's marshal is not
    a game's."""
    bad = '''
from games.engines import marshal
from games.engines.marshal import engine_options
from games.templatetags.wec_board import piece_name
from .templatetags import wec_icons
import games.wec_words

def f():
    from .engines.marshal import to_move
'''
    found = problems_in_source(bad)
    assert len(found) == 6, found
    assert problems_in_source("import marshal\nfrom games.templatetags import clock_time\nimport wecsite.settings\n") == []


def test_the_check_sees_probes_of_protocol_members():
    bad = '''
def f(ui, engine, game):
    getattr(ui, "SINCE_LAST", False)
    hasattr(engine, "undo")
    render = getattr(ui, "render_board", None)
    return getattr(engine, "plain_history", None)
'''
    found = problems_in_source(bad)
    assert len(found) == 4, found
    # Any capability asked of an engine or a site package by name is a probe too.
    more = 'getattr(engine, "public_view", None)\nhasattr(get_ui(name), "urls")\ngetattr(self.site_engine, "x", 0)\n'
    assert len(problems_in_source(more)) == 3
    # Attributes of anything else that are no protocol's member, and names not written out, are not probes.
    assert problems_in_source('getattr(game, "history_epoch", 0)\ngetattr(user, "pk", None)\ngetattr(x, name)\n') == []


def test_the_check_sees_game_libraries_and_file_names():
    assert GAME_LIBRARIES >= {"wec_board", "wec_icons", "wec_grid"}
    found = problems_in_template('{% load i18n wec_board %}\n{% load piece_name from wec_board %}{% load game_words %}')
    assert len(found) == 2, found
    assert problems_in_template("{% load i18n static game_ui clock_time game_words %}") == []
    assert len(problems_in_name(Path("games/templatetags/wec_time.py"))) == 1
    assert len(problems_in_name(Path("games/marshal.py"))) == 1
    assert len(problems_in_name(Path("templates/games/partials/wec_arrows.html"))) == 1
    assert problems_in_name(Path("games/templatetags/clock_time.py")) == []
    assert problems_in_name(Path("wecsite/settings.py")) == []


@pytest.mark.parametrize("path", shared_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_shared_module_names_no_game(path: Path):
    rel = str(path.relative_to(ROOT))
    assert problems_in_name(path.relative_to(ROOT)) == []
    if rel in ALLOWED:
        pytest.skip(ALLOWED[rel])
    assert problems_in_source(path.read_text(), rel) == []


@pytest.mark.parametrize("path", shared_templates(), ids=lambda p: str(p.relative_to(ROOT)))
def test_shared_template_names_no_game(path: Path):
    rel = str(path.relative_to(ROOT))
    assert problems_in_name(path.relative_to(ROOT)) == []
    assert problems_in_template(path.read_text(), rel) == []


# --- the protocols --------------------------------------------------------------------


def _constant_problems(name: str, annotation: str, value: object) -> list[str]:
    """`value` is not a constant of the kind `annotation` (the protocol's, as text) says."""
    if callable(value) and not isinstance(value, (type, types.ModuleType)):
        return [f"{name} is a function, not a constant"]
    kind = annotation.split("[")[0].strip()
    expected = {
        "str": str,
        "bool": bool,
        "Sequence": (tuple, list),
        "dict": dict,
    }.get(kind)
    if expected is not None and not isinstance(value, expected):
        return [f"{name} is {type(value).__name__}, not {kind}"]
    if kind == "Text" and not isinstance(value, (str, Promise)):
        return [f"{name} is neither a string nor a lazily translated one"]
    if kind == "GameOptions":
        return [f"{name}.{problem}" for problem in protocol_problems(GameOptions, value)]
    if kind.startswith("type") and not (isinstance(value, type) and issubclass(value, ValueError)):
        return [f"{name} is not an exception class"]
    return []


def _call_problems(name: str, wanted, given) -> list[str]:
    """`given` (a package's function) cannot be called as the protocol's
    `wanted` is (the site's calls: its parameters by position, by name
    where the protocol lets them be named, optional where it has a default)."""
    if not callable(given):
        return [f"{name} is not a function"]
    want = [p for p in inspect.signature(wanted).parameters.values()][1:]  # without self
    have = list(inspect.signature(given).parameters.values())
    P = inspect.Parameter  # noqa: N806
    positional = [p for p in have if p.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)]
    var_pos = any(p.kind is P.VAR_POSITIONAL for p in have)
    var_kw = any(p.kind is P.VAR_KEYWORD for p in have)
    by_name = {p.name: p for p in have}
    problems = []
    index = 0
    for param in want:
        if param.kind in (P.VAR_POSITIONAL, P.VAR_KEYWORD):
            continue  # the protocol allows more; the package need not take them
        match = None
        if param.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD):
            match = positional[index] if index < len(positional) else None
            index += 1
            if match is None and not var_pos:
                problems.append(f"{name} takes no argument {param.name!r} (position {index})")
                continue
            if param.kind is P.POSITIONAL_OR_KEYWORD and match is not None and match.name != param.name:
                problems.append(f"{name} names its argument {index} {match.name!r}, not {param.name!r}")
                continue
        else:
            match = by_name.get(param.name)
            if match is None and not var_kw:
                problems.append(f"{name} takes no keyword {param.name!r}")
                continue
        if match is not None and param.default is not P.empty and match.default is P.empty:
            problems.append(f"{name}: {param.name!r} must be optional")
    wanted_names = {p.name for p in want}
    for i, param in enumerate(have):
        required = param.default is P.empty and param.kind not in (P.VAR_POSITIONAL, P.VAR_KEYWORD)
        if required and i >= index and param.name not in wanted_names:
            problems.append(f"{name} requires {param.name!r}, which the site never passes")
    return problems


def protocol_problems(protocol: type, implementation: object) -> list[str]:
    """Every member of `protocol` that `implementation` (a module) lacks or
    has of the wrong kind."""
    problems = []
    for name, member in _protocol_members(protocol).items():
        if not hasattr(implementation, name):
            problems.append(f"{name} is missing")
        elif inspect.isfunction(member):
            problems += _call_problems(name, member, getattr(implementation, name))
        else:
            problems += _constant_problems(name, str(member), getattr(implementation, name))
    return problems


def test_the_protocol_check_sees_what_it_should():
    """A package with a member missing, a constant that is a function, a
    function that is a constant, a flag of the wrong type, and functions
    the site could not call as it does."""
    from games.registry import get_ui

    real = get_ui(GAMES[0])
    fake = types.ModuleType("fake")
    for name in _protocol_members(GameUI):
        setattr(fake, name, getattr(real, name))
    assert protocol_problems(GameUI, fake) == []
    del fake.refusal
    fake.SINCE_LAST = "yes"
    fake.SCRIPT = lambda: ""
    fake.render_board = "board.html"
    fake.plain_words = lambda line: line  # no colour
    fake.since_last_text = lambda squares, extra: ""  # a required argument the site never passes
    fake.review_context = lambda game, seat, at, history=None, state=None: {}  # `at` not optional
    fake.view_signature = lambda view, who=None, scratch=None: ""  # `owner` named otherwise
    found = protocol_problems(GameUI, fake)
    assert len(found) == 8, found
    engine = types.ModuleType("engine")
    engine.NAME, engine.DEFAULT_OPTIONS, engine.IllegalAction = "x", {}, KeyError
    assert any("IllegalAction" in p for p in protocol_problems(Engine, engine))
    assert any("new_game is missing" in p for p in protocol_problems(Engine, engine))


def test_the_registries_name_the_same_games():
    from games.rules import REGISTRY

    assert set(ENGINES) == set(UI_REGISTRY) == set(REGISTRY)


def test_every_game_package_provides_the_protocol():
    """Each registered site package has every member GameUI declares, each of its kind."""
    from games.registry import get_ui

    for name in GAMES:
        assert protocol_problems(GameUI, get_ui(name)) == [], name


def test_every_engine_provides_the_protocol():
    """Each registered engine has every call of Engine (and of UndoEngine when
    registered with undo), each of its kind, and names its game."""
    from importlib import import_module

    for name, entry in ENGINES.items():
        module = import_module(entry.module)
        assert protocol_problems(UndoEngine if entry.undo else Engine, module) == [], name
        assert module.NAME == name


def test_every_game_library_is_registered():
    """The template backend knows every game's tag libraries (and nothing
    else under that name)."""
    from django.conf import settings

    libraries = settings.TEMPLATES[0]["OPTIONS"]["libraries"]
    for name in GAMES:
        folder = ROOT / "games" / "ui" / name / "templatetags"
        for path in folder.glob("*.py"):
            if path.stem != "__init__":
                assert libraries[path.stem] == f"games.ui.{name}.templatetags.{path.stem}"
    shared = {p.stem for p in (ROOT / "games" / "templatetags").glob("*.py")}
    assert not shared & set(libraries), "a game's library has a shared library's name"
