"""The writes of one action, sent to PostgreSQL together (issue 12).

An accepted action writes its log row, the state row, the game row and the
seats' view versions (and a Turn record, a snapshot now and then).  Sent one
by one through the ORM that was a round trip and an ORM query build each;
on a busy machine each round trip waits for the database process to be
scheduled.  A `Batch` collects these statements (plain SQL, none of which
needs another's result) and sends them in one `execute` when flushed: one
round trip, in the same transaction, in the order they were added.  The
first statement may return a row (the log row's id).

Whatever reads the database after adding to a batch must flush it first;
the submit path (services._submit_action) flushes before anything else
writes (a notification, the clocks, the end of a game) and before it
returns.  Statements use the psycopg client-side binding Django's backend
uses (several statements may then share one execute).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable

from django.db import connection
from psycopg.types.json import Jsonb


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
