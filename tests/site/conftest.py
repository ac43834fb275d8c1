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
    (games/boardcache.py): the appended record lines and the "changed since
    you last looked" element, against history.html and since_last.html."""
    from django.template.loader import render_to_string

    from games import boardcache

    appended, since = boardcache.appended_lines, boardcache.since_fragment

    def checked_appended(new):
        got = appended(new)
        assert got == render_to_string(boardcache.HISTORY_TEMPLATE, {"history_append": new}), got
        return got

    def checked_since(data):
        got = since(data)
        expected = "" if data is None else render_to_string(boardcache.SINCE_TEMPLATE, {"since_last": data, "oob": True})
        assert got == expected, (got, expected)
        return got

    monkeypatch.setattr(boardcache, "appended_lines", checked_appended)
    monkeypatch.setattr(boardcache, "since_fragment", checked_since)


@pytest.fixture
def clock(monkeypatch):
    """The services' clock (django.utils.timezone.now), moved by hand from
    clock_steps.T0: set ``clock["t"]``."""
    from clock_steps import T0

    now = {"t": T0}
    monkeypatch.setattr("django.utils.timezone.now", lambda: now["t"])
    return now


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    """Each test gets a new channel layer.  channels_redis keeps one lock for
    all of a process's sockets; a receive holds it until a task that cleans
    the message's backup has run.  A test whose event loop closed before
    that task ran (a Redis a few milliseconds slow after the test's last
    receive, as under load) left the lock held and bound to a dead loop, and
    the next test to receive failed ("bound to a different event loop")."""
    yield
    from channels.layers import channel_layers

    channel_layers.backends.clear()
