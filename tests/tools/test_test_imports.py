"""Test files share helpers through helper modules (tests/site/leak_worlds.py,
long_way.py, clock_steps.py, tests/browser/browser_steps.py, ...) or conftest
fixtures, never by importing another test file: a test file imported as a
module runs its module code twice under two names and ties one test's
helpers to another test's fate.  Read with ``ast``, imports inside functions
included."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHECKED = ("tests/engine", "tests/site", "tests/browser", "tests/tools")


def imports_of_test_files(source: str) -> list[str]:
    """The modules named like test files that `source` imports."""
    out = []
    for node in ast.walk(ast.parse(source)):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        out += [name for name in names if name.split(".")[-1].startswith("test_")]
    return out


def test_the_check_sees_what_it_should():
    source = (
        "import clock_steps\nfrom leak_worlds import SCENARIO\nfrom test_site_leaks import legal\n"
        "def f():\n    from tests.site.test_site_perf_paths import x\n    from .test_other import y\n"
    )
    assert imports_of_test_files(source) == ["test_site_leaks", "tests.site.test_site_perf_paths", "test_other"]


@pytest.mark.parametrize("folder", CHECKED)
def test_no_imports_of_test_files_another(folder):
    found = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        if "vendor" in path.parts:
            continue
        for name in imports_of_test_files(path.read_text()):
            found.append(f"{path.relative_to(ROOT)}: {name}")
    assert not found, "\n".join(found)
