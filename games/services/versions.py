"""View versions: after every change, each seat whose view changed gets a
new version, and its doorbell rings after commit (docs/architecture.md, "Counters
and doorbells")."""

from __future__ import annotations

import functools

from django.db import transaction

from games.engines import get_engine
from games.models import Game, Seat
from games.registry import get_ui
from games.selectors import load_state, view_digest
from games.store import sql

from . import events


def settle_views(
    game: Game, seats: list[Seat], state=None, actor_color: str | None = None, batch: sql.Batch | None = None
) -> list[str]:
    """Inside the caller's transaction (holding the game row lock), after a
    change to the game: bump the view version of every seat whose view changed,
    and ring its doorbell after commit.  The actor's version is bumped on each
    of its own actions even when its view did not change (it knows it acted),
    so a page's version is also a double-submit token.  A seat whose view did
    not change hears nothing: an enemy's unseen action leaves no trace.
    Returns the colours rung."""
    if state is None:
        state = load_state(game)
    engine = get_engine(game.engine)
    views = {}
    changed = []
    for seat in seats:
        views[seat.color] = engine.view(state, seat.color, history=False)
        digest = view_digest(game, seats, state, seat.color, view=views[seat.color])
        if digest == seat.view_digest and seat.color != actor_color:
            continue
        seat.version += 1
        seat.view_digest = digest
        changed.append(seat)
    if actor_color in views:
        # The actor's new view, for the answer to this very action (the
        # view that answers builds its board from it: games.ui.wec.context).
        # Only the actor's: nothing computed for the other side is reused.
        game.actor_view = {"color": actor_color, "seq": game.seq, "view": views[actor_color]}
    if views:
        # The game's own use of the views just computed (Wec keeps them at a
        # Turn boundary for its highlights), registered before the doorbells
        # so that the refreshes they cause find them.
        get_ui(game.engine).after_settle(game, views)
    if changed:
        transaction.on_commit(functools.partial(events.ring_changed, game.pk, [(s.color, s.version) for s in changed]))
    rung = [seat.color for seat in changed]
    if changed:  # one statement for both seats
        own = batch is None
        batch = sql.Batch() if own else batch
        sql.add_seat_versions(batch, changed)
        if own:
            batch.flush()
    return rung
