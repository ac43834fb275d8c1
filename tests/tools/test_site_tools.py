"""The site's development tools stay apart from the product and keep working.

* Nothing under games/, accounts/ or wecsite/ imports ``tools`` (the source
  read with ``ast``, so imports inside functions count too); the only places
  the product names the tools at all are the two switches that load them in
  development and tests (settings.INSTALLED_APPS, the bench URLs).
* A production configuration (DEBUG off, no WEC_TESTING) loads no module of
  ``tools``; development and tests install the tools' app.
* Each tool is imported and run briefly, with tiny arguments, against this
  run's PostgreSQL and Redis (its web processes started as the tool starts
  them), so that none can rot unnoticed.  Their figures are printed, never
  asserted: only that each ran to its end.
"""

from __future__ import annotations

import ast
import io
import os
import re
import shutil
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("games", "accounts", "wecsite")

#: The product's only mentions of the tools: the switches that load them.
SWITCHES = {
    ("wecsite/settings.py", "tools.site"): "the devtools app, in INSTALLED_APPS only in development and tests",
    ("wecsite/urls.py", "tools.site.urls"): "the benchmark's bare views, only with WEC_BENCH_VIEWS",
}


def _names_tools(name: str | None) -> bool:
    return name is not None and (name == "tools" or name.startswith("tools."))


def tool_references(source: str, filename: str) -> list[tuple[int, str]]:
    """(line, name) of every import of ``tools`` and every string that is a
    dotted name inside it."""
    out = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names if _names_tools(alias.name)]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and _names_tools(node.module):
                out.append((node.lineno, node.module))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _names_tools(node.value):
            out.append((node.lineno, node.value))
    return sorted(out)


def product_modules() -> list[Path]:
    return [path for package in PRODUCT for path in sorted((ROOT / package).rglob("*.py"))]


def test_the_check_sees_what_it_should():
    source = '''
import os
import re
import shutil
import tools.site.benchkit
from tools import i18n_check
from tools.site.benchkit import Http as H

def later():
    from tools.timeline import report
    return importlib.import_module("tools.site.views")

toolset = "tools are not named here"
from .tools import nothing_of_ours
'''
    assert [name for _line, name in tool_references(source, "x.py")] == [
        "tools.site.benchkit", "tools", "tools.site.benchkit", "tools.timeline", "tools.site.views",
    ]


def test_nothing_in_the_product_imports_the_tools():
    assert len(product_modules()) > 50  # the walk found the product
    found = []
    for path in product_modules():
        rel = path.relative_to(ROOT).as_posix()
        for line, name in tool_references(path.read_text(), rel):
            if (rel, name) not in SWITCHES:
                found.append(f"{rel}:{line}: {name}")
    assert not found, "the product names the development tools:\n" + "\n".join(found)


PROBE = """
import sys
import django
django.setup()
import wecsite.asgi, wecsite.urls  # noqa: E401 - what a web process loads
from django.apps import apps
from django.conf import settings
from django.urls import get_resolver
loaded = sorted(m for m in sys.modules if m == "tools" or m.startswith("tools."))
bench = any(str(p.pattern) == "bench/" for p in get_resolver().url_patterns)
print(apps.is_installed("tools.site"), settings.WEC_BENCH_VIEWS, bench, loaded)
"""


def _probe(**env) -> str:
    base = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("WEC_TESTING", "WEC_DEVTOOLS", "WEC_BENCH_VIEWS", "DEBUG", "PYTEST", "DJANGO_ALLOW"))
    }
    base.update(DJANGO_SETTINGS_MODULE="wecsite.settings", SECRET_KEY="x" * 60, ALLOWED_HOSTS="wec.example.org")
    base.update(env)
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=base, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_a_production_install_loads_no_tool():
    assert _probe(DEBUG="0") == "False False False []"
    # Asking for the bench views does not route them without the tools' app.
    assert _probe(DEBUG="0", WEC_BENCH_VIEWS="1") == "False False False []"


def test_development_and_tests_install_the_tools_app():
    for env in ({"DEBUG": "1"}, {"WEC_TESTING": "1"}, {"DEBUG": "0", "WEC_DEVTOOLS": "1"}):
        installed, bench_views, routed, _loaded = _probe(**env).split(" ", 3)
        assert (installed, bench_views, routed) == ("True", "False", "False"), env
    # The benchmark's own web processes: the bare views routed.
    assert _probe(WEC_TESTING="1", WEC_BENCH_VIEWS="1").startswith("True True True")
    assert _probe(DEBUG="1", WEC_DEVTOOLS="0").startswith("False False False")


# --- each tool, briefly ------------------------------------------------------------------


def run_command(name: str, *args: str) -> str:
    out = io.StringIO()
    call_command(name, *args, stdout=out, stderr=io.StringIO())
    text = out.getvalue()
    print(text)  # the figures, for whoever runs with -s
    return text


def test_the_kit_imports_and_every_command_is_the_devtools_apps():
    from django.core.management import get_commands

    from tools.site import benchkit

    assert benchkit.Stack and benchkit.new_bench_game and benchkit.build_long_game
    commands = get_commands()
    for name in ("bench_site", "bench_cpu", "bench_review", "bench_view_versions", "bench_verify_games",
                 "load_test", "socket_soak"):
        assert commands[name] == "tools.site", name
    # The product's operator commands stay the product's.
    assert commands["verify_games"] == commands["ensure_ai_player"] == "games"


@pytest.mark.django_db(transaction=True)  # its web processes read what this process wrote
def test_bench_site():
    out = run_command(
        "bench_site", "--workers", "1", "--clients", "1", "--submits", "3", "--seconds", "0.5", "--long", "60",
        "--pause", "0",
    )
    assert "submit latency" in out and "memory per web process" in out


@pytest.mark.django_db(transaction=True)
def test_load_test():
    out = run_command("load_test", "--workers", "1", "--games", "1", "--seconds", "2", "--think", "0.1")
    assert "verify: 1 of 1 games whole and true" in out


@pytest.mark.django_db
def test_bench_cpu():
    out = run_command("bench_cpu", "--submits", "8", "--long", "60")
    assert "fresh game: CPU per submit" in out and "first board in a fresh process" in out


@pytest.mark.django_db
def test_bench_board():
    from django.core.management import get_commands

    assert get_commands()["bench_board"] == "tools.site"
    out = run_command("bench_board", "--long", "60", "--renders", "2")
    assert "Wec live board: render + parts + digests" in out and "Marshal board" in out and "Wec review board" in out


@pytest.mark.django_db
def test_bench_review():
    out = run_command("bench_review", "--actions", "5", "--steps", "3")
    assert "precomputed: median" in out


@pytest.mark.django_db
def test_bench_view_versions():
    out = run_command("bench_view_versions", "--actions", "5")
    assert "actions: 5" in out


@pytest.mark.django_db
def test_bench_verify_games():
    out = run_command("bench_verify_games", "--games", "1", "--turns", "1", "--purge")
    assert "0 games with problems" in out


@pytest.mark.django_db(transaction=True)
def test_socket_soak():
    out = run_command("socket_soak", "--minutes", "0.05", "--check-every", "1")
    assert "failures: []" in out and "doorbells_received: 0" not in out


@pytest.mark.django_db(transaction=True)
def test_the_submit_timeline_and_its_report():
    from tools.timeline import report, submit

    marks = submit.run(3, 1, pause=0.01)
    table = io.StringIO()
    try:
        with redirect_stdout(table):
            assert report.main([str(marks)]) == 0
    finally:
        shutil.rmtree(marks.parent)
    print(table.getvalue())
    # Every phase found in the marks of at least one request of each kind.
    assert re.search(r"^submit: [1-3] requests", table.getvalue(), re.M), table.getvalue()
    assert re.search(r"^bare: [1-3] requests", table.getvalue(), re.M), table.getvalue()


def test_the_catalogue_check_runs_as_documented():
    result = subprocess.run(
        [sys.executable, "-m", "tools.i18n_check"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "translated" in result.stdout
