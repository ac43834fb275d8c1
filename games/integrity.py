"""The action log's integrity: a hash chain over the rows, and an append-only
rule enforced by PostgreSQL (see migration 0003_wt-robust_integrity).

Each GameAction row stores `prev_hash` (the previous row's `hash`, or
GENESIS_HASH for a game's first action) and `hash` = sha256 over the previous
hash, the game id, the row's seq, the seat's colour and the canonical JSON of
the action.  Changing, dropping or reordering any row breaks the chain from
that row on, and `manage.py verify_games` names the first broken row."""

from __future__ import annotations

import hashlib
import json

from django.db import connection, transaction

GENESIS_HASH = "0" * 64


def canonical_json(value) -> str:
    """One spelling per JSON value: sorted keys, no spaces, no NaN."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def action_hash(prev_hash: str, game_id: int, seq: int, color: str, action) -> str:
    # Fields joined with a separator that cannot occur in the hex hash, the
    # numbers or the colour, so two different rows cannot spell the same input.
    text = "\x1f".join([prev_hash, str(int(game_id)), str(int(seq)), str(color), canonical_json(action)])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def append_action(game, seat, action: dict, prev: str | None = None, batch=None):
    """Append the action numbered `game.seq` to the game's log, chained to the
    row before it (whose hash the caller may pass as `prev`, read with the
    game row: services.locked_game).  The caller holds the game row lock, so
    no other row for this game can be written in between.  With a `batch`
    (games.writes) the row is written when the batch is sent."""
    from .models import GameAction

    if game.seq <= 1:
        prev = GENESIS_HASH
    elif prev is None:
        prev = GameAction.objects.filter(game=game, seq=game.seq - 1).values_list("hash", flat=True).first()
    prev = prev or GENESIS_HASH  # a row written before the chain existed
    if batch is not None:
        from django.utils import timezone

        from .writes import json_value

        entry = GameAction(
            game=game, seq=game.seq, seat=seat, action=action, prev_hash=prev, created=timezone.now(),
            hash=action_hash(prev, game.pk, game.seq, seat.color, action),
        )

        def saved(row) -> None:
            entry.pk = row[0]
            entry._state.adding, entry._state.db = False, connection.alias

        batch.add(
            f"INSERT INTO {GameAction._meta.db_table} (game_id, seq, seat_id, action, created, prev_hash, hash) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING id",
            [game.pk, entry.seq, seat.pk, json_value(action), entry.created, prev, entry.hash],
            on_row=saved,
        )
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
    from .models import Game, GameAction

    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config('wec.purge_game', %s, true)", [str(int(game_id))])
        # The log first (GameAction.seat protects the seats, so Django's
        # cascade from the game would refuse), then the game and the rest.
        GameAction.objects.filter(game_id=game_id).delete()
        Game.objects.filter(pk=game_id).delete()
