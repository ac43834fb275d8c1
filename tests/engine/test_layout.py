"""The engines' module layout (docs/engine-api.md, "Module map").

Builds the import graph of ``games.rules.wec`` and of ``games.rules.marshal``
from the source (``ast``, so imports inside functions count too) and checks
that:

* there is no import cycle, deferred imports included: shared pieces belong
  lower in the layering, not behind an import inside a function;
* no module imports a private (``_name``) name from another module;
* every module has a docstring citing the manual's (or the seed's) line
  numbers ("l. n").

Imports under ``if TYPE_CHECKING:`` are left out: they never run and only
serve annotations (``document.py`` names the ``Game`` it dumps that way).
A package's own ``__init__`` is not counted as imported by its submodules'
relative imports of each other (Python has already started it by then).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from source_reading import find_cycle, type_checking_nodes

RULES = Path(__file__).resolve().parents[2] / "games" / "rules"
#: The engines checked, by package name; the first is the one the tests of
#: the checker itself read.
PACKAGES = {"games.rules.wec": RULES / "wec", "games.rules.marshal": RULES / "marshal"}
PACKAGE = "games.rules.wec"


def module_name(path: Path, package: str = PACKAGE) -> str:
    rel = path.relative_to(PACKAGES[package]).with_suffix("")
    parts = [p for p in rel.parts if p != "__init__"]
    return ".".join([package, *parts])


MODULES = {module_name(p, pkg): p for pkg, root in PACKAGES.items() for p in sorted(root.rglob("*.py"))}


def package_of(name: str) -> str:
    return next(pkg for pkg in PACKAGES if name == pkg or name.startswith(pkg + "."))


def is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def imports(name: str, source: str | None = None) -> list[tuple[str, list[str], int]]:
    """(imported module, names taken from it, line) for every import of the
    engine's own modules in ``name`` (or in ``source`` read as that module),
    at any depth of the code."""
    path = MODULES[name]
    tree = ast.parse(path.read_text() if source is None else source, str(path))
    skip = type_checking_nodes(tree)
    base = name if is_package(name) else name.rpartition(".")[0]
    package = package_of(name)
    out = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == package or alias.name.startswith(package + "."):
                    out.append((alias.name, [], node.lineno))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = base.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                target = ".".join(parts + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not (target == package or target.startswith(package + ".")):
                continue
            names = [a.name for a in node.names]
            # "from . import x" where x is a module is an import of that module.
            for n in names:
                if f"{target}.{n}" in MODULES:
                    out.append((f"{target}.{n}", [], node.lineno))
            plain = [n for n in names if f"{target}.{n}" not in MODULES]
            if plain or not names:
                out.append((target, plain, node.lineno))
    return out


def graph() -> dict[str, set[str]]:
    g: dict[str, set[str]] = {}
    for name in MODULES:
        edges = set()
        for target, _names, _line in imports(name):
            assert target in MODULES, f"{name} imports {target}, which is not a module of the engine"
            if target != name:
                edges.add(target)
        g[name] = edges
    return g


def test_the_graph_sees_the_modules() -> None:
    # Guard the checks below against finding nothing to check.
    g = graph()
    assert f"{PACKAGE}.actions.fire" in g
    assert f"{PACKAGE}.actions.fire" in g[f"{PACKAGE}.actions"]
    assert f"{PACKAGE}.notation" in g[f"{PACKAGE}.actions.turn"]


def test_no_import_cycles() -> None:
    cycle = find_cycle(graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_cycle_finder_finds_a_cycle() -> None:
    # The checker itself can fail: a deferred import back up is a cycle.
    g = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}
    assert find_cycle(g) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_reader_sees_deferred_and_private_imports() -> None:
    # An import inside a function is an edge; a TYPE_CHECKING one is not.
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from .state import Game\n"
        "def f():\n    from .actions.fire import _ray\n    from . import notation\n"
    )
    found = imports(f"{PACKAGE}.moves", source)
    assert (f"{PACKAGE}.actions.fire", ["_ray"], 5) in found
    assert (f"{PACKAGE}.notation", [], 6) in found
    assert all(target != f"{PACKAGE}.state" for target, _, _ in found)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_private_names_cross_modules(name: str) -> None:
    bad = [
        f"line {line}: from {target} import {n}"
        for target, names, line in imports(name)
        for n in names
        if n.startswith("_") and target != name
    ]
    assert not bad, f"{name} takes private names from other modules: {bad}"


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_docstring_cites_the_manual(name: str) -> None:
    doc = ast.get_docstring(ast.parse(MODULES[name].read_text())) or ""
    assert doc, f"{name} has no docstring"
    assert re.search(r"\bl\. \d+", doc), f"{name}'s docstring cites no manual line (\"l. <n>\")"
