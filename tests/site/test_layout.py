"""The site's module layout: layered packages, imports in one direction.

The counterpart of tests/engine/test_layout.py for the Django site
(``games`` outside its engines in ``games/rules/``, ``accounts``,
``wecsite``).  It builds the import graph from the source (``ast``, so
imports inside functions count too; imports under ``if TYPE_CHECKING:``
never run and do not count) and checks that:

* there is no import cycle, deferred imports included;
* no module takes a private (``_name``) name from another module, neither
  by ``from m import _name`` nor as ``m._name`` of a module it imported;
* no module imports from a layer above its own (``LAYERS``, top to bottom:
  a module may import from its own layer and the ones below);
* an import inside a function is one of the project's only where it must
  be (a start-up cycle with Celery or Django's app loading), and then says
  why with a ``# deferred: <why>`` comment on its line or the line above;
* no module writes SQL text or opens a database cursor except the storage
  module ``games/store/sql.py`` (migrations are history and are not read);
* no product module imports the development tools (``tools``);
* the games' site packages (``games/ui/<name>/``) are reached only through
  ``games.registry`` (a dynamic import, not an edge): nothing outside them
  imports them;
* the rules engines (``games/rules/``) import nothing of the site.

Importing ``a.b.c`` runs the packages ``a`` and ``a.b`` first, so an
import is an edge to the module named and to each package above it, except
the importing module's own packages (Python has started those already).

``python -m pytest tests/site/test_layout.py -k figures -s -q`` prints the
graph's figures and every deferred import with its reason.  No database is
needed.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from source_reading import docstring_nodes, find_cycle, type_checking_nodes

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "accounts", "wecsite")
PROJECT = (*PACKAGES, "tools")
ENGINES = "games.rules"  # the pure engines: below everything, with their own layout test
SQL_MODULE = "games.store.sql"

#: The layers, top to bottom, each a list of modules: "x" is the module x,
#: "x.*" every module below the package x.  A module belongs to the most
#: specific entry that names it.  A module may import from its own layer and
#: from the layers below, never from one above.
LAYERS: list[tuple[str, list[str]]] = [
    (
        "entry points",
        [
            "games.urls", "games.routing", "games.views", "games.views.*", "games.consumers", "games.tasks",
            "games.admin", "games.apps", "games.management", "games.management.*", "games.templatetags",
            "games.templatetags.*", "games.context_processors", "games.forms",
            # The games' site packages sit beside the entry points: they may
            # use every shared layer; the shared code reaches them only
            # through games.registry.
            "games.ui", "games.ui.*",
            "accounts.views", "accounts.views_i18n", "accounts.urls", "accounts.admin", "accounts.apps",
            "accounts.forms", "accounts.middleware",
            "wecsite.settings", "wecsite.urls", "wecsite.asgi", "wecsite.layout",
        ],
    ),
    ("presenters", ["games.pages", "games.pages.*"]),
    ("feature services", ["games.club", "games.club.*", "games.vacation", "games.vacation.*"]),
    ("core services", ["games.services", "games.services.*", "accounts.services"]),
    ("selectors", ["games.selectors", "games.selectors.*", "accounts.selectors"]),
    ("storage", ["games.store", "games.store.*"]),
    (
        "infrastructure",
        [
            "games.queue", "games.doorbells", "games.afteranswer", "games.urlmemo", "games.glicko2",
            "games.notifications", "games.boardpatch",
            # The package only loads the Celery app (wecsite/__init__.py).
            "wecsite", "wecsite.celery", "wecsite.siteurl", "wecsite.ratelimit", "wecsite.security", "wecsite.dburl",
            "wecsite.inputs",
        ],
    ),
    (
        "base",
        [
            "games", "games.models", "games.engines", "games.engines.*", "games.registry", "games.refusals",
            "games.words", "accounts", "accounts.models", "accounts.names",
        ],
    ),
]

DEFERRED_MARK = re.compile(r"#\s*deferred:\s*\S")


def _skipped(rel: Path) -> bool:
    return "migrations" in rel.parts or rel.parts[:2] == ("games", "rules")


def site_modules(root: Path = ROOT) -> dict[str, Path]:
    """module name -> file of every site module under `root`."""
    out = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            rel = path.relative_to(root)
            if _skipped(rel):
                continue
            parts = [p for p in rel.with_suffix("").parts if p != "__init__"]
            out[".".join(parts)] = path
    return out


MODULES = site_modules()


def layer_of(name: str, layers: list[tuple[str, list[str]]] = LAYERS) -> int | None:
    """The index of `name`'s layer (0 = the top), or None when no entry names it."""
    best: tuple[int, int] | None = None  # (specificity, layer)
    for index, (_title, entries) in enumerate(layers):
        for entry in entries:
            if entry.endswith(".*"):
                base = entry[:-2]
                if name.startswith(base + "."):
                    found = (len(base), index)
                else:
                    continue
            elif entry == name:
                found = (len(name) + 1, index)
            else:
                continue
            if best is None or found > best:
                best = found
    return None if best is None else best[1]


@dataclass(frozen=True)
class Import:
    target: str  # the module imported
    names: tuple[str, ...]  # the names taken from it (none for a module)
    line: int
    deferred: bool  # inside a function
    marked: bool  # with a "# deferred: <why>" comment
    reason: str


def _function_nodes(tree: ast.AST) -> set[int]:
    """ids of the nodes inside a function's body."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for inner in ast.walk(node):
                if inner is not node:
                    out.add(id(inner))
    return out


def _is_package(name: str, modules: dict[str, Path]) -> bool:
    return modules[name].name == "__init__.py"


def _project(target: str) -> bool:
    return target.split(".")[0] in PROJECT


def _from_target(node: ast.ImportFrom, base: str) -> str:
    """The module `from ... import` names, relative imports resolved from
    the package `base`."""
    if not node.level:
        return node.module or ""
    parts = base.split(".")
    parts = parts[: len(parts) - (node.level - 1)]
    return ".".join(parts + ([node.module] if node.module else []))


def imports(name: str, source: str | None = None, modules: dict[str, Path] = MODULES) -> list[Import]:
    """Every import of a project module in `name` (or in `source` read as
    that module), at any depth of the code, TYPE_CHECKING ones left out."""
    path = modules[name]
    text = path.read_text() if source is None else source
    lines = text.splitlines()
    tree = ast.parse(text, str(path))
    skip = type_checking_nodes(tree)
    in_function = _function_nodes(tree)
    base = name if _is_package(name, modules) else name.rpartition(".")[0]
    out = []

    # The lines of import statements: a marker above a block of imports covers the block.
    import_lines = {
        line
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for line in range(node.lineno, (node.end_lineno or node.lineno) + 1)
    }

    def marker(node: ast.stmt) -> str | None:
        """The reason of the "# deferred:" comment on the import's line or
        on the line above the block of imports it is in."""
        here = lines[node.lineno - 1] if node.lineno <= len(lines) else ""
        above = node.lineno - 1
        while above in import_lines:
            above -= 1
        candidates = [here, lines[above - 1] if above >= 1 else ""]
        for text in candidates:
            if DEFERRED_MARK.search(text):
                return text[text.index("deferred:") + len("deferred:") :].strip()
        return None

    def note(target: str, names: list[str], node: ast.stmt) -> None:
        reason = marker(node)
        out.append(
            Import(target, tuple(names), node.lineno, id(node) in in_function, reason is not None, reason or "")
        )

    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _project(alias.name):
                    note(alias.name, [], node)
        elif isinstance(node, ast.ImportFrom):
            target = _from_target(node, base)
            if not _project(target):
                continue
            names = [a.name for a in node.names]
            # "from . import x" where x is a module is an import of that module.
            for n in names:
                if f"{target}.{n}" in modules:
                    note(f"{target}.{n}", [], node)
            plain = [n for n in names if f"{target}.{n}" not in modules]
            if plain or not names:
                note(target, plain, node)
    return out


def _ancestors(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def edges_of(name: str, target: str, modules: dict[str, Path] = MODULES) -> set[str]:
    """The modules an import of `target` in `name` runs: `target` and the
    packages above it that are not `name`'s own."""
    own = set(_ancestors(name)) | {name}
    return {m for m in [*_ancestors(target), target] if m in modules and m not in own}


def graph(modules: dict[str, Path] = MODULES) -> dict[str, set[str]]:
    g: dict[str, set[str]] = {}
    for name in modules:
        edges: set[str] = set()
        for imp in imports(name, modules=modules):
            if imp.target.startswith(ENGINES + ".") or imp.target == ENGINES or imp.target.split(".")[0] == "tools":
                continue
            assert imp.target in modules, f"{name} imports {imp.target}, which is not a site module"
            edges |= edges_of(name, imp.target, modules)
        g[name] = edges
    return g


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]
    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in g[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    for v in sorted(g):
        if v not in index:
            strong(v)
    return out


def upward_imports(
    g: dict[str, set[str]], layers: list[tuple[str, list[str]]] = LAYERS
) -> list[tuple[str, str]]:
    """(importer, imported) for every edge into a layer above the importer's."""
    return sorted(
        (a, b)
        for a, targets in g.items()
        for b in targets
        if layer_of(a, layers) is not None and layer_of(b, layers) is not None and layer_of(b, layers) < layer_of(a, layers)
    )


def _module_names(tree: ast.AST, name: str, modules: dict[str, Path]) -> set[str]:
    """The names this module binds to project modules by importing them."""
    base = name if _is_package(name, modules) else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _project(alias.name) and alias.asname:
                    out.add(alias.asname)
        elif isinstance(node, ast.ImportFrom):
            target = _from_target(node, base)
            if not _project(target):
                continue
            for alias in node.names:
                if f"{target}.{alias.name}" in modules or f"{target}.{alias.name}".startswith(ENGINES):
                    out.add(alias.asname or alias.name)
    return out


def _private(n: str) -> bool:
    return n.startswith("_") and not (n.startswith("__") and n.endswith("__"))


def private_uses(name: str, source: str | None = None, modules: dict[str, Path] = MODULES) -> list[str]:
    """Where `name` takes a private name of another project module."""
    text = modules[name].read_text() if source is None else source
    bad = [
        f"line {imp.line}: from {imp.target} import {n}"
        for imp in imports(name, text, modules)
        for n in imp.names
        if _private(n) and imp.target != name
    ]
    tree = ast.parse(text)
    bound = _module_names(tree, name, modules)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and _private(node.attr)
            and isinstance(node.value, ast.Name)
            and node.value.id in bound
        ):
            bad.append(f"line {node.lineno}: {node.value.id}.{node.attr}")
    return bad


SQL_TEXT = re.compile(
    r"^\s*\(?\s*(SELECT|INSERT|UPDATE|DELETE|WITH|SET|CREATE|ALTER|DROP)\s"
    r"|\b(INSERT\s+INTO|DELETE\s+FROM|UPDATE\s+\S+\s+SET|SELECT\s[\s\S]*\sFROM)\s"
)


def sql_uses(source: str) -> list[str]:
    """SQL text (a string, or an f-string's text with its fields as {})
    and cursors opened, in `source`."""
    tree = ast.parse(source)
    docs = docstring_nodes(tree)
    inner: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            inner.update(id(v) for v in node.values)
    found = []
    for node in ast.walk(tree):
        text = None
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs | inner:
            text = node.value
        if text is not None and SQL_TEXT.search(text):
            found.append(f"line {node.lineno}: SQL text {text[:60]!r}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "cursor":
            found.append(f"line {node.lineno}: a cursor")
        if isinstance(node, ast.Name) and node.id == "RawSQL":
            found.append(f"line {node.lineno}: RawSQL")
    return found


def deferred_imports(modules: dict[str, Path] = MODULES) -> list[tuple[str, Import]]:
    return [(name, imp) for name in modules for imp in imports(name, modules=modules) if imp.deferred]


def figures(modules: dict[str, Path] = MODULES, layers: list[tuple[str, list[str]]] = LAYERS) -> dict:
    g = graph(modules)
    deferred = deferred_imports(modules)
    return {
        "modules": len(g),
        "edges": sum(len(v) for v in g.values()),
        "cycles": len(cycles(g)),
        "modules in cycles": sum(len(c) for c in cycles(g)),
        "upward imports": len(upward_imports(g, layers)),
        "deferred imports": len(deferred),
        "deferred without a reason": sum(1 for _n, imp in deferred if not imp.marked),
    }


# --- the checks -------------------------------------------------------------------------


def test_the_graph_sees_the_modules() -> None:
    # Guard the checks below against finding nothing to check.
    g = graph()
    assert "games.services.submit" in g and "games.store.sql" in g
    assert "games.store.sql" in g["games.services.submit"]
    assert "games.services" in g["games.views.games"]
    assert not any(name.startswith(ENGINES) for name in g)


def test_every_module_has_a_layer() -> None:
    missing = [name for name in MODULES if layer_of(name) is None]
    assert not missing, f"modules in no layer of LAYERS: {missing}"


def test_no_import_cycles() -> None:
    cycle = find_cycle(graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_cycle_finder_finds_a_cycle() -> None:
    # The checker itself can fail: a deferred import back up is a cycle.
    g = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}
    assert find_cycle(g) == ["a", "b", "c", "a"]
    assert cycles(g) == [["a", "b", "c"]]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_upward_imports() -> None:
    bad = [f"{a} ({LAYERS[layer_of(a)][0]}) imports {b} ({LAYERS[layer_of(b)][0]})" for a, b in upward_imports(graph())]
    assert not bad, "imports that run up the layers:\n" + "\n".join(bad)


def test_upward_finder_finds_an_upward_import() -> None:
    g = {"games.store.sql": {"games.services.submit"}, "games.services.submit": {"games.store.sql"}}
    assert upward_imports(g) == [("games.store.sql", "games.services.submit")]
    assert layer_of("games.views.games") == 0 and layer_of("games.ui.wec.board") == 0
    assert layer_of("games.models") == len(LAYERS) - 1


def test_an_import_runs_the_packages_above_it() -> None:
    # A module's own packages are started already; a package it reaches into is run.
    assert edges_of("games.club.chat", "games.services.events") == {"games.services", "games.services.events"}
    assert edges_of("games.services.submit", "games.services.events") == {"games.services.events"}


def test_the_reader_sees_deferred_and_private_imports() -> None:
    # An import inside a function is an edge; a TYPE_CHECKING one is not;
    # a private name is seen imported and used as an attribute.
    source = (
        "from typing import TYPE_CHECKING\n"
        "from games.store import render_cache\n"
        "if TYPE_CHECKING:\n    from games.models import Game\n"
        "def f():\n    from games.services.events import _notify\n    from games import selectors\n"
        "    # deferred: a start-up cycle\n    from games import queue\n    from games import doorbells\n"
        "    x = 1\n    from games import urlmemo\n"
        "    return render_cache._shared\n"
    )
    found = imports("games.pages.board", source)
    assert Import("games.services.events", ("_notify",), 6, True, False, "") in found
    assert Import("games.selectors", (), 7, True, False, "") in found
    # The marker covers the block of imports below it, not the imports after other code.
    assert Import("games.queue", (), 9, True, True, "a start-up cycle") in found
    assert Import("games.doorbells", (), 10, True, True, "a start-up cycle") in found
    assert Import("games.urlmemo", (), 12, True, False, "") in found
    assert Import("games.store.render_cache", (), 2, False, False, "") in found
    assert all(imp.target != "games.models" for imp in found)
    assert private_uses("games.pages.board", source) == [
        "line 6: from games.services.events import _notify",
        "line 13: render_cache._shared",
    ]


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_private_names_cross_modules(name: str) -> None:
    bad = private_uses(name)
    assert not bad, f"{name} takes private names from other modules: {bad}"


@pytest.mark.parametrize("name", sorted(MODULES))
def test_deferred_imports_say_why(name: str) -> None:
    bad = [f"line {imp.line}: {imp.target}" for imp in imports(name) if imp.deferred and not imp.marked]
    assert not bad, (
        f"{name} imports inside a function without a '# deferred: <why>' comment "
        f"(move them to the top, unless a start-up cycle needs them there): {bad}"
    )


def test_the_sql_finder_finds_sql() -> None:
    source = (
        '"""SELECT x FROM y in a docstring is prose."""\n'
        "from django.db import connection\n"
        "def f(table):\n"
        '    sql = f"UPDATE {table} SET seen = %s WHERE id = %s"\n'
        '    other = "SELECT pg_try_advisory_lock(%s)"\n'
        "    with connection.cursor() as cursor:\n"
        '        cursor.execute("DELETE FROM t")\n'
        '    return _("Select a Square from the board")\n'
    )
    assert sql_uses(source) == [
        "line 4: SQL text 'UPDATE {} SET seen = %s WHERE id = %s'",
        "line 5: SQL text 'SELECT pg_try_advisory_lock(%s)'",
        "line 6: a cursor",
        "line 7: SQL text 'DELETE FROM t'",
    ]


@pytest.mark.parametrize("name", sorted(set(MODULES) - {SQL_MODULE}))
def test_no_sql_outside_the_storage_module(name: str) -> None:
    bad = sql_uses(MODULES[name].read_text())
    assert not bad, f"{name} writes SQL or opens a cursor (only {SQL_MODULE} does): {bad}"


def test_the_product_does_not_import_the_tools() -> None:
    bad = [
        f"{name} line {imp.line}: {imp.target}"
        for name in MODULES
        for imp in imports(name)
        if imp.target.split(".")[0] == "tools"
    ]
    assert not bad, bad


def test_the_tools_check_sees_a_tools_import() -> None:
    found = imports("games.views.games", "def f():\n    from tools.site import benchkit\n")
    assert [(imp.target, imp.names) for imp in found] == [("tools.site", ("benchkit",))]


def games_packages_reached(name: str, source: str | None = None) -> list[str]:
    """Where `name` (outside the games' packages) imports one of them."""
    if name == "games.ui" or name.startswith("games.ui."):
        return []
    return [
        f"line {imp.line}: {imp.target}"
        for imp in imports(name, source)
        if imp.target == "games.ui" or imp.target.startswith("games.ui.")
    ]


def test_only_the_registry_reaches_the_games_packages() -> None:
    bad = {name: found for name in MODULES if (found := games_packages_reached(name))}
    assert not bad, bad


def test_the_games_package_check_sees_an_import() -> None:
    source = "from games.ui.wec import board\ndef f():\n    import games.ui.marshal\n"
    assert games_packages_reached("games.pages.board", source) == [
        "line 1: games.ui.wec.board",
        "line 3: games.ui.marshal",
    ]
    assert games_packages_reached("games.ui.wec.context", source) == []


def site_imports_of_an_engine(source: str) -> list[str]:
    """The project modules outside the engines that engine code `source` imports."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and not node.level and node.module:
            targets = [node.module]
        elif isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            continue
        found += [t for t in targets if _project(t) and not (t == ENGINES or t.startswith(ENGINES + "."))]
    return found


def test_the_engines_import_nothing_of_the_site() -> None:
    bad = {
        str(path.relative_to(ROOT)): found
        for path in sorted((ROOT / "games" / "rules").rglob("*.py"))
        if (found := site_imports_of_an_engine(path.read_text()))
    }
    assert not bad, bad


def test_the_engine_check_sees_a_site_import() -> None:
    source = "from games.rules.wec import apply\nfrom . import state\ndef f():\n    from games import selectors\n"
    assert site_imports_of_an_engine(source) == ["games"]


def test_figures() -> None:
    # The figures docs/architecture.md quotes: `python -m pytest tests/site/test_layout.py -k figures -s -q`.
    found = figures()
    for key, value in found.items():
        print(f"{key}: {value}")
    for name, imp in deferred_imports():
        print(f"  deferred: {name} line {imp.line} -> {imp.target}: {imp.reason or '(no reason)'}")
    assert found["cycles"] == 0 and found["upward imports"] == 0
    assert found["deferred without a reason"] == 0
