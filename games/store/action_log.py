"""The action log: append-only, hash-chained, and its readers.

Every change to a game's position is a GameAction row, appended and never
changed: PostgreSQL refuses UPDATE and DELETE on the table (migrations
0003 and 0004), except the deliberate `purge_game` of a whole game.

Each row stores `prev_hash` (the previous row's `hash`, or GENESIS_HASH for
a game's first action) and `hash` = sha256 over the previous hash, the game
id, the row's seq, the seat's colour and the canonical JSON of the action.
Changing, dropping or reordering any row breaks the chain from that row on,
and `manage.py verify_games` names the first broken row.

Besides the engine's actions the log holds the site's own *withdrawals*,
`{"type": "withdraw", "steps": n, "why": ...}` (a take-back, or a granted
undo in a friendly game: games.services.takeback), each cancelling the last
`n` actions still in effect.  Replaying one is the engine's own undo
(`apply_entry`), so every reader of the log gets the same state; the
readers below (`live_entries`, `turn_ends`, `turn_bounds`) skip what was
cancelled.
"""

from __future__ import annotations

import hashlib
import json

from django.db import connection, transaction
from django.utils import timezone

from games.engines import Engine, as_undo_engine, registered
from games.models import Game, GameAction

from . import sql

GENESIS_HASH = "0" * 64

# The site's own log entry that is not an engine action: it cancels the last
# `steps` actions still in effect.
WITHDRAW = "withdraw"


def is_withdrawal(action) -> bool:
    return isinstance(action, dict) and action.get("type") == WITHDRAW


def apply_entry(engine: Engine, state, action):
    """The state after one row of the action log: an engine action, or a
    withdrawal replayed through the engine's undo (only a game whose engine
    can take actions back has withdrawals)."""
    if is_withdrawal(action):
        return as_undo_engine(engine).undo(state, int(action["steps"]))
    return engine.apply(state, action)


def canonical_json(value) -> str:
    """One spelling per JSON value: sorted keys, no spaces, no NaN."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def action_hash(prev_hash: str, game_id: int, seq: int, color: str, action) -> str:
    # Fields joined with a separator that cannot occur in the hex hash, the
    # numbers or the colour, so two different rows cannot spell the same input.
    text = "\x1f".join([prev_hash, str(int(game_id)), str(int(seq)), str(color), canonical_json(action)])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def append_action(game, seat, action: dict, prev: str | None = None, batch: sql.Batch | None = None):
    """Append the action numbered `game.seq` to the game's log, chained to the
    row before it (whose hash the caller may pass as `prev`, read with the
    game row: games.services.submit.locked_game).  The caller holds the game
    row lock, so no other row for this game can be written in between.  With
    a `batch` (games.store.sql.Batch) the row is written when the batch is
    sent."""
    if game.seq <= 1:
        prev = GENESIS_HASH
    elif prev is None:
        prev = GameAction.objects.filter(game=game, seq=game.seq - 1).values_list("hash", flat=True).first()
    prev = prev or GENESIS_HASH  # a row written before the chain existed
    if batch is not None:
        entry = GameAction(
            game=game, seq=game.seq, seat=seat, action=action, prev_hash=prev, created=timezone.now(),
            hash=action_hash(prev, game.pk, game.seq, seat.color, action),
        )

        def saved(row) -> None:
            entry.pk = row[0]
            entry._state.adding, entry._state.db = False, connection.alias

        sql.add_action(batch, entry, on_row=saved)
        return entry
    return GameAction.objects.create(
        game=game,
        seq=game.seq,
        seat=seat,
        action=action,
        prev_hash=prev,
        hash=action_hash(prev, game.pk, game.seq, seat.color, action),
    )


def purge_game(game_id: int) -> None:
    """Delete a whole game, its log included: the one deliberate exception to
    the append-only rule (the trigger lets DELETE through only inside a
    transaction that set wec.purge_game to this game's id)."""
    with transaction.atomic():
        sql.allow_purge(game_id)
        # The log first (GameAction.seat protects the seats, so Django's
        # cascade from the game would refuse), then the game and the rest.
        GameAction.objects.filter(game_id=game_id).delete()
        Game.objects.filter(pk=game_id).delete()


# --- readers of the log -----------------------------------------------------------------


def live_entries(game: Game, upto: int | None = None) -> list[tuple[int, str, str]]:
    """(seq, action type, colour) of every logged action still in effect after
    action `upto` (default: the latest), oldest first: the log without its
    withdrawals and the actions they cancelled."""
    rows = GameAction.objects.filter(game=game)
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    live: list[tuple[int, str, str]] = []
    for seq, action, color in rows.order_by("seq").values_list("seq", "action", "seat__color"):
        if is_withdrawal(action):
            del live[len(live) - int(action["steps"]):]
        else:
            live.append((seq, action.get("type", ""), color))
    return live


def has_withdrawals(game: Game) -> bool:
    return GameAction.objects.filter(game=game, action__type=WITHDRAW).exists()


# Rows read at a time when looking for the last Turn ends from the newest back.
ENDS_CHUNK = 32


def turn_ends(game: Game, last: int | None = None) -> list[tuple[int, str]]:
    """(seq, colour) of the actions still in effect that end a Turn, oldest
    first (only the `last` ones when given).  What ends a Turn is the game's
    own rule (games.engines.Registered): an action of its `turn_end` type,
    or the last of a side's run of `turn_actions` (`turn_bounds`).

    With a `turn_end` type, the last few (what Wec's highlights and the
    spectators' Turn start ask for) are found by reading the log backwards
    from its newest row, a few rows at a time along the (game, seq) index,
    so the cost does not grow with the game's length: a withdrawal of n
    steps met on the way cancels the n entries still in effect before it
    (the same as live_entries read forwards).  (Asked as "the last rows of
    that type", PostgreSQL read all of the game's rows: the type is inside
    the JSON.)"""
    marker = registered(game.engine).turn_end
    if not marker:
        ends = turn_bounds(game)[1]
        return ends if last is None else ends[max(0, len(ends) - last):]
    if last:
        return _last_turn_ends(game, last, marker)
    if game.competitive or not has_withdrawals(game):  # the common case: one query
        rows = GameAction.objects.filter(game=game, action__type=marker)
        if last is not None:
            return list(rows.order_by("-seq").values_list("seq", "seat__color")[:last])[::-1]
        return list(rows.order_by("seq").values_list("seq", "seat__color"))
    return [(seq, color) for seq, kind, color in live_entries(game) if kind == marker]


def turn_bounds(game: Game) -> tuple[int, list[tuple[int, str]]]:
    """Where play starts, the seq of the last action still in effect before
    the first Turn (0 when the first action is a Turn's), and `turn_ends`.

    A game with a `turn_end` type has nothing before its first Turn.  In one
    whose Turn passes by itself (`turn_actions`), the side to move changes
    only between Turns, so a Turn ends at the last of a side's run of those
    actions: where the next one is the other side's, and at the newest one
    unless that side is still to move in a running game (its Turn is then
    in progress).  The actions before the first (Marshal's two setups) are
    no Turn's."""
    rule = registered(game.engine)
    if rule.turn_end:
        return 0, turn_ends(game)
    start = 0
    ends: list[tuple[int, str]] = []
    run: tuple[int, str] | None = None  # the newest Turn action: (seq, colour)
    for seq, kind, color in live_entries(game):
        if kind not in rule.turn_actions:
            if run is None:
                start = seq
            continue
        if run is not None and run[1] != color:
            ends.append(run)
        run = (seq, color)
    if run is not None and not (game.status == Game.Status.ACTIVE and game.to_move == run[1]):
        ends.append(run)
    return start, ends


def _last_turn_ends(game: Game, last: int, marker: str) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    cancel = 0  # entries still to pass over, cancelled by a later withdrawal
    before = game.seq + 1
    while len(found) < last and before > 1:
        rows = sql.log_rows_back(game.pk, before, before - ENDS_CHUNK)
        if not rows:
            break
        for seq, action, color in rows:
            if is_withdrawal(action):
                cancel += int(action["steps"])
            elif cancel:
                cancel -= 1
            elif action.get("type") == marker:
                found.append((seq, color))
                if len(found) == last:
                    break
        before = rows[-1][0]
    return found[::-1]
