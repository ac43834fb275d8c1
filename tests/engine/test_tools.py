"""Every engine tool in ``tools/engine`` imports and runs (tiny arguments), so none can rot.

The tools are commands, not tests: here each is run for a moment through
its ``main`` (or the function its ``main`` prints), only to see that it
still works with the engine as it is now and prints what it should.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tools.engine import arena, bench, exactness, identity_hash, marshal_arena, playout_rate

ROOT = Path(__file__).resolve().parents[2]


def test_bench_runs(capsys: pytest.CaptureFixture[str]) -> None:
    bench.main(["--runs", "2", "--seconds", "0.2", "--mid-game", "12", "--replay-turns", "3"])
    out = capsys.readouterr().out
    assert "legal_actions(new_game())" in out
    assert "random playouts" in out
    assert "replay of a 3-Turn random game" in out
    assert "pickled" in out


def test_exactness_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert exactness.main(["--games", "2", "--cap", "12"]) == 0
    out = capsys.readouterr().out
    assert "2 random-option games of at most 12 actions" in out
    assert "undo mismatches: 0" in out


@pytest.mark.parametrize(("a", "b"), [("random", "greedy"), ("hard", "easy")])
def test_arena_runs(capsys: pytest.CaptureFixture[str], a: str, b: str) -> None:
    arena.main(["--a", a, "--b", b, "--games", "1", "--turns", "2", "--budget", "0", "--nodes", "4"])
    out = capsys.readouterr().out
    assert f"{a} vs {b}: 1 games" in out
    assert "W/D/L" in out


def test_arena_twins_run(capsys: pytest.CaptureFixture[str]) -> None:
    arena.main(["--twins", "1", "--nodes", "4", "--seed", "3"])
    assert "twin-world pairs" in capsys.readouterr().out


def test_marshal_arena_runs(capsys: pytest.CaptureFixture[str]) -> None:
    marshal_arena.main(["--games", "1", "--turn-limit", "30", "--playout-seconds", "0.05"])
    out = capsys.readouterr().out
    assert "random playouts:" in out
    assert "AI vs random mover: won" in out
    assert "AI vs greedy one-ply: won" in out


def test_identity_hash_runs_and_repeats() -> None:
    digest, listings = identity_hash.identity(3)
    assert re.fullmatch(r"[0-9a-f]{64}", digest)
    assert listings > 3
    assert identity_hash.identity(3) == (digest, listings)


def test_playout_rate_runs(capsys: pytest.CaptureFixture[str]) -> None:
    playout_rate.main([".", "40", "2"])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert all(re.fullmatch(r"\.: \d+ actions per CPU second \(40 actions, [\d.]+ s\)", line) for line in lines)


def test_playout_rate_runs_plain(capsys: pytest.CaptureFixture[str]) -> None:
    from games.rules.wec import fastpaths

    try:
        playout_rate.main([".", "20", "1", "--plain"])
        assert not fastpaths.FAST_PATHS
    finally:
        fastpaths.FAST_PATHS = True
    assert "20 actions" in capsys.readouterr().out


def test_identity_hash_command_prints_the_same_line_both_ways() -> None:
    # main() chooses the tree before anything imports the engine, so it runs
    # in a process of its own; the plain rules play the same games.
    def line(*extra: str) -> str:
        return subprocess.run([sys.executable, "-m", "tools.engine.identity_hash", ".", "4", *extra], cwd=ROOT,
                              capture_output=True, text=True, check=True).stdout
    fast = line()
    assert re.fullmatch(r"[0-9a-f]{64} \d+\n", fast)
    assert line("--plain") == fast


def test_identity_hash_refuses_an_engine_already_imported() -> None:
    with pytest.raises(RuntimeError, match="before its tree was chosen"):
        identity_hash.main([".", "1"])
