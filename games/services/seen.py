"""The "seen" records: per seat, the board a player was last shown (its
view version and signature), so that the next board can outline the
Squares "changed since you last looked" (games whose site package has
SINCE_LAST).  Each record is that seat's own: nothing of the other side's
is read or written."""

from __future__ import annotations

import functools

from games import afteranswer
from games.models import Game, Seat
from games.registry import get_ui
from games.store import sql


def note_board_shown(game: Game, seat: Seat, signature: str | None, quiet: bool = False) -> list[list[int]]:
    """The Squares that changed since the board this player was shown before
    the current one ("changed since you last looked"), remembering the current
    one.  Called each time a player is served their board at view version
    `seat.version`, whose view has `signature` (its view_signature; None
    when the caller does not have it).  Serving the same version again
    returns the same Squares, so a selection or a refresh keeps them.
    `quiet`: the player's own action made this board (the act and take-back
    answers), so nothing is new to them.  It reads and writes only this
    seat's record of what it was served: nothing of the other side's.
    Only for a game whose site package has SINCE_LAST (games.registry.GameUI)."""
    if game.status != Game.Status.ACTIVE or seat.user_id is None:
        return []
    seen = seat.seen or {}
    if seen.get("v") == seat.version:
        return list(seen.get("changed") or [])
    if signature is None:
        return []
    # The signature's format is the game's (its site package compares them).
    changed = [] if quiet or not seen.get("sig") else get_ui(game.engine).signature_changes(seen["sig"], signature)
    seat.seen = {"v": seat.version, "sig": signature, "changed": changed}
    # Nothing in this answer reads the record back: it is written once the
    # answer has left (games.afteranswer), before this thread's next request.
    afteranswer.after_answer(functools.partial(sql.write_seen, seat.pk, sql.json_value(seat.seen), seat.version))
    return changed


def note_shown_in_batch(game: Game, seat: Seat, batch: sql.Batch) -> None:
    """What note_board_shown(quiet=True) will write when the answer to this
    action is served (the actor's board of its new view version, nothing new
    to them), written now with the action's other rows: one statement less
    per submit.  The answer then finds the record current and writes nothing."""
    ui = get_ui(game.engine)
    shown = getattr(game, "actor_view", None)
    if (
        not ui.SINCE_LAST
        or shown is None
        or shown["color"] != seat.color
        or game.status != Game.Status.ACTIVE
        or seat.user_id is None
    ):
        return
    # The package may keep what it worked out for the signature in `shown`
    # (Wec: the Squares map its board_context reuses), and the hashes of the
    # player's Squares in that player's memo.
    shown["signature"] = ui.view_signature(shown["view"], owner=(game.pk, str(game.created), seat.color), scratch=shown)
    seat.seen = {"v": seat.version, "sig": shown["signature"], "changed": []}
    sql.add_seat_seen(batch, seat.pk, seat.seen)
