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


@pytest.fixture(autouse=True)
def _fragments_are_the_templates(monkeypatch):
    """The same for the board answer's out-of-band parts written in Python
    (games/board_page.py): the appended record lines and the "changed since
    you last looked" element, against history.html and since_last.html."""
    from django.template.loader import render_to_string

    from games.pages import board as board_page

    appended, since = board_page.appended_lines, board_page.since_fragment

    def checked_appended(new):
        got = appended(new)
        assert got == render_to_string(board_page.HISTORY_TEMPLATE, {"history_append": new}), got
        return got

    def checked_since(data):
        got = since(data)
        expected = "" if data is None else render_to_string(board_page.SINCE_TEMPLATE, {"since_last": data, "oob": True})
        assert got == expected, (got, expected)
        return got

    monkeypatch.setattr(board_page, "appended_lines", checked_appended)
    monkeypatch.setattr(board_page, "since_fragment", checked_since)


@pytest.fixture
def clock(monkeypatch):
    """The services' clock (django.utils.timezone.now), moved by hand from
    clock_steps.T0: set ``clock["t"]``."""
    from clock_steps import T0

    now = {"t": T0}
    monkeypatch.setattr("django.utils.timezone.now", lambda: now["t"])
    return now
