"""Reading the project's own source with ``ast``, for the tests that check
its shape (tests/engine/test_layout.py, tests/site/test_layout.py,
tests/site/test_game_packages.py): the import nodes that never run, the
docstrings, and an import cycle in a graph of modules."""

from __future__ import annotations

import ast


def type_checking_nodes(tree: ast.AST) -> set[int]:
    """ids of the nodes inside ``if TYPE_CHECKING:`` blocks (imports there
    never run; they only serve annotations)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and (
            (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
            or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
        ):
            for inner in node.body:
                out.update(id(n) for n in ast.walk(inner))
    return out


def docstring_nodes(tree: ast.AST) -> set[int]:
    """ids of the docstrings' constants (of the module, its classes and functions)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def find_cycle(g: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph ``g`` (module -> the modules it imports) as a
    list of modules, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(n: str) -> list[str] | None:
        state[n] = 1
        stack.append(n)
        for m in sorted(g[n]):
            if state.get(m) == 1:
                return stack[stack.index(m) :] + [m]
            if m not in state:
                found = visit(m)
                if found:
                    return found
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(g):
        if n not in state:
            found = visit(n)
            if found:
                return found
    return None
