"""Every hand-written SQL statement of the site, and the cursors they run on.

The rest of the site uses the ORM.  The statements here are the few on
every request's or every action's hot path, where building the query
through the ORM cost more CPU than running it (reading a game with its
seats and their users through `select_related` took ~0.8 ms of Python per
request, the statement itself ~0.1 ms), and the few the ORM cannot say
(a session advisory lock, the purge's permission, an asynchronous commit).
Each one is covered by tests/site/test_store_sql.py.

Reads of model rows: `select_models` runs a statement whose columns are
the concrete fields of one or more models in order (`columns()` writes
that list), applies Django's own converters to the values (JSON fields,
and whatever the backend needs) and builds the instances with
`Model.from_db`, as the ORM would: the objects are the ones a QuerySet
gives.

Writes of one action: an accepted action writes its log row, the state
row, the game row and the seats' view versions (and a Turn record, a
snapshot now and then).  Sent one by one through the ORM that was a round
trip and an ORM query build each; on a busy machine each round trip waits
for the database process to be scheduled.  A `Batch` collects these
statements (plain SQL, none of which needs another's result) and sends
them in one `execute` when flushed: one round trip, in the same
transaction, in the order they were added.  The first statement may return
a row (the log row's id).  Whatever reads the database after adding to a
batch must flush it first; the submit path (games.services.submit)
flushes before anything else writes (a notification, the clocks, the end
of a game) and before it returns.  Statements use the psycopg client-side
binding Django's backend uses (several statements may then share one
execute).
"""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Callable, Iterator
from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.backends.postgresql.base import ServerBindingCursor
from django.db.models.sql import Query
from psycopg.types.json import Jsonb

from games.models import Game, GameAction, GameState, GameTurn, Notification, Seat, Snapshot

# --- cursors and rows -------------------------------------------------------------------

_CONVERTERS: dict = {}


@contextlib.contextmanager
def prepared_cursor() -> Iterator:
    """Django's cursor (its wrappers, health check, time zone), but binding
    the parameters on the server and preparing the statement on its first
    run on this connection (psycopg keeps the last 100 per connection): for
    the few hand-written statements of a board fetch, which PostgreSQL
    otherwise parses and plans on every run (the game's statement: 0.34 ->
    0.11 ms of wall time; the last Turn ends' 0.15 -> 0.06 ms).  Only
    statements whose text never varies belong here (a statement per
    distinct text is kept).  WEC_PREPARED_STATEMENTS=0 gives Django's own
    cursor (a pooler that cannot keep prepared statements: docs/scaling.md),
    and so does a connection logging its queries (DEBUG, the tests' query
    counts): Django writes down a statement's SQL only for its
    client-binding cursors."""
    if not settings.WEC_PREPARED_STATEMENTS or connection.queries_logged:
        with connection.cursor() as cursor:
            yield cursor
        return
    connection.ensure_connection()
    raw = connection.connection
    factory, threshold = raw.cursor_factory, raw.prepare_threshold
    # Only this cursor is made with server binding, and only while it runs
    # is a statement prepared on first use (Django's client-binding cursors
    # never prepare anyway).
    raw.cursor_factory = ServerBindingCursor
    try:
        cursor = connection.cursor()
    finally:
        raw.cursor_factory = factory
    raw.prepare_threshold = 0
    try:
        with cursor:
            yield cursor
    finally:
        raw.prepare_threshold = threshold


def columns(model, alias: str) -> str:
    """The select list of `model`'s concrete fields, table alias `alias`."""
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(f.column)}" for f in model._meta.concrete_fields)


def _converters(models: tuple) -> dict:
    """Django's converters for the concrete fields of `models` in a row."""
    out = _CONVERTERS.get(models)
    if out is None:
        fields = [f for model in models for f in model._meta.concrete_fields]
        compiler = connection.ops.compiler("SQLCompiler")(Query(models[0]), connection, connection.alias)
        out = _CONVERTERS[models] = compiler.get_converters([f.get_col(f.model._meta.db_table) for f in fields])
    return out


def select_models(sql: str, params, models: tuple, extra: int = 0, prepared: bool = False) -> list[tuple]:
    """Run `sql` (its columns: `columns(model, ...)` of each of `models`, in
    order, then `extra` plain columns) and give one tuple of instances per
    row, followed by the `extra` values as read; a model whose primary key
    is NULL in a row (an outer join that found nothing) gives None.
    `prepared`: through `prepared_cursor` (a statement whose text never varies)."""
    with prepared_cursor() if prepared else connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    converters = _converters(models)
    if converters:
        compiler = connection.ops.compiler("SQLCompiler")(Query(models[0]), connection, connection.alias)
        rows = list(compiler.apply_converters(rows, converters))
    layout = [_layout(model) for model in models]
    out = []
    for row in rows:
        objects, at = [], 0
        for model, (names, pk_at) in zip(models, layout, strict=True):
            values = row[at : at + len(names)]
            at += len(names)
            objects.append(None if values[pk_at] is None else model.from_db(connection.alias, names, values))
        if extra:
            objects.extend(row[at : at + extra])
        out.append(tuple(objects))
    return out


_LAYOUTS: dict = {}


def _layout(model) -> tuple[list[str], int]:
    """(the attnames of `model`'s concrete fields, the primary key's index)."""
    out = _LAYOUTS.get(model)
    if out is None:
        fields = list(model._meta.concrete_fields)
        out = _LAYOUTS[model] = ([f.attname for f in fields], fields.index(model._meta.pk))
    return out


# --- one action's writes in one round trip ----------------------------------------------


class Batch:
    """Statements to send in one round trip (see the module docstring)."""

    def __init__(self) -> None:
        self._statements: list[tuple[str, list]] = []
        self._on_row: Callable | None = None

    def add(self, sql: str, params=(), on_row: Callable | None = None) -> None:
        """Add a statement; `on_row(row)` gets its first row (first statement only)."""
        if on_row is not None:
            if self._statements:
                raise ValueError("only the first statement of a batch may return a row")
            self._on_row = on_row
        self._statements.append((sql, list(params)))

    def flush(self) -> None:
        """Send what was added, in one execute."""
        if not self._statements:
            return
        sql = ";\n".join(s for s, _ in self._statements)
        params = [p for _, ps in self._statements for p in ps]
        on_row, self._statements, self._on_row = self._on_row, [], None
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            if on_row is not None:
                on_row(cursor.fetchone())


# The JSON text of a jsonb parameter: compact and without the encoder's
# cycle check (plain data), ~10% less CPU than psycopg's default for the
# ~20 KB state row of every action; PostgreSQL stores the same jsonb value.
_dumps = functools.partial(json.dumps, separators=(",", ":"), check_circular=False)


def json_value(value) -> Jsonb:
    """A JSON field's value as a statement parameter (what the ORM sends)."""
    return Jsonb(value, dumps=_dumps)


def json_text(value) -> str:
    """The JSON text json_value sends for `value`."""
    return _dumps(value)


def _as_is(text: str) -> str:
    return text


def json_value_of_text(text: str) -> Jsonb:
    """A jsonb parameter from JSON text already made (json_text's)."""
    return Jsonb(text, dumps=_as_is)


# --- a game and its seats ---------------------------------------------------------------

# The models of a row of `game_rows` and `open_game_rows`, in order.
GAME_ROW = (Seat, get_user_model(), Game)


@functools.cache
def _game_sql() -> str:
    """The game with its seats and their users (its one parameter: the game id)."""
    user = get_user_model()
    return (
        f"SELECT {columns(Seat, 's')}, {columns(user, 'u')}, {columns(Game, 'g')} "
        f"FROM {Seat._meta.db_table} s JOIN {Game._meta.db_table} g ON g.id = s.game_id "
        f"LEFT JOIN {user._meta.db_table} u ON u.{user._meta.pk.column} = s.user_id WHERE s.game_id = %s ORDER BY s.color"
    )


def game_rows(game_id: int) -> list[tuple]:
    """(seat, user, game) of each seat of the game, by colour: the game and
    its seats read in one snapshot (games.selectors.games.get_game)."""
    return select_models(_game_sql(), [game_id], GAME_ROW)


@functools.cache
def _open_game_sql() -> str:
    return (
        f"WITH seen AS (UPDATE {Notification._meta.db_table} SET read = true "
        "WHERE user_id = %s AND game_id = %s AND NOT read) " + _game_sql()
    )


def open_game_rows(user_id: int, game_id: int) -> list[tuple]:
    """`game_rows`, in the statement that marks the user's unread
    notifications of the game read (a player's board fetch)."""
    return select_models(_open_game_sql(), [user_id, game_id, game_id], GAME_ROW, prepared=True)


@functools.cache
def _lock_sql() -> str:
    user = get_user_model()
    return (
        f"SELECT {columns(Game, 'g')}, {columns(Seat, 's')}, {columns(user, 'u')}, "
        f"(SELECT a.hash FROM {GameAction._meta.db_table} a WHERE a.game_id = g.id AND a.seq = g.seq) "
        f"FROM {Game._meta.db_table} g LEFT JOIN {Seat._meta.db_table} s ON s.game_id = g.id "
        f"LEFT JOIN {user._meta.db_table} u ON u.{user._meta.pk.column} = s.user_id "
        f"WHERE g.id = %s ORDER BY s.color FOR UPDATE OF g"
    )


def locked_game_rows(game_id: int) -> list[tuple]:
    """(game, seat, user, the hash of the game's last log row) of each seat,
    by colour, the game row locked FOR UPDATE (of the game row only) for
    this transaction: one statement, one round trip (the ORM's
    select_for_update with a subquery cost three times as much CPU)."""
    return select_models(_lock_sql(), [game_id], (Game, Seat, get_user_model()), extra=1)


def add_game_row(batch: Batch, game: Game) -> None:
    """The game row's fields an action changes, as a statement of `batch`."""
    batch.add(
        f"UPDATE {Game._meta.db_table} SET seq = %s, to_move = %s, status = %s, result = %s, turn_started = %s, "
        "updated = %s, draw_offer = %s, undo_request = %s WHERE id = %s",
        [game.seq, game.to_move, game.status, None if game.result is None else json_value(game.result),
         game.turn_started, game.updated, game.draw_offer, game.undo_request, game.pk],
    )


def add_seat_versions(batch: Batch, seats: list[Seat]) -> None:
    """The seats' view versions and digests, in one statement of `batch`
    (the ORM's bulk_update cost ten times as much CPU)."""
    values = ", ".join(["(%s, %s, %s)"] * len(seats))
    batch.add(
        f"UPDATE {Seat._meta.db_table} AS s SET version = v.version, view_digest = v.digest "
        f"FROM (VALUES {values}) AS v(id, version, digest) WHERE s.id = v.id",
        [x for seat in seats for x in (seat.pk, seat.version, seat.view_digest)],
    )


def add_seat_seen(batch: Batch, seat_id: int, seen: dict) -> None:
    """A seat's record of the board it was shown, as a statement of `batch`."""
    batch.add(f"UPDATE {Seat._meta.db_table} SET seen = %s WHERE id = %s", [json_value(seen), seat_id])


def write_seen(seat_id: int, seen, version: int) -> None:
    """A seat's record of the board it was shown at view `version`, never
    over a newer version's record (view versions only grow: a record written
    after its answer may meet one another process wrote for a newer version
    in the meantime).  `seen` is a jsonb parameter (json_value).  Written
    out: the ORM's UPDATE cost more CPU than the statement."""
    sql = f"UPDATE {Seat._meta.db_table} SET seen = %s WHERE id = %s AND COALESCE((seen->>'v')::bigint, -1) < %s"
    if connection.in_atomic_block:  # a caller's transaction: its commit is its own
        with connection.cursor() as cursor:
            cursor.execute(sql, [seen, seat_id, version])
        return
    # On its own (after the answer), nothing waits for this row but the
    # thread's next request: its commit does not wait for the WAL flush
    # (on a busy disk 1-3 ms).  The row is visible to every reader at once;
    # only a crash of PostgreSQL within ~0.6 s (3 x wal_writer_delay) could
    # lose it, and the record is what the "changed since you last looked"
    # outline compares with, not game data.  One round trip: SET LOCAL
    # holds for this implicit transaction.
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL synchronous_commit TO OFF;\n" + sql, [seen, seat_id, version])


# --- notifications ----------------------------------------------------------------------


def add_notification(
    batch: Batch, user_id: int, game_id: int, kind: str, created: datetime, since: datetime | None = None
) -> None:
    """An unread, not emailed Notification row, as a statement of `batch`.
    With `since`, coalesced (games.services.events.notify): the user's latest
    notice of the same kind for the game from `since` on is renewed instead."""
    table = Notification._meta.db_table
    if since is None:
        batch.add(
            f"INSERT INTO {table} (user_id, game_id, kind, created, read, emailed) "
            "VALUES (%s, %s, %s, %s, false, false)",
            [user_id, game_id, kind, created],
        )
        return
    batch.add(
        f"WITH recent AS (SELECT id FROM {table} WHERE user_id = %s AND game_id = %s AND kind = %s "
        "AND created >= %s ORDER BY created DESC, id DESC LIMIT 1), "
        f"renewed AS (UPDATE {table} SET created = %s, read = false, emailed = false "
        "WHERE id IN (SELECT id FROM recent) RETURNING id) "
        f"INSERT INTO {table} (user_id, game_id, kind, created, read, emailed) "
        "SELECT %s, %s, %s, %s, false, false WHERE NOT EXISTS (SELECT 1 FROM renewed)",
        [user_id, game_id, kind, since, created, user_id, game_id, kind, created],
    )


def mark_game_notifications_read(user_id: int, game_id: int) -> int:
    """Mark the user's unread notifications of one game read (on every game
    page; the ORM's UPDATE cost more CPU than the statement).  Returns how
    many."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Notification._meta.db_table} SET read = true "
            "WHERE user_id = %s AND game_id = %s AND NOT read",
            [user_id, game_id],
        )
        return cursor.rowcount


# --- the action log ---------------------------------------------------------------------


def add_action(batch: Batch, entry: GameAction, on_row: Callable) -> None:
    """The log row `entry` (not saved yet) as the first statement of
    `batch`; `on_row` gets the row's id."""
    batch.add(
        f"INSERT INTO {GameAction._meta.db_table} (game_id, seq, seat_id, action, created, prev_hash, hash) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING id",
        [entry.game_id, entry.seq, entry.seat_id, json_value(entry.action), entry.created, entry.prev_hash, entry.hash],
        on_row=on_row,
    )


@functools.cache
def _log_back_sql() -> str:
    """What `GameAction.objects.filter(...).order_by("-seq").values_list("seq",
    "action", "seat__color")` asked, written out (the ORM's query build was
    most of a board render's CPU for this, ~1 ms)."""
    return (
        f"SELECT a.seq, a.action, s.color FROM {GameAction._meta.db_table} a "
        f"INNER JOIN {Seat._meta.db_table} s ON s.id = a.seat_id "
        "WHERE a.game_id = %s AND a.seq < %s AND a.seq >= %s ORDER BY a.seq DESC"
    )


def log_rows_back(game_id: int, before: int, since: int) -> list[tuple[int, dict, str]]:
    """(seq, action, colour) of the game's log rows numbered `since` up to
    `before` (not included), newest first: a bounded range of seq (they run
    1, 2, 3...), so that no plan reads more."""
    with prepared_cursor() as cursor:
        cursor.execute(_log_back_sql(), [game_id, before, since])
        rows = cursor.fetchall()
    # Django's backend reads jsonb as its text.
    return [(seq, json.loads(action) if isinstance(action, str) else action, color) for seq, action, color in rows]


def allow_purge(game_id: int) -> None:
    """Let this transaction delete the game's log rows: the append-only
    trigger lets a DELETE through only inside a transaction that set
    wec.purge_game to the game's id (migration 0004)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('wec.purge_game', %s, true)", [str(int(game_id))])


# --- states, Turn records, snapshots ----------------------------------------------------


def add_turn_records(batch: Batch, game_id: int, first: int, records: list) -> None:
    """GameTurn rows numbered first + 1, first + 2, ... for `records`."""
    batch.add(
        f"INSERT INTO {GameTurn._meta.db_table} (game_id, number, entry) VALUES "
        + ", ".join(["(%s, %s, %s)"] * len(records)),
        [x for i, r in enumerate(records, 1) for x in (game_id, first + i, json_value(r))],
    )


def add_state(batch: Batch, game_id: int, seq: int, turns: int, state: Jsonb) -> None:
    """The game's GameState row (inserted, or replacing the one there)."""
    batch.add(
        f"INSERT INTO {GameState._meta.db_table} (game_id, seq, turns, state) VALUES (%s, %s, %s, %s) "
        "ON CONFLICT (game_id) DO UPDATE SET seq = EXCLUDED.seq, turns = EXCLUDED.turns, state = EXCLUDED.state",
        [game_id, seq, turns, state],
    )


def add_snapshot(batch: Batch, game_id: int, seq: int, state: Jsonb, turns: int, created: datetime) -> None:
    """A Snapshot row."""
    batch.add(
        f"INSERT INTO {Snapshot._meta.db_table} (game_id, seq, state, turns, created) VALUES (%s, %s, %s, %s, %s)",
        [game_id, seq, state, turns, created],
    )


# --- session advisory locks -------------------------------------------------------------


def try_advisory_lock(key: int) -> bool:
    """Take the session advisory lock `key` if no other session holds it
    (PostgreSQL frees it when the session ends, a dead worker's too)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [key])
        return bool(cursor.fetchone()[0])


def advisory_unlock(key: int) -> None:
    """Free the session advisory lock `key`."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_unlock(%s)", [key])
