"""Model instances from one hand-written SQL statement, for the few reads on
every request's hot path (issue 12).

Building a query through the ORM costs more CPU than running it: reading a
game with its seats and their users through `select_related` took ~0.8 ms
of Python per request, the statement itself ~0.1 ms.  `select_models`
runs a statement whose columns are the concrete fields of one or more models
in order (`columns()` writes that list), applies Django's own converters to
the values (JSON fields, and whatever the backend needs) and builds the
instances with `Model.from_db`, as the ORM would: the objects are the ones
a QuerySet gives.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from django.conf import settings
from django.db import connection
from django.db.models.sql import Query

_CONVERTERS: dict = {}


@contextlib.contextmanager
def prepared_cursor() -> Iterator:
    """Django's cursor (its wrappers, health check, time zone), but binding
    the parameters on the server and preparing the statement on its first
    run on this connection (psycopg keeps the last 100 per connection): for
    the few hand-written statements of a board fetch, which PostgreSQL
    otherwise parses and plans on every run (the game's statement: 0.34 ->
    0.11 ms of wall time; the last Turn ends' 0.15 -> 0.06 ms; measured in
    the seventh round).  Only statements whose text never varies belong here
    (a statement per distinct text is kept).  WEC_PREPARED_STATEMENTS=0 gives
    Django's own cursor (a pooler that cannot keep prepared statements:
    docs/scaling.md), and so does a connection logging its queries (DEBUG,
    the tests' query counts): Django writes down a statement's SQL only for
    its client-binding cursors."""
    if not settings.WEC_PREPARED_STATEMENTS or connection.queries_logged:
        with connection.cursor() as cursor:
            yield cursor
        return
    from django.db.backends.postgresql.base import ServerBindingCursor

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
