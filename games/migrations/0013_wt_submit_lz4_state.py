"""The state documents (GameState.state, Snapshot.state) compressed with lz4
instead of PostgreSQL's default pglz (issue 12, the submit timeline in
docs/performance.md).  A state row is ~22 KB of JSON rewritten by every
action; pglz compressing it was ~0.25 ms of the database's time in each
submit's write (the upsert 0.69 -> 0.44 ms).  Only new values are written
with lz4 (no table rewrite; the state row of a game converts at its next
action); reads are the same.  A server without lz4 (built without it, or
before PostgreSQL 14) keeps pglz."""

from django.db import migrations

TABLES = ("games_gamestate", "games_snapshot")


def _alter(method: str) -> str:
    statements = " ".join(
        f"EXECUTE 'ALTER TABLE {table} ALTER COLUMN state SET COMPRESSION {method}';" for table in TABLES
    )
    return f"""
DO $$
BEGIN
  {statements}
EXCEPTION WHEN feature_not_supported OR syntax_error THEN
  RAISE NOTICE 'state columns keep their compression: % not available', '{method}';
END $$;
"""


class Migration(migrations.Migration):
    dependencies = [("games", "0012_wt_table_seen")]

    operations = [migrations.RunSQL(_alter("lz4"), _alter("pglz"))]
