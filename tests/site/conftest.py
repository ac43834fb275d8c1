"""Every board partial the site tests render through the Python-built board
(games.ui.wec.fastpage, issue 12) is checked against the template it
replaces, templates/games/wec/board.html: the same context must give the
very same HTML, whatever the test was about (selections, take-backs, draw
offers, clocks, vacations, ended games, languages...)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fast_board_is_the_template(monkeypatch):
    from django.template.loader import render_to_string

    import games.ui.wec as wec
    from games.ui.wec import fastpage

    def checked(context):
        got = fastpage.render_board(context)
        expected = render_to_string(wec.BOARD_TEMPLATE, context)
        if got != expected:
            at = next((i for i, (a, b) in enumerate(zip(got, expected, strict=False)) if a != b),
                      min(len(got), len(expected)))
            raise AssertionError(
                f"fastpage differs from board.html at {at}:\n got      {got[at - 300:at + 200]!r}\n"
                f" expected {expected[at - 300:at + 200]!r}"
            )
        from games import boardpatch

        if isinstance(got, boardpatch.CutHTML) and got.cut is not None:
            assert got.cut == boardpatch.split(got), "fastpage's parts are not the board's"
        return got

    monkeypatch.setattr(wec, "render_board", checked)


@pytest.fixture
def clock(monkeypatch):
    """The services' clock (django.utils.timezone.now), moved by hand from
    clock_steps.T0: set ``clock["t"]``."""
    from clock_steps import T0

    now = {"t": T0}
    monkeypatch.setattr("django.utils.timezone.now", lambda: now["t"])
    return now
