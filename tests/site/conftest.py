"""Shared fixtures of the site tests.  Every board partial the site tests
render through a game's `render_board` is checked to carry the parts
games.boardpatch would cut it into: a board whose parts its renderer handed
over (Wec's grid: `boardpatch.with_parts`) must have exactly those of
`boardpatch.split`, whatever the test was about."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _handed_over_parts_are_the_boards(monkeypatch):
    from games import boardpatch
    from games.registry import UI_REGISTRY, get_ui

    for name in UI_REGISTRY:
        ui = get_ui(name)
        render = ui.render_board

        def checked(context, render=render):
            html = render(context)
            if isinstance(html, boardpatch.CutHTML) and html.cut is not None:
                assert html.cut == boardpatch.split(html), "the board's handed-over parts are not its parts"
            return html

        monkeypatch.setattr(ui, "render_board", checked)


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
